//! The Model section: which model a run talks to. "Scripted (offline)" plays
//! the scenario's own responses; a provider sends each turn over HTTP.
//!
//! Invariant: the API key lives in a signal in memory only. It is written to
//! `localStorage` only while "Remember the key on this device" is checked,
//! and removed when it is unchecked; it is never part of a scenario, a
//! trace, a share link or a log line.

use harness::provider::{ApiKey, ProviderSettings};
use harness::wire::Provider;
use leptos::prelude::*;

use crate::browser::page;

/// The model settings, owned by the root component.
#[derive(Clone, Copy)]
pub struct ModelChoice {
    /// `None`: the scenario's scripted model.
    pub source: RwSignal<Option<Provider>>,
    pub base_url: RwSignal<String>,
    pub model: RwSignal<String>,
    pub key: RwSignal<String>,
    pub stream: RwSignal<bool>,
    pub remember: RwSignal<bool>,
}

impl Default for ModelChoice {
    fn default() -> Self {
        Self::new()
    }
}

impl ModelChoice {
    pub fn new() -> Self {
        let saved = page::saved_api_key();
        let settings = page::saved_model_settings().and_then(|json| settings_from_json(&json));
        ModelChoice {
            source: RwSignal::new(settings.as_ref().map(|s| s.provider)),
            base_url: RwSignal::new(
                settings
                    .as_ref()
                    .map(|s| s.base_url.clone())
                    .unwrap_or_default(),
            ),
            model: RwSignal::new(
                settings
                    .as_ref()
                    .map(|s| s.model.clone())
                    .unwrap_or_default(),
            ),
            remember: RwSignal::new(saved.is_some()),
            key: RwSignal::new(saved.unwrap_or_default()),
            stream: RwSignal::new(settings.is_none_or(|s| s.stream)),
        }
    }

    /// The settings without the key, as the autosave keeps them; `None` for scripted.
    fn settings(&self) -> Option<ProviderSettings> {
        Some(ProviderSettings {
            provider: self.source.get()?,
            base_url: self.base_url.get(),
            model: self.model.get(),
            stream: self.stream.get(),
        })
    }

    /// The provider a run should use, with its key; `None` for the scripted model.
    pub fn current(&self) -> Option<(ProviderSettings, ApiKey)> {
        let provider = self.source.get_untracked()?;
        Some((
            ProviderSettings {
                provider,
                base_url: self.base_url.get_untracked().trim().to_string(),
                model: self.model.get_untracked().trim().to_string(),
                stream: self.stream.get_untracked(),
            },
            ApiKey::new(self.key.get_untracked().trim()),
        ))
    }
}

/// Reads autosaved settings; anything unreadable means the scripted model.
pub fn settings_from_json(json: &str) -> Option<ProviderSettings> {
    serde_json::from_str(json).ok()
}

fn source_value(source: Option<Provider>) -> String {
    match source.and_then(|p| Provider::ALL.iter().position(|q| *q == p)) {
        Some(i) => i.to_string(),
        None => "scripted".to_string(),
    }
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
            .settings()
            .and_then(|settings| serde_json::to_string(&settings).ok());
        page::save_model_settings(json.as_deref());
    });
    let provider_chosen = move || choice.source.with(Option::is_some);
    view! {
        <section class="model-settings" aria-label="Model">
            <h3>"Model"</h3>
            <label for="model-source">"Model source"</label>
            <select id="model-source" aria-label="Model source" on:change=on_source>
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
            <Show when=provider_chosen>
                <label for="model-base-url">"Base URL"</label>
                <input
                    id="model-base-url"
                    type="url"
                    spellcheck="false"
                    autocomplete="off"
                    prop:value=choice.base_url
                    on:input=move |ev| choice.base_url.set(event_target_value(&ev))
                />
                <label for="model-name">"Model"</label>
                <input
                    id="model-name"
                    type="text"
                    spellcheck="false"
                    autocomplete="off"
                    prop:value=choice.model
                    on:input=move |ev| choice.model.set(event_target_value(&ev))
                />
                <label for="model-key">"API key"</label>
                <input
                    id="model-key"
                    type="password"
                    autocomplete="off"
                    spellcheck="false"
                    prop:value=choice.key
                    on:input=on_key
                />
                <label class="check">
                    <input
                        type="checkbox"
                        prop:checked=choice.stream
                        on:change=move |ev| choice.stream.set(event_target_checked(&ev))
                    />
                    "Streaming"
                </label>
                <label class="check">
                    <input type="checkbox" prop:checked=choice.remember on:change=on_remember />
                    "Remember the key on this device"
                </label>
                <p class="key-warning">
                    "If remembered, the key is stored unencrypted in this browser's localStorage. "
                    "Otherwise it stays in memory and is gone when you close the tab."
                </p>
            </Show>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_settings_round_trip_and_junk_means_scripted() {
        let settings = ProviderSettings {
            provider: Provider::OpenaiChat,
            base_url: "http://127.0.0.1:1234".into(),
            model: "scripted".into(),
            stream: false,
        };
        let json = serde_json::to_string(&settings).unwrap();
        assert!(!json.contains("key"));
        assert_eq!(settings_from_json(&json), Some(settings));
        assert_eq!(settings_from_json("not json"), None);
    }
}
