//! The second way in: the scenario in the editor (A) against a variant of
//! it (B), edited with the same form as A or as JSON.

use leptos::prelude::*;

use crate::state::editor::Editor;
use crate::state::form_doc::{FormDoc, Variant};
use crate::ui::scenario_form::ScenarioForm;

use super::Launcher;

pub(super) fn variant_way(launcher: Launcher, editor: Editor) -> impl IntoView {
    // B: a scenario text of its own, edited with the same form as A.
    let variant = Variant::new();
    view! {
        <div class="compare-way">
            <h3>"A/B: the scenario in the editor (A) against a variant (B)"</h3>
            <p class="hint">"Copy A into B, change a tool's description, schema or a limit in B, and run both."</p>
            <button type="button" class="copy-a-into-b" on:click=move |_| variant.replace(editor.text().get_untracked())>
                "Copy A into B"
            </button>
            <Show
                when=move || variant.text().with(|t| !t.trim().is_empty())
                fallback=|| view! { <p class="hint">"B is empty: copy A into it to start from A."</p> }
            >
                <details class="variant-form" open>
                    <summary>"Edit B with the form"</summary>
                    <ScenarioForm editor=variant problems=variant.problems() />
                </details>
            </Show>
            <label for="variant-json">"Variant B (JSON)"</label>
            <textarea
                id="variant-json"
                spellcheck="false"
                autocomplete="off"
                rows="8"
                prop:value=move || variant.text().get()
                on:input=move |ev| variant.replace(event_target_value(&ev))
            ></textarea>
            <ul class="field-problems" role="alert">
                {move || variant.problems().get().into_iter().map(|p| view! { <li>{format!("B: {p}")}</li> }).collect_view()}
            </ul>
            <button
                type="button"
                class="compare-ab"
                prop:disabled=move || launcher.cannot_start() || variant.text().with(|v| v.trim().is_empty())
                on:click=move |_| run(launcher, editor, variant)
            >
                "Run A and B"
            </button>
        </div>
    }
}

/// Runs A, the editor's text, and B, the variant's, as they are now.
fn run(launcher: Launcher, editor: Editor, variant: Variant) {
    let a = editor.text().get_untracked();
    let b = variant.text().get_untracked();
    let choice = launcher.decide.get_untracked();
    launcher.start(
        "Running A and B…".to_string(),
        Box::new(move |token, rounds| {
            Box::pin(async move {
                crate::lazy::offstage()
                    .await
                    .run_both(
                        ("A".to_string(), a),
                        ("B".to_string(), b),
                        choice,
                        token,
                        rounds,
                    )
                    .await
            })
        }),
    );
}
