//! The scenario a fork from a step of the loop goes on under, as the
//! person edits it beside that step: a text of its own, seeded with the
//! scenario that ran (not the editor's, which may have changed since), and
//! edited with the same form as A and B.

use leptos::prelude::*;
use serde_json::Value;

use crate::form::{self, Key};
use crate::state::form_doc::{set_field_error, FormDoc};

#[derive(Clone, Copy)]
pub(super) struct ForkDraft {
    text: RwSignal<String>,
    revision: RwSignal<u64>,
    field_errors: RwSignal<Vec<(String, String)>>,
}

impl ForkDraft {
    pub(super) fn new() -> Self {
        ForkDraft {
            text: RwSignal::new(String::new()),
            revision: RwSignal::new(0),
            field_errors: RwSignal::new(Vec::new()),
        }
    }

    /// The whole text replaced: the scenario of the run forked.
    pub(super) fn replace(self, text: String) {
        self.field_errors.set(Vec::new());
        self.text.set(text);
        self.revision.update(|r| *r += 1);
    }
}

impl FormDoc for ForkDraft {
    fn text(&self) -> ReadSignal<String> {
        self.text.read_only()
    }
    fn revision(&self) -> ReadSignal<u64> {
        self.revision.read_only()
    }
    fn field_errors(&self) -> ReadSignal<Vec<(String, String)>> {
        self.field_errors.read_only()
    }
    fn set_field_error(self, key: &str, error: Option<String>) {
        set_field_error(self.field_errors, key, error)
    }
    fn edit_field(self, key: &str, path: &[Key], value: Option<Value>) {
        match form::set_path(&self.text.get_untracked(), path, value) {
            Ok(text) => {
                self.set_field_error(key, None);
                self.text.set(text);
            }
            Err(why) => self.set_field_error(key, Some(why)),
        }
    }
    fn id_prefix(&self) -> &'static str {
        "fork-"
    }
}
