//! The inspector column: the Run state panel, the inspector (a turn's
//! request, response and conversation as the wire carries them) beside the
//! trace, calling a tool by hand, and the Compare panel (split modules,
//! painted once the engine has arrived and no run is going, see
//! `Controller::quiet`: a first run needs none of them, issue 28).
//! Each is its own cell of the page's grid.

use leptos::prelude::*;

use crate::state::controller::Controller;
use crate::state::editor::Editor;
use crate::state::inspector::InspectorState;
use crate::state::mcp::Mcp;
use crate::state::model_choice::ModelChoice;
use crate::ui::compare_panel::compare_panel;
use crate::ui::inspector_panel::inspector_panel;
use crate::ui::run_state_panel::run_state_panel;
use crate::ui::tool_bench::tool_bench;

#[component]
pub fn Inspector(
    editor: Editor,
    controller: Controller,
    inspector: InspectorState,
    model_choice: ModelChoice,
    mcp: Mcp,
    /// A mode other than Run is open (Compare or Scenario shows these panels).
    mode_opened: Signal<bool>,
) -> impl IntoView {
    let paused = controller.paused();
    // Fetched once no run needs the network (see `Controller::quiet`);
    // opening the inspector from a card, or a mode that shows these panels,
    // fetches them at once, even while a first run goes on.
    let open = inspector.open;
    let due = controller.quiet(Signal::derive(move || open.get() || mode_opened.get()));
    view! {
        // First, so on a phone the inspector comes right after the trace.
        <Show when=move || due.get()>
            {Suspend::new(inspector_panel(
                inspector,
                controller.events(),
                controller.wire_setup(),
                controller.running(),
                mcp.wire(),
            ))}
        </Show>
        {Suspend::new(run_state_panel(controller.run_state()))}
        <Show when=move || due.get()>
            {Suspend::new(tool_bench(editor.text()))}
            {Suspend::new(compare_panel(
                editor,
                model_choice,
                controller.events(),
                controller.ran_scenario(),
                controller.running(),
                Signal::derive(move || paused.with(Option::is_some)),
                Callback::new(move |seq| controller.show_event(seq)),
            ))}
        </Show>
    }
}
