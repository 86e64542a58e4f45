//! What every run of a comparison takes: how its approval requests are
//! answered, and how many times each side runs with a provider.

use leptos::prelude::*;

use crate::compare::model::{times_hint, MOST_TIMES};

use crate::ui::field::Field;

use super::{model_blocked, Launcher};

pub(super) fn approval_answer(launcher: Launcher) -> impl IntoView {
    view! {
        <Field id="compare-approvals" label=|| "Approval requests in these runs" wraps=true>
            <select
                on:change=move |ev| launcher.comparison.choose_deny(event_target_value(&ev) == "deny")
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
        comparison,
    } = launcher;
    let provider = move || model_choice.source();
    let blocked = move || model_blocked(model_choice);
    let why = move || {
        let (provider, blocked) = (provider(), blocked());
        model_choice.with(|s| times_hint(provider, blocked, s.model()))
    };
    view! {
        <div class="compare-times">
            <Field id="compare-times" label=|| "Runs per side " wraps=true hint=Signal::derive(why)>
                <input
                    type="number"
                    min="1"
                    max=MOST_TIMES.to_string()
                    prop:disabled=move || provider().is_none()
                    prop:value=move || if provider().is_some() { comparison.times().to_string() } else { "1".to_string() }
                    on:change=move |ev| {
                        comparison.type_times(event_target_value(&ev));
                        // The count that applies, not what was typed: a
                        // count set to its own value draws nothing anew.
                        show_in_field(&ev, untrack(|| comparison.times()));
                    }
                />
            </Field>
        </div>
    }
}

/// Writes `count` into the number field `ev` came from, so the field never
/// shows a count that does not apply (`-1`, `1e300`, `2.5`).
pub(super) fn show_in_field(ev: &leptos::ev::Event, count: u32) {
    event_target::<web_sys::HtmlInputElement>(ev).set_value(&count.to_string());
}
