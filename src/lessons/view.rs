//! The Lessons mode: the course in order with what this browser has solved,
//! and the open lesson beside the loop: its intro, its goal in words, Check,
//! hints one at a time, the solution after two failed checks, and once solved
//! its explanation and the next lesson.
//!
//! The lesson's judgement is the harness's (`harness::lesson`), the same the
//! command line's `agent-loop lesson check` gives:
//! - a lesson solved by editing: Check runs the scenario as edited, on the
//!   page like Run (so the run is on the loop), and judges the run with
//!   `goal::evaluate`;
//! - a lesson solved in the run (answering as the model or the tool,
//!   deciding approvals, pressing Stop): the learner runs it with Run or Step
//!   and the answer panel or approval bar, and Check judges the run in view.
//!
//! Only the lesson's `editable` paths may change: the form's other fields
//! and the JSON box are read-only (`Editor::set_lock`), each editable path
//! gets a JSON box of its own (`lessons::view::parts`), and any other change to
//! the editor's text (an import, a link) is undone at once with a message
//! naming the path (`Lesson::edit_problems`, `patch::changed_outside`).
//!
//! A split module of its own (`lessons_panel`): fetched the first time the
//! mode opens, with the course's files, so the first paint carries neither.
//!
//! The panel's parts share a `Tutor` (`tutor`: the course, the open lesson
//! and how one opens); the open lesson is `lesson_card`, the course
//! `course_list`, and each action a module of its own (`check`, `solution`,
//! `make`, `file`), beside the lesson's hold on the editor (`guard`). The
//! course's chapters open with an intro (`chapter_intro`) and fold the loop
//! to what they have taught (`fold`); `[[terms]]` link the glossary
//! (`glossary`); a lesson may ask for a prediction first (`predict`) or be
//! stepped through (`walk`); the course ends with what it taught
//! (`course_end`); and progress travels as a link (`progress_link`).

mod chapter_intro;
mod check;
mod course_end;
mod course_list;
mod file;
mod fold;
mod glossary;
mod guard;
mod jumps;
mod lesson_card;
mod make;
pub mod parts;
mod predict;
mod progress_link;
mod solution;
mod tutor;
mod walk;

#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;

use crate::editor::state::Editor;
use crate::lessons::state::Lessons;
use crate::run::controller::Controller;

use course_list::course_list;
use file::file_picker;
use lesson_card::lesson_card;
use make::make_lesson;
use tutor::{Page, Tutor};

/// The Lessons panel (see the module's doc).
#[cfg_attr(feature = "split", lazy)]
pub async fn lessons_panel(lessons: Lessons, editor: Editor, controller: Controller) -> AnyView {
    // Drawn once its stylesheet has loaded: never unstyled.
    crate::browser::stylesheet::load("lessons.css").await;
    view! { <LessonsPanel lessons editor controller /> }.into_any()
}

#[component]
fn LessonsPanel(lessons: Lessons, editor: Editor, controller: Controller) -> impl IntoView {
    let tutor = Tutor::new(lessons, editor, controller);
    tutor.follow_links();
    guard::lock_editor(tutor);
    guard::undo_outside_edits(tutor);
    check::follow_the_run_in_view(tutor);
    fold::fold_the_loop(tutor);
    predict::hold_runs_until_predicted(tutor);
    predict::remember_what_the_start_did(tutor);
    // Opening the mode goes to it: on a phone the panel is far below the
    // Lessons button, and at any width its column may be scrolled past it.
    Effect::new(move |was_open: Option<bool>| {
        let open = lessons.open().get();
        if open && was_open != Some(true) {
            crate::browser::page::bring_into_view(
                || {
                    web_sys::window()?
                        .document()?
                        .query_selector(".lessons-panel")
                        .ok()?
                },
                web_sys::ScrollLogicalPosition::Start,
            );
        }
        open
    });
    view! {
        <section class="lessons-panel" aria-label="Lessons" hidden=move || !lessons.open().get()>
            <div class="lessons-head">
                <h2>"Lessons"</h2>
                {file_picker(tutor)}
                <button type="button" class="lesson-make" on:click=move |_| make_lesson(tutor)
                    title="A lesson file whose goal is what the run in view did">"Make this a lesson"</button>
                <button type="button" class="lessons-close" on:click=move |_| lessons.set_open(false)>"Close Lessons"</button>
            </div>
            {jumps::jump_bar()}
            {move || tutor.note.get().map(|text| view! { <p class="lesson-note" role="alert">{text}</p> })}
            {move || match (tutor.page.get(), tutor.open.get()) {
                (Some(Page::Intro(chapter)), _) => chapter_intro::chapter_intro(tutor, chapter),
                (Some(Page::Glossary), _) => glossary::glossary_page(tutor).into_any(),
                (Some(Page::End), _) => course_end::course_end(tutor).into_any(),
                (Some(Page::Progress(names)), _) => progress_link::progress_page(tutor, names).into_any(),
                (None, Some(open)) => lesson_card(tutor, open).into_any(),
                (None, None) => course_list(tutor),
            }}
        </section>
    }
}
