//! The course in order, by chapter when it has chapters: each chapter's
//! title (opening its intro) and how many of its lessons are solved, its
//! lessons numbered through the course and marked solved or not in this
//! browser; and the ways on: the glossary, what the course teaches, and a
//! progress link.

use harness::lesson::course::{Course, CourseLesson};
use leptos::prelude::*;

use crate::lessons::words as lesson_words;

use super::progress_link::progress_link;
use super::tutor::{Page, Tutor};

/// Called where the course is tracked: another course brings another list.
pub(super) fn course_list(tutor: Tutor) -> AnyView {
    let (course, solved) = (tutor.course, tutor.solved);
    course.with(|c| match c {
        Err(why) => view! { <p class="lesson-note" role="alert">{why.clone()}</p> }.into_any(),
        Ok(c) => {
            let keys = keys(c, 0..c.lessons.len());
            let total = keys.len();
            let title = c.title.clone();
            let has_terms = c.chapters.iter().any(|ch| !ch.terms.is_empty());
            let body = if c.chapters.is_empty() {
                let items = c
                    .lessons
                    .iter()
                    .enumerate()
                    .map(|(i, l)| course_item(tutor, i, l))
                    .collect_view();
                view! { <ol class="lesson-list">{items}</ol> }.into_any()
            } else {
                let chapters = (0..c.chapters.len())
                    .map(|n| chapter_item(tutor, c, n))
                    .collect_view();
                view! { <ol class="lesson-list course-chapters">{chapters}</ol> }.into_any()
            };
            view! {
                <h3 class="course-title">{title}</h3>
                <p class="course-progress">{move || {
                    let n = solved.with(|s| keys.iter().filter(|k| s.contains(k)).count());
                    format!("{n} of {total} solved in this browser.")
                }}</p>
                <div class="course-ways">
                    {has_terms.then(|| view! {
                        <button type="button" class="glossary-open" on:click=move |_| tutor.page.set(Some(Page::Glossary))>"Glossary"</button>
                    })}
                    <button type="button" class="course-end-open" on:click=move |_| tutor.page.set(Some(Page::End))>"What the course teaches"</button>
                    {progress_link(tutor)}
                    {crate::ui::guide_link::guide_link("teach/lessons.html", "teaching with the course")}
                </div>
                {body}
            }
            .into_any()
        }
    })
}

/// The progress keys of the course's lessons in `range`.
fn keys(c: &Course, range: std::ops::Range<usize>) -> Vec<String> {
    c.lessons[range]
        .iter()
        .map(|l| lesson_words::progress_key(l.name.as_deref(), &l.lesson.title))
        .collect()
}

/// Chapter `n`: its heading (which opens its intro), its progress, and its
/// lessons, numbered through the course.
fn chapter_item(tutor: Tutor, c: &Course, n: usize) -> impl IntoView {
    let chapter = &c.chapters[n];
    let range = chapter.lessons.clone();
    let keys = keys(c, range.clone());
    let total = keys.len();
    let solved = tutor.solved;
    let progress = move || {
        let done = solved.with(|s| keys.iter().filter(|k| s.contains(k)).count());
        format!("{done} of {total} solved")
    };
    let items = range
        .clone()
        .map(|i| course_item(tutor, i, &c.lessons[i]))
        .collect_view();
    view! {
        <li class="course-chapter" data-chapter=n.to_string()>
            <h4 class="chapter-head">
                <button type="button" class="chapter-open" on:click=move |_| tutor.page.set(Some(Page::Intro(n)))>
                    {format!("Chapter {}: {}", n + 1, chapter.title)}
                </button>
                " " <span class="chapter-progress">{progress}</span>
            </h4>
            <ol class="chapter-lessons" start=(range.start + 1).to_string()>{items}</ol>
        </li>
    }
}

/// The course's lesson at `index`, which opens on a click (a chapter's
/// first lesson after the chapter's intro).
fn course_item(tutor: Tutor, index: usize, l: &CourseLesson) -> impl IntoView {
    let solved = tutor.solved;
    let key = lesson_words::progress_key(l.name.as_deref(), &l.lesson.title);
    let done = Signal::derive({
        let key = key.clone();
        move || solved.with(|s| s.contains(&key))
    });
    let title = l.lesson.title.clone();
    let teaches = l.lesson.teaches.clone();
    let by = match l.lesson.by.as_str() {
        "stepping" => Some("by stepping"),
        "predicting" => Some("predict first"),
        _ => None,
    };
    view! {
        <li class="lesson-item" class:solved=done data-lesson=l.name.clone().unwrap_or_default()>
            <span class="lesson-mark" aria-label=move || if done.get() { "solved" } else { "not solved yet" }>
                {move || if done.get() { "✓" } else { "·" }}
            </span>
            <button type="button" class="lesson-open" on:click=move |_| tutor.open_in_course(index)>{title}</button>
            " " <span class="lesson-teaches">{teaches}</span>
            {by.map(|by| view! { " " <span class="lesson-by">{by}</span> })}
        </li>
    }
}
