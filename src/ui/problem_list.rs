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
        <Show when=any(problems)>
            // The alert is the box, not its list: a list given the alert
            // role stops being a list to a screen reader, and its title is
            // said with the problems.
            <div class="problems" role="alert">
                <p class="problems-title">"This scenario cannot run:"</p>
                <ul>{items(problems)}</ul>
            </div>
        </Show>
        <Show when=any(notes)>
            // The status holds the list, as the alert above does.
            <div role="status">
                <ul class="notes" aria-label="Notes on the scenario">{items(notes)}</ul>
            </div>
        </Show>
    }
}

// One closure type each for both lists: every distinct view type is more
// code in the first paint.
fn any(lines: Signal<Vec<String>>) -> impl Fn() -> bool + Send + Sync + 'static {
    move || lines.with(|l| !l.is_empty())
}

fn items(lines: Signal<Vec<String>>) -> impl Fn() -> Vec<AnyView> + Send + Sync + 'static {
    move || {
        lines
            .get()
            .into_iter()
            .map(|line| view! { <li>{line}</li> }.into_any())
            .collect()
    }
}
