//! The Agent Loop Playground web app: a page that runs the `harness` agent
//! loop client-side and shows its trace as it happens.
//!
//! Code map:
//! - [`app`]: the page layout and the wiring of editor state to the controller.
//! - [`editor`]: the picked scenario and the JSON text the next run loads,
//!   autosaved and restored; the structured form writes through to that text.
//! - [`engine`]: the run engine as the page uses it (load, build, drive),
//!   reached only through the split point `lazy::engine`.
//! - [`lazy`]: the split points: what the first paint leaves out.
//! - [`controller`]: owns a run (spawns it, appends its events to the log and
//!   its cards, holds the cancel token, the pending approval and the step
//!   pause). The only module that starts or stops runs.
//! - [`view_model`], [`turn_view`], [`form`], [`share`]: pure logic, tested
//!   natively with `cargo test`: display rows, counters and the stop banner;
//!   which card an event belongs to and what it shows; the scenario form's
//!   fields and limits; share links (base64url) and the opening scenario.
//! - [`wire_view`]: pure too: a turn's request body per provider and the
//!   protocol checker's verdict, for the Wire panel.
//! - [`history`], [`compare`], [`run_state`]: pure too: the kept runs and
//!   their storage budget; two traces side by side and where they part; the
//!   confirmed facts and the tools' stores.
//! - [`browser`]: everything that touches web APIs (clock, timers, storage,
//!   URL fragment, clipboard, files, theme).
//! - [`ui`]: small components that only render what the pure modules give them.
//!
//! Invariant: the run log is one append-only signal owned by the controller;
//! everything shown about a run (cards, counters, status, banner) is derived
//! from it, or appended alongside it as each event arrives.

pub mod app;
pub mod browser;
pub mod compare;
pub mod controller;
pub mod editor;
pub mod engine;
pub mod form;
pub mod history;
pub mod lazy;
pub mod loop_diagram;
pub mod provenance;
pub mod run_state;
pub mod share;
pub mod turn_view;
pub mod ui;
pub mod view_model;
pub mod wire_view;
