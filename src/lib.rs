//! The Agent Loop Playground web app: a page that runs the `harness` agent
//! loop client-side and shows its trace as it happens.
//!
//! The layers, each importing only the ones after it (and the pure modules,
//! which import none of them):
//! 1. [`app`] and [`ui`]: the page and its components. `app` makes the page
//!    state and lays out four sections (toolbar, scenario, trace,
//!    inspector); `ui` holds the components they are built from.
//! 2. [`state`]: the page state, signals made once at the root with their
//!    actions: the controller (the only module that starts or stops runs),
//!    the editor, the run history, the Model settings.
//! 3. [`lazy`]: the split points, what the first paint leaves out, taking
//!    and returning plain data; with the run engine, private to it.
//! 4. [`browser`]: everything that touches web APIs (clock, timers, storage,
//!    URL fragment, clipboard, files, theme, fetch, the script sandbox), and
//!    the `harness` crate.
//!
//! Pure modules, tested natively with `cargo test`: [`view_model`] (display
//! rows, counters and the stop banner), [`turn_view`] (which card an event
//! belongs to and what it shows), [`form`] (the scenario form's fields and
//! limits), [`share`] (share links and the opening scenario), [`provenance`]
//! (where the editor's text came from), [`wire_view`] (a turn's request, its
//! verdict and answers per provider, for the inspector), [`marked_json`] (a
//! body printed in segments a verdict can mark), [`history`] (kept runs and their
//! storage budget), [`compare`] (two traces side by side), [`run_state`]
//! (confirmed facts and the tools' stores), [`loop_diagram`] (the loop as
//! a diagram, lit by a trace), [`card_window`] (which turn cards the
//! timeline draws, those near the window, and the spacers' heights) and
//! [`connect_src`] (what the page's Content-Security-Policy lets it reach).
//!
//! No module imports a module that imports it back, and none imports one of
//! a layer above its own: components (`app`, `ui`) → page state (`state`) →
//! split points (`lazy`) → the pure modules → browser glue (`browser`)
//! (`tests/module_cycles`).
//!
//! Invariant: the run log is one append-only signal owned by the controller;
//! everything shown about a run (cards, counters, status, banner) is derived
//! from it, or appended alongside it as each event arrives.

// The split rule (see `lazy`) is about what the web app's own code calls;
// its unit tests run the engine natively, as the harness's tests do.
#![cfg_attr(test, allow(clippy::disallowed_methods))]

pub mod app;
pub mod browser;
pub mod card_window;
pub mod compare;
pub mod connect_src;
pub mod editor;
pub mod form;
pub mod history;
pub mod inspector;
pub mod lazy;
pub mod lesson_words;
pub mod lessons;
pub mod loop_diagram;
pub mod marked_json;
pub mod mcp;
pub mod mcp_text;
pub mod modes;
pub mod provenance;
pub mod run;
pub mod run_state;
pub mod scenario_file;
pub mod schema_form;
pub mod share;
pub mod state;
pub mod turn_view;
pub mod ui;
pub mod update;
pub mod view_model;
pub mod waterfall;
pub mod wire_view;
