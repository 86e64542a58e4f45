//! The trace as it happens: one row per `RunEvent`, in a keyed list so that an
//! appended event renders one new row and leaves the others alone.

use harness::event::RunEvent;
use leptos::prelude::*;

use crate::view_model::{self, Row};

#[component]
pub fn EventList(
    #[prop(into)] events: Signal<Vec<RunEvent>>,
    /// Changes when a new run starts; see below.
    #[prop(into)]
    run_id: Signal<u64>,
) -> impl IntoView {
    view! {
        <ol class="events" aria-label="Run events">
            // Remount the keyed list for each run: every run numbers its events
            // from 0, so keys alone would reuse the previous run's rows.
            {move || {
                run_id.track();
                view! {
                    <For
                        each=move || events.get()
                        key=|event| event.seq
                        children=|event| view! { <EventRow row=view_model::row(&event) /> }
                    />
                }
            }}
        </ol>
    }
}

#[component]
fn EventRow(row: Row) -> impl IntoView {
    view! {
        <li class=format!("event {}", row.tone.class()) data-kind=row.kind data-seq=row.seq>
            <span class="event-time">{row.time}</span>
            <div class="event-body">
                <p class="event-title">{row.title}</p>
                {row
                    .lines
                    .into_iter()
                    .map(|line| view! { <p class="event-line">{line}</p> })
                    .collect_view()}
            </div>
        </li>
    }
}
