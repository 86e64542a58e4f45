//! The structured scenario editor: task and system prompt, each tool
//! (description, JSON Schema, needs_approval), every limit with its unit, and
//! the scripted model's responses. Each field writes through to the JSON text
//! (see `form`); problems show under the part of the form they are about.
//!
//! The fields are built from the text once per `Editor::revision` and are
//! not re-rendered while the person types, so focus and caret stay put.
//!
//! While the JSON text does not parse, the form stays: it shows the last text
//! that did, marked out of date and disabled (an edit could not be written
//! into a text that is not JSON), so a typo does not make it vanish.

use leptos::either::Either;
#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;
use serde_json::Value;

use crate::editor::form::{self, FieldKind, Key, ToolForm};
use crate::editor::state::Editor;
use crate::state::form_doc::FormDoc;
use crate::ui::field::Field;

/// The editor's form, a split module: the first paint shows the lesson and
/// the JSON box, and the fields arrive once no run needs the network
/// (`Controller::quiet`), or when a lesson opens. The Compare panel's B form
/// is in that panel's module.
#[cfg_attr(feature = "split", lazy)]
pub async fn editor_form(editor: Editor, problems: Signal<Vec<String>>) -> AnyView {
    // An open lesson's editable paths each have a JSON box of their own in
    // the lesson's column (`lessons::view::parts`), beside its goal and Check.
    view! { <ScenarioForm editor problems /> }.into_any()
}

#[component]
pub fn ScenarioForm<D: FormDoc>(
    /// The text the fields edit: the editor's, or the comparison's B.
    editor: D,
    /// The live load problems of the text, as `path: message` lines.
    #[prop(into)]
    problems: Signal<Vec<String>>,
) -> impl IntoView {
    let last_good = StoredValue::new(None::<Value>);
    move || {
        editor.revision().track();
        let text = editor.text().get_untracked();
        match serde_json::from_str::<Value>(&text) {
            Ok(value) if value.is_object() => {
                let view = form_view(editor, &value, problems).into_any();
                last_good.set_value(Some(value));
                view
            }
            parsed => {
                let why = if parsed.is_ok() {
                    "the JSON below is not an object".to_string()
                } else {
                    match crate::editor::form::syntax_error(&text) {
                        Some(at) => format!(
                            "the JSON below is not valid at line {}, column {}",
                            at.line, at.column
                        ),
                        None => "the JSON below is not valid".to_string(),
                    }
                };
                match last_good.get_value() {
                    Some(value) => view! {
                        <p class="form-stale-note" role="status">
                            {format!("‖ Out of date: {why}. The fields show the last version that parsed, and can be edited again once it parses.")}
                        </p>
                        <fieldset class="form-stale" disabled>
                            {form_view(editor, &value, problems)}
                        </fieldset>
                    }
                    .into_any(),
                    None => view! {
                        <p class="form-off">{format!("The fields appear once the JSON below parses: {why}.")}</p>
                    }
                    .into_any(),
                }
            }
        }
    }
}

/// What keeps a field's text out of the JSON, said under the field.
fn field_error(editor: impl FormDoc, key: String) -> Signal<Option<String>> {
    Signal::derive(move || {
        editor.field_errors().with(|errors| {
            errors
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, e)| e.clone())
        })
    })
}

/// Marks a field a lesson lets the learner change, in words and a shape
/// (the other fields are read-only, which the browser shows on its own);
/// and, in a text set beside another (Compare's B), a field whose value
/// differs from the other's, in words inside its label (so its name says it).
fn editable_mark(editor: impl FormDoc, path: String) -> impl IntoView {
    move || {
        let locked = editor.lock().is_some_and(|l| l.with(Option::is_some));
        let editable = (locked && !editor.fixed(&path))
            .then(|| view! { <span class="lesson-editable">" ✎ editable in this lesson"</span> });
        let differs = editor
            .differing()
            .is_some_and(|d| d.with(|paths| paths.contains(&path)))
            .then(|| view! { <span class="differs-from-a">" ≠ differs from A"</span> });
        (editable, differs)
    }
}

/// Whether a form section holds a path an open lesson lets the learner
/// change, or a field that differs from the text beside it: that section
/// opens, so the field is in view.
fn holds_editable(editor: impl FormDoc, section: &'static str) -> bool {
    let differs = editor
        .differing()
        .is_some_and(|d| d.with(|paths| crate::compare::fields::holds(paths, section)));
    differs
        || editor.lock().is_some_and(|l| {
            l.with(|l| {
                l.as_ref().is_some_and(|paths| {
                    paths.iter().any(|p| {
                        p == section
                            || p.starts_with(&format!("{section}."))
                            || p.starts_with(&format!("{section}["))
                    })
                })
            })
        })
}

/// Whether a section is open, set only when that changes: a section the
/// person opened stays open while an edit elsewhere changes what differs.
fn opens(holds: impl Fn() -> bool + Send + Sync + 'static) -> impl Fn() -> bool {
    let open = Memo::new(move |_| holds());
    move || open.get()
}

/// What an open lesson locks, said once above the fields.
fn lock_note(editor: impl FormDoc) -> impl IntoView {
    move || {
        editor.lock().and_then(|l| l.get()).map(|paths| {
            let text = if paths.is_empty() {
                "Read-only: this lesson keeps the whole scenario as it is: it is solved in the run. Every field here and the JSON box are read-only; close Lessons to edit freely.".to_string()
            } else {
                format!(
                    "Read-only but for ✎: this lesson lets you change only {}: those fields are marked ✎. Every other field and the JSON box are read-only; close Lessons to edit freely.",
                    paths.join(", ")
                )
            };
            view! { <p class="lesson-lock" role="note">{text}</p> }
        })
    }
}

fn problem_list(lines: impl Fn() -> Vec<String> + Send + Sync + 'static) -> impl IntoView {
    view! {
        // The alert holds the list: a list with the alert role is no list to a screen reader.
        <div role="alert">
            <ul class="field-problems">
                {move || lines().into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}
            </ul>
        </div>
    }
}

fn form_view(editor: impl FormDoc, value: &Value, problems: Signal<Vec<String>>) -> impl IntoView {
    let task = value["task"].as_str().unwrap_or_default().to_string();
    let system = value["system"].as_str().unwrap_or_default().to_string();
    let string_field = move |field: &'static str| {
        move |ev| {
            let text = event_target_value(&ev);
            let value = (!text.is_empty() || field == "task").then(|| Value::from(text));
            editor.edit_field(field, &[Key::Field(field)], value);
        }
    };
    let tools = form::tool_forms(value)
        .into_iter()
        .enumerate()
        .map(|(i, tool)| tool_view(editor, i, tool, problems))
        .collect_view();
    let limits = form::LIMITS
        .iter()
        .map(|field| limit_view(editor, "limits", field, form::limit_text(value, field.key)))
        .collect_view();
    let context = form::CONTEXT_FIELDS
        .iter()
        .map(|field| {
            limit_view(
                editor,
                "context",
                field,
                form::field_text(value, "context", field.key),
            )
        })
        .collect_view();
    let responses = form::responses_text(value);
    let responses_error = field_error(editor, "responses".to_string());
    let has_script = value.get("model").is_some_and(Value::is_object);
    let p = editor.id_prefix();
    let id = move |name: &str| format!("{p}field-{name}");
    view! {
        {lock_note(editor)}
        <details class="form-section" open>
            <summary>"Task and system prompt"</summary>
            <Field id=id("task") label=|| "Task" mark=move || editable_mark(editor, "task".into())>
                <textarea class="prose" rows="2" prop:value=task on:input=string_field("task")
                    prop:readOnly=move || editor.fixed("task")></textarea>
            </Field>
            {problem_list(move || problems.with(|p| form::problems_under(p, "task")))}
            <Field id=id("system") label=|| "System prompt" mark=move || editable_mark(editor, "system".into())>
                <textarea class="prose" rows="2" prop:value=system on:input=string_field("system")
                    prop:readOnly=move || editor.fixed("system")></textarea>
            </Field>
        </details>
        <details class="form-section" prop:open=opens(move || holds_editable(editor, "tools") || holds_editable(editor, "tool_choice"))>
            <summary>"Tools"</summary>
            {tools}
            <p class="hint">"Add or remove tools in the JSON below."</p>
            {tool_choice_view(editor, value, problems)}
        </details>
        <details class="form-section" prop:open=opens(move || holds_editable(editor, "limits"))>
            <summary>"Limits"</summary>
            <div class="limits">{limits}</div>
            {problem_list(move || problems.with(|p| form::problems_under(p, "limits")))}
        </details>
        <details class="form-section" data-section="context" prop:open=opens(move || holds_editable(editor, "context"))>
            <summary>"Context window"</summary>
            <p class="hint">"The window one request must fit (input plus max output tokens), and the strategy that makes room as the history grows."</p>
            <div class="limits">{context}</div>
            {problem_list(move || problems.with(|p| form::problems_under(p, "context")))}
        </details>
        <details class="form-section" prop:open=opens(move || holds_editable(editor, "model"))>
            <summary>"Scripted responses"</summary>
            <Field id=id("responses") problem=responses_error
                label=|| "Responses (JSON array, one per model call)" mark=move || editable_mark(editor, "model.responses".into())>
                <textarea rows="10" spellcheck="false" prop:value=responses
                    prop:disabled=!has_script
                    prop:readOnly=move || editor.fixed("model.responses")
                    on:input=move |ev| {
                        match form::parse_json_field("model.responses", &event_target_value(&ev)) {
                            Ok(v) => editor.edit_field("responses", &[Key::Field("model"), Key::Field("responses")], Some(v)),
                            Err(why) => editor.set_field_error("responses", Some(why)),
                        }
                    }
                ></textarea>
            </Field>
            {problem_list(move || problems.with(|p| form::problems_under(p, "model")))}
        </details>
    }
}

/// Whether the model may, must, or must not call a tool, sent with every
/// request: the three words and each listed tool (`form::tool_choice`).
fn tool_choice_view(
    editor: impl FormDoc,
    value: &Value,
    problems: Signal<Vec<String>>,
) -> impl IntoView {
    let current = form::tool_choice::current(value);
    let options = form::tool_choice::options(value)
        .into_iter()
        .map(|(option, label)| {
            let selected = option == current;
            view! { <option value=option prop:selected=selected>{label}</option> }
        })
        .collect_view();
    let id = format!("{}field-tool_choice", editor.id_prefix());
    view! {
        <div class="limit" data-field="tool_choice">
            <Field id label=|| "Tool choice" mark=move || editable_mark(editor, "tool_choice".into())>
                <select prop:disabled=move || editor.fixed("tool_choice")
                    on:change=move |ev| {
                        let value = form::tool_choice::value_of(&event_target_value(&ev));
                        editor.edit_field("tool_choice", &[Key::Field("tool_choice")], value)
                    }>
                    {options}
                </select>
            </Field>
        </div>
        {problem_list(move || problems.with(|p| form::problems_under(p, "tool_choice")))}
    }
}

fn tool_view(
    editor: impl FormDoc,
    i: usize,
    tool: ToolForm,
    problems: Signal<Vec<String>>,
) -> AnyView {
    let prefix = format!("tools[{i}]");
    let under = {
        let prefix = prefix.clone();
        move || problems.with(|p| form::problems_under(p, &prefix))
    };
    let (fields, builtin) = match tool {
        ToolForm::Builtin { name, spec: None } => {
            return view! {
                <fieldset class="tool" data-tool=name.clone()>
                    <legend><code>{name.clone()}</code>" (built-in)"</legend>
                    {problem_list(under)}
                </fieldset>
            }
            .into_any()
        }
        ToolForm::Builtin {
            spec: Some(fields), ..
        } => (fields, true),
        ToolForm::Inline(fields) => (fields, false),
    };
    let form::InlineFields {
        name,
        description,
        schema,
        needs_approval,
    } = fields;
    // A built-in listed by name is overridden by its first edit (see
    // `form::tool_field_edit`); any other entry has the one field set.
    let write = move |key: &str, field: &'static str, value: Value| {
        let text = editor.text().get_untracked();
        let (path, value) = form::tool_field_edit(&text, i, field, value);
        editor.edit_field(key, &path, Some(value));
    };
    let schema_key = format!("{prefix}.input_schema");
    let schema_error = field_error(editor, schema_key.clone());
    let p = editor.id_prefix();
    let id = |what: &str| format!("{p}tool-{i}-{what}");
    let description_path = format!("{prefix}.description");
    let approval_path = format!("{prefix}.needs_approval");
    let fixed = move |path: &str| {
        let path = path.to_string();
        move || editor.fixed(&path)
    };
    let mark = move |path: &str| {
        let path = path.to_string();
        move || editable_mark(editor, path)
    };
    let legend_note = builtin.then_some(" (built-in)");
    let builtin_hint = builtin.then(|| view! {
        <p class="hint">
            "A built-in tool: below is what the model is told about it. Edit the description or schema to override them for this scenario; the built-in handler stays."
        </p>
    });
    view! {
        <fieldset class="tool" data-tool=name.clone() data-builtin=builtin.then_some("")>
            <legend><code>{name.clone()}</code>{legend_note}</legend>
            {builtin_hint}
            <Field id=id("description") label=|| "Description" mark=mark(&description_path)>
                <textarea class="prose" rows="2" prop:value=description prop:readOnly=fixed(&description_path)
                    on:input=move |ev| write("description", "description", Value::from(event_target_value(&ev)))
                ></textarea>
            </Field>
            <Field id=id("schema") problem=schema_error label=|| "Input schema (JSON Schema)" mark=mark(&schema_key)>
                <textarea rows="6" spellcheck="false" prop:value=schema prop:readOnly=fixed(&schema_key)
                    on:input=move |ev| match form::parse_json_field(&schema_key, &event_target_value(&ev)) {
                        Ok(v) => write(&schema_key, "input_schema", v),
                        Err(why) => editor.set_field_error(&schema_key, Some(why)),
                    }
                ></textarea>
            </Field>
            <Field id=id("needs-approval") check=true label=|| "Needs approval" mark=mark(&approval_path)>
                <input type="checkbox" prop:checked=needs_approval prop:disabled=fixed(&approval_path)
                    on:change=move |ev| write("needs_approval", "needs_approval", Value::from(event_target_checked(&ev)))
                />
            </Field>
            {problem_list(under)}
        </fieldset>
    }
    .into_any()
}

/// One field of `section` (`limits` or `context`): a number, a choice, a
/// flag or a list of names, written to `section.key` as typed.
fn limit_view(
    editor: impl FormDoc,
    section: &'static str,
    field: &'static form::Field,
    current: String,
) -> impl IntoView {
    // The limits keep their ids; a context field's says its section.
    let id = match section {
        "limits" => format!("{}limit-{}", editor.id_prefix(), field.key),
        _ => format!("{}{section}-{}", editor.id_prefix(), field.key),
    };
    // A limit's error is keyed by its name, as before there were sections.
    let error_key = match section {
        "limits" => field.key.to_string(),
        _ => format!("{section}.{}", field.key),
    };
    let error = field_error(editor, error_key.clone());
    let path = format!("{section}.{}", field.key);
    let fixed = {
        let path = path.clone();
        move || editor.fixed(&path)
    };
    let on_input = move |ev| match form::parse_limit(field, &event_target_value(&ev)) {
        Ok(value) => editor.edit_field(
            &error_key,
            &[Key::Field(section), Key::Field(field.key)],
            value,
        ),
        Err(why) => {
            // The field keeps the text as typed: say what the JSON holds.
            let kept = serde_json::from_str::<Value>(&editor.text().get_untracked())
                .map(|scenario| form::field_text(&scenario, section, field.key))
                .unwrap_or_default();
            editor.set_field_error(&error_key, Some(form::not_written(&why, &kept)))
        }
    };
    let choice = |words: &'static [&'static str]| {
        Either::Left(view! {
            <select on:change=on_input.clone() prop:disabled=fixed.clone()>
                <option value="" prop:selected=current.is_empty()>{format!("default ({})", field.absent)}</option>
                {words.iter().map(|w| view! { <option value=*w prop:selected=current == *w>{*w}</option> }).collect_view()}
            </select>
        })
    };
    let input = match field.kind {
        FieldKind::Choice(words) => choice(words),
        FieldKind::Bool => choice(&["true", "false"]),
        // A list of names is words; a number is typed on a number pad.
        kind => {
            let names = matches!(kind, FieldKind::Names);
            let pad = match kind {
                FieldKind::Names => None,
                FieldKind::Number { .. } => Some("decimal"),
                _ => Some("numeric"),
            };
            Either::Right(view! {
                <input type="text" spellcheck=names.then_some("false") inputmode=pad
                    prop:readOnly=fixed.clone() placeholder=field.absent prop:value=current.clone() on:input=on_input />
            })
        }
    };
    view! {
        <div class="limit" data-limit=field.key data-section=section>
            <Field id problem=error unit=field.unit label=move || field.label mark=move || editable_mark(editor, path)>
                {input}
            </Field>
        </div>
    }
}
