//! Progress that travels: "Copy a progress link" gives a URL whose fragment
//! names the built-in lessons solved in this browser (no server keeps it),
//! and such a link opens a read-only view of them by chapter, leaving the
//! progress kept in the browser that opens it as it was.

use std::ops::Range;

use harness::lesson::course;
use leptos::prelude::*;

use crate::browser::page;
use crate::lessons::words as lesson_words;

use super::tutor::Tutor;

/// The page's address without its fragment, then `fragment`.
fn url_with(fragment: &str) -> Option<String> {
    let location = web_sys::window()?.location();
    Some(format!(
        "{}{}{}{fragment}",
        location.origin().ok()?,
        location.pathname().ok()?,
        location.search().unwrap_or_default()
    ))
}

/// "Copy a progress link", and the link once made (to copy by hand where
/// the clipboard is refused).
pub(super) fn progress_link(tutor: Tutor) -> impl IntoView {
    let link = RwSignal::new(None::<String>);
    let said = RwSignal::new(None::<&'static str>);
    let copy = move |_| {
        let solved = tutor.solved.get_untracked();
        let fragment = lesson_words::progress_fragment(&solved, course::BUILTIN_LESSONS);
        let Some(url) = url_with(&fragment) else {
            return;
        };
        link.set(Some(url.clone()));
        crate::browser::runner::start(async move {
            said.set(Some(match page::copy_text(&url).await {
                Ok(()) => "Progress link copied to the clipboard.",
                Err(()) => "Copy the progress link from the box.",
            }));
        });
    };
    view! {
        <div class="progress-link">
            <button type="button" class="progress-copy" on:click=copy
                title="A link that shows which built-in lessons are solved here; it changes nothing where it is opened">
                "Copy a progress link"
            </button>
            {move || link.get().map(|url| view! {
                <label class="progress-url">
                    "Progress link "
                    <input type="text" readonly prop:value=url on:focus=|ev| {
                        use wasm_bindgen::JsCast;
                        if let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                            input.select();
                        }
                    } />
                </label>
            })}
            {move || said.get().map(|text| view! { <span class="progress-said" role="status">{text}</span> })}
        </div>
    }
}

/// A chapter of someone's progress: its heading and its lessons' names,
/// titles and solved marks.
struct Group {
    heading: String,
    lessons: Vec<(String, String, bool)>,
}

/// The built-in course's chapters with `names` marked solved. The link
/// names built-in lessons: it is read against the built-in course even
/// when another course is listed here.
fn groups(tutor: Tutor, names: &[String]) -> Vec<Group> {
    let listed = tutor.course.with_untracked(|c| {
        c.as_ref()
            .ok()
            .filter(|c| c.title == course::BUILTIN_COURSE)
            .cloned()
    });
    let Some(course) = listed.or_else(|| course::builtin_course().ok()) else {
        return Vec::new();
    };
    let ranges: Vec<(String, Range<usize>)> = if course.chapters.is_empty() {
        vec![(course.title.clone(), 0..course.lessons.len())]
    } else {
        course
            .chapters
            .iter()
            .enumerate()
            .map(|(n, ch)| {
                (
                    format!("Chapter {}: {}", n + 1, ch.title),
                    ch.lessons.clone(),
                )
            })
            .collect()
    };
    ranges
        .into_iter()
        .map(|(heading, range)| Group {
            heading,
            lessons: course.lessons[range]
                .iter()
                .map(|l| {
                    let name = l.name.clone().unwrap_or_default();
                    let solved = names.contains(&name);
                    (name, l.lesson.title.clone(), solved)
                })
                .collect(),
        })
        .collect()
}

/// Someone's progress from a link: the built-in course by chapter with
/// their solved marks, read-only.
pub(super) fn progress_page(tutor: Tutor, names: Vec<String>) -> impl IntoView {
    let groups = groups(tutor, &names);
    let total: usize = groups.iter().map(|g| g.lessons.len()).sum();
    let solved: usize = groups
        .iter()
        .map(|g| g.lessons.iter().filter(|l| l.2).count())
        .sum();
    let chapters = groups
        .into_iter()
        .map(|Group { heading, lessons }| {
            let done = lessons.iter().filter(|l| l.2).count();
            let of = lessons.len();
            let items = lessons
                .into_iter()
                .map(|(name, title, solved)| {
                    view! {
                        <li class="lesson-item" class:solved=solved data-lesson=name>
                            <span class="lesson-mark" aria-label=if solved { "solved" } else { "not solved" }>
                                {if solved { "✓" } else { "·" }}
                            </span>
                            {title}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <section class="progress-chapter">
                    <h4>{heading} " " <span class="chapter-progress">{format!("{done} of {of} solved")}</span></h4>
                    <ul class="progress-lessons">{items}</ul>
                </section>
            }
        })
        .collect_view();
    view! {
        <div class="progress-view">
            <button type="button" class="lesson-back" on:click=move |_| tutor.show_list()>"← This browser's lessons"</button>
            <h3 class="progress-head">{format!("A student's progress: {solved} of {total} solved")}</h3>
            <p class="progress-note">"Read from a progress link: it changes nothing in this browser's own progress."</p>
            {chapters}
        </div>
    }
}
