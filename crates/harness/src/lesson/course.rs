//! Courses: a title and lessons in order, inline or built-in by name; and
//! the built-in course, whose lessons are `lessons/*.json`, compiled in.
//!
//! The table below holds names only; a lesson's text is reached through
//! `builtin_text`, so a program that lists the course without opening a
//! lesson does not carry the files (the page loads them on demand).

use serde_json::Value;

use super::Lesson;
use crate::scenario::Problem;
use crate::suggest::did_you_mean;

/// The built-in course's title.
pub const BUILTIN_COURSE: &str = "The agent loop, by doing it";

/// One list makes both the course's order and `builtin_text`.
macro_rules! lessons {
    ($( $id:literal ),* $(,)?) => {
        /// The built-in lessons' names, in the course's order.
        pub const BUILTIN_LESSONS: &[&str] = &[$( $id ),*];

        /// The text of built-in lesson `id`'s file.
        pub fn builtin_text(id: &str) -> Option<&'static str> {
            match id {
                $( $id => Some(include_str!(concat!("../../lessons/", $id, ".json"))), )*
                _ => None,
            }
        }
    };
}

lessons! {
    "turn-limit",
    "tool-call-limit",
    "token-limit",
    "cost-strict-vs-naive",
    "deadline",
    "deadline-hung-call",
    "repeated-call-cycle",
    "max-tokens-is-not-done",
    "context-window-limit",
    "context-clear-tool-results",
    "refusal",
    "model-error-retries",
    "weak-verifier",
    "blocked-by-policy",
    "approval-deny-and-go-on",
    "approval-deny-and-stop",
    "approval-edit-arguments",
    "approval-is-per-call",
    "press-stop",
    "precondition-in-code",
    "errors-as-data",
    "replay-assertions",
    "protocol-parallel-calls",
    "protocol-what-a-400-looks-like",
    "protocol-ids-that-match",
    "protocol-error-is-a-result",
    "schema-enum",
    "schema-example",
    "schema-required",
    "schema-precondition",
}

/// A lesson of a course, with the built-in name it was given by, if any.
#[derive(Clone, Debug, PartialEq)]
pub struct CourseLesson {
    pub name: Option<String>,
    pub lesson: Lesson,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Course {
    pub title: String,
    pub description: String,
    pub lessons: Vec<CourseLesson>,
}

/// Loads built-in lesson `id`.
pub fn builtin(id: &str) -> Result<Lesson, Vec<Problem>> {
    match builtin_text(id) {
        Some(text) => Lesson::load(text),
        None => Err(vec![Problem {
            path: String::new(),
            message: format!(
                "no built-in lesson is named {id:?}{}; `agent-loop lesson list` names them",
                did_you_mean(id, BUILTIN_LESSONS.iter().copied())
            ),
        }]),
    }
}

/// The built-in course, every lesson loaded.
pub fn builtin_course() -> Result<Course, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut lessons = Vec::new();
    for id in BUILTIN_LESSONS {
        match builtin(id) {
            Ok(lesson) => lessons.push(CourseLesson {
                name: Some(id.to_string()),
                lesson,
            }),
            Err(found) => problems.extend(found.into_iter().map(|p| Problem {
                path: format!(
                    "{id}{}{}",
                    if p.path.is_empty() { "" } else { ": " },
                    p.path
                ),
                message: p.message,
            })),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Course {
        title: BUILTIN_COURSE.to_string(),
        description: String::new(),
        lessons,
    })
}

impl Course {
    /// Parses and checks a course file: every lesson, each problem with its
    /// path (`lessons[3].goal.status`).
    pub fn load(text: &str) -> Result<Course, Vec<Problem>> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            vec![Problem {
                path: String::new(),
                message: crate::scenario::syntax::describe(&e, text),
            }]
        })?;
        Course::from_value(value)
    }

    pub fn from_value(value: Value) -> Result<Course, Vec<Problem>> {
        let at = |path: &str, message: String| Problem {
            path: path.to_string(),
            message,
        };
        let Value::Object(fields) = value else {
            return Err(vec![at(
                "",
                "a course is a JSON object with course and lessons".into(),
            )]);
        };
        let mut problems = Vec::new();
        for key in fields.keys() {
            if !["$schema", "course", "description", "lessons"].contains(&key.as_str()) {
                problems.push(at(
                    key,
                    format!(
                        "not a field of a course{}",
                        did_you_mean(key, ["course", "description", "lessons"])
                    ),
                ));
            }
        }
        let title = match fields.get("course") {
            Some(Value::String(title)) if !title.trim().is_empty() => title.clone(),
            Some(_) => {
                problems.push(at("course", "the course's title must be text".into()));
                String::new()
            }
            None => {
                problems.push(at("course", "this required field is missing".into()));
                String::new()
            }
        };
        let description = match fields.get("description") {
            None => String::new(),
            Some(Value::String(text)) => text.clone(),
            Some(_) => {
                problems.push(at("description", "must be text".into()));
                String::new()
            }
        };
        let mut lessons = Vec::new();
        match fields.get("lessons") {
            Some(Value::Array(items)) if !items.is_empty() => {
                for (i, item) in items.iter().enumerate() {
                    let path = format!("lessons[{i}]");
                    match item {
                        Value::String(id) => match builtin(id) {
                            Ok(lesson) => lessons.push(CourseLesson {
                                name: Some(id.clone()),
                                lesson,
                            }),
                            Err(found) => {
                                problems.extend(found.into_iter().map(|p| at(&path, p.message)))
                            }
                        },
                        Value::Object(_) => match Lesson::from_value(item.clone(), &path) {
                            Ok(lesson) => lessons.push(CourseLesson { name: None, lesson }),
                            Err(found) => problems.extend(found),
                        },
                        _ => problems.push(at(
                            &path,
                            "a lesson is a built-in lesson's name or a lesson object".into(),
                        )),
                    }
                }
            }
            Some(_) => problems.push(at(
                "lessons",
                "must be a list of at least one lesson".into(),
            )),
            None => problems.push(at("lessons", "this required field is missing".into())),
        }
        if problems.is_empty() {
            Ok(Course {
                title,
                description,
                lessons,
            })
        } else {
            Err(problems)
        }
    }
}

/// A lesson file or a course file? A course has `course`; anything else is
/// read as a lesson (whose loader then names what is wrong).
pub fn is_course(value: &Value) -> bool {
    value.get("course").is_some()
}
