//! The loop diagram's column of the stage: at 1024 px and wider
//! the page is a fixed-height workspace whose columns scroll on their own,
//! and this one holds the drawn loop, large and always in view, with its
//! caption (where the run is, or the exit it ended at and why) and the
//! Previous / Next of a picked node right under it. Picking a node scrolls
//! the trace beside it, never this column. On a phone it comes first, above
//! the trace, as the compact list of gates and exits.
//!
//! At 1366 px and wider, what is opened to work in takes at least half the
//! page's width: a request opened to be read (three quarters, under the
//! trace), an open lesson, or calling a tool by hand (the Scenario mode
//! then shows the loop beside it). The loop folds to its caption and the
//! list of its steps and exits, the current one marked, with one button to
//! show it whole again (`LoopRoom`).

use leptos::prelude::*;

use crate::browser::page;
use crate::editor::state::Editor;
use crate::loop_diagram::view::{loop_panel, RoomWanted};
use crate::modes::state::{Mode, Modes};
use crate::run::controller::Controller;

/// Whether the drawn loop folds while something is open beside it. The
/// drawing is 1120 units wide with 13 px text: shrunk beside a panel of
/// half the page its text would be unreadable, so it folds to its list of
/// steps and exits instead, unless the person keeps it whole (the inspector
/// then keeps its narrow column). The choice is kept across visits, like
/// the theme. static/inspector.css lays the stage out from `main[data-room]`.
#[derive(Clone, Copy)]
pub struct LoopRoom {
    kept: RwSignal<bool>,
    /// Something open in the mode shown wants the room.
    wanted: Signal<bool>,
    /// "Call a tool by hand" is open: its panel says so.
    bench_open: RwSignal<bool>,
    /// A lesson is open: its own "Show the whole loop" unfolds what the
    /// course has not taught yet, so the fold's button is named otherwise.
    lesson_open: Signal<bool>,
}

impl LoopRoom {
    /// In the Run mode a request opened from a card (`inspector_open`) or
    /// an open lesson wants the room; in the Scenario mode, calling a tool
    /// by hand. Each gives it back when it closes, so the loop unfolds.
    pub fn new(modes: Modes, inspector_open: Signal<bool>, lesson_open: Signal<bool>) -> Self {
        let bench_open = RwSignal::new(false);
        let wanted = Signal::derive(move || match modes.now().get() {
            Mode::Run => inspector_open.get() || lesson_open.get(),
            Mode::Scenario => bench_open.get(),
            _ => false,
        });
        LoopRoom {
            kept: RwSignal::new(page::saved_loop_kept()),
            wanted,
            bench_open,
            lesson_open,
        }
    }

    /// Set by "Call a tool by hand" as it opens and closes.
    pub fn bench_open(self) -> RwSignal<bool> {
        self.bench_open
    }

    /// `main[data-room]`: `folded` or `kept` while something is open
    /// beside the loop, nothing otherwise.
    pub fn state(self) -> Option<&'static str> {
        self.wanted
            .get()
            .then(|| if self.kept.get() { "kept" } else { "folded" })
    }

    /// The button that unfolds the loop.
    fn unfold_label(self) -> &'static str {
        if self.lesson_open.get() {
            "Show the loop drawn"
        } else {
            "Show the whole loop"
        }
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
    provide_context(RoomWanted(Signal::derive(move || room.state().is_some())));
    view! {
        <div class="stage-loop">
            // Shown at 1366 px and wider only, where the fold applies.
            {move || room.state().map(|state| {
                let folded = state == "folded";
                view! {
                    <button type="button" class="loop-fold" aria-expanded=(!folded).to_string()
                        title=if folded {
                            "The loop is folded to where the run is, so what is open beside it has room"
                        } else {
                            "Fold the loop to where the run is, so what is open beside it has room"
                        }
                        on:click=move |_| room.toggle()>
                        {if folded { room.unfold_label() } else { "Fold the loop" }}
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
