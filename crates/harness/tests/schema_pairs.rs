//! The tool-schema pairs (`library::SCHEMA_PAIRS`): for each, the rules
//! model's calls under A and under B, and the statuses they end with. Each
//! pair changes one thing in the tools, and these are the choices its lesson
//! describes.

mod common;

use harness::event::{EventKind, Outcome, RunEvent, Status};
use harness::library::{find, SCHEMA_PAIRS};
use serde_json::{json, Value};

async fn run(id: &str) -> (Outcome, Vec<RunEvent>) {
    common::run_builtin(find(id).unwrap_or_else(|| panic!("no scenario {id}"))).await
}

/// Each tool call the model asked for, with its arguments.
fn calls(events: &[RunEvent]) -> Vec<(String, Value)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolCall { name, args, .. } => Some((name.clone(), args.clone())),
            _ => None,
        })
        .collect()
}

/// The text of the model's responses, joined.
fn said(events: &[RunEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ModelResponse { content, .. } => Some(harness::message::text_of(content)),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn call(name: &str, args: Value) -> (String, Value) {
    (name.to_string(), args)
}

#[tokio::test(start_paused = true)]
async fn every_schema_pair_runs_the_rules_model_and_ends_as_listed() {
    for (a, b) in SCHEMA_PAIRS {
        for id in [a, b] {
            let builtin = find(id).unwrap();
            assert!(builtin.json().contains(r#""type": "rules""#), "{id}");
            let (outcome, _) = run(id).await;
            assert_eq!(outcome.status.as_str(), builtin.expected_status, "{id}");
        }
    }
}

#[tokio::test(start_paused = true)]
async fn an_enum_gives_the_spelling_the_tool_wants_and_a_free_string_does_not() {
    let (a, a_events) = run("schema-place-enum").await;
    let (b, b_events) = run("schema-place-free-string").await;
    assert_eq!(
        (a.status, b.status),
        (Status::Done, Status::FailedVerification)
    );
    // The task says "lisbon"; the enum says "Lisbon".
    assert_eq!(calls(&a_events)[0].1["place"], json!("Lisbon"));
    assert!(said(&a_events).contains("(the enum value the task names)"));
    let place = calls(&b_events)[0].1["place"].clone();
    assert!(
        place
            .as_str()
            .unwrap()
            .starts_with("find me a room in lisbon"),
        "{place}"
    );
    assert!(said(&b_events).contains("(the task itself)"));
}

#[tokio::test(start_paused = true)]
async fn a_required_field_is_read_from_the_task_and_a_default_is_taken_as_is() {
    let (a, a_events) = run("schema-nights-required").await;
    let (b, b_events) = run("schema-nights-default").await;
    assert_eq!(
        (a.status, b.status),
        (Status::Done, Status::FailedVerification)
    );
    assert_eq!(calls(&a_events)[0].1["nights"], json!(5));
    assert!(said(&a_events).contains("nights = 5 (the first number in the task)"));
    assert_eq!(calls(&b_events)[0].1["nights"], json!(2));
    assert!(said(&b_events).contains("nights = 2 (its schema default)"));
}

#[tokio::test(start_paused = true)]
async fn a_precise_name_picks_the_right_id_and_a_vague_one_the_first_id() {
    let (a, a_events) = run("schema-name-order-id").await;
    let (b, b_events) = run("schema-name-vague-id").await;
    // Both end done: nothing but the arguments shows B's mistake.
    assert_eq!((a.status, b.status), (Status::Done, Status::Done));
    assert_eq!(
        calls(&a_events)[1],
        call("open_return", json!({"order_id": "A1001"}))
    );
    assert_eq!(
        calls(&b_events)[1],
        call("open_return", json!({"id": "C-4821"}))
    );
}

#[tokio::test(start_paused = true)]
async fn a_stated_precondition_orders_the_calls_and_an_unstated_one_is_broken() {
    let (a, a_events) = run("schema-precondition-stated").await;
    let (b, b_events) = run("schema-precondition-unstated").await;
    assert_eq!(
        (a.status, b.status),
        (Status::Done, Status::FailedVerification)
    );
    let names = |events: &[RunEvent]| -> Vec<String> {
        calls(events).into_iter().map(|(name, _)| name).collect()
    };
    assert_eq!(
        names(&a_events),
        ["get_order", "check_refund_policy", "refund_order"]
    );
    // Listed order: refund_order before check_refund_policy, and refused.
    assert_eq!(names(&b_events), ["get_order", "refund_order"]);
    let refused = common::tool_results(&b_events);
    assert!(
        refused[1].1
            && refused[1]
                .2
                .contains("check_refund_policy has not been called")
    );
}

#[tokio::test(start_paused = true)]
async fn a_misleading_example_is_copied_as_faithfully_as_an_accurate_one() {
    let (a, a_events) = run("schema-example-accurate").await;
    let (b, b_events) = run("schema-example-misleading").await;
    assert_eq!(
        (a.status, b.status),
        (Status::Done, Status::FailedVerification)
    );
    assert_eq!(
        calls(&a_events)[0],
        call("get_order", json!({"order_id": "A1001"}))
    );
    assert_eq!(
        calls(&b_events),
        [call("get_order", json!({"order_id": "1001"}))]
    );
    assert!(said(&b_events).contains("(the description's example)"));
}

#[tokio::test(start_paused = true)]
async fn overlapping_descriptions_make_the_second_tool_look_done() {
    let (a, a_events) = run("schema-tools-distinct").await;
    let (b, b_events) = run("schema-tools-overlapping").await;
    assert_eq!(
        (a.status, b.status),
        (Status::Done, Status::FailedVerification)
    );
    assert_eq!(
        calls(&a_events)[1],
        call("get_hotel_detail", json!({"hotel_id": "h_lis_01"}))
    );
    assert_eq!(calls(&b_events).len(), 1, "{:?}", calls(&b_events));
    assert!(said(&b_events).contains(
        "Skipped get_hotel_detail: its description overlaps that of search_hotels, which already ran"
    ));
}
