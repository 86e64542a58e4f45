//! The inspector: the Run state panel and the Wire panel beside or below
//! the trace, and the Compare panel (a split module, painted right after
//! the page). Each is its own cell of the page's grid.

use leptos::prelude::*;

use crate::state::controller::Controller;
use crate::state::editor::Editor;
use crate::ui::compare_panel::compare_panel;
use crate::ui::run_state_panel::RunStatePanel;
use crate::ui::tool_bench::tool_bench;
use crate::ui::wire_panel::WirePanel;

#[component]
pub fn Inspector(editor: Editor, controller: Controller) -> impl IntoView {
    let paused = controller.paused();
    view! {
        <RunStatePanel book=controller.run_state() />
        <WirePanel events=controller.events() setup=controller.wire_setup() />
        {Suspend::new(tool_bench(editor.text()))}
        {Suspend::new(compare_panel(
            editor,
            controller.events(),
            controller.ran_scenario(),
            controller.running(),
            Signal::derive(move || paused.with(Option::is_some)),
            Callback::new(move |seq| controller.show_event(seq)),
        ))}
    }
}
