//! A chapter's intro page, shown before its first lesson: its title, what
//! it is about, the words it brings in, and "Start the chapter".

use leptos::prelude::*;

use super::fold::fold_note;
use super::glossary::rich_text;
use super::tutor::Tutor;

/// The intro of the course's chapter at `index`.
pub(super) fn chapter_intro(tutor: Tutor, index: usize) -> AnyView {
    let Some((count, title, intro, lessons, terms)) = tutor.course.with_untracked(|c| {
        let c = c.as_ref().ok()?;
        let ch = c.chapters.get(index)?;
        Some((
            c.chapters.len(),
            ch.title.clone(),
            ch.intro.clone(),
            ch.lessons.len(),
            ch.terms.iter().map(|t| t.term.clone()).collect::<Vec<_>>(),
        ))
    }) else {
        return ().into_any();
    };
    let words = (!terms.is_empty()).then(|| {
        let linked: Vec<String> = terms.iter().map(|t| format!("[[{t}]]")).collect();
        view! { <p class="chapter-terms">"Words this chapter brings in: " {rich_text(tutor, &linked.join(", "))}</p> }
    });
    // Its paragraphs are written apart by a blank line.
    let paragraphs = intro
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| view! { <p>{rich_text(tutor, p)}</p> })
        .collect_view();
    view! {
        <div class="chapter-intro" data-chapter=index.to_string()>
            <button type="button" class="lesson-back" on:click=move |_| tutor.show_list()>"← All lessons"</button>
            <p class="chapter-number">{format!("Chapter {} of {count}", index + 1)}</p>
            <h3 class="chapter-title">{title}</h3>
            <div class="chapter-text">{paragraphs}</div>
            {words}
            {fold_note(tutor)}
            <p class="chapter-count">{format!("{lessons} lesson{} in this chapter.", if lessons == 1 { "" } else { "s" })}</p>
            <button type="button" class="chapter-start" on:click=move |_| tutor.start_chapter(index)>"Start the chapter"</button>
        </div>
    }
    .into_any()
}
