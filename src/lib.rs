//! The Agent Loop Playground web app: a page that runs the `harness` agent
//! loop client-side and shows its trace as it happens.
//!
//! The code is kept by feature. A feature's folder holds its model (plain
//! data changed by messages, `model.rs`, no Leptos and no async, tested
//! natively), its adapter to Leptos (`state.rs`; the runs' is
//! `controller.rs`), which performs the model's commands through the
//! runner (`browser::runner`), its components (`view.rs`, `view/`), and its
//! pure helpers:
//! - [`run`]: runs: the model, the controller (the only module that starts
//!   or stops runs), the timeline and its cards, counters, stop banner,
//!   approval bar, answer panel and Run state panel, and the pure view
//!   model of a trace;
//! - [`editor`]: the scenario text the next run loads, its form, its share
//!   links and files;
//! - [`compare`], [`history`] (kept runs, Replay all), [`lessons`],
//!   [`inspector`] (a turn's request, response and verdicts), [`mcp`],
//!   [`modes`], [`settings`] (the Model settings), [`protocol_check`] (the
//!   protocol checker, live, on the run in view), [`loop_diagram`] (the loop
//!   drawn) and [`waterfall`] (the Time view).
//!
//! Shared by the features: [`app`] (the page's layout: header, stage,
//! trace, detail pane), [`ui`] (components more than one feature draws),
//! [`state`] (page state more than one feature reads), [`lazy`] (the split
//! points and the engine behind them), [`browser`] (everything that touches
//! web APIs, and the runner that starts all asynchronous work) and
//! [`update`] (the shape of a model).
//!
//! The layers go by role, each importing only the ones after it:
//! components (`app`, `ui`, a feature's `view`) → page state (`state`, a
//! feature's `state` or `controller`) → split points (`lazy`) → the pure
//! modules (models and helpers) → browser glue (`browser`) and the harness.
//! No module imports one that imports it back (`tests/module_cycles`).
//!
//! Invariant: the run log is one append-only signal owned by the controller;
//! everything shown about a run (cards, counters, status, banner) is derived
//! from it, or appended alongside it as each event arrives.

// The split rule (see `lazy`) is about what the web app's own code calls;
// its unit tests run the engine natively, as the harness's tests do.
#![cfg_attr(test, allow(clippy::disallowed_methods))]

pub mod app;
pub mod browser;
pub mod compare;
pub mod connect_src;
pub mod editor;
pub mod history;
pub mod inspector;
pub mod lazy;
pub mod lessons;
pub mod loop_diagram;
pub mod mcp;
pub mod modes;
pub mod protocol_check;
pub mod run;
pub mod schema_form;
pub mod settings;
pub mod state;
pub mod ui;
pub mod update;
pub mod waterfall;
