//! Variant B as its form edits it: the comparison's `Variant`, with the
//! fields where B differs from A (the editor's text) marked "differs from
//! A" (`compare::fields`), and the sections holding them open; what differs
//! where the form has no field is named in a note above it.

use leptos::prelude::*;
use serde_json::Value;

use crate::compare::fields;
use crate::editor::form::Key;
use crate::editor::state::Editor;
use crate::state::form_doc::{FormDoc, Variant};

#[derive(Clone, Copy)]
pub(super) struct BForm {
    variant: Variant,
    differing: Memo<Vec<String>>,
    outside: Memo<Vec<String>>,
}

impl BForm {
    pub(super) fn new(variant: Variant, editor: Editor) -> Self {
        let both = Memo::new(move |_| {
            let parse = |text: &String| serde_json::from_str::<Value>(text).ok();
            let a = editor.text().with(parse);
            let b = variant.text().with(parse);
            match (a, b) {
                (Some(a), Some(b)) => (
                    fields::differing_fields(&a, &b),
                    fields::differing_outside_form(&a, &b),
                ),
                // A text that does not parse: its own problems say so.
                _ => Default::default(),
            }
        });
        BForm {
            variant,
            differing: Memo::new(move |_| both.with(|(form, _)| form.clone())),
            outside: Memo::new(move |_| both.with(|(_, outside)| outside.clone())),
        }
    }

    /// What differs where the form has no field, said above it.
    pub(super) fn outside_note(self) -> impl IntoView {
        move || {
            self.outside.with(|parts| {
                (!parts.is_empty()).then(|| {
                    let text = format!(
                        "B also differs from A where the form has no field: {}. See B's JSON below.",
                        parts.join(", ")
                    );
                    view! { <p class="differs-outside" role="note">{text}</p> }
                })
            })
        }
    }
}

impl FormDoc for BForm {
    fn text(&self) -> ReadSignal<String> {
        self.variant.text()
    }
    fn revision(&self) -> ReadSignal<u64> {
        self.variant.revision()
    }
    fn field_errors(&self) -> ReadSignal<Vec<(String, String)>> {
        self.variant.field_errors()
    }
    fn set_field_error(self, key: &str, error: Option<String>) {
        self.variant.set_field_error(key, error)
    }
    fn edit_field(self, key: &str, path: &[Key], value: Option<Value>) {
        self.variant.edit_field(key, path, value)
    }
    fn id_prefix(&self) -> &'static str {
        self.variant.id_prefix()
    }
    fn differing(&self) -> Option<Signal<Vec<String>>> {
        Some(self.differing.into())
    }
}
