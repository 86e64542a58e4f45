//! The Lessons mode's switch, and a lesson or course link waiting to be
//! opened. Everything else about lessons (the course, the open lesson, its
//! goal and Check) lives in `ui::lessons_panel`, a split module fetched the
//! first time the mode opens, so the first paint carries none of it.

use leptos::prelude::*;

use crate::browser::page;

use crate::lesson_words::{COURSE_PREFIX, LESSON_PREFIX};

#[derive(Clone, Copy)]
pub struct Lessons {
    open: RwSignal<bool>,
    /// Once the mode has been opened, its panel stays mounted (hidden when
    /// closed), so closing and reopening keeps the open lesson.
    mounted: RwSignal<bool>,
    /// A `#lesson=`/`#course=` fragment for the panel to open.
    link: RwSignal<Option<String>>,
}

/// Whether `fragment` is a lesson or course link.
pub fn is_lesson_link(fragment: &str) -> bool {
    fragment.starts_with(LESSON_PREFIX) || fragment.starts_with(COURSE_PREFIX)
}

/// The link that opens a lesson or course file's text in the Lessons mode,
/// when the text is one (a lesson names its `lesson`, a course lists its
/// `lessons`): "Import scenario" hands such a file to the mode this way.
/// Whether it loads is the mode's to say.
pub fn link_of_file(text: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(text.trim()).ok()?;
    let prefix = if value
        .get("lesson")
        .is_some_and(serde_json::Value::is_string)
    {
        LESSON_PREFIX
    } else if value
        .get("lessons")
        .is_some_and(serde_json::Value::is_array)
    {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lesson_and_course_files_become_links_and_scenarios_do_not() {
        let lesson = link_of_file(r#"{"lesson": "L", "goal": {}}"#).unwrap();
        assert!(lesson.starts_with(LESSON_PREFIX));
        let course = link_of_file(r#"{"course": "C", "lessons": ["turn-limit"]}"#).unwrap();
        assert!(course.starts_with(COURSE_PREFIX));
        assert_eq!(link_of_file(r#"{"name": "a scenario", "task": "t"}"#), None);
        assert_eq!(link_of_file("not json"), None);
    }
}
