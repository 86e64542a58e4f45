//! The Lessons mode's switch, and a lesson or course link waiting to be
//! opened. The course and the open lesson are drawn by `ui::lessons_panel`,
//! a split module fetched the first time the mode opens, so the first
//! paint carries none of it; the decisions under it are here, tested
//! natively: an attempt at the open lesson (`Attempt`: Check's verdict and
//! run, the hints, when the solution is offered) and an edit judged
//! against what the lesson lets change (`judge_edit`). Only the panel calls
//! them, so they go with its split module too.

use harness::lesson::goal::GoalPart;
use harness::lesson::Lesson;
use leptos::prelude::*;
use serde_json::Value;

use crate::browser::page;

use crate::lesson_words::{COURSE_PREFIX, LESSON_PREFIX, PROGRESS_PREFIX};

/// Failed checks before the solution is offered.
pub const FAILS_BEFORE_SOLUTION: u32 = 2;

#[derive(Clone, Copy)]
pub struct Lessons {
    open: RwSignal<bool>,
    /// Once the mode has been opened, its panel stays mounted (hidden when
    /// closed), so closing and reopening keeps the open lesson.
    mounted: RwSignal<bool>,
    /// A `#lesson=`/`#course=`/`#progress=` fragment for the panel to open.
    link: RwSignal<Option<String>>,
}

/// Whether `fragment` is a lesson, course or progress link: the Lessons
/// mode opens it.
pub fn is_lesson_link(fragment: &str) -> bool {
    fragment.starts_with(LESSON_PREFIX)
        || fragment.starts_with(COURSE_PREFIX)
        || fragment.starts_with(PROGRESS_PREFIX)
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
        crate::share::encode(text.trim().as_bytes())
    ))
}

impl Lessons {
    /// Opens the mode at once when the page was opened with a lesson link.
    pub fn new() -> Self {
        let fragment = page::fragment();
        let link = is_lesson_link(&fragment).then_some(fragment);
        let open = link.is_some();
        Lessons {
            open: RwSignal::new(open),
            mounted: RwSignal::new(open),
            link: RwSignal::new(link),
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
        // Set once: the panel mounts on this, and a second set would mount
        // it afresh, losing the open lesson.
        if open && !self.mounted.get_untracked() {
            self.mounted.set(true);
        }
        self.open.set(open);
    }

    /// A lesson or course link pasted into this tab: the panel opens it
    /// (true); any other fragment is not ours (false).
    pub fn open_link(self, fragment: &str) -> bool {
        if !is_lesson_link(fragment) {
            return false;
        }
        self.link.set(Some(fragment.to_string()));
        self.set_open(true);
        true
    }

    /// The link to open, taken once.
    pub fn take_link(self) -> Option<String> {
        let link = self.link.get_untracked();
        if link.is_some() {
            self.link.set(None);
        }
        link
    }
}

impl Default for Lessons {
    fn default() -> Self {
        Self::new()
    }
}

/// An attempt at the open lesson, from its opening: Check's verdict, the
/// failed checks that bring the solution, the hints shown, and the run
/// Check awaits. Each is a signal of its own, so a hint shown redraws
/// nothing else.
#[derive(Clone, Copy)]
pub struct Attempt {
    verdict: RwSignal<Option<Vec<GoalPart>>>,
    fails: RwSignal<u32>,
    hints: RwSignal<usize>,
    solved: RwSignal<bool>,
    solution_note: RwSignal<Option<String>>,
    /// The run Check started, awaited to its end.
    awaiting: RwSignal<Option<u64>>,
    /// The choice picked before the run, in a lesson that asks for one.
    prediction: RwSignal<Option<String>>,
    /// What the prediction asks about, as a run of the lesson's unedited
    /// start did it: an edited run is compared with this.
    start_value: RwSignal<Option<String>>,
    /// How many times Step advanced the run in view.
    steps: RwSignal<u32>,
    /// How many pauses the run in view has reached (the walk's entry shown
    /// is the last one's).
    pauses: RwSignal<usize>,
}

impl Attempt {
    pub fn new() -> Self {
        Attempt {
            verdict: RwSignal::new(None),
            fails: RwSignal::new(0),
            hints: RwSignal::new(0),
            solved: RwSignal::new(false),
            solution_note: RwSignal::new(None),
            awaiting: RwSignal::new(None),
            prediction: RwSignal::new(None),
            start_value: RwSignal::new(None),
            steps: RwSignal::new(0),
            pauses: RwSignal::new(0),
        }
    }

    /// A lesson opened: nothing checked, shown or awaited yet.
    pub fn restart(self) {
        self.verdict.set(None);
        self.fails.set(0);
        self.hints.set(0);
        self.solved.set(false);
        self.solution_note.set(None);
        self.awaiting.set(None);
        self.prediction.set(None);
        self.start_value.set(None);
        self.new_run();
    }

    /// The prediction picked, if one is (tracked).
    pub fn prediction(self) -> Option<String> {
        self.prediction.get()
    }

    pub fn predict(self, choice: String) {
        self.prediction.set(Some(choice));
    }

    /// A run of the lesson's unedited start ended with `value` for the
    /// predicted quantity.
    pub fn saw_start(self, value: String) {
        if self.start_value.get_untracked().as_deref() != Some(value.as_str()) {
            self.start_value.set(Some(value));
        }
    }

    /// What the start did for the predicted quantity, once seen (tracked).
    pub fn start_value(self) -> Option<String> {
        self.start_value.get()
    }

    /// Another run is in view: its steps and pauses are counted afresh.
    pub fn new_run(self) {
        self.steps.set(0);
        self.pauses.set(0);
    }

    /// The run paused again.
    pub fn paused(self) {
        self.pauses.update(|p| *p += 1);
    }

    /// A paused run went on: by Step (`stepped`), or by Run, which is no step.
    pub fn went_on(self, stepped: bool) {
        if stepped {
            self.steps.update(|s| *s += 1);
        }
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

    /// A new Check: the last verdict no longer stands.
    pub fn clear_verdict(self) {
        self.verdict.set(None);
    }

    /// Check's verdict: whether every part of the goal holds. A miss counts
    /// towards the solution.
    pub fn record(self, parts: Vec<GoalPart>) -> bool {
        let holds = parts.iter().all(|p| p.holds);
        self.verdict.set(Some(parts));
        if holds {
            self.solved.set(true);
        } else {
            self.fails.update(|f| *f += 1);
        }
        holds
    }

    /// A Check has found the goal holding since the lesson opened (tracked).
    pub fn solved(self) -> bool {
        self.solved.get()
    }

    /// Enough failed checks and not solved: the solution is offered (tracked).
    pub fn offers_solution(self) -> bool {
        self.fails.get() >= FAILS_BEFORE_SOLUTION && !self.solved.get()
    }

    /// How many of the lesson's hints are shown (tracked).
    pub fn hints_shown(self) -> usize {
        self.hints.get()
    }

    pub fn show_hint(self) {
        self.hints.update(|h| *h += 1);
    }

    /// What "Show the solution" did, once pressed.
    pub fn solution_note(self) -> ReadSignal<Option<String>> {
        self.solution_note.read_only()
    }

    pub fn set_solution_note(self, note: String) {
        self.solution_note.set(Some(note));
    }

    /// Check started run `run`: it is judged when it ends.
    pub fn await_run(self, run: u64) {
        self.awaiting.set(Some(run));
    }

    /// Check awaits its run (tracked).
    pub fn checking(self) -> bool {
        self.awaiting.with(Option::is_some)
    }

    /// The run in view is now `run`, `running` or not: true once the run
    /// Check awaits has ended, to be judged (once). Any other run in view
    /// (Run pressed, another lesson) ends the wait unjudged.
    pub fn run_moved(self, run: u64, running: bool) -> bool {
        let Some(awaited) = self.awaiting.get_untracked() else {
            return false;
        };
        if run != awaited {
            self.awaiting.set(None);
            return false;
        }
        if running {
            return false;
        }
        self.awaiting.set(None);
        true
    }
}

impl Default for Attempt {
    fn default() -> Self {
        Self::new()
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

    fn part(holds: bool) -> GoalPart {
        GoalPart {
            part: "status".into(),
            holds,
            sentence: String::new(),
        }
    }

    #[test]
    fn two_misses_offer_the_solution_until_a_check_passes() {
        let attempt = Attempt::new();
        assert!(!attempt.record(vec![part(true), part(false)]));
        assert!(!attempt.offers_solution());
        assert!(!attempt.record(vec![part(false)]));
        assert!(attempt.offers_solution() && !attempt.solved());
        assert!(attempt.record(vec![part(true)]));
        assert!(attempt.solved() && !attempt.offers_solution());
        // A miss after the goal held leaves the lesson solved.
        attempt.record(vec![part(false)]);
        assert!(attempt.solved());
        assert_eq!(attempt.verdict().get_untracked(), Some(vec![part(false)]));
        attempt.show_hint();
        attempt.set_solution_note("Applied the solution".into());
        attempt.await_run(1);
        attempt.restart();
        assert!(!attempt.solved() && !attempt.offers_solution() && !attempt.checking());
        assert_eq!(attempt.hints_shown(), 0);
        assert_eq!(attempt.verdict().get_untracked(), None);
        assert_eq!(attempt.solution_note().get_untracked(), None);
    }

    #[test]
    fn steps_count_only_step_presses_and_start_afresh_with_each_run() {
        let attempt = Attempt::new();
        attempt.predict("3".into());
        attempt.paused();
        attempt.went_on(true);
        attempt.paused();
        // Run (Continue) lets the run go on: no step.
        attempt.went_on(false);
        assert_eq!((attempt.steps(), attempt.pauses()), (1, 2));
        attempt.new_run();
        assert_eq!((attempt.steps(), attempt.pauses()), (0, 0));
        assert_eq!(attempt.prediction(), Some("3".into()));
        attempt.restart();
        assert_eq!(attempt.prediction(), None);
    }

    #[test]
    fn check_judges_its_own_run_once_it_ends_and_no_other() {
        let attempt = Attempt::new();
        assert!(!attempt.run_moved(1, false));
        attempt.await_run(3);
        assert!(!attempt.run_moved(3, true) && attempt.checking());
        assert!(attempt.run_moved(3, false) && !attempt.checking());
        assert!(!attempt.run_moved(3, false));
        // Another run in view, going or ended, ends the wait unjudged.
        attempt.await_run(4);
        assert!(!attempt.run_moved(5, true) && !attempt.checking());
        attempt.await_run(6);
        assert!(!attempt.run_moved(7, false) && !attempt.checking());
    }

    #[test]
    fn an_edit_outside_the_lesson_s_paths_is_undone_naming_them() {
        let lesson = harness::lesson::course::builtin("turn-limit").unwrap();
        let mut value = lesson.start.clone();
        assert_eq!(judge_edit(&lesson, "{\"limits\":"), LessonEdit::Unfinished);
        value["limits"]["max_turns"] = 3.into();
        assert_eq!(judge_edit(&lesson, &value.to_string()), LessonEdit::Allowed);
        value["task"] = "Something else".into();
        assert_eq!(
            judge_edit(&lesson, &value.to_string()),
            LessonEdit::Undone(
                "Your change to task was undone: this lesson lets you change only \
                 limits.max_turns. (Close Lessons to edit freely.)"
                    .into()
            )
        );
    }
}
