//! "Answer as the model" and "Answer as the tool": while a run is paused in
//! step mode, a person takes the next step's part. Before a model call they
//! write the assistant turn (text, optional thinking, tool calls picked from
//! the scenario's tools with arguments as JSON, a stop_reason); before a
//! tool call they type its result, or an error. A tool that declares an
//! `output_schema` gets its result typed in the form built from it
//! (`crate::ui::schema_form`), checked as it is typed.
//!
//! A typed turn is checked as it is typed (`harness::person_turn`): ids,
//! tool names, argument JSON, each tool's schema and the three providers'
//! protocol rules on the history with the turn appended, every problem with
//! its path. Send stays off while problems remain, unless "Send it anyway"
//! is ticked: a teacher may want to show what the loop and the providers do
//! with a broken turn, and the run takes it as it would take a model's.
//! What is sent reaches the run through `Controller::answer`.
//!
//! A split module of its own (`answer_panel`): it is fetched the first time
//! a run pauses (`Controller::first_pause`), so the first paint does not
//! carry it.

use harness::driver::Resume;
use harness::model::ToolSpec;
use harness::person_turn::{
    argument_hints, arguments_skeleton, check_turn, fresh_call_id, typed_tool_result, TypedCall,
    TypedTurn, STOP_REASONS,
};
use harness::run::PauseBefore;
use harness::wire::history_from_trace;
#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;
use serde_json::Value;

use crate::run::controller::Controller;
use crate::run::view_model;
use crate::schema_form::{self as schema_form, Part};
use crate::ui::field::Field;
use crate::ui::schema_form::SchemaForm;

/// Under the trace: the panel for the pause the run is at, a fresh one at
/// each pause, none while it runs.
#[cfg_attr(feature = "split", lazy)]
pub async fn answer_panel(controller: Controller) -> AnyView {
    // Its rules are in the on-demand stylesheet the tool bench uses too.
    crate::browser::stylesheet::load("modes.css").await;
    let paused = controller.paused();
    (move || {
        paused
            .get()
            .map(|before| view! { <AnswerPanel controller before /> })
    })
    .into_any()
}

#[component]
fn AnswerPanel(controller: Controller, before: PauseBefore) -> impl IntoView {
    let open = RwSignal::new(false);
    let pause = view_model::pause_text(&before);
    let (label, intro, form) = match before {
        PauseBefore::ModelCall { .. } => (
            "Answer as the model",
            format!("{pause}. Step lets the model answer; or write the assistant turn yourself."),
            view! { <ModelForm controller /> }.into_any(),
        ),
        PauseBefore::ToolCall { id, name } => (
            "Answer as the tool",
            format!("{pause} ({id}). Step runs it; or type its result yourself."),
            view! { <ToolForm controller name /> }.into_any(),
        ),
    };
    let refused = move || {
        controller.pause_refused().get().map(|why| {
            view! { <p class="answer-refused" role="alert">"Not taken: " {why}</p> }
        })
    };
    view! {
        <section class="answer-panel" aria-label=label>
            <p class="answer-intro">{intro}</p>
            <button
                type="button"
                class="answer-open"
                aria-expanded=move || open.get().to_string()
                on:click=move |_| open.update(|o| *o = !*o)
            >
                {label}
            </button>
            {refused}
            <div class="answer-form" hidden=move || !open.get()>{form}</div>
        </section>
    }
}

/// One tool call of the turn being written; its fields are signals of their
/// own, so typing in one re-renders nothing else.
#[derive(Clone, Copy)]
struct CallRow {
    key: u32,
    name: RwSignal<String>,
    id: RwSignal<String>,
    args: RwSignal<String>,
}

#[component]
fn ModelForm(controller: Controller) -> impl IntoView {
    let shape = controller.wire_setup();
    let events = controller.events();
    // The history the run holds now: the request this turn answers.
    let history = Memo::new(move |_| events.with(|e| history_from_trace(e)));
    let text = RwSignal::new(String::new());
    let thinking = RwSignal::new(String::new());
    let stop_reason = RwSignal::new("end_turn".to_string());
    let rows = RwSignal::new(Vec::<CallRow>::new());
    let next_key = StoredValue::new(0u32);
    let anyway = RwSignal::new(false);
    // Rows are made in click handlers; their signals belong to this form.
    let owner = Owner::current();

    let spec_of = move |name: &str| -> Option<ToolSpec> {
        shape.with(|s| s.tools.iter().find(|t| t.name == name).cloned())
    };
    let add_call = move |_| {
        let first = shape.with(|s| s.tools.first().map(|t| t.name.clone()));
        let name = first.unwrap_or_default();
        let taken: Vec<String> =
            rows.with(|r| r.iter().map(|row| row.id.get_untracked()).collect());
        let id = history.with(|h| fresh_call_id(h, &taken));
        let args = spec_of(&name)
            .map_or_else(|| "{}".to_string(), |s| arguments_skeleton(&s.input_schema));
        let key = next_key.get_value();
        next_key.set_value(key + 1);
        let make = move || CallRow {
            key,
            name: RwSignal::new(name),
            id: RwSignal::new(id),
            args: RwSignal::new(args),
        };
        let row = match &owner {
            Some(owner) => owner.with(make),
            None => make(),
        };
        rows.update(|r| r.push(row));
        // A turn with calls asks for them to run.
        if stop_reason.with_untracked(|s| s == "end_turn") {
            stop_reason.set("tool_use".to_string());
        }
    };
    let remove = move |key: u32| {
        rows.update(|r| r.retain(|row| row.key != key));
        if rows.with_untracked(Vec::is_empty) && stop_reason.with_untracked(|s| s == "tool_use") {
            stop_reason.set("end_turn".to_string());
        }
    };
    let typed = Memo::new(move |_| TypedTurn {
        text: text.get(),
        thinking: thinking.get(),
        calls: rows.with(|r| {
            r.iter()
                .map(|row| TypedCall {
                    id: row.id.get(),
                    name: row.name.get(),
                    arguments: row.args.get(),
                })
                .collect()
        }),
        stop_reason: stop_reason.get(),
    });
    let checked = Memo::new(move |_| {
        shape.with(|s| history.with(|h| typed.with(|t| check_turn(t, &s.system, &s.tools, h))))
    });
    let problem_count = move || checked.with(|c| c.problems.len());
    let blocked = move || problem_count() > 0 && !anyway.get();
    let send = move |_| {
        if blocked() {
            return;
        }
        let response = checked.with_untracked(|c| c.response.clone());
        controller.answer(Resume::AnswerAsModel(response));
    };
    let tool_names =
        move || shape.with(|s| s.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>());

    let call_view = move |row: CallRow| {
        let key = row.key;
        let number =
            move || rows.with(|r| r.iter().position(|x| x.key == key).map_or(0, |i| i + 1));
        let hints = move || {
            spec_of(&row.name.get()).map(|spec| {
                let lines = argument_hints(&spec.input_schema);
                view! {
                    <div class="answer-hints">
                        <p>{spec.description.clone()}</p>
                        {(!lines.is_empty()).then(|| view! {
                            <ul>{lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
                        })}
                    </div>
                }
            })
        };
        // The problems the check places on this call's id and arguments
        // (an argument's own path, as "tool_calls[0].arguments/city", too).
        let at = move || format!("tool_calls[{}]", number().saturating_sub(1));
        let id_path = move |path: &str| path == format!("{}.id", at());
        let args_path = move |path: &str| path.starts_with(&format!("{}.arguments", at()));
        view! {
            <fieldset class="answer-call" data-key=key>
                <legend>{move || format!("Tool call {}", number())}</legend>
                <label>
                    "Tool "
                    <select on:change=move |ev| {
                        let name = event_target_value(&ev);
                        let args = spec_of(&name).map_or_else(|| "{}".to_string(), |s| arguments_skeleton(&s.input_schema));
                        row.args.set(args);
                        row.name.set(name);
                    }>
                        {tool_names().into_iter().map(|name| {
                            let value = name.clone();
                            view! { <option value=value.clone() prop:selected=move || row.name.with(|n| *n == value)>{name}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <Field id=format!("answer-call-{key}-id") label=|| "id " problem=problems_at(checked, id_path) wraps=true>
                    <input type="text" class="answer-call-id" spellcheck="false"
                        prop:value=move || row.id.get()
                        on:input=move |ev| row.id.set(event_target_value(&ev)) />
                </Field>
                <div class="answer-args-label">
                    <Field id=format!("answer-call-{key}-args") label=|| "Arguments (JSON)"
                        problem=problems_at(checked, args_path) listed=true>
                        <textarea class="answer-args" rows="4" spellcheck="false"
                            prop:value=move || row.args.get()
                            on:input=move |ev| row.args.set(event_target_value(&ev))></textarea>
                    </Field>
                </div>
                {hints}
                <button type="button" class="answer-remove" on:click=move |_| remove(key)>
                    "Remove this call"
                </button>
            </fieldset>
        }
    };

    let problems = move || {
        checked.with(|c| {
            if c.problems.is_empty() {
                return view! {
                    <p class="answer-ok">
                        "✓ No problem found: the tools' schemas and the three providers' protocol rules accept this turn."
                    </p>
                }
                .into_any();
            }
            let items = c
                .problems
                .iter()
                .map(|p| view! { <li data-path=p.path.clone()><code>{p.path.clone()}</code> ": " {p.message.clone()}</li> })
                .collect_view();
            view! {
                <div class="answer-problems">
                    <p>{format!("✗ {} found before sending:", view_model::plural(c.problems.len() as u64, "problem"))}</p>
                    <ul>{items}</ul>
                </div>
            }
            .into_any()
        })
    };
    let why_off = move || {
        blocked().then(|| {
            format!(
                "Send is off while {} remain{}. Fix {}, or tick “Send it anyway” to see what the loop and the providers do with it.",
                view_model::plural(problem_count() as u64, "problem"),
                if problem_count() == 1 { "s" } else { "" },
                if problem_count() == 1 { "it" } else { "them" },
            )
        })
    };

    view! {
        <label class="answer-field">
            "Text"
            <textarea class="answer-text" rows="3" prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))></textarea>
        </label>
        <label class="answer-field">
            "Thinking (optional)"
            <textarea class="answer-thinking" rows="2" prop:value=move || thinking.get()
                on:input=move |ev| thinking.set(event_target_value(&ev))></textarea>
        </label>
        <For each=move || rows.get() key=|row| row.key children=call_view />
        <button type="button" class="answer-add" on:click=add_call
            prop:disabled=move || shape.with(|s| s.tools.is_empty())>
            "Add a tool call"
        </button>
        <div class="answer-field">
            <Field id="answer-stop" label=|| "stop_reason " problem=problems_at(checked, |path: &str| path == "stop_reason") wraps=true>
                <select class="answer-stop" on:change=move |ev| stop_reason.set(event_target_value(&ev))>
                    {STOP_REASONS.map(|word| view! {
                        <option value=word prop:selected=move || stop_reason.with(|s| s == word)>{word}</option>
                    })}
                </select>
            </Field>
        </div>
        <div class="answer-check" aria-live="polite">{problems}</div>
        <div class="answer-actions">
            {move || (problem_count() > 0).then(|| view! {
                <label class="answer-anyway">
                    <input type="checkbox" prop:checked=move || anyway.get()
                        on:change=move |ev| anyway.set(event_target_checked(&ev)) />
                    " Send it anyway"
                </label>
            })}
            <button type="button" class="answer-send" aria-describedby="answer-send-why"
                prop:disabled=blocked on:click=send>
                "Send as the model"
            </button>
            <p id="answer-send-why" class="answer-why">{why_off}</p>
        </div>
    }
}

/// The problems the check found at the paths `at` takes, one a line, for
/// the field they belong to; a problem below the field's own path (an
/// argument of a call) is said with its path.
fn problems_at(
    checked: Memo<harness::person_turn::CheckedTurn>,
    at: impl Fn(&str) -> bool + Send + Sync + 'static,
) -> Signal<Option<String>> {
    Signal::derive(move || {
        checked.with(|c| {
            let lines: Vec<String> = c
                .problems
                .iter()
                .filter(|p| at(&p.path))
                .map(|p| match p.path.split_once('/') {
                    Some((_, below)) => format!("/{below}: {}", p.message),
                    None => p.message.clone(),
                })
                .collect();
            (!lines.is_empty()).then(|| lines.join("\n"))
        })
    })
}

/// The result typed as the tool: in the form its `output_schema` gives
/// when it declares one, else as free text.
#[component]
fn ToolForm(controller: Controller, name: String) -> impl IntoView {
    let schema = controller.ran_scenario().with_untracked(|scenario| {
        scenario
            .as_ref()
            .and_then(|s| s.output_schema_of(&name).cloned())
    });
    match schema {
        Some(schema) => view! { <SchemaToolForm controller name schema /> }.into_any(),
        None => view! { <TextToolForm controller name /> }.into_any(),
    }
}

#[component]
fn TextToolForm(controller: Controller, name: String) -> impl IntoView {
    let result = RwSignal::new(String::new());
    let is_error = RwSignal::new(false);
    let send = move |_| {
        let typed = typed_tool_result(&result.get_untracked(), is_error.get_untracked());
        controller.answer(Resume::AnswerAsTool(typed));
    };
    view! {
        <p class="answer-note">
            {format!("{name} does not run: the model gets what you type as its result (an error reads “tool error: …”, flagged is_error).")}
        </p>
        <label class="answer-field">
            "Result (JSON, or plain text)"
            <textarea class="answer-result" rows="4" spellcheck="false" prop:value=move || result.get()
                on:input=move |ev| result.set(event_target_value(&ev))></textarea>
        </label>
        <label class="answer-anyway">
            <input type="checkbox" prop:checked=move || is_error.get()
                on:change=move |ev| is_error.set(event_target_checked(&ev)) />
            " It is an error"
        </label>
        <div class="answer-actions">
            <button type="button" class="answer-send" on:click=send>"Send as the tool"</button>
        </div>
    }
}

/// The result of a tool with an `output_schema`: the schema's form beside
/// the result's JSON, each problem under its field as it is typed. Send
/// stays off until the JSON matches the schema; what is sent is the JSON
/// text as shown (its digits as typed), the tool_result's content. An error
/// is free text, as a tool that fails returns no structured result.
#[component]
fn SchemaToolForm(controller: Controller, name: String, schema: Value) -> impl IntoView {
    let start = schema_form::fields_of(&schema, Part::Result)
        .map(|fields| schema_form::starting(&fields))
        .unwrap_or_else(|_| Value::Object(Default::default()));
    let result = RwSignal::new(serde_json::to_string_pretty(&start).unwrap_or_default());
    let is_error = RwSignal::new(false);
    let error_text = RwSignal::new(String::new());
    let compiled = tool_schema::Schema::compile(&schema).ok();
    let problems = Memo::new(move |_| {
        result.with(|text| match serde_json::from_str::<Value>(text) {
            Err(e) => vec![format!("the result is not valid JSON ({e})")],
            Ok(value) => compiled
                .as_ref()
                .and_then(|schema| schema.validate(&value).err())
                .unwrap_or_default()
                .iter()
                .map(ToString::to_string)
                .collect(),
        })
    });
    let blocked = move || !is_error.get() && problems.with(|p| !p.is_empty());
    // The box's own problem: text that is not JSON. What breaks the schema
    // is said under the schema form's fields, beside it.
    let not_json = Signal::derive(move || {
        result.with(|text| {
            serde_json::from_str::<Value>(text)
                .err()
                .map(|e| format!("not valid JSON ({e})"))
        })
    });
    let send = move |_| {
        if blocked() {
            return;
        }
        let typed = if is_error.get_untracked() {
            typed_tool_result(&error_text.get_untracked(), true)
        } else {
            Ok(Value::String(result.get_untracked()))
        };
        controller.answer(Resume::AnswerAsTool(typed));
    };
    let check = move || {
        if is_error.get() {
            return view! {
                <p class="answer-note">"Sent as an error: the output schema does not apply, and the model reads “tool error: …” and your text."</p>
            }
            .into_any();
        }
        problems.with(|p| {
            if p.is_empty() {
                return view! {
                    <p class="answer-ok">"✓ The result matches the tool's output schema."</p>
                }
                .into_any();
            }
            view! {
                <div class="answer-problems">
                    <p>{format!("✗ {} found before sending:", view_model::plural(p.len() as u64, "problem"))}</p>
                    <ul>{p.iter().map(|line| view! { <li>{line.clone()}</li> }).collect_view()}</ul>
                </div>
            }
            .into_any()
        })
    };
    let why_off = move || {
        blocked().then_some(
            "Send is off until the result matches the tool's output schema, or you tick “It is an error”.",
        )
    };
    view! {
        <p class="answer-note">
            {format!("{name} does not run. Its output schema gives the form; the model receives the text of the Result (JSON) box, as shown, as the tool's result: the content of its tool_result.")}
        </p>
        <div class="bench-io" hidden=move || is_error.get()>
            <SchemaForm schema args=result part=Part::Result />
            <div class="bench-json">
                <Field id="answer-result-json" label=|| "Result (JSON)" problem=not_json>
                    <textarea class="answer-result" rows="8" spellcheck="false"
                        prop:value=move || result.get()
                        on:input=move |ev| result.set(event_target_value(&ev))></textarea>
                </Field>
            </div>
        </div>
        <label class="answer-field" hidden=move || !is_error.get()>
            "Error message"
            <textarea class="answer-error" rows="3" spellcheck="false" prop:value=move || error_text.get()
                on:input=move |ev| error_text.set(event_target_value(&ev))></textarea>
        </label>
        <label class="answer-anyway">
            <input type="checkbox" prop:checked=move || is_error.get()
                on:change=move |ev| is_error.set(event_target_checked(&ev)) />
            " It is an error"
        </label>
        <div class="answer-check" aria-live="polite">{check}</div>
        <div class="answer-actions">
            <button type="button" class="answer-send" aria-describedby="answer-send-why"
                prop:disabled=blocked on:click=send>
                "Send as the tool"
            </button>
            <p id="answer-send-why" class="answer-why">{why_off}</p>
        </div>
    }
}
