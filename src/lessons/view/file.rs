//! "Open a lesson or course file…": the file is read as whichever it is,
//! and opened as a link to it would be.

use harness::lesson::course::{self, Course};
use harness::lesson::Lesson;
use harness::scenario::syntax::describe;
use leptos::prelude::*;
use serde_json::Value;

use crate::browser::files;
use crate::lessons::words::Linked;
use crate::run::view_model;

use super::tutor::Tutor;

pub(super) fn file_picker(tutor: Tutor) -> impl IntoView {
    let open_file = move |ev: leptos::ev::Event| {
        let Some(input) = files::picked_input(&ev) else {
            return;
        };
        crate::browser::runner::start(async move {
            match files::take_picked(&input).await {
                Some((name, Ok(text))) => tutor.open_linked(lesson_file(&name, &text)),
                Some((_, Err(why))) => tutor.note.set(Some(why)),
                None => {}
            }
        });
    };
    view! {
        <label class="lesson-file file-button">
            "Open a lesson or course file…"
            <input type="file" accept=".json,application/json" on:change=open_file />
        </label>
    }
}

/// A lesson or course file's text, read as whichever it is.
fn lesson_file(name: &str, text: &str) -> Result<Linked, String> {
    let value: Value = serde_json::from_str(text)
        .map_err(|error| format!("{name} was not opened: it is {}.", describe(&error, text)))?;
    let problems = |p: Vec<harness::scenario::Problem>| {
        format!(
            "{name} was not opened: {}.",
            view_model::problem_lines(&p).join("; ")
        )
    };
    if course::is_course(&value) {
        return Course::from_value(value)
            .map(Linked::Course)
            .map_err(problems);
    }
    Lesson::from_value(value, "")
        .map(|lesson| Linked::Lesson(None, Box::new(lesson)))
        .map_err(problems)
}
