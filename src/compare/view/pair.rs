//! The first way in: the scenario picked and its pair's other half (a
//! pitfall's naive and fixed scenarios, a tool-schema pair's A and B), run
//! side by side in one click, from here or from the header.

use harness::library::{self, Pair};
use leptos::prelude::*;

use crate::editor::state::Editor;

use super::Launcher;

pub(super) fn pair_way(
    launcher: Launcher,
    editor: Editor,
    pair_wanted: RwSignal<bool>,
) -> impl IntoView {
    // The pair's A (or naive) half always goes on the left.
    let pair = Memo::new(move |_| editor.selected().with(|id| library::pair_containing(id)));
    let run_pair = move || {
        if let Some(pair) = pair.get_untracked() {
            // B follows the pair run: its other half, as A is this one.
            launcher
                .comparison
                .follow(editor.selected().get_untracked());
            run(launcher, pair);
        }
    };
    // The header's request, taken once this panel is drawn (the Compare
    // mode's first opening fetches it) or at once when it already is. Taken
    // even when a comparison cannot start now, so it never fires later.
    Effect::new(move |_| {
        if pair_wanted.get() {
            pair_wanted.set(false);
            if !untrack(move || launcher.cannot_start()) {
                run_pair();
            }
        }
    });
    view! {
        <div class="compare-way">
            <h3>"Pair"</h3>
            {move || match pair.get() {
                Some(pair) => view! {
                    <p>{
                        let (a, b) = pair.roles();
                        format!("This scenario is half of {}: {} ({a}) and {} ({b}).", pair.kind_words(), pair.a, pair.b)
                    }</p>
                    <button type="button" class="compare-pair" prop:disabled=move || launcher.cannot_start() on:click=move |_| run_pair()>
                        "Run the pair side by side"
                    </button>
                }.into_any(),
                None => view! {
                    <p class="hint">"Pick a scenario marked “⇄ pair” in the picker (the pitfalls and the tool-schema effects) to run it beside its counterpart."</p>
                }.into_any(),
            }}
        </div>
    }
}

/// Runs both halves of `pair`, each from its built-in file.
fn run(launcher: Launcher, pair: Pair) {
    let choice = launcher.comparison.decide();
    let (a_label, b_label) = pair.labels();
    launcher.start(
        format!("Running {} and {}…", pair.a, pair.b),
        Box::new(move |token, rounds| {
            Box::pin(async move {
                // The built-ins' files are a split module (`lazy::builtin_json`).
                let a_json = crate::lazy::builtin_json(pair.a.to_string())
                    .await
                    .unwrap_or_default();
                let b_json = crate::lazy::builtin_json(pair.b.to_string())
                    .await
                    .unwrap_or_default();
                crate::lazy::offstage()
                    .await
                    .run_both(
                        (a_label, a_json.to_string()),
                        (b_label, b_json.to_string()),
                        choice,
                        token,
                        rounds,
                    )
                    .await
            })
        }),
    );
}
