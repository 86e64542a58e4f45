//! Check: the lesson's goal judged on a run (`goal::evaluate`, as the
//! command line's `agent-loop lesson check` judges it). A lesson solved by
//! editing is run here as edited and judged when that run ends; a lesson
//! solved in the run is judged on the run in view, once it has ended.

use harness::event::RunEvent;
use harness::lesson::goal::{self, GoalPart};
use harness::lesson::{By, Lesson};
use harness::scenario::syntax::describe;
use leptos::prelude::*;
use serde_json::Value;

use crate::state::controller::Controller;
use crate::view_model;

use super::tutor::Tutor;

/// Check pressed.
pub(super) fn check(tutor: Tutor) {
    let Some(lesson) = tutor.lesson() else {
        return;
    };
    let controller = tutor.controller;
    tutor.note.set(None);
    tutor.attempt.clear_verdict();
    if lesson.by == By::Editing {
        let text = tutor.editor.text().get_untracked();
        if let Err(error) = serde_json::from_str::<Value>(&text) {
            tutor.note.set(Some(format!(
                "Check cannot run the scenario: its JSON is {}.",
                describe(&error, &text)
            )));
            return;
        }
        // The lesson is judged on the scripted model, as the command line judges it.
        controller.set_model(None);
        controller.run(&text);
        tutor.attempt.await_run(controller.run_id().get_untracked());
        return;
    }
    if controller.running().get_untracked() {
        tutor.note.set(Some(
            "The run has not ended yet: finish it, then press Check.".to_string(),
        ));
        return;
    }
    let same = controller
        .ran_scenario()
        .with_untracked(|s| s.as_ref().is_some_and(|s| s.name == lesson.scenario.name));
    match judge(&lesson, controller) {
        Some(parts) if same => tutor.record(parts),
        _ => tutor.note.set(Some(format!(
            "There is no ended run of this lesson to check. {}",
            how_to_solve(&lesson)
        ))),
    }
}

/// Judges the run Check started once it has ended.
pub(super) fn judge_when_its_run_ends(tutor: Tutor) {
    let controller = tutor.controller;
    Effect::new(move |_| {
        if !tutor.attempt.checking() {
            return;
        }
        let running = controller.running().get();
        let run = controller.run_id().get();
        if !tutor.attempt.run_moved(run, running) {
            return;
        }
        let Some(lesson) = tutor.lesson() else {
            return;
        };
        match judge(&lesson, controller) {
            Some(parts) => tutor.record(parts),
            None => {
                let problems = controller.problems().get_untracked();
                tutor.note.set(Some(format!(
                    "Check could not run the scenario: {}",
                    if problems.is_empty() {
                        "the run did not end".to_string()
                    } else {
                        problems.join("; ")
                    }
                )));
            }
        }
    });
}

/// A verdict is about the run it judged: once another run is in view (Run
/// pressed again, Reset, a run opened from the history), it would describe
/// a run no longer shown, so it goes until the next Check.
pub(super) fn forget_the_verdict_when_the_run_changes(tutor: Tutor) {
    let run = tutor.controller.run_id();
    Effect::new(move |judged: Option<u64>| {
        let now = run.get();
        if judged.is_some_and(|judged| judged != now) {
            tutor.attempt.clear_verdict();
        }
        now
    });
}

/// The goal judged on the run in view: `None` while it has not ended.
fn judge(lesson: &Lesson, controller: Controller) -> Option<Vec<GoalPart>> {
    let events: Vec<RunEvent> = controller.events().get_untracked();
    let outcome = view_model::outcome_of(&events)?.clone();
    let shape = controller.wire_setup().get_untracked();
    Some(goal::evaluate(
        &lesson.goal,
        Some(&shape),
        &events,
        &outcome,
    ))
}

/// What the learner must do besides editing, in words.
pub(super) fn how_to_solve(lesson: &Lesson) -> String {
    match lesson.by {
        By::Editing => match lesson.editable.as_slice() {
            [] => "Nothing in the scenario may change.".to_string(),
            paths => format!(
                "You may change only: {}. Then press Check.",
                paths.join(", ")
            ),
        },
        By::AnswerAsModel => "Press Step: the run pauses before the model call, and you write the model's turn in “Answer as the model” under the trace. When the run has ended, press Check.".to_string(),
        By::AnswerAsTool => "Press Step, then Step again until the run pauses before the tool call, and type its result in “Answer as the tool” under the trace. When the run has ended, press Check.".to_string(),
        By::Deciding => "Press Run and decide in the approval bar when the agent asks. When the run has ended, press Check.".to_string(),
        By::PressingStop => "Press Run, then Stop while it runs. When the run has ended, press Check.".to_string(),
    }
}
