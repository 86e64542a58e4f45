//! The second way in: the scenario in the editor (A) against a variant of
//! it (B), edited with the same form as A (its fields marked where B
//! differs from A) or as JSON.
//!
//! B starts as a copy of A, and follows the scenario picked: a pair's half
//! brings the pair's other half, any other built-in a copy of itself
//! (`compare::variant_b`), and running a pair brings its other half back.
//! A B the person edited is put aside then, with a button to bring it back.

use leptos::prelude::*;

use crate::compare::variant_b;
use crate::state::editor::Editor;
use crate::state::form_doc::{FormDoc, Variant};
use crate::ui::field::Field;
use crate::ui::scenario_form::ScenarioForm;

use super::b_form::BForm;
use super::Launcher;

/// The `localStorage` key that says the person emptied B on purpose (an
/// empty B is not saved): a reload then keeps it empty, not a copy of A.
const EMPTIED_KEY: &str = "agent-loop-playground.variant-emptied";

/// B, and what the page did to it last.
#[derive(Clone, Copy)]
pub(super) struct VariantB {
    variant: Variant,
    /// The text the page put into B last (a copy, a pair's half): replacing
    /// it loses nothing the person made.
    put: StoredValue<Option<String>>,
    /// The person's Bs put aside when the page replaced them, the latest last.
    aside: RwSignal<Vec<String>>,
    /// What happened to B last, said above it.
    notice: RwSignal<Option<String>>,
}

impl VariantB {
    /// B as kept in this browser, or else a copy of A.
    fn new(editor: Editor) -> Self {
        let kept = crate::browser::page::saved_variant().is_some() || emptied();
        let b = VariantB {
            variant: Variant::new(),
            put: StoredValue::new(None),
            aside: RwSignal::new(Vec::new()),
            notice: RwSignal::new(None),
        };
        if !kept {
            b.put_in(editor.text().get_untracked(), None);
        }
        Effect::new(move |_| set_emptied(b.variant.text().with(|t| t.trim().is_empty())));
        b
    }

    /// Puts `text` into B, saying `notice`; the person's own B, if replaced,
    /// is put aside. Nothing happens when B holds `text` already.
    fn put_in(self, text: String, notice: Option<String>) {
        let current = self.variant.text().get_untracked();
        if current == text {
            return;
        }
        self.keep_aside(current);
        self.put.set_value(Some(text.clone()));
        self.variant.replace(text);
        self.notice.set(notice);
    }

    /// B follows the scenario `picked` (see the module's doc).
    pub(super) fn follow(self, picked: String) {
        let (id, notice) = variant_b::follows(&picked);
        if id.is_empty() {
            return;
        }
        crate::browser::runner::start(async move {
            if let Some(json) = crate::lazy::builtin_json(id.to_string()).await {
                self.put_in(json.to_string(), Some(notice));
            }
        });
    }

    /// B's `current` text, put aside if it is the person's own work.
    fn keep_aside(self, current: String) {
        if variant_b::worth_keeping(&current, self.put.get_value().as_deref()) {
            self.aside.update(|aside| aside.push(current));
        }
    }

    /// The person's B put aside last, back in B; the B it replaces is put
    /// aside in turn if it is theirs too.
    fn bring_back(self) {
        let Some(text) = self.aside.try_update(Vec::pop).flatten() else {
            return;
        };
        let current = self.variant.text().get_untracked();
        self.keep_aside(current);
        self.put.set_value(None);
        self.variant.replace(text);
        self.notice.set(Some("Your edited B is back.".to_string()));
    }
}

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

pub(super) fn variant_way(launcher: Launcher, editor: Editor, b: VariantB) -> impl IntoView {
    let variant = b.variant;
    let form = BForm::new(variant, editor);
    let copy_a = move |_| {
        b.put_in(
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
            {move || b.notice.get().map(|notice| view! {
                <p class="variant-notice" role="status">
                    {notice}
                    {move || b.aside.with(|aside| !aside.is_empty()).then(|| view! {
                        {move || match b.aside.with(Vec::len) {
                            1 => " One edited B of yours is put aside. ".to_string(),
                            n => format!(" {n} edited Bs of yours are put aside, the latest first. "),
                        }}
                        <button type="button" class="variant-bring-back" on:click=move |_| b.bring_back()>
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

/// B, made once with the panel, following the scenario picked from then on.
pub(super) fn variant_b(editor: Editor) -> VariantB {
    let b = VariantB::new(editor);
    // The pick as the panel was drawn is not a change: B stays as kept.
    Effect::new(move |before: Option<String>| {
        let picked = editor.selected().get();
        if before.is_some_and(|before| before != picked) {
            b.follow(picked.clone());
        }
        picked
    });
    b
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
