//! How the runs nobody watches step by step run: the two sides of a
//! comparison, forks and replays (the `Offstage` operations that start them
//! are in `offstage`). They run to the end on the browser's event loop,
//! answer approval requests by a fixed choice instead of the approval bar,
//! and hand the main thread back every few milliseconds so the page stays
//! responsive and Stop works even when the scripted model and tools answer
//! at once.

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use harness::approval::{ApprovalRequest, Approver, Decider, Decision};
use harness::cancel::CancelToken;
use harness::driver::{Pause, Resume, Stepper};
use harness::event::RunEvent;
use harness::model::ModelClient;
use harness::provider::ProviderRun;
use harness::runtime::Runtime;
use harness::scenario::Scenario;
use harness::RunOptions;

use crate::browser::runtime::{BrowserRuntime, HostYield};

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
                reason: Some("this run's approval setting denies every call that asks".to_string()),
            },
        };
        Box::pin(async move { decision })
    }

    /// Nobody sees these requests: the answer was chosen before the run.
    fn decider(&self, _request: &ApprovalRequest) -> Decider {
        Decider::Setting
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
pub(super) struct Background {
    pub(super) runtime: Rc<dyn Runtime>,
    stepper: Yielder,
    decide: AutoDecision,
}

impl Background {
    pub(super) fn new(decide: AutoDecision) -> Self {
        let runtime: Rc<dyn Runtime> = Rc::new(BrowserRuntime::new());
        Background {
            stepper: Yielder {
                host: HostYield::new(runtime.clone()),
            },
            runtime,
            decide,
        }
    }

    pub(super) fn options(&self, cancel: CancelToken) -> RunOptions<'_> {
        RunOptions {
            approver: Some(&self.decide),
            cancel,
            stepper: Some(&self.stepper),
            scripts: Some(super::script_host()),
        }
    }
}

/// Runs `scenario` to the end with `model`, else its own, and returns its
/// trace. Problems that stop it from building come back as one line each.
pub(super) async fn run_to_end(
    scenario: &Scenario,
    model: Option<&dyn ModelClient>,
    decide: AutoDecision,
    cancel: CancelToken,
) -> Result<Vec<RunEvent>, Vec<String>> {
    let ground = Background::new(decide);
    let mut events = Vec::new();
    let mut on_event = |event: &RunEvent| events.push(event.clone());
    let (runtime, options) = (ground.runtime.clone(), ground.options(cancel));
    let result = match model {
        Some(model) => {
            harness::run_scenario_with_model(scenario, runtime, model, options, &mut on_event).await
        }
        None => harness::run_scenario(scenario, runtime, options, &mut on_event).await,
    };
    match result {
        Ok(_) => Ok(events),
        Err(problems) => Err(problems.iter().map(ToString::to_string).collect()),
    }
}

/// How a comparison runs its two scenarios.
pub struct Rounds {
    /// `None`: each scenario's own model (scripted or rules).
    pub model: Option<ProviderRun>,
    /// How many times each side runs; 1 for the scenarios' own models.
    pub times: u32,
    /// Told (round, rounds) as each round starts.
    pub progress: Box<dyn Fn(u32, u32)>,
}
