//! The "Compare" panel: two runs side by side with the first step where they
//! part highlighted. Three ways in: a pair of built-ins (a pitfall's naive
//! and fixed scenarios, a tool-schema pair's A and B), in one click,
//! the scenario in the editor against a variant B (edit a tool's description
//! or schema in B), and a fork of the run in the Trace from one of its steps
//! under the scenario as now edited. The runs happen in the background
//! (the engine's, through `lazy::engine`); approvals are answered by the
//! panel's setting.
//!
//! The panel is the Compare mode's, so it is a split module of its own
//! (`compare_panel`, a `#[lazy]` function like those in `lazy`), fetched
//! the first time that mode opens. Its table of two runs is part of it.
//!
//! Each way in is a part of its own (`pair`, `variant`, `fork`), under the
//! settings the runs share (`settings`); `result` is what the panel shows
//! under them, the two runs step by step (`steps_table`) and what changed
//! between their scenarios (`changes`). A fork can also be asked from a
//! turn card or the drawn loop (`fork_here`, the one part in the first
//! paint): the fork way then opens the scenario that ran, to edit.

mod b_form;
mod changes;
mod fork;
pub mod fork_here;
mod pair;
mod result;
mod settings;
mod steps_table;
mod variant;

use harness::event::RunEvent;
use harness::scenario::Scenario;
#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;

use crate::compare::state::{Comparison, Work};
use crate::editor::state::Editor;
use crate::run::controller::Controller;
use crate::settings::state::ModelChoice;

pub use fork_here::fork_here;

use fork::fork_way;
use pair::pair_way;
use result::ComparisonView;
use settings::{approval_answer, runs_per_side_field};
use variant::{variant_b, variant_way};

/// The Compare panel, its view and its actions (see the module's doc).
#[cfg_attr(feature = "split", lazy)]
pub async fn compare_panel(
    editor: Editor,
    model_choice: ModelChoice,
    controller: Controller,
    show_event: Callback<u64>,
    pair_wanted: RwSignal<bool>,
) -> AnyView {
    // Drawn once its stylesheet has loaded: never unstyled.
    crate::browser::stylesheet::load("modes.css").await;
    let paused = controller.paused();
    view! {
        <ComparePanel editor model_choice
            events=controller.events()
            ran=controller.ran_scenario()
            running=controller.running()
            paused=Signal::derive(move || paused.with(Option::is_some))
            show_event pair_wanted />
    }
    .into_any()
}

#[component]
pub fn ComparePanel(
    editor: Editor,
    /// The Model settings: with a provider, the runs go to it, N times a side.
    model_choice: ModelChoice,
    /// The run in the Trace, and the scenario it ran: what a fork starts from.
    events: ReadSignal<Vec<RunEvent>>,
    ran: ReadSignal<Option<Scenario>>,
    running: ReadSignal<bool>,
    /// A run paused in step mode can be forked from the steps it has taken.
    paused: Signal<bool>,
    /// Shows an event of the run in the Trace (its card drawn first).
    show_event: Callback<u64>,
    /// Set by the header's "⇄ Run the pair side by side": run the pair of
    /// the scenario picked, as this panel's own button does.
    pair_wanted: RwSignal<bool>,
) -> impl IntoView {
    let launcher = Launcher {
        comparison: Comparison::new(events, ran),
        model_choice,
    };
    variant_b(editor, launcher.comparison);
    view! {
        <section class="panel compare" aria-labelledby="compare-heading">
            <h2 id="compare-heading">"Compare runs side by side"</h2>
            {crate::ui::guide_link::guide_link("tools/compare.html", "pairs, A/B and forks")}
            <div class="compare-controls">
                {approval_answer(launcher)}
                {runs_per_side_field(launcher)}
                {pair_way(launcher, editor, pair_wanted)}
                {variant_way(launcher, editor)}
                {fork_way(launcher, editor, running, paused)}
            </div>
            <ComparisonView comparison=launcher.comparison events=events show_event=show_event />
        </section>
    }
}

/// What every way into a comparison shares: the panel's state, and the
/// Model settings its runs take.
#[derive(Clone, Copy)]
struct Launcher {
    comparison: Comparison,
    model_choice: ModelChoice,
}

impl Launcher {
    /// A comparison is going, or the Model settings cannot run (tracked).
    fn cannot_start(self) -> bool {
        self.comparison.busy() || model_blocked(self.model_choice)
    }

    /// Starts a comparison that says `what` while it runs: `work` produces
    /// the two sides or the problems.
    fn start(self, what: String, work: Work) {
        let provider = self.model_choice.current();
        self.comparison.start(what, provider, work);
    }
}

/// A provider chosen with settings that cannot run: the comparison waits
/// for them, rather than quietly running the scripted model instead.
fn model_blocked(model_choice: ModelChoice) -> bool {
    model_choice.source().is_some() && !model_choice.problem_lines().is_empty()
}
