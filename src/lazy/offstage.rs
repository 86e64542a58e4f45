//! The engine's work that a first run never does: both sides of
//! a comparison, forks and replays (the runs nobody watches, run as
//! `background` says), and a tool called by hand. A split point of its own,
//! `lazy::offstage`, apart from the engine every run fetches: what it shares
//! with the engine (the loader, the loop, the tools) comes with the engine's
//! file, and only its own code waits for the Compare, History or Scenario
//! mode to use it.

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use harness::cancel::CancelToken;
use harness::error::ForkError;
use harness::hand_call::{call_by_hand, HandCall};
use harness::provider::ProviderRun;
use harness::replay::{Assertions, Record, ReplayReport};
use harness::runtime::Runtime;
use harness::scenario::{Problem, Scenario};

use super::background::{run_to_end, AutoDecision, Background, Rounds};
use crate::browser::runtime::BrowserRuntime;
use crate::compare::{prefixed, Compared, Side};
use crate::run::view_model;

/// The offstage operations, each written once as a default method, as
/// `Engine`'s are and for the same reason: the page reaches them only
/// through the vtable of the one, private and empty, implementation that
/// `lazy::offstage` hands out, so none of their code is in the first paint
/// or the engine's file.
pub trait Offstage {
    /// Both sides of a comparison, each a (label, scenario text): loads
    /// both scenarios (every problem, prefixed by its side) and runs them
    /// `rounds.times` rounds, A then B in each, with their own models or the
    /// provider `rounds.model`. Stop ends the rounds: what finished is
    /// returned.
    fn run_both(
        &self,
        left: (String, String),
        right: (String, String),
        decide: AutoDecision,
        cancel: CancelToken,
        rounds: Rounds,
    ) -> LocalBoxFuture<'static, Result<Compared, Vec<String>>> {
        Box::pin(async move {
            let ((left_label, left_text), (right_label, right_text), how) = (left, right, rounds);
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
                        Some(provider) => Some(super::provider_model(provider.clone()).await),
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
        })
    }

    /// Replays `record` against `scenario` (see `harness::replay`), yielding
    /// to the page as the other background runs do and with the JavaScript
    /// sandbox.
    fn replay(
        &self,
        record: Record,
        scenario: Scenario,
        assertions: Assertions,
    ) -> LocalBoxFuture<'static, Result<ReplayReport, Vec<Problem>>> {
        Box::pin(async move {
            // The recorded decisions answer approvals; the setting here is unused.
            let ground = Background::new(AutoDecision::Deny);
            // MCP tools answer from the record's results: a replay never needs the server.
            let record = record.offline();
            let scenario = record.with_recorded_mcp(scenario);
            harness::replay::replay_with(
                &record,
                &scenario,
                &assertions,
                ground.runtime.clone(),
                ground.options(CancelToken::new()),
            )
            .await
        })
    }

    /// A tool of the scenario in `text` called by hand with the arguments
    /// in `args` (see `harness::hand_call`), on a fresh store; or why it
    /// cannot be called: the scenario's problems, an unknown tool, arguments
    /// that are not JSON or break the tool's schema, each said in full.
    fn call_tool(
        &self,
        text: String,
        tool: String,
        args: String,
        cancel: CancelToken,
    ) -> LocalBoxFuture<'static, Result<HandCall, Vec<String>>> {
        Box::pin(async move {
            let said = |problems: Vec<Problem>| -> Vec<String> {
                problems.iter().map(ToString::to_string).collect()
            };
            let scenario = Scenario::load(&text).map_err(said)?;
            let runtime: Rc<dyn Runtime> = Rc::new(BrowserRuntime::new());
            let (config, _) = scenario
                .build_with_scripts(runtime.clone(), Some(super::script_host()))
                .map_err(said)?;
            let Some(def) = config.tools.get(&tool) else {
                let names = config.tools.names();
                let hint = harness::suggest::did_you_mean(&tool, names.iter().map(String::as_str));
                return Err(vec![format!(
                    "the scenario has no tool {tool:?}{hint}; its tools: {}",
                    names.join(", ")
                )]);
            };
            let args = view_model::check_edited_args(&args, Some(&def.spec.input_schema))?;
            let timeout = config.limits.tool_timeout_ms;
            Ok(call_by_hand(def, args, runtime.as_ref(), timeout, &cancel).await)
        })
    }

    /// Continues `parent` from the event with `seq` under `scenario` (see
    /// `harness::fork::fork`), its later turns answered by `provider` when
    /// one is chosen, else by the scenario's own model.
    fn fork_to_end(
        &self,
        parent: Record,
        seq: u64,
        scenario: Scenario,
        decide: AutoDecision,
        cancel: CancelToken,
        provider: Option<ProviderRun>,
    ) -> LocalBoxFuture<'static, Result<Record, ForkError>> {
        Box::pin(async move {
            let ground = Background::new(decide);
            // MCP tools answer from the parent's results, offline, as in a replay.
            let parent = parent.offline();
            let scenario = parent.with_recorded_mcp(scenario);
            // A provider's turns are capped and costed by the settings, as in the Trace.
            let (scenario, model) = match provider {
                Some(provider) => (
                    provider.apply(scenario),
                    Some(super::provider_model(provider).await),
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
        })
    }
}

/// What `lazy::offstage` hands out: every operation is the trait's own.
struct PageOffstage;

impl Offstage for PageOffstage {}

pub(super) fn page_offstage() -> &'static dyn Offstage {
    &PageOffstage
}
