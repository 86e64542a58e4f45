//! The second way in: the scenario in the editor (A) against a variant of
//! it (B), edited with the same form as A (its fields marked where B
//! differs from A) or as JSON.
//!
//! B starts as a copy of A, and follows the scenario picked: a pair's half
//! brings the pair's other half, any other built-in a copy of itself
//! (`compare::variant_b`), and running a pair brings its other half back.
//! A B the person edited is put aside then, with a button to bring it back.

use leptos::prelude::*;

use crate::compare::state::Comparison;
use crate::editor::state::Editor;
use crate::editor::view::scenario_form::ScenarioForm;
use crate::state::form_doc::{FormDoc, Variant};
use crate::ui::field::Field;

use super::b_form::BForm;
use super::Launcher;

/// The `localStorage` key that says the person emptied B on purpose (an
/// empty B is not saved): a reload then keeps it empty, not a copy of A.
const EMPTIED_KEY: &str = "agent-loop-playground.variant-emptied";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn emptied() -> bool {
    storage()
        .and_then(|s| s.get_item(EMPTIED_KEY).ok().flatten())
        .is_some()
}

fn set_emptied(empty: bool) {
    if let Some(storage) = storage() {
        let _ = if empty {
            storage.set_item(EMPTIED_KEY, "emptied")
        } else {
            storage.remove_item(EMPTIED_KEY)
        };
    }
}

pub(super) fn variant_way(launcher: Launcher, editor: Editor) -> impl IntoView {
    let b = launcher.comparison;
    let variant = b.variant();
    let (notice, aside) = (b.b_notice(), b.b_aside());
    let form = BForm::new(variant, editor);
    let copy_a = move |_| {
        b.put_b(
            editor.text().get_untracked(),
            Some("B is now a copy of A as A is in the editor.".to_string()),
        )
    };
    view! {
        <div class="compare-way">
            <h3>"A/B: the scenario in the editor (A) against a variant (B)"</h3>
            <p class="hint">"B starts as a copy of A, or as the other half of a pair: change a tool's description, schema or a limit in B, and run both. The fields where B differs from A are marked “≠ differs from A”."</p>
            <button type="button" class="copy-a-into-b" on:click=copy_a>
                "Copy A into B"
            </button>
            {move || notice.get().map(|notice| view! {
                <p class="variant-notice" role="status">
                    {notice}
                    {move || (aside.get() > 0).then(|| view! {
                        {move || match aside.get() {
                            1 => " One edited B of yours is put aside. ".to_string(),
                            n => format!(" {n} edited Bs of yours are put aside, the latest first. "),
                        }}
                        <button type="button" class="variant-bring-back" on:click=move |_| b.bring_back_b()>
                            "Bring back my edited B"
                        </button>
                    })}
                </p>
            })}
            <Show
                when=move || variant.text().with(|t| !t.trim().is_empty())
                fallback=|| view! { <p class="hint">"B is empty: copy A into it to start from A."</p> }
            >
                {form.outside_note()}
                <details class="variant-form" open>
                    <summary>"Edit B with the form"</summary>
                    <ScenarioForm editor=form problems=variant.problems() />
                </details>
            </Show>
            <Field id="variant-json" label=|| "Variant B (JSON)">
                <textarea
                    spellcheck="false"
                    autocomplete="off"
                    rows="8"
                    prop:value=move || variant.text().get()
                    on:input=move |ev| variant.replace(event_target_value(&ev))
                ></textarea>
            </Field>
            // The alert holds the list: a list with the alert role is no list to a screen reader.
            <div role="alert">
                <ul class="field-problems">
                    {move || variant.problems().get().into_iter().map(|p| view! { <li>{format!("B: {p}")}</li> }).collect_view()}
                </ul>
            </div>
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

/// B, made once with the panel: as kept in this browser, or else a copy
/// of A; following the scenario picked from then on.
pub(super) fn variant_b(editor: Editor, b: Comparison) {
    let kept = crate::browser::page::saved_variant().is_some() || emptied();
    if !kept {
        b.put_b(editor.text().get_untracked(), None);
    }
    let variant = b.variant();
    Effect::new(move |_| set_emptied(variant.text().with(|t| t.trim().is_empty())));
    // The pick as the panel was drawn is not a change: B stays as kept.
    Effect::new(move |before: Option<String>| {
        let picked = editor.selected().get();
        if before.is_some_and(|before| before != picked) {
            b.follow(picked.clone());
        }
        picked
    });
}

/// Runs A, the editor's text, and B, the variant's, as they are now.
fn run(launcher: Launcher, editor: Editor, variant: Variant) {
    let a = editor.text().get_untracked();
    let b = variant.text().get_untracked();
    let choice = launcher.comparison.decide();
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
