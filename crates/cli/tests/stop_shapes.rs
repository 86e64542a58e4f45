//! The closing line of a trace is drawn in the page's shape for who ended
//! the run (`Outcome::tone`): ⊘ a limit the harness enforced, ■ the model's
//! own stop, ✗ a failure, ☝ a person.

mod process;
use process::{agent_loop, stderr, stdout};

/// The trace's `run_finished` line: the one that starts with a shape.
fn stop_line(text: &str) -> String {
    text.lines()
        .find(|line| line.contains(" — ") && !line.starts_with(' '))
        .unwrap_or_else(|| panic!("no stop line in {text}"))
        .to_string()
}

#[test]
fn each_stop_is_drawn_in_the_shape_of_who_ended_the_run() {
    let done = agent_loop(&["run", "get-time"]);
    assert!(
        stop_line(&stdout(&done)).starts_with("■ done — the model gave a final answer"),
        "{}",
        stdout(&done)
    );

    let refused = agent_loop(&["run", "refusal"]);
    assert!(stop_line(&stdout(&refused)).starts_with("■ refusal — "));

    let limit = agent_loop(&["run", "turn-limit"]);
    assert!(stop_line(&stdout(&limit)).starts_with("⊘ turn_limit — made 3 of max 3 model calls"));

    // `deny_all` is the harness's policy, not a person.
    let policy = agent_loop(&["run", "refund-with-approval", "--approve", "none"]);
    assert!(stop_line(&stdout(&policy)).starts_with("⊘ blocked — "));

    let failed = agent_loop(&["run", "model-error"]);
    assert!(
        stop_line(&stdout(&failed))
            .starts_with("✗ model_error — the model request for turn 1 failed"),
        "{}",
        stdout(&failed)
    );
}

/// A person's Stop, read back from a trace by `show`.
#[test]
fn a_run_a_person_stopped_is_drawn_with_a_raised_hand() {
    let run = agent_loop(&["run", "get-time", "--jsonl"]);
    let mut lines: Vec<serde_json::Value> = stdout(&run)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let last = lines.last_mut().unwrap();
    last["status"] = "cancelled".into();
    last["reason"] = "stopped by the user".into();
    last["cause"] = serde_json::json!({"kind": "cancelled", "turns": 1, "during": {"kind": "between_turns", "next_turn": 2}});
    let trace: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let path =
        std::env::temp_dir().join(format!("agent-loop-stopped-{}.jsonl", std::process::id()));
    std::fs::write(&path, trace).unwrap();
    let shown = agent_loop(&["show", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(shown.status.code(), Some(0), "{}", stderr(&shown));
    assert_eq!(
        stop_line(&stdout(&shown)),
        "☝ cancelled — stopped by the user"
    );
}
