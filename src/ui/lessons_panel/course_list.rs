//! The course in order, each lesson marked solved or not in this browser.

use harness::lesson::course::CourseLesson;
use leptos::prelude::*;

use crate::lesson_words;

use super::tutor::Tutor;

/// Called where the course is tracked: another course brings another list.
pub(super) fn course_list(tutor: Tutor) -> AnyView {
    let (course, solved) = (tutor.course, tutor.solved);
    course.with(|c| match c {
        Err(why) => view! { <p class="lesson-note" role="alert">{why.clone()}</p> }.into_any(),
        Ok(c) => {
            let items = c
                .lessons
                .iter()
                .enumerate()
                .map(|(i, l)| course_item(tutor, i, l))
                .collect_view();
            let total = c.lessons.len();
            let title = c.title.clone();
            view! {
                <h3 class="course-title">{title}</h3>
                <p class="course-progress">{move || {
                    let keys: Vec<String> = course.with(|c| c.as_ref().map(|c| c.lessons.iter().map(|l| lesson_words::progress_key(l.name.as_deref(), &l.lesson.title)).collect()).unwrap_or_default());
                    let n = solved.with(|s| keys.iter().filter(|k| s.contains(k)).count());
                    format!("{n} of {total} solved in this browser.")
                }}</p>
                <ol class="lesson-list">{items}</ol>
            }.into_any()
        }
    })
}

/// The course's lesson at `index`, which opens on a click.
fn course_item(tutor: Tutor, index: usize, l: &CourseLesson) -> impl IntoView {
    let solved = tutor.solved;
    let key = lesson_words::progress_key(l.name.as_deref(), &l.lesson.title);
    let done = Signal::derive({
        let key = key.clone();
        move || solved.with(|s| s.contains(&key))
    });
    let title = l.lesson.title.clone();
    let teaches = l.lesson.teaches.clone();
    view! {
        <li class="lesson-item" class:solved=done data-lesson=l.name.clone().unwrap_or_default()>
            <span class="lesson-mark" aria-label=move || if done.get() { "solved" } else { "not solved yet" }>
                {move || if done.get() { "✓" } else { "·" }}
            </span>
            <button type="button" class="lesson-open" on:click=move |_| tutor.open_index(index)>{title}</button>
            " " <span class="lesson-teaches">{teaches}</span>
        </li>
    }
}
