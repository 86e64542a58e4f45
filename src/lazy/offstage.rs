//! The engine's work that a first run never does: both sides of
//! a comparison, forks and replays (the runs nobody watches, `background`),
//! and a tool called by hand. A split point of its own, `lazy::offstage`,
//! apart from the engine every run fetches: what it shares with the engine
//! (the loader, the loop, the tools) comes with the engine's file, and only
//! its own code waits for the Compare, History or Scenario mode to use it.

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use harness::cancel::CancelToken;
use harness::error::ForkError;
use harness::hand_call::{call_by_hand, HandCall};
use harness::provider::ProviderRun;
use harness::replay::{Assertions, Record, ReplayReport};
use harness::runtime::Runtime;
use harness::scenario::{Problem, Scenario};

use super::background::{self, AutoDecision, Rounds};
use crate::browser::runtime::BrowserRuntime;
use crate::compare::Compared;
use crate::view_model;

/// One implementation on purpose, as `Engine`: the page reaches it only
/// through `lazy::offstage`, so none of it is in the first paint or the
/// engine's file.
pub trait Offstage {
    /// `background::run_both`: both sides of a comparison, each run to the
    /// end, once or `rounds.times` times.
    fn run_both(
        &self,
        left: (String, String),
        right: (String, String),
        decide: AutoDecision,
        cancel: CancelToken,
        rounds: Rounds,
    ) -> LocalBoxFuture<'static, Result<Compared, Vec<String>>>;

    /// `background::replay`: the record's model turns against `scenario`.
    fn replay(
        &self,
        record: Record,
        scenario: Scenario,
        assertions: Assertions,
    ) -> LocalBoxFuture<'static, Result<ReplayReport, Vec<Problem>>>;

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
    ) -> LocalBoxFuture<'static, Result<HandCall, Vec<String>>>;

    /// `background::fork_to_end`: `parent` continued from `seq` under
    /// `scenario`, by `provider` when one is chosen.
    fn fork_to_end(
        &self,
        parent: Record,
        seq: u64,
        scenario: Scenario,
        decide: AutoDecision,
        cancel: CancelToken,
        provider: Option<ProviderRun>,
    ) -> LocalBoxFuture<'static, Result<Record, ForkError>>;
}

/// What `lazy::offstage` hands out.
struct PageOffstage;

pub(super) fn page_offstage() -> &'static dyn Offstage {
    &PageOffstage
}

impl Offstage for PageOffstage {
    fn run_both(
        &self,
        left: (String, String),
        right: (String, String),
        decide: AutoDecision,
        cancel: CancelToken,
        rounds: Rounds,
    ) -> LocalBoxFuture<'static, Result<Compared, Vec<String>>> {
        Box::pin(background::run_both(left, right, decide, cancel, rounds))
    }

    fn replay(
        &self,
        record: Record,
        scenario: Scenario,
        assertions: Assertions,
    ) -> LocalBoxFuture<'static, Result<ReplayReport, Vec<Problem>>> {
        Box::pin(async move { background::replay(&record, &scenario, &assertions).await })
    }

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
            background::fork_to_end(&parent, seq, &scenario, decide, cancel, provider).await
        })
    }
}
