//! The timeline: one card per model turn (the request, the assistant's text,
//! each tool call with its arguments and validation, the approval bar while
//! the call waits, the decision, and the tool_result under its call), framed
//! by the run's start and end rows.
//!
//! Both levels are keyed lists over append-only signals: a new turn adds one
//! card, a new event adds one item to the newest card, and nothing already on
//! the page is rendered again.

use harness::event::RunEvent;
use leptos::prelude::*;

use crate::browser::page::TIMELINE_ID;
use crate::state::controller::Card;
use crate::turn_view::{self, EventType, Item};
use crate::ui::approval_bar::{approval_bar, Approvals};
use crate::view_model;

/// Past this many cards, cards off screen are neither laid out nor painted
/// (the `long` class in app.css).
const LONG_RUN_CARDS: usize = 50;

#[component]
pub fn Timeline(
    #[prop(into)] cards: Signal<Vec<Card>>,
    /// Changes when a new run starts: every run numbers its cards and events
    /// from 0, so keys alone would reuse the previous run's elements.
    #[prop(into)]
    run_id: Signal<u64>,
    /// What an approval_requested item needs to show the bar under its call.
    approvals: Approvals,
) -> impl IntoView {
    provide_context(approvals);
    // One listener for every row: a click on an event shows where it
    // happened on the loop diagram.
    let controller = expect_context::<crate::state::controller::Controller>();
    let pick = move |ev: leptos::ev::MouseEvent| {
        use wasm_bindgen::JsCast;
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
    };
    view! {
        <ol
            on:click=pick
            id=TIMELINE_ID
            // Focusable by script only, so opening a kept run can move focus here.
            tabindex="-1"
            class="timeline"
            class:long=move || cards.with(|cards| cards.len() > LONG_RUN_CARDS)
            aria-label="Run timeline"
        >
            {move || {
                run_id.track();
                view! {
                    <For
                        each=move || cards.get()
                        key=|card| card.key
                        children=|card| view! { <CardView card=card /> }
                    />
                }
            }}
        </ol>
    }
}

#[component]
fn CardView(card: Card) -> impl IntoView {
    let events = card.events;
    match card.turn {
        None => view! {
            <li class="run-card">
                <CardEvents events=events />
            </li>
        }
        .into_any(),
        Some(turn) => {
            let stats_events = events.clone();
            let stats = move || stats_events.with(|e| turn_view::turn_stats(e));
            view! {
                <li class="turn-card" data-turn=turn>
                    <header class="turn-header">
                        <h3>{format!("Turn {turn}")}</h3>
                        <span class="turn-stats">{move || stats().unwrap_or_else(|| "waiting for the model…".to_string())}</span>
                    </header>
                    <CardEvents events=events />
                </li>
            }
            .into_any()
        }
    }
}

/// A card's rows, keyed by `seq`: a new event adds one row. A row is told
/// against the card's rows before it (a result against its call), which are
/// all there when it is drawn, since events only ever append.
#[component]
fn CardEvents(events: ArcRwSignal<Vec<RunEvent>>) -> impl IntoView {
    let card = events.clone();
    view! {
        <ol class="card-events">
            <For
                each=move || events.get()
                key=|event| event.seq
                children=move |event: RunEvent| {
                    let time = format!("+{}", view_model::format_ms(event.t_ms));
                    let item = card.with_untracked(|all| {
                        let earlier = all.iter().position(|e| e.seq == event.seq).unwrap_or(all.len());
                        turn_view::card_item_in(&event, &all[..earlier])
                    });
                    item.map(|item| view! { <ItemView item=item time=time /> })
                }
            />
        </ol>
    }
}

#[component]
fn ItemView(item: Item, time: String) -> impl IntoView {
    let class = format!(
        "event {}{}",
        item.tone.class(),
        if item.nested { " nested" } else { "" }
    );
    let body = item
        .body
        .map(|body| body_view(item.kind, body, item.collapsible));
    let state = item.state.map(|state| {
        view! {
            <details class="tool-state">
                <summary>"Store after this call"</summary>
                <pre class="event-pre">{state}</pre>
            </details>
        }
    });
    // The approval bar goes right under the request for the call it is about.
    // Each request has its own row: only the waiting call's row holds it.
    let bar = item.call_id.map(|call_id| {
        let approvals = expect_context::<Approvals>();
        move || {
            approvals
                .pending()
                .get()
                .filter(|p| p.call_id == call_id)
                .map(|pending| Suspend::new(approval_bar(pending, approvals)))
        }
    });
    view! {
        <li class=class data-kind=item.kind.as_str() data-seq=item.seq data-fate=item.fate.map(|f| f.name())>
            <span class="event-time">{time}</span>
            <div class="event-body">
                <p class="event-title">{item.title}</p>
                // The text or arguments first, then what is known about them.
                {body}
                {item
                    .lines
                    .into_iter()
                    .map(|line| view! { <p class="event-line">{line}</p> })
                    .collect_view()}
                {state}
                {bar}
            </div>
        </li>
    }
}

/// Assistant text as prose; arguments and results as preformatted blocks,
/// long ones collapsed behind "Show all".
fn body_view(kind: EventType, body: String, collapsible: bool) -> AnyView {
    if kind == EventType::ModelResponse {
        return view! { <p class="assistant-text">{body}</p> }.into_any();
    }
    if !collapsible {
        return view! { <pre class="event-pre">{body}</pre> }.into_any();
    }
    let expanded = RwSignal::new(false);
    let short = turn_view::collapsed(&body);
    let text = move || {
        if expanded.get() {
            body.clone()
        } else {
            short.clone()
        }
    };
    view! {
        <pre class="event-pre">{text}</pre>
        <button
            type="button"
            class="show-all"
            aria-expanded=move || expanded.get().to_string()
            on:click=move |_| expanded.update(|e| *e = !*e)
        >
            {move || if expanded.get() { "Show less" } else { "Show all" }}
        </button>
    }
    .into_any()
}
