//! What the Lessons mode says in words, apart from the page: a goal's parts
//! before any run (the goal box), the paths a solution patch sets, the
//! lessons solved in this browser (a list kept as JSON), and the lesson or
//! course a `#lesson=`/`#course=` link holds. Pure functions, tested natively.

use harness::lesson::course::{self, Course};
use harness::lesson::goal::{Goal, Verdict};
use harness::lesson::Lesson;

use crate::share;

/// The fragment prefixes of a lesson link (a built-in's name, or a lesson
/// file as base64url, the encoding of `#s=` scenario links) and a course link.
pub const LESSON_PREFIX: &str = "#lesson=";
pub const COURSE_PREFIX: &str = "#course=";

/// The goal, one plain line per part, in the order `goal::evaluate` judges them.
pub fn goal_lines(goal: &Goal) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(status) = &goal.status {
        lines.push(format!("The run ends with status {status}."));
    }
    if let Some(sequence) = &goal.tool_sequence {
        lines.push(match sequence.is_empty() {
            true => "No tool runs.".to_string(),
            false => format!("The tools that run, in order: {}.", sequence.join(" → ")),
        });
    }
    match goal.no_repeated_calls {
        Some(true) => lines.push("No identical call is made twice.".to_string()),
        Some(false) => lines.push("One identical call is made twice.".to_string()),
        None => {}
    }
    match goal.ids_exist {
        Some(true) => {
            lines.push("Every id in the answer came from a tool result or the task.".to_string())
        }
        Some(false) => lines.push("The answer names an id no tool gave.".to_string()),
        None => {}
    }
    if let Some(most) = goal.max_model_calls {
        lines.push(format!(
            "At most {most} model call{}.",
            if most == 1 { "" } else { "s" }
        ));
    }
    if !goal.tools_called.is_empty() {
        lines.push(format!(
            "These tools run: {}.",
            goal.tools_called.join(", ")
        ));
    }
    if !goal.tools_not_called.is_empty() {
        lines.push(format!(
            "These tools never run: {}.",
            goal.tools_not_called.join(", ")
        ));
    }
    for words in &goal.answer_contains {
        lines.push(format!("The final answer contains “{words}”."));
    }
    for call in &goal.called_with {
        lines.push(format!("{} is called with {}.", call.tool, call.args));
    }
    match goal.checker {
        Some(Verdict::Accepts) => {
            lines.push("Every provider would accept every request of the run.".to_string())
        }
        Some(Verdict::Rejects) => {
            lines.push("A provider would refuse a request of the run (HTTP 400).".to_string())
        }
        None => {}
    }
    if let Some(approvals) = &goal.approvals {
        let asked: Vec<String> = approvals
            .iter()
            .map(|a| format!("{}: {}", a.tool, decision_words(a.decision)))
            .collect();
        lines.push(match asked.is_empty() {
            true => "No approval is asked.".to_string(),
            false => format!("The approvals asked, in order: {}.", asked.join("; ")),
        });
    }
    if let Some(ms) = goal.max_elapsed_ms {
        lines.push(format!("The run ends within {ms} ms."));
    }
    lines
}

fn decision_words(decision: harness::approval::DecisionKind) -> &'static str {
    use harness::approval::DecisionKind::*;
    match decision {
        Approve => "approve",
        ApproveEdited => "approve with edited arguments",
        Deny => "deny",
        DenyAndStop => "deny and stop",
        AlwaysAllow => "always allow",
    }
}

/// The key progress is kept under: a built-in's name, else the title.
pub fn progress_key(name: Option<&str>, title: &str) -> String {
    match name {
        Some(name) => name.to_string(),
        None => format!("lesson:{title}"),
    }
}

/// The solved lessons' keys, from their saved JSON (anything else: none).
pub fn solved_from(saved: Option<&str>) -> Vec<String> {
    saved
        .and_then(|text| serde_json::from_str::<Vec<String>>(text).ok())
        .unwrap_or_default()
}

/// What a link opens.
#[derive(Debug)]
pub enum Linked {
    /// A lesson, with its built-in name when it is one.
    Lesson(Option<String>, Box<Lesson>),
    Course(Course),
}

/// The lesson or course a fragment holds, or why it cannot be opened, in
/// words for the person who followed it.
pub fn open_link(fragment: &str) -> Result<Linked, String> {
    if let Some(rest) = fragment.strip_prefix(LESSON_PREFIX) {
        if let Some(text) = course::builtin_text(rest) {
            return Lesson::load(text)
                .map(|lesson| Linked::Lesson(Some(rest.to_string()), Box::new(lesson)))
                .map_err(|p| broken("lesson", &problems(&p)));
        }
        let text = decoded(rest).map_err(|why| {
            // A word that is not base64 JSON was meant as a name.
            if rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') && !rest.is_empty() {
                let names: Vec<&str> = course::BUILTIN_LESSONS.to_vec();
                format!(
                    "Nothing was opened from this lesson link: no built-in lesson is named “{rest}”{}.",
                    harness::suggest::did_you_mean(rest, names.iter().copied())
                )
            } else {
                broken("lesson", &why)
            }
        })?;
        return Lesson::load(&text)
            .map(|lesson| Linked::Lesson(None, Box::new(lesson)))
            .map_err(|p| broken("lesson", &problems(&p)));
    }
    if let Some(rest) = fragment.strip_prefix(COURSE_PREFIX) {
        let text = decoded(rest).map_err(|why| broken("course", &why))?;
        return Course::load(&text)
            .map(Linked::Course)
            .map_err(|p| broken("course", &problems(&p)));
    }
    Err("This is not a lesson or course link.".to_string())
}

fn decoded(encoded: &str) -> Result<String, String> {
    let bytes = share::decode(encoded)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| "the link is broken or cut off: it does not decode to text".to_string())?;
    match crate::provenance::broken_link(&text) {
        Some(why) => Err(why),
        None => Ok(text),
    }
}

fn problems(problems: &[harness::scenario::Problem]) -> String {
    problems
        .iter()
        .map(|p| match p.path.is_empty() {
            true => p.message.clone(),
            false => format!("{}: {}", p.path, p.message),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn broken(what: &str, why: &str) -> String {
    format!("Nothing was opened from this {what} link: {why}.")
}

/// The `#lesson=` link of a lesson file's text.
pub fn lesson_fragment(text: &str) -> String {
    format!("{LESSON_PREFIX}{}", share::encode(text.trim().as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_goal_reads_in_words() {
        let lesson = course::builtin("turn-limit").unwrap();
        assert_eq!(
            goal_lines(&lesson.goal),
            vec![
                "The run ends with status turn_limit.",
                "The tools that run, in order: get_time → get_time → get_time.",
                "At most 3 model calls."
            ]
        );
    }

    #[test]
    fn links_open_builtins_encoded_lessons_and_say_what_is_wrong() {
        assert!(matches!(
            open_link("#lesson=turn-limit"),
            Ok(Linked::Lesson(Some(name), _)) if name == "turn-limit"
        ));
        let text = course::builtin_text("schema-enum").unwrap();
        assert!(matches!(
            open_link(&lesson_fragment(text)),
            Ok(Linked::Lesson(None, _))
        ));
        let wrong = open_link("#lesson=turn-limt").unwrap_err();
        assert!(
            wrong.contains("no built-in lesson is named “turn-limt”"),
            "{wrong}"
        );
        assert!(wrong.contains("turn-limit"), "{wrong}");
        let cut = open_link(&lesson_fragment(text)[..60]).unwrap_err();
        assert!(
            cut.starts_with("Nothing was opened from this lesson link"),
            "{cut}"
        );
        let course = format!(
            "{COURSE_PREFIX}{}",
            share::encode(br#"{"course": "Two", "lessons": ["turn-limit", "schema-enum"]}"#)
        );
        match open_link(&course) {
            Ok(Linked::Course(c)) => assert_eq!(c.lessons.len(), 2),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn progress_reads_back_and_ignores_garbage() {
        assert_eq!(solved_from(Some(r#"["turn-limit"]"#)), vec!["turn-limit"]);
        assert!(solved_from(Some("{oops")).is_empty());
        assert!(solved_from(None).is_empty());
    }
}
