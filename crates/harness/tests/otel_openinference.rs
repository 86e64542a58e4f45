//! Spans in the OpenInference conventions (Arize Phoenix's), imported. The
//! committed fixtures are real OTLP/JSON, a tool loop against `agent-loop
//! serve precondition-in-description` (one call to issue_refund, then the
//! answer):
//! - `openinference-openai-0.1.66.json`, from
//!   `tests/otel/openinference_instrumented.py`: the OpenAI SDK traced by
//!   openinference-instrumentation-openai 0.1.66 (LLM spans with
//!   `input.value` / `output.value` bodies, `llm.input_messages.*`,
//!   `llm.output_messages.*`, `llm.tools.*`, `llm.token_count.*`), the
//!   application's TOOL and AGENT spans from openinference-instrumentation;
//! - `openinference-openai-agents-2.6.0.json`, from
//!   `tests/otel/openinference_agents_instrumented.py`: the OpenAI Agents
//!   SDK traced by openinference-instrumentation-openai-agents 2.6.0 (no
//!   finish reasons, no tool list on its LLM spans, CHAIN spans per turn).
//!
//! Each must import as the run it was and replay.

use std::rc::Rc;

use harness::event::{EventKind, RunEvent, Status};
use harness::otel::{from_otlp, Imported};
use harness::replay::{replay, Assertions};
use harness::runtime::TokioRuntime;
use serde_json::{json, Value};

const SYSTEM: &str = "You are a support agent. Refund an order only once.";
const TASK: &str = "The customer of ord_a1b2c3d4e5 wants their money back.";
const ANSWER: &str = "Refunded ord_a1b2c3d4e5 (re_0001).";
const RESULT: &str = r#"{"ok": true, "refund_id": "re_0001", "order_id": "ord_a1b2c3d4e5"}"#;

fn fixture(name: &str) -> Value {
    let path = format!(
        "{}/tests/fixtures/otel/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn openai() -> Imported {
    from_otlp(&fixture("openinference-openai-0.1.66")).expect("the OpenInference spans import")
}

fn agents() -> Imported {
    from_otlp(&fixture("openinference-openai-agents-2.6.0"))
        .expect("the OpenInference spans import")
}

/// A call as (id, name, arguments).
type Call = (String, String, Value);
/// A result as (its call's id, content).
type ToolOutput = (String, String);

/// Each call and each result, in order.
fn calls_and_results(events: &[RunEvent]) -> (Vec<Call>, Vec<ToolOutput>) {
    let mut calls = Vec::new();
    let mut results = Vec::new();
    for event in events {
        match &event.kind {
            EventKind::ToolCall { id, name, args, .. } => {
                calls.push((id.clone(), name.clone(), args.clone()))
            }
            EventKind::ToolResult { id, content, .. } => {
                results.push((id.clone(), content.clone()))
            }
            _ => {}
        }
    }
    (calls, results)
}

fn turns(events: &[RunEvent]) -> Vec<(String, String, u64, u64)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ModelResponse {
                text,
                stop_reason,
                usage,
                ..
            } => Some((
                text.clone(),
                stop_reason.clone(),
                usage.input_tokens,
                usage.output_tokens,
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn the_openai_instrumentation_s_spans_import_as_the_run_the_sdk_saw() {
    let imported = openai();
    assert!(!imported.ours);
    assert_eq!(imported.conventions, "OpenInference spans");
    let events = &imported.record.events;
    let EventKind::RunStarted {
        scenario,
        model,
        task,
        tools,
        ..
    } = &events[0].kind
    else {
        panic!("no run_started")
    };
    assert_eq!(
        (scenario.as_str(), model.as_str(), task.as_str()),
        ("support_agent", "gpt-4.1", TASK)
    );
    assert_eq!(tools, &["issue_refund"]);
    // Finish reasons and tokens as the LLM spans recorded them.
    assert_eq!(
        turns(events),
        [
            (String::new(), "tool_calls".to_string(), 64, 11),
            (ANSWER.to_string(), "stop".to_string(), 91, 9),
        ]
    );
    let (calls, results) = calls_and_results(events);
    assert_eq!(
        calls,
        [(
            "toolu_0001".to_string(),
            "issue_refund".to_string(),
            json!({"order_id": "ord_a1b2c3d4e5"})
        )]
    );
    // The result from the TOOL span's output.value, on its call.
    assert_eq!(results, [("toolu_0001".to_string(), RESULT.to_string())]);
    let outcome = imported.record.outcome().expect("a stop status");
    assert_eq!(outcome.status, Status::Done);
    assert_eq!(outcome.answer.as_deref(), Some(ANSWER));
    assert_eq!((outcome.input_tokens, outcome.output_tokens), (155, 20));
}

#[test]
fn the_openai_instrumentation_s_system_prompt_and_tools_make_the_scenario() {
    let imported = openai();
    let scenario = imported.record.scenario.as_ref().expect("a scenario");
    assert_eq!(scenario.system, SYSTEM);
    assert_eq!(scenario.task, TASK);
    let specs = scenario.tool_specs().unwrap();
    assert_eq!(specs.len(), 1);
    assert_eq!(specs[0].name, "issue_refund");
    assert_eq!(specs[0].description, "Refund an order in full.");
    assert_eq!(
        specs[0].input_schema,
        json!({"type": "object", "properties": {"order_id": {"type": "string"}},
               "required": ["order_id"], "additionalProperties": false})
    );
}

#[test]
fn the_openai_instrumentation_s_notes_name_what_was_read_and_what_was_not() {
    let notes = openai().notes;
    assert_eq!(
        notes,
        [
            "4 spans were read from the OpenInference conventions (Arize Phoenix's openinference.span.kind LLM, TOOL and AGENT spans) as model calls, tool calls and the agent.",
            "Not read from the OpenInference spans: the provider (llm.system); the tools' definitions on their TOOL spans (tool.description, tool.parameters), as the model calls' own list of tools (llm.tools) was read.",
        ]
    );
}

/// The same spans without the indexed message attributes: the messages are
/// read from the request and response bodies (`input.value`,
/// `output.value`, JSON by their mime type), to the same run.
#[test]
fn without_indexed_messages_the_request_and_response_bodies_are_read() {
    let mut document = fixture("openinference-openai-0.1.66");
    for resource in document["resourceSpans"].as_array_mut().unwrap() {
        for scope in resource["scopeSpans"].as_array_mut().unwrap() {
            for span in scope["spans"].as_array_mut().unwrap() {
                span["attributes"].as_array_mut().unwrap().retain(|a| {
                    let key = a["key"].as_str().unwrap();
                    !key.starts_with("llm.input_messages.")
                        && !key.starts_with("llm.output_messages.")
                        && !key.starts_with("llm.tools.")
                        && key != "llm.finish_reason"
                });
            }
        }
    }
    let from_bodies = from_otlp(&document).unwrap();
    let from_attributes = openai();
    assert_eq!(
        turns(&from_bodies.record.events),
        turns(&from_attributes.record.events)
    );
    assert_eq!(
        calls_and_results(&from_bodies.record.events),
        calls_and_results(&from_attributes.record.events)
    );
    let scenario = from_bodies.record.scenario.expect("a scenario");
    assert_eq!(scenario.system, SYSTEM);
    assert_eq!(
        scenario.tool_specs().unwrap()[0].description,
        "Refund an order in full."
    );
}

#[test]
fn the_agents_instrumentation_s_spans_import_with_the_tool_defined_by_its_tool_span() {
    let imported = agents();
    let events = &imported.record.events;
    let EventKind::RunStarted { scenario, .. } = &events[0].kind else {
        panic!("no run_started")
    };
    // The agent's span names the run, not the SDK's workflow span around it.
    assert_eq!(scenario, "Refund agent");
    let (calls, results) = calls_and_results(events);
    assert_eq!(
        calls,
        [(
            "toolu_0001".to_string(),
            "issue_refund".to_string(),
            json!({"order_id": "ord_a1b2c3d4e5"})
        )]
    );
    assert_eq!(results, [("toolu_0001".to_string(), RESULT.to_string())]);
    // No finish reasons in these spans: read from what each turn asked for.
    let stops: Vec<String> = turns(events).into_iter().map(|t| t.1).collect();
    assert_eq!(stops, ["tool_use", "end_turn"]);
    let outcome = imported.record.outcome().expect("a stop status");
    assert_eq!(outcome.status, Status::Done);
    assert_eq!(outcome.answer.as_deref(), Some(ANSWER));
    let spec = &imported
        .record
        .scenario
        .as_ref()
        .unwrap()
        .tool_specs()
        .unwrap()[0];
    assert_eq!(spec.description, "Refund an order in full.");
    assert_eq!(spec.input_schema["required"], json!(["order_id"]));
    let notes = &imported.notes;
    for expected in [
        "4 OpenInference spans are neither a model call, a tool call nor the agent, so they were left out (by openinference.span.kind: 3 CHAIN, 1 AGENT (beyond the one read)).",
        "The model calls list no tools (no llm.tools): the tools' definitions (issue_refund) were read from their TOOL spans (tool.description, tool.parameters), so a tool the run offered but never called is not among them.",
    ] {
        assert!(notes.iter().any(|n| n == expected), "{notes:?}");
    }
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("Not read from the OpenInference spans:")
                && n.contains("agent graph nodes (graph.node)")
                && n.contains("llm.invocation_parameters: base_url")),
        "{notes:?}"
    );
}

/// Only spans of kinds the import does not read (the agents
/// instrumentation's CHAIN spans): refused, in words that name both
/// conventions it reads.
#[test]
fn a_trace_of_no_model_call_tool_call_or_agent_is_refused_naming_both_conventions() {
    let mut document = fixture("openinference-openai-agents-2.6.0");
    for resource in document["resourceSpans"].as_array_mut().unwrap() {
        for scope in resource["scopeSpans"].as_array_mut().unwrap() {
            scope["spans"].as_array_mut().unwrap().retain(|span| {
                span["attributes"].as_array().unwrap().iter().any(|a| {
                    a["key"] == "openinference.span.kind" && a["value"]["stringValue"] == "CHAIN"
                })
            });
        }
    }
    let error = from_otlp(&document).unwrap_err().to_string();
    assert_eq!(
        error,
        "none of the 3 spans is a model call, a tool call or an agent: the trace does not follow the OpenTelemetry GenAI conventions (no gen_ai.operation.name attribute), nor OpenInference's (no openinference.span.kind LLM, TOOL or AGENT)"
    );
}

#[tokio::test(start_paused = true)]
async fn both_imports_replay_to_done() {
    for imported in [openai(), agents()] {
        let scenario = imported.record.scenario.as_ref().expect("a scenario");
        let report = replay(
            &imported.record,
            scenario,
            &Assertions::default(),
            Rc::new(TokioRuntime::default()),
        )
        .await
        .expect("the scenario builds");
        assert!(report.passed(), "{:?}", report.results);
        assert_eq!(report.outcome.status, Status::Done);
        assert_eq!(report.outcome.answer.as_deref(), Some(ANSWER));
    }
}
