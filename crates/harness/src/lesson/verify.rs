//! Whether a lesson is true: its start misses its goal, its solution meets
//! it, none of its misses meets it, a stepping lesson's walk has a line for
//! each pause, a prediction's true value is among its choices, the
//! explanation's `{value:PATH}`s name values the solved scenario has; and, for
//! the built-in course, that every lesson has a miss and a takeaway. What
//! `agent-loop lesson verify` runs on every lesson, and CI with it.

use std::rc::Rc;

use super::explain::value_paths;
use super::patch::value_at;
use super::play::play_stepped;
use super::{By, Checked, Lesson};
use crate::runtime::Runtime;
use crate::scenario::Problem;

/// How strictly to verify: the built-in course also needs each lesson's
/// misses and takeaway, which the format leaves optional.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strictness {
    Format,
    BuiltIn,
}

fn listed(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// The sentences of the parts that hold: what a run that met the goal did.
fn held(checked: &Checked) -> String {
    checked
        .parts
        .iter()
        .map(|p| p.sentence.as_str())
        .collect::<Vec<_>>()
        .join("; ")
}

fn missed(checked: &Checked) -> String {
    checked
        .parts
        .iter()
        .filter(|p| !p.holds)
        .map(|p| p.sentence.as_str())
        .collect::<Vec<_>>()
        .join("; ")
}

/// Why the lesson is not true, one sentence each; empty when it is.
pub async fn verify(
    lesson: &Lesson,
    strictness: Strictness,
    runtime: Rc<dyn Runtime>,
) -> Vec<String> {
    let mut wrong = Vec::new();
    if strictness == Strictness::BuiltIn {
        if lesson.misses.is_empty() {
            wrong.push(
                "it lists no miss: a tempting change that must not meet the goal".to_string(),
            );
        }
        if lesson.takeaway.trim().is_empty() {
            wrong.push(
                "it has no takeaway: the one sentence the course's last page lists".to_string(),
            );
        }
    }
    match lesson.check(runtime.clone()).await {
        Err(p) => wrong.push(format!("its start cannot run: {}", listed(&p))),
        Ok(start) => {
            if start.holds() {
                wrong.push(format!(
                    "its start already meets its goal (the run ended {}), so there is nothing to do",
                    start.played.outcome.status
                ));
            }
            if let Some(why) = prediction_problem(lesson, &start) {
                wrong.push(why);
            }
        }
    }
    match lesson.check_solution(runtime.clone()).await {
        Err(p) => wrong.push(format!("its solution cannot run: {}", listed(&p))),
        Ok(solved) if !solved.holds() => wrong.push(format!(
            "its solution does not meet its goal: {}",
            missed(&solved)
        )),
        Ok(_) => {}
    }
    for (i, miss) in lesson.misses.iter().enumerate() {
        match lesson.check_miss(i, runtime.clone()).await {
            Err(p) => wrong.push(format!(
                "misses[{i}] ({:?}) cannot run: {}",
                miss.why,
                listed(&p)
            )),
            Ok(checked) if checked.holds() => wrong.push(format!(
                "misses[{i}] ({:?}) meets the goal: {}",
                miss.why,
                held(&checked)
            )),
            Ok(_) => {}
        }
    }
    if let Ok(solved) = lesson.setup(&lesson.solution) {
        for path in value_paths(&lesson.explain) {
            if value_at(&solved.edited, path).is_none() {
                wrong.push(format!(
                    "its explanation shows {{value:{path}}}, which the solved scenario does not set, so the learner would read \"(not set)\""
                ));
            }
        }
    }
    if lesson.by == By::Stepping {
        if let Some(why) = walk_problem(lesson, runtime).await {
            wrong.push(why);
        }
    }
    wrong
}

/// A prediction read from the run whose true value no choice offers: the
/// learner could not pick the right answer.
fn prediction_problem(lesson: &Lesson, start: &Checked) -> Option<String> {
    let predict = lesson.predict.as_ref()?;
    let of = predict.of?;
    let actual = predict.actual(&start.played.events, &start.played.outcome);
    (!predict.offers(&actual)).then(|| {
        format!(
            "its question asks the run's {}, which is {actual:?}, but the choices are {}",
            of.as_str(),
            predict
                .choices
                .iter()
                .map(|c| format!("{c:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// A walk whose lines do not match the stepped run's pauses, one for one.
async fn walk_problem(lesson: &Lesson, runtime: Rc<dyn Runtime>) -> Option<String> {
    let setup = lesson.setup(&lesson.solution).ok()?;
    match play_stepped(&setup.scenario, &setup.work, runtime).await {
        Err(p) => Some(format!("its run cannot be stepped: {}", listed(&p))),
        Ok((_, pauses)) if pauses.len() != lesson.walk.len() => Some(format!(
            "its walk has {} line{}, but the run stepped from the start pauses {} time{} ({})",
            lesson.walk.len(),
            if lesson.walk.len() == 1 { "" } else { "s" },
            pauses.len(),
            if pauses.len() == 1 { "" } else { "s" },
            pauses.join(", ")
        )),
        Ok(_) => None,
    }
}
