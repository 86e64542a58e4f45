//! Recorded runs: export → import round trip, and replay with assertions on
//! outcomes against changed tool definitions.

mod common;

use std::rc::Rc;

use common::{load, run_with, QueueApprover};
use harness::approval::Decision;
use harness::error::{LineError, RecordError};
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
        matches!(&err, RecordError::Scenario { line: 1, problems } if !problems.is_empty()),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(
        text.starts_with("line 1: the recorded scenario has problems: ")
            && text.contains("name: expected a string, found a number (1)"),
        "{text}"
    );
    let empty = Record::from_jsonl("").unwrap_err();
    assert_eq!(empty, RecordError::Empty);
    assert_eq!(
        empty.to_string(),
        "the file is empty: expected a scenario line and run events"
    );
    // A line that is not JSON, and one that is JSON but no event, each name
    // their line.
    let trace = harness::event::to_jsonl(&record.events);
    let broken = format!("{trace}{{not json\n");
    let line = trace.lines().count() + 1;
    assert!(matches!(
        Record::from_jsonl(&broken).unwrap_err(),
        RecordError::Line(LineError::NotJson { line: l, .. }) if l == line
    ));
    assert!(matches!(
        Record::from_jsonl(&format!("{trace}{{\"seq\":\"x\"}}\n")).unwrap_err(),
        RecordError::Line(LineError::NotAnEvent { line: l, .. }) if l == line
    ));
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
    // By default a replay is held to the recording for repeats (its own
    // repeat is not new), but never for ids: an invented id stays invented.
    let default = replay(
        &record,
        &scenario,
        &Assertions::default(),
        Rc::new(TokioRuntime::default()),
    )
    .await
    .unwrap();
    assert_eq!(
        default
            .first_failure()
            .map(|r| (r.name.as_str(), r.detail.as_str())),
        Some((
            "ids_exist",
            "h_par_99 is in the answer but no tool result contains it"
        ))
    );
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
        "h_par_99 is in the answer but no tool result contains it"
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

/// refund-with-approval as it was once scripted: the same answer
/// whatever the person decided.
fn the_old_refund_script() -> harness::scenario::Scenario {
    let mut scenario: Value = serde_json::from_str(
        harness::library::find("refund-with-approval")
            .unwrap()
            .json(),
    )
    .unwrap();
    scenario["model"]["responses"][2] =
        json!({"text": "Refund issued for ord_f6g7h8i9j0 (refund re_0001, 42.00)."});
    load(&scenario.to_string())
}

async fn recorded(scenario: &harness::scenario::Scenario, decision: Decision) -> Record {
    let approver = QueueApprover::new(vec![decision]);
    let (_, events) = run_with(scenario, Some(&approver)).await;
    let record = Record {
        scenario: Some(scenario.clone()),
        events,
        forked_at: None,
    };
    // Read back as the CLI and the page read a kept run.
    Record::from_jsonl(&record.to_jsonl()).unwrap()
}

/// The ids_exist result (passed, detail) and the names of every failed check.
async fn ids_exist_of(record: &Record) -> (bool, String, Vec<String>) {
    let report = replay(
        record,
        record.scenario.as_ref().unwrap(),
        &Assertions::default(),
        Rc::new(TokioRuntime::default()),
    )
    .await
    .unwrap();
    let ids = report
        .results
        .iter()
        .find(|r| r.name == "ids_exist")
        .unwrap();
    let failed = report
        .results
        .iter()
        .filter(|r| !r.passed)
        .map(|r| r.name.clone())
        .collect();
    (ids.passed, ids.detail.clone(), failed)
}

#[tokio::test(start_paused = true)]
async fn a_refund_id_invented_after_a_denial_fails_the_replay() {
    // The refund was denied, yet the answer names re_0001,
    // which no tool returned. The recording has the same invented id, and
    // that is no excuse.
    let record = recorded(&the_old_refund_script(), Decision::Deny { reason: None }).await;
    assert_eq!(
        record.outcome().unwrap().answer.as_deref(),
        Some("Refund issued for ord_f6g7h8i9j0 (refund re_0001, 42.00).")
    );
    let (passed, detail, failed) = ids_exist_of(&record).await;
    assert!(!passed);
    assert_eq!(failed, ["ids_exist"], "the other four checks hold");
    assert_eq!(
        detail,
        "re_0001 is in the answer but no tool result contains it"
    );
    // Switching the check off is the only way past it.
    let off = Assertions {
        ids_exist: Some(false),
        ..Assertions::default()
    };
    let report = replay(
        &record,
        record.scenario.as_ref().unwrap(),
        &off,
        Rc::new(TokioRuntime::default()),
    )
    .await
    .unwrap();
    assert!(report.passed(), "{:?}", report.first_failure());
    assert!(report.results.iter().all(|r| r.name != "ids_exist"));
}

#[tokio::test(start_paused = true)]
async fn a_passing_ids_check_says_what_it_checked() {
    let honest = load(
        harness::library::find("refund-with-approval")
            .unwrap()
            .json(),
    );
    let denied = recorded(&honest, Decision::Deny { reason: None }).await;
    assert_eq!(
        ids_exist_of(&denied).await,
        (
            true,
            "1 id in the answer, found in a tool result".to_string(),
            vec![]
        )
    );
    let approved = recorded(&honest, Decision::Approve).await;
    assert_eq!(
        ids_exist_of(&approved).await,
        (
            true,
            "2 ids in the answer, all found in tool results".to_string(),
            vec![]
        )
    );
    let blocked = load(harness::library::find("blocked").unwrap().json());
    let mut blocked_asked: Value = serde_json::to_value(&blocked).unwrap();
    blocked_asked["approval"] = json!("ask");
    let deleted = recorded(&load(&blocked_asked.to_string()), Decision::Approve).await;
    assert_eq!(
        ids_exist_of(&deleted).await.1,
        "no id-like text in the answer (checked: prefixed ids, ORD-1001 style, A1001 style, UUIDs)"
    );
    let no_answer = recorded(&blocked, Decision::Approve).await;
    assert_eq!(
        ids_exist_of(&no_answer).await.1,
        "the run gave no final answer, so no id was checked"
    );
}

#[tokio::test(start_paused = true)]
async fn an_id_the_task_gave_is_not_invented() {
    let scenario = load(
        &json!({
            "name": "asks back", "task": "Where is ORD-1001? And ord_f6g7h8i9j0?",
            "tools": ["get_order_status"], "now": "2026-11-29T12:00:00Z",
            "model": {"type": "scripted", "responses": [
                {"tool_calls": [{"name": "get_order_status", "args": {"order_id": "ord_f6g7h8i9j0"}}]},
                {"text": "ord_f6g7h8i9j0 is processing. I cannot look up ORD-1001 or A1001."}
            ]}
        })
        .to_string(),
    );
    let record = recorded(&scenario, Decision::Approve).await;
    assert_eq!(
        ids_exist_of(&record).await.1,
        "A1001 is in the answer but no tool result contains it"
    );
    let mut fixed: Value = serde_json::to_value(&scenario).unwrap();
    fixed["model"]["responses"][1]["text"] =
        json!("ord_f6g7h8i9j0 is processing. I cannot look up ORD-1001.");
    let record = recorded(&load(&fixed.to_string()), Decision::Approve).await;
    assert_eq!(
        ids_exist_of(&record).await.1,
        "2 ids in the answer, all found in tool results or the task (ORD-1001 only in the task)"
    );
}

#[tokio::test(start_paused = true)]
async fn only_the_builtins_about_a_wrong_id_name_an_id_nothing_returned() {
    let mut invented = Vec::new();
    for builtin in harness::library::BUILTIN {
        let (_, events) = common::run_builtin(builtin).await;
        let record = Record {
            scenario: Some(load(builtin.json())),
            events,
            forked_at: None,
        };
        let (passed, detail, _) = ids_exist_of(&record).await;
        if !passed {
            invented.push((builtin.id, detail));
        }
    }
    // Both models name the wrong order on purpose (a precise verifier and a
    // weak one); the replay catches it whichever verifier the scenario has.
    let wrong_order = "ord_a1b2c3d4e5 is in the answer but no tool result contains it";
    assert_eq!(
        invented,
        vec![
            ("failed-verification", wrong_order.to_string()),
            ("verifier-weak", wrong_order.to_string())
        ]
    );
}
