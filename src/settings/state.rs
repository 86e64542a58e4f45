//! The Model settings' state: which model a run talks to. "Scripted
//! (offline)" plays the scenario's own responses; a provider sends each turn
//! over HTTP. The section that edits it is `settings::view`.
//!
//! A provider run also takes its output cap and its price from here: the
//! price is prefilled from `harness::prices` when the model is listed there,
//! and the run's cost counter, cost budget and stop banner use it instead of
//! the scenario's `pricing` (which describes the scripted model).
//!
//! Every field is checked as it is typed; a problem shows under its field and
//! disables Run, as the scenario form's field errors do.
//!
//! Invariant: the API key lives in a signal in memory only. It is written to
//! `localStorage` only while "Remember the key on this device" is checked,
//! and removed when it is unchecked; it is never part of a scenario, a
//! trace, a share link or a log line.

use harness::model::Pricing;
use harness::prices::{self, ListedPrice};
use harness::provider::{self, ApiKey, ProviderRun, ProviderSettings, SettingField};
use harness::wire::Provider;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::browser::{csp, page};

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
    /// As typed; empty means the scenario's `limits.max_output_tokens`.
    pub max_output_tokens: RwSignal<String>,
    /// USD per million tokens, as typed; empty means $0.
    pub input_price: RwSignal<String>,
    pub output_price: RwSignal<String>,
}

/// What the autosave keeps: the settings and the run's cap and price, never
/// the key. Older saves (the settings alone) still read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SavedModel {
    #[serde(flatten)]
    pub settings: Option<ProviderSettings>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub max_output_tokens: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub input_price: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub output_price: String,
}

impl Default for ModelChoice {
    fn default() -> Self {
        Self::new()
    }
}

impl ModelChoice {
    pub fn new() -> Self {
        let saved = page::saved_api_key();
        let model = page::saved_model_settings()
            .and_then(|json| settings_from_json(&json))
            .unwrap_or_default();
        let settings = model.settings;
        // A listed model saved without a price (an older save) gets its price.
        let listed = settings
            .as_ref()
            .and_then(|s| prices::listed_price(&s.model));
        let (input_price, output_price) = match listed {
            Some(listed) if model.input_price.is_empty() && model.output_price.is_empty() => (
                price_text(listed.input_usd_per_mtok),
                price_text(listed.output_usd_per_mtok),
            ),
            _ => (model.input_price, model.output_price),
        };
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
            max_output_tokens: RwSignal::new(model.max_output_tokens),
            input_price: RwSignal::new(input_price),
            output_price: RwSignal::new(output_price),
        }
    }

    /// What the autosave writes; `None` for the scripted model.
    pub fn saved(&self) -> Option<SavedModel> {
        Some(SavedModel {
            settings: Some(self.settings()?),
            max_output_tokens: self.max_output_tokens.get(),
            input_price: self.input_price.get(),
            output_price: self.output_price.get(),
        })
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

    /// Why these settings cannot run, per field, tracked (Run's blocker and
    /// the fields' errors read it); empty for the scripted model.
    pub fn problems(&self) -> Vec<(SettingField, String)> {
        let Some(provider) = self.source.get() else {
            return Vec::new();
        };
        let settings = ProviderSettings {
            provider,
            base_url: self.base_url.get(),
            model: self.model.get(),
            stream: self.stream.get(),
        };
        setting_problems(
            &settings,
            &ApiKey::new(self.key.get()),
            &self.max_output_tokens.get(),
            &self.input_price.get(),
            &self.output_price.get(),
            &csp::page_origin(),
        )
    }

    /// The problems as lines, for the Run blocker.
    pub fn problem_lines(&self) -> Vec<String> {
        self.problems().into_iter().map(|(_, line)| line).collect()
    }

    /// The provider run to start, or `None` for the scripted model (or
    /// settings that cannot run, which Run is disabled for anyway).
    pub fn current(&self) -> Option<ProviderRun> {
        let provider = self.source.get_untracked()?;
        Some(ProviderRun {
            settings: ProviderSettings {
                provider,
                base_url: self.base_url.get_untracked().trim().to_string(),
                model: self.model.get_untracked().trim().to_string(),
                stream: self.stream.get_untracked(),
            },
            key: ApiKey::new(self.key.get_untracked().trim()),
            max_output_tokens: provider::parse_max_output_tokens(
                &self.max_output_tokens.get_untracked(),
            )
            .ok()?,
            pricing: Pricing {
                input_usd_per_mtok: prices::parse_usd_per_mtok(
                    &self.input_price.get_untracked(),
                    "Input price",
                )
                .ok()?,
                output_usd_per_mtok: prices::parse_usd_per_mtok(
                    &self.output_price.get_untracked(),
                    "Output price",
                )
                .ok()?,
            },
        })
    }

    /// A new model name: a listed model fills in its price; leaving a listed
    /// model clears the price it had filled in, unless the user changed it.
    pub fn set_model_name(&self, name: String) {
        let before = prices::listed_price(&self.model.get_untracked());
        match prices::listed_price(&name) {
            Some(listed) => {
                self.input_price.set(price_text(listed.input_usd_per_mtok));
                self.output_price
                    .set(price_text(listed.output_usd_per_mtok));
            }
            None => {
                let filled = before.is_some_and(|listed| {
                    holds_price(
                        &self.input_price.get_untracked(),
                        &self.output_price.get_untracked(),
                        listed,
                    )
                });
                if filled {
                    self.input_price.set(String::new());
                    self.output_price.set(String::new());
                }
            }
        }
        self.model.set(name);
    }

    /// Whether the price fields still hold `listed`'s figures (tracked).
    pub fn shows_price_of(&self, listed: &ListedPrice) -> bool {
        holds_price(&self.input_price.get(), &self.output_price.get(), listed)
    }
}

/// Whether the typed prices are `listed`'s figures.
fn holds_price(input: &str, output: &str, listed: &ListedPrice) -> bool {
    let same = |text: &str, value: f64| {
        !text.trim().is_empty() && prices::parse_usd_per_mtok(text, "") == Ok(value)
    };
    same(input, listed.input_usd_per_mtok) && same(output, listed.output_usd_per_mtok)
}

/// Reads autosaved settings; anything unreadable means the scripted model.
pub fn settings_from_json(json: &str) -> Option<SavedModel> {
    let saved: SavedModel = serde_json::from_str(json).ok()?;
    saved.settings.is_some().then_some(saved)
}

/// A price as the field shows it: `3`, `0.8`, `1.25`.
fn price_text(usd: f64) -> String {
    format!("{usd}")
}

/// Every problem with these settings, per field: the harness's checks of the
/// URL, model and key, the cap and prices as typed, and whether the page's
/// Content-Security-Policy lets it reach the base URL at all.
pub fn setting_problems(
    settings: &ProviderSettings,
    key: &ApiKey,
    max_output_tokens: &str,
    input_price: &str,
    output_price: &str,
    page_origin: &str,
) -> Vec<(SettingField, String)> {
    let mut problems = provider::check_settings(settings, key);
    if let Ok(url) = provider::parse_base_url(&settings.base_url) {
        if let Some(problem) = crate::connect_src::connect_problem(&url, page_origin) {
            problems.push((SettingField::BaseUrl, format!("Base URL: {problem}")));
        }
    }
    if let Err(e) = provider::parse_max_output_tokens(max_output_tokens) {
        problems.push((SettingField::MaxOutputTokens, e));
    }
    if let Err(e) = prices::parse_usd_per_mtok(input_price, "Input price") {
        problems.push((SettingField::InputPrice, e.to_string()));
    }
    if let Err(e) = prices::parse_usd_per_mtok(output_price, "Output price") {
        problems.push((SettingField::OutputPrice, e.to_string()));
    }
    // One order for the blocker and the fields: the form's order, which is
    // the fields' declaration order. Picked field by field rather than
    // sorted, so the web bundle carries no second copy of a sort.
    let mut ordered = Vec::with_capacity(problems.len());
    for field in SettingField::IN_FORM_ORDER {
        ordered.extend(problems.iter().filter(|(f, _)| *f == field).cloned());
    }
    ordered
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
        // An older save: the settings alone.
        let old = serde_json::to_string(&settings).unwrap();
        let saved = settings_from_json(&old).unwrap();
        assert_eq!(saved.settings.as_ref(), Some(&settings));
        assert_eq!(saved.max_output_tokens, "");
        let saved = SavedModel {
            max_output_tokens: "512".into(),
            input_price: "3".into(),
            ..saved
        };
        let json = serde_json::to_string(&saved).unwrap();
        assert!(!json.contains("key"), "{json}");
        assert_eq!(settings_from_json(&json), Some(saved));
        assert_eq!(settings_from_json("not json"), None);
        assert_eq!(settings_from_json("{}"), None);
    }

    fn settings(base_url: &str) -> ProviderSettings {
        ProviderSettings {
            provider: Provider::Anthropic,
            base_url: base_url.into(),
            model: "m".into(),
            stream: true,
        }
    }

    const PAGE: &str = "http://127.0.0.1:8080";

    #[test]
    fn a_listed_price_is_recognised_as_typed_back() {
        let sonnet = prices::listed_price("claude-sonnet-4-0").unwrap();
        assert_eq!(price_text(sonnet.input_usd_per_mtok), "3");
        assert_eq!(price_text(0.8), "0.8");
        assert!(holds_price("3", "15", sonnet));
        assert!(holds_price(" 3.0", "$15", sonnet));
        assert!(!holds_price("3", "16", sonnet));
        assert!(!holds_price("", "15", sonnet));
    }

    #[test]
    fn every_field_says_what_is_wrong_in_the_forms_order() {
        let key = ApiKey::new("sk");
        let fine = setting_problems(&settings("http://localhost:8787"), &key, "", "", "", PAGE);
        assert_eq!(fine, vec![]);
        let bad = setting_problems(&settings("nope"), &key, "0", "-1", "x", PAGE);
        let fields: Vec<SettingField> = bad.iter().map(|(f, _)| *f).collect();
        assert_eq!(
            fields,
            vec![
                SettingField::BaseUrl,
                SettingField::MaxOutputTokens,
                SettingField::InputPrice,
                SettingField::OutputPrice
            ]
        );
        assert_eq!(bad[2].1, "Input price: a price cannot be negative (-1)");
    }
}
