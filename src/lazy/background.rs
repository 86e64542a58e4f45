//! Runs that nobody watches step by step: the two sides of a comparison,
//! forks and replays. They run to the end on the browser's event loop, answer approval
//! requests by a fixed choice instead of the approval bar, and hand the main
//! thread back every few milliseconds so the page stays responsive and Stop
//! works even when the scripted model and tools answer at once.

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use harness::approval::{ApprovalRequest, Approver, Decision};
use harness::cancel::CancelToken;
use harness::driver::{Pause, Resume, Stepper};
use harness::event::RunEvent;
use harness::replay::Record;
use harness::runtime::Runtime;
use harness::scenario::Scenario;
use harness::RunOptions;

use crate::browser::runtime::{BrowserRuntime, HostYield};
use crate::compare::{prefixed, Side};
use crate::view_model;

/// How a background run answers a call that asks for approval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AutoDecision {
    Approve,
    Deny,
}

impl Approver for AutoDecision {
    fn decide<'a>(&'a self, _request: &'a ApprovalRequest) -> LocalBoxFuture<'a, Decision> {
        let decision = match self {
            AutoDecision::Approve => Decision::Approve,
            AutoDecision::Deny => Decision::Deny {
                reason: Some("denied by the comparison's approval setting".to_string()),
            },
        };
        Box::pin(async move { decision })
    }
}

/// Never pauses (nobody presses Step here); hands the page back between
/// steps like the main run does.
struct Yielder {
    host: HostYield,
}

impl Stepper for Yielder {
    fn step_mode(&self) -> bool {
        false
    }

    fn wait(&self, _pause: &Pause) -> LocalBoxFuture<'static, Resume> {
        // Only reached in step mode, which is never on.
        Box::pin(async { Resume::Go })
    }

    fn yield_to_host(&self) -> Option<LocalBoxFuture<'static, ()>> {
        Some(self.host.next())
    }
}

/// What every background run shares: the browser's clock, the yielding
/// stepper, the fixed approval answer and the JavaScript sandbox.
struct Background {
    runtime: Rc<dyn Runtime>,
    stepper: Yielder,
    decide: AutoDecision,
}

impl Background {
    fn new(decide: AutoDecision) -> Self {
        let runtime: Rc<dyn Runtime> = Rc::new(BrowserRuntime::new());
        Background {
            stepper: Yielder {
                host: HostYield::new(runtime.clone()),
            },
            runtime,
            decide,
        }
    }

    fn options(&self, cancel: CancelToken) -> RunOptions<'_> {
        RunOptions {
            approver: Some(&self.decide),
            cancel,
            stepper: Some(&self.stepper),
            scripts: Some(crate::browser::sandbox::host()),
        }
    }
}

/// Replays `record` against `scenario` (see `harness::replay`), yielding to
/// the page as the other background runs do and with the JavaScript sandbox.
pub async fn replay(
    record: &Record,
    scenario: &Scenario,
    assertions: &harness::replay::Assertions,
) -> Result<harness::replay::ReplayReport, Vec<harness::scenario::Problem>> {
    // The recorded decisions answer approvals; the setting here is unused.
    let ground = Background::new(AutoDecision::Deny);
    harness::replay::replay_with(
        record,
        scenario,
        assertions,
        ground.runtime.clone(),
        ground.options(CancelToken::new()),
    )
    .await
}

/// Runs `scenario` with its own model to the end and returns its trace.
/// Problems that stop it from building come back as one line each.
pub async fn run_to_end(
    scenario: &Scenario,
    decide: AutoDecision,
    cancel: CancelToken,
) -> Result<Vec<RunEvent>, Vec<String>> {
    let ground = Background::new(decide);
    let mut events = Vec::new();
    let result = harness::run_scenario(
        scenario,
        ground.runtime.clone(),
        ground.options(cancel),
        &mut |event: &RunEvent| events.push(event.clone()),
    )
    .await;
    match result {
        Ok(_) => Ok(events),
        Err(problems) => Err(problems.iter().map(ToString::to_string).collect()),
    }
}

/// Continues `parent` from the event with `seq` under `scenario` (see
/// `harness::fork::fork`).
pub async fn fork_to_end(
    parent: &Record,
    seq: u64,
    scenario: &Scenario,
    decide: AutoDecision,
    cancel: CancelToken,
) -> Result<Record, String> {
    let ground = Background::new(decide);
    harness::fork::fork(
        parent,
        seq,
        scenario,
        ground.runtime.clone(),
        ground.options(cancel),
        &mut |_| {},
    )
    .await
}

/// Loads both scenarios (every problem, prefixed by its side) and runs them
/// one after the other.
pub async fn run_both(
    (left_label, left_text): (String, String),
    (right_label, right_text): (String, String),
    decide: AutoDecision,
    cancel: CancelToken,
) -> Result<(Side, Side), Vec<String>> {
    let left = Scenario::load(&left_text);
    let right = Scenario::load(&right_text);
    let (left, right) = match (left, right) {
        (Ok(l), Ok(r)) => (l, r),
        (l, r) => {
            let mut problems = Vec::new();
            if let Err(p) = l {
                problems.extend(prefixed(&left_label, &view_model::problem_lines(&p)));
            }
            if let Err(p) = r {
                problems.extend(prefixed(&right_label, &view_model::problem_lines(&p)));
            }
            return Err(problems);
        }
    };
    let left_events = run_to_end(&left, decide, cancel.clone())
        .await
        .map_err(|p| prefixed(&left_label, &p))?;
    let right_events = run_to_end(&right, decide, cancel)
        .await
        .map_err(|p| prefixed(&right_label, &p))?;
    let record = |scenario, events| Record {
        scenario: Some(scenario),
        events,
        forked_at: None,
    };
    Ok((
        Side::new(left_label, record(left, left_events)),
        Side::new(right_label, record(right, right_events)),
    ))
}
