//! The scenario `<select>`: built-ins grouped by `<optgroup>`, then the
//! person's own scenario, labelled with where it came from ("Edited from
//! Turn limit", "From a shared link", "Custom (paste JSON)").

use leptos::prelude::*;

use crate::run::view_model::{ScenarioGroup, CUSTOM};

#[component]
pub fn ScenarioPicker(
    groups: Vec<ScenarioGroup>,
    #[prop(into)] selected: Signal<String>,
    /// The last option's label: where a scenario that is no built-in came from.
    #[prop(into)]
    custom_label: Signal<String>,
    #[prop(into)] on_select: Callback<String>,
) -> impl IntoView {
    // `prop:selected` on each option (rather than `prop:value` on the select)
    // stays right however the options and the value are ordered when mounting.
    // `data-expected` (and `data-clock-age-ms`, how old the page must be for
    // that status) let the end-to-end test run every built-in that needs
    // no MCP server running.
    let option = move |value: &'static str,
                       label: Signal<String>,
                       expected: Option<(&'static str, u64)>| {
        view! {
            <option
                value=value
                data-expected=expected.map(|(status, _)| status)
                data-clock-age-ms=expected.and_then(|(_, age)| (age > 0).then(|| age.to_string()))
                prop:selected=move || selected.with(|s| s == value)
            >
                {label}
            </option>
        }
    };
    view! {
        <label for="scenario-picker">"Scenario"</label>
        <select
            id="scenario-picker"
            on:change=move |ev| on_select.run(event_target_value(&ev))
        >
            {groups
                .into_iter()
                .map(|group| {
                    view! {
                        <optgroup label=group.name>
                            {group
                                .options
                                .into_iter()
                                .map(|o| {
                                    // No status is promised for a scenario whose server may not run.
                                    let expected = (!o.needs_server).then_some((o.expected_status, o.clock_age_ms));
                                    option(o.id, Signal::stored(o.label), expected)
                                })
                                .collect_view()}
                        </optgroup>
                    }
                })
                .collect_view()}
            {option(CUSTOM, custom_label, None)}
        </select>
    }
}
