//! The scenario editor's state: which scenario the picker shows and the JSON
//! text the next run will load, kept in the browser across reloads.
//!
//! Picking a built-in replaces the text with its JSON; editing the text moves
//! the picker to "Custom", so the picker never names a built-in the text no
//! longer is (picking that built-in again restores it).
//!
//! The page opens on a share link's scenario (`#s=`), else the autosaved
//! one, else the first built-in. Every change is saved at once; the first
//! change after opening a link removes the fragment, so a reload shows the
//! latest edit rather than the link's original.

use harness::library::BUILTIN;
use leptos::prelude::*;

use crate::browser::page;
use crate::form;
use crate::share;
use crate::view_model::{self, CUSTOM};

#[derive(Clone, Copy)]
pub struct Editor {
    selected: RwSignal<String>,
    text: RwSignal<String>,
    /// A message about loading: a share link that could not be read, an import.
    notice: RwSignal<Option<String>>,
    /// Bumped when the whole text is replaced from outside the form (picker,
    /// raw JSON box, import, link), so the form rebuilds its fields from it;
    /// the form's own edits do not bump it, so a field keeps its focus.
    revision: RwSignal<u64>,
    /// Form fields whose text cannot go into the JSON yet (a schema that is
    /// not JSON, a limit that is not a number), by field key.
    field_errors: RwSignal<Vec<(String, String)>>,
}

impl Default for Editor {
    fn default() -> Self {
        Self::new()
    }
}

/// The picker value for `text`: the built-in it is, or "Custom".
fn picker_value(text: &str) -> String {
    BUILTIN
        .iter()
        .find(|b| b.json == text)
        .map_or(CUSTOM, |b| b.id)
        .to_string()
}

impl Editor {
    pub fn new() -> Self {
        let (initial, link_error) = share::initial_text(&page::fragment(), page::saved_scenario());
        let text = match initial {
            Some((text, share::Source::Link)) => {
                // The link's scenario is now the current one, also after a reload.
                page::save_scenario(&text);
                text
            }
            Some((text, share::Source::Saved)) => text,
            // The library's first scenario is its simplest.
            None => BUILTIN.first().map_or("", |b| b.json).to_string(),
        };
        let notice = match link_error {
            Some(error) => Some(error),
            None if page::fragment().starts_with(share::FRAGMENT_PREFIX) => {
                Some("Loaded the scenario from the link.".to_string())
            }
            None => None,
        };
        Editor {
            selected: RwSignal::new(picker_value(&text)),
            text: RwSignal::new(text),
            notice: RwSignal::new(notice),
            revision: RwSignal::new(0),
            field_errors: RwSignal::new(Vec::new()),
        }
    }

    pub fn selected(&self) -> ReadSignal<String> {
        self.selected.read_only()
    }

    pub fn text(&self) -> ReadSignal<String> {
        self.text.read_only()
    }

    pub fn notice(&self) -> ReadSignal<Option<String>> {
        self.notice.read_only()
    }

    pub fn revision(&self) -> ReadSignal<u64> {
        self.revision.read_only()
    }

    pub fn field_errors(&self) -> ReadSignal<Vec<(String, String)>> {
        self.field_errors.read_only()
    }

    /// Records (or clears, with `None`) why form field `key` cannot be applied.
    pub fn set_field_error(self, key: &str, error: Option<String>) {
        let known = self.field_errors.with_untracked(|errors| {
            errors
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, e)| e.clone())
        });
        if known == error {
            return;
        }
        self.field_errors.update(|errors| {
            errors.retain(|(k, _)| k != key);
            if let Some(error) = error {
                errors.push((key.to_string(), error));
            }
        });
    }

    /// A form field changed: rewrite that one value in the JSON text.
    pub fn edit_field(self, key: &str, path: &[form::Key], value: Option<serde_json::Value>) {
        match form::set_path(&self.text.get_untracked(), path, value) {
            Ok(text) => {
                self.set_field_error(key, None);
                self.set_text(text);
                if self.selected.get_untracked() != CUSTOM {
                    self.selected.set(CUSTOM.to_string());
                }
            }
            Err(why) => self.set_field_error(key, Some(why)),
        }
    }

    pub fn set_notice(self, notice: Option<String>) {
        self.notice.set(notice);
    }

    /// The picker changed: a built-in brings its JSON; "Custom" keeps the text
    /// as a starting point.
    pub fn select(self, id: String) {
        if let Some(builtin) = view_model::find_builtin(BUILTIN, &id) {
            self.set_text(builtin.json.to_string());
            self.replaced();
        }
        self.selected.set(id);
    }

    /// The user typed or pasted into the JSON box.
    pub fn edit(self, text: String) {
        self.set_text(text);
        self.replaced();
        if self.selected.get_untracked() != CUSTOM {
            self.selected.set(CUSTOM.to_string());
        }
    }

    /// A whole scenario arrived (an imported file, a pasted link).
    pub fn load(self, text: String) {
        self.selected.set(picker_value(&text));
        self.set_text(text);
        self.replaced();
    }

    /// The text came from outside the form: rebuild the form, forget its errors.
    fn replaced(self) {
        self.field_errors.set(Vec::new());
        self.revision.update(|r| *r += 1);
    }

    fn set_text(self, text: String) {
        page::save_scenario(&text);
        if page::fragment().starts_with(share::FRAGMENT_PREFIX) {
            page::set_fragment("");
        }
        self.text.set(text);
    }
}
