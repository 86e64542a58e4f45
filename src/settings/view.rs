//! The Model section: which model a run talks to, "Scripted (offline)" or a
//! provider, with its base URL, model, key, output cap and price. Every
//! field is checked as it is typed; a problem shows under its field (and
//! blocks Run, see `settings::model::ModelSettings::problems`).
//!
//! The API key is written to `localStorage` only while "Remember the key on
//! this device" is checked, and removed when it is unchecked.

use harness::provider::{ApiKey, SettingField};
use harness::wire::Provider;
#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;

use crate::settings::model::{ModelSettings, SettingsMsg};
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
        choice.send(SettingsMsg::SourcePicked(provider));
    };
    // What a text field shows, and the message its typing sends.
    let text = move |read: fn(&ModelSettings) -> &str| move || choice.with(|s| read(s).to_string());
    let typed =
        move |msg: fn(String) -> SettingsMsg| move |ev| choice.send(msg(event_target_value(&ev)));
    let provider_chosen = move || choice.source().is_some();
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
    view! {
        <section class="model-settings" aria-label="Model">
            <h3>"Model"</h3>
            <Field id="model-source" label=|| "Model source">
            <select aria-label="Model source" on:change=on_source>
                <option value="scripted" prop:selected=move || choice.source().is_none()>
                    "Scripted (offline)"
                </option>
                {Provider::ALL.map(|provider| view! {
                    <option
                        value=source_value(Some(provider))
                        prop:selected=move || choice.source() == Some(provider)
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
                        prop:value=text(ModelSettings::base_url)
                        on:input=typed(SettingsMsg::BaseUrlTyped)
                    />
                </Field>
                <Field id="model-name" label=|| "Model" problem=problem(SettingField::Model)>
                    <input
                        type="text"
                        spellcheck="false"
                        autocomplete="off"
                        prop:value=text(ModelSettings::model)
                        on:input=typed(SettingsMsg::ModelTyped)
                    />
                </Field>
                <Field id="model-key" label=|| "API key" problem=problem(SettingField::Key)>
                    <input
                        type="password"
                        autocomplete="off"
                        spellcheck="false"
                        prop:value=move || choice.with(|s| s.key().expose().to_string())
                        on:input=move |ev| choice.send(SettingsMsg::KeyTyped(ApiKey::new(event_target_value(&ev))))
                    />
                </Field>
                <Field id="model-max-tokens" label=|| "Max output tokens per call" problem=problem(SettingField::MaxOutputTokens)>
                    <input
                        type="text"
                        inputmode="numeric"
                        autocomplete="off"
                        placeholder="as the scenario's limits"
                        prop:value=text(ModelSettings::max_output_tokens)
                        on:input=typed(SettingsMsg::MaxOutputTokensTyped)
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
                            prop:value=text(ModelSettings::input_price)
                            on:input=typed(SettingsMsg::InputPriceTyped)
                        />
                    </Field>
                    <Field id="model-price-out" label=|| "Output price" problem=problem(SettingField::OutputPrice)>
                        <input
                            type="text"
                            inputmode="decimal"
                            autocomplete="off"
                            placeholder="0"
                            prop:value=text(ModelSettings::output_price)
                            on:input=typed(SettingsMsg::OutputPriceTyped)
                        />
                    </Field>
                    <p class="price-note">{move || choice.with(ModelSettings::price_note)}</p>
                </fieldset>
                <Field id="model-stream" label=|| "Streaming" check=true>
                    <input
                        type="checkbox"
                        prop:checked=move || choice.with(ModelSettings::stream)
                        on:change=move |ev| choice.send(SettingsMsg::StreamingSet(event_target_checked(&ev)))
                    />
                </Field>
                <Field id="model-remember-key" label=|| "Remember the key on this device" check=true>
                    <input type="checkbox" prop:checked=move || choice.with(ModelSettings::remember)
                        on:change=move |ev| choice.send(SettingsMsg::RememberKeySet(event_target_checked(&ev))) />
                </Field>
                <p class="key-warning">
                    "If remembered, the key is stored unencrypted in this browser's localStorage. "
                    "Otherwise it stays in memory and is gone when you close the tab."
                </p>
            </Show>
        </section>
    }
}
