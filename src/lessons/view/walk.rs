//! A stepping lesson's walk: as the learner presses Step, the lesson shows
//! what is about to happen at the run's current pause and why (the
//! lesson's `walk`, one entry per pause), and counts each Step that moves
//! the run on, for the goal's `min_steps`. Run (Continue) moves it on too,
//! but is no step: a run let go is honestly not stepped through. The
//! counting is the attempt's (`lessons::model::Attempt`).

use leptos::prelude::*;

use super::glossary::rich_text;
use super::tutor::Tutor;

/// The walk's entry for the pause the run is at, or what to press.
pub(super) fn walk_view(tutor: Tutor, walk: Vec<String>) -> impl IntoView {
    let controller = tutor.controller;
    let attempt = tutor.attempt;
    let total = walk.len();
    move || {
        let paused = controller.paused().with(Option::is_some);
        let running = controller.running().get();
        let reached = attempt.pauses();
        let steps = attempt.steps();
        let stepped = format!(
            "Step pressed {steps} time{} in this run.",
            if steps == 1 { "" } else { "s" }
        );
        let (head, body) = if paused && reached >= 1 {
            let entry = walk
                .get(reached - 1)
                .cloned()
                .unwrap_or_else(|| "The lesson's walk has no words for this pause.".to_string());
            (format!("Pause {reached} of {total}"), Some(entry))
        } else if running && controller.stepping() {
            ("Going on to the next pause…".to_string(), None)
        } else if running {
            (
                "Running on without pausing: Run lets the run go; only Step walks through it."
                    .to_string(),
                None,
            )
        } else if reached == 0 {
            (
                "Press Step: the run starts and pauses before its first call, and each pause is explained here."
                    .to_string(),
                None,
            )
        } else {
            (
                format!(
                    "The run has ended after {reached} pause{}. Press Check.",
                    if reached == 1 { "" } else { "s" }
                ),
                None,
            )
        };
        view! {
            <div class="lesson-walk" role="status" data-pause=reached.to_string()>
                <p class="walk-head"><strong>{head}</strong> " " <span class="walk-steps">{stepped}</span></p>
                {body.map(|text| view! { <p class="walk-text">{rich_text(tutor, &text)}</p> })}
            </div>
        }
    }
}
