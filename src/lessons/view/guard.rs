//! The open lesson's hold on the editor: only its editable paths may
//! change, and a change anywhere else is undone.

use leptos::prelude::*;

use crate::lessons::model::AttemptMsg;

use super::tutor::Tutor;

/// While a lesson is open in the open mode, the form's other fields and
/// the JSON box are read-only.
pub(super) fn lock_editor(tutor: Tutor) {
    Effect::new(move |_| {
        let editable = if tutor.lessons.open().get() {
            tutor
                .open
                .with(|o| o.as_ref().map(|o| o.lesson.editable.clone()))
        } else {
            None
        };
        tutor.editor.set_lock(editable);
    });
}

/// What the lock cannot stop (a file imported or a link opened over the
/// lesson) is undone once it arrives.
pub(super) fn undo_outside_edits(tutor: Tutor) {
    let editor = tutor.editor;
    Effect::new(move |_| {
        let text = editor.text().get();
        let mode_open = tutor.lessons.open().get_untracked();
        tutor.send(AttemptMsg::Edited { text, mode_open });
    });
}
