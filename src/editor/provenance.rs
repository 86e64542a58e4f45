//! Where the editor's text came from, and what the page says about it: the
//! picker's label for a scenario that is not (or no longer) a built-in
//! ("Edited from Turn limit", "Pasted", "From file refund.json"), whether
//! an edit replaced the whole text, the lesson line, and whether a share
//! link holds a whole scenario. Pure, tested natively.

use serde_json::Value;

/// Where the text in the editor came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Typed by the person, or saved by a page that did not record where
    /// its text came from.
    Own,
    /// A whole scenario pasted over the editor's text (`replaced_whole`).
    Pasted,
    /// A built-in scenario's file (by id).
    Builtin(String),
    /// A share link.
    Link,
    /// An imported scenario file, by its name (empty when a page saved it
    /// before names were kept).
    File(String),
    /// The scenario of a run opened from the history.
    KeptRun,
    /// A lesson's starting scenario (by the lesson's title).
    Lesson(String),
}

/// The text's origin and whether the person has changed it since.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provenance {
    pub source: Source,
    pub edited: bool,
}

impl Provenance {
    pub fn fresh(source: Source) -> Self {
        Provenance {
            source,
            edited: false,
        }
    }

    /// What the picker shows when it names no built-in. `name_of` gives a
    /// built-in's display name.
    pub fn label(&self, name_of: impl Fn(&str) -> Option<String>) -> String {
        let from = match &self.source {
            Source::Own => return "Custom (paste JSON)".to_string(),
            Source::Builtin(id) => name_of(id).unwrap_or_else(|| id.clone()),
            Source::Pasted if self.edited => return "Pasted, then edited".to_string(),
            Source::Pasted => return "Pasted".to_string(),
            Source::Link => "a shared link".to_string(),
            Source::File(name) if name.is_empty() => "an imported file".to_string(),
            Source::File(name) => format!("file {name}"),
            Source::KeptRun => "a kept run".to_string(),
            Source::Lesson(title) => format!("the lesson “{title}”"),
        };
        if self.edited {
            format!("Edited from {from}")
        } else if matches!(self.source, Source::Builtin(_)) {
            format!("Custom, from {from}")
        } else {
            format!("From {from}")
        }
    }

    /// Saved beside the autosaved text, so a reload still says where it came from.
    pub fn to_saved(&self) -> String {
        let source = match &self.source {
            Source::Own => "own".to_string(),
            Source::Builtin(id) => format!("builtin:{id}"),
            Source::Pasted => "pasted".to_string(),
            Source::Link => "link".to_string(),
            Source::File(name) if name.is_empty() => "file".to_string(),
            Source::File(name) => format!("file:{name}"),
            Source::KeptRun => "run".to_string(),
            Source::Lesson(title) => format!("lesson:{title}"),
        };
        if self.edited {
            format!("edited:{source}")
        } else {
            source
        }
    }

    /// Reads `to_saved`'s text back; anything else is the person's own text.
    pub fn from_saved(saved: &str) -> Self {
        let (edited, source) = match saved.strip_prefix("edited:") {
            Some(rest) => (true, rest),
            None => (false, saved),
        };
        let source = match source {
            "pasted" => Source::Pasted,
            "link" => Source::Link,
            "file" => Source::File(String::new()),
            "run" => Source::KeptRun,
            other => match (
                other.strip_prefix("builtin:"),
                other.strip_prefix("lesson:"),
                other.strip_prefix("file:"),
            ) {
                (Some(id), _, _) if !id.is_empty() => Source::Builtin(id.to_string()),
                (_, Some(title), _) if !title.is_empty() => Source::Lesson(title.to_string()),
                (_, _, Some(name)) => Source::File(name.to_string()),
                _ => Source::Own,
            },
        };
        Provenance { source, edited }
    }
}

/// Whether an edit of the JSON box replaced the text whole: what came in is
/// a JSON object (a scenario, pasted or dropped in one go), and less than
/// half of the text before it is left at its start and end. Keystrokes,
/// and a paste into part of the text, keep nearly all of it; a pasted
/// scenario shares with the one it replaces only a few characters, such as
/// `{"name": "`.
pub fn replaced_whole(before: &str, after: &str) -> bool {
    let (old, new) = (before.as_bytes(), after.as_bytes());
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let room = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    let mostly_gone = before.trim().is_empty() || (prefix + suffix) * 2 < old.len();
    mostly_gone && serde_json::from_str::<Value>(after).is_ok_and(|value| value.is_object())
}

/// What a scenario text says it teaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lesson {
    /// Its own `description`.
    Described(String),
    /// Valid JSON with no description.
    Undescribed,
    /// Not JSON (mid-edit): the caller keeps the last lesson.
    NotJson,
}

pub fn lesson_of(text: &str) -> Lesson {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return Lesson::NotJson;
    };
    value
        .get("description")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map_or(Lesson::Undescribed, |d| Lesson::Described(d.to_string()))
}

/// Why a share link's text cannot be loaded: it is not one whole JSON value.
/// A link cut short (by a chat app, a character limit, a careless copy) is
/// the common case, so it gets its own words.
pub fn broken_link(text: &str) -> Option<String> {
    let error = serde_json::from_str::<Value>(text).err()?;
    Some(if error.is_eof() {
        "the link is cut off: the scenario in it stops part-way".to_string()
    } else {
        format!(
            "the link is broken: the scenario in it is not valid JSON (line {}, column {})",
            error.line(),
            error.column()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(id: &str) -> Option<String> {
        (id == "turn-limit").then(|| "Turn limit".to_string())
    }

    #[test]
    fn the_picker_says_where_an_edited_scenario_came_from() {
        let mut p = Provenance::fresh(Source::Builtin("turn-limit".into()));
        assert_eq!(p.label(names), "Custom, from Turn limit");
        p.edited = true;
        assert_eq!(p.label(names), "Edited from Turn limit");
        assert_eq!(
            Provenance::fresh(Source::Link).label(names),
            "From a shared link"
        );
        let edited_file = Provenance {
            source: Source::File(String::new()),
            edited: true,
        };
        assert_eq!(edited_file.label(names), "Edited from an imported file");
        assert_eq!(
            Provenance::fresh(Source::Lesson("Stop a runaway loop".into())).label(names),
            "From the lesson “Stop a runaway loop”"
        );
        assert_eq!(
            Provenance::fresh(Source::Own).label(names),
            "Custom (paste JSON)"
        );
    }

    /// A scenario pasted in whole, or imported from a file, is named by
    /// where it came from, not by the built-in it replaced.
    #[test]
    fn the_picker_says_pasted_or_which_file() {
        assert_eq!(Provenance::fresh(Source::Pasted).label(names), "Pasted");
        let edited = Provenance {
            source: Source::Pasted,
            edited: true,
        };
        assert_eq!(edited.label(names), "Pasted, then edited");
        let file = Provenance::fresh(Source::File("refund.json".into()));
        assert_eq!(file.label(names), "From file refund.json");
        let edited = Provenance {
            edited: true,
            ..file
        };
        assert_eq!(edited.label(names), "Edited from file refund.json");
    }

    #[test]
    fn a_whole_scenario_pasted_over_another_is_told_from_an_edit() {
        let turn_limit = "{\n  \"name\": \"Turn limit\",\n  \"task\": \"Count to ten.\",\n  \"limits\": {\"max_turns\": 3}\n}";
        let deadline = "{\n  \"name\": \"Deadline interrupts a hung call\",\n  \"task\": \"Wait.\",\n  \"limits\": {\"deadline_ms\": 50}\n}";
        assert!(replaced_whole(turn_limit, deadline));
        assert!(replaced_whole("", deadline));
        // A keystroke, a pasted value, a cut: edits, not a new scenario.
        let typed = turn_limit.replace("3}", "4}");
        assert!(!replaced_whole(turn_limit, &typed));
        let pasted_value =
            turn_limit.replace("Count to ten.", "Count to ten, then stop and say done.");
        assert!(!replaced_whole(turn_limit, &pasted_value));
        assert!(!replaced_whole(turn_limit, "{"));
        // Not a scenario: the text is half-typed, whatever it replaced.
        assert!(!replaced_whole(turn_limit, "[1, 2]"));
    }

    #[test]
    fn provenance_survives_a_reload() {
        let all = [
            Provenance::fresh(Source::Own),
            Provenance::fresh(Source::Builtin("turn-limit".into())),
            Provenance {
                source: Source::Builtin("get-time".into()),
                edited: true,
            },
            Provenance::fresh(Source::Link),
            Provenance {
                source: Source::File(String::new()),
                edited: true,
            },
            Provenance::fresh(Source::File("refund.json".into())),
            Provenance::fresh(Source::Pasted),
            Provenance {
                source: Source::Pasted,
                edited: true,
            },
            Provenance::fresh(Source::KeptRun),
            Provenance {
                source: Source::Lesson("Stop a runaway loop".into()),
                edited: true,
            },
        ];
        for p in all {
            assert_eq!(Provenance::from_saved(&p.to_saved()), p);
        }
        assert_eq!(
            Provenance::from_saved("nonsense"),
            Provenance::fresh(Source::Own)
        );
    }

    #[test]
    fn the_lesson_is_the_scenarios_own_description() {
        assert_eq!(
            lesson_of(r#"{"description": " Why loops stop. "}"#),
            Lesson::Described("Why loops stop.".to_string())
        );
        assert_eq!(lesson_of(r#"{"description": ""}"#), Lesson::Undescribed);
        assert_eq!(lesson_of(r#"{"task": "x"}"#), Lesson::Undescribed);
        assert_eq!(lesson_of(r#"{"task": "#), Lesson::NotJson);
    }

    #[test]
    fn a_cut_off_link_is_told_apart_from_a_broken_one() {
        assert_eq!(
            broken_link(r#"{"name": "Turn limit", "tas"#).as_deref(),
            Some("the link is cut off: the scenario in it stops part-way")
        );
        assert_eq!(
            broken_link("{\"name\": x}").as_deref(),
            Some("the link is broken: the scenario in it is not valid JSON (line 1, column 10)")
        );
        assert_eq!(broken_link(r#"{"name": "ok"}"#), None);
    }
}
