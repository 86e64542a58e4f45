//! The "Run state" panel beside the trace: the ids tool results confirmed,
//! and the built-in tools' stores after the last write (see `run_state`).
//!
//! A split module of its own (`run_state_panel`), fetched with the
//! inspector once no run needs the network (`Controller::quiet`): it shows
//! nothing before a run's tool results, and a first run does not wait for
//! it.

#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;

use crate::run::run_state::{self, RunStateBook};

#[cfg_attr(feature = "split", lazy)]
pub async fn run_state_panel(book: ReadSignal<RunStateBook>) -> AnyView {
    view! { <RunStatePanel book /> }.into_any()
}

#[component]
fn RunStatePanel(book: ReadSignal<RunStateBook>) -> impl IntoView {
    let facts = Memo::new(move |_| book.with(run_state::fact_rows));
    let stores = Memo::new(move |_| book.with(run_state::stores));
    view! {
        <section class="panel state-panel" aria-labelledby="run-state-heading">
            <h2 id="run-state-heading">"Run state"</h2>
            <h3>"Confirmed facts"</h3>
            <p class="hint">
                "Ids that a tool result returned. An id the model names that is not here was not confirmed by any tool."
            </p>
            <Show
                when=move || facts.with(|f| !f.is_empty())
                fallback=|| view! { <p class="empty facts-empty">"No ids confirmed yet."</p> }
            >
                <ul class="facts">
                    {move || {
                        facts
                            .get()
                            .into_iter()
                            .map(|fact| {
                                view! {
                                    <li class="fact">
                                        <code>{format!("{} = {}", fact.name, fact.value)}</code>
                                        " "
                                        <span class="fact-source">{fact.source}</span>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ul>
            </Show>
            <h3>"Tool state"</h3>
            <Show
                when=move || stores.with(|s| !s.is_empty())
                fallback=|| view! {
                    <p class="empty">"This run's tools keep no state (only the built-in order and refund tools do)."</p>
                }
            >
                {move || {
                    stores
                        .get()
                        .into_iter()
                        .map(|store| {
                            view! {
                                <figure class="store" data-store=store.store>
                                    <figcaption>
                                        <strong>{store.store}</strong>
                                        " · "
                                        {store.caption}
                                    </figcaption>
                                    <pre class="event-pre" tabindex="0">{store.state}</pre>
                                </figure>
                            }
                        })
                        .collect_view()
                }}
            </Show>
        </section>
    }
}
