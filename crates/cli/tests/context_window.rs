//! The context window at the command line: `run` prints each
//! strategy's edit, `list` shows the new built-ins with their ends, `wire`
//! prints the request as sent after the edit, and `check` shows the naive
//! window's HTTP 400.

mod process;
use process::{agent_loop, stderr, stdout};

#[test]
fn run_prints_the_strategys_edit_and_the_context_limit() {
    let output = agent_loop(&["run", "context-clear-tool-results"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("✂ context (clear_tool_results): cleared 2 tool results (get_checkout_log, get_inventory_log), 7,279 → 2,549 tokens; kept the newest 1 and get_policy"),
        "{}",
        stdout(&output)
    );
    let output = agent_loop(&["run", "context-limit"]);
    assert_eq!(output.status.code(), Some(3));
    assert!(stdout(&output).contains(
        "⊘ context_limit — the next request needs ≈7,279 input tokens + 1,024 output; the window is 8,000"
    ));
    let output = agent_loop(&["run", "context-exceeded-retry"]);
    assert!(stdout(&output).contains("■ context_limit — the provider stopped turn 3"));
}

#[test]
fn list_shows_the_context_window_pairs_with_their_ends() {
    let text = stdout(&agent_loop(&["list"]));
    for id in [
        "context-limit",
        "context-clear-tool-results",
        "context-drop-naive",
        "context-drop-pairs",
        "context-compact-lossy",
        "context-compact-keeps-id",
        "context-exceeded-retry",
        "context-exceeded-compact",
    ] {
        assert!(text.contains(id), "{id} listed:\n{text}");
    }
    assert!(text.contains("context_limit"));
}

#[test]
fn wire_prints_the_request_as_sent_after_the_edit() {
    let output = agent_loop(&[
        "wire",
        "--provider",
        "anthropic",
        "context-clear-tool-results",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let wire: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let requests = wire["requests"].as_array().unwrap();
    let last = &requests.last().unwrap()["body"]["messages"];
    let contents: Vec<String> = last
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
        .filter(|b| b["type"] == "tool_result")
        .map(|b| b["content"].to_string())
        .collect();
    let cleared = contents
        .iter()
        .filter(|c| c.contains("[tool result cleared to save context]"))
        .count();
    assert_eq!(cleared, 2, "{contents:?}");
}

#[test]
fn check_shows_the_naive_windows_400() {
    let output = agent_loop(&["check", "context-drop-naive"]);
    let text = format!("{}{}", stdout(&output), stderr(&output));
    assert!(
        text.contains("unexpected `tool_use_id` found in `tool_result` blocks: toolu_0002"),
        "{text}"
    );
}
