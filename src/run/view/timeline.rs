//! The timeline: one card per model turn (`run::view::turn_card` draws what a card
//! shows), framed by the run's start and end rows.
//!
//! Only the cards in or near the window are drawn, with spacers for the
//! rest (`card_window`, `run/view/timeline_window.rs`), so a 10,000-turn run keeps
//! a few dozen cards in the page. Within what is drawn, both levels are
//! keyed lists over append-only signals: a new turn adds one card, a new
//! event adds one item to the newest card, and nothing already on the page
//! is rendered again. An event the page is asked to show
//! (`Controller::show_event`: the comparison's "Show step N in the Trace",
//! a node of the loop diagram) has its card drawn first, wherever it is in
//! the run, and is then scrolled to.
//!
//! A split module of its own (`timeline`, a `#[lazy]` function like those
//! in `lazy`): the page paints without the cards' code and fetches it right
//! after, as it does the loop diagram.

#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::browser::page::TIMELINE_ID;
use crate::run::controller::{Card, Controller};
use crate::run::view::approval_bar::Approvals;
use crate::run::view::timeline_window::{measured, Drawn, Windowing, CARD_INDEX_ATTR};
use crate::run::view::turn_card::card_contents;

/// The run's timeline, in the trace section: painted right after the page.
#[cfg_attr(feature = "split", lazy)]
pub async fn timeline(controller: Controller, approvals: Approvals) -> AnyView {
    view! { <Timeline controller approvals /> }.into_any()
}

#[component]
fn Timeline(controller: Controller, approvals: Approvals) -> impl IntoView {
    // What an approval_requested item needs to show the bar under its call.
    provide_context(approvals);
    let cards = controller.cards();
    // Changes when a new run starts: every run numbers its cards and events
    // from 0, so keys alone would reuse the previous run's elements.
    let run_id = controller.run_id();
    let windowing = Windowing::new(TIMELINE_ID);
    let waiting = move || approvals.pending().with(Option::is_some);
    let plan = Memo::new(move |_| windowing.plan(cards, run_id.get(), waiting()));
    // How many cards the run has, for screen readers ("card 12 of 10,000",
    // not "of the 20 drawn"): unknown (-1) while it runs, so the drawn
    // cards are not all rewritten at every new card.
    let running = controller.running();
    let set_size = Signal::derive(move || {
        if running.get() {
            -1
        } else {
            cards.with(Vec::len) as i64
        }
    });
    let shown = controller.shown_event();
    Effect::new(move |_| {
        if let Some(seq) = shown.get() {
            show_event(windowing, cards, seq);
        }
    });
    view! {
        <ol
            on:click=move |ev| pick(controller, ev)
            id=TIMELINE_ID
            // Focusable by script only, so opening a kept run can move focus here.
            tabindex="-1"
            class="timeline"
            aria-label="Run timeline"
            on:focusin=move |ev| windowing.focus_in(card_of(ev.target()), ev.target())
            on:focusout=move |ev: web_sys::FocusEvent| {
                if card_of(ev.related_target()).is_none() {
                    windowing.focus_out();
                }
            }
        >
            <li class="gap" aria-hidden="true" prop:style=move || plan.with(|p| gap_style(p.above_px))></li>
            {move || {
                run_id.track();
                view! {
                    <For
                        each=move || plan.with(|p| p.rows.clone())
                        key=Drawn::key
                        children=move |row| match row {
                            Drawn::Card(card) => view! { <CardView card set_size windowing /> }.into_any(),
                            Drawn::Gap { px, .. } => view! {
                                <li class="gap" aria-hidden="true" prop:style=gap_style(px)></li>
                            }
                            .into_any(),
                        }
                    />
                }
            }}
            <li class="gap" aria-hidden="true" prop:style=move || plan.with(|p| gap_style(p.below_px))></li>
        </ol>
    }
}

/// One listener for every row: a click on an event shows where it happened
/// on the loop diagram.
fn pick(controller: Controller, ev: leptos::ev::MouseEvent) {
    let target = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    // A click on a control in a row (Approve, Edit arguments, a field)
    // is about that control: it must not move the page to the diagram.
    let on_control = target.as_ref().is_some_and(|el| {
        el.closest("button, input, textarea, select, a, label, summary")
            .ok()
            .flatten()
            .is_some()
    });
    if on_control {
        return;
    }
    let seq = target
        .and_then(|el| el.closest(".event[data-seq]").ok().flatten())
        .and_then(|row| row.get_attribute("data-seq"))
        .and_then(|seq| seq.parse().ok());
    if let Some(seq) = seq {
        controller.pick_event(seq);
    }
}

/// The index of the card `target` is in, if it is in one.
fn card_of(target: Option<web_sys::EventTarget>) -> Option<usize> {
    target
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|el| el.closest(&format!("[{CARD_INDEX_ATTR}]")).ok().flatten())
        .and_then(|card| card.get_attribute(CARD_INDEX_ATTR))
        .and_then(|index| index.parse::<usize>().ok())
}

/// A spacer's height, standing for the cards it replaces. Set as a
/// property: the first use of Leptos's `style:` would add its code to the
/// bundle.
fn gap_style(px: i64) -> String {
    format!("height: {px}px")
}

#[component]
fn CardView(card: Card, set_size: Signal<i64>, windowing: Windowing) -> impl IntoView {
    let index = card.key;
    let (class, turn) = match card.turn {
        Some(turn) => ("turn-card", Some(turn)),
        None => ("run-card", None),
    };
    view! {
        <li class=class use:measured=windowing data-card=index data-turn=turn aria-posinset=index + 1 aria-setsize=set_size>
            {card_contents(card)}
        </li>
    }
}

/// The attribute on the row `show_event` showed last.
const SHOWN: &str = "data-shown";

/// Scrolls the Trace to the event with `seq` and moves focus to it. Its card
/// is drawn first if it was far off screen, and stays drawn until another
/// event is shown. An event not in the Trace does nothing.
fn show_event(windowing: Windowing, cards: ReadSignal<Vec<Card>>, seq: u64) {
    let index = cards.with_untracked(|cards| {
        cards
            .partition_point(|card| card.first_seq <= seq)
            .checked_sub(1)
    });
    let Some(index) = index else {
        return;
    };
    windowing.keep_shown(index);
    // The list draws the card before the next frame; then it has a box.
    request_animation_frame(move || {
        // The event's row, or its card where the event has no row of its own.
        let found = |selector: String| {
            document()
                .query_selector(&format!("#{TIMELINE_ID} {selector}"))
                .ok()
                .flatten()
                .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
        };
        let Some(row) = found(format!(".event[data-seq=\"{seq}\"]"))
            .or_else(|| found(format!("[{CARD_INDEX_ATTR}=\"{index}\"]")))
        else {
            return;
        };
        // Marked, so the row shown stands out (a dashed outline, not only a
        // colour) until another is shown.
        if let Ok(Some(before)) = document().query_selector(&format!("#{TIMELINE_ID} [{SHOWN}]")) {
            let _ = before.remove_attribute(SHOWN);
        }
        let _ = row.set_attribute(SHOWN, "");
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(web_sys::ScrollLogicalPosition::Center);
        row.scroll_into_view_with_scroll_into_view_options(&options);
        // Focusable by script only: a screen reader reads the row shown, and
        // the card holding focus stays drawn.
        let _ = row.set_attribute("tabindex", "-1");
        let focus = web_sys::FocusOptions::new();
        focus.set_prevent_scroll(true);
        let _ = row.focus_with_options(&focus);
    });
}
