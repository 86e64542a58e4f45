//! `agent-loop lesson`: list (by chapter), check (exit 0 when the goal
//! holds, with the explanation filled from the run; 3 when it does not; 2
//! for a file that cannot be read), verify (start, solution, misses, walk,
//! prediction) and show.

mod process;
use process::{agent_loop, stderr, stdout};

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("agent-loop-lesson-{}-{name}", std::process::id()))
}

#[test]
fn list_names_the_course_by_chapter_stepping_first() {
    let out = agent_loop(&["lesson", "list"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("The agent loop, by doing it ("), "{text}");
    assert!(text.contains(" chapters)\n\n1. The loop\n"), "{text}");
    // The first lesson of the first chapter: numbered 1, stepped through.
    let first = text
        .lines()
        .find(|line| line.trim_start().starts_with("1. loop"))
        .unwrap_or_else(|| panic!("no first lesson: {text}"));
    assert!(first.contains(" loop-step-through "), "{first}");
    assert!(first.ends_with("by stepping)"), "{first}");
    // Lessons are numbered through the course, not per chapter.
    assert!(text.contains("\n2. When the harness stops it\n"), "{text}");
    assert!(
        text.contains(
            "    3. turn-limit                       Stop a runaway loop (turn_limit; by editing)\n"
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
        stdout(&out).contains("the goal holds\nwhy: "),
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
    // The lesson asks for a prediction first, then the edit.
    let text = text.replacen("{\n", "{\n  \"prediction\": \"deadline\",\n", 1);
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
            "the lesson lets you change only limits.deadline_mode, limits.deadline_ms; this file also changes model.responses[1].delay_ms"
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
        stdout(&out).ends_with(
            " lessons: every start misses its goal, every solution meets it, and no miss does\n"
        ),
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

/// A lesson on the built-in turn-limit scenario (get_time forever), with
/// the fields each test below varies.
fn fixture(name: &str, fields: &str) -> std::path::PathBuf {
    let file = temp(name);
    std::fs::write(
        &file,
        format!(r#"{{"lesson": "Fixture", "intro": "i", "scenario": "turn-limit", {fields}}}"#),
    )
    .unwrap();
    file
}

#[test]
fn verify_names_a_miss_that_meets_the_goal() {
    let file = fixture(
        "miss.json",
        r#""start": {"limits": {"max_turns": null}}, "editable": ["limits.max_turns"],
           "goal": {"status": "turn_limit", "max_model_calls": 5},
           "solution": {"limits": {"max_turns": 3}}, "explain": "{value:limits.max_turn} turns",
           "misses": [{"patch": {"limits": {"max_turns": 20}}, "why": "a limit above the default"},
                      {"patch": {"limits": {"max_turns": 1}}, "why": "a limit of one turn"}]"#,
    );
    let path = file.to_str().unwrap();
    let out = agent_loop(&["lesson", "verify", path]);
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains(&format!(
            "FAIL  {path}: misses[1] (\"a limit of one turn\") meets the goal: the run ended `turn_limit`, as the goal asks; the model was called once; the goal is at most 5 times; "
        )),
        "{text}"
    );
    assert!(!text.contains("misses[0]"), "{text}");
    // A placeholder whose path the solved scenario lacks would show "(not set)".
    assert!(
        text.contains("; its explanation shows {value:limits.max_turn}, which the solved scenario does not set, so the learner would read \"(not set)\""),
        "{text}"
    );
    std::fs::remove_file(&file).ok();
}

#[test]
fn verify_fails_a_walk_that_does_not_match_the_stepped_pauses() {
    // max_turns 1: the stepped run pauses before its model call and before
    // the tool it asks for, then the limit ends it: two pauses, three lines.
    let file = fixture(
        "walk.json",
        r#""start": {"limits": {"max_turns": 1}}, "by": "stepping",
           "walk": ["first", "second", "third"], "goal": {"min_steps": 2}, "solution": {"steps": 2}, "explain": "e""#,
    );
    let path = file.to_str().unwrap();
    let out = agent_loop(&["lesson", "verify", path]);
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    assert!(
        stdout(&out).contains(&format!(
            "FAIL  {path}: its walk has 3 lines, but the run stepped from the start pauses 2 times (before model call 1, before get_time runs)\n"
        )),
        "{}",
        stdout(&out)
    );
    std::fs::remove_file(&file).ok();
}

#[test]
fn verify_fails_a_prediction_no_choice_offers() {
    let file = fixture(
        "predict.json",
        r#""start": {"limits": {"max_turns": 2}}, "by": "predicting",
           "predict": {"question": "How many tool calls run?", "choices": ["0", "1"], "of": "tool_calls"},
           "goal": {"predicted": true}, "solution": {"prediction": "1"}, "explain": "e""#,
    );
    let path = file.to_str().unwrap();
    let out = agent_loop(&["lesson", "verify", path]);
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    assert!(
        stdout(&out).contains(&format!(
            "FAIL  {path}: its question asks the run's tool_calls, which is \"2\", but the choices are \"0\", \"1\"\n"
        )),
        "{}",
        stdout(&out)
    );
    std::fs::remove_file(&file).ok();
}

#[test]
fn check_prints_the_explanation_filled_from_the_run_and_the_prediction() {
    let file = fixture(
        "explain.json",
        r#""start": {"limits": {"max_turns": 2}}, "by": "predicting", "editable": ["limits.max_turns"],
           "predict": {"question": "How many tool calls run?", "choices": ["1", "2"], "of": "tool_calls"},
           "goal": {"predicted": true, "status": "turn_limit"},
           "solution": {"prediction": "1", "limits": {"max_turns": 3}},
           "explain": "You predicted {prediction}; max_turns {value:limits.max_turns} made {model_calls} model calls: {tools}.""#,
    );
    let path = file.to_str().unwrap();
    // As given, no prediction yet: the file is where one is written.
    let out = agent_loop(&["lesson", "check", path]);
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    assert!(
        stdout(&out).contains(
            "\n  the question: How many tool calls run? (1 / 2); write \"prediction\": \"<your choice>\" in the file\n"
        ),
        "{}",
        stdout(&out)
    );
    let out = agent_loop(&["lesson", "check", path, "--solution"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("\n  you predicted 1; the run: 3\n"), "{text}");
    assert!(
        text.ends_with(
            "the goal holds\nwhy: You predicted 1; max_turns 3 made 3 model calls: get_time → get_time → get_time.\n"
        ),
        "{text}"
    );
    std::fs::remove_file(&file).ok();
}

#[test]
fn show_writes_out_the_walk_misses_and_takeaway() {
    let out = agent_loop(&["lesson", "show", "loop-step-through"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let shown: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(shown["by"], "stepping");
    assert!(
        shown["walk"].as_array().is_some_and(|w| !w.is_empty()),
        "{shown}"
    );
    assert!(
        shown["misses"].as_array().is_some_and(|m| !m.is_empty()),
        "{shown}"
    );
    assert!(
        shown["takeaway"].as_str().is_some_and(|t| !t.is_empty()),
        "{shown}"
    );
}
