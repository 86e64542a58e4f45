//! The loop drawn with only what the course has taught so far: while a
//! built-in chapter's lesson (or its intro) is open, the diagram's parts no
//! chapter up to it `reveals` are folded away, so the drawn loop grows as
//! the course goes; the lesson says how many are folded, with "Show the
//! whole loop".
//!
//! The diagram is first-paint code and knows nothing of this: the parts to
//! fold are listed in the page root's `data-fold` attribute, and
//! static/lessons.css (loaded with this module) folds each listed part
//! (`[data-fold~="gate-cost"] [data-node="gate-cost"]`).

use leptos::prelude::*;

use crate::lessons::words as lesson_words;

use super::tutor::{Page, Tutor};

/// The attribute on `<html>` listing the parts to fold.
const FOLD_ATTRIBUTE: &str = "data-fold";

/// The chapter whose teaching the loop shows now, if any (tracked).
fn chapter_in_view(tutor: Tutor) -> Option<usize> {
    if !tutor.lessons.open().get() {
        return None;
    }
    match tutor.page.get() {
        Some(Page::Intro(chapter)) => Some(chapter),
        Some(_) => None,
        None => {
            let index = tutor.open.with(|o| o.as_ref().and_then(|o| o.index))?;
            tutor.chapter_of(index)
        }
    }
}

/// The parts folded now (tracked).
fn folded(tutor: Tutor) -> Vec<&'static str> {
    let Some(chapter) = chapter_in_view(tutor) else {
        return Vec::new();
    };
    if tutor.whole_loop.get() {
        return Vec::new();
    }
    tutor.course.with(|c| {
        c.as_ref()
            .map(|c| lesson_words::folded_parts(c, chapter))
            .unwrap_or_default()
    })
}

/// Keeps the page root's list of folded parts up to date.
pub(super) fn fold_the_loop(tutor: Tutor) {
    Effect::new(move |_| {
        let parts = folded(tutor);
        let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        else {
            return;
        };
        let _ = if parts.is_empty() {
            root.remove_attribute(FOLD_ATTRIBUTE)
        } else {
            root.set_attribute(FOLD_ATTRIBUTE, &parts.join(" "))
        };
    });
    on_cleanup(|| {
        if let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = root.remove_attribute(FOLD_ATTRIBUTE);
        }
    });
}

/// What is folded, in words, with the button that shows (or folds) it all.
pub(super) fn fold_note(tutor: Tutor) -> impl IntoView {
    move || {
        if tutor.whole_loop.get() {
            return chapter_in_view(tutor).map(|_| {
                view! {
                    <p class="loop-fold-note">
                        "The loop shows all its parts, taught or not. "
                        <button type="button" on:click=move |_| tutor.whole_loop.set(false)>
                            "Fold what is not taught yet"
                        </button>
                    </p>
                }
                .into_any()
            });
        }
        let parts = folded(tutor);
        (!parts.is_empty()).then(|| {
            let words = lesson_words::folded_words(&parts);
            view! {
                <p class="loop-fold-note" role="status">
                    {format!("The loop shows what the course has taught so far: {words} not taught yet are folded away. ")}
                    <button type="button" on:click=move |_| tutor.whole_loop.set(true)>"Show the whole loop"</button>
                </p>
            }
            .into_any()
        })
    }
}
