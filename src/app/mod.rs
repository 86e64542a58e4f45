//! The page: the root component makes the page state once (so it outlives
//! every component and every spawned run) and lays out four sections:
//! - `toolbar`: the header, with the scenario picker, Run / Step / Stop /
//!   Reset, why Run cannot start, and the live counters;
//! - `scenario`: the scenario editor (lesson, form, JSON, share, Model
//!   settings, problems), on the left;
//! - `trace`: the run's trace in the centre, its stop banner, the replay and
//!   the run history below it;
//! - `inspector`: the Run state panel, the inspector (a turn on the wire)
//!   beside the trace, calling a tool by hand, and the Compare panel.
//!
//! The state is the editor (picked scenario, JSON text, its live check),
//! the controller (the run log, the run in flight, what it waits for), the
//! Model settings, the run history, and the approvals (the deny reason and
//! the `a`/`d` keys). Everything else is derived.

mod inspector;
mod scenario;
mod toolbar;
mod trace;

use leptos::prelude::*;

use crate::browser::page;
use crate::state::controller::Controller;
use crate::state::editor::Editor;
use crate::state::history::History;
use crate::state::inspector::InspectorState;
use crate::state::lessons::Lessons;
use crate::state::mcp::Mcp;
use crate::state::model_choice::ModelChoice;
use crate::state::protocol::ProtocolWatch;
use crate::ui::approval_bar::Approvals;
use inspector::Inspector;
use scenario::ScenarioSection;
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
    // A share link pasted into this tab changes only the fragment: load it.
    page::on_fragment_change(move |fragment| {
        if editor.open_link(&fragment) {
            controller.clear_for_another_scenario();
        }
        lessons.open_link(&fragment);
    });

    view! {
        <Toolbar editor controller model_choice mcp lessons />
        <main class="layout">
            <ScenarioSection editor controller model_choice mcp />
            <TraceSection editor controller history approvals lessons />
            <Inspector editor controller inspector model_choice mcp />
        </main>
    }
}
