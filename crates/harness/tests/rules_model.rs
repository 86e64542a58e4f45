//! The rules model's choices follow what the tools say: change a description
//! or a schema and the calls change.

mod common;

use common::run_json;
use harness::event::{EventKind, RunEvent, Status};
use serde_json::{json, Value};

fn calls(events: &[RunEvent]) -> Vec<(String, Value)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolCall { name, args, .. } => Some((name.clone(), args.clone())),
            _ => None,
        })
        .collect()
}

fn with_tools(task: &str, tools: Value) -> String {
    json!({"name": "rules", "task": task, "tools": tools, "model": {"type": "rules"}}).to_string()
}

#[tokio::test(start_paused = true)]
async fn an_example_in_the_description_shapes_the_id() {
    let (with, _) = run_json(harness::library::find("rules-with-example").unwrap().json()).await;
    let (without, events) = run_json(
        harness::library::find("rules-without-example")
            .unwrap()
            .json(),
    )
    .await;
    assert_eq!(with.status, Status::Done);
    assert_eq!(without.status, Status::FailedVerification);
    assert_eq!(
        calls(&events)[0],
        ("get_order".to_string(), json!({"order_id": "ORD-1001"}))
    );
    // The example can sit in the tool's description as well as the property's.
    let tool = json!({"name": "get_order", "builtin": "get_order", "description": "Look up an order by id (for example B2002).",
        "input_schema": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}});
    let (_, events) = run_json(&with_tools("Where is A1001?", json!([tool]))).await;
    assert_eq!(calls(&events)[0].1, json!({"order_id": "A1001"}));
}

#[tokio::test(start_paused = true)]
async fn enums_defaults_dates_and_earlier_results_fill_arguments() {
    let tools = json!(["search_hotels", "get_hotel_detail"]);
    let mut scenario: Value = serde_json::from_str(&with_tools(
        "Find a hotel in Lisbon for 2027-03-14 please.",
        tools,
    ))
    .unwrap();
    scenario["now"] = json!("2026-11-29T12:00:00Z");
    let (outcome, events) = run_json(&scenario.to_string()).await;
    assert_eq!(outcome.status, Status::Done, "{}", outcome.reason);
    assert_eq!(
        calls(&events),
        vec![
            (
                "search_hotels".to_string(),
                json!({"place": "Lisbon", "check_in": "2027-03-14", "nights": 2})
            ),
            (
                "get_hotel_detail".to_string(),
                json!({"hotel_id": "h_lis_01"})
            ),
        ]
    );
    // An enum in the schema decides the value.
    let tool = json!({"name": "sort", "input_schema": {"type": "object", "properties": {"order": {"enum": ["desc", "asc"]}}, "required": ["order"]}, "result": "sorted"});
    let (_, events) = run_json(&with_tools("Sort them.", json!([tool]))).await;
    assert_eq!(calls(&events)[0].1, json!({"order": "desc"}));
}

#[tokio::test(start_paused = true)]
async fn ordering_words_in_descriptions_change_the_order_of_calls() {
    let tool = |name: &str, description: &str| json!({"name": name, "description": description, "input_schema": {"type": "object"}, "result": {"ok": true}});
    let (_, listed) = run_json(&with_tools(
        "go",
        json!([tool("write", "Writes."), tool("read", "Reads.")]),
    ))
    .await;
    let (_, ordered) = run_json(&with_tools(
        "go",
        json!([
            tool("write", "Writes. Only after read returned ok."),
            tool("read", "Reads.")
        ]),
    ))
    .await;
    let names = |events: &[RunEvent]| {
        calls(events)
            .into_iter()
            .map(|(n, _)| n)
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&listed), vec!["write", "read"]);
    assert_eq!(names(&ordered), vec!["read", "write"]);
}
