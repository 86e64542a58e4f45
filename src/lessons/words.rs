//! What the Lessons mode says in words, apart from the page: a goal's parts
//! before any run (the goal box), the paths a solution patch sets, the
//! lessons solved in this browser (a list kept as JSON), the lesson or
//! course a `#lesson=`/`#course=` link holds, and the solved lessons a
//! `#progress=` link carries. Pure functions, tested natively.

use harness::lesson::course::{self, Course};
use harness::lesson::goal::{Goal, Verdict};
use harness::lesson::Lesson;

use crate::editor::share;

/// The fragment prefixes of a lesson link (a built-in's name, or a lesson
/// file as base64url, the encoding of `#s=` scenario links) and a course link.
pub const LESSON_PREFIX: &str = "#lesson=";
pub const COURSE_PREFIX: &str = "#course=";
/// The fragment prefix of a progress link: the solved built-in lessons'
/// names, comma-separated (names are letters, digits and hyphens).
pub const PROGRESS_PREFIX: &str = "#progress=";

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
    if let Some(least) = goal.min_model_calls {
        lines.push(format!(
            "At least {least} model call{}.",
            if least == 1 { "" } else { "s" }
        ));
    }
    match goal.answered {
        Some(true) => lines.push("The run ends with a final answer.".to_string()),
        Some(false) => lines.push("The run ends without a final answer.".to_string()),
        None => {}
    }
    for (path, value) in &goal.scenario_has {
        lines.push(format!("The scenario's {path} is {value}."));
    }
    if let Some(least) = goal.min_steps {
        lines.push(format!(
            "Step is pressed at least {least} time{}.",
            if least == 1 { "" } else { "s" }
        ));
    }
    match goal.predicted {
        Some(true) => lines.push("You make a prediction before the run.".to_string()),
        Some(false) => lines.push("No prediction is made.".to_string()),
        None => {}
    }
    if let Some(strategy) = &goal.context_edited {
        lines.push(format!(
            "The context strategy {strategy} changes the history at least once."
        ));
    }
    for answer in &goal.verifier_accepts {
        lines.push(format!("The verifier's checks pass the answer “{answer}”."));
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

/// The loop diagram's parts no chapter up to `chapter` reveals: folded
/// away while that chapter is open, so the drawn loop grows as the course
/// goes. A course without chapters folds nothing.
pub fn folded_parts(course: &Course, chapter: usize) -> Vec<&'static str> {
    if course.chapters.is_empty() {
        return Vec::new();
    }
    let shown = course.revealed_through(chapter);
    course::DIAGRAM_PARTS
        .iter()
        .copied()
        .filter(|part| !shown.contains(part))
        .collect()
}

/// The folded parts counted in words: "2 gates, 9 exits and 1 other part".
pub fn folded_words(parts: &[&str]) -> String {
    let gates = parts.iter().filter(|p| p.starts_with("gate-")).count();
    let exits = parts.iter().filter(|p| p.starts_with("exit-")).count();
    let others = parts.len() - gates - exits;
    let counted = |n: usize, one: &str, many: &str| {
        (n > 0).then(|| format!("{n} {}", if n == 1 { one } else { many }))
    };
    let words: Vec<String> = [
        counted(gates, "gate", "gates"),
        counted(exits, "exit", "exits"),
        counted(others, "other part", "other parts"),
    ]
    .into_iter()
    .flatten()
    .collect();
    match words.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [first @ .., last] => format!("{} and {last}", first.join(", ")),
    }
}

/// What a link opens.
#[derive(Debug)]
pub enum Linked {
    /// A lesson, with its built-in name when it is one.
    Lesson(Option<String>, Box<Lesson>),
    Course(Course),
    /// Someone's progress: the built-in lessons they solved, by name.
    Progress(Vec<String>),
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
    if fragment.starts_with(PROGRESS_PREFIX) {
        return progress_from(fragment).map(Linked::Progress);
    }
    if let Some(rest) = fragment.strip_prefix(COURSE_PREFIX) {
        let text = decoded(rest).map_err(|why| broken("course", &why))?;
        return Course::load(&text)
            .map(Linked::Course)
            .map_err(|p| broken("course", &problems(&p)));
    }
    Err("This is not a lesson or course link.".to_string())
}

/// The `#progress=` fragment of the built-in lessons solved: those of
/// `solved` that are in `course_ids`, in the course's order. Lessons opened
/// from files have no name another browser could look up, so they stay out.
pub fn progress_fragment(solved: &[String], course_ids: &[&str]) -> String {
    let names: Vec<&str> = course_ids
        .iter()
        .copied()
        .filter(|id| solved.iter().any(|s| s == id))
        .collect();
    format!("{PROGRESS_PREFIX}{}", names.join(","))
}

/// The solved lessons' names a `#progress=` fragment carries, or why it
/// cannot be read.
pub fn progress_from(fragment: &str) -> Result<Vec<String>, String> {
    let rest = fragment
        .strip_prefix(PROGRESS_PREFIX)
        .ok_or_else(|| "This is not a progress link.".to_string())?;
    let mut names = Vec::new();
    for name in rest.split(',').filter(|n| !n.is_empty()) {
        if !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(
                "Nothing was opened from this progress link: it is broken or cut off.".to_string(),
            );
        }
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
    Ok(names)
}

fn decoded(encoded: &str) -> Result<String, String> {
    let bytes = share::decode(encoded)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| "the link is broken or cut off: it does not decode to text".to_string())?;
    match crate::editor::provenance::broken_link(&text) {
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
    fn the_goal_s_newer_parts_read_in_words() {
        let goal: Goal = serde_json::from_str(
            r#"{"min_model_calls": 2, "answered": true, "scenario_has": {"approval": "ask"},
                "min_steps": 3, "predicted": true, "context_edited": "compact",
                "verifier_accepts": ["42"]}"#,
        )
        .unwrap();
        assert_eq!(
            goal_lines(&goal),
            vec![
                "At least 2 model calls.",
                "The run ends with a final answer.",
                "The scenario's approval is \"ask\".",
                "Step is pressed at least 3 times.",
                "You make a prediction before the run.",
                "The context strategy compact changes the history at least once.",
                "The verifier's checks pass the answer “42”."
            ]
        );
    }

    /// One line per part the goal judges, for every built-in lesson: a
    /// goal part the box did not say would be judged unseen.
    #[test]
    fn the_goal_box_says_every_part_check_judges() {
        let outcome: harness::event::Outcome = serde_json::from_value(serde_json::json!({
            "status": "done", "reason": "", "turns": 0, "tool_calls": 0,
            "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0, "elapsed_ms": 0, "answer": null
        }))
        .unwrap();
        for id in course::BUILTIN_LESSONS {
            let lesson = course::builtin(id).unwrap();
            let judged = harness::lesson::goal::evaluate(&lesson.goal, None, &[], &outcome);
            assert_eq!(
                goal_lines(&lesson.goal).len(),
                judged.len(),
                "{id}: {:?}",
                judged.iter().map(|p| &p.part).collect::<Vec<_>>()
            );
        }
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
    fn the_loop_folds_what_no_chapter_so_far_reveals_and_says_how_much() {
        let chapter = |reveals: &[&str]| course::Chapter {
            title: String::new(),
            intro: String::new(),
            reveals: reveals.iter().map(|r| r.to_string()).collect(),
            terms: Vec::new(),
            lessons: 0..0,
        };
        let course = Course {
            title: "Two chapters".into(),
            description: String::new(),
            lessons: Vec::new(),
            chapters: vec![
                chapter(&["start", "model-call", "exit-done"]),
                chapter(&["gate-turns", "exit-turn_limit"]),
            ],
        };
        let first = folded_parts(&course, 0);
        let second = folded_parts(&course, 1);
        for part in ["start", "model-call", "exit-done"] {
            assert!(!first.contains(&part) && !second.contains(&part), "{part}");
        }
        // The second chapter's parts are folded in the first, shown in the second.
        for part in ["gate-turns", "exit-turn_limit"] {
            assert!(first.contains(&part) && !second.contains(&part), "{part}");
        }
        assert!(first.contains(&"gate-cost") && second.contains(&"gate-cost"));
        assert_eq!(first.len() + 3, course::DIAGRAM_PARTS.len());
        let flat = Course::load(r#"{"course": "Flat", "lessons": ["turn-limit"]}"#).unwrap();
        assert!(folded_parts(&flat, 0).is_empty());
        assert_eq!(
            folded_words(&["gate-cost", "gate-turns", "exit-done", "backoff"]),
            "2 gates, 1 exit and 1 other part"
        );
        assert_eq!(folded_words(&["exit-done", "exit-blocked"]), "2 exits");
    }

    #[test]
    fn a_progress_link_carries_the_solved_built_ins_in_course_order() {
        let solved = vec![
            "schema-enum".to_string(),
            "lesson:From a file".to_string(),
            "turn-limit".to_string(),
        ];
        let fragment = progress_fragment(&solved, &["turn-limit", "deadline", "schema-enum"]);
        assert_eq!(fragment, "#progress=turn-limit,schema-enum");
        assert_eq!(
            progress_from(&fragment).unwrap(),
            vec!["turn-limit", "schema-enum"]
        );
        assert_eq!(progress_from("#progress=").unwrap(), Vec::<String>::new());
        assert!(progress_from("#progress=a%20b").is_err());
        assert!(matches!(
            open_link("#progress=turn-limit"),
            Ok(Linked::Progress(names)) if names == ["turn-limit"]
        ));
    }

    #[test]
    fn progress_reads_back_and_ignores_garbage() {
        assert_eq!(solved_from(Some(r#"["turn-limit"]"#)), vec!["turn-limit"]);
        assert!(solved_from(Some("{oops")).is_empty());
        assert!(solved_from(None).is_empty());
    }
}
