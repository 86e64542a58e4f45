//! The Model settings as a plain model: which model a run talks to.
//! "Scripted (offline)" plays the scenario's own responses; a provider sends
//! each turn over HTTP, with the base URL, model name, key, output cap and
//! price typed here. `settings::state` holds it for the page and performs
//! its commands; `settings::view` draws it.
//!
//! A provider run takes its output cap and its price from here: the price is
//! prefilled from `harness::prices` when the model is listed there, and the
//! run's cost counter, cost budget and stop banner use it instead of the
//! scenario's `pricing` (which describes the scripted model).
//!
//! Every field is checked as it is typed; a problem shows under its field and
//! disables Run, as the scenario form's field errors do.
//!
//! Invariant: the API key is kept in memory only. The model asks for it to be
//! stored (`StoreKey`) only while "Remember the key on this device" is on,
//! asks for it to be forgotten when that is turned off, and the settings it
//! asks to autosave never hold it; nor does its `Debug`.

use harness::model::Pricing;
use harness::prices::{self, ListedPrice};
use harness::provider::{self, ApiKey, ProviderRun, ProviderSettings, SettingField};
use harness::wire::Provider;
use serde::{Deserialize, Serialize};

use crate::update::Update;

/// The settings as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelSettings {
    /// `None`: the scenario's scripted model.
    source: Option<Provider>,
    base_url: String,
    model: String,
    key: ApiKey,
    stream: bool,
    remember: bool,
    /// As typed; empty means the scenario's `limits.max_output_tokens`.
    max_output_tokens: String,
    /// USD per million tokens, as typed; empty means $0.
    input_price: String,
    output_price: String,
}

/// What a person does in the Model section.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingsMsg {
    /// A source picked: `None` is "Scripted (offline)".
    SourcePicked(Option<Provider>),
    BaseUrlTyped(String),
    ModelTyped(String),
    KeyTyped(ApiKey),
    MaxOutputTokensTyped(String),
    InputPriceTyped(String),
    OutputPriceTyped(String),
    StreamingSet(bool),
    RememberKeySet(bool),
}

/// What the settings ask of the browser's storage.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingsCmd {
    /// Keep the key on this device (asked only while "Remember" is on).
    StoreKey(ApiKey),
    /// Remove a kept key.
    ForgetKey,
    /// Keep these settings (JSON, never the key); `None` removes them, as
    /// the scripted model has none.
    Autosave(Option<String>),
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

impl Default for ModelSettings {
    fn default() -> Self {
        Self::restored(None, None)
    }
}

impl ModelSettings {
    /// The settings as this device kept them: `key` if it was remembered,
    /// `saved` the autosaved JSON. Anything unreadable is the scripted model.
    pub fn restored(key: Option<String>, saved: Option<&str>) -> Self {
        let saved = saved.and_then(settings_from_json).unwrap_or_default();
        let settings = saved.settings;
        // A listed model saved without a price (an older save) gets its price.
        let listed = settings
            .as_ref()
            .and_then(|s| prices::listed_price(&s.model));
        let (input_price, output_price) = match listed {
            Some(listed) if saved.input_price.is_empty() && saved.output_price.is_empty() => (
                price_text(listed.input_usd_per_mtok),
                price_text(listed.output_usd_per_mtok),
            ),
            _ => (saved.input_price, saved.output_price),
        };
        ModelSettings {
            source: settings.as_ref().map(|s| s.provider),
            base_url: settings
                .as_ref()
                .map(|s| s.base_url.clone())
                .unwrap_or_default(),
            model: settings
                .as_ref()
                .map(|s| s.model.clone())
                .unwrap_or_default(),
            remember: key.is_some(),
            key: ApiKey::new(key.unwrap_or_default()),
            stream: settings.is_none_or(|s| s.stream),
            max_output_tokens: saved.max_output_tokens,
            input_price,
            output_price,
        }
    }

    pub fn source(&self) -> Option<Provider> {
        self.source
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    pub fn model(&self) -> &str {
        &self.model
    }

    /// The key as typed, for its own (password) field only.
    pub fn key(&self) -> &ApiKey {
        &self.key
    }

    pub fn stream(&self) -> bool {
        self.stream
    }

    pub fn remember(&self) -> bool {
        self.remember
    }

    pub fn max_output_tokens(&self) -> &str {
        &self.max_output_tokens
    }

    pub fn input_price(&self) -> &str {
        &self.input_price
    }

    pub fn output_price(&self) -> &str {
        &self.output_price
    }

    /// What the autosave writes; `None` for the scripted model.
    pub fn saved(&self) -> Option<SavedModel> {
        Some(SavedModel {
            settings: Some(ProviderSettings {
                provider: self.source?,
                base_url: self.base_url.clone(),
                model: self.model.clone(),
                stream: self.stream,
            }),
            max_output_tokens: self.max_output_tokens.clone(),
            input_price: self.input_price.clone(),
            output_price: self.output_price.clone(),
        })
    }

    fn saved_json(&self) -> Option<String> {
        self.saved()
            .and_then(|saved| serde_json::to_string(&saved).ok())
    }

    /// Why these settings cannot run, per field, in the form's order; empty
    /// for the scripted model. `page_origin` is where the page is served
    /// from, which its Content-Security-Policy lets it reach.
    pub fn problems(&self, page_origin: &str) -> Vec<(SettingField, String)> {
        let Some(provider) = self.source else {
            return Vec::new();
        };
        let settings = ProviderSettings {
            provider,
            base_url: self.base_url.clone(),
            model: self.model.clone(),
            stream: self.stream,
        };
        setting_problems(
            &settings,
            &self.key,
            &self.max_output_tokens,
            &self.input_price,
            &self.output_price,
            page_origin,
        )
    }

    /// The provider run to start, or `None` for the scripted model (or
    /// settings that cannot run, which Run is disabled for anyway).
    pub fn current(&self) -> Option<ProviderRun> {
        let provider = self.source?;
        Some(ProviderRun {
            settings: ProviderSettings {
                provider,
                base_url: self.base_url.trim().to_string(),
                model: self.model.trim().to_string(),
                stream: self.stream,
            },
            key: ApiKey::new(self.key.expose().trim()),
            max_output_tokens: provider::parse_max_output_tokens(&self.max_output_tokens).ok()?,
            pricing: Pricing {
                input_usd_per_mtok: prices::parse_usd_per_mtok(&self.input_price, "Input price")
                    .ok()?,
                output_usd_per_mtok: prices::parse_usd_per_mtok(&self.output_price, "Output price")
                    .ok()?,
            },
        })
    }

    /// The line under the price fields: where a prefilled price came from,
    /// that an unlisted model costs $0 until priced, or that the typed
    /// price is the one the run uses.
    pub fn price_note(&self) -> String {
        match prices::listed_price(&self.model) {
            Some(listed) if self.shows_price_of(listed) => {
                format!("Prefilled for {} from {}.", listed.model, listed.source)
            }
            _ if self.input_price.trim().is_empty() && self.output_price.trim().is_empty() => {
                "No listed price for this model: enter one, or the run's cost counts as $0."
                    .to_string()
            }
            _ => "Your price: the run's cost and cost budget use it.".to_string(),
        }
    }

    /// Whether the price fields still hold `listed`'s figures.
    fn shows_price_of(&self, listed: &ListedPrice) -> bool {
        holds_price(&self.input_price, &self.output_price, listed)
    }

    /// A new model name: a listed model fills in its price; leaving a listed
    /// model clears the price it had filled in, unless the user changed it.
    fn name_model(&mut self, name: String) {
        match prices::listed_price(&name) {
            Some(listed) => {
                self.input_price = price_text(listed.input_usd_per_mtok);
                self.output_price = price_text(listed.output_usd_per_mtok);
            }
            None => {
                let filled =
                    prices::listed_price(&self.model).is_some_and(|was| self.shows_price_of(was));
                if filled {
                    self.input_price.clear();
                    self.output_price.clear();
                }
            }
        }
        self.model = name;
    }
}

impl Update for ModelSettings {
    type Msg = SettingsMsg;
    type Cmd = SettingsCmd;

    fn update(&mut self, msg: SettingsMsg) -> Vec<SettingsCmd> {
        let saved_before = self.saved_json();
        let mut cmds = Vec::new();
        match msg {
            SettingsMsg::SourcePicked(source) => {
                // Another provider starts at its own address; picking the
                // same one again keeps what was typed.
                if let Some(provider) = source.filter(|p| self.source != Some(*p)) {
                    self.base_url = ProviderSettings::default_base_url(provider).to_string();
                }
                self.source = source;
            }
            SettingsMsg::BaseUrlTyped(url) => self.base_url = url,
            SettingsMsg::ModelTyped(name) => self.name_model(name),
            SettingsMsg::KeyTyped(key) => {
                if self.remember {
                    cmds.push(SettingsCmd::StoreKey(key.clone()));
                }
                self.key = key;
            }
            SettingsMsg::MaxOutputTokensTyped(text) => self.max_output_tokens = text,
            SettingsMsg::InputPriceTyped(text) => self.input_price = text,
            SettingsMsg::OutputPriceTyped(text) => self.output_price = text,
            SettingsMsg::StreamingSet(on) => self.stream = on,
            SettingsMsg::RememberKeySet(on) => {
                self.remember = on;
                cmds.push(if on {
                    SettingsCmd::StoreKey(self.key.clone())
                } else {
                    SettingsCmd::ForgetKey
                });
            }
        }
        let saved = self.saved_json();
        if saved != saved_before {
            cmds.push(SettingsCmd::Autosave(saved));
        }
        cmds
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
mod tests;
