//! Runs that nobody watches step by step: the two sides of a comparison and
//! forks. They run to the end on the browser's event loop, answer approval
//! requests by a fixed choice instead of the approval bar, and hand the main
//! thread back every few milliseconds so the page stays responsive and Stop
//! works even when the scripted model and tools answer at once.

use std::cell::Cell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use gloo_timers::future::TimeoutFuture;
use harness::approval::{ApprovalRequest, Approver, Decision};
use harness::cancel::CancelToken;
use harness::driver::Stepper;
use harness::event::RunEvent;
use harness::replay::Record;
use harness::run::PauseBefore;
use harness::runtime::Runtime;
use harness::scenario::Scenario;
use harness::RunOptions;

use crate::browser::runtime::BrowserRuntime;

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

/// Longest stretch a background run holds the main thread.
const YIELD_EVERY_MS: f64 = 4.0;

/// Borrows step mode to yield: every `YIELD_EVERY_MS` it asks the run to
/// pause before its next call, then ends the pause after one timer tick. A
/// pause grants exactly one step, so after the tick step mode is reported on
/// once more (that step is spent), then off again.
struct Yielder {
    clock: Rc<dyn Runtime>,
    last_yield_ms: Cell<f64>,
    pausing: Cell<bool>,
    resuming: Cell<bool>,
}

impl Stepper for Yielder {
    fn step_mode(&self) -> bool {
        if self.resuming.replace(false) {
            self.last_yield_ms.set(self.clock.now_ms());
            return true;
        }
        if self.pausing.get() {
            return true;
        }
        let due = self.clock.now_ms() - self.last_yield_ms.get() >= YIELD_EVERY_MS;
        self.pausing.set(due);
        due
    }

    fn wait(&self, _before: &PauseBefore) -> LocalBoxFuture<'static, ()> {
        self.pausing.set(false);
        self.resuming.set(true);
        Box::pin(TimeoutFuture::new(0))
    }
}

fn yielder(clock: Rc<dyn Runtime>) -> Yielder {
    Yielder {
        last_yield_ms: Cell::new(clock.now_ms()),
        clock,
        pausing: Cell::new(false),
        resuming: Cell::new(false),
    }
}

/// Replays `record` against `scenario` (see `harness::replay`), yielding to
/// the page as the other background runs do and with the JavaScript sandbox.
pub async fn replay(
    record: &Record,
    scenario: &Scenario,
    assertions: &harness::replay::Assertions,
) -> Result<harness::replay::ReplayReport, Vec<harness::scenario::Problem>> {
    let runtime: Rc<dyn Runtime> = Rc::new(BrowserRuntime::new());
    let stepper = yielder(runtime.clone());
    harness::replay::replay_with(
        record,
        scenario,
        assertions,
        runtime,
        RunOptions {
            stepper: Some(&stepper),
            scripts: Some(crate::browser::sandbox::host()),
            ..RunOptions::default()
        },
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
    let runtime: Rc<dyn Runtime> = Rc::new(BrowserRuntime::new());
    let stepper = yielder(runtime.clone());
    let mut events = Vec::new();
    let result = harness::run_scenario(
        scenario,
        runtime,
        RunOptions {
            approver: Some(&decide),
            cancel,
            stepper: Some(&stepper),
            scripts: Some(crate::browser::sandbox::host()),
        },
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
    let runtime: Rc<dyn Runtime> = Rc::new(BrowserRuntime::new());
    let stepper = yielder(runtime.clone());
    harness::fork::fork(
        parent,
        seq,
        scenario,
        runtime,
        RunOptions {
            approver: Some(&decide),
            cancel,
            stepper: Some(&stepper),
            scripts: Some(crate::browser::sandbox::host()),
        },
        &mut |_| {},
    )
    .await
}
