//! The agent loop, with no browser or UI dependency: the bottom layer of
//! the harness, and the one every other crate builds on.
//!
//! - [`run::Run`] is the loop as a sans-IO state machine: it decides, emits
//!   the trace ([`event::RunEvent`]) and never does IO.
//! - [`driver::drive`] performs the IO it asks for through small traits
//!   ([`model::ModelClient`], [`tool::ToolHandler`], [`approval::Approver`],
//!   [`runtime::Runtime`]) and races every await against cancel, the run's
//!   deadline and per-call timeouts.
//! - [`scenario::Scenario`] is the file format; [`scripted::ScriptedModel`]
//!   plays a scenario's scripted responses; [`library`] holds the built-in
//!   scenarios.
//!
//! Invariants: this crate compiles and tests natively and depends on no
//! browser crate, and on none of the harness's other crates (wire formats,
//! MCP protocol, transcripts and OpenTelemetry); Cargo holds that, and
//! `crates/harness/tests/layers.rs` holds the graph as ARCHITECTURE.md
//! draws it. The CLI and the web app supply the runtime.

pub mod approval;
pub mod cancel;
pub mod context;
pub mod driver;
pub mod error;
pub mod event;
pub mod facts;
pub mod field;
pub mod fixed_by;
pub mod float_text;
pub mod fork;
pub mod hand_call;
pub mod instant;
pub mod library;
pub mod limits;
pub mod mcp;
pub mod message;
pub mod model;
pub mod numbers;
pub mod prices;
pub mod quote;
pub mod replay;
pub mod rules;
pub mod run;
pub mod runtime;
pub mod scenario;
pub mod script;
pub mod scripted;
pub mod suggest;
pub mod tool;
pub mod tool_choice;
pub mod tools;
pub mod verify;

/// What became of the tool calls of a run (see `event::tally`).
pub use event::tally;

use std::rc::Rc;

use approval::Approver;
use cancel::CancelToken;
use driver::{Env, Stepper};
use event::{Outcome, RunEvent};
use run::Run;
use runtime::Runtime;
use scenario::{Problem, Scenario};
use script::ScriptHost;

/// How a caller wants a scenario run: who approves, how to stop it, step
/// mode, and what runs JavaScript tools.
#[derive(Default)]
pub struct RunOptions<'a> {
    pub approver: Option<&'a dyn Approver>,
    pub cancel: CancelToken,
    pub stepper: Option<&'a dyn Stepper>,
    /// `None`: JavaScript tools answer that they run only in the browser.
    pub scripts: Option<Rc<dyn ScriptHost>>,
}

/// Builds a fresh run of `scenario` and drives it to the end with `model`
/// instead of the scenario's own (a real provider, for instance).
pub async fn run_scenario_with_model(
    scenario: &Scenario,
    runtime: Rc<dyn Runtime>,
    model: &dyn model::ModelClient,
    options: RunOptions<'_>,
    on_event: &mut dyn FnMut(&RunEvent),
) -> Result<Outcome, Vec<Problem>> {
    let (mut config, _) = scenario.build_with_scripts(runtime.clone(), options.scripts)?;
    config.model_label = model.label();
    let mut run = Run::new(config);
    let env = Env {
        runtime: runtime.as_ref(),
        model,
        approver: options.approver,
        cancel: options.cancel,
        stepper: options.stepper,
    };
    Ok(driver::drive(&mut run, &env, on_event).await)
}

/// Builds a fresh run of `scenario` and drives it to the end.
pub async fn run_scenario(
    scenario: &Scenario,
    runtime: Rc<dyn Runtime>,
    options: RunOptions<'_>,
    on_event: &mut dyn FnMut(&RunEvent),
) -> Result<Outcome, Vec<Problem>> {
    let (config, model) = scenario.build_with_scripts(runtime.clone(), options.scripts)?;
    let mut run = Run::new(config);
    let env = Env {
        runtime: runtime.as_ref(),
        model: model.as_ref(),
        approver: options.approver,
        cancel: options.cancel,
        stepper: options.stepper,
    };
    Ok(driver::drive(&mut run, &env, on_event).await)
}
