//! `agent-loop validate` on a scenario that runs, but not as it may be
//! meant: a call to a tool no tool declares and a stop_reason the loop does
//! not know are notes, printed under "ok", and the exit code stays 0.

use std::io::Write;

mod process;
use process::{agent_loop, stderr, stdout};

/// A typo'd tool name and an invented stop_reason: both load and run.
const TYPO: &str = r#"{"name": "Typo", "task": "What time is it?", "tools": ["get_time"],
  "model": {"type": "scripted", "responses": [
    {"tool_calls": [{"name": "get_tiem", "args": {}}]},
    {"text": "It is noon.", "stop_reason": "finished"}
  ]}}"#;

fn temp_file(name: &str, contents: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("agent-loop-notes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::File::create(&path)
        .unwrap()
        .write_all(contents.as_bytes())
        .unwrap();
    path
}

#[test]
fn validate_prints_a_note_for_an_undeclared_tool_and_an_unknown_stop_reason_and_exits_0() {
    let path = temp_file("typo.json", TYPO);
    let path = path.to_str().unwrap();
    let output = agent_loop(&["validate", path]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        format!(
            "{path}: ok (Typo), with 2 notes\n\
             \x20 note: the script calls get_tiem, which no tool declares: the harness will answer it as an unknown tool\n\
             \x20 note: stop_reason \"finished\" is none of end_turn, stop, stop_sequence, completed, tool_use, tool_calls, function_call, tool_call, pause_turn, max_tokens, length, max_output_tokens, model_context_window_exceeded, refusal, content_filter: the run will end model_error\n"
        )
    );
}

#[test]
fn the_notes_say_what_the_run_then_does() {
    // The unknown tool gets an error result, and the run ends model_error.
    let path = temp_file("typo-run.json", TYPO);
    let output = agent_loop(&["run", path.to_str().unwrap(), "--jsonl"]);
    let events: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is JSON"))
        .collect();
    let result = events
        .iter()
        .find(|e| e["type"] == "tool_result")
        .expect("a tool result");
    assert_eq!(
        (&result["name"], &result["is_error"]),
        (&"get_tiem".into(), &true.into())
    );
    assert_eq!(events.last().unwrap()["status"], "model_error");
}

#[test]
fn a_scenario_without_notes_is_only_ok() {
    let output = agent_loop(&["validate", "get-time"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        "get-time: ok (What time is it? (seed 001))\n"
    );
}
