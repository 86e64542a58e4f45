//! What differs between the two runs' scenarios, in words.

use leptos::prelude::*;

use crate::compare::change::{before_and_after, Change, Words};

/// What differs between the two scenarios, above the columns: each change
/// with its words or keywords. A rewritten text is two lines, before and
/// after, the words B dropped struck through and marked "−" in the first,
/// those it added underlined and marked "+" in the second, so the change
/// reads without colour.
#[component]
pub(super) fn ChangePanel(changes: Option<Vec<Change>>, a: String, b: String) -> impl IntoView {
    let body = match changes {
        None => view! {
            <p class="hint">"One of the runs carries no scenario (a bare trace), so what changed cannot be shown."</p>
        }
        .into_any(),
        Some(changes) if changes.is_empty() => view! {
            <p class="hint">"Nothing differs between the two scenarios but, at most, their names and lessons: any difference in the runs comes from the model or the tools' state."</p>
        }
        .into_any(),
        Some(changes) => view! {
            <ul class="change-list">
                {changes.into_iter().map(change_item).collect_view()}
            </ul>
        }
        .into_any(),
    };
    view! {
        <section class="compare-change" aria-labelledby="compare-change-heading">
            <h3 id="compare-change-heading">{format!("What changed from {a} to {b}")}</h3>
            {body}
        </section>
    }
}

fn change_item(change: Change) -> impl IntoView {
    let what = change.what();
    let detail = match change {
        Change::Text { words, .. } => {
            let (before, after) = before_and_after(&words);
            view! {
                <div class="word-diff">
                    <p class="diff-line diff-before">
                        <span class="diff-side">"Before (A): "</span>
                        {marked_line(before)}
                    </p>
                    <p class="diff-line diff-after">
                        <span class="diff-side">"After (B): "</span>
                        {marked_line(after)}
                    </p>
                </div>
            }
            .into_any()
        }
        Change::Keywords { keywords, .. } => view! {
            <ul class="keyword-diff">
                {keywords.into_iter().map(|k| view! {
                    <li><code>{k.path.clone()}</code>": "{k.words()}</li>
                }).collect_view()}
            </ul>
        }
        .into_any(),
        Change::Tool { .. } => ().into_any(),
    };
    view! {
        <li class="change">
            <span class="change-what">{what}</span>
            {detail}
        </li>
    }
}

/// One line of a rewritten text, its changed words marked (the stylesheet
/// puts "−" or "+" before them, which screen readers read too).
fn marked_line(words: Vec<Words>) -> impl IntoView {
    words
        .into_iter()
        .map(|w| match w {
            Words::Same(t) => view! { <span>{t}</span> }.into_any(),
            Words::Removed(t) => view! {
                <del title="only in A">{t}</del>
            }
            .into_any(),
            Words::Added(t) => view! {
                <ins title="only in B">{t}</ins>
            }
            .into_any(),
        })
        .collect_view()
}
