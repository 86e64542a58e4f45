//! A lesson's prediction: the question and its choices come first, Run,
//! Step and Check wait until one is picked (saying so where Run says why it
//! cannot start), the choice is recorded in the work Check judges, and once
//! the run has ended the card sets the prediction beside what the run did:
//! "You predicted 3; the run: 1".

use harness::lesson::predict::Predict;
use leptos::prelude::*;

use crate::view_model;

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

/// The question, its choices, and once the lesson's run has ended, the
/// prediction beside the run's true value. `scenario` is the lesson's
/// scenario's name: a run of another (a lesson opened while it went) is
/// not the one predicted.
pub(super) fn prediction(tutor: Tutor, predict: Predict, scenario: String) -> impl IntoView {
    let attempt = tutor.attempt;
    let controller = tutor.controller;
    let ours = Memo::new(move |_| {
        controller
            .ran_scenario()
            .with(|s| s.as_ref().is_some_and(|s| s.name == scenario))
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
                        on:change=move |_| attempt.predict(picked.clone()) />
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
        let actual = controller.events().with(|events| {
            view_model::outcome_of(events).map(|outcome| predict.actual(events, outcome))
        })?;
        let same = guess.trim() == actual.trim();
        Some(view! {
            <p class="predict-result" class:matched=same role="status">
                {format!("You predicted {guess}; the run: {actual}. ")}
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
