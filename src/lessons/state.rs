//! The Lessons mode's switch, and a lesson or course link waiting to be
//! opened. The course and the open lesson are drawn by `lessons::view`,
//! a split module fetched the first time the mode opens, so the first
//! paint carries none of it. The decisions are the plain models'
//! (`lessons::model`): `Lessons` holds the switch, `Attempt` the attempt at
//! the open lesson, and each shows its model in the signals the views
//! read. Only the panel uses `Attempt`, so it goes with its split module;
//! the panel performs the commands `Attempt::send` hands back.

use harness::lesson::goal::GoalPart;
use leptos::prelude::*;

use crate::browser::page;
use crate::lessons::model::{self, AttemptCmd, AttemptMsg, Switch, SwitchMsg};
use crate::lessons::words::{COURSE_PREFIX, LESSON_PREFIX};
use crate::state::mirror::mirror;
use crate::update::Update;

use crate::lessons::model::is_lesson_link;

#[derive(Clone, Copy)]
pub struct Lessons {
    model: StoredValue<Switch>,
    open: RwSignal<bool>,
    /// Once the mode has been opened, its panel stays mounted (hidden when
    /// closed), so closing and reopening keeps the open lesson.
    mounted: RwSignal<bool>,
    /// A `#lesson=`/`#course=`/`#progress=` fragment for the panel to open.
    link: RwSignal<Option<String>>,
}

/// The link that opens a lesson or course file's text in the Lessons mode,
/// when the text is one (a lesson names its `lesson`, a course its `course`,
/// as `harness::lesson::course::is_course` tells them apart): "Import
/// scenario" hands such a file to the mode this way. Whether it loads is
/// the mode's to say.
pub fn link_of_file(text: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(text.trim()).ok()?;
    let prefix = if value
        .get("lesson")
        .is_some_and(serde_json::Value::is_string)
    {
        LESSON_PREFIX
    } else if value.get("course").is_some() {
        COURSE_PREFIX
    } else {
        return None;
    };
    Some(format!(
        "{prefix}{}",
        crate::editor::share::encode(text.trim().as_bytes())
    ))
}

impl Lessons {
    /// Opens the mode at once when the page was opened with a lesson link.
    pub fn new() -> Self {
        let model = Switch::new(&page::fragment());
        Lessons {
            open: RwSignal::new(model.open()),
            mounted: RwSignal::new(model.mounted()),
            link: RwSignal::new(model.link().cloned()),
            model: StoredValue::new(model),
        }
    }

    pub fn open(&self) -> ReadSignal<bool> {
        self.open.read_only()
    }

    pub fn mounted(&self) -> ReadSignal<bool> {
        self.mounted.read_only()
    }

    pub fn link(&self) -> ReadSignal<Option<String>> {
        self.link.read_only()
    }

    pub fn set_open(self, open: bool) {
        self.send(SwitchMsg::SetOpen(open));
    }

    /// A lesson or course link pasted into this tab: the panel opens it
    /// (true); any other fragment is not ours (false).
    pub fn open_link(self, fragment: &str) -> bool {
        self.send(SwitchMsg::Linked(fragment.to_string()));
        is_lesson_link(fragment)
    }

    /// The link to open, taken once.
    pub fn take_link(self) -> Option<String> {
        let link = self.link.get_untracked();
        self.send(SwitchMsg::LinkTaken);
        link
    }

    /// The model takes `msg` and the signals show it, each set only when
    /// it changed: the panel mounts on `mounted`, and a second set would
    /// mount it afresh, losing the open lesson.
    fn send(self, msg: SwitchMsg) {
        let Some(model) = self.model.try_update_value(|model| {
            model.update(msg);
            model.clone()
        }) else {
            return; // The page is gone.
        };
        mirror(self.open, model.open());
        mirror(self.mounted, model.mounted());
        mirror(self.link, model.link().cloned());
    }
}

impl Default for Lessons {
    fn default() -> Self {
        Self::new()
    }
}

/// The attempt at the open lesson, as the panel shows it: the model
/// (`lessons::model::Attempt`) and a signal a part, so a hint shown
/// redraws nothing else.
#[derive(Clone, Copy)]
pub struct Attempt {
    model: StoredValue<model::Attempt>,
    progress: RwSignal<Vec<String>>,
    verdict: RwSignal<Option<Vec<GoalPart>>>,
    offers_solution: RwSignal<bool>,
    hints: RwSignal<usize>,
    solved: RwSignal<bool>,
    solution_note: RwSignal<Option<String>>,
    checking: RwSignal<bool>,
    prediction: RwSignal<Option<String>>,
    start_value: RwSignal<Option<String>>,
    steps: RwSignal<u32>,
    pauses: RwSignal<usize>,
}

impl Attempt {
    pub fn new() -> Self {
        Attempt {
            model: StoredValue::new(model::Attempt::default()),
            progress: RwSignal::new(Vec::new()),
            verdict: RwSignal::new(None),
            offers_solution: RwSignal::new(false),
            hints: RwSignal::new(0),
            solved: RwSignal::new(false),
            solution_note: RwSignal::new(None),
            checking: RwSignal::new(false),
            prediction: RwSignal::new(None),
            start_value: RwSignal::new(None),
            steps: RwSignal::new(0),
            pauses: RwSignal::new(0),
        }
    }

    /// The model takes `msg`, the signals show it, and the commands it
    /// answered with are handed back for the panel to perform.
    pub fn send(self, msg: AttemptMsg) -> Vec<AttemptCmd> {
        let Some(commands) = self.model.try_update_value(|model| model.update(msg)) else {
            return Vec::new(); // The page is gone.
        };
        self.model.with_value(|m| {
            if self.progress.with_untracked(|shown| shown != m.progress()) {
                self.progress.set(m.progress().to_vec());
            }
            mirror(self.verdict, m.verdict().cloned());
            mirror(self.offers_solution, m.offers_solution());
            mirror(self.hints, m.hints_shown());
            mirror(self.solved, m.solved());
            mirror(self.solution_note, m.solution_note().cloned());
            mirror(self.checking, m.checking());
            mirror(self.prediction, m.prediction().cloned());
            mirror(self.start_value, m.start_value().cloned());
            mirror(self.steps, m.steps());
            mirror(self.pauses, m.pauses());
        });
        commands
    }

    /// Reads the model as it is now (untracked).
    pub fn with<T>(self, read: impl FnOnce(&model::Attempt) -> T) -> T {
        self.model.with_value(read)
    }

    /// The solved lessons' keys (`lesson_words::progress_key`).
    pub fn progress(self) -> ReadSignal<Vec<String>> {
        self.progress.read_only()
    }

    /// The prediction picked, if one is (tracked).
    pub fn prediction(self) -> Option<String> {
        self.prediction.get()
    }

    /// What the start did for the predicted quantity, once seen (tracked).
    pub fn start_value(self) -> Option<String> {
        self.start_value.get()
    }

    /// How many times Step advanced the run in view (tracked).
    pub fn steps(self) -> u32 {
        self.steps.get()
    }

    /// How many pauses the run in view has reached (tracked).
    pub fn pauses(self) -> usize {
        self.pauses.get()
    }

    pub fn verdict(self) -> ReadSignal<Option<Vec<GoalPart>>> {
        self.verdict.read_only()
    }

    /// A Check has found the goal holding since the lesson opened (tracked).
    pub fn solved(self) -> bool {
        self.solved.get()
    }

    /// Enough failed checks and not solved: the solution is offered (tracked).
    pub fn offers_solution(self) -> bool {
        self.offers_solution.get()
    }

    /// How many of the lesson's hints are shown (tracked).
    pub fn hints_shown(self) -> usize {
        self.hints.get()
    }

    /// What "Show the solution" did, once pressed.
    pub fn solution_note(self) -> ReadSignal<Option<String>> {
        self.solution_note.read_only()
    }

    /// Check awaits its run (tracked).
    pub fn checking(self) -> bool {
        self.checking.get()
    }
}

impl Default for Attempt {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lesson_and_course_files_become_links_and_scenarios_do_not() {
        let lesson = link_of_file(r#"{"lesson": "L", "goal": {}}"#).unwrap();
        assert!(lesson.starts_with(LESSON_PREFIX));
        let course = link_of_file(r#"{"course": "C", "lessons": ["turn-limit"]}"#).unwrap();
        assert!(course.starts_with(COURSE_PREFIX));
        let chapters = link_of_file(r#"{"course": "C", "chapters": []}"#).unwrap();
        assert!(chapters.starts_with(COURSE_PREFIX));
        assert_eq!(link_of_file(r#"{"name": "a scenario", "task": "t"}"#), None);
        assert_eq!(link_of_file("not json"), None);
    }
}
