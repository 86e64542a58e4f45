//! The run engine as the page uses it: everything that loads, builds or
//! drives a run. The page reaches it only through `lazy::engine`, one split
//! point (this module is private to `lazy`), so all of the engine (the scenario loader and its schema, the
//! built-in tools, the rules model, the tool-argument validator, the loop and
//! its driver) is one module that the first paint leaves out and the editor's
//! live check fetches right after. One split point rather than one per
//! operation keeps it to a few files: wasm-split makes a shared chunk for
//! every set of split points that reach the same code. What a first run
//! never does (comparisons, forks, replays, a tool called by hand) is
//! `offstage`, a second split point, so the engine every run fetches does
//! not carry it.

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use harness::approval::Approver;
use harness::cancel::CancelToken;
use harness::driver::Stepper;
use harness::event::{Outcome, RunEvent};
use harness::mcp::transport::McpTransport;
use harness::model::ModelClient;
use harness::runtime::Runtime;
use harness::scenario::{Problem, Scenario};
use harness::wire::RequestShape;
use harness::RunOptions;
use serde_json::Value;

use crate::browser::mcp_fetch::{McpFetch, McpWire};
use crate::run::view_model;

/// A scenario with its MCP servers' tools loaded and a line per server,
/// or every problem as a line (see `resolve_mcp`).
pub type McpLoaded = Result<(Scenario, Vec<String>), Vec<String>>;

/// Everything the watched run needs from the page, owned, because it
/// crosses into another module.
pub struct Play {
    pub scenario: Scenario,
    pub runtime: Rc<dyn Runtime>,
    /// A real provider's model; `None` plays the scenario's own.
    pub model: Option<Box<dyn ModelClient>>,
    pub approver: Box<dyn Approver>,
    pub stepper: Box<dyn Stepper>,
    pub cancel: CancelToken,
    pub on_event: Box<dyn FnMut(&RunEvent)>,
}

/// The engine's operations, each written once: its signature and its body,
/// a default method of this trait. The page calls them through the vtable
/// of the trait's one implementation, `PageEngine`, which is private and
/// empty and which only `lazy::engine` (in the split module) hands out. A
/// default method is compiled for `PageEngine` where that vtable is built,
/// so the operations' code goes where `lazy::engine` goes, out of the first
/// paint; a direct call from first-paint code would pull it back in, which
/// is why nothing else can name the implementation.
pub trait Engine {
    /// The scenario in `text`, or every problem that stops it from loading.
    /// A file with no problem is read by the engine itself; any other is
    /// read by `lazy::check_scenario`, fetched the first time one comes, so
    /// the engine a first run fetches does not carry the reader that words
    /// problems.
    fn load(&self, text: &str) -> LocalBoxFuture<'static, Result<Scenario, Vec<Problem>>> {
        match Scenario::load_if_clean(text) {
            Some(scenario) => Box::pin(std::future::ready(Ok(scenario))),
            None => Box::pin(super::check_scenario(text.to_string())),
        }
    }

    /// `Scenario::notes` as lines ("note: …"): what a scenario that runs
    /// does that its run will treat as the model's mistake.
    fn notes(&self, scenario: &Scenario) -> Vec<String> {
        scenario.notes().iter().map(ToString::to_string).collect()
    }

    /// `RequestShape::of`: the system prompt and each tool's spec of
    /// `scenario`, as its run sends them (the specs the run validates with),
    /// or the problems of a tool the harness does not have. Behind the engine
    /// so the built-in tools' spec code stays out of the first paint.
    fn wire_setup(&self, scenario: &Scenario) -> Result<RequestShape, Vec<Problem>> {
        RequestShape::of(scenario)
    }

    /// `view_model::check_edited_args`: edited arguments against the tool's schema.
    fn check_edited_args(&self, text: &str, schema: Option<&Value>) -> Result<Value, Vec<String>> {
        view_model::check_edited_args(text, schema)
    }

    /// Builds the run of `play.scenario` and drives it to the end (see
    /// `harness::run_scenario`), with the JavaScript sandbox for script tools.
    fn play(&self, play: Play) -> LocalBoxFuture<'static, Result<Outcome, Vec<Problem>>> {
        Box::pin(async move {
            let Play {
                scenario,
                runtime,
                model,
                approver,
                stepper,
                cancel,
                mut on_event,
            } = play;
            let options = RunOptions {
                approver: Some(approver.as_ref()),
                cancel,
                stepper: Some(stepper.as_ref()),
                scripts: Some(super::script_host()),
            };
            match &model {
                Some(model) => {
                    harness::run_scenario_with_model(
                        &scenario,
                        runtime,
                        model.as_ref(),
                        options,
                        on_event.as_mut(),
                    )
                    .await
                }
                None => harness::run_scenario(&scenario, runtime, options, on_event.as_mut()).await,
            }
        })
    }
}

/// The engine `lazy::engine` hands out: every operation is the trait's own.
struct PageEngine;

impl Engine for PageEngine {}

pub(super) fn page_engine() -> &'static dyn Engine {
    // The panic panel writes the trace with the engine's serializer, so
    // the first paint does not carry one.
    crate::browser::panic::write_traces_with(harness::event::to_jsonl);
    &PageEngine
}

/// `harness::mcp::resolve::resolve` over the page's `fetch`: `scenario`
/// with its MCP servers' tools loaded, and a line per server saying who
/// answered; or every problem as a line, with CORS explained for each
/// server the browser got no answer from. Each exchange is told to
/// `on_wire` as it happens; the tools' later calls go over the same
/// connection, and are told too.
///
/// A plain function, not an `Engine` method: only `lazy::load_mcp` calls
/// it, so the MCP client (its session, transport and CORS advice) is in
/// that module's file, not in the engine every run fetches.
///
/// A server outside the page's Content-Security-Policy is refused before
/// any request: the browser would block it with the same bare network
/// error as CORS.
pub(super) async fn resolve_mcp(scenario: Scenario, on_wire: Rc<dyn Fn(McpWire)>) -> McpLoaded {
    let origin = crate::browser::csp::page_origin();
    let blocked: Vec<String> = scenario
        .mcp_servers
        .iter()
        .enumerate()
        .filter_map(|(i, server)| {
            let url = harness::provider::parse_base_url(&server.url).ok()?;
            let why = crate::connect_src::connect_problem(&url, &origin)?;
            Some(format!("mcp_servers[{i}].url: {why}"))
        })
        .collect();
    if !blocked.is_empty() {
        return Err(blocked);
    }
    let fetch = McpFetch::new(on_wire);
    let transport: Rc<dyn McpTransport> = Rc::new(fetch.clone());
    match harness::mcp::resolve::resolve(scenario.clone(), transport).await {
        Ok((scenario, reports)) => {
            Ok((scenario, reports.iter().map(ToString::to_string).collect()))
        }
        Err(problems) => {
            let mut lines = view_model::problem_lines(&problems);
            for server in &scenario.mcp_servers {
                // Offline, no server answers: CORS advice would mislead.
                if fetch.unreachable(&server.url) && !crate::browser::offline::is_online() {
                    lines.push(format!(
                        "The browser got no answer from {}: this browser is offline, and an MCP server needs the network.",
                        server.url
                    ));
                } else if fetch.unreachable(&server.url) {
                    lines.push(harness::mcp::cors::advice(server, &origin));
                }
            }
            Err(lines)
        }
    }
}
