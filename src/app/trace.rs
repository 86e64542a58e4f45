//! The trace column of the stage: its heading (the scenario the run ran,
//! export and import), the timeline of cards with the approval bar under
//! the call that waits, the stop banner and the replay of the run in view,
//! and while a run is paused in step mode, the answer panel. The timeline
//! and the run files are split modules painted right after the page; the answer panel, the
//! replay and the History mode's kept runs are split modules fetched when
//! first needed: the first pause, the first run ended in view, the History
//! mode's first opening. On a wide screen it scrolls on its own, beside
//! the loop diagram (`stage`).

use leptos::prelude::*;

use crate::browser::page;
use crate::lazy;
use crate::state::controller::Controller;
use crate::state::history::History;
use crate::state::mode::{Mode, Modes};
use crate::ui::answer_panel::answer_panel;
use crate::ui::approval_bar::Approvals;
use crate::ui::history_panel::{history_panel, run_files, run_replay};
use crate::ui::protocol_verdict::ProtocolVerdict;
use crate::ui::stop_banner::StopBanner;
use crate::ui::timeline::timeline;
use crate::ui::waterfall::waterfall_panel;
use crate::view_model;

#[component]
pub fn TraceSection(
    controller: Controller,
    history: History,
    approvals: Approvals,
    modes: Modes,
) -> impl IntoView {
    let events = controller.events();
    let idle = move || events.with(Vec::is_empty);
    let kept = history.entries();
    let time_shown = RwSignal::new(false);
    let running = controller.running();
    let ended = move || !running.get() && events.with(|e| view_model::outcome_of(e).is_some());
    let banner =
        Memo::new(move |_| events.with(|e| view_model::outcome_of(e).map(view_model::banner)));
    // A run that ends while you watch brings its banner into view: on a
    // wide screen only the trace column scrolls (the diagram stays put); on
    // a phone the header, which also says how it ended, has scrolled away.
    // A run opened from the history is not "ending": it never ran here.
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
                {Suspend::new(run_files(history, Callback::new(move |()| modes.open(Mode::Run))))}
            </div>
            <Show when=idle>
                <p class="empty">{move || empty_trace_text(kept.with(Vec::len))}</p>
            </Show>
            // The run as time, above its cards: a split module with its own
            // stylesheet, fetched the first time it is opened.
            <button type="button" class="time-toggle" hidden=idle
                aria-pressed=move || time_shown.get().to_string()
                on:click=move |_| time_shown.update(|on| *on = !*on)>"Time view"</button>
            <Show when=move || time_shown.get() && !idle()>
                {Suspend::new(waterfall_panel(controller))}
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
            <Show when=ended>
                {Suspend::new(run_replay(history))}
            </Show>
            <Show when=move || modes.opened(Mode::History).get()>
                {Suspend::new(history_panel(history, Callback::new(move |()| modes.open(Mode::Run))))}
            </Show>
        </section>
    }
}

/// What the empty trace says. After a reload the trace is empty but the
/// runs made before it are kept: "No run yet" would say they are gone.
fn empty_trace_text(kept: usize) -> String {
    let pick = "Pick a scenario and press Run, or Step through it.";
    match kept {
        0 => format!("No run yet. {pick}"),
        1 => format!("No run in view. {pick} Your kept run is in History."),
        n => format!("No run in view. {pick} Your {n} kept runs are in History."),
    }
}

#[cfg(test)]
mod tests {
    use super::empty_trace_text;

    #[test]
    fn the_empty_trace_says_where_kept_runs_are() {
        assert_eq!(
            empty_trace_text(0),
            "No run yet. Pick a scenario and press Run, or Step through it."
        );
        assert!(empty_trace_text(1).ends_with("Your kept run is in History."));
        assert!(empty_trace_text(3).ends_with("Your 3 kept runs are in History."));
    }
}
