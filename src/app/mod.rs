//! The page: the root component makes the page state once (so it outlives
//! every component and every spawned run) and lays out the stage: at
//! 1024 px and wider a fixed-height workspace whose columns scroll on their
//! own (static/app.css), on a phone one column in this order:
//! - `toolbar`: the header, with the scenario picker, Run / Step / Stop /
//!   Reset, why Run cannot start, the outcome and the live counters;
//! - `stage`: the loop diagram, large and always in view; at 1366 px and
//!   wider it folds to a list while a request, a lesson or calling a tool
//!   by hand is open, so that has half the width or more (`stage::LoopRoom`);
//! - the Lessons mode's panel (`lessons::view`), once opened: on a wide
//!   screen a column of its own beside the loop;
//! - `trace`: the run's trace, its stop banner and the replay of the run
//!   in view; the History mode's kept runs;
//! - the detail pane: `inspector` (the inspector, a turn on the wire, at the
//!   top once a request is opened; the Run state panel; the Scenario mode's
//!   calling a tool by hand and the Compare mode's panel) and `scenario`
//!   (lesson, form, JSON, share, Model settings, problems).
//!
//! `modes::state` picks which of them show: Run, the whole stage, or one
//! group (Compare, Scenario, History, Import/Export) at full size; a mode's
//! own panels are drawn the first time it opens. `modes` is its switch.
//!
//! The state is the editor (picked scenario, JSON text, its live check),
//! the controller (the run log, the run in flight, what it waits for), the
//! Model settings, the run history, and the approvals (the deny reason and
//! the `a`/`d` keys). Everything else is derived.

mod inspector;
mod modes;
mod scenario;
mod stage;
mod toolbar;
mod trace;

use leptos::prelude::*;

use crate::browser::page;
use crate::editor::state::Editor;
use crate::history::state::History;
use crate::inspector::state::InspectorState;
use crate::lessons::state::Lessons;
use crate::lessons::view::lessons_panel;
use crate::mcp::state::Mcp;
use crate::modes::state::{self as mode, Modes};
use crate::protocol_check::state::ProtocolWatch;
use crate::run::controller::Controller;
use crate::run::view::approval_bar::Approvals;
use crate::settings::state::ModelChoice;
use inspector::Inspector;
use scenario::ScenarioSection;
use stage::{LoopRoom, LoopStage};
use toolbar::Toolbar;
use trace::TraceSection;

#[component]
pub fn App() -> impl IntoView {
    let mcp = Mcp::new();
    let editor = Editor::new(mcp);
    let controller = Controller::new(mcp);
    let model_choice = ModelChoice::new();
    let history = History::new(controller, editor, mcp);
    // A panic's error panel offers the trace of the run in view.
    crate::browser::panic::keep_trace(controller.events());
    let approvals = Approvals::new(controller);
    // Both provide themselves to the turn cards, which open the inspector
    // and show the checker's verdict on their turn.
    let inspector = InspectorState::new();
    ProtocolWatch::new(controller);
    let lessons = Lessons::new();
    // The mode a `#mode=` link opened the page in; Run without one.
    let modes = Modes::new();
    // A request opened to be read, an open lesson, or calling a tool by
    // hand takes at least half a wide page, the loop folded beside it.
    let room = LoopRoom::new(
        modes,
        Signal::derive(move || inspector.open().get()),
        lessons.open().into(),
    );
    // Presented to a class (`#present`): the Run mode, its loop at projector size.
    let (presenting, set_presenting) = signal(page::fragment() == mode::PRESENT);
    // "⇄ Run the pair side by side" in the header: the Compare mode opens
    // and its panel, once drawn, runs the pair.
    let pair_wanted = RwSignal::new(false);
    Effect::new(move |_| page::mark_presenting(presenting.get()));
    // A share link pasted into this tab changes only the fragment: load it;
    // a mode link (or the back button) opens its mode.
    page::on_fragment_change(move |fragment| {
        modes.follow(&fragment);
        set_presenting.set(fragment == mode::PRESENT);
        if editor.open_link(&fragment) {
            controller.clear_for_another_scenario();
        }
        lessons.open_link(&fragment);
    });
    // A run, or a replay of every kept run, lives in this page until it ends.
    let running = controller.running();
    page::warn_before_leaving(move || running.get_untracked() || history.replaying_all());

    view! {
        <Toolbar editor controller model_choice mcp lessons modes presenting pair_wanted />
        <main class="layout" data-mode=move || modes.now().get().key() data-room=move || room.state()>
            <LoopStage editor controller room />
            // The Lessons mode: a column of its own beside the loop on a
            // wide screen (lessons.css), between the loop and the trace on a
            // phone. Its module is fetched the first time the mode opens.
            {move || lessons.mounted().get().then(|| Suspend::new(lessons_panel(lessons, editor, controller)))}
            <TraceSection controller history approvals modes />
            <div class="detail">
                <Inspector editor controller inspector model_choice mcp modes pair_wanted room />
                <ScenarioSection editor controller model_choice mcp />
            </div>
        </main>
    }
}
