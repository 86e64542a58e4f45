//! The open lesson: its chapter, its intro (glossary terms as links), a
//! prediction to make first or the walk to step through when the lesson
//! asks for one, its goal in words, Check, hints one at a time, the
//! solution once offered, the verdict, and once solved its explanation
//! filled from the learner's run and the next lesson (after the last, what
//! the course taught).

use harness::lesson::goal::GoalPart;
use harness::lesson::play::Played;
use harness::lesson::{terms, By, Checked, Lesson};
use leptos::prelude::*;

use crate::lessons::model::AttemptMsg;
use crate::lessons::words as lesson_words;
use crate::run::view_model;

use crate::lessons::view::parts::LessonParts;

use super::check::{check, checking_notice, how_to_solve};
use super::fold::fold_note;
use super::glossary::rich_text;
use super::predict::{awaits_prediction, prediction, WAITING};
use super::solution::show_solution;
use super::tutor::{Open, Page, Tutor};
use super::walk::walk_view;

/// Called where the open lesson is tracked: another lesson, another card.
pub(super) fn lesson_card(tutor: Tutor, open: Open) -> impl IntoView {
    let Open { key, lesson, index } = open;
    let attempt = tutor.attempt;
    let solved = tutor.solved;
    let is_solved = Signal::derive(move || solved.with(|s| s.contains(&key)));
    let hints = lesson.hints.clone();
    view! {
        <div class="lesson-open-view">
            <button type="button" class="lesson-back" on:click=move |_| tutor.show_list()>"← All lessons"</button>
            {chapter_line(tutor, index)}
            <h3 class="lesson-title">
                {move || is_solved.get().then_some("✓ ")}
                {lesson.title.clone()}
            </h3>
            <p class="lesson-intro">{rich_text(tutor, &lesson.intro)}</p>
            {fold_note(tutor)}
            {lesson.predict.clone().map(|predict| prediction(tutor, predict, lesson.scenario.clone()))}
            {(lesson.by == By::Stepping).then(|| walk_view(tutor, lesson.walk.clone()))}
            {lesson_goal(&lesson)}
            // The lesson's editable fields, between its goal and Check.
            <LessonParts editor=tutor.editor paths=lesson.editable.clone() />
            {lesson_actions(tutor, hints.len())}
            {checking_notice(tutor, lesson.by)}
            {move || attempt.verdict().get().map(check_verdict)}
            <ol class="lesson-hints">
                {move || hints.iter().take(attempt.hints_shown()).map(|h| view! { <li>{rich_text(tutor, h)}</li> }).collect_view()}
            </ol>
            {move || attempt.solution_note().get().map(|text| view! { <p class="lesson-solution-note" role="status">{text}</p> })}
            {explanation(tutor, lesson.clone())}
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
                aria-describedby="lesson-check-waits"
                prop:disabled=move || attempt.checking() || awaits_prediction(tutor)>"Check"</button>
            <button type="button" class="lesson-hint"
                prop:disabled=move || { attempt.hints_shown() >= hint_count }
                on:click=move |_| { tutor.send(AttemptMsg::HintShown); }>
                {hint_label}
            </button>
            {move || attempt.offers_solution().then(|| view! {
                <button type="button" class="lesson-solution" on:click=move |_| show_solution(tutor)>"Show the solution"</button>
            })}
        </div>
        <p id="lesson-check-waits" class="lesson-check-waits">{move || awaits_prediction(tutor).then_some(WAITING)}</p>
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

/// "Chapter 2 of 10: When the harness stops it", above a course lesson's
/// title, a button back to the chapter's intro.
fn chapter_line(tutor: Tutor, index: Option<usize>) -> Option<impl IntoView> {
    let index = index?;
    let (chapter, count, title) = tutor.course.with_untracked(|c| {
        let c = c.as_ref().ok()?;
        let chapter = c.chapter_of(index)?;
        Some((chapter, c.chapters.len(), c.chapters[chapter].title.clone()))
    })?;
    Some(view! {
        <p class="lesson-chapter">
            <button type="button" class="lesson-chapter-open" on:click=move |_| tutor.page.set(Some(Page::Intro(chapter)))
                title="This chapter's intro">
                {format!("Chapter {} of {count}: {title}", chapter + 1)}
            </button>
        </p>
    })
}

/// The explanation filled from the run in view, the learner's work and
/// the scenario as edited: the learner's own numbers, not placeholders.
fn explained(tutor: Tutor, lesson: &Lesson) -> String {
    let events = tutor.controller.events().get_untracked();
    let Some(outcome) = view_model::outcome_of(&events).cloned() else {
        return terms::plain(&lesson.explain);
    };
    let edited = serde_json::from_str::<serde_json::Value>(&tutor.editor.text().get_untracked())
        .unwrap_or_else(|_| lesson.start.clone());
    let checked = Checked {
        played: Played { events, outcome },
        parts: tutor.attempt.verdict().get_untracked().unwrap_or_default(),
        work: tutor.work(),
        start_value: super::predict::start_value_beside(tutor),
    };
    lesson.explain_for(&checked, &edited)
}

/// Once solved: why the lesson's goal mattered, in the terms of the
/// learner's run, and the next lesson; after the last, what the course taught.
fn explanation(tutor: Tutor, lesson: Lesson) -> impl IntoView {
    move || {
        tutor.attempt.solved().then(|| {
            let explain = explained(tutor, &lesson);
            view! {
                <div class="lesson-explain">
                    <h4>"Why"</h4>
                    <p>{rich_text(tutor, &explain)}</p>
                    {move || tutor.has_next().then(|| view! {
                        <button type="button" class="lesson-next" on:click=move |_| tutor.open_next()>"Next lesson →"</button>
                    })}
                    {move || tutor.is_last().then(|| view! {
                        <button type="button" class="lesson-next course-end-open" on:click=move |_| tutor.page.set(Some(Page::End))>
                            "What you learned →"
                        </button>
                    })}
                </div>
            }
        })
    }
}
