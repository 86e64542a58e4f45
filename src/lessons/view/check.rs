//! Check: the lesson's goal judged on a run (`Lesson::judge`, as the
//! command line's `agent-loop lesson check` judges it). A lesson solved by
//! editing is run here as edited and judged when that run ends; a lesson
//! solved in the run is judged on the run in view, once it has ended.
//!
//! Check says only what is true of the run it judged:
//! - an edit that could not be applied (a lesson box holding text that is
//!   not JSON, a value the scenario refuses) is said to be not applied,
//!   with the path and the problem, and no run is started or judged;
//! - while Check waits for a run that waits for the learner (an approval to
//!   decide, a pause to step or answer, a Stop to press), it says where to
//!   act, with a button that moves focus there (`checking_notice`).

use harness::event::RunEvent;
use harness::lesson::goal::GoalPart;
use harness::lesson::{By, Lesson};
use harness::scenario::syntax::describe;
use leptos::prelude::*;
use serde_json::Value;

use crate::lazy;
use crate::lessons::model::AttemptMsg;
use crate::lessons::view::parts::unapplied_edits;
use crate::run::view_model;

use super::tutor::Tutor;

/// Check pressed.
pub(super) fn check(tutor: Tutor) {
    let Some(lesson) = tutor.lesson() else {
        return;
    };
    let controller = tutor.controller;
    tutor.note.set(None);
    tutor.send(AttemptMsg::CheckPressed);
    // Editing, or predicting and then maybe editing: the scenario as
    // edited is run here.
    if matches!(lesson.by, By::Editing | By::Predicting) {
        check_the_edit(tutor);
        return;
    }
    // A run going now is the lesson's (the editor holds its scenario while
    // it is open): Check waits for it to end, saying where the learner acts.
    if controller.running().get_untracked() {
        await_in_view(tutor);
        return;
    }
    let same = controller
        .ran_scenario()
        .with_untracked(|s| s.as_ref().is_some_and(|s| s.name == lesson.scenario.name));
    match judge(&lesson, tutor) {
        Some(parts) if same => tutor.record(controller.run_id().get_untracked(), parts),
        // A lesson decided in the approval bar or ended with Stop needs the
        // run going: Check starts it and waits, saying where to act.
        _ if matches!(lesson.by, By::Deciding | By::PressingStop) => {
            controller.set_model(None);
            controller.run(&tutor.editor.text().get_untracked());
            await_in_view(tutor);
        }
        _ => tutor.note.set(Some(format!(
            "There is no ended run of this lesson to check. {}",
            how_to_solve(&lesson)
        ))),
    }
}

/// Check waits for the run in view to end, its notice (where to act) in view.
fn await_in_view(tutor: Tutor) {
    let run = tutor.controller.run_id().get_untracked();
    tutor.send(AttemptMsg::AwaitRun(run));
    crate::browser::page::bring_into_view_after_others(
        || {
            web_sys::window()?
                .document()?
                .query_selector(".lesson-checking")
                .ok()?
        },
        web_sys::ScrollLogicalPosition::Nearest,
    );
}

/// Check on a lesson solved by editing: the scenario as edited, if every
/// edit is in it and it loads, is run and judged when the run ends;
/// otherwise the edit is said to be not applied and nothing runs.
fn check_the_edit(tutor: Tutor) {
    let controller = tutor.controller;
    let text = tutor.editor.text().get_untracked();
    let unapplied = unapplied_edits(&text);
    if !unapplied.is_empty() {
        tutor.note.set(Some(not_applied(&unapplied)));
        return;
    }
    if let Err(error) = serde_json::from_str::<Value>(&text) {
        tutor.note.set(Some(format!(
            "Check cannot run the scenario: its JSON is {}. No run was judged.",
            describe(&error, &text)
        )));
        return;
    }
    crate::browser::runner::start(async move {
        let loaded = lazy::engine().await.load(&text).await;
        // The learner may have edited again meanwhile: that text is the
        // next Check's.
        if tutor.editor.text().with_untracked(|now| *now != text) {
            return;
        }
        match loaded {
            Err(problems) => tutor
                .note
                .set(Some(not_applied(&view_model::problem_lines(&problems)))),
            Ok(_) => {
                // The lesson is judged on the scripted model, as the command line judges it.
                controller.set_model(None);
                // Check runs the scenario as edited, afresh: a run still in
                // flight (paused in step mode, another lesson's) would
                // otherwise be continued and judged in its place.
                if controller.running().get_untracked() {
                    controller.reset();
                }
                controller.run(&text);
                tutor.send(AttemptMsg::AwaitRun(controller.run_id().get_untracked()));
            }
        }
    });
}

/// An edit that could not be applied, each problem as "path: why".
fn not_applied(problems: &[String]) -> String {
    format!(
        "Your edit was not applied, so Check ran nothing and judged no run. {}. Fix it, then press Check.",
        problems.join("; ")
    )
}

/// The run in view as the attempt follows it: a verdict goes with the run
/// it judged, Steps are counted, and the run Check awaits is judged once
/// it has ended (`lessons::model::Attempt`).
pub(super) fn follow_the_run_in_view(tutor: Tutor) {
    let controller = tutor.controller;
    Effect::new(move |_| {
        let msg = AttemptMsg::RunSeen {
            run: controller.run_id().get(),
            running: controller.running().get(),
            pause: controller.paused().get(),
            stepping: controller.stepping(),
        };
        if let Some(run) = tutor.send(msg) {
            judge_ended(tutor, run);
        }
    });
}

/// Judges `run`, the run Check awaited, which has ended.
fn judge_ended(tutor: Tutor, run: u64) {
    let Some(lesson) = tutor.lesson() else {
        return;
    };
    match judge(&lesson, tutor) {
        Some(parts) => tutor.record(run, parts),
        None => {
            let problems = tutor.controller.problems().get_untracked();
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
}

/// The goal judged on the run in view, the scenario as edited and what the
/// learner did (prediction, Steps): `None` while the run has not ended.
fn judge(lesson: &Lesson, tutor: Tutor) -> Option<Vec<GoalPart>> {
    let controller = tutor.controller;
    let events: Vec<RunEvent> = controller.events().get_untracked();
    let outcome = view_model::outcome_of(&events)?.clone();
    let shape = controller.wire_setup().get_untracked();
    let edited = serde_json::from_str::<Value>(&tutor.editor.text().get_untracked())
        .unwrap_or_else(|_| lesson.start.clone());
    let start_value = super::predict::start_value_beside(tutor);
    Some(lesson.judge(
        Some(&shape),
        &events,
        &outcome,
        &edited,
        &tutor.work(),
        start_value.as_deref(),
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
        By::Stepping => "Press Step: the run pauses before each step and the lesson says what comes next. Step to the run's end, then press Check.".to_string(),
        By::Predicting => match lesson.editable.as_slice() {
            [] => "Pick your prediction, then press Check: it runs the scenario and compares.".to_string(),
            paths => format!(
                "Pick your prediction, then press Check. You may change only: {}.",
                paths.join(", ")
            ),
        },
    }
}

/// Where the learner acts while Check waits for the run: the words, the
/// button's label, and the element the button focuses.
#[derive(Clone, Debug, PartialEq)]
struct ActHere {
    words: &'static str,
    go: &'static str,
    focus: &'static str,
}

/// What the run Check waits for needs from the learner now: `pending`, an
/// approval waits; `paused`, the run is paused in step mode; `running`, it
/// goes on its own. `None` while it needs nothing (Check judges it at its end).
fn act_here(by: By, pending: bool, paused: bool, running: bool) -> Option<ActHere> {
    if pending {
        return Some(ActHere {
            words: "Decide in the approval bar in the trace: the run is waiting for you.",
            go: "Go to the approval bar",
            focus: ".approval-bar button",
        });
    }
    if paused {
        return Some(if matches!(by, By::AnswerAsModel | By::AnswerAsTool) {
            ActHere {
                words: "Answer in the answer panel under the trace, or press Step to go on: the run is paused for you.",
                go: "Go to the answer panel",
                focus: ".answer-panel button",
            }
        } else {
            ActHere {
                words: "Press Step in the header to go on: the run is paused for you.",
                go: "Go to Step",
                focus: ".actions button.step",
            }
        });
    }
    (running && by == By::PressingStop).then_some(ActHere {
        words: "Press Stop in the header while the run goes: Check judges the run once it has stopped.",
        go: "Go to Stop",
        focus: ".actions button.stop",
    })
}

/// While Check waits for its run: what it waits for, and where to act when
/// the run waits for the learner. Shown under Check.
pub(super) fn checking_notice(tutor: Tutor, by: By) -> impl IntoView {
    let controller = tutor.controller;
    move || {
        if !tutor.attempt.checking() {
            return None;
        }
        if matches!(by, By::Editing | By::Predicting) {
            return Some(
                view! {
                    <p class="lesson-checking" role="status">"Checking: running the scenario as you edited it…"</p>
                }
                .into_any(),
            );
        }
        let here = act_here(
            by,
            controller.pending().with(Option::is_some),
            controller.paused().with(Option::is_some),
            controller.running().get(),
        );
        Some(match here {
            Some(ActHere { words, go, focus }) => view! {
                <div class="lesson-checking lesson-act-here" role="status">
                    <p>{words}</p>
                    <button type="button" class="lesson-go" on:click=move |_| focus_first(focus)>{go}</button>
                </div>
            }
            .into_any(),
            None => view! {
                <p class="lesson-checking" role="status">"Checking: the run goes on; Check judges it when it ends."</p>
            }
            .into_any(),
        })
    }
}

/// Moves focus to the first element matching `selector` (focus brings it
/// into view, scrolling its column if need be).
fn focus_first(selector: &'static str) {
    let found = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten())
        .and_then(|el| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el).ok());
    if let Some(el) = found {
        let _ = el.focus();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_waiting_approval_says_where_to_decide() {
        let here = act_here(By::Deciding, true, false, true).unwrap();
        assert!(
            here.words.starts_with("Decide in the approval bar"),
            "{here:?}"
        );
        assert_eq!(here.focus, ".approval-bar button");
    }

    #[test]
    fn a_pause_says_answer_or_step_by_the_lesson() {
        let answer = act_here(By::AnswerAsModel, false, true, true).unwrap();
        assert!(answer.words.contains("answer panel"), "{answer:?}");
        let step = act_here(By::Deciding, false, true, true).unwrap();
        assert!(step.words.contains("Press Step"), "{step:?}");
    }

    #[test]
    fn stop_is_asked_for_only_by_a_stop_lesson_while_the_run_goes() {
        let stop = act_here(By::PressingStop, false, false, true).unwrap();
        assert!(stop.words.starts_with("Press Stop"), "{stop:?}");
        assert_eq!(act_here(By::Deciding, false, false, true), None);
        assert_eq!(act_here(By::PressingStop, false, false, false), None);
    }

    #[test]
    fn an_edit_not_applied_says_so_with_the_path() {
        let said = not_applied(&["limits.stop_mode: expected one of \"strict\", \"naive\"".into()]);
        assert!(said.starts_with("Your edit was not applied"), "{said}");
        assert!(said.contains("limits.stop_mode: expected one of"), "{said}");
    }
}
