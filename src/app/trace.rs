//! The trace column of the stage: its heading (the scenario the run ran,
//! and the "Run files" menu with export and import), the timeline of cards with the approval bar under
//! the call that waits, the stop banner and the replay of the run in view,
//! and while a run is paused in step mode, the answer panel. The timeline
//! is a split module painted right after the page; the run files are one
//! fetched when their menu first opens (or the Import/Export mode, which
//! shows them open); the answer panel, the
//! replay and the History mode's kept runs are split modules fetched when
//! first needed: the first pause, the first run ended in view, the History
//! mode's first opening. On a wide screen it scrolls on its own, beside
//! the loop diagram (`stage`).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::browser::page;
use crate::history::state::History;
use crate::history::view::{history_panel, run_files, run_replay};
use crate::inspector::view::protocol_verdict::ProtocolVerdict;
use crate::lazy;
use crate::modes::state::{Mode, Modes};
use crate::run::controller::Controller;
use crate::run::view::answer_panel::answer_panel;
use crate::run::view::approval_bar::Approvals;
use crate::run::view::stop_banner::StopBanner;
use crate::run::view::timeline::timeline;
use crate::run::view_model;
use crate::waterfall::view::waterfall_panel;

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
                <RunFilesMenu history modes />
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

/// The run files (export the run, import one) behind one disclosure
/// button, so the trace starts with the run: a reader rarely needs them.
/// Closed, their split module is not fetched; it is the first time the
/// menu opens, or the Import/Export mode, where they are the point and
/// show open without the button.
#[component]
fn RunFilesMenu(history: History, modes: Modes) -> impl IntoView {
    let open = RwSignal::new(false);
    let now = modes.now();
    // Once fetched and drawn they stay, hidden when closed: a paste half
    // typed or a chosen file survives closing the menu. The Import/Export
    // mode shows them open (static/app.css), so it fetches them too.
    let opened = RwSignal::new(false);
    let files_mode_opened = modes.opened(Mode::Files);
    let wanted = Memo::new(move |_| opened.get() || files_mode_opened.get());
    // Esc closes the menu and gives the focus back to its button, as a
    // disclosure does (https://www.w3.org/WAI/ARIA/apg/patterns/disclosure/).
    let close_on_escape = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Escape" && open.get_untracked() && now.get_untracked() != Mode::Files {
            open.set(false);
            if let Some(button) = document()
                .get_element_by_id("run-files-toggle")
                .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = button.focus();
            }
        }
    };
    view! {
        <div class="run-files-box" on:keydown=close_on_escape>
            <button type="button" id="run-files-toggle" class="run-files-toggle"
                aria-controls="run-files-menu"
                aria-expanded=move || open.get().to_string()
                on:click=move |_| {
                    open.update(|o| *o = !*o);
                    opened.set(true);
                }>
                "Run files " <span aria-hidden="true">"▾"</span>
            </button>
            <div id="run-files-menu" class="run-files-menu" role="group" aria-label="Run files"
                hidden=move || !open.get()>
                {move || wanted.get().then(|| {
                    Suspend::new(run_files(history, Callback::new(move |()| modes.open(Mode::Run))))
                })}
            </div>
        </div>
        // Outside the menu: an import started elsewhere ("Import scenario"
        // hands a run file over) says how it went with the menu closed.
        <p class="run-file-notice" role="status">{move || history.file_notice().get()}</p>
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
