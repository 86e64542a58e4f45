//! The Model settings' adapter: it holds the plain model
//! (`settings::model`) in one signal for the views and the run to read, and
//! performs what it asks of the browser's storage. The decisions (a
//! provider's default address, a listed price filled in, when the key may
//! be kept) are the model's.

use harness::provider::{ProviderRun, SettingField};
use harness::wire::Provider;
use leptos::prelude::*;

use crate::browser::{csp, page};
use crate::settings::model::{ModelSettings, SettingsCmd, SettingsMsg};
use crate::update::Update as _;

/// The model settings, owned by the root component.
#[derive(Clone, Copy)]
pub struct ModelChoice {
    settings: RwSignal<ModelSettings>,
}

impl Default for ModelChoice {
    fn default() -> Self {
        Self::new()
    }
}

impl ModelChoice {
    /// The settings this device kept, or the scripted model.
    pub fn new() -> Self {
        let saved = page::saved_model_settings();
        ModelChoice {
            settings: RwSignal::new(ModelSettings::restored(
                page::saved_api_key(),
                saved.as_deref(),
            )),
        }
    }

    /// Reads the settings (tracked).
    pub fn with<T>(self, read: impl FnOnce(&ModelSettings) -> T) -> T {
        self.settings.with(read)
    }

    /// `None`: the scenario's scripted model (tracked).
    pub fn source(self) -> Option<Provider> {
        self.with(ModelSettings::source)
    }

    /// What a person did in the Model section.
    pub fn send(self, msg: SettingsMsg) {
        let Some(cmds) = self.settings.try_update(|settings| settings.update(msg)) else {
            return; // The page is gone.
        };
        for cmd in cmds {
            match cmd {
                SettingsCmd::StoreKey(key) => page::save_api_key(key.expose()),
                SettingsCmd::ForgetKey => page::remove_api_key(),
                SettingsCmd::Autosave(json) => page::save_model_settings(json.as_deref()),
            }
        }
    }

    /// Why these settings cannot run, per field, tracked (Run's blocker and
    /// the fields' errors read it); empty for the scripted model.
    pub fn problems(self) -> Vec<(SettingField, String)> {
        self.with(|settings| settings.problems(&csp::page_origin()))
    }

    /// The problems as lines, for the Run blocker.
    pub fn problem_lines(self) -> Vec<String> {
        self.problems().into_iter().map(|(_, line)| line).collect()
    }

    /// The provider run to start, or `None` for the scripted model (or
    /// settings that cannot run, which Run is disabled for anyway).
    pub fn current(self) -> Option<ProviderRun> {
        self.settings.with_untracked(ModelSettings::current)
    }
}
