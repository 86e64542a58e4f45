//! "Make this a lesson": a lesson file whose goal is what the run in view
//! did, saved and put in the address bar as a link, for a teacher to
//! finish and check with `agent-loop lesson verify`.

use harness::lesson::goal::{self, Goal};
use harness::scenario::syntax::describe;
use leptos::prelude::*;
use serde_json::Value;

use crate::browser::{files, page};
use crate::lessons::words as lesson_words;
use crate::run::view_model;

use super::tutor::{pretty, Tutor};

pub(super) fn make_lesson(tutor: Tutor) {
    let (controller, editor, note) = (tutor.controller, tutor.editor, tutor.note);
    let events = controller.events().get_untracked();
    let Some(outcome) = view_model::outcome_of(&events).cloned() else {
        note.set(Some(
            "Make this a lesson needs a run that has ended: press Run first.".to_string(),
        ));
        return;
    };
    let goal: Goal = goal::Goal::from_run(&events, &outcome);
    let scenario = match serde_json::from_str::<Value>(&editor.text().get_untracked()) {
        Ok(value) => value,
        Err(error) => {
            note.set(Some(format!(
                "The scenario cannot go into a lesson: its JSON is {}.",
                describe(&error, &editor.text().get_untracked())
            )));
            return;
        }
    };
    let title = controller
        .ran_scenario()
        .with_untracked(|s| s.as_ref().map(|s| s.name.clone()))
        .unwrap_or_else(|| "My lesson".to_string());
    let draft = serde_json::json!({
        "lesson": title,
        "intro": "Say what the learner is to make the agent do.",
        "scenario": scenario,
        "editable": [],
        "goal": goal,
        "hints": [],
        "solution": {},
        "explain": "Say what the learner should take away.",
    });
    let text = pretty(&draft);
    let name = "lesson.json";
    let saved = match files::download(name, "application/json", &text) {
        Ok(()) => format!("Saved {name}"),
        Err(why) => why,
    };
    let linked = match page::set_fragment(&lesson_words::lesson_fragment(&text)) {
        Some(_) => ", and the address bar now holds its link",
        None => "",
    };
    note.set(Some(format!(
        "{saved}{linked}. Its goal is what this run did: {} Write its intro, editable paths, hints, solution and explanation, then check it with `agent-loop lesson verify lesson.json`.",
        lesson_words::goal_lines(&goal).join(" ")
    )));
}
