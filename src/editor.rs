//! The scenario editor's state: which scenario the picker shows and the JSON
//! text the next run will load.
//!
//! Picking a built-in replaces the text with its JSON; editing the text moves
//! the picker to "Custom", so the picker never names a built-in the text no
//! longer is (picking that built-in again restores it).

use harness::library::BUILTIN;
use leptos::prelude::*;

use crate::view_model::{self, CUSTOM};

#[derive(Clone, Copy)]
pub struct Editor {
    selected: RwSignal<String>,
    text: RwSignal<String>,
}

impl Default for Editor {
    fn default() -> Self {
        Self::new()
    }
}

impl Editor {
    /// Starts on the first built-in scenario (the library's simplest).
    pub fn new() -> Self {
        let (id, json) = BUILTIN.first().map_or((CUSTOM, ""), |b| (b.id, b.json));
        Editor {
            selected: RwSignal::new(id.to_string()),
            text: RwSignal::new(json.to_string()),
        }
    }

    pub fn selected(&self) -> ReadSignal<String> {
        self.selected.read_only()
    }

    pub fn text(&self) -> ReadSignal<String> {
        self.text.read_only()
    }

    /// The picker changed: a built-in brings its JSON; "Custom" keeps the text
    /// as a starting point.
    pub fn select(self, id: String) {
        if let Some(builtin) = view_model::find_builtin(BUILTIN, &id) {
            self.text.set(builtin.json.to_string());
        }
        self.selected.set(id);
    }

    /// The user typed or pasted into the JSON box.
    pub fn edit(self, text: String) {
        self.text.set(text);
        if self.selected.get_untracked() != CUSTOM {
            self.selected.set(CUSTOM.to_string());
        }
    }
}
