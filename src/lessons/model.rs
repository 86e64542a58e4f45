//! The Lessons mode as plain models. Two of them, because they live in
//! different places: the mode's switch (`Switch`: open or not, its panel
//! drawn, a lesson link to open) is the first paint's, for the header's
//! Lessons button; the attempt at the open lesson (`Attempt`) is only the
//! Lessons panel's, a split module, and goes with it.
//!
//! The attempt holds what a learner would lose or see go stale: the open
//! lesson and the last text of the editor it allows, Check's verdict and
//! the run it judged, the failed checks that bring the solution, the hints
//! shown, the run Check waits for, the prediction, the Steps counted in the
//! run in view, and the course progress this browser keeps.
//!
//! Invariants:
//! - A verdict is about the run it judged: once another run is in view it
//!   goes, and a verdict on a run no longer in view is not shown.
//! - Check judges the run it started (or the one in view when pressed),
//!   once that run has ended, and no other: another run in view ends the
//!   wait unjudged.
//! - While a lesson is open in the open mode, an edit outside what it lets
//!   change is undone, back to the last text it allowed.
//! - A lesson solved is kept in the progress, once, and saved.

use std::convert::Infallible;

use harness::lesson::goal::GoalPart;
use harness::lesson::Lesson;
use harness::run::PauseBefore;
use serde_json::Value;

use crate::lessons::words::{self as lesson_words, COURSE_PREFIX, LESSON_PREFIX, PROGRESS_PREFIX};
use crate::update::Update;

/// Failed checks before the solution is offered.
pub const FAILS_BEFORE_SOLUTION: u32 = 2;

/// Whether `fragment` is a lesson, course or progress link: the Lessons
/// mode opens it.
pub fn is_lesson_link(fragment: &str) -> bool {
    fragment.starts_with(LESSON_PREFIX)
        || fragment.starts_with(COURSE_PREFIX)
        || fragment.starts_with(PROGRESS_PREFIX)
}

/// The Lessons mode's switch.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Switch {
    open: bool,
    /// Once the mode has been opened, its panel stays drawn (hidden when
    /// closed), so closing and reopening keeps the open lesson.
    mounted: bool,
    /// A `#lesson=`/`#course=`/`#progress=` fragment for the panel to open.
    link: Option<String>,
}

/// What happens to the switch.
#[derive(Clone, Debug, PartialEq)]
pub enum SwitchMsg {
    /// The Lessons button or "Close Lessons" (or a lesson opening).
    SetOpen(bool),
    /// A fragment arrived: the page's first, or one pasted into the tab.
    Linked(String),
    /// The panel took the link to open it.
    LinkTaken,
}

impl Switch {
    /// Open at once when the page's first fragment is a lesson link.
    pub fn new(fragment: &str) -> Self {
        let mut switch = Switch::default();
        switch.update(SwitchMsg::Linked(fragment.to_string()));
        switch
    }

    pub fn open(&self) -> bool {
        self.open
    }

    pub fn mounted(&self) -> bool {
        self.mounted
    }

    pub fn link(&self) -> Option<&String> {
        self.link.as_ref()
    }
}

impl Update for Switch {
    type Msg = SwitchMsg;
    /// The switch asks nothing of the world.
    type Cmd = Infallible;

    fn update(&mut self, msg: SwitchMsg) -> Vec<Infallible> {
        match msg {
            SwitchMsg::SetOpen(open) => {
                self.open = open;
                self.mounted |= open;
            }
            SwitchMsg::Linked(fragment) if is_lesson_link(&fragment) => {
                self.link = Some(fragment);
                self.open = true;
                self.mounted = true;
            }
            SwitchMsg::Linked(_) => {}
            SwitchMsg::LinkTaken => self.link = None,
        }
        Vec::new()
    }
}

/// The scenario text after an edit, judged against what the open lesson
/// lets change.
#[derive(Debug, PartialEq)]
pub enum LessonEdit {
    /// Not JSON yet: someone typing, judged when it is.
    Unfinished,
    /// Only what the lesson lets change differs from its start.
    Allowed,
    /// Something else changed: the edit is undone, with this note.
    Undone(String),
}

pub fn judge_edit(lesson: &Lesson, text: &str) -> LessonEdit {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return LessonEdit::Unfinished;
    };
    let outside: Vec<String> = lesson
        .edit_problems(&value)
        .into_iter()
        .map(|p| p.path)
        .collect();
    if outside.is_empty() {
        return LessonEdit::Allowed;
    }
    let may = match lesson.editable.as_slice() {
        [] => "this lesson lets you change nothing in the scenario".to_string(),
        paths => format!("this lesson lets you change only {}", paths.join(", ")),
    };
    LessonEdit::Undone(format!(
        "Your change to {} was undone: {may}. (Close Lessons to edit freely.)",
        outside.join(", ")
    ))
}

/// A scenario's text as the editor shows it.
pub fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// What happens to the attempt at the open lesson.
#[derive(Clone, Debug, PartialEq)]
pub enum AttemptMsg {
    /// The progress this browser kept, as saved (`None`: nothing saved).
    Restored(Option<String>),
    /// A lesson opened afresh, with its key in the progress.
    Opened {
        key: String,
        lesson: Box<Lesson>,
    },
    /// Back to the course list, or to another page than the lesson.
    Closed,
    /// The run in view (its id, whether it goes, where it is paused, and
    /// whether it goes a step at a time) as the page shows it now.
    RunSeen {
        run: u64,
        running: bool,
        pause: Option<PauseBefore>,
        stepping: bool,
    },
    /// The editor's text changed, the mode open or not.
    Edited {
        text: String,
        mode_open: bool,
    },
    /// A choice picked before the run, in a lesson that asks for one.
    Predicted(String),
    /// A run of the lesson's unedited start ended with this value for the
    /// predicted quantity.
    SawStart(String),
    HintShown,
    /// Check pressed: the last verdict no longer stands.
    CheckPressed,
    /// Check started (or waits for) this run: it is judged when it ends.
    AwaitRun(u64),
    /// The goal judged on `run`.
    Judged {
        run: u64,
        parts: Vec<GoalPart>,
    },
    /// "Show the solution": the prediction it makes (kept only if none was
    /// picked), the editor's text it sets, and what it says it did.
    SolutionApplied {
        prediction: Option<String>,
        text: Option<String>,
        note: String,
    },
}

/// What the page must do for the attempt.
#[derive(Clone, Debug, PartialEq)]
pub enum AttemptCmd {
    /// Judge the goal on `run`, which has ended, and answer `Judged`.
    Judge { run: u64 },
    /// Keep this progress (a JSON list of the solved lessons' keys).
    SaveProgress(String),
    /// Put this text in the editor.
    Edit(String),
    /// Say this where the learner looks.
    Note(String),
}

/// The attempt at the open lesson (see the module's invariants).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Attempt {
    /// The open lesson and its key in the progress.
    open: Option<(String, Lesson)>,
    /// The editor's last text the open lesson allows, to go back to.
    allowed: String,
    /// The solved lessons' keys (`lesson_words::progress_key`).
    progress: Vec<String>,
    /// Check's verdict and the run it judged.
    verdict: Option<(u64, Vec<GoalPart>)>,
    fails: u32,
    hints: usize,
    /// A Check found the goal holding since the lesson opened.
    solved: bool,
    solution_note: Option<String>,
    /// The run Check waits for.
    awaiting: Option<u64>,
    prediction: Option<String>,
    /// What the prediction asks about, as a run of the lesson's unedited
    /// start did it: an edited run is compared with this.
    start_value: Option<String>,
    /// The run in view and its pause, as last seen.
    seen: Option<(u64, Option<PauseBefore>)>,
    /// How many times Step advanced the run in view.
    steps: u32,
    /// How many pauses the run in view has reached.
    pauses: usize,
}

impl Attempt {
    /// The open lesson, if one is.
    pub fn lesson(&self) -> Option<&Lesson> {
        self.open.as_ref().map(|(_, lesson)| lesson)
    }

    /// The editor's last text the open lesson allows.
    pub fn allowed(&self) -> &str {
        &self.allowed
    }

    /// The solved lessons' keys.
    pub fn progress(&self) -> &[String] {
        &self.progress
    }

    /// Check's verdict on the run in view, once judged.
    pub fn verdict(&self) -> Option<&Vec<GoalPart>> {
        self.verdict.as_ref().map(|(_, parts)| parts)
    }

    /// A Check has found the goal holding since the lesson opened.
    pub fn solved(&self) -> bool {
        self.solved
    }

    /// Enough failed checks and not solved: the solution is offered.
    pub fn offers_solution(&self) -> bool {
        self.fails >= FAILS_BEFORE_SOLUTION && !self.solved
    }

    /// How many of the lesson's hints are shown.
    pub fn hints_shown(&self) -> usize {
        self.hints
    }

    /// What "Show the solution" did, once pressed.
    pub fn solution_note(&self) -> Option<&String> {
        self.solution_note.as_ref()
    }

    /// Check waits for its run.
    pub fn checking(&self) -> bool {
        self.awaiting.is_some()
    }

    pub fn prediction(&self) -> Option<&String> {
        self.prediction.as_ref()
    }

    pub fn start_value(&self) -> Option<&String> {
        self.start_value.as_ref()
    }

    /// How many times Step advanced the run in view.
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// How many pauses the run in view has reached.
    pub fn pauses(&self) -> usize {
        self.pauses
    }

    fn open_lesson(&mut self, key: String, lesson: Lesson) {
        self.allowed = pretty(&lesson.start);
        self.open = Some((key, lesson));
        self.verdict = None;
        self.fails = 0;
        self.hints = 0;
        self.solved = false;
        self.solution_note = None;
        self.awaiting = None;
        self.prediction = None;
        self.start_value = None;
        self.steps = 0;
        self.pauses = 0;
    }

    /// The run in view now: the verdict on another goes, Steps and pauses
    /// are counted, and the run Check waits for is judged once it ended.
    fn see_run(
        &mut self,
        run: u64,
        running: bool,
        pause: Option<PauseBefore>,
        stepping: bool,
    ) -> Vec<AttemptCmd> {
        if self
            .verdict
            .as_ref()
            .is_some_and(|(judged, _)| *judged != run)
        {
            self.verdict = None;
        }
        self.count_steps(run, &pause, stepping);
        self.seen = Some((run, pause));
        match self.awaiting {
            Some(awaited) if awaited != run => {
                self.awaiting = None;
                Vec::new()
            }
            Some(_) if !running => {
                self.awaiting = None;
                vec![AttemptCmd::Judge { run }]
            }
            _ => Vec::new(),
        }
    }

    /// A Step is a pause left while stepping; Run (Continue) lets the run
    /// go and is no step. Another run is counted afresh.
    fn count_steps(&mut self, run: u64, pause: &Option<PauseBefore>, stepping: bool) {
        match &self.seen {
            Some((was_run, _)) if *was_run != run => {
                self.steps = 0;
                self.pauses = 0;
            }
            // One pause left (by Step or Run), another reached, or both
            // between two looks: a pause left by Step is a step.
            Some((_, was)) if was != pause && was.is_some() && stepping => self.steps += 1,
            Some((_, was)) if was != pause => {}
            Some(_) => return,
            None => {}
        }
        if pause.is_some() {
            self.pauses += 1;
        }
    }

    fn judged(&mut self, run: u64, parts: Vec<GoalPart>) -> Vec<AttemptCmd> {
        // Judged on a run no longer in view: the verdict would describe a
        // run not shown.
        if self.seen.as_ref().is_some_and(|(seen, _)| *seen != run) {
            return Vec::new();
        }
        let holds = parts.iter().all(|p| p.holds);
        self.verdict = Some((run, parts));
        if !holds {
            self.fails += 1;
            return Vec::new();
        }
        self.solved = true;
        let Some((key, _)) = &self.open else {
            return Vec::new();
        };
        if self.progress.contains(key) {
            return Vec::new();
        }
        self.progress.push(key.clone());
        match serde_json::to_string(&self.progress) {
            Ok(text) => vec![AttemptCmd::SaveProgress(text)],
            Err(_) => Vec::new(),
        }
    }

    fn edited(&mut self, text: String) -> Vec<AttemptCmd> {
        let Some((_, lesson)) = &self.open else {
            return Vec::new();
        };
        match judge_edit(lesson, &text) {
            LessonEdit::Unfinished => Vec::new(),
            LessonEdit::Allowed => {
                self.allowed = text;
                Vec::new()
            }
            LessonEdit::Undone(note) => {
                vec![
                    AttemptCmd::Note(note),
                    AttemptCmd::Edit(self.allowed.clone()),
                ]
            }
        }
    }
}

impl Update for Attempt {
    type Msg = AttemptMsg;
    type Cmd = AttemptCmd;

    fn update(&mut self, msg: AttemptMsg) -> Vec<AttemptCmd> {
        match msg {
            AttemptMsg::Restored(saved) => {
                self.progress = lesson_words::solved_from(saved.as_deref())
            }
            AttemptMsg::Opened { key, lesson } => self.open_lesson(key, *lesson),
            AttemptMsg::Closed => self.open = None,
            AttemptMsg::RunSeen {
                run,
                running,
                pause,
                stepping,
            } => return self.see_run(run, running, pause, stepping),
            AttemptMsg::Edited { text, mode_open } if mode_open => return self.edited(text),
            AttemptMsg::Edited { .. } => {}
            AttemptMsg::Predicted(choice) => self.prediction = Some(choice),
            AttemptMsg::SawStart(value) => self.start_value = Some(value),
            // One more, in the lesson's order, while it has more.
            AttemptMsg::HintShown => {
                if self.lesson().is_some_and(|l| self.hints < l.hints.len()) {
                    self.hints += 1;
                }
            }
            AttemptMsg::CheckPressed => self.verdict = None,
            AttemptMsg::AwaitRun(run) => self.awaiting = Some(run),
            AttemptMsg::Judged { run, parts } => return self.judged(run, parts),
            AttemptMsg::SolutionApplied {
                prediction,
                text,
                note,
            } => {
                if self.prediction.is_none() {
                    self.prediction = prediction;
                }
                self.solution_note = Some(note);
                if let Some(text) = text {
                    self.allowed = text.clone();
                    return vec![AttemptCmd::Edit(text)];
                }
            }
        }
        Vec::new()
    }
}

#[cfg(test)]
mod tests;
