//! The split points. Each function here, with the code only it reaches, is
//! moved by `scripts/wasm-split.mjs` into its own wasm file that the browser
//! fetches the first time the function is called, so the first paint does not
//! load it: reading records back (history, import, replay, fork), the Wire
//! panel's request bodies and checker, the comparison's table, and the
//! real-provider model.
//!
//! Leptos's `#[lazy]` makes each one `async` for its callers. Underneath it is
//! an `extern "C"` call between the two modules, so every argument and result
//! is owned. A module that cannot be fetched panics, which the panic panel
//! reports with the trace so far (a deployment that lost files, not bad input).
//! Natively (tests, the CLI) the functions are called directly.

use harness::cancel::CancelToken;
use harness::event::RunEvent;
use harness::model::ModelClient;
use harness::provider::{HttpModel, ProviderRun};
use harness::replay::{Assertions, Record, ReplayReport};
use harness::scenario::{Problem, Scenario};
use leptos::prelude::{lazy, AnyView};

use crate::browser::background::{self, AutoDecision};
use crate::browser::fetch::FetchTransport;
use crate::compare::Side;
use crate::ui::compare_panel;
use crate::wire_view::{self, ProviderWire, WireSetup};

/// A record (or a bare trace) from its JSON Lines text.
#[lazy]
pub fn parse_record(text: String) -> Result<Record, String> {
    Record::from_jsonl(&text)
}

/// `background::replay`: the record's model turns against `scenario`.
#[lazy]
pub async fn replay(
    record: Record,
    scenario: Scenario,
    assertions: Assertions,
) -> Result<ReplayReport, Vec<Problem>> {
    background::replay(&record, &scenario, &assertions).await
}

/// `background::fork_to_end`: `parent` continued from `seq` under `scenario`.
#[lazy]
pub async fn fork_to_end(
    parent: Record,
    seq: u64,
    scenario: Scenario,
    decide: AutoDecision,
    cancel: CancelToken,
) -> Result<Record, String> {
    background::fork_to_end(&parent, seq, &scenario, decide, cancel).await
}

/// `wire_view::wire_for_turn`: each provider's request body and verdict.
#[lazy]
pub fn wire_for_turn(
    events: Vec<RunEvent>,
    setup: WireSetup,
    turn: u32,
) -> Option<Vec<ProviderWire>> {
    wire_view::wire_for_turn(&events, &setup, turn)
}

/// The comparison's table of two finished runs.
#[lazy]
pub fn comparison_table(left: Side, right: Side) -> AnyView {
    compare_panel::comparison_table(left, right)
}

/// The model that talks to a real provider over `fetch`.
#[lazy]
pub fn provider_model(run: ProviderRun) -> Box<dyn ModelClient> {
    Box::new(HttpModel::new(run.settings, run.key, FetchTransport))
}
