//! Replaying a run a person stopped: the replay presses Stop where the
//! recording shows it was pressed, and ends `cancelled` with the recorded
//! reason; where a replay cannot meet that moment, its failure says why.

mod common;

use std::cell::Cell;
use std::rc::Rc;

use common::{load, run_builtin, run_stopped};
use futures::future::LocalBoxFuture;
use harness::cancel::CancelToken;
use harness::driver::{Pause, Resume, Stepper};
use harness::event::{Outcome, RunEvent, Status};
use harness::replay::{replay, Assertions, Record, ReplayReport};
use harness::runtime::TokioRuntime;
use harness::scenario::Scenario;
use harness::RunOptions;

/// Step mode throughout, as a person stepping on the page: Step at each
/// pause, and Stop at the pause numbered `stop_at` (from 1).
struct StopAtPause {
    stop_at: usize,
    cancel: CancelToken,
    pauses: Cell<usize>,
}

impl Stepper for StopAtPause {
    fn step_mode(&self) -> bool {
        true
    }

    fn wait(&self, _pause: &Pause) -> LocalBoxFuture<'static, Resume> {
        self.pauses.set(self.pauses.get() + 1);
        if self.pauses.get() == self.stop_at {
            self.cancel.cancel();
            return Box::pin(futures::future::pending());
        }
        Box::pin(async { Resume::Go })
    }
}

fn get_time() -> Scenario {
    load(harness::library::find("get-time").unwrap().json())
}

/// Runs `scenario` stepped, Stop pressed at pause `stop_at`.
async fn stepped_then_stopped(scenario: &Scenario, stop_at: usize) -> (Outcome, Vec<RunEvent>) {
    let person = StopAtPause {
        stop_at,
        cancel: CancelToken::new(),
        pauses: Cell::new(0),
    };
    let mut events = Vec::new();
    let outcome = harness::run_scenario(
        scenario,
        Rc::new(TokioRuntime::default()),
        RunOptions {
            cancel: person.cancel.clone(),
            stepper: Some(&person),
            ..RunOptions::default()
        },
        &mut |e: &RunEvent| events.push(e.clone()),
    )
    .await
    .expect("builds");
    (outcome, events)
}

/// Replays `events` (read back from JSON Lines, as a kept run is) against
/// `scenario`, with the default assertions.
async fn replayed(scenario: &Scenario, events: &[RunEvent]) -> ReplayReport {
    let record = Record {
        scenario: Some(scenario.clone()),
        events: events.to_vec(),
        forked_at: None,
    };
    let record = Record::from_jsonl(&record.to_jsonl()).expect("reads back");
    replay(
        &record,
        scenario,
        &Assertions::default(),
        Rc::new(TokioRuntime::default()),
    )
    .await
    .expect("replays")
}

fn status_detail(report: &ReplayReport) -> String {
    report
        .results
        .iter()
        .find(|r| r.name == "status")
        .map(|r| r.detail.clone())
        .unwrap_or_default()
}

#[tokio::test(start_paused = true)]
async fn a_run_stopped_while_paused_before_a_tool_replays_cancelled_with_its_reason() {
    // Step (model call), then Stop at "Paused before tool call get_time".
    let scenario = get_time();
    let (outcome, events) = stepped_then_stopped(&scenario, 2).await;
    let reason = "stopped by the user after 1 turn (while paused before tool call get_time)";
    assert_eq!(
        (outcome.status, outcome.reason.as_str()),
        (Status::Cancelled, reason)
    );

    let report = replayed(&scenario, &events).await;
    assert!(report.passed(), "{:?}", report.results);
    assert_eq!(
        (report.outcome.status, report.outcome.reason.as_str()),
        (Status::Cancelled, reason)
    );
    assert_eq!(
        status_detail(&report),
        format!("ended cancelled, as recorded: {reason}")
    );
}

#[tokio::test(start_paused = true)]
async fn a_run_stopped_while_paused_before_a_model_call_replays_cancelled_with_its_reason() {
    // Step, Step (the tool ran), then Stop before turn 2's model call.
    let scenario = get_time();
    let (outcome, events) = stepped_then_stopped(&scenario, 3).await;
    let reason = "stopped by the user after 1 turn (while paused before the model call of turn 2)";
    assert_eq!(
        (outcome.status, outcome.reason.as_str()),
        (Status::Cancelled, reason)
    );

    let report = replayed(&scenario, &events).await;
    assert!(report.passed(), "{:?}", report.results);
    assert_eq!(
        (report.outcome.status, report.outcome.reason.as_str()),
        (Status::Cancelled, reason)
    );
}

#[tokio::test(start_paused = true)]
async fn a_run_stopped_while_the_model_was_answering_replays_cancelled() {
    let builtin = harness::library::find("press-stop").unwrap();
    let (outcome, events) = run_builtin(builtin).await;
    assert_eq!(outcome.status, Status::Cancelled);

    let report = replayed(&load(builtin.json()), &events).await;
    assert!(report.passed(), "{:?}", report.results);
    assert_eq!(
        (report.outcome.status, report.outcome.reason.as_str()),
        (Status::Cancelled, outcome.reason.as_str())
    );
}

#[tokio::test(start_paused = true)]
async fn a_run_stopped_while_a_tool_ran_fails_its_replay_saying_why() {
    // Stop a second into a tool that takes five: the replay's tool runs to
    // its end, no Stop can be pressed at that moment of it, and the replay
    // then asks for a turn the recording never got.
    let scenario = load(
        r#"{"name": "slow", "task": "t",
            "tools": [{"name": "slow", "description": "d", "input_schema": {"type": "object"}, "result": {"ok": true}, "delay_ms": 5000}],
            "model": {"type": "scripted", "responses": [
                {"tool_calls": [{"name": "slow", "args": {}}]},
                {"text": "done"}
            ]}}"#,
    );
    let (outcome, events) = run_stopped(&scenario, None, 0, Some(1000)).await;
    assert_eq!(
        outcome.reason,
        "stopped by the user after 1 turn (while tool slow was running)"
    );

    let report = replayed(&scenario, &events).await;
    assert!(!report.passed());
    let detail = status_detail(&report);
    assert!(
        detail.starts_with("expected cancelled, got model_error")
            && detail.ends_with(
                "; a person stopped the recorded run while tool slow was running, a moment a replay cannot press Stop at"
            ),
        "{detail}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_run_stopped_while_a_call_waited_for_approval_replays_cancelled() {
    // Nobody answers the approval bar; Stop a second in.
    let scenario = load(
        harness::library::find("refund-with-approval")
            .unwrap()
            .json(),
    );
    let nobody = common::QueueApprover::new(Vec::new());
    let (outcome, events) = run_stopped(&scenario, Some(&nobody), 0, Some(1000)).await;
    assert_eq!(outcome.status, Status::Cancelled);
    assert!(
        outcome
            .reason
            .contains("while waiting for approval of issue_refund"),
        "{}",
        outcome.reason
    );

    let report = replayed(&scenario, &events).await;
    assert!(report.passed(), "{:?}", report.results);
    assert_eq!(report.outcome.reason, outcome.reason);
}
