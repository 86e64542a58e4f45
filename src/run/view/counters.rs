//! The live numbers of the run: turn n / max, cost against the budget as a
//! gauge, elapsed time against the deadline, tool calls (requested, and what
//! became of them, counted as the stop banner and the cards count them) and
//! tokens. Each shows its value against its limit; the one whose limit
//! stopped the run is marked in words and shape (⊘), not only colour.

use leptos::prelude::*;

use crate::run::view_model::{self, Counters, TOOL_CALLS_MEANING};

#[component]
pub fn CounterBar(
    #[prop(into)] counters: Signal<Counters>,
    #[prop(into)] elapsed_ms: Signal<u64>,
    /// Step mode holds the run: its clock stands still (`harness::driver`).
    #[prop(into)]
    clock_held: Signal<bool>,
) -> impl IntoView {
    let gauge = move || counters.with(Counters::cost_fraction);
    let tripped = move |name: &'static str| counters.with(|c| c.tripped_counter() == Some(name));
    let mark = move |name: &'static str| {
        move || {
            tripped(name).then(|| {
                view! { <span class="tripped-mark" id=format!("tripped-{name}")>"⊘ stopped the run"</span> }
            })
        }
    };
    let described =
        move |name: &'static str| move || tripped(name).then(|| format!("tripped-{name}"));
    // The mark sits in the term (a `<dl>`'s groups hold only `<dt>` and
    // `<dd>`), and the stylesheet draws it after the value.
    view! {
        <dl class="counters" aria-label="Run counters">
            <div class="counter" data-counter="turn" class:tripped=move || tripped("turn") data-tripped=move || tripped("turn").then_some("true") aria-describedby=described("turn")>
                <dt>"Turn"{mark("turn")}</dt>
                <dd>{move || counters.with(Counters::turn_text)}</dd>
            </div>
            <div class="counter" data-counter="cost" class:tripped=move || tripped("cost") data-tripped=move || tripped("cost").then_some("true") aria-describedby=described("cost")>
                <dt>"Cost"{mark("cost")}</dt>
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
            <div class="counter" data-counter="elapsed" class:tripped=move || tripped("elapsed") data-tripped=move || tripped("elapsed").then_some("true") aria-describedby=described("elapsed")>
                <dt>"Elapsed"{mark("elapsed")}</dt>
                <dd>
                    {move || view_model::elapsed_text(elapsed_ms.get(), counters.with(|c| c.deadline_ms))}
                    <Show when=move || clock_held.get()>
                        <span class="clock-held" title="Step mode stops the run's clock while it waits for you: the deadline counts the run's own time.">" ‖ clock paused"</span>
                    </Show>
                </dd>
            </div>
            <div class="counter" data-counter="tool-calls" class:tripped=move || tripped("tool-calls") data-tripped=move || tripped("tool-calls").then_some("true") aria-describedby=described("tool-calls") title=TOOL_CALLS_MEANING>
                <dt>"Tool calls"{mark("tool-calls")}</dt>
                <dd>{move || counters.with(Counters::tool_calls_text)}</dd>
            </div>
            <div class="counter" data-counter="tokens" class:tripped=move || tripped("tokens") data-tripped=move || tripped("tokens").then_some("true") aria-describedby=described("tokens")>
                <dt>"Tokens"{mark("tokens")}</dt>
                <dd>{move || counters.with(Counters::tokens_text)}</dd>
            </div>
        </dl>
    }
}
