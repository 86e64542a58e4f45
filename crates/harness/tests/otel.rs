//! Runs as OpenTelemetry GenAI traces: every built-in exported and read
//! back gives the same run; a trace without our own events (as another
//! tool's instrumentation writes it) still gives its turns, calls, ids,
//! results and finish reasons; missing content is said, not made up.

use std::cell::RefCell;
use std::rc::Rc;

use harness::approval::{Decision, FixedApprover};
use harness::cancel::CancelToken;
use harness::event::{EventKind, RunEvent, Status};
use harness::library::{self, BUILTIN};
use harness::otel::{from_otlp, to_otlp};
use harness::replay::Record;
use harness::runtime::TokioRuntime;
use harness::scenario::Scenario;
use harness::RunOptions;
use serde_json::{json, Value};

async fn record_of(id: &str) -> Record {
    let builtin = library::find(id).unwrap();
    let scenario = Scenario::load(builtin.json()).unwrap();
    let runtime = Rc::new(TokioRuntime::default());
    tokio::time::sleep(std::time::Duration::from_millis(
        library::clock_age_needed_ms(builtin),
    ))
    .await;
    let cancel = CancelToken::default();
    let stop = cancel.cancel_after(runtime.as_ref(), builtin.stop_pressed_after_ms());
    let events = Rc::new(RefCell::new(Vec::new()));
    let sink = events.clone();
    let approver = FixedApprover(Decision::Approve);
    let mut on_event = |event: &RunEvent| sink.borrow_mut().push(event.clone());
    let run = harness::run_scenario(
        &scenario,
        runtime,
        RunOptions {
            approver: Some(&approver),
            cancel,
            ..RunOptions::default()
        },
        &mut on_event,
    );
    let (outcome, ()) = futures::join!(run, stop);
    outcome.expect("builds");
    Record {
        scenario: Some(scenario),
        events: events.take(),
        forked_at: None,
    }
}

/// Each tool result's id, content and error flag, in order.
fn tool_results(events: &[RunEvent]) -> Vec<(String, String, bool)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolResult {
                id,
                content,
                is_error,
                ..
            } => Some((id.clone(), content.clone(), *is_error)),
            _ => None,
        })
        .collect()
}

fn spans(document: &Value) -> Vec<Value> {
    document["resourceSpans"][0]["scopeSpans"][0]["spans"]
        .as_array()
        .unwrap()
        .clone()
}

fn attr<'a>(span: &'a Value, key: &str) -> Option<&'a Value> {
    span["attributes"]
        .as_array()?
        .iter()
        .find(|a| a["key"] == key)
        .map(|a| &a["value"])
}

fn operation(span: &Value) -> &str {
    attr(span, "gen_ai.operation.name")
        .and_then(|v| v["stringValue"].as_str())
        .unwrap_or("")
}

/// The export with our own events and scenario taken out: what another
/// tool's GenAI instrumentation would have written.
fn as_foreign(mut document: Value, keep_content: bool) -> Value {
    let spans = document["resourceSpans"][0]["scopeSpans"][0]["spans"]
        .as_array_mut()
        .unwrap();
    for span in spans {
        span["events"]
            .as_array_mut()
            .unwrap()
            .retain(|e| !e["name"].as_str().unwrap().starts_with("agent_loop"));
        span["attributes"].as_array_mut().unwrap().retain(|a| {
            let key = a["key"].as_str().unwrap();
            !key.starts_with("agent_loop")
                && (keep_content
                    || !matches!(
                        key,
                        "gen_ai.input.messages"
                            | "gen_ai.output.messages"
                            | "gen_ai.tool.call.arguments"
                            | "gen_ai.tool.call.result"
                    ))
        });
    }
    document
}

#[tokio::test(start_paused = true)]
async fn every_builtin_exports_as_genai_spans_and_reads_back_as_the_same_run() {
    for builtin in BUILTIN {
        let record = record_of(builtin.id).await;
        let document = to_otlp(&record, 1_764_000_000_000);
        let spans = spans(&document);
        let count = |op: &str| spans.iter().filter(|s| operation(s) == op).count();
        let requests = record
            .events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::ModelRequest { .. }))
            .count();
        let calls = record
            .events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::ToolCall { .. }))
            .count();
        assert_eq!(count("invoke_agent"), 1, "{}", builtin.id);
        assert_eq!(count("chat"), requests, "{}", builtin.id);
        assert_eq!(count("execute_tool"), calls, "{}", builtin.id);
        let root = spans
            .iter()
            .find(|s| operation(s) == "invoke_agent")
            .unwrap();
        let status = record.outcome().unwrap().status;
        assert_eq!(
            attr(root, "agent_loop.status").unwrap()["stringValue"],
            status.as_str()
        );
        assert_eq!(
            root["status"]["code"],
            if status == Status::Done { 1 } else { 2 },
            "{}",
            builtin.id
        );
        for span in &spans {
            assert_eq!(span["traceId"].as_str().unwrap().len(), 32);
            assert_eq!(span["spanId"].as_str().unwrap().len(), 16);
            if operation(span) != "invoke_agent" {
                assert_eq!(span["parentSpanId"], root["spanId"]);
            }
        }
        let back = from_otlp(&document).unwrap();
        assert!(
            back.ours && back.notes.is_empty(),
            "{}: {:?}",
            builtin.id,
            back.notes
        );
        assert_eq!(
            back.record, record,
            "{} does not read back the same",
            builtin.id
        );
    }
}

#[tokio::test(start_paused = true)]
async fn a_foreign_trace_gives_its_turns_calls_ids_results_and_finish_reasons() {
    let record = record_of("refund-policy").await;
    let foreign = from_otlp(&as_foreign(to_otlp(&record, 0), true)).unwrap();
    assert!(!foreign.ours);
    let calls = |events: &[RunEvent]| -> Vec<(String, String, Value)> {
        events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::ToolCall { id, name, args, .. } => {
                    Some((id.clone(), name.clone(), args.clone()))
                }
                _ => None,
            })
            .collect()
    };
    let stops = |events: &[RunEvent]| -> Vec<String> {
        events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::ModelResponse { stop_reason, .. } => Some(stop_reason.clone()),
                _ => None,
            })
            .collect()
    };
    assert!(!calls(&record.events).is_empty());
    assert_eq!(calls(&foreign.record.events), calls(&record.events));
    assert_eq!(
        tool_results(&foreign.record.events),
        tool_results(&record.events)
    );
    assert_eq!(stops(&foreign.record.events), stops(&record.events));
    let EventKind::RunStarted { task, .. } = &foreign.record.events[0].kind else {
        panic!()
    };
    assert_eq!(task, "Please refund my order A1001, it arrived broken.");
    assert_eq!(
        foreign.record.outcome().map(|o| o.status),
        Some(Status::Done)
    );
}

#[tokio::test(start_paused = true)]
async fn a_trace_without_content_says_so_and_keeps_tools_and_tokens() {
    let record = record_of("refund-policy").await;
    let bare = from_otlp(&as_foreign(to_otlp(&record, 0), false)).unwrap();
    assert!(
        bare.notes.iter().any(|n| n.contains("no message content")),
        "{:?}",
        bare.notes
    );
    let names: Vec<String> = bare
        .record
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolCall { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect();
    assert!(!names.is_empty());
    let EventKind::RunStarted { task, .. } = &bare.record.events[0].kind else {
        panic!()
    };
    assert!(task.starts_with("(not in the trace"), "{task}");
    let result = bare
        .record
        .events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::ToolResult { content, .. } => Some(content.clone()),
            _ => None,
        })
        .unwrap();
    assert!(result.starts_with("(not in the trace"), "{result}");
}

#[test]
fn a_file_that_is_not_a_trace_is_said_plainly() {
    use harness::interop_error::OtlpError;
    let err = from_otlp(&serde_json::json!({"hello": 1})).unwrap_err();
    assert_eq!(err, OtlpError::NoSpans);
    assert!(err.to_string().starts_with("no spans found"), "{err}");
    let err = from_otlp(&serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "a", "name": "GET /"}]}]}]})).unwrap_err();
    assert_eq!(err, OtlpError::NoGenaiSpans { spans: 1 });
    assert!(
        err.to_string()
            .contains("not follow the OpenTelemetry GenAI conventions"),
        "{err}"
    );
}

/// A provider SDK's instrumentation sees only the model calls: each call's
/// result is read from the next chat's input messages.
#[tokio::test(start_paused = true)]
async fn with_chat_spans_only_results_come_from_the_next_input() {
    let record = record_of("refund-policy").await;
    let mut document = as_foreign(to_otlp(&record, 0), true);
    document["resourceSpans"][0]["scopeSpans"][0]["spans"]
        .as_array_mut()
        .unwrap()
        .retain(|s| operation(s) == "chat");
    let imported = from_otlp(&document).unwrap();
    assert_eq!(
        tool_results(&imported.record.events),
        tool_results(&record.events)
    );
    assert_eq!(
        imported.record.outcome().map(|o| o.status),
        Some(Status::Done)
    );
}

/// An SDK's instrumentation without an agent span makes each model call a
/// trace of its own: with no invoke_agent span, all are read as one run.
#[tokio::test(start_paused = true)]
async fn model_calls_in_traces_of_their_own_are_read_as_one_run() {
    let record = record_of("refund-policy").await;
    let mut document = as_foreign(to_otlp(&record, 0), true);
    let spans = document["resourceSpans"][0]["scopeSpans"][0]["spans"]
        .as_array_mut()
        .unwrap();
    spans.retain(|s| operation(s) == "chat");
    for (i, span) in spans.iter_mut().enumerate() {
        span["traceId"] = Value::from(format!("{:032x}", i + 1));
        span["parentSpanId"] = Value::from("");
    }
    let imported = from_otlp(&document).unwrap();
    assert!(
        imported.notes[0].contains("each model call was its own trace"),
        "{:?}",
        imported.notes
    );
    let turns = imported
        .record
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::ModelResponse { .. }))
        .count();
    assert_eq!(turns, 4);
    assert_eq!(
        imported.record.outcome().map(|o| o.status),
        Some(Status::Done)
    );
}

/// A message in the conventions' "parts" shape, as OpenAI chat writes it.
fn openai_message(message: &Value) -> Value {
    let parts = message["parts"].as_array().cloned().unwrap_or_default();
    let role = message["role"].as_str().unwrap();
    if let Some(response) = parts.iter().find(|p| p["type"] == "tool_call_response") {
        return json!({"role": "tool", "tool_call_id": response["id"], "content": response["response"]});
    }
    let text: String = parts
        .iter()
        .filter(|p| p["type"] == "text")
        .filter_map(|p| p["content"].as_str())
        .collect();
    let calls: Vec<Value> = parts
        .iter()
        .filter(|p| p["type"] == "tool_call")
        .map(|p| {
            json!({"id": p["id"], "type": "function",
            "function": {"name": p["name"], "arguments": p["arguments"].to_string()}})
        })
        .collect();
    let mut out = json!({"role": role, "content": text});
    if !calls.is_empty() {
        out["tool_calls"] = Value::Array(calls);
    }
    out
}

fn string_attr(key: &str, value: impl Into<Value>) -> Value {
    let value: Value = value.into();
    let value = match value {
        Value::String(s) => json!({"stringValue": s}),
        other => json!({"stringValue": other.to_string()}),
    };
    json!({"key": key, "value": value})
}

/// Our foreign-looking export with each chat span's content moved from the
/// current attributes into an older form.
fn in_older_form(document: &Value, form: &str) -> Value {
    let mut document = document.clone();
    let spans = document["resourceSpans"][0]["scopeSpans"][0]["spans"]
        .as_array_mut()
        .unwrap();
    for span in spans.iter_mut().filter(|s| operation(s) == "chat") {
        let read = |key: &str| -> Vec<Value> {
            attr(span, key)
                .and_then(|v| v["stringValue"].as_str())
                .map(|t| serde_json::from_str::<Vec<Value>>(t).unwrap())
                .unwrap_or_default()
        };
        let input: Vec<Value> = read("gen_ai.input.messages")
            .iter()
            .map(openai_message)
            .collect();
        let output: Vec<Value> = read("gen_ai.output.messages")
            .iter()
            .map(|m| json!({"message": openai_message(m), "finish_reason": m["finish_reason"]}))
            .collect();
        span["attributes"]
            .as_array_mut()
            .unwrap()
            .retain(|a| !a["key"].as_str().unwrap().ends_with(".messages"));
        let (mut events, mut attributes) = (Vec::new(), Vec::new());
        match form {
            "events" => {
                for m in &input {
                    let role = m["role"].as_str().unwrap();
                    let mut fields = vec![string_attr("content", m["content"].clone())];
                    if let Some(calls) = m.get("tool_calls") {
                        fields.push(string_attr("tool_calls", calls.to_string()));
                    }
                    if let Some(id) = m.get("tool_call_id") {
                        fields.push(string_attr("id", id.clone()));
                    }
                    events.push(
                        json!({"name": format!("gen_ai.{role}.message"), "attributes": fields}),
                    );
                }
                for choice in &output {
                    events.push(json!({"name": "gen_ai.choice", "attributes": [
                        string_attr("message", choice["message"].to_string()),
                        string_attr("finish_reason", choice["finish_reason"].clone()),
                    ]}));
                }
            }
            "content events" => {
                events.push(json!({"name": "gen_ai.content.prompt",
                    "attributes": [string_attr("gen_ai.prompt", Value::Array(input).to_string())]}));
                events.push(json!({"name": "gen_ai.content.completion",
                    "attributes": [string_attr("gen_ai.completion", Value::Array(output).to_string())]}));
            }
            "indexed" => {
                for (n, m) in input.iter().enumerate() {
                    for (field, value) in m.as_object().unwrap() {
                        if field == "tool_calls" {
                            continue;
                        }
                        attributes.push(string_attr(
                            &format!("gen_ai.prompt.{n}.{field}"),
                            value.clone(),
                        ));
                    }
                    for (k, call) in m["tool_calls"].as_array().into_iter().flatten().enumerate() {
                        attributes.push(string_attr(
                            &format!("gen_ai.prompt.{n}.tool_calls.{k}.id"),
                            call["id"].clone(),
                        ));
                        attributes.push(string_attr(
                            &format!("gen_ai.prompt.{n}.tool_calls.{k}.name"),
                            call["function"]["name"].clone(),
                        ));
                        attributes.push(string_attr(
                            &format!("gen_ai.prompt.{n}.tool_calls.{k}.arguments"),
                            call["function"]["arguments"].clone(),
                        ));
                    }
                }
                for (n, choice) in output.iter().enumerate() {
                    let m = &choice["message"];
                    attributes.push(string_attr(
                        &format!("gen_ai.completion.{n}.role"),
                        "assistant",
                    ));
                    attributes.push(string_attr(
                        &format!("gen_ai.completion.{n}.content"),
                        m["content"].clone(),
                    ));
                    attributes.push(string_attr(
                        &format!("gen_ai.completion.{n}.finish_reason"),
                        choice["finish_reason"].clone(),
                    ));
                    for (k, call) in m["tool_calls"].as_array().into_iter().flatten().enumerate() {
                        attributes.push(string_attr(
                            &format!("gen_ai.completion.{n}.tool_calls.{k}.id"),
                            call["id"].clone(),
                        ));
                        attributes.push(string_attr(
                            &format!("gen_ai.completion.{n}.tool_calls.{k}.name"),
                            call["function"]["name"].clone(),
                        ));
                        attributes.push(string_attr(
                            &format!("gen_ai.completion.{n}.tool_calls.{k}.arguments"),
                            call["function"]["arguments"].clone(),
                        ));
                    }
                }
            }
            other => panic!("no form {other}"),
        }
        span["events"].as_array_mut().unwrap().extend(events);
        span["attributes"]
            .as_array_mut()
            .unwrap()
            .extend(attributes);
    }
    document
}

/// The GenAI span events moved into log records beside the spans, as the
/// instrumentations that write events through the logs API export them.
fn as_log_records(mut document: Value) -> Value {
    let mut records = Vec::new();
    for span in document["resourceSpans"][0]["scopeSpans"][0]["spans"]
        .as_array_mut()
        .unwrap()
    {
        let (trace, id) = (span["traceId"].clone(), span["spanId"].clone());
        let events = span["events"].as_array_mut().unwrap();
        for event in events
            .iter()
            .filter(|e| e["name"].as_str().unwrap().starts_with("gen_ai."))
        {
            records.push(json!({
                "traceId": trace, "spanId": id, "eventName": event["name"],
                "body": {"kvlistValue": {"values": event["attributes"]}},
            }));
        }
        events.retain(|e| !e["name"].as_str().unwrap().starts_with("gen_ai."));
    }
    assert!(!records.is_empty());
    document["resourceLogs"] = json!([{"scopeLogs": [{"logRecords": records}]}]);
    document
}

#[tokio::test(start_paused = true)]
async fn content_in_the_older_forms_of_the_conventions_reads_as_the_current_form() {
    let record = record_of("refund-policy").await;
    let current = as_foreign(to_otlp(&record, 0), true);
    let expected = from_otlp(&current).unwrap();
    let seen = |events: &[RunEvent]| -> Vec<String> {
        events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::RunStarted { task, .. } => Some(format!("task {task}")),
                EventKind::ToolCall { id, name, args, .. } => {
                    Some(format!("call {id} {name} {args}"))
                }
                EventKind::ToolResult { id, content, .. } => Some(format!("result {id} {content}")),
                EventKind::ModelResponse {
                    stop_reason,
                    content,
                    ..
                } => Some(format!(
                    "response {stop_reason} {}",
                    harness::message::text_of(content)
                )),
                _ => None,
            })
            .collect()
    };
    for form in ["events", "content events", "indexed", "log records"] {
        let document = if form == "log records" {
            as_log_records(in_older_form(&current, "events"))
        } else {
            in_older_form(&current, form)
        };
        let imported = from_otlp(&document).unwrap();
        assert_eq!(
            seen(&imported.record.events),
            seen(&expected.record.events),
            "{form}"
        );
        assert!(
            imported
                .notes
                .iter()
                .any(|n| n.contains("older form of the GenAI conventions")),
            "{form}: {:?}",
            imported.notes
        );
        assert!(
            !imported
                .notes
                .iter()
                .any(|n| n.contains("no message content")),
            "{form}: {:?}",
            imported.notes
        );
    }
}

#[tokio::test(start_paused = true)]
async fn a_strategys_work_is_a_span_of_its_own_and_reads_back_exactly() {
    let record = record_of("context-compact-keeps-id").await;
    let document = to_otlp(&record, 0);
    let spans = spans(&document);
    let edit = spans
        .iter()
        .find(|s| s["name"] == "context_edit compact")
        .expect("the compaction has its span");
    assert!(
        attr(edit, "agent_loop.context.description").unwrap()["stringValue"]
            .as_str()
            .unwrap()
            .starts_with("compacted turns 1–3 into a summary")
    );
    let back = from_otlp(&document).unwrap();
    assert_eq!(back.record, record);
    assert_eq!(back.record.outcome().unwrap().status, Status::Done);
}
