//! The Wire panel: a turn's model request as each provider would receive it
//! (one tab per format), a Copy button, and the protocol checker's verdict per
//! provider. Render-only: the bodies and verdicts come from `wire_view`.
//!
//! Nothing is computed while the panel is closed, so a long run streams at
//! full speed.

use harness::event::RunEvent;
use harness::wire::{Provider, RequestShape};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::browser::page;
use crate::lazy;
use crate::wire_view;

#[component]
pub fn WirePanel(
    #[prop(into)] events: Signal<Vec<RunEvent>>,
    #[prop(into)] setup: Signal<RequestShape>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let selected = RwSignal::new(None::<u32>);
    let tab = RwSignal::new(Provider::Anthropic);
    let notice = RwSignal::new(None::<String>);

    let turns = Memo::new(move |_| {
        if open.get() {
            events.with(|e| wire_view::request_turns(e))
        } else {
            Vec::new()
        }
    });
    let turn = Memo::new(move |_| {
        if !open.get() {
            return None;
        }
        let selected = selected.get();
        events.with(|e| wire_view::effective_turn(e, selected))
    });
    // Computed by a split module (crate::lazy), fetched when the panel first
    // shows a turn; `None` until then and while there is no turn.
    let wires = LocalResource::new(move || {
        // Closed, `turn` is `None` and the log is not even read.
        let input = turn.get().map(|turn| (events.get(), setup.get(), turn));
        async move {
            match input {
                Some((events, setup, turn)) => lazy::wire_for_turn(events, setup, turn).await,
                None => None,
            }
        }
    });
    let body = move || {
        let provider = tab.get();
        wires.with(|w| {
            w.as_ref()
                .and_then(Option::as_ref)
                .and_then(|w| w.iter().find(|p| p.provider == provider))
                .map(|p| p.body.clone())
                .unwrap_or_default()
        })
    };
    let copy = move |_| {
        let text = body();
        spawn_local(async move {
            let message = match page::copy_text(&text).await {
                Ok(()) => "Request body copied to the clipboard.",
                Err(()) => "This browser would not copy: select the text and copy it.",
            };
            notice.set(Some(message.to_string()));
        });
    };

    view! {
        <section class="panel wire" aria-labelledby="wire-heading">
            <div class="wire-heading">
                <h2 id="wire-heading">"Wire"</h2>
                <button
                    type="button"
                    class="wire-toggle"
                    aria-expanded=move || open.get().to_string()
                    aria-controls="wire-body"
                    on:click=move |_| open.update(|o| *o = !*o)
                >
                    {move || if open.get() { "Hide request bodies" } else { "Show request bodies" }}
                </button>
            </div>
            <Show when=move || open.get()>
                <div id="wire-body" class="wire-body">
                    <Show
                        when=move || turns.with(|t| !t.is_empty())
                        fallback=|| view! { <p class="empty">"No model request yet: run a scenario."</p> }
                    >
                        <label class="wire-turn">
                            "Turn "
                            <select
                                aria-label="Turn"
                                on:change=move |ev| selected.set(event_target_value(&ev).parse().ok())
                            >
                                {move || turns.get().into_iter().map(|t| view! {
                                    <option value=t.to_string() prop:selected=move || turn.get() == Some(t)>
                                        {format!("Turn {t}")}
                                    </option>
                                }).collect_view()}
                            </select>
                        </label>
                        <div class="wire-tabs" role="tablist" aria-label="Wire format">
                            {Provider::ALL.map(|provider| view! {
                                <button
                                    type="button"
                                    role="tab"
                                    class="wire-tab"
                                    aria-selected=move || (tab.get() == provider).to_string()
                                    aria-controls="wire-tabpanel"
                                    on:click=move |_| tab.set(provider)
                                >
                                    {provider.label()}
                                </button>
                            })}
                        </div>
                        <div id="wire-tabpanel" role="tabpanel" aria-label=move || tab.get().label()>
                            <pre class="wire-json">{body}</pre>
                            <button type="button" class="wire-copy" on:click=copy>"Copy"</button>
                            <span class="notice" aria-live="polite">{move || notice.get()}</span>
                        </div>
                        <h3 class="wire-verdict-title">"Checker verdict"</h3>
                        <ul class="wire-verdicts">
                            {move || wires.get().flatten().unwrap_or_default().into_iter().map(|wire| {
                                let accepted = wire.accepted();
                                view! {
                                    <li
                                        class="wire-verdict"
                                        class:rejected=!accepted
                                        data-provider=format!("{:?}", wire.provider)
                                    >
                                        <strong>{wire.label}": "</strong>
                                        {accepted.then_some("accepted")}
                                        {(!accepted).then(|| view! {
                                            <ul class="wire-violations">
                                                {wire.violations.into_iter().map(|v| view! {
                                                    <li class="wire-violation" data-path=v.path>
                                                        <code class="wire-error">{v.message}</code>
                                                        <p class="wire-explanation">{v.explanation}</p>
                                                    </li>
                                                }).collect_view()}
                                            </ul>
                                        })}
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    </Show>
                </div>
            </Show>
        </section>
    }
}
