//! What the panel's parts share: the course, what this browser has solved,
//! the open lesson with the attempt at it, the page shown instead of it (a
//! chapter's intro, the glossary, the end of the course, someone's
//! progress), and the note the panel shows; and how a lesson opens, from
//! the list, a link or a file.

use harness::lesson::course::{self, Course, CourseLesson};
use harness::lesson::goal::GoalPart;
use harness::lesson::play::Work;
use harness::lesson::Lesson;
use leptos::prelude::*;

use crate::browser::page;
use crate::editor::provenance::Source;
use crate::editor::state::Editor;
pub(super) use crate::lessons::model::pretty;
use crate::lessons::model::{AttemptCmd, AttemptMsg};
use crate::lessons::state::{Attempt, Lessons};
use crate::lessons::words::{self as lesson_words, Linked};
use crate::run::controller::Controller;
use crate::run::view_model;

/// The `localStorage` key of the solved lessons' keys (a JSON list).
const SOLVED_KEY: &str = "agent-loop-playground.lessons-solved";

/// The open lesson, with its place in the course.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Open {
    pub(super) key: String,
    /// Its index in the course; `None` for a lesson opened on its own.
    pub(super) index: Option<usize>,
    pub(super) lesson: Lesson,
}

/// A page the panel shows in place of the open lesson or the course list.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Page {
    /// The intro of the course's chapter at this index, before its lessons.
    Intro(usize),
    Glossary,
    /// "What you learned": each lesson's takeaway, by chapter.
    End,
    /// Someone's progress from a `#progress=` link: the lessons they solved.
    Progress(Vec<String>),
}

#[derive(Clone, Copy)]
pub(super) struct Tutor {
    pub(super) lessons: Lessons,
    pub(super) editor: Editor,
    pub(super) controller: Controller,
    pub(super) course: RwSignal<Result<Course, String>>,
    /// The solved lessons' keys (`lesson_words::progress_key`).
    pub(super) solved: ReadSignal<Vec<String>>,
    pub(super) open: RwSignal<Option<Open>>,
    /// Shown in place of the open lesson or the list, when set.
    pub(super) page: RwSignal<Option<Page>>,
    /// "Show the whole loop": nothing folded, whatever the course has taught.
    pub(super) whole_loop: RwSignal<bool>,
    pub(super) attempt: Attempt,
    /// What the panel has to say where the learner looks: a link that did
    /// not open, an edit that was refused, a run that could not start.
    pub(super) note: RwSignal<Option<String>>,
}

impl Tutor {
    pub(super) fn new(lessons: Lessons, editor: Editor, controller: Controller) -> Self {
        let attempt = Attempt::new();
        let tutor = Tutor {
            lessons,
            editor,
            controller,
            course: RwSignal::new(builtin()),
            solved: attempt.progress(),
            open: RwSignal::new(None),
            page: RwSignal::new(None),
            whole_loop: RwSignal::new(false),
            attempt,
            note: RwSignal::new(None),
        };
        tutor.send(AttemptMsg::Restored(load_solved()));
        tutor
    }

    /// The one way the attempt changes: its model takes `msg`, and what
    /// it asks for is done here, but for judging a run: that run is handed
    /// back (only `RunSeen` asks for it, and `check` judges).
    pub(super) fn send(self, msg: AttemptMsg) -> Option<u64> {
        let mut to_judge = None;
        for command in self.attempt.send(msg) {
            match command {
                AttemptCmd::Judge { run } => to_judge = Some(run),
                AttemptCmd::SaveProgress(text) => save_solved(&text),
                AttemptCmd::Edit(text) => self.editor.edit(text),
                AttemptCmd::Note(note) => self.note.set(Some(note)),
            }
        }
        to_judge
    }

    /// What the learner did in the open lesson besides editing, for Check
    /// and the explanation: the prediction picked and the Steps pressed in
    /// the run in view.
    pub(super) fn work(self) -> Work {
        Work {
            prediction: untrack(|| self.attempt.prediction()),
            steps: Some(untrack(|| self.attempt.steps())),
            ..Work::default()
        }
    }

    /// The open lesson, if one is.
    pub(super) fn lesson(self) -> Option<Lesson> {
        self.open
            .with_untracked(|o| o.as_ref().map(|o| o.lesson.clone()))
    }

    /// Opens `lesson` afresh: its start in the editor, the run in view
    /// cleared, nothing checked yet.
    fn start(self, key: String, index: Option<usize>, lesson: Lesson) {
        self.send(AttemptMsg::Opened {
            key: key.clone(),
            lesson: Box::new(lesson.clone()),
        });
        let text = self.attempt.with(|a| a.allowed().to_string());
        self.controller.clear_for_another_scenario();
        self.editor.load(text, Source::Lesson(lesson.title.clone()));
        self.editor
            .set_arrival(Some(format!("Opened the lesson “{}”.", lesson.title)));
        self.note.set(None);
        self.page.set(None);
        self.open.set(Some(Open { key, index, lesson }));
        self.lessons.set_open(true);
    }

    /// Back to the course list.
    pub(super) fn show_list(self) {
        self.page.set(None);
        self.open.set(None);
        self.send(AttemptMsg::Closed);
    }

    /// The chapter the course's lesson at `index` is in (tracked).
    pub(super) fn chapter_of(self, index: usize) -> Option<usize> {
        self.course.with(|c| {
            c.as_ref()
                .ok()?
                .chapters
                .iter()
                .position(|ch| ch.lessons.contains(&index))
        })
    }

    /// Opens the course's lesson at `index` from the list or Next: a
    /// chapter's first lesson comes after the chapter's intro.
    pub(super) fn open_in_course(self, index: usize) {
        let first_of = self.course.with_untracked(|c| {
            c.as_ref()
                .ok()?
                .chapters
                .iter()
                .position(|ch| ch.lessons.start == index && !ch.lessons.is_empty())
        });
        match first_of {
            Some(chapter) => self.page.set(Some(Page::Intro(chapter))),
            None => self.open_index(index),
        }
    }

    /// "Start the chapter": its first lesson.
    pub(super) fn start_chapter(self, chapter: usize) {
        let first = self.course.with_untracked(|c| {
            c.as_ref()
                .ok()
                .and_then(|c| c.chapters.get(chapter))
                .map(|ch| ch.lessons.start)
        });
        if let Some(first) = first {
            self.open_index(first);
        }
    }

    /// Opens the course's lesson at `index`, if it has one there.
    pub(super) fn open_index(self, index: usize) {
        let Some(entry) = self
            .course
            .with_untracked(|c| c.as_ref().ok().and_then(|c| c.lessons.get(index).cloned()))
        else {
            return;
        };
        let CourseLesson { name, lesson } = entry;
        self.start(
            lesson_words::progress_key(name.as_deref(), &lesson.title),
            Some(index),
            lesson,
        );
    }

    /// Opens what a link or a file brought: a lesson, or a course to list.
    pub(super) fn open_linked(self, linked: Result<Linked, String>) {
        match linked {
            Ok(Linked::Lesson(name, lesson)) => {
                // A built-in opens at its place in the course.
                let index = name.as_ref().and_then(|name| {
                    self.course.with_untracked(|c| {
                        c.as_ref().ok().and_then(|c| {
                            c.lessons
                                .iter()
                                .position(|l| l.name.as_deref() == Some(name.as_str()))
                        })
                    })
                });
                self.start(
                    lesson_words::progress_key(name.as_deref(), &lesson.title),
                    index,
                    *lesson,
                );
            }
            Ok(Linked::Course(loaded)) => {
                let title = loaded.title.clone();
                let count = loaded.lessons.len();
                self.course.set(Ok(loaded));
                self.show_list();
                self.note.set(Some(format!(
                    "Opened the course “{title}”: {count} lessons."
                )));
            }
            Ok(Linked::Progress(names)) => {
                self.open.set(None);
                self.send(AttemptMsg::Closed);
                self.page.set(Some(Page::Progress(names)));
            }
            Err(why) => self.note.set(Some(why)),
        }
    }

    /// A link that opened the page or was pasted into this tab.
    pub(super) fn follow_links(self) {
        let lessons = self.lessons;
        Effect::new(move |_| {
            if lessons.link().get().is_some() {
                if let Some(link) = lessons.take_link() {
                    self.open_linked(lesson_words::open_link(&link));
                }
            }
        });
    }

    /// Check's verdict on `run`: solved marks the lesson in this browser.
    pub(super) fn record(self, run: u64, parts: Vec<GoalPart>) {
        self.send(AttemptMsg::Judged { run, parts });
        // The answer the learner asked for. The lesson sits atop the trace,
        // which a run that just ended scrolls to its stop banner: the
        // verdict goes into view after that.
        page::bring_into_view_after_others(
            || {
                web_sys::window()?
                    .document()?
                    .query_selector(".lesson-verdict")
                    .ok()?
            },
            web_sys::ScrollLogicalPosition::Nearest,
        );
    }

    /// The open lesson has a next one in the course (tracked).
    pub(super) fn has_next(self) -> bool {
        self.open
            .with(|o| o.as_ref().and_then(|o| o.index))
            .is_some_and(|i| {
                self.course
                    .with(|c| c.as_ref().is_ok_and(|c| i + 1 < c.lessons.len()))
            })
    }

    /// The open lesson is the course's last (tracked): after it comes the
    /// end of the course.
    pub(super) fn is_last(self) -> bool {
        self.open
            .with(|o| o.as_ref().and_then(|o| o.index))
            .is_some_and(|i| {
                self.course
                    .with(|c| c.as_ref().is_ok_and(|c| i + 1 == c.lessons.len()))
            })
    }

    pub(super) fn open_next(self) {
        let Some(index) = self
            .open
            .with_untracked(|o| o.as_ref().and_then(|o| o.index))
        else {
            return;
        };
        self.open_in_course(index + 1);
    }
}

/// The course the panel lists: the built-in one until a course link or file
/// brings another.
fn builtin() -> Result<Course, String> {
    course::builtin_course().map_err(|problems| {
        format!(
            "The built-in course did not load: {}",
            view_model::problem_lines(&problems).join("; ")
        )
    })
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The progress as this browser saved it, if it did.
fn load_solved() -> Option<String> {
    storage().and_then(|s| s.get_item(SOLVED_KEY).ok().flatten())
}

fn save_solved(text: &str) {
    if let Some(storage) = storage() {
        // A browser that refuses to store keeps the progress for this visit.
        let _ = storage.set_item(SOLVED_KEY, text);
    }
}
