//! The live numbers of the run: turn n / max, cost against the budget as a
//! gauge, elapsed time against the deadline, tool calls (requested, and what
//! became of them, counted as the stop banner and the cards count them) and
//! tokens.

use leptos::prelude::*;

use crate::view_model::{self, Counters, TOOL_CALLS_MEANING};

#[component]
pub fn CounterBar(
    #[prop(into)] counters: Signal<Counters>,
    #[prop(into)] elapsed_ms: Signal<u64>,
) -> impl IntoView {
    let gauge = move || counters.with(Counters::cost_fraction);
    view! {
        <dl class="counters" aria-label="Run counters">
            <div class="counter" data-counter="turn">
                <dt>"Turn"</dt>
                <dd>{move || counters.with(Counters::turn_text)}</dd>
            </div>
            <div class="counter" data-counter="cost">
                <dt>"Cost"</dt>
                <dd>
                    {move || counters.with(Counters::cost_text)}
                    <Show when=move || gauge().is_some()>
                        <meter
                            aria-label="Cost against the budget"
                            min="0" max="1" low="0.5" high="0.8" optimum="0"
                            prop:value=move || gauge().unwrap_or(0.0)
                        ></meter>
                    </Show>
                </dd>
            </div>
            <div class="counter" data-counter="elapsed">
                <dt>"Elapsed"</dt>
                <dd>{move || view_model::elapsed_text(elapsed_ms.get(), counters.with(|c| c.deadline_ms))}</dd>
            </div>
            <div class="counter" data-counter="tool-calls" title=TOOL_CALLS_MEANING>
                <dt>"Tool calls"</dt>
                <dd>{move || counters.with(Counters::tool_calls_text)}</dd>
            </div>
            <div class="counter" data-counter="tokens">
                <dt>"Tokens"</dt>
                <dd>{move || counters.with(Counters::tokens_text)}</dd>
            </div>
        </dl>
    }
}
