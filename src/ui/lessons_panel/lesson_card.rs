//! The open lesson: its intro, its goal in words, Check, hints one at a
//! time, the solution once offered, the verdict, and once solved its
//! explanation and the next lesson.

use harness::lesson::goal::GoalPart;
use harness::lesson::Lesson;
use leptos::prelude::*;

use crate::lesson_words;

use crate::ui::lesson_parts::LessonParts;

use super::check::{check, checking_notice, how_to_solve};
use super::solution::show_solution;
use super::tutor::{Open, Tutor};

/// Called where the open lesson is tracked: another lesson, another card.
pub(super) fn lesson_card(tutor: Tutor, open: Open) -> impl IntoView {
    let Open { key, lesson, .. } = open;
    let attempt = tutor.attempt;
    let solved = tutor.solved;
    let is_solved = Signal::derive(move || solved.with(|s| s.contains(&key)));
    let hints = lesson.hints.clone();
    view! {
        <div class="lesson-open-view">
            <button type="button" class="lesson-back" on:click=move |_| tutor.open.set(None)>"← All lessons"</button>
            <h3 class="lesson-title">
                {move || is_solved.get().then_some("✓ ")}
                {lesson.title.clone()}
            </h3>
            <p class="lesson-intro">{lesson.intro.clone()}</p>
            {lesson_goal(&lesson)}
            // The lesson's editable fields, between its goal and Check.
            <LessonParts editor=tutor.editor paths=lesson.editable.clone() />
            {lesson_actions(tutor, hints.len())}
            {checking_notice(tutor, lesson.by)}
            {move || attempt.verdict().get().map(check_verdict)}
            <ol class="lesson-hints">
                {move || hints.iter().take(attempt.hints_shown()).map(|h| view! { <li>{h.clone()}</li> }).collect_view()}
            </ol>
            {move || attempt.solution_note().get().map(|text| view! { <p class="lesson-solution-note" role="status">{text}</p> })}
            {explanation(tutor, lesson.explain.clone())}
        </div>
    }
}

/// The goal in words, and what the learner must do besides editing.
fn lesson_goal(lesson: &Lesson) -> impl IntoView {
    let goal_lines = lesson_words::goal_lines(&lesson.goal)
        .into_iter()
        .map(|line| view! { <li>{line}</li> })
        .collect_view();
    view! {
        <div id="lesson-goal" class="lesson-goal" tabindex="-1">
            <h4>"Goal"</h4>
            <ul class="goal-parts">{goal_lines}</ul>
            <p class="lesson-how">{how_to_solve(lesson)}</p>
        </div>
    }
}

/// Check, the next hint, and the solution once enough checks have failed.
fn lesson_actions(tutor: Tutor, hint_count: usize) -> impl IntoView {
    let attempt = tutor.attempt;
    let hint_label = move || {
        if attempt.hints_shown() >= hint_count {
            "No more hints".to_string()
        } else {
            format!("Hint ({} left)", hint_count - attempt.hints_shown())
        }
    };
    view! {
        <div class="lesson-actions">
            <button type="button" class="lesson-check" on:click=move |_| check(tutor)
                prop:disabled=move || attempt.checking()>"Check"</button>
            <button type="button" class="lesson-hint"
                prop:disabled=move || { attempt.hints_shown() >= hint_count }
                on:click=move |_| attempt.show_hint()>
                {hint_label}
            </button>
            {move || attempt.offers_solution().then(|| view! {
                <button type="button" class="lesson-solution" on:click=move |_| show_solution(tutor)>"Show the solution"</button>
            })}
        </div>
    }
}

/// Check's verdict, part by part.
fn check_verdict(parts: Vec<GoalPart>) -> impl IntoView {
    let holds = parts.iter().all(|p| p.holds);
    let rows = parts.into_iter().map(|p| view! {
        <li class=if p.holds { "part holds" } else { "part fails" } data-part=p.part.clone()>
            <span aria-hidden="true">{if p.holds { "✓ " } else { "✗ " }}</span>
            {code_spans(&p.sentence)}
        </li>
    }).collect_view();
    view! {
        <div class="lesson-verdict" role="status">
            <p class="verdict-head">{if holds { "Solved: every part of the goal holds." } else { "Not yet: some of the goal does not hold." }}</p>
            <ul>{rows}</ul>
        </div>
    }
}

/// A goal sentence as the command line prints it, its `quoted` words (a
/// status, a tool) shown as code rather than with their backticks.
fn code_spans(sentence: &str) -> impl IntoView {
    sentence
        .split('`')
        .enumerate()
        .map(|(i, part)| {
            let part = part.to_string();
            if i % 2 == 1 {
                view! { <code>{part}</code> }.into_any()
            } else {
                part.into_any()
            }
        })
        .collect_view()
}

/// Once solved: why the lesson's goal mattered, and the next lesson.
fn explanation(tutor: Tutor, explain: String) -> impl IntoView {
    move || {
        tutor.attempt.solved().then(|| {
            let explain = explain.clone();
            view! {
                <div class="lesson-explain">
                    <h4>"Why"</h4>
                    <p>{explain}</p>
                    {move || tutor.has_next().then(|| view! {
                        <button type="button" class="lesson-next" on:click=move |_| tutor.open_next()>"Next lesson →"</button>
                    })}
                </div>
            }
        })
    }
}
