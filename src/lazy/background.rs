//! Runs that nobody watches step by step: the two sides of a comparison,
//! forks and replays. They run to the end on the browser's event loop, answer approval
//! requests by a fixed choice instead of the approval bar, and hand the main
//! thread back every few milliseconds so the page stays responsive and Stop
//! works even when the scripted model and tools answer at once.

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use harness::approval::{ApprovalRequest, Approver, Decider, Decision};
use harness::cancel::CancelToken;
use harness::driver::{Pause, Resume, Stepper};
use harness::event::RunEvent;
use harness::model::ModelClient;
use harness::provider::ProviderRun;
use harness::replay::Record;
use harness::runtime::Runtime;
use harness::scenario::Scenario;
use harness::RunOptions;

use crate::browser::runtime::{BrowserRuntime, HostYield};
use crate::compare::{prefixed, Compared, Side};
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
            scripts: Some(super::script_host()),
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
    // MCP tools answer from the record's results: a replay never needs the server.
    let record = record.clone().offline();
    let scenario = record.with_recorded_mcp(scenario.clone());
    harness::replay::replay_with(
        &record,
        &scenario,
        assertions,
        ground.runtime.clone(),
        ground.options(CancelToken::new()),
    )
    .await
}

/// Runs `scenario` to the end with `model`, else its own, and returns its
/// trace. Problems that stop it from building come back as one line each.
pub async fn run_to_end(
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

/// Continues `parent` from the event with `seq` under `scenario` (see
/// `harness::fork::fork`), its later turns answered by `provider` when one
/// is chosen, else by the scenario's own model.
pub async fn fork_to_end(
    parent: &Record,
    seq: u64,
    scenario: &Scenario,
    decide: AutoDecision,
    cancel: CancelToken,
    provider: Option<ProviderRun>,
) -> Result<Record, harness::error::ForkError> {
    let ground = Background::new(decide);
    // MCP tools answer from the parent's results, offline, as in a replay.
    let parent = parent.clone().offline();
    let scenario = parent.with_recorded_mcp(scenario.clone());
    // A provider's turns are capped and costed by the settings, as in the Trace.
    let (scenario, model) = match provider {
        Some(provider) => (
            provider.apply(scenario),
            Some(crate::lazy::provider_model(provider).await),
        ),
        None => (scenario, None),
    };
    harness::fork::fork_with_model(
        &parent,
        seq,
        &scenario,
        model.as_deref(),
        ground.runtime.clone(),
        ground.options(cancel),
        &mut |_| {},
    )
    .await
}

/// Loads both scenarios (every problem, prefixed by its side) and runs them
/// `how.times` rounds, A then B in each, with their own models or the
/// provider `how.model`. Stop ends the rounds: what finished is returned.
pub async fn run_both(
    (left_label, left_text): (String, String),
    (right_label, right_text): (String, String),
    decide: AutoDecision,
    cancel: CancelToken,
    how: Rounds,
) -> Result<Compared, Vec<String>> {
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
    // A provider run is capped and costed by the settings, as in the Trace.
    let (left, right) = match &how.model {
        Some(provider) => (provider.apply(left), provider.apply(right)),
        None => (left, right),
    };
    let times = how.times.max(1);
    let mut compared = Compared::default();
    for round in 1..=times {
        // Stop keeps the rounds that finished; the first always runs, so
        // there is something to show.
        if round > 1 && cancel.is_cancelled() {
            break;
        }
        (how.progress)(round, times);
        for (label, scenario, runs) in [
            (&left_label, &left, &mut compared.left),
            (&right_label, &right, &mut compared.right),
        ] {
            let model = match &how.model {
                Some(provider) => Some(crate::lazy::provider_model(provider.clone()).await),
                None => None,
            };
            let events = run_to_end(scenario, model.as_deref(), decide, cancel.clone())
                .await
                .map_err(|p| prefixed(label, &p))?;
            let label = if times == 1 {
                label.clone()
            } else {
                format!("{label}, run {round} of {times}")
            };
            runs.push(Side::new(
                label,
                Record {
                    scenario: Some(scenario.clone()),
                    events,
                    forked_at: None,
                },
            ));
        }
    }
    Ok(compared)
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
