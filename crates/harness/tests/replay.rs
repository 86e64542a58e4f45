//! Recorded runs: export → import round trip, and replay with assertions on
//! outcomes against changed tool definitions.

mod common;

use std::rc::Rc;

use common::{load, run_with, QueueApprover};
use harness::approval::Decision;
use harness::replay::{replay, Assertions, Record};
use harness::runtime::TokioRuntime;
use serde_json::{json, Value};

async fn record_of(id: &str) -> Record {
    let scenario = load(harness::library::find(id).unwrap().json());
    let approver = QueueApprover::new(vec![Decision::Approve]);
    let (_, events) = run_with(&scenario, Some(&approver)).await;
    Record {
        scenario: Some(scenario),
        events,
        forked_at: None,
    }
}

#[tokio::test(start_paused = true)]
async fn a_record_round_trips_through_json_lines() {
    let record = record_of("refund-with-approval").await;
    let text = record.to_jsonl();
    assert!(text.starts_with("{\"type\":\"scenario\""));
    let back = Record::from_jsonl(&text).unwrap();
    assert_eq!(back, record);
    // A bare event trace reads too, without a scenario.
    let bare = Record::from_jsonl(&harness::event::to_jsonl(&record.events)).unwrap();
    assert_eq!(bare.scenario, None);
    assert_eq!(bare.events, record.events);
    // Broken input says where.
    let err =
        Record::from_jsonl("{\"type\":\"scenario\",\"scenario\":{\"name\":1}}\n").unwrap_err();
    assert!(
        err.starts_with("line 1: the recorded scenario has problems: ")
            && err.contains("name: expected a string, found a number (1)"),
        "{err}"
    );
    assert_eq!(
        Record::from_jsonl("").unwrap_err(),
        "the file is empty: expected a scenario line and run events"
    );
}

#[tokio::test(start_paused = true)]
async fn replaying_an_unchanged_scenario_passes_every_assertion() {
    for id in [
        "refund-with-approval",
        "hotel-search",
        "bad-arguments",
        "turn-limit",
        "rate-limit-retry",
    ] {
        let record = record_of(id).await;
        let scenario = record.scenario.clone().unwrap();
        let report = replay(
            &record,
            &scenario,
            &Assertions::default(),
            Rc::new(TokioRuntime::default()),
        )
        .await
        .unwrap();
        assert!(report.passed(), "{id}: {:?}", report.first_failure());
        assert_eq!(report.results.len(), 5);
    }
}

#[tokio::test(start_paused = true)]
async fn replaying_against_a_changed_tool_names_the_first_difference() {
    let record = record_of("hotel-search").await;
    // The current definition of search_hotels now requires a "currency"
    // argument the recorded model never sent.
    let mut changed: Value = serde_json::to_value(record.scenario.as_ref().unwrap()).unwrap();
    changed["tools"][0] = json!({"name": "search_hotels", "builtin": "search_hotels", "description": "Search hotels.",
        "input_schema": {"type": "object", "properties": {"place": {"type": "string"}, "check_in": {"type": "string"},
            "nights": {"type": "integer"}, "currency": {"enum": ["EUR", "USD"]}}, "required": ["place", "check_in", "currency"]}});
    let changed = harness::scenario::Scenario::from_value(changed).unwrap();
    let report = replay(
        &record,
        &changed,
        &Assertions::default(),
        Rc::new(TokioRuntime::default()),
    )
    .await
    .unwrap();
    assert!(!report.passed());
    // The run still ends done, but its first search now fails validation.
    let same_errors = report.first_failure().unwrap();
    assert_eq!(same_errors.name, "same_errors", "{same_errors:?}");
    assert!(same_errors.detail.starts_with("call 1 (search_hotels): the recording's result was ok, now it is an error: invalid arguments for search_hotels: missing required property \"currency\""), "{}", same_errors.detail);
}

#[tokio::test(start_paused = true)]
async fn assertions_catch_repeats_and_invented_ids() {
    // A recorded run that repeated a search and answered with an id no tool returned.
    let scenario = load(&json!({
        "name": "sloppy", "task": "find a hotel", "tools": ["search_hotels"], "now": "2026-11-29T12:00:00Z",
        "model": {"type": "scripted", "responses": [
            {"tool_calls": [{"name": "search_hotels", "args": {"place": "Paris", "check_in": "2027-01-10"}}]},
            {"tool_calls": [{"name": "search_hotels", "args": {"place": " Paris", "check_in": "2027-01-10"}}]},
            {"text": "Book h_par_99, it is the best."}
        ]}
    }).to_string());
    let (_, events) = run_with(&scenario, None).await;
    let record = Record {
        scenario: Some(scenario.clone()),
        events,
        forked_at: None,
    };
    // By default a replay is held to the recording: its own repeat and
    // invented id are not new, so it passes.
    let lenient = replay(
        &record,
        &scenario,
        &Assertions::default(),
        Rc::new(TokioRuntime::default()),
    )
    .await
    .unwrap();
    assert!(lenient.passed(), "{:?}", lenient.first_failure());
    let strict = Assertions {
        no_repeated_calls: Some(true),
        ids_exist: Some(true),
        ..Assertions::default()
    };
    let report = replay(
        &record,
        &scenario,
        &strict,
        Rc::new(TokioRuntime::default()),
    )
    .await
    .unwrap();
    let by_name = |name: &str| {
        report
            .results
            .iter()
            .find(|r| r.name == name)
            .unwrap()
            .clone()
    };
    assert!(by_name("status").passed);
    assert!(!by_name("no_repeated_calls").passed);
    assert!(by_name("no_repeated_calls")
        .detail
        .contains("was called as call 1 and again as call 2"));
    assert!(!by_name("ids_exist").passed);
    assert_eq!(
        by_name("ids_exist").detail,
        "the answer names h_par_99 but no tool result contains it"
    );
    // Explicit assertions override what the recording says.
    let expect_other = Assertions {
        status: Some("failed_verification".into()),
        ..Assertions::default()
    };
    let report = replay(
        &record,
        &scenario,
        &expect_other,
        Rc::new(TokioRuntime::default()),
    )
    .await
    .unwrap();
    assert_eq!(
        report.first_failure().unwrap().detail,
        "expected failed_verification, got done (the model gave a final answer in turn 3)"
    );
}

#[tokio::test(start_paused = true)]
async fn confirmed_facts_are_the_ids_tool_results_returned() {
    let record = record_of("hotel-search").await;
    let facts: Vec<(String, String, String)> = harness::facts::confirmed(&record.events)
        .into_iter()
        .map(|f| (f.name, f.value, f.tool))
        .collect();
    assert_eq!(
        facts,
        vec![
            (
                "hotel_id".to_string(),
                "h_lis_01".to_string(),
                "search_hotels".to_string()
            ),
            (
                "hotel_id".to_string(),
                "h_lis_02".to_string(),
                "search_hotels".to_string()
            ),
        ],
        "the detail call confirmed h_lis_01 again, which is not a new fact"
    );
}
