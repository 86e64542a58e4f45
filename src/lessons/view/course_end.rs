//! The end of the course, "What you learned": each lesson's takeaway under
//! its chapter, marked solved or not in this browser.

use leptos::prelude::*;

use crate::lessons::words as lesson_words;

use super::glossary::rich_text;
use super::tutor::Tutor;

/// One lesson's line: its key, title and takeaway.
type Line = (String, String, String);

pub(super) fn course_end(tutor: Tutor) -> impl IntoView {
    let solved = tutor.solved;
    let sections: Vec<(String, Vec<Line>)> = tutor.course.with_untracked(|c| {
        let Ok(c) = c else {
            return Vec::new();
        };
        let line = |i: usize| {
            let l = &c.lessons[i];
            (
                lesson_words::progress_key(l.name.as_deref(), &l.lesson.title),
                l.lesson.title.clone(),
                l.lesson.takeaway.clone(),
            )
        };
        if c.chapters.is_empty() {
            return vec![(c.title.clone(), (0..c.lessons.len()).map(line).collect())];
        }
        c.chapters
            .iter()
            .enumerate()
            .map(|(n, ch)| {
                (
                    format!("Chapter {}: {}", n + 1, ch.title),
                    ch.lessons.clone().map(line).collect(),
                )
            })
            .collect()
    });
    let total: Vec<String> = sections
        .iter()
        .flat_map(|(_, lines)| lines.iter().map(|(key, _, _)| key.clone()))
        .collect();
    let count = move || {
        let n = solved.with(|s| total.iter().filter(|k| s.contains(k)).count());
        format!("{n} of {} lessons solved in this browser.", total.len())
    };
    let sections = sections
        .into_iter()
        .map(|(heading, lines)| {
            let items = lines
                .into_iter()
                .map(|(key, title, takeaway)| {
                    let done = Signal::derive({
                        let key = key.clone();
                        move || solved.with(|s| s.contains(&key))
                    });
                    view! {
                        <li class="takeaway" class:solved=done data-lesson=key>
                            <span class="lesson-mark" aria-label=move || if done.get() { "solved" } else { "not solved yet" }>
                                {move || if done.get() { "✓" } else { "·" }}
                            </span>
                            <strong>{title}</strong> ": " {rich_text(tutor, &takeaway)}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <section class="course-end-chapter">
                    <h4>{heading}</h4>
                    <ul class="takeaways">{items}</ul>
                </section>
            }
        })
        .collect_view();
    view! {
        <div class="course-end">
            <button type="button" class="lesson-back" on:click=move |_| tutor.show_list()>"← All lessons"</button>
            <h3>"What you learned"</h3>
            <p class="course-end-count">{count}</p>
            {sections}
        </div>
    }
}
