//! What every run of a comparison takes: how its approval requests are
//! answered, and how many times each side runs with a provider.

use harness::wire::Provider;
use leptos::prelude::*;

use crate::lazy::AutoDecision;
use crate::state::comparison::{typed_count, MOST_TIMES};

use crate::ui::field::Field;

use super::{model_blocked, Launcher};

pub(super) fn approval_answer(launcher: Launcher) -> impl IntoView {
    view! {
        <Field id="compare-approvals" label=|| "Approval requests in these runs" wraps=true>
            <select
                on:change=move |ev| launcher.decide.set(if event_target_value(&ev) == "deny" { AutoDecision::Deny } else { AutoDecision::Approve })
            >
                <option value="approve">"Approve each"</option>
                <option value="deny">"Deny each"</option>
            </select>
        </Field>
    }
}

pub(super) fn runs_per_side_field(launcher: Launcher) -> impl IntoView {
    let Launcher {
        model_choice,
        times,
        ..
    } = launcher;
    let provider = move || model_choice.source.get();
    let blocked = move || model_blocked(model_choice);
    let why = move || times_hint(provider(), blocked(), &model_choice.model.get());
    view! {
        <div class="compare-times">
            <Field id="compare-times" label=|| "Runs per side " wraps=true hint=Signal::derive(why)>
                <input
                    type="number"
                    min="1"
                    max=MOST_TIMES.to_string()
                    prop:disabled=move || provider().is_none()
                    prop:value=move || if provider().is_some() { times.get().to_string() } else { "1".to_string() }
                    on:change=move |ev| {
                        if let Some(n) = typed_count(&event_target_value(&ev), MOST_TIMES) {
                            times.set(n);
                        }
                        // The count that applies, not what was typed: a
                        // signal set to its own value draws nothing anew.
                        show_in_field(&ev, times.get_untracked());
                    }
                />
            </Field>
        </div>
    }
}

/// Why a side runs as often as it does, under the field.
fn times_hint(provider: Option<Provider>, blocked: bool, model: &str) -> String {
    match provider {
        None => "1: the scenario's own model (scripted or rules) answers the same way every time, so one run a side shows all it does. Choose a provider in the Model settings (the Scenario tab, below the editor) to run each side up to 10 times and count what the real model did.".to_string(),
        Some(_) if blocked => "The Model settings have problems (listed there): fix them, and the runs go to the provider.".to_string(),
        Some(p) => format!("Each side runs up to {MOST_TIMES} times with {} ({}); the result counts how each run went. A fork runs once, with this provider.", p.label(), model.trim()),
    }
}

/// Writes `count` into the number field `ev` came from, so the field never
/// shows a count that does not apply (`-1`, `1e300`, `2.5`).
pub(super) fn show_in_field(ev: &leptos::ev::Event, count: u32) {
    event_target::<web_sys::HtmlInputElement>(ev).set_value(&count.to_string());
}
