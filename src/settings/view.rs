//! The Model section: which model a run talks to, "Scripted (offline)" or a
//! provider, with its base URL, model, key, output cap and price. Every
//! field is checked as it is typed; a problem shows under its field (and
//! blocks Run, see `settings::state::ModelChoice::problems`).
//!
//! The API key is written to `localStorage` only while "Remember the key on
//! this device" is checked, and removed when it is unchecked.

use harness::prices;
use harness::provider::{ProviderSettings, SettingField};
use harness::wire::Provider;
#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;

use crate::browser::page;
use crate::settings::state::ModelChoice;
use crate::ui::field::Field;

fn source_value(source: Option<Provider>) -> String {
    match source.and_then(|p| Provider::ALL.iter().position(|q| *q == p)) {
        Some(i) => i.to_string(),
        None => "scripted".to_string(),
    }
}

/// The Model section, a split module: the first paint leaves it out (see
/// `lazy`), and a first run too: it is fetched once no run needs the
/// network (`Controller::quiet`), as it sits below the editor.
#[cfg_attr(feature = "split", lazy)]
pub async fn model_settings(choice: ModelChoice) -> AnyView {
    view! { <ModelSettings choice /> }.into_any()
}

#[component]
pub fn ModelSettings(choice: ModelChoice) -> impl IntoView {
    let on_source = move |ev| {
        let value = event_target_value(&ev);
        let provider = value
            .parse::<usize>()
            .ok()
            .and_then(|i| Provider::ALL.get(i).copied());
        if let Some(provider) = provider {
            if choice.source.get_untracked() != Some(provider) {
                choice
                    .base_url
                    .set(ProviderSettings::default_base_url(provider).to_string());
            }
        }
        choice.source.set(provider);
    };
    let on_key = move |ev| {
        let key = event_target_value(&ev);
        if choice.remember.get_untracked() {
            page::save_api_key(&key);
        }
        choice.key.set(key);
    };
    let on_remember = move |ev| {
        let on = event_target_checked(&ev);
        choice.remember.set(on);
        if on {
            page::save_api_key(&choice.key.get_untracked());
        } else {
            page::remove_api_key();
        }
    };
    // Autosave the settings (never the key); the scripted model removes them.
    Effect::new(move |_| {
        let json = choice
            .saved()
            .and_then(|saved| serde_json::to_string(&saved).ok());
        page::save_model_settings(json.as_deref());
    });
    let provider_chosen = move || choice.source.with(Option::is_some);
    let problems = Memo::new(move |_| choice.problems());
    // The first problem of a field, shown under it.
    let problem = move |field: SettingField| {
        Signal::derive(move || {
            problems.with(|p| {
                p.iter()
                    .find(|(f, _)| *f == field)
                    .map(|(_, message)| message.clone())
            })
        })
    };
    let price_note = move || {
        let listed = choice.model.with(|m| prices::listed_price(m));
        match listed {
            Some(listed) if choice.shows_price_of(listed) => {
                format!("Prefilled for {} from {}.", listed.model, listed.source)
            }
            _ if choice.input_price.with(|t| t.trim().is_empty())
                && choice.output_price.with(|t| t.trim().is_empty()) =>
            {
                "No listed price for this model: enter one, or the run's cost counts as $0."
                    .to_string()
            }
            _ => "Your price: the run's cost and cost budget use it.".to_string(),
        }
    };
    view! {
        <section class="model-settings" aria-label="Model">
            <h3>"Model"</h3>
            <Field id="model-source" label=|| "Model source">
            <select aria-label="Model source" on:change=on_source>
                <option value="scripted" prop:selected=move || choice.source.with(Option::is_none)>
                    "Scripted (offline)"
                </option>
                {Provider::ALL.map(|provider| view! {
                    <option
                        value=source_value(Some(provider))
                        prop:selected=move || choice.source.get() == Some(provider)
                    >
                        {provider.label()}
                    </option>
                })}
            </select>
            </Field>
            <Show when=provider_chosen>
                <Field id="model-base-url" label=|| "Base URL" problem=problem(SettingField::BaseUrl)>
                    <input
                        type="url"
                        spellcheck="false"
                        autocomplete="off"
                        prop:value=choice.base_url
                        on:input=move |ev| choice.base_url.set(event_target_value(&ev))
                    />
                </Field>
                <Field id="model-name" label=|| "Model" problem=problem(SettingField::Model)>
                    <input
                        type="text"
                        spellcheck="false"
                        autocomplete="off"
                        prop:value=choice.model
                        on:input=move |ev| choice.set_model_name(event_target_value(&ev))
                    />
                </Field>
                <Field id="model-key" label=|| "API key" problem=problem(SettingField::Key)>
                    <input
                        type="password"
                        autocomplete="off"
                        spellcheck="false"
                        prop:value=choice.key
                        on:input=on_key
                    />
                </Field>
                <Field id="model-max-tokens" label=|| "Max output tokens per call" problem=problem(SettingField::MaxOutputTokens)>
                    <input
                        type="text"
                        inputmode="numeric"
                        autocomplete="off"
                        placeholder="as the scenario's limits"
                        prop:value=choice.max_output_tokens
                        on:input=move |ev| choice.max_output_tokens.set(event_target_value(&ev))
                    />
                </Field>
                <fieldset class="model-price">
                    <legend>"Price (USD per million tokens)"</legend>
                    <Field id="model-price-in" label=|| "Input price" problem=problem(SettingField::InputPrice)>
                        <input
                            type="text"
                            inputmode="decimal"
                            autocomplete="off"
                            placeholder="0"
                            prop:value=choice.input_price
                            on:input=move |ev| choice.input_price.set(event_target_value(&ev))
                        />
                    </Field>
                    <Field id="model-price-out" label=|| "Output price" problem=problem(SettingField::OutputPrice)>
                        <input
                            type="text"
                            inputmode="decimal"
                            autocomplete="off"
                            placeholder="0"
                            prop:value=choice.output_price
                            on:input=move |ev| choice.output_price.set(event_target_value(&ev))
                        />
                    </Field>
                    <p class="price-note">{price_note}</p>
                </fieldset>
                <Field id="model-stream" label=|| "Streaming" check=true>
                    <input
                        type="checkbox"
                        prop:checked=choice.stream
                        on:change=move |ev| choice.stream.set(event_target_checked(&ev))
                    />
                </Field>
                <Field id="model-remember-key" label=|| "Remember the key on this device" check=true>
                    <input type="checkbox" prop:checked=choice.remember on:change=on_remember />
                </Field>
                <p class="key-warning">
                    "If remembered, the key is stored unencrypted in this browser's localStorage. "
                    "Otherwise it stays in memory and is gone when you close the tab."
                </p>
            </Show>
        </section>
    }
}
