//! Traces other software wrote, kept whole on import: the committed
//! fixtures are real OTLP/JSON from `tests/otel/openllmetry_instrumented.py`
//! (OpenLLMetry's `opentelemetry-instrumentation-anthropic` /
//! `-openai` 0.62.4 with content on, beside the Anthropic SDK's own spans /
//! the official `opentelemetry-instrumentation-openai-v2`, a tool loop with
//! the official SDK against `agent-loop serve refund-policy`). Each model
//! call has two spans there; it must be one turn, and the system prompt and
//! tools must make a scenario that replays.

use std::rc::Rc;

use harness::event::{EventKind, RunEvent, Status};
use harness::otel::{from_otlp, Imported};
use harness::replay::{replay, Assertions, ReplayReport};
use harness::runtime::TokioRuntime;
use serde_json::{json, Value};

const SYSTEM: &str = "You are a support agent. Refund only after the policy check says in_window.";

fn fixture(provider: &str) -> Value {
    let path = format!(
        "{}/tests/fixtures/otel/{provider}-openllmetry-0.62.4.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn spans_mut(document: &mut Value) -> Vec<&mut Value> {
    document["resourceSpans"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .flat_map(|r| r["scopeSpans"].as_array_mut().unwrap().iter_mut())
        .flat_map(|s| s["spans"].as_array_mut().unwrap().iter_mut())
        // The application's own span has no attributes.
        .filter(|span| span["attributes"].is_array())
        .collect()
}

fn scope_spans(document: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for resource in document["resourceSpans"].as_array().unwrap() {
        for scope in resource["scopeSpans"].as_array().unwrap() {
            for span in scope["spans"].as_array().unwrap() {
                out.push((
                    scope["scope"]["name"].as_str().unwrap().to_string(),
                    span.clone(),
                ));
            }
        }
    }
    out
}

fn stops(events: &[RunEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ModelResponse { stop_reason, .. } => Some(stop_reason.clone()),
            _ => None,
        })
        .collect()
}

fn calls(events: &[RunEvent]) -> Vec<(String, String, Value)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolCall { id, name, args, .. } => {
                Some((id.clone(), name.clone(), args.clone()))
            }
            _ => None,
        })
        .collect()
}

fn results(events: &[RunEvent]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolResult { id, content, .. } => Some((id.clone(), content.clone())),
            _ => None,
        })
        .collect()
}

async fn replayed(imported: &Imported) -> ReplayReport {
    let scenario = imported.record.scenario.as_ref().expect("a scenario");
    replay(
        &imported.record,
        scenario,
        &Assertions::default(),
        Rc::new(TokioRuntime::default()),
    )
    .await
    .expect("the scenario builds")
}

/// The run both fixtures hold: the SDK's loop on refund-policy (whose
/// script `serve` plays, with its ids, in either API).
fn assert_whole_run(imported: &Imported, first_id: &str) {
    let events = &imported.record.events;
    let stops = stops(events);
    assert_eq!(stops.len(), 4, "one turn per model call: {stops:?}");
    assert!(!stops.contains(&"unknown".to_string()), "{stops:?}");
    let names: Vec<String> = calls(events).into_iter().map(|(_, n, _)| n).collect();
    assert_eq!(names, ["get_order", "check_refund_policy", "refund_order"]);
    for (id, _, args) in calls(events) {
        assert!(id.starts_with(first_id), "{id}");
        assert_eq!(args, json!({"order_id": "A1001"}));
    }
    let got = results(events);
    assert_eq!(got.len(), 3);
    assert!(got[2].1.contains("rf_0001"), "{got:?}");
    assert!(
        !got.iter().any(|(_, c)| c.contains("not in the trace")),
        "{got:?}"
    );
    let outcome = imported.record.outcome().expect("a stop status");
    assert_eq!(outcome.status, Status::Done);
    assert_eq!(
        outcome.answer.as_deref(),
        Some("Order A1001 is refunded in full (120.00, refund rf_0001).")
    );
    let scenario = imported.record.scenario.as_ref().expect("a scenario");
    assert_eq!(scenario.system, SYSTEM);
    assert_eq!(
        scenario.task,
        "Please refund my order A1001, it arrived broken."
    );
    let specs = scenario.tool_specs().unwrap();
    let tools: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(tools, ["get_order", "check_refund_policy", "refund_order"]);
    assert_eq!(
        specs[0].description,
        "Look up an order by its id, e.g. A1001."
    );
    assert_eq!(specs[0].input_schema["required"], json!(["order_id"]));
    let EventKind::RunStarted { tools: offered, .. } = &events[0].kind else {
        panic!("no run_started")
    };
    assert_eq!(offered, &tools);
}

#[tokio::test(start_paused = true)]
async fn openllmetry_anthropic_beside_the_sdks_own_spans_is_one_turn_per_call_and_replays() {
    let document = fixture("anthropic");
    let scopes: Vec<String> = scope_spans(&document).into_iter().map(|(s, _)| s).collect();
    assert_eq!(
        scopes
            .iter()
            .filter(|s| *s == "com.anthropic.sdk.python")
            .count(),
        4
    );
    assert_eq!(
        scopes
            .iter()
            .filter(|s| *s == "opentelemetry.instrumentation.anthropic")
            .count(),
        4
    );
    let imported = from_otlp(&document).unwrap();
    assert_whole_run(&imported, "toolu_");
    assert!(
        imported
            .notes
            .iter()
            .any(|n| n.starts_with("4 model calls were traced by more than one span")),
        "{:?}",
        imported.notes
    );
    let report = replayed(&imported).await;
    assert!(report.passed(), "{:?}", report.results);
    assert_eq!(report.outcome.status, Status::Done);
}

#[tokio::test(start_paused = true)]
async fn openllmetry_openai_beside_openai_v2_is_one_turn_per_call_and_replays() {
    let imported = from_otlp(&fixture("openai")).unwrap();
    assert_whole_run(&imported, "toolu_");
    let report = replayed(&imported).await;
    assert!(report.passed(), "{:?}", report.results);
}

/// Without response ids (a failed call has none), nesting is what says
/// two spans are one call.
#[tokio::test(start_paused = true)]
async fn spans_of_one_call_without_a_response_id_are_merged_by_nesting() {
    let mut document = fixture("anthropic");
    let pairs: Vec<(String, Value)> = scope_spans(&document);
    let outer: Vec<(String, String)> = pairs
        .iter()
        .filter(|(scope, _)| scope == "opentelemetry.instrumentation.anthropic")
        .map(|(_, s)| {
            let id = s["attributes"]
                .as_array()
                .unwrap()
                .iter()
                .find(|a| a["key"] == "gen_ai.response.id")
                .unwrap()["value"]["stringValue"]
                .as_str()
                .unwrap()
                .to_string();
            (id, s["spanId"].as_str().unwrap().to_string())
        })
        .collect();
    for span in spans_mut(&mut document) {
        let attributes = span["attributes"].as_array_mut().unwrap();
        let id = attributes
            .iter()
            .find(|a| a["key"] == "gen_ai.response.id")
            .map(|a| a["value"]["stringValue"].as_str().unwrap().to_string());
        attributes.retain(|a| a["key"] != "gen_ai.response.id");
        // The SDK's span nested in OpenLLMetry's, as a wrapper's child.
        if let Some((_, parent)) = outer
            .iter()
            .find(|(rid, sid)| Some(rid) == id.as_ref() && *sid != span["spanId"])
        {
            span["parentSpanId"] = Value::from(parent.clone());
        }
    }
    let imported = from_otlp(&document).unwrap();
    assert_whole_run(&imported, "toolu_");
}

/// OpenLLMetry before the current conventions wrote each tool as
/// `llm.request.functions.N.*`; those define the scenario's tools too.
#[tokio::test(start_paused = true)]
async fn tools_written_as_llm_request_functions_make_the_scenario() {
    let mut document = fixture("openai");
    for span in spans_mut(&mut document) {
        let attributes = span["attributes"].as_array_mut().unwrap();
        let Some(at) = attributes
            .iter()
            .position(|a| a["key"] == "gen_ai.tool.definitions")
        else {
            continue;
        };
        let definitions: Value =
            serde_json::from_str(attributes[at]["value"]["stringValue"].as_str().unwrap()).unwrap();
        attributes.remove(at);
        for (n, tool) in definitions.as_array().unwrap().iter().enumerate() {
            for (field, value) in [
                ("name", tool["name"].clone()),
                ("description", tool["description"].clone()),
                ("parameters", Value::from(tool["parameters"].to_string())),
            ] {
                attributes.push(json!({"key": format!("llm.request.functions.{n}.{field}"), "value": {"stringValue": value}}));
            }
        }
    }
    let imported = from_otlp(&document).unwrap();
    assert_whole_run(&imported, "toolu_");
    assert!(replayed(&imported).await.passed());
}

fn without(document: &mut Value, keys: &[&str]) {
    for span in spans_mut(document) {
        span["attributes"]
            .as_array_mut()
            .unwrap()
            .retain(|a| !keys.contains(&a["key"].as_str().unwrap()));
    }
}

/// What a trace lacks is said: no definitions, no system prompt.
#[tokio::test(start_paused = true)]
async fn a_trace_without_definitions_or_system_prompt_says_so_and_still_replays() {
    let mut document = fixture("anthropic");
    without(
        &mut document,
        &["gen_ai.tool.definitions", "gen_ai.system_instructions"],
    );
    let imported = from_otlp(&document).unwrap();
    let notes = imported.notes.join("\n");
    assert!(notes.contains("holds no tool definitions"), "{notes}");
    assert!(notes.contains("holds no system prompt"), "{notes}");
    let scenario = imported.record.scenario.as_ref().unwrap();
    assert_eq!(scenario.system, "");
    assert_eq!(
        scenario.tool_specs().unwrap()[0].input_schema,
        json!({"type": "object"})
    );
    assert!(replayed(&imported).await.passed());
}

/// A tool called but defined in no span: answered from its recorded
/// results, never offered to the model, and the replay names it.
#[tokio::test(start_paused = true)]
async fn a_called_tool_no_span_defines_replays_as_undeclared() {
    let mut document = fixture("anthropic");
    for span in spans_mut(&mut document) {
        for attribute in span["attributes"].as_array_mut().unwrap() {
            if attribute["key"] == "gen_ai.tool.definitions" {
                let mut list: Vec<Value> =
                    serde_json::from_str(attribute["value"]["stringValue"].as_str().unwrap())
                        .unwrap();
                list.retain(|t| t["name"] != "refund_order");
                attribute["value"]["stringValue"] = Value::from(Value::Array(list).to_string());
            }
        }
    }
    let imported = from_otlp(&document).unwrap();
    assert!(
        imported
            .notes
            .iter()
            .any(|n| n.contains("defined in no span's gen_ai.tool.definitions: refund_order")),
        "{:?}",
        imported.notes
    );
    let scenario = imported.record.scenario.as_ref().unwrap();
    assert_eq!(scenario.undeclared_tools(), ["refund_order"]);
    let offered: Vec<String> = scenario
        .tool_specs()
        .unwrap()
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(offered, ["get_order", "check_refund_policy"]);
    let report = replayed(&imported).await;
    assert!(report.passed(), "{:?}", report.results);
    let row = report
        .results
        .iter()
        .find(|r| r.name == "undeclared_tools")
        .unwrap();
    assert!(row.detail.contains("refund_order"), "{}", row.detail);
}

/// Content capture off: the turns are kept, and no scenario is made up.
#[test]
fn without_content_there_is_no_scenario_and_the_notes_say_why() {
    let mut document = fixture("openai");
    without(
        &mut document,
        &[
            "gen_ai.input.messages",
            "gen_ai.output.messages",
            "gen_ai.system_instructions",
        ],
    );
    let imported = from_otlp(&document).unwrap();
    assert_eq!(stops(&imported.record.events).len(), 4);
    assert!(imported.record.scenario.is_none());
    assert!(
        imported
            .notes
            .iter()
            .any(|n| n.starts_with("No scenario: without the model's output messages")),
        "{:?}",
        imported.notes
    );
}

/// Without the application's span around the loop, the SDK's span and
/// OpenLLMetry's are each a trace's root: the response id still joins them.
#[tokio::test(start_paused = true)]
async fn spans_of_one_call_in_separate_traces_are_merged_by_response_id() {
    let mut document = fixture("anthropic");
    for (n, span) in spans_mut(&mut document).into_iter().enumerate() {
        span["traceId"] = Value::from(format!("{:032x}", n + 1));
        span["parentSpanId"] = Value::from("");
    }
    let imported = from_otlp(&document).unwrap();
    assert_whole_run(&imported, "toolu_");
    assert!(replayed(&imported).await.passed());
}
