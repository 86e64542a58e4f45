//! "Show the solution", offered after failed checks: a lesson solved by
//! editing (or predicting, then editing) gets its solution applied to the
//! editor, with its prediction picked if none is; one solved in the run
//! gets it shown, as the lesson file writes it.

use leptos::prelude::*;
use serde_json::Value;

use crate::lessons::model::AttemptMsg;

use super::tutor::{pretty, Tutor};

pub(super) fn show_solution(tutor: Tutor) {
    let Some(lesson) = tutor.lesson() else {
        return;
    };
    let patch = Value::Object(lesson.solution.clone());
    if !lesson.by.edits_scenario() {
        tutor.send(AttemptMsg::SolutionApplied {
            prediction: None,
            text: None,
            note: format!(
                "The solution, as the lesson file writes it (what to do in the run):\n{}",
                pretty(&patch)
            ),
        });
        return;
    }
    // A predicting lesson's solution also makes a prediction: it is picked
    // for the learner only if they have not picked one (the attempt's rule).
    let (scenario_part, work_part) = lesson.split_patch(&lesson.solution);
    let prediction = work_part
        .get("prediction")
        .and_then(Value::as_str)
        .map(str::to_string);
    let scenario_part = Value::Object(scenario_part);
    let paths = harness::lesson::patch::patch_paths(&scenario_part);
    let text = (!paths.is_empty()).then(|| {
        let mut value = serde_json::from_str::<Value>(&tutor.editor.text().get_untracked())
            .unwrap_or_else(|_| lesson.start.clone());
        harness::lesson::patch::merge_patch(&mut value, &scenario_part);
        pretty(&value)
    });
    let mut said = Vec::new();
    if !paths.is_empty() {
        said.push(format!("it sets {}", paths.join(", ")));
    }
    if let Some(prediction) = &prediction {
        said.push(format!("its prediction is {prediction}"));
    }
    if let Some(decisions) = work_part.get("decisions") {
        said.push(format!("in the run, decide: {}", pretty(decisions)));
    }
    tutor.send(AttemptMsg::SolutionApplied {
        prediction,
        text,
        note: format!(
            "Applied the solution: {}. Press Check to see the goal hold.",
            said.join("; ")
        ),
    });
}
