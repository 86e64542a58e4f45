//! A scenario text that the structured form edits: the editor's (A), the
//! comparison's variant B, or a fork's draft. One form serves them all, so
//! each is edited exactly as A is (`editor::view::scenario_form` is generic over this
//! trait).
//!
//! The contract the form relies on: `text` is the one source of truth;
//! `revision` is bumped only when the whole text is replaced from outside
//! the form (so the form rebuilds its fields then, and not while a field is
//! typed in); `edit_field` rewrites one value of the text in place.

use leptos::prelude::*;
use serde_json::Value;

use crate::browser::page;
use crate::editor::form::{self, Key};
use crate::{lazy, run::view_model};

pub trait FormDoc: Copy + Send + Sync + 'static {
    fn text(&self) -> ReadSignal<String>;
    fn revision(&self) -> ReadSignal<u64>;
    /// Form fields whose text cannot go into the JSON yet, by field key.
    fn field_errors(&self) -> ReadSignal<Vec<(String, String)>>;
    fn set_field_error(self, key: &str, error: Option<String>);
    /// A form field changed: rewrite that one value in the JSON text.
    fn edit_field(self, key: &str, path: &[Key], value: Option<Value>);
    /// Goes before every element id the form makes, so two forms can share
    /// a page: "" for A, "b-" for B.
    fn id_prefix(&self) -> &'static str;
    /// Whether the field at `path` (`limits.max_turns`) is read-only: an
    /// open lesson keeps it as it is (reactive). B is never locked.
    fn fixed(&self, _path: &str) -> bool {
        false
    }
    /// The paths an open lesson lets the learner change, when this text
    /// can be locked by one.
    fn lock(&self) -> Option<ReadSignal<Option<Vec<String>>>> {
        None
    }
    /// The paths of the fields where this text differs from another it is
    /// set beside (Compare's B from A, `compare::fields`), marked in the
    /// form; `None` when it is set beside none.
    fn differing(&self) -> Option<Signal<Vec<String>>> {
        None
    }
}

/// Records (or clears, with `None`) why form field `key` cannot be applied;
/// an unchanged error does not notify, so the form does not redraw.
pub fn set_field_error(errors: RwSignal<Vec<(String, String)>>, key: &str, error: Option<String>) {
    let known = errors.with_untracked(|errors| {
        errors
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, e)| e.clone())
    });
    if known != error {
        errors.update(|errors| {
            errors.retain(|(k, _)| k != key);
            errors.extend(error.map(|e| (key.to_string(), e)));
        });
    }
}

/// A scenario text of its own that the form edits, with nothing more to it:
/// the fork's draft as it is, and the text inside variant B.
#[derive(Clone, Copy)]
pub struct FormText {
    text: RwSignal<String>,
    revision: RwSignal<u64>,
    field_errors: RwSignal<Vec<(String, String)>>,
    id_prefix: &'static str,
}

impl FormText {
    /// `id_prefix` goes before the form's element ids (see `FormDoc`).
    pub fn new(text: String, id_prefix: &'static str) -> Self {
        FormText {
            text: RwSignal::new(text),
            revision: RwSignal::new(0),
            field_errors: RwSignal::new(Vec::new()),
            id_prefix,
        }
    }

    /// The whole text replaced from outside the form, which rebuilds its
    /// fields.
    pub fn replace(self, text: String) {
        self.field_errors.set(Vec::new());
        self.text.set(text);
        self.revision.update(|r| *r += 1);
    }
}

impl FormDoc for FormText {
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
        self.id_prefix
    }
}

/// The comparison's variant B: a scenario text of its own, checked as it is
/// edited like the editor's, and kept in this browser as the editor's text
/// is (a reload brings it back), but not shared.
#[derive(Clone, Copy)]
pub struct Variant {
    form: FormText,
    /// Why B cannot run, as `path: message` lines (the engine's own load).
    problems: RwSignal<Vec<String>>,
}

impl Default for Variant {
    fn default() -> Self {
        Self::new()
    }
}

impl Variant {
    pub fn new() -> Self {
        let variant = Variant {
            form: FormText::new(page::saved_variant().unwrap_or_default(), "b-"),
            problems: RwSignal::new(Vec::new()),
        };
        Effect::new(move |_| {
            let text = variant.text().get();
            page::save_variant(&text);
            if text.trim().is_empty() {
                variant.problems.set(Vec::new());
                return;
            }
            crate::browser::runner::start(async move {
                let lines = match lazy::engine().await.load(&text).await {
                    Ok(_) => Vec::new(),
                    Err(problems) => view_model::problem_lines(&problems),
                };
                // An answer about a text edited since is dropped.
                if variant.text().with_untracked(|now| *now == text) {
                    variant.problems.set(lines);
                }
            });
        });
        variant
    }

    /// The whole text replaced (typed in B's JSON box, or copied from A).
    pub fn replace(self, text: String) {
        self.form.replace(text)
    }

    pub fn problems(&self) -> ReadSignal<Vec<String>> {
        self.problems.read_only()
    }
}

impl FormDoc for Variant {
    fn text(&self) -> ReadSignal<String> {
        self.form.text()
    }
    fn revision(&self) -> ReadSignal<u64> {
        self.form.revision()
    }
    fn field_errors(&self) -> ReadSignal<Vec<(String, String)>> {
        self.form.field_errors()
    }
    fn set_field_error(self, key: &str, error: Option<String>) {
        self.form.set_field_error(key, error)
    }
    fn edit_field(self, key: &str, path: &[Key], value: Option<Value>) {
        self.form.edit_field(key, path, value)
    }
    fn id_prefix(&self) -> &'static str {
        self.form.id_prefix()
    }
}
