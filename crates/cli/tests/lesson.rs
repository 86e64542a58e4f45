//! `agent-loop lesson`: list, check (exit 0 when the goal holds, 3 when it
//! does not, 2 for a file that cannot be read), verify and show.

mod process;
use process::{agent_loop, stderr, stdout};

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("agent-loop-lesson-{}-{name}", std::process::id()))
}

#[test]
fn list_names_the_course_in_order() {
    let out = agent_loop(&["lesson", "list"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("The agent loop, by doing it ("), "{text}");
    assert!(
        text.contains(
            "  1. turn-limit                       Stop a runaway loop (turn_limit; by editing)\n"
        ),
        "{text}"
    );
    assert!(text.contains("(cancelled; by pressing_stop)"), "{text}");
}

#[test]
fn check_says_which_part_holds_and_exits_3_until_solved() {
    let out = agent_loop(&["lesson", "check", "turn-limit"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("  ✓ the run ended `turn_limit`, as the goal asks\n"),
        "{text}"
    );
    assert!(
        text.contains("  ✗ the model was called 10 times; the goal is at most 3 times\n"),
        "{text}"
    );
    assert!(text.contains("hint: Limits live under limits.\n"), "{text}");

    let out = agent_loop(&["lesson", "check", "turn-limit", "--solution"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).ends_with("the goal holds\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_student_edits_the_shown_file_and_checks_it() {
    let out = agent_loop(&["lesson", "show", "deadline-hung-call"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("\"deadline_mode\": \"between_steps\""),
        "{text}"
    );
    let file = temp("deadline.json");
    std::fs::write(&file, &text).unwrap();
    let path = file.to_str().unwrap();
    assert_eq!(
        agent_loop(&["lesson", "check", path]).status.code(),
        Some(3)
    );

    // The edit the lesson asks for.
    std::fs::write(&file, text.replace("\"between_steps\"", "\"interrupt\"")).unwrap();
    let out = agent_loop(&["lesson", "check", path]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("  ✓ the run took 1500 ms; the goal is at most 1600 ms\n"),
        "{}",
        stdout(&out)
    );
    assert_eq!(stderr(&out), "");

    // An edit outside `editable` is named (and the check still runs).
    let cheat = text
        .replace("\"between_steps\"", "\"interrupt\"")
        .replace("\"delay_ms\": 3000", "\"delay_ms\": 10");
    std::fs::write(&file, cheat).unwrap();
    let out = agent_loop(&["lesson", "check", path]);
    assert!(
        stderr(&out).contains(
            "the lesson lets you change only limits.deadline_mode; this file also changes tools[0].delay_ms"
        ),
        "{}",
        stderr(&out)
    );
    std::fs::remove_file(&file).ok();
}

#[test]
fn a_lesson_that_cannot_be_read_exits_2_with_every_problem() {
    let file = temp("bad.json");
    std::fs::write(
        &file,
        r#"{"lesson": "x", "intro": "y", "scenario": "turn-limt", "goal": {"status": "turn_limt"},
            "solution": {}, "explain": "z", "hint": []}"#,
    )
    .unwrap();
    let out = agent_loop(&["lesson", "check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let text = stderr(&out);
    assert!(
        text.contains("hint: not a field of the lesson (did you mean `hints`?)"),
        "{text}"
    );
    assert!(text.contains("goal.status: "), "{text}");
    assert!(text.contains("did you mean `turn_limit`?"), "{text}");
    std::fs::remove_file(&file).ok();

    let out = agent_loop(&["lesson", "check", "trun-limit"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("did you mean `turn-limit`?"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn verify_fails_a_lesson_whose_start_already_meets_its_goal_naming_it() {
    let file = temp("untrue.json");
    std::fs::write(
        &file,
        r#"{"lesson": "Already solved", "intro": "y", "scenario": "turn-limit", "editable": ["limits"],
            "goal": {"status": "turn_limit"}, "solution": {"limits": {"max_turns": 2}}, "explain": "z"}"#,
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let out = agent_loop(&["lesson", "verify", path, "weak-verifier"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(&format!("FAIL  {path}: its start already meets its goal (the run ended turn_limit), so there is nothing to do\n")),
        "{text}"
    );
    assert!(text.contains("ok    weak-verifier\n"), "{text}");
    assert!(text.ends_with("2 lessons: 1 not true\n"), "{text}");
    std::fs::remove_file(&file).ok();
}

#[test]
fn verify_passes_the_builtin_course() {
    let out = agent_loop(&["lesson", "verify"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out)
            .ends_with(" lessons: every start misses its goal and every solution meets it\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_course_file_lists_builtin_and_inline_lessons() {
    let file = temp("course.json");
    std::fs::write(
        &file,
        r#"{"course": "Week 1", "lessons": ["turn-limit", {"lesson": "Inline", "intro": "i",
            "scenario": "refusal", "start": {"limits": {"stop_mode": "naive"}}, "editable": ["limits.stop_mode"],
            "goal": {"status": "refusal"}, "solution": {"limits": {"stop_mode": "strict"}}, "explain": "e"}]}"#,
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let out = agent_loop(&["lesson", "verify", path]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains(&format!("ok    {path}: turn-limit\n")),
        "{text}"
    );
    assert!(
        text.contains(&format!("ok    {path}: lessons[1] (Inline)\n")),
        "{text}"
    );
    let out = agent_loop(&["lesson", "check", path]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is a course, not a lesson"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_file(&file).ok();
}
