//! The detail pane's panels but the scenario's editor: the inspector (a
//! turn's request, response and conversation as the wire carries them, a
//! split module fetched once the engine has arrived and no run is going,
//! see `Controller::quiet`: a first run needs it not), the Run
//! state panel (fetched with it), and two split modules drawn the first
//! time their mode opens (`Modes::opened`): calling a tool by hand
//! (Scenario) and the Compare panel (Compare).

use leptos::prelude::*;

use crate::compare::view::compare_panel;
use crate::editor::state::Editor;
use crate::inspector::state::InspectorState;
use crate::inspector::view::inspector_panel;
use crate::mcp::state::Mcp;
use crate::modes::state::{Mode, Modes};
use crate::run::controller::Controller;
use crate::run::view::run_state_panel::run_state_panel;
use crate::settings::state::ModelChoice;
use crate::ui::tool_bench::tool_bench;

use super::stage::LoopRoom;

#[component]
pub fn Inspector(
    editor: Editor,
    controller: Controller,
    inspector: InspectorState,
    model_choice: ModelChoice,
    mcp: Mcp,
    modes: Modes,
    /// Set by the header's "⇄ Run the pair side by side": the Compare panel
    /// runs the pair once it is drawn.
    pair_wanted: RwSignal<bool>,
    /// Calling a tool by hand wants the room beside the loop while open.
    room: LoopRoom,
) -> impl IntoView {
    // Fetched once no run needs the network (see `Controller::quiet`);
    // opening the inspector from a card fetches it at once, even while a
    // first run goes on.
    let open = inspector.open();
    let due = controller.quiet(Signal::derive(move || open.get()));
    // "Show in the Trace" from a comparison: the Trace is the Run mode's.
    // Shown a frame later, once the Trace's column is laid out again: the
    // timeline measures it to draw the card that holds the event.
    let show_in_trace = Callback::new(move |seq| {
        modes.open(Mode::Run);
        request_animation_frame(move || controller.show_event(seq));
    });
    view! {
        // First, so on a phone the inspector comes right after the trace.
        <Show when=move || due.get()>
            {Suspend::new(inspector_panel(
                inspector,
                controller.run_id(),
                controller.events(),
                controller.wire_setup(),
                controller.running(),
                mcp.wire(),
            ))}
        </Show>
        // Empty before a run's tool results: fetched with the inspector.
        <Show when=move || due.get()>
            {Suspend::new(run_state_panel(controller.run_state()))}
        </Show>
        <Show when=move || modes.opened(Mode::Scenario).get()>
            {Suspend::new(tool_bench(editor.text(), room.bench_open()))}
        </Show>
        <Show when=move || modes.opened(Mode::Compare).get()>
            {Suspend::new(compare_panel(editor, model_choice, controller, show_in_trace, pair_wanted))}
        </Show>
    }
}
