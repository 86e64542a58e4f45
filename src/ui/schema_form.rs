//! The form a tool's schema gives (its `input_schema` for a call's
//! arguments, its `output_schema` for a result typed as the tool), beside
//! the JSON box it stays in sync with: each field reads its value from the
//! JSON and writes its edits back into it (`crate::schema_form` decides what
//! each field is, whether the JSON fits the form and where each problem
//! belongs). A wrong value is refused as it is typed, in the schema
//! validator's words, under its field. A schema the form cannot express
//! keeps the JSON box alone, and says why in one line.
//!
//! Drawn only inside "Call a tool by hand" and "Answer as the tool", split
//! modules: the first paint does not carry it.

use leptos::prelude::*;
use serde_json::Value;

use crate::schema_form::{self as model, Field, Kind, Part, Placed};
use crate::ui::field::{self, Field as FieldView};

/// What every field of one form shares: the arguments' text (the source
/// of truth), its parsed value and the problems placed under the fields.
#[derive(Clone, Copy)]
struct Form {
    args: RwSignal<String>,
    parsed: Memo<Option<Value>>,
    placed: Memo<Placed>,
}

impl Form {
    /// Writes a field's edit into the arguments; with a JSON that does not
    /// parse the form is hidden, so there is nothing to write into.
    fn write(self, path: &[String], value: Option<Value>) {
        self.rewrite(|args| model::written(args, path, value));
    }

    /// Writes a number field's text into the arguments with its digits as
    /// typed (`model::respelled`).
    fn write_number(self, path: &[String], literal: &str) {
        let number = serde_json::from_str::<Value>(literal).ok();
        self.edit(
            |args| model::written(args, path, number),
            Some((path, literal)),
        );
    }

    fn rewrite(self, change: impl FnOnce(&Value) -> Value) {
        self.edit(change, None);
    }

    /// The new text, with every number the edit left as it was still
    /// spelled as it was (the JSON reader holds 99999999999999999999 as
    /// 1e20; printing that back would rewrite the digits).
    fn edit(self, change: impl FnOnce(&Value) -> Value, typed: Option<(&[String], &str)>) {
        if let Some(args) = self.parsed.get_untracked() {
            let before = self.args.get_untracked();
            self.args
                .set(model::respelled(&before, &change(&args), typed));
        }
    }

    fn value(self, path: &[String]) -> Option<Value> {
        self.parsed
            .with(|p| p.as_ref().and_then(|v| model::value_at(v, path)).cloned())
    }
}

/// The form for `schema` over `args` (a call's arguments, or with `part`
/// a tool's result), or the one line saying why there is none.
#[component]
pub fn SchemaForm(
    schema: Value,
    args: RwSignal<String>,
    #[prop(optional)] part: Part,
) -> impl IntoView {
    let compiled = tool_schema::Schema::compile(&schema);
    let fields = match (model::fields_of(&schema, part), compiled) {
        (Ok(fields), Ok(compiled)) => (fields, compiled),
        (Err(why), _) => return no_form(&why, part),
        // The scenario's load check reports a schema that does not compile.
        (_, Err(_)) => return no_form("its schema does not compile", part),
    };
    let (fields, compiled) = fields;
    let parsed = Memo::new(move |_| args.with(|a| serde_json::from_str::<Value>(a).ok()));
    let unshown = {
        let fields = fields.clone();
        Memo::new(move |_| {
            parsed.with(|p| match p {
                None => Some("it is not valid JSON".to_string()),
                Some(args) => model::fits_as(&fields, args, part).err(),
            })
        })
    };
    let placed = {
        let fields = fields.clone();
        Memo::new(move |_| {
            parsed.with(|p| {
                p.as_ref()
                    .map(|args| model::check(&compiled, &fields, args))
                    .unwrap_or_default()
            })
        })
    };
    let form = Form {
        args,
        parsed,
        placed,
    };
    let elsewhere = move || {
        placed.with(|p| {
            (!p.elsewhere.is_empty()).then(|| {
                view! {
                    <ul class="sf-elsewhere">
                        {p.elsewhere.iter().map(|e| view! { <li>{e.clone()}</li> }).collect_view()}
                    </ul>
                }
            })
        })
    };
    let empty_note = fields.is_empty().then(|| {
        let note = match part {
            Part::Arguments => "This tool takes no arguments.",
            Part::Result => "Its output schema names no fields.",
        };
        view! { <p class="bench-note">{note}</p> }
    });
    let label = match part {
        Part::Arguments => "Arguments form",
        Part::Result => "Result form",
    };
    view! {
        <div class="sf-form" role="group" aria-label=label>
            {move || unshown.get().map(|why| view! {
                <p class="sf-unshown" role="status">
                    {format!("The form cannot show this JSON: {why}. Edit it in the JSON box; the form comes back when it can show it.")}
                </p>
            })}
            <div class="sf-fields" hidden=move || unshown.with(Option::is_some)>
                {empty_note}
                {elsewhere}
                {fields.into_iter().map(|f| {
                    let path = vec![f.name.clone()];
                    field_view(f, path, None, form)
                }).collect_view()}
            </div>
        </div>
    }
    .into_any()
}

fn no_form(why: &str, part: Part) -> AnyView {
    let whole = part.whole();
    view! {
        <p class="bench-note sf-none">
            {format!("No form for this tool: {why}. Type its {whole} as JSON.")}
        </p>
    }
    .into_any()
}

/// An element id for the field at `path`: its steps, each character
/// outside `[A-Za-z0-9_]` spelt as its code, so two paths never share one.
fn dom_id(path: &[String]) -> String {
    let mut id = "sf".to_string();
    for step in path {
        id.push('-');
        for c in step.chars() {
            if c.is_ascii_alphanumeric() || c == '_' {
                id.push(c);
            } else {
                id.push_str(&format!(".{:x}", c as u32));
            }
        }
    }
    id
}

/// One field, by its kind; `label` replaces the name for a list's items.
/// An input is drawn by `ui::field::Field`, which links its description
/// and, while one shows, its problem to it; a list or a group is a
/// fieldset that names its own.
fn field_view(field: Field, path: Vec<String>, label: Option<String>, form: Form) -> AnyView {
    let id = dom_id(&path);
    let help_id = format!("{id}-help");
    let problem_id = field::problem_id(&id);
    let at = model::pointer(&path);
    let problems = Memo::new(move |_| form.placed.with(|p| p.by_field.get(&at).cloned()));
    let problem = Signal::derive(move || problems.get().map(|m| m.join("; ")));
    // A list's items are there or removed, never left out: only a
    // property says whether it is required.
    let marked = field.required && label.is_none();
    let name = label.unwrap_or_else(|| field.name.clone());
    let caption = {
        let name = name.clone();
        move || {
            view! {
                {name}
                {marked.then(|| view! { <span class="sf-required">" (required)"</span> })}
            }
        }
    };
    let hint = Signal::stored(field.description.clone());
    let classes = ("sf-help", "sf-problem");
    let required = field.required;
    match field.kind {
        Kind::Text => {
            let read = path.clone();
            let text = Memo::new(move |_| {
                form.value(&read)
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default()
            });
            view! {
                <div class="sf-field">
                    <FieldView id label=caption hint=hint problem classes>
                        <input type="text" spellcheck="false"
                            prop:value=text
                            on:input=move |ev| {
                                let typed = event_target_value(&ev);
                                // An optional field left empty is left out.
                                let value = (required || !typed.is_empty()).then(|| Value::from(typed));
                                form.write(&path, value);
                            } />
                    </FieldView>
                </div>
            }
            .into_any()
        }
        Kind::Number {
            integer,
            minimum,
            maximum,
        } => {
            let read = path.clone();
            // Spelled as the JSON spells it: its reader holds
            // 99999999999999999999 as 1e20, and the box must not rewrite
            // the digits being typed.
            let number = Memo::new(move |_| {
                let value = form.value(&read);
                form.args
                    .with(|text| model::number_shown(text, value.as_ref(), &read))
            });
            view! {
                <div class="sf-field">
                    <FieldView id label=caption hint=hint problem classes>
                        <input type="number"
                            step=if integer { "1" } else { "any" }
                            min=minimum.map(|m| m.to_string())
                            max=maximum.map(|m| m.to_string())
                            prop:value=number
                            on:input=move |ev| {
                                // Read by JSON's number grammar and written as typed, so 3 stays
                                // an integer, 3.5 a fraction the validator can name and every
                                // digit stays; an empty box is no value.
                                let text = event_target_value(&ev);
                                match model::typed_number(&text) {
                                    Some(literal) => form.write_number(&path, literal),
                                    None => form.write(&path, None),
                                }
                            } />
                    </FieldView>
                </div>
            }
            .into_any()
        }
        Kind::Choice(values) => {
            let read = path.clone();
            let current = Memo::new(move |_| form.value(&read));
            let options = values
                .iter()
                .enumerate()
                .map(|(i, value)| {
                    let mine = value.clone();
                    view! {
                        <option value=i.to_string()
                            prop:selected=move || current.with(|c| c.as_ref() == Some(&mine))>
                            {model::choice_label(value)}
                        </option>
                    }
                })
                .collect_view();
            view! {
                <div class="sf-field">
                    <FieldView id label=caption hint=hint problem classes>
                        <select
                            on:change=move |ev| {
                                let picked = event_target_value(&ev).parse::<usize>().ok();
                                form.write(&path, picked.and_then(|i| values.get(i).cloned()));
                            }>
                            {(!required).then(|| view! {
                                <option value="" prop:selected=move || current.with(Option::is_none)>"(not given)"</option>
                            })}
                            {options}
                        </select>
                    </FieldView>
                </div>
            }
            .into_any()
        }
        Kind::Toggle => {
            let read = path.clone();
            let ticked = Memo::new(move |_| form.value(&read) == Some(Value::Bool(true)));
            view! {
                <div class="sf-field sf-toggle">
                    <FieldView id label=caption hint=hint problem classes check=true>
                        <input type="checkbox"
                            prop:checked=ticked
                            on:change=move |ev| form.write(&path, Some(Value::Bool(event_target_checked(&ev)))) />
                    </FieldView>
                </div>
            }
            .into_any()
        }
        Kind::List(item) => {
            let (help, problem, described) =
                fieldset_said(&field.description, help_id, problem_id, problems);
            let read = path.clone();
            let count = Memo::new(move |_| {
                form.value(&read)
                    .and_then(|v| v.as_array().map(Vec::len))
                    .unwrap_or(0)
            });
            let items = {
                let (item, path, name) = ((*item).clone(), path.clone(), name.clone());
                move || {
                    (0..count.get())
                        .map(|i| {
                            let mut at = path.clone();
                            at.push(i.to_string());
                            let list = path.clone();
                            let label = format!("{name}, item {}", i + 1);
                            view! {
                                <div class="sf-item">
                                    {field_view(item.clone(), at, Some(label.clone()), form)}
                                    <button type="button" class="sf-remove" aria-label=format!("Remove {label}")
                                        on:click=move |_| form.rewrite(|args| model::without_item(args, &list, i))>
                                        "Remove"
                                    </button>
                                </div>
                            }
                        })
                        .collect_view()
                }
            };
            let add = {
                let (item, path) = ((*item).clone(), path.clone());
                move |_| form.rewrite(|args| model::with_item(args, &path, &item))
            };
            view! {
                <fieldset class="sf-list" aria-describedby=described>
                    <legend>{caption()}</legend>
                    {help}
                    {problem}
                    {items}
                    <button type="button" class="sf-add" on:click=add>{format!("Add an item to {name}")}</button>
                </fieldset>
            }
            .into_any()
        }
        Kind::Group(fields) => {
            let (help, problem, described) =
                fieldset_said(&field.description, help_id, problem_id, problems);
            view! {
                <fieldset class="sf-group" aria-describedby=described>
                    <legend>{caption()}</legend>
                    {help}
                    {problem}
                    {fields.into_iter().map(|f| {
                        let mut at = path.clone();
                        at.push(f.name.clone());
                        field_view(f, at, None, form)
                    }).collect_view()}
                </fieldset>
            }
            .into_any()
        }
    }
}

/// A list's or a group's description and problem, under its legend, and
/// the ids its fieldset's `aria-describedby` names.
fn fieldset_said(
    description: &str,
    help_id: String,
    problem_id: String,
    problems: Memo<Option<Vec<String>>>,
) -> (impl IntoView, impl IntoView, String) {
    let described = format!("{help_id} {problem_id}");
    let help = view! { <p class="sf-help" id=help_id>{description.to_string()}</p> };
    let problem = view! {
        <p class="sf-problem" id=problem_id>
            {move || problems.get().map(|m| m.join("; "))}
        </p>
    };
    (help, problem, described)
}
