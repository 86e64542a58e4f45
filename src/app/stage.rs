//! The loop diagram's column of the stage: at 1024 px and wider
//! the page is a fixed-height workspace whose columns scroll on their own,
//! and this one holds the drawn loop, large and always in view, with its
//! caption (where the run is, or the exit it ended at and why) and the
//! Previous / Next of a picked node right under it. Picking a node scrolls
//! the trace beside it, never this column. On a phone it comes first, above
//! the trace, as the compact list of gates and exits.

use leptos::prelude::*;

use crate::state::controller::Controller;
use crate::state::editor::Editor;
use crate::ui::loop_diagram::loop_panel;

#[component]
pub fn LoopStage(editor: Editor, controller: Controller) -> impl IntoView {
    // "Show me a run that stops here": the exit's built-in, as if picked.
    let pick_lesson = Callback::new(move |id: &'static str| {
        controller.clear_for_another_scenario();
        editor.select(id.to_string());
    });
    view! {
        <div class="stage-loop">
            {Suspend::new(loop_panel(
                controller.events(),
                controller.run_id(),
                controller.paused(),
                Signal::derive(move || {
                    controller
                        .running()
                        .get()
                        .then(|| controller.elapsed_ms().get())
                }),
                controller.picked_event(),
                Callback::new(move |seq| controller.show_event(seq)),
                pick_lesson,
            ))}
        </div>
    }
}
