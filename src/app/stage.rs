//! The loop diagram's column of the stage: at 1024 px and wider
//! the page is a fixed-height workspace whose columns scroll on their own,
//! and this one holds the drawn loop, large and always in view, with its
//! caption (where the run is, or the exit it ended at and why) and the
//! Previous / Next of a picked node right under it. Picking a node scrolls
//! the trace beside it, never this column. On a phone it comes first, above
//! the trace, as the compact list of gates and exits.
//!
//! At 1366 px and wider, a request opened to be read takes three quarters
//! of the page's width, under the trace: the loop folds to its caption and
//! the list of its steps and exits, the current one marked, with one button
//! to show it whole again (`LoopRoom`).

use leptos::prelude::*;

use crate::browser::page;
use crate::state::controller::Controller;
use crate::state::editor::Editor;
use crate::ui::loop_diagram::loop_panel;

/// Whether the drawn loop folds while something is open beside it. The
/// drawing is 1120 units wide with 13 px text: shrunk beside a panel of
/// half the page its text would be unreadable, so it folds to its list of
/// steps and exits instead, unless the person keeps it whole (the inspector
/// then keeps its narrow column). The choice is kept across visits, like
/// the theme. static/inspector.css lays the stage out from `main[data-room]`.
#[derive(Clone, Copy)]
pub struct LoopRoom {
    kept: RwSignal<bool>,
    /// Something is open that wants the room: the inspector.
    wanted: Signal<bool>,
}

impl LoopRoom {
    pub fn new(wanted: Signal<bool>) -> Self {
        LoopRoom {
            kept: RwSignal::new(page::saved_loop_kept()),
            wanted,
        }
    }

    /// `main[data-room]`: `folded` or `kept` while something is open
    /// beside the loop, nothing otherwise.
    pub fn state(self) -> Option<&'static str> {
        self.wanted
            .get()
            .then(|| if self.kept.get() { "kept" } else { "folded" })
    }

    fn toggle(self) {
        let kept = !self.kept.get_untracked();
        self.kept.set(kept);
        page::save_loop_kept(kept);
    }
}

#[component]
pub fn LoopStage(editor: Editor, controller: Controller, room: LoopRoom) -> impl IntoView {
    // "Show me a run that stops here": the exit's built-in, as if picked.
    let pick_lesson = Callback::new(move |id: &'static str| {
        controller.clear_for_another_scenario();
        editor.select(id.to_string());
    });
    view! {
        <div class="stage-loop">
            // Shown at 1366 px and wider only, where the fold applies.
            {move || room.state().map(|state| {
                let folded = state == "folded";
                view! {
                    <button type="button" class="loop-fold" aria-expanded=(!folded).to_string()
                        title=if folded {
                            "The loop is folded to where the run is, so the inspector has room"
                        } else {
                            "Fold the loop to where the run is, so the inspector has room"
                        }
                        on:click=move |_| room.toggle()>
                        {if folded { "Show the whole loop" } else { "Fold the loop" }}
                    </button>
                }
            })}
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
