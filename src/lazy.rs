//! The split points. Each function here, with the code only it reaches, is
//! moved by `scripts/wasm-split.mjs` into its own wasm file that the browser
//! fetches the first time the function is called, so the first paint does not
//! load it. Code that several split points reach goes into shared chunks,
//! fetched once.
//!
//! What the first paint leaves out:
//! - the run engine: loading and checking a scenario, building and driving a
//!   run, validating edited arguments, and both sides of a comparison. The
//!   editor's live check of the opening scenario fetches it right after the
//!   first paint; a run started before it arrives shows as running and goes
//!   ahead when it lands;
//! - the built-ins' files (the first paint has their names and the opening
//!   scenario's text, see `harness::library`), preloaded after the first paint;
//! - the history's actions (keeping, opening, importing and replaying runs),
//!   reading records back and writing them out, and forking;
//! - the Wire panel's request bodies and checker, the comparison's table, and
//!   the real-provider model;
//! - the Compare panel and the run history's list, which sit below the trace
//!   and arrive right after the first paint.
//!
//! The rule that keeps them out: in the web build, `Scenario::load`,
//! `Scenario::build`, `harness::run_scenario*`, `library::json_of` (and
//! `BuiltinScenario::json`) and the functions below are called only from code
//! that a split point reaches. One call from the first-paint code pulls its
//! whole module back in; `scripts/bundle-size.mjs` in CI fails the build when
//! the first paint passes its 250 KiB budget.
//!
//! The `split` feature (on by default) makes them split points; without it
//! they are plain `async` functions. The wasm tests run without it: a test
//! binary is not split, and a split point that calls another one would leave
//! it an import that only the split build's loader provides.
//!
//! Leptos's `#[lazy]` makes each one `async` for its callers. Underneath it is
//! an `extern "Rust"` call between the two modules, so every argument and result
//! is owned. A module that cannot be fetched panics, which the panic panel
//! reports with the trace so far (a deployment that lost files, not bad input).
//! Natively (tests, the CLI) the functions are called directly.

use harness::event::RunEvent;
use harness::library;
use harness::model::ModelClient;
use harness::provider::{HttpModel, ProviderRun};
use harness::replay::Record;
use harness::scenario::Scenario;
#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;

use crate::browser::fetch::FetchTransport;
use crate::compare::Side;
use crate::editor::Editor;
use crate::engine::{Engine, PageEngine};
use crate::history::Origin;
use crate::ui::compare_panel::{self, ComparePanel};
use crate::ui::history_panel::{History, HistoryPanel};
use crate::wire_view::{self, ProviderWire, WireSetup};

/// The run engine (see `engine`): loading, building and driving runs.
#[cfg_attr(feature = "split", lazy)]
pub async fn engine() -> &'static dyn Engine {
    let engine: &'static dyn Engine = &PageEngine;
    engine
}

/// `library::json_of`: a built-in scenario's file, which the first paint
/// does not carry.
#[cfg_attr(feature = "split", lazy)]
pub async fn builtin_json(id: String) -> Option<&'static str> {
    library::json_of(&id)
}

/// Fetches the built-ins' module without calling into it.
pub async fn preload_builtins() {
    #[cfg(feature = "split")]
    __preload_builtin_json().await;
}

/// The built-in whose file `text` is, if any: the picker's value for it.
#[cfg_attr(feature = "split", lazy)]
pub async fn builtin_id_of(text: String) -> Option<&'static str> {
    library::BUILTIN
        .iter()
        .find(|b| b.json() == text)
        .map(|b| b.id)
}

/// The history panel's actions (see `ui::history_panel`): keeping a
/// finished run, opening a kept one, importing a file, replaying the trace.
#[cfg_attr(feature = "split", lazy)]
pub async fn keep_run(history: History, record: Record, origin: Origin) -> String {
    history.keep(&record, origin)
}

#[cfg_attr(feature = "split", lazy)]
pub async fn open_kept(history: History, id: String) {
    history.open(id).await
}

#[cfg_attr(feature = "split", lazy)]
pub async fn import_run(history: History, name: String, text: String) {
    history.import(name, text).await
}

#[cfg_attr(feature = "split", lazy)]
pub async fn replay_trace(history: History) {
    history.replay()
}

/// `Record::to_jsonl`: what Export saves.
#[cfg_attr(feature = "split", lazy)]
pub async fn record_jsonl(record: Record) -> String {
    record.to_jsonl()
}

/// A record (or a bare trace) from its JSON Lines text.
#[cfg_attr(feature = "split", lazy)]
pub async fn parse_record(text: String) -> Result<Record, String> {
    Record::from_jsonl(&text)
}

/// `wire_view::wire_for_turn`: each provider's request body and verdict.
#[cfg_attr(feature = "split", lazy)]
pub async fn wire_for_turn(
    events: Vec<RunEvent>,
    setup: WireSetup,
    turn: u32,
) -> Option<Vec<ProviderWire>> {
    wire_view::wire_for_turn(&events, &setup, turn)
}

/// The comparison's table of two finished runs.
#[cfg_attr(feature = "split", lazy)]
pub async fn comparison_table(left: Side, right: Side) -> AnyView {
    compare_panel::comparison_table(left, right)
}

/// The Compare panel, its view and its actions. It sits below the trace, so
/// the page paints without it and it arrives right after.
#[cfg_attr(feature = "split", lazy)]
pub async fn compare_panel(
    editor: Editor,
    events: ReadSignal<Vec<RunEvent>>,
    ran: ReadSignal<Option<Scenario>>,
    running: ReadSignal<bool>,
    paused: Signal<bool>,
) -> AnyView {
    view! { <ComparePanel editor events ran running paused /> }.into_any()
}

/// The run history's list, below the trace: painted right after the page.
#[cfg_attr(feature = "split", lazy)]
pub async fn history_panel(history: History) -> AnyView {
    view! { <HistoryPanel history /> }.into_any()
}

/// The model that talks to a real provider over `fetch`.
#[cfg_attr(feature = "split", lazy)]
pub async fn provider_model(run: ProviderRun) -> Box<dyn ModelClient> {
    let model: Box<dyn ModelClient> =
        Box::new(HttpModel::new(run.settings, run.key, FetchTransport));
    model
}
