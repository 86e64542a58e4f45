//! The Agent Loop Playground web app: a page that runs the `harness` agent
//! loop client-side and shows its trace as it happens.
//!
//! Code map:
//! - [`app`]: the page layout and the wiring of editor state to the controller.
//! - [`editor`]: the picked scenario and the JSON text the next run loads.
//! - [`controller`]: owns a run (spawns it, appends its events to the log,
//!   holds the cancel token). The only module that starts or stops runs.
//! - [`view_model`]: pure functions from events and outcomes to display rows
//!   and strings; tested natively with `cargo test`.
//! - [`browser`]: everything that touches web APIs (clock, timers).
//! - [`ui`]: small components that only render what the view model gives them.
//!
//! Invariant: the run log is one append-only signal owned by the controller;
//! everything shown about a run (rows, status, banner) is derived from it.

pub mod app;
pub mod browser;
pub mod controller;
pub mod editor;
pub mod ui;
pub mod view_model;
