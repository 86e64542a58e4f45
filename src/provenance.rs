//! Where the editor's text came from, and what the page says about it: the
//! picker's label for a scenario that is not (or no longer) a built-in
//! ("Edited from Turn limit"), the lesson line, and whether a share link
//! holds a whole scenario. Pure, tested natively.

use serde_json::Value;

/// Where the text in the editor came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Typed or pasted by the person, or saved by a page that did not record
    /// where its text came from.
    Own,
    /// A built-in scenario's file (by id).
    Builtin(String),
    /// A share link.
    Link,
    /// An imported scenario file.
    File,
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
            Source::Link => "a shared link".to_string(),
            Source::File => "an imported file".to_string(),
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
            Source::Link => "link".to_string(),
            Source::File => "file".to_string(),
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
            "link" => Source::Link,
            "file" => Source::File,
            "run" => Source::KeptRun,
            other => match (
                other.strip_prefix("builtin:"),
                other.strip_prefix("lesson:"),
            ) {
                (Some(id), _) if !id.is_empty() => Source::Builtin(id.to_string()),
                (_, Some(title)) if !title.is_empty() => Source::Lesson(title.to_string()),
                _ => Source::Own,
            },
        };
        Provenance { source, edited }
    }
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
            source: Source::File,
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
                source: Source::File,
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
