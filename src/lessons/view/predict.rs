//! A lesson's prediction: the question and its choices come first, Run,
//! Step and Check wait until one is picked (saying so where Run says why it
//! cannot start), the choice is recorded in the work Check judges, and once
//! the run has ended the card sets the prediction beside what the run did:
//! "You predicted 3; the run: 1".

use harness::lesson::predict::Predict;
use harness::scenario::Scenario;
use leptos::prelude::*;

use crate::lessons::model::AttemptMsg;
use crate::run::view_model;

use super::glossary::rich_text;
use super::tutor::Tutor;

/// Why Run, Step and Check wait, while they do.
pub(super) const WAITING: &str =
    "Run, Step and Check wait for your prediction: pick one of the lesson's choices first.";

/// The open lesson asks for a prediction and none is picked yet (tracked).
pub(super) fn awaits_prediction(tutor: Tutor) -> bool {
    tutor
        .open
        .with(|o| o.as_ref().is_some_and(|o| o.lesson.predict.is_some()))
        && tutor.attempt.prediction().is_none()
}

/// While the open lesson waits for a prediction, Run and Step are held back,
/// with the reason said beside them; closing Lessons lets them go.
pub(super) fn hold_runs_until_predicted(tutor: Tutor) {
    Effect::new(move |_| {
        let hold = tutor.lessons.open().get() && awaits_prediction(tutor);
        tutor.editor.set_hold(hold.then(|| WAITING.to_string()));
    });
    on_cleanup(move || tutor.editor.set_hold(None));
}

/// Remembers what the lesson as it starts did for the predicted quantity
/// whenever a run of the unedited start ends: a learner who predicts,
/// watches, then edits is compared with the start, not with the fix.
pub(super) fn remember_what_the_start_did(tutor: Tutor) {
    let controller = tutor.controller;
    Effect::new(move |_| {
        if controller.running().get() {
            return;
        }
        let Some(lesson) = tutor.open.with(|o| o.as_ref().map(|o| o.lesson.clone())) else {
            return;
        };
        let Some(predict) = lesson.predict.as_ref().filter(|p| p.of.is_some()) else {
            return;
        };
        if !controller
            .ran_scenario()
            .with(|s| s.as_ref() == Some(&lesson.scenario))
        {
            return;
        }
        let value = controller.events().with(|events| {
            view_model::outcome_of(events).map(|outcome| predict.actual(events, outcome))
        });
        if let Some(value) = value {
            tutor.send(AttemptMsg::SawStart(value));
        }
    });
}

/// What the prediction is compared with when the run in view is an edited
/// one: the start's value, once a run of the start was seen; `None` when
/// the run in view is the start itself (it is compared with that).
pub(super) fn start_value_beside(tutor: Tutor) -> Option<String> {
    let lesson = tutor.lesson()?;
    let is_start = tutor
        .controller
        .ran_scenario()
        .with_untracked(|s| s.as_ref() == Some(&lesson.scenario));
    if is_start {
        None
    } else {
        untrack(|| tutor.attempt.start_value())
    }
}

/// The question, its choices, and once the lesson's run has ended, the
/// prediction beside the run's true value, or beside the start's when the
/// run in view is an edited one. `start` is the lesson's starting scenario:
/// a run of another (a lesson opened while it went) is not the one
/// predicted.
pub(super) fn prediction(tutor: Tutor, predict: Predict, start: Scenario) -> impl IntoView {
    let attempt = tutor.attempt;
    let controller = tutor.controller;
    let name = start.name.clone();
    let ours = Memo::new(move |_| {
        controller
            .ran_scenario()
            .with(|s| s.as_ref().is_some_and(|s| s.name == name))
    });
    // Recorded before the run: once a run of the lesson is in view it stays
    // as picked.
    let locked = Signal::derive(move || {
        (controller.running().get() || !controller.events().with(Vec::is_empty)) && ours.get()
    });
    let choices = predict
        .choices
        .iter()
        .map(|choice| {
            let checked = choice.clone();
            let picked = choice.clone();
            view! {
                <label class="predict-choice">
                    <input type="radio" name="lesson-predict" value=choice.clone()
                        prop:checked=move || attempt.prediction().as_deref() == Some(checked.as_str())
                        prop:disabled=move || locked.get()
                        on:change=move |_| { tutor.send(AttemptMsg::Predicted(picked.clone())); } />
                    " " {choice.clone()}
                </label>
            }
        })
        .collect_view();
    let question = predict.question.clone();
    let compared = move || {
        let guess = attempt.prediction()?;
        if !ours.get() {
            return None;
        }
        let edited = !controller
            .ran_scenario()
            .with(|s| s.as_ref() == Some(&start));
        let (actual, what) = if edited && predict.of.is_some() {
            (attempt.start_value()?, "the lesson as it starts")
        } else {
            let actual = controller.events().with(|events| {
                view_model::outcome_of(events).map(|outcome| predict.actual(events, outcome))
            })?;
            (actual, "the run")
        };
        let same = guess.trim() == actual.trim();
        Some(view! {
            <p class="predict-result" class:matched=same role="status">
                {format!("You predicted {guess}; {what}: {actual}. ")}
                {if same { "Your prediction held." } else { "The run did otherwise: see why below once the goal holds." }}
            </p>
        })
    };
    view! {
        <fieldset class="lesson-predict">
            <legend>"Predict first"</legend>
            <p class="predict-question">{rich_text(tutor, &question)}</p>
            <div class="predict-choices">{choices}</div>
            {move || attempt.prediction().is_none().then(|| view! { <p class="predict-wait">{WAITING}</p> })}
            {move || (attempt.prediction().is_some() && locked.get()).then(|| view! {
                <p class="predict-locked">"Your prediction is recorded: it stays as picked while this run is in view."</p>
            })}
            {compared}
        </fieldset>
    }
}
