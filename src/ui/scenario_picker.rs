//! The scenario `<select>`: built-ins grouped by `<optgroup>`, then "Custom".

use leptos::prelude::*;

use crate::view_model::{ScenarioGroup, CUSTOM};

#[component]
pub fn ScenarioPicker(
    groups: Vec<ScenarioGroup>,
    #[prop(into)] selected: Signal<String>,
    #[prop(into)] on_select: Callback<String>,
) -> impl IntoView {
    // `prop:selected` on each option (rather than `prop:value` on the select)
    // stays right however the options and the value are ordered when mounting.
    let option = move |value: &'static str, label: String, expected: Option<&'static str>| {
        view! {
            <option
                value=value
                data-expected=expected
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
                                .map(|o| option(o.id, o.label, Some(o.expected_status)))
                                .collect_view()}
                        </optgroup>
                    }
                })
                .collect_view()}
            {option(CUSTOM, "Custom (paste JSON)".to_string(), None)}
        </select>
    }
}
