//! Courses: a title and lessons in order, inline or built-in by name, flat
//! or in chapters; and the built-in course, whose chapters are
//! `lessons/chapters/*.json` (in file-name order) naming lesson files
//! `lessons/<id>.json`, all compiled in by the build script.
//!
//! A chapter brings in glossary terms (a lesson's `[[term]]` must be
//! defined in its chapter or an earlier one) and parts of the loop diagram
//! (`reveals`, from `DIAGRAM_PARTS`), so the drawn loop grows as the course
//! goes. A lesson's text is reached through `builtin_text`, so a program
//! that lists the course's names without opening a lesson need not load it.

use std::ops::Range;

use serde_json::{Map, Value};

use super::{terms, Lesson};
use crate::scenario::Problem;
use crate::suggest::did_you_mean;

// `CHAPTER_FILES`, `LESSON_FILES`, `BUILTIN_LESSONS` and `builtin_text`,
// generated from the files in `lessons/` by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/builtin_course.rs"));

/// The built-in course's title.
pub const BUILTIN_COURSE: &str = "The agent loop, by doing it";

/// The loop diagram's parts a chapter may reveal: the loop's steps, its
/// gates, and an exit for every status.
pub const DIAGRAM_PARTS: &[&str] = &[
    "start",
    "model-call",
    "response",
    "run-tool",
    "results",
    "backoff",
    "verifier",
    "validate",
    "approval",
    "stop-button",
    "gate-deadline",
    "gate-turns",
    "gate-tokens",
    "gate-cost",
    "gate-context",
    "gate-tool-calls",
    "gate-repeat",
    "exit-done",
    "exit-failed_verification",
    "exit-turn_limit",
    "exit-cost_limit",
    "exit-token_limit",
    "exit-tool_call_limit",
    "exit-deadline",
    "exit-repeated_call",
    "exit-blocked",
    "exit-max_tokens",
    "exit-refusal",
    "exit-model_error",
    "exit-cancelled",
    "exit-context_limit",
];

/// The most words a chapter's intro may have: it is one page, read first.
pub const CHAPTER_INTRO_MAX_WORDS: usize = 200;

/// A lesson of a course, with the built-in name it was given by, if any.
#[derive(Clone, Debug, PartialEq)]
pub struct CourseLesson {
    pub name: Option<String>,
    pub lesson: Lesson,
}

/// A glossary term a chapter brings in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub term: String,
    pub means: String,
}

/// A chapter: its intro page, what it adds to the diagram and the
/// glossary, and which of the course's lessons are its own.
#[derive(Clone, Debug, PartialEq)]
pub struct Chapter {
    pub title: String,
    pub intro: String,
    /// Keys of `DIAGRAM_PARTS` this chapter brings in.
    pub reveals: Vec<String>,
    pub terms: Vec<Term>,
    /// Its lessons' indices in `Course::lessons`.
    pub lessons: Range<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Course {
    pub title: String,
    pub description: String,
    /// Every lesson, in order (across chapters, when there are any).
    pub lessons: Vec<CourseLesson>,
    /// The chapters, in order; empty for a flat course.
    pub chapters: Vec<Chapter>,
}

impl Course {
    /// The chapter lesson `index` belongs to, if the course has chapters.
    pub fn chapter_of(&self, index: usize) -> Option<usize> {
        self.chapters
            .iter()
            .position(|c| c.lessons.contains(&index))
    }

    /// The diagram parts revealed by chapter `chapter` and those before it.
    pub fn revealed_through(&self, chapter: usize) -> Vec<&str> {
        self.chapters
            .iter()
            .take(chapter + 1)
            .flat_map(|c| c.reveals.iter().map(String::as_str))
            .collect()
    }

    /// The glossary terms defined by chapter `chapter` and those before it.
    pub fn terms_through(&self, chapter: usize) -> Vec<&Term> {
        self.chapters
            .iter()
            .take(chapter + 1)
            .flat_map(|c| c.terms.iter())
            .collect()
    }

    /// What `term` means, from any chapter's glossary.
    pub fn meaning(&self, term: &str) -> Option<&str> {
        self.chapters
            .iter()
            .flat_map(|c| c.terms.iter())
            .find(|t| t.term.eq_ignore_ascii_case(term))
            .map(|t| t.means.as_str())
    }
}

fn at(path: impl Into<String>, message: impl Into<String>) -> Problem {
    Problem {
        path: path.into(),
        message: message.into(),
    }
}

/// `inner` under `prefix`, as `chapters[0].reveals[1]`; a prefix ending
/// in `:` names a file or a built-in lesson (`turn-limit: goal.status`).
fn join(prefix: &str, inner: &str) -> String {
    match (prefix.is_empty(), inner.is_empty()) {
        (true, _) => inner.to_string(),
        (false, true) => prefix.trim_end_matches(':').to_string(),
        (false, false) if prefix.ends_with(':') => format!("{prefix} {inner}"),
        (false, false) if inner.starts_with('[') => format!("{prefix}{inner}"),
        (false, false) => format!("{prefix}.{inner}"),
    }
}

/// Loads built-in lesson `id` (any lesson file, in a chapter or not).
pub fn builtin(id: &str) -> Result<Lesson, Vec<Problem>> {
    match builtin_text(id) {
        Some(text) => Lesson::load(text),
        None => Err(vec![at(
            "",
            format!(
                "no built-in lesson is named {id:?}{}; `agent-loop lesson list` names them",
                did_you_mean(id, LESSON_FILES.iter().copied())
            ),
        )]),
    }
}

/// A built-in lesson's problems, each under the lesson's name.
fn under_name(id: &str, found: Vec<Problem>) -> impl Iterator<Item = Problem> + '_ {
    found.into_iter().map(move |p| {
        at(
            format!(
                "{id}{}{}",
                if p.path.is_empty() { "" } else { ": " },
                p.path
            ),
            p.message,
        )
    })
}

/// The built-in course's files: its chapters in order and the lesson files
/// they may name (a test gives its own).
#[derive(Clone, Copy)]
struct Files<'a> {
    /// Each chapter file's name (without `.json`) and text.
    chapters: &'a [(&'a str, &'a str)],
    /// Every lesson file's id.
    lessons: &'a [&'a str],
    /// A lesson file's text by id.
    text: &'a dyn Fn(&str) -> Option<&'a str>,
}

/// Where a course's lessons come from: built-in names and inline lessons
/// (a course file), or lesson files by name only (the built-in course).
#[derive(Clone, Copy)]
enum Named<'a> {
    NameOrInline,
    NameOnly(Files<'a>),
}

/// Reads one lesson entry of a course or chapter into `lessons`.
fn read_entry(
    item: &Value,
    path: &str,
    named: Named<'_>,
    lessons: &mut Vec<CourseLesson>,
    problems: &mut Vec<Problem>,
) {
    match (item, named) {
        (Value::String(id), Named::NameOnly(files)) => match (files.text)(id).map(Lesson::load) {
            Some(Ok(lesson)) => lessons.push(CourseLesson {
                name: Some(id.clone()),
                lesson,
            }),
            None => problems.push(at(
                path,
                format!(
                    "no lesson file is named {id:?} (lessons/{id}.json){}",
                    did_you_mean(id, files.lessons.iter().copied())
                ),
            )),
            Some(Err(found)) => problems.extend(under_name(id, found)),
        },
        (Value::String(id), Named::NameOrInline) => match builtin(id) {
            Ok(lesson) => lessons.push(CourseLesson {
                name: Some(id.clone()),
                lesson,
            }),
            Err(found) => problems.extend(found.into_iter().map(|p| at(path, p.message))),
        },
        (Value::Object(_), Named::NameOrInline) => match Lesson::from_value(item.clone(), path) {
            Ok(lesson) => lessons.push(CourseLesson { name: None, lesson }),
            Err(found) => problems.extend(found),
        },
        (_, Named::NameOnly(_)) => problems.push(at(
            path,
            "the built-in course names each lesson by its file's name (lessons/<name>.json)",
        )),
        _ => problems.push(at(
            path,
            "a lesson is a built-in lesson's name or a lesson object",
        )),
    }
}

const CHAPTER_FIELDS: [&str; 5] = ["chapter", "intro", "reveals", "terms", "lessons"];

/// Reads a chapter at `path`, its lessons appended to `lessons`.
fn read_chapter(
    value: &Value,
    path: &str,
    named: Named<'_>,
    lessons: &mut Vec<CourseLesson>,
    problems: &mut Vec<Problem>,
) -> Chapter {
    let first = lessons.len();
    let mut chapter = Chapter {
        title: String::new(),
        intro: String::new(),
        reveals: Vec::new(),
        terms: Vec::new(),
        lessons: first..first,
    };
    let Value::Object(fields) = value else {
        problems.push(at(
            path,
            "a chapter is a JSON object with chapter, intro, reveals, terms and lessons",
        ));
        return chapter;
    };
    for key in fields.keys() {
        if key != "$schema" && !CHAPTER_FIELDS.contains(&key.as_str()) {
            problems.push(at(
                join(path, key),
                format!(
                    "not a field of a chapter{}",
                    did_you_mean(key, CHAPTER_FIELDS)
                ),
            ));
        }
    }
    match fields.get("chapter") {
        Some(Value::String(title)) if !title.trim().is_empty() => chapter.title = title.clone(),
        Some(_) => problems.push(at(
            join(path, "chapter"),
            "the chapter's title must be text",
        )),
        None => problems.push(at(join(path, "chapter"), "this required field is missing")),
    }
    match fields.get("intro") {
        None => {}
        Some(Value::String(intro)) => {
            let words = intro.split_whitespace().count();
            if words > CHAPTER_INTRO_MAX_WORDS {
                problems.push(at(
                    join(path, "intro"),
                    format!(
                        "has {words} words; a chapter's intro is at most {CHAPTER_INTRO_MAX_WORDS}"
                    ),
                ));
            }
            chapter.intro = intro.clone();
        }
        Some(_) => problems.push(at(join(path, "intro"), "must be text")),
    }
    chapter.reveals = read_reveals(fields, path, problems);
    chapter.terms = read_terms(fields, path, problems);
    match fields.get("lessons") {
        None => {}
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                if item.is_null() && matches!(named, Named::NameOnly(_)) {
                    // Named twice; reported where it was found.
                    continue;
                }
                read_entry(
                    item,
                    &join(path, &format!("lessons[{i}]")),
                    named,
                    lessons,
                    problems,
                );
            }
        }
        Some(_) => problems.push(at(
            join(path, "lessons"),
            "must be a list of lessons (built-in names or lesson objects)",
        )),
    }
    chapter.lessons = first..lessons.len();
    chapter
}

fn read_reveals(
    fields: &Map<String, Value>,
    path: &str,
    problems: &mut Vec<Problem>,
) -> Vec<String> {
    let mut out = Vec::new();
    match fields.get("reveals") {
        None => {}
        Some(Value::Array(keys)) => {
            for (i, key) in keys.iter().enumerate() {
                let here = join(path, &format!("reveals[{i}]"));
                match key.as_str() {
                    Some(key) if DIAGRAM_PARTS.contains(&key) => out.push(key.to_string()),
                    Some(key) => problems.push(at(
                        here,
                        format!(
                            "the loop diagram has no part {key:?}{}",
                            did_you_mean(key, DIAGRAM_PARTS.iter().copied())
                        ),
                    )),
                    None => problems.push(at(here, "must be a diagram part's key (text)")),
                }
            }
        }
        Some(_) => problems.push(at(
            join(path, "reveals"),
            "must be a list of the diagram's part keys",
        )),
    }
    out
}

fn read_terms(fields: &Map<String, Value>, path: &str, problems: &mut Vec<Problem>) -> Vec<Term> {
    let mut out = Vec::new();
    match fields.get("terms") {
        None => {}
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                let here = join(path, &format!("terms[{i}]"));
                let text = |key: &str| {
                    item.get(key)
                        .and_then(Value::as_str)
                        .map(str::trim)
                        .filter(|t| !t.is_empty())
                };
                let extra = item
                    .as_object()
                    .into_iter()
                    .flat_map(|o| o.keys())
                    .find(|k| !["term", "means"].contains(&k.as_str()));
                if let Some(key) = extra {
                    problems.push(at(
                        join(&here, key),
                        format!(
                            "not a field of a term{}",
                            did_you_mean(key, ["term", "means"])
                        ),
                    ));
                }
                match (text("term"), text("means")) {
                    (Some(term), Some(means)) => out.push(Term {
                        term: term.to_string(),
                        means: means.to_string(),
                    }),
                    _ => problems.push(at(
                        here,
                        "a term is {\"term\": \"...\", \"means\": \"...\"}, both text",
                    )),
                }
            }
        }
        Some(_) => problems.push(at(join(path, "terms"), "must be a list of terms")),
    }
    out
}

/// Every `[[term]]` of a chapter's intro and its lessons' text must be
/// defined by that chapter or an earlier one. `where_chapter(i)` and
/// `where_lesson(j)` name the paths problems are reported at. A course
/// file's built-in lessons (`inline_only`) were checked against the
/// built-in course's glossary, so only its own text is checked here.
fn term_problems(
    course: &Course,
    inline_only: bool,
    where_chapter: &dyn Fn(usize) -> String,
    where_lesson: &dyn Fn(usize) -> String,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (c, chapter) in course.chapters.iter().enumerate() {
        let known: Vec<&str> = course
            .terms_through(c)
            .into_iter()
            .map(|t| t.term.as_str())
            .collect();
        let mut texts: Vec<(String, &str)> =
            vec![(join(&where_chapter(c), "intro"), &chapter.intro)];
        for j in chapter.lessons.clone() {
            if inline_only && course.lessons[j].name.is_some() {
                continue;
            }
            for (field, text) in course.lessons[j].lesson.texts() {
                texts.push((join(&where_lesson(j), &field), text));
            }
        }
        for (path, text) in texts {
            for term in terms::named(text) {
                if !known.iter().any(|k| k.eq_ignore_ascii_case(term)) {
                    problems.push(at(
                        path.clone(),
                        format!(
                            "the term {term:?} is not defined in this chapter or an earlier one{}",
                            did_you_mean(term, known.iter().copied())
                        ),
                    ));
                }
            }
        }
    }
    problems
}

/// The built-in course, every chapter and lesson loaded, checked as one:
/// each lesson file named by exactly one chapter, every diagram key and
/// glossary term known.
pub fn builtin_course() -> Result<Course, Vec<Problem>> {
    course_from_files(Files {
        chapters: CHAPTER_FILES,
        lessons: LESSON_FILES,
        text: &builtin_text,
    })
}

/// The built-in course's glossary, read from its chapter files alone (no
/// lesson loaded): what the `[[term]]`s of built-in lessons mean, for a
/// course file that names them without defining the terms itself.
pub fn builtin_glossary() -> Vec<Term> {
    let mut ignored = Vec::new();
    CHAPTER_FILES
        .iter()
        .filter_map(|(_, text)| serde_json::from_str::<Value>(text).ok())
        .flat_map(|value| match value {
            Value::Object(fields) => read_terms(&fields, "", &mut ignored),
            _ => Vec::new(),
        })
        .collect()
}

/// A course of chapter files naming lesson files, as the built-in one is.
fn course_from_files(files: Files<'_>) -> Result<Course, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut lessons = Vec::new();
    let mut chapters = Vec::new();
    // Each loaded chapter's file, as its problems' paths start.
    let mut chapter_paths: Vec<String> = Vec::new();
    // Which chapter file named each lesson first.
    let mut named_by: Vec<(String, String)> = Vec::new();
    for (file, text) in files.chapters {
        let path = format!("chapters/{file}.json");
        let mut value: Value = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(e) => {
                problems.push(at(&path, crate::scenario::syntax::describe(&e, text)));
                continue;
            }
        };
        // A lesson named a second time is reported, and loaded once: its
        // second entry becomes null, which `read_chapter` passes over.
        if let Some(Value::Array(items)) = value.get_mut("lessons") {
            for (i, item) in items.iter_mut().enumerate() {
                let Some(id) = item.as_str() else {
                    continue;
                };
                match named_by.iter().find(|(named, _)| named == id) {
                    Some((_, first)) => {
                        problems.push(at(
                            format!("{path}: lessons[{i}]"),
                            format!("{id:?} is already named by {first}; a lesson belongs to one chapter, once"),
                        ));
                        *item = Value::Null;
                    }
                    None => named_by.push((id.to_string(), path.clone())),
                }
            }
        }
        chapter_paths.push(format!("{path}:"));
        chapters.push(read_chapter(
            &value,
            &format!("{path}:"),
            Named::NameOnly(files),
            &mut lessons,
            &mut problems,
        ));
    }
    for id in files.lessons {
        if !named_by.iter().any(|(named, _)| named == id) {
            problems.push(at(
                id.to_string(),
                format!(
                    "lessons/{id}.json is named in no chapter; add {id:?} to a chapter's lessons"
                ),
            ));
        }
    }
    let course = Course {
        title: BUILTIN_COURSE.to_string(),
        description: String::new(),
        lessons,
        chapters,
    };
    let names: Vec<String> = course
        .lessons
        .iter()
        .map(|l| l.name.clone().unwrap_or_default() + ":")
        .collect();
    problems.extend(term_problems(
        &course,
        false,
        &|c| chapter_paths.get(c).cloned().unwrap_or_default(),
        &|j| names[j].clone(),
    ));
    if problems.is_empty() {
        Ok(course)
    } else {
        Err(problems)
    }
}

const COURSE_FIELDS: [&str; 5] = ["$schema", "course", "description", "lessons", "chapters"];

impl Course {
    /// Parses and checks a course file: every lesson, each problem with its
    /// path (`lessons[3].goal.status`, `chapters[1].lessons[0].intro`).
    pub fn load(text: &str) -> Result<Course, Vec<Problem>> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| vec![at("", crate::scenario::syntax::describe(&e, text))])?;
        Course::from_value(value)
    }

    pub fn from_value(value: Value) -> Result<Course, Vec<Problem>> {
        let Value::Object(fields) = value else {
            return Err(vec![at(
                "",
                "a course is a JSON object with course and lessons (or chapters)",
            )]);
        };
        let mut problems = Vec::new();
        for key in fields.keys() {
            if !COURSE_FIELDS.contains(&key.as_str()) {
                problems.push(at(
                    key.as_str(),
                    format!(
                        "not a field of a course{}",
                        did_you_mean(key, COURSE_FIELDS[1..].iter().copied())
                    ),
                ));
            }
        }
        let title = match fields.get("course") {
            Some(Value::String(title)) if !title.trim().is_empty() => title.clone(),
            Some(_) => {
                problems.push(at("course", "the course's title must be text"));
                String::new()
            }
            None => {
                problems.push(at("course", "this required field is missing"));
                String::new()
            }
        };
        let description = match fields.get("description") {
            None => String::new(),
            Some(Value::String(text)) => text.clone(),
            Some(_) => {
                problems.push(at("description", "must be text"));
                String::new()
            }
        };
        let mut lessons = Vec::new();
        let mut chapters = Vec::new();
        match (fields.get("lessons"), fields.get("chapters")) {
            (Some(_), Some(_)) => {
                problems.push(at("chapters", "a course has lessons or chapters, not both"))
            }
            (Some(Value::Array(items)), None) if !items.is_empty() => {
                for (i, item) in items.iter().enumerate() {
                    read_entry(
                        item,
                        &format!("lessons[{i}]"),
                        Named::NameOrInline,
                        &mut lessons,
                        &mut problems,
                    );
                }
            }
            (Some(_), None) => {
                problems.push(at("lessons", "must be a list of at least one lesson"))
            }
            (None, Some(Value::Array(items))) if !items.is_empty() => {
                for (i, item) in items.iter().enumerate() {
                    chapters.push(read_chapter(
                        item,
                        &format!("chapters[{i}]"),
                        Named::NameOrInline,
                        &mut lessons,
                        &mut problems,
                    ));
                }
                if problems.is_empty() && lessons.is_empty() {
                    problems.push(at("chapters", "the chapters hold no lesson"));
                }
            }
            (None, Some(_)) => {
                problems.push(at("chapters", "must be a list of at least one chapter"))
            }
            (None, None) => problems.push(at(
                "lessons",
                "this required field is missing (or chapters, for a course in chapters)",
            )),
        }
        let course = Course {
            title,
            description,
            lessons,
            chapters,
        };
        if problems.is_empty() && !course.chapters.is_empty() {
            // Paths of the lessons as the file writes them.
            let mut lesson_paths = vec![String::new(); course.lessons.len()];
            for (c, chapter) in course.chapters.iter().enumerate() {
                for (k, j) in chapter.lessons.clone().enumerate() {
                    lesson_paths[j] = format!("chapters[{c}].lessons[{k}]");
                }
            }
            problems.extend(term_problems(
                &course,
                true,
                &|c| format!("chapters[{c}]"),
                &|j| lesson_paths[j].clone(),
            ));
        }
        if problems.is_empty() {
            Ok(course)
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

#[cfg(test)]
mod tests {
    use super::*;

    const LESSON: &str = r#"{"lesson": "L", "intro": "A [[turn]] and a [[tokn|token]].", "scenario": "get-time",
        "editable": ["limits.max_turns"], "goal": {"status": "turn_limit"},
        "solution": {"limits": {"max_turns": 1}}, "explain": "e"}"#;

    fn text(id: &str) -> Option<&'static str> {
        matches!(id, "a" | "b" | "c").then_some(LESSON)
    }

    fn problems(chapters: &'static [(&'static str, &'static str)]) -> Vec<String> {
        course_from_files(Files {
            chapters,
            lessons: &["a", "b", "c"],
            text: &text,
        })
        .err()
        .unwrap_or_default()
        .iter()
        .map(ToString::to_string)
        .collect()
    }

    #[test]
    fn a_lesson_file_named_in_no_chapter_or_twice_is_a_problem() {
        let found = problems(&[
            (
                "01-one",
                r#"{"chapter": "One", "terms": [{"term": "turn", "means": "m"}, {"term": "token", "means": "t"}], "lessons": ["a", "b"]}"#,
            ),
            ("02-two", r#"{"chapter": "Two", "lessons": ["a", "d"]}"#),
        ]);
        assert!(
            found.contains(&"chapters/02-two.json: lessons[0]: \"a\" is already named by chapters/01-one.json; a lesson belongs to one chapter, once".to_string()),
            "{found:#?}"
        );
        assert!(
            found.contains(
                &"c: lessons/c.json is named in no chapter; add \"c\" to a chapter's lessons"
                    .to_string()
            ),
            "{found:#?}"
        );
        assert!(
            found.iter().any(|p| p
                .starts_with("chapters/02-two.json: lessons[1]: no lesson file is named \"d\"")),
            "{found:#?}"
        );
    }

    #[test]
    fn a_term_must_be_defined_in_its_chapter_or_an_earlier_one() {
        let found = problems(&[
            ("01-one", r#"{"chapter": "One", "lessons": ["a"]}"#),
            (
                "02-two",
                r#"{"chapter": "Two", "terms": [{"term": "turn", "means": "m"}, {"term": "token", "means": "t"}], "lessons": ["b", "c"]}"#,
            ),
        ]);
        // Lesson a, in chapter one, links both before chapter two defines them.
        assert!(
            found.contains(
                &"a: intro: the term \"turn\" is not defined in this chapter or an earlier one"
                    .to_string()
            ),
            "{found:#?}"
        );
        // In chapter two, "tokn" is close to a defined term.
        assert!(
            found.contains(&"b: intro: the term \"tokn\" is not defined in this chapter or an earlier one (did you mean `token`?)".to_string()),
            "{found:#?}"
        );
        assert!(
            !found
                .iter()
                .any(|p| p.contains("\"turn\"") && p.starts_with("b:")),
            "{found:#?}"
        );
    }

    #[test]
    fn every_status_has_an_exit_to_reveal() {
        for status in crate::event::Status::ALL {
            let key = format!("exit-{}", status.as_str());
            assert!(DIAGRAM_PARTS.contains(&key.as_str()), "{key}");
        }
    }
}
