//! The OpenAI Agents SDK's spans, as the official
//! `opentelemetry-instrumentation-openai-agents-v2` 0.1.0 writes them: the
//! committed fixture is real OTLP/JSON from
//! `tests/otel/openai_agents_instrumented.py` (the SDK's Chat Completions
//! model against `agent-loop serve refund-policy`, content on the spans).
//! Its `execute_tool` spans hold each result but no `gen_ai.tool.call.id`,
//! its `chat` spans no finish reason, and it has spans of operation
//! `unknown` and a second `invoke_agent`. The import keeps every result on
//! its call (paired by order within the turn), says the ids were assigned,
//! reads the turns' finish from what they asked for, counts what it left
//! out as it is, and replays.

use std::rc::Rc;

use harness::event::{EventKind, RunEvent, Status};
use harness::otel::{from_otlp, Imported};
use harness::replay::{replay, Assertions};
use harness::runtime::TokioRuntime;
use serde_json::{json, Value};

const ANSWER: &str = "Order A1001 is refunded in full (120.00, refund rf_0001).";

fn fixture() -> Value {
    let path = format!(
        "{}/tests/fixtures/otel/openai-agents-v2-0.1.0.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn imported() -> Imported {
    from_otlp(&fixture()).unwrap()
}

/// Each call's id and name, and the id, name and content of the result
/// that follows it.
fn calls_and_results(events: &[RunEvent]) -> Vec<(String, String, String, String, String)> {
    let mut out = Vec::new();
    let mut pending: Option<(String, String)> = None;
    for event in events {
        match &event.kind {
            EventKind::ToolCall { id, name, .. } => pending = Some((id.clone(), name.clone())),
            EventKind::ToolResult {
                id, name, content, ..
            } => {
                let (call_id, call_name) = pending.take().expect("a result after its call");
                out.push((
                    call_id,
                    call_name,
                    id.clone(),
                    name.clone(),
                    content.clone(),
                ));
            }
            _ => {}
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

#[test]
fn tool_results_without_call_ids_are_kept_and_paired_by_order_within_the_turn() {
    let imported = imported();
    let pairs = calls_and_results(&imported.record.events);
    let names: Vec<&str> = pairs.iter().map(|p| p.1.as_str()).collect();
    assert_eq!(names, ["get_order", "check_refund_policy", "refund_order"]);
    for (call_id, call_name, result_id, result_name, content) in &pairs {
        assert_eq!(result_id, call_id);
        assert_eq!(result_name, call_name);
        let result: Value = serde_json::from_str(content)
            .unwrap_or_else(|_| panic!("{call_name}'s result was not kept: {content}"));
        assert_eq!(result["order_id"], json!("A1001"), "{content}");
    }
    assert_eq!(
        pairs[2].4,
        r#"{"order_id": "A1001", "refund_id": "rf_0001", "refunded_cents": 12000}"#
    );
    let ids: Vec<&str> = pairs.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(ids, ["call_1_0", "call_2_0", "call_3_0"]);
}

#[test]
fn the_notes_say_the_ids_were_assigned() {
    let notes = imported().notes;
    assert!(
        notes.iter().any(|n| n.starts_with(
            "3 tool calls have no id in the trace (no gen_ai.tool.call.id on their execute_tool spans"
        ) && n.contains("their ids were assigned here")
            && n.contains("paired with its call by order within its turn")),
        "{notes:?}"
    );
}

#[test]
fn the_notes_count_the_spans_left_out_by_their_operation() {
    let notes = imported().notes;
    let left_out: Vec<&String> = notes.iter().filter(|n| n.contains("left out")).collect();
    assert_eq!(
        left_out,
        [&"6 GenAI spans are neither a model call nor a tool call, so they were left out (by gen_ai.operation.name: 5 unknown, 1 invoke_agent (beyond the one read)).".to_string()],
        "{notes:?}"
    );
    assert!(!notes.iter().any(|n| n.contains("embeddings")), "{notes:?}");
}

#[test]
fn without_finish_reasons_a_turn_with_calls_is_tool_use_and_the_last_the_answer() {
    let imported = imported();
    assert_eq!(
        stops(&imported.record.events),
        ["tool_use", "tool_use", "tool_use", "end_turn"]
    );
    assert!(
        imported.notes.iter().any(|n| n
            .starts_with("4 model calls have no finish reason in the trace")
            && n.contains("3 that asked for tools read as tool_use")),
        "{:?}",
        imported.notes
    );
    let outcome = imported.record.outcome().expect("a stop status");
    assert_eq!(outcome.status, Status::Done);
    assert_eq!(outcome.answer.as_deref(), Some(ANSWER));
    assert!(
        outcome.reason.contains("the trace gives no finish reason"),
        "{}",
        outcome.reason
    );
    // The agent's own span names the run, not the SDK's nameless workflow span.
    let EventKind::RunStarted { scenario, .. } = &imported.record.events[0].kind else {
        panic!("no run_started")
    };
    assert_eq!(scenario, "Refund agent");
}

#[tokio::test(start_paused = true)]
async fn the_import_replays() {
    let imported = imported();
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
}
