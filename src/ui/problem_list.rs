//! What the live check says about the scenario: every load problem as
//! `path: message` (it cannot run), and the notes on one that runs
//! ("note: …": a call to a tool no tool declares, an unknown stop_reason),
//! which hold nothing up.

use leptos::prelude::*;

#[component]
pub fn ProblemList(
    #[prop(into)] problems: Signal<Vec<String>>,
    #[prop(into)] notes: Signal<Vec<String>>,
) -> impl IntoView {
    view! {
        <Show when=move || problems.with(|p| !p.is_empty())>
            <div class="problems">
                <p class="problems-title">"This scenario cannot run:"</p>
                <ul role="alert">
                    {move || {
                        problems
                            .get()
                            .into_iter()
                            .map(|problem| view! { <li>{problem}</li> })
                            .collect_view()
                    }}
                </ul>
            </div>
        </Show>
        <Show when=move || notes.with(|n| !n.is_empty())>
            <ul class="notes" role="status" aria-label="Notes on the scenario">
                {move || {
                    notes
                        .get()
                        .into_iter()
                        .map(|note| view! { <li>{note}</li> })
                        .collect_view()
                }}
            </ul>
        </Show>
    }
}
