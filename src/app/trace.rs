//! The trace column of the stage: its heading (the scenario the run ran,
//! export and import), the timeline of cards with the approval bar under
//! the call that waits, the stop banner, and below them the replay and the
//! run history (the timeline and the history are split modules, painted
//! right after the page), and while a run is paused in step mode, the
//! answer panel (a split module fetched at the first pause). On a wide
//! screen it scrolls on its own, beside the loop diagram (`stage`).

use leptos::prelude::*;

use crate::browser::page;
use crate::lazy;
use crate::state::controller::Controller;
use crate::state::editor::Editor;
use crate::state::history::History;
use crate::state::lessons::Lessons;
use crate::ui::answer_panel::answer_panel;
use crate::ui::approval_bar::Approvals;
use crate::ui::history_panel::{history_panel, RunFiles};
use crate::ui::lessons_panel::lessons_panel;
use crate::ui::protocol_verdict::ProtocolVerdict;
use crate::ui::stop_banner::StopBanner;
use crate::ui::timeline::timeline;
use crate::view_model;

#[component]
pub fn TraceSection(
    editor: Editor,
    controller: Controller,
    history: History,
    approvals: Approvals,
    lessons: Lessons,
) -> impl IntoView {
    let events = controller.events();
    let idle = move || events.with(Vec::is_empty);
    let banner =
        Memo::new(move |_| events.with(|e| view_model::outcome_of(e).map(view_model::banner)));
    // A run that ends while you watch brings its banner into view: on a
    // wide screen only the trace column scrolls (the diagram stays put); on
    // a phone the header, which also says how it ended, has scrolled away.
    // A run opened from the history is not "ending": it never ran here.
    let running = controller.running();
    Effect::new(move |was_running: Option<bool>| {
        let now = running.get();
        if was_running == Some(true) && !now && banner.with_untracked(Option::is_some) {
            page::bring_into_view(
                || {
                    web_sys::window()?
                        .document()?
                        .query_selector(".stop-banner")
                        .ok()
                        .flatten()
                },
                web_sys::ScrollLogicalPosition::Nearest,
            );
        }
        now
    });
    view! {
        <section class="panel trace" aria-labelledby="trace-heading">
            <div class="trace-heading">
                <h2 id="trace-heading">
                    "Trace"
                    {move || controller.ran_scenario().with(|s| s.as_ref().map(|s| view! {
                        <span class="trace-of">{format!(" of “{}”", s.name)}</span>
                    }))}
                </h2>
                <RunFiles history=history />
            </div>
            // The Lessons mode, at the top of the trace column: its module is fetched the
            // first time the mode opens.
            {move || lessons.mounted().get().then(|| Suspend::new(lessons_panel(lessons, editor, controller)))}
            <Show when=idle>
                <p class="empty">"No run yet. Pick a scenario and press Run, or Step through it."</p>
            </Show>
            {Suspend::new(async move {
                // Fetched once the engine has arrived, not beside it: Run
                // waits for the engine (the editor's live check fetches it
                // right after the first paint), and so do a run's cards.
                lazy::engine().await;
                timeline(controller, approvals).await
            })}
            // Paused in step mode, the person may take the step's part. The
            // panel's module is fetched at the first pause, and one `Suspend`
            // holds it, so the first paint carries no code to show it.
            {Suspend::new(async move {
                controller.first_pause().await;
                answer_panel(controller).await
            })}
            {move || banner.get().map(|banner| view! {
                <StopBanner banner=banner>
                    <ProtocolVerdict />
                </StopBanner>
            })}
            {Suspend::new(history_panel(history))}
        </section>
    }
}
