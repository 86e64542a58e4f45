//! "Call a tool by hand": any tool of the scenario in the editor (built-in,
//! inline or JavaScript) called with typed arguments, outside a run, as the
//! MCP Inspector calls a server's tools. The arguments are checked against
//! the tool's schema first, every problem with its path; then the tool's own
//! handler runs on a fresh copy of its seed data, under the scenario's
//! `tool_timeout_ms`, and can be stopped. The arguments are typed in a
//! form built from the tool's schema or as JSON beside it, the two kept in
//! sync (`ui::schema_form`). Its own two inputs, the tool and the
//! arguments' JSON, are labelled fields (`ui::field::Field`) with no
//! problem of their own: a problem with the arguments is said in the form
//! beside them (under the field it is about, or in one line when the form
//! cannot show the JSON) and in the answer once called.
//!
//! A split module of its own (`tool_bench`): the first paint does not carry it.

use harness::cancel::CancelToken;
use harness::hand_call::HandCall;
use harness::model::ToolSpec;
#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;
use serde_json::Value;

use crate::lazy;
use crate::schema_form;
use crate::ui::field::Field;
use crate::ui::schema_form::SchemaForm;

#[cfg_attr(feature = "split", lazy)]
pub async fn tool_bench(text: ReadSignal<String>, open: RwSignal<bool>) -> AnyView {
    // Drawn once its stylesheet has loaded: never unstyled.
    crate::browser::stylesheet::load("modes.css").await;
    view! { <ToolBench text open /> }.into_any()
}

/// Arguments to start from: each required property with an empty value of
/// its type, so the person sees the names the schema wants. A schema the
/// form can show starts as its form does: a choice at its first value, a
/// number at its minimum, a nested object with its own required fields.
pub fn skeleton(schema: &Value) -> String {
    if let Ok(fields) = schema_form::fields(schema) {
        let args = schema_form::starting(&fields);
        return serde_json::to_string_pretty(&args).unwrap_or_else(|_| "{}".into());
    }
    let mut args = serde_json::Map::new();
    let properties = &schema["properties"];
    for name in schema["required"].as_array().into_iter().flatten() {
        let Some(name) = name.as_str() else { continue };
        let empty = match properties[name]["type"].as_str() {
            Some("integer" | "number") => Value::from(0),
            Some("boolean") => Value::Bool(false),
            Some("array") => Value::Array(Vec::new()),
            Some("object") => Value::Object(serde_json::Map::new()),
            _ => Value::from(""),
        };
        args.insert(name.to_string(), empty);
    }
    serde_json::to_string_pretty(&Value::Object(args)).unwrap_or_else(|_| "{}".into())
}

/// `open` follows the panel's own open state: while it is open the page
/// gives it the room beside the loop (`app::stage::LoopRoom`).
#[component]
fn ToolBench(text: ReadSignal<String>, open: RwSignal<bool>) -> impl IntoView {
    // The scenario's tools, read when the panel is open.
    let tools = LocalResource::new(move || {
        let text = open.get().then(|| text.get());
        async move {
            let Some(text) = text else {
                return Ok(Vec::new());
            };
            let engine = lazy::engine().await;
            let said = |problems: Vec<harness::scenario::Problem>| {
                problems.iter().map(ToString::to_string).collect::<Vec<_>>()
            };
            let scenario = engine.load(&text).await.map_err(said)?;
            engine
                .wire_setup(&scenario)
                .map(|shape| shape.tools)
                .map_err(said)
        }
    });
    let picked = RwSignal::new(String::new());
    let args = RwSignal::new("{}".to_string());
    let answer = RwSignal::new(None::<(String, Result<HandCall, Vec<String>>)>);
    let calling = StoredValue::new_local(None::<CancelToken>);
    let busy = RwSignal::new(false);
    let spec_of = move |name: &str| -> Option<ToolSpec> {
        tools.with(|t| {
            t.as_ref()
                .and_then(|t| t.as_ref().ok())
                .and_then(|t| t.iter().find(|s| s.name == name).cloned())
        })
    };
    // A new list: keep the picked tool if it is still there, else the first.
    Effect::new(move |_| {
        let names: Vec<String> = tools.with(|t| {
            t.as_ref()
                .and_then(|t| t.as_ref().ok())
                .map(|t| t.iter().map(|s| s.name.clone()).collect())
                .unwrap_or_default()
        });
        if !names.contains(&picked.get_untracked()) {
            if let Some(first) = names.first() {
                pick(first.clone(), picked, args, spec_of(first));
            }
        }
    });
    let call = move |_| {
        let (text, tool, typed) = (
            text.get_untracked(),
            picked.get_untracked(),
            args.get_untracked(),
        );
        let cancel = CancelToken::new();
        calling.set_value(Some(cancel.clone()));
        busy.set(true);
        answer.set(None);
        crate::browser::runner::start(async move {
            let ended = lazy::offstage()
                .await
                .call_tool(text, tool.clone(), typed, cancel)
                .await;
            busy.set(false);
            answer.set(Some((tool, ended)));
        });
    };
    let stop = move |_| {
        if let Some(token) = calling.get_value() {
            token.cancel();
        }
    };
    let options = move || {
        tools.with(|t| match t.as_ref() {
            None => view! { <p class="bench-note">"Reading the scenario's tools…"</p> }.into_any(),
            Some(Err(problems)) => view! {
                <div class="bench-problems" role="alert">
                    <p>"The scenario in the editor has problems, so its tools cannot be called:"</p>
                    <ul>{problems.iter().map(|p| view! { <li>{p.clone()}</li> }).collect_view()}</ul>
                </div>
            }
            .into_any(),
            Some(Ok(list)) if list.is_empty() => {
                view! { <p class="bench-note">"This scenario has no tools."</p> }.into_any()
            }
            Some(Ok(list)) => {
                let names: Vec<String> = list.iter().map(|s| s.name.clone()).collect();
                view! {
                    <Field id="bench-tool" label=|| "Tool">
                        <select on:change=move |ev| {
                            let name = event_target_value(&ev);
                            let spec = spec_of(&name);
                            pick(name, picked, args, spec);
                        }>
                            {names.into_iter().map(|name| {
                                let value = name.clone();
                                view! { <option value=value.clone() prop:selected=move || picked.with(|p| *p == value)>{name}</option> }
                            }).collect_view()}
                        </select>
                    </Field>
                    <p class="bench-description">{move || spec_of(&picked.get()).map(|s| s.description)}</p>
                    <div class="bench-io">
                        {move || spec_of(&picked.get()).map(|spec| view! { <SchemaForm schema=spec.input_schema args /> })}
                        <div class="bench-json">
                            <Field id="bench-args" label=|| "Arguments (JSON)">
                                <textarea class="bench-args" rows="8" spellcheck="false"
                                    prop:value=move || args.get()
                                    on:input=move |ev| args.set(event_target_value(&ev))></textarea>
                            </Field>
                        </div>
                    </div>
                    <div class="bench-actions">
                        <button type="button" prop:disabled=move || busy.get() on:click=call>"Call"</button>
                        <button type="button" prop:disabled=move || !busy.get() on:click=stop>"Stop"</button>
                        <span class="bench-note">"Each call starts from the tool's seed data; nothing reaches a model or the trace."</span>
                    </div>
                }
                .into_any()
            }
        })
    };
    view! {
        <details class="panel tool-bench" on:toggle=move |ev| {
            open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open());
        }>
            <summary><h2 class="bench-heading">"Call a tool by hand"</h2></summary>
            {move || open.get().then(|| view! { <Transition>{options}</Transition> })}
            <div class="bench-answer" role="status">
                {move || busy.get().then(|| view! { <p>"Calling…"</p> })}
                {move || answer.get().map(|(tool, ended)| answer_view(&tool, ended))}
            </div>
        </details>
    }
}

/// Picks `name`, starting its arguments from its schema's required names.
fn pick(name: String, picked: RwSignal<String>, args: RwSignal<String>, spec: Option<ToolSpec>) {
    args.set(spec.map_or_else(|| "{}".to_string(), |s| skeleton(&s.input_schema)));
    picked.set(name);
}

fn answer_view(tool: &str, ended: Result<HandCall, Vec<String>>) -> AnyView {
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    match ended {
        Err(problems) => view! {
            <div class="bench-result" data-result="refused">
                <p>{format!("✗ {tool} was not called:")}</p>
                <ul>{problems.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul>
            </div>
        }
        .into_any(),
        Ok(HandCall::Answered { value, state, .. }) => view! {
            <div class="bench-result" data-result="answered">
                <p>{format!("✓ {tool} answered:")}</p>
                <pre>{pretty(&value)}</pre>
                {state.map(|state| view! {
                    <p>"Its store right after the call:"</p>
                    <pre>{pretty(&state)}</pre>
                })}
            </div>
        }
        .into_any(),
        Ok(HandCall::Failed { message }) => view! {
            <div class="bench-result" data-result="error">
                <p>{format!("✗ {tool} answered with an error (a model would get it as an error result):")}</p>
                <pre>{message}</pre>
            </div>
        }
        .into_any(),
        Ok(HandCall::TimedOut { after_ms }) => view! {
            <div class="bench-result" data-result="timed_out">
                <p>{format!("✗ {tool} did not answer within the scenario's tool_timeout_ms ({after_ms} ms).")}</p>
            </div>
        }
        .into_any(),
        Ok(HandCall::Stopped) => view! {
            <div class="bench-result" data-result="stopped">
                <p>{format!("■ Stopped before {tool} answered.")}</p>
            </div>
        }
        .into_any(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skeleton_names_each_required_property_with_an_empty_value_of_its_type() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {"city": {"type": "string"}, "nights": {"type": "integer"}, "note": {"type": "string"}},
            "required": ["city", "nights"]
        });
        assert_eq!(
            serde_json::from_str::<Value>(&skeleton(&schema)).unwrap(),
            serde_json::json!({"city": "", "nights": 0})
        );
        assert_eq!(skeleton(&serde_json::json!({"type": "object"})), "{}");
        // Beyond a form (a choice between schemas): the names alone.
        let beyond = serde_json::json!({
            "type": "object",
            "properties": {"when": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
            "required": ["when"]
        });
        assert_eq!(
            skeleton(&beyond).replace(char::is_whitespace, ""),
            r#"{"when":""}"#
        );
    }

    #[test]
    fn a_skeleton_a_form_can_show_starts_at_a_first_choice_a_minimum_and_a_nested_object() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {
                "room": {"enum": ["single", "double"]},
                "nights": {"type": "integer", "minimum": 1},
                "guest": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
            },
            "required": ["room", "nights", "guest"]
        });
        assert_eq!(
            serde_json::from_str::<Value>(&skeleton(&schema)).unwrap(),
            serde_json::json!({"room": "single", "nights": 1, "guest": {"name": ""}})
        );
    }
}
