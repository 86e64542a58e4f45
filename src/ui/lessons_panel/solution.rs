//! "Show the solution", offered after failed checks: a lesson solved by
//! editing gets its solution applied to the editor; one solved in the run
//! gets it shown, as the lesson file writes it.

use harness::lesson::By;
use leptos::prelude::*;
use serde_json::Value;

use super::tutor::{pretty, Tutor};

pub(super) fn show_solution(tutor: Tutor) {
    let Some(lesson) = tutor.lesson() else {
        return;
    };
    let patch = Value::Object(lesson.solution.clone());
    if lesson.by == By::Editing {
        let mut value = serde_json::from_str::<Value>(&tutor.editor.text().get_untracked())
            .unwrap_or_else(|_| lesson.start.clone());
        harness::lesson::patch::merge_patch(&mut value, &patch);
        let text = pretty(&value);
        tutor.allowed.set_value(text.clone());
        tutor.editor.edit(text);
        tutor.attempt.set_solution_note(format!(
            "Applied the solution: it sets {}. Press Check to see the goal hold.",
            harness::lesson::patch::patch_paths(&patch).join(", ")
        ));
    } else {
        tutor.attempt.set_solution_note(format!(
            "The solution, as the lesson file writes it (what to do in the run):\n{}",
            pretty(&patch)
        ));
    }
}
