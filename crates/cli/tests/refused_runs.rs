//! A scripted run whose history a provider would refuse still ends `done`
//! (no provider answered it): `agent-loop run` says so on its closing line,
//! from the protocol checker's verdict, and exits 3 unless told that such a
//! run is fine (`--allow-refused`). A result sent under an id the harness
//! made up is recorded under that id, the one that went on the wire.

use serde_json::Value;

mod process;
use process::{agent_loop, stderr, stdout};

/// The line that starts with the run's status mark.
fn closing_line(text: &str) -> String {
    text.lines()
        .find(|line| line.starts_with("■ "))
        .unwrap_or_else(|| panic!("no closing line in\n{text}"))
        .to_string()
}

#[test]
fn a_done_run_a_provider_would_refuse_says_so_and_exits_3() {
    let run = agent_loop(&["run", "protocol-duplicate-ids"]);
    assert_eq!(run.status.code(), Some(3), "{}", stderr(&run));
    let text = stdout(&run);
    assert_eq!(
        closing_line(&text),
        "■ done — but Anthropic Messages and OpenAI Chat Completions would refuse turn 2; \
         OpenAI Responses is reported to refuse turn 2"
    );
    assert!(
        text.contains("\n  reason: the model gave a final answer in turn 2\n"),
        "{text}"
    );
    let said = stderr(&run);
    assert!(
        said.contains("`agent-loop check protocol-duplicate-ids` says why"),
        "{said}"
    );
    assert!(said.contains("--allow-refused"), "{said}");

    let invented = agent_loop(&["run", "protocol-invented-result-ids"]);
    assert_eq!(invented.status.code(), Some(3), "{}", stderr(&invented));
    assert_eq!(
        closing_line(&stdout(&invented)),
        "■ done — but Anthropic Messages, OpenAI Chat Completions and OpenAI Responses would refuse turn 2"
    );
}

#[test]
fn allow_refused_lets_such_a_run_exit_0_and_still_says_it() {
    let run = agent_loop(&["run", "protocol-duplicate-ids", "--allow-refused"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(
        closing_line(&stdout(&run)).starts_with("■ done — but Anthropic Messages"),
        "{}",
        stdout(&run)
    );
    // A JSON Lines trace has no closing line; the exit code still tells.
    let jsonl = agent_loop(&["run", "protocol-duplicate-ids", "--jsonl"]);
    assert_eq!(jsonl.status.code(), Some(3), "{}", stderr(&jsonl));
    assert!(stdout(&jsonl).lines().all(|line| line.starts_with('{')));
}

#[test]
fn a_run_no_provider_would_refuse_ends_with_a_plain_done() {
    let run = agent_loop(&["run", "get-time"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert_eq!(
        closing_line(&stdout(&run)),
        "■ done — the model gave a final answer in turn 2 and the verifier accepted it"
    );
}

#[test]
fn run_help_describes_allow_refused() {
    let help = stdout(&agent_loop(&["run", "--help"]));
    assert!(help.contains("--allow-refused"), "{help}");
    assert!(
        help.contains("even though a provider would refuse one of its requests"),
        "{help}"
    );
}

#[test]
fn a_result_under_an_invented_id_is_recorded_under_the_id_sent() {
    let run = agent_loop(&["run", "protocol-invented-result-ids", "--jsonl"]);
    let events: Vec<Value> = stdout(&run)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let result = events
        .iter()
        .find(|e| e["type"] == "tool_result")
        .expect("a tool_result");
    let call = events.iter().find(|e| e["type"] == "tool_call").unwrap();
    assert_eq!(call["id"], "toolu_0001");
    assert_eq!(result["id"], "call_0");

    // The id the Anthropic request carried for that result.
    let wire = agent_loop(&[
        "wire",
        "--provider",
        "anthropic",
        "protocol-invented-result-ids",
    ]);
    let bodies: Value = serde_json::from_str(&stdout(&wire)).unwrap();
    let sent = bodies["requests"][1]["body"]["messages"][2]["content"][0]["tool_use_id"].clone();
    assert_eq!(result["id"], sent);

    // The readable trace names it on the result's line, as on the call's.
    let text = stdout(&agent_loop(&["run", "protocol-invented-result-ids"]));
    assert!(text.contains("⚙ get_time [toolu_0001] valid"), "{text}");
    assert!(text.contains("→ get_time [call_0] (0 ms): "), "{text}");
}

#[test]
fn show_reads_a_refused_run_back_with_the_same_closing_line() {
    let dir = std::env::temp_dir().join(format!("refused-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("run.jsonl");
    let path = record.to_str().unwrap();
    let run = agent_loop(&["run", "protocol-duplicate-ids", "--record", path]);
    assert_eq!(run.status.code(), Some(3), "{}", stderr(&run));
    let shown = agent_loop(&["show", path]);
    assert_eq!(shown.status.code(), Some(0), "{}", stderr(&shown));
    assert_eq!(closing_line(&stdout(&shown)), closing_line(&stdout(&run)));
    // A run no provider would refuse reads back as a plain done.
    let plain = agent_loop(&["run", "get-time", "--record", path]);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    let shown = agent_loop(&["show", path]);
    let line = closing_line(&stdout(&shown));
    assert_eq!(line, closing_line(&stdout(&plain)));
    assert!(!line.contains("would refuse"), "{line}");
    std::fs::remove_dir_all(&dir).ok();
}
