//! Glossary terms: a lesson's or chapter's text with each `[[term]]` drawn
//! as a button that shows the term's meaning beside it (from the chapters'
//! `terms`), and the glossary page listing every term by chapter.

use harness::lesson::terms::{self, Piece};
use leptos::prelude::*;

use super::tutor::Tutor;

/// What `term` means in the course, if a chapter defines it.
fn meaning(tutor: Tutor, term: &str) -> Option<String> {
    tutor
        .course
        .with_untracked(|c| c.as_ref().ok()?.meaning(term).map(str::to_string))
}

/// `text` with its glossary terms as buttons showing their meaning. A term
/// the course does not define is shown as its words alone.
pub(super) fn rich_text(tutor: Tutor, text: &str) -> impl IntoView {
    terms::split(text)
        .into_iter()
        .map(|piece| match piece {
            Piece::Plain(words) => words.to_string().into_any(),
            Piece::Term { term, shown } => match meaning(tutor, term) {
                Some(means) => term_button(term.to_string(), shown.to_string(), means).into_any(),
                None => shown.to_string().into_any(),
            },
        })
        .collect_view()
}

/// A term's words as a button; pressed, its meaning follows it in the text.
fn term_button(term: String, shown: String, means: String) -> impl IntoView {
    let open = RwSignal::new(false);
    view! {
        <button type="button" class="term" data-term=term.clone() aria-expanded=move || open.get().to_string()
            title=format!("What “{term}” means")
            on:click=move |_| open.update(|o| *o = !*o)>{shown}</button>
        {move || open.get().then(|| view! {
            <span class="term-means" role="note">" (" <dfn>{term.clone()}</dfn> ": " {means.clone()} ")"</span>
        })}
    }
}

/// The glossary: every term the course defines, under the chapter that
/// brings it in.
pub(super) fn glossary_page(tutor: Tutor) -> impl IntoView {
    let chapters = tutor.course.with_untracked(|c| {
        c.as_ref()
            .map(|c| {
                c.chapters
                    .iter()
                    .enumerate()
                    .filter(|(_, ch)| !ch.terms.is_empty())
                    .map(|(i, ch)| (i, ch.title.clone(), ch.terms.clone()))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    });
    let empty = chapters.is_empty();
    let sections = chapters
        .into_iter()
        .map(|(i, title, terms)| {
            let rows = terms
                .into_iter()
                .map(|t| {
                    view! {
                        <dt data-term=t.term.clone()>{t.term.clone()}</dt>
                        <dd>{rich_text(tutor, &t.means)}</dd>
                    }
                })
                .collect_view();
            view! {
                <section class="glossary-chapter">
                    <h4>{format!("Chapter {}: {title}", i + 1)}</h4>
                    <dl class="glossary-terms">{rows}</dl>
                </section>
            }
        })
        .collect_view();
    view! {
        <div class="glossary">
            <button type="button" class="lesson-back" on:click=move |_| tutor.show_list()>"← All lessons"</button>
            <h3>"Glossary"</h3>
            {empty.then(|| view! { <p>"This course defines no terms."</p> })}
            {sections}
        </div>
    }
}
