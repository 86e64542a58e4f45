//! Shared helpers for the harness's integration tests: run a scenario on
//! tokio's paused clock (timers fire instantly, in order, deterministically)
//! and collect its trace.

#![allow(dead_code)]

use std::cell::RefCell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use harness::approval::{ApprovalRequest, Approver, Decision};
use harness::event::{EventKind, Outcome, RunEvent};
use harness::replay::{replay, Assertions, Record, ReplayReport};
use harness::runtime::TokioRuntime;
use harness::scenario::Scenario;
use harness::RunOptions;

/// Answers approval requests with queued decisions, recording each request.
#[derive(Default)]
pub struct QueueApprover {
    pub decisions: RefCell<Vec<Decision>>,
    pub seen: RefCell<Vec<ApprovalRequest>>,
}

impl QueueApprover {
    pub fn new(decisions: Vec<Decision>) -> Self {
        QueueApprover {
            decisions: RefCell::new(decisions),
            seen: RefCell::new(Vec::new()),
        }
    }
}

impl Approver for QueueApprover {
    fn decide<'a>(&'a self, request: &'a ApprovalRequest) -> LocalBoxFuture<'a, Decision> {
        self.seen.borrow_mut().push(request.clone());
        let next = {
            let mut queue = self.decisions.borrow_mut();
            (!queue.is_empty()).then(|| queue.remove(0))
        };
        Box::pin(async move {
            match next {
                Some(decision) => decision,
                // Nobody answers: wait forever, like a human who walked away.
                None => futures::future::pending().await,
            }
        })
    }
}

/// Replays a run's own `events` against the `scenario` it ran, held to the
/// recording as a replay is by default, and checks that it passes.
pub async fn replay_passing(scenario: &Scenario, events: &[RunEvent]) -> ReplayReport {
    let record = Record {
        scenario: Some(scenario.clone()),
        events: events.to_vec(),
        forked_at: None,
    };
    let report = replay(
        &record,
        scenario,
        &Assertions::default(),
        Rc::new(TokioRuntime::default()),
    )
    .await
    .expect("replays");
    assert!(report.passed(), "{:?}", report.results);
    report
}

pub fn load(json: &str) -> Scenario {
    match Scenario::load(json) {
        Ok(scenario) => scenario,
        Err(problems) => panic!(
            "scenario does not load: {}",
            problems
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        ),
    }
}

/// Runs a scenario to the end (call from a paused-clock tokio test).
pub async fn run_with(
    scenario: &Scenario,
    approver: Option<&dyn Approver>,
) -> (Outcome, Vec<RunEvent>) {
    run_aged(scenario, approver, 0).await
}

/// Runs a built-in as the page would: approving every request, on a clock
/// that has run as long as the built-in needs (see `clock_age_needed_ms`).
pub async fn run_builtin(builtin: &harness::library::BuiltinScenario) -> (Outcome, Vec<RunEvent>) {
    let approver = QueueApprover::new(vec![harness::approval::Decision::Approve; 4]);
    let age = harness::library::clock_age_needed_ms(builtin);
    run_stopped(
        &load(builtin.json()),
        Some(&approver),
        age,
        builtin.stop_pressed_after_ms(),
    )
    .await
}

/// `run_with`, on a runtime whose clock has been running for `age_ms`.
pub async fn run_aged(
    scenario: &Scenario,
    approver: Option<&dyn Approver>,
    age_ms: u64,
) -> (Outcome, Vec<RunEvent>) {
    run_stopped(scenario, approver, age_ms, None).await
}

/// `run_aged`, with Stop pressed `stop_after_ms` into the run, if given.
pub async fn run_stopped(
    scenario: &Scenario,
    approver: Option<&dyn Approver>,
    age_ms: u64,
    stop_after_ms: Option<u64>,
) -> (Outcome, Vec<RunEvent>) {
    let runtime = Rc::new(TokioRuntime::default());
    tokio::time::sleep(std::time::Duration::from_millis(age_ms)).await;
    let events = Rc::new(RefCell::new(Vec::new()));
    let sink = events.clone();
    let cancel = harness::cancel::CancelToken::new();
    let stop = cancel.cancel_after(runtime.as_ref(), stop_after_ms);
    let mut on_event = |event: &RunEvent| sink.borrow_mut().push(event.clone());
    let run = harness::run_scenario(
        scenario,
        runtime,
        RunOptions {
            approver,
            cancel,
            ..RunOptions::default()
        },
        &mut on_event,
    );
    let (outcome, ()) = futures::join!(run, stop);
    let events = events.take();
    (outcome.expect("scenario builds"), events)
}

pub async fn run_json(json: &str) -> (Outcome, Vec<RunEvent>) {
    run_with(&load(json), None).await
}

/// The tool results the model received, as (tool name, is_error, content).
pub fn tool_results(events: &[RunEvent]) -> Vec<(String, bool, String)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolResult {
                name,
                is_error,
                content,
                ..
            } => Some((name.clone(), *is_error, content.clone())),
            _ => None,
        })
        .collect()
}

pub fn event_types(events: &[RunEvent]) -> Vec<String> {
    events
        .iter()
        .map(|e| {
            serde_json::to_value(e).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}
