//! `agent-loop replay` of a run a person stopped (Ctrl+C, the command
//! line's Stop) while the model was answering: the replay presses Stop at
//! the same point, ends `cancelled` with the recorded reason, and passes.

use std::process::{Command, Stdio};

mod process;
use process::{agent_loop, stderr, stdout};

#[cfg(unix)]
#[test]
fn a_run_stopped_with_ctrl_c_replays_cancelled_and_passes() {
    let record = std::env::temp_dir().join(format!(
        "agent-loop-replay-stopped-{}.jsonl",
        std::process::id()
    ));
    let child = Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .args(["run", "press-stop", "--record"])
        .arg(&record)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agent-loop runs");
    // Past the first turn (200 ms), into the model call that hangs for an hour.
    std::thread::sleep(std::time::Duration::from_millis(1_500));
    let pressed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(pressed.success());
    let run = child.wait_with_output().unwrap();
    assert_eq!(run.status.code(), Some(3), "{}", stderr(&run));

    let output = agent_loop(&["replay", record.to_str().unwrap()]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}{}", stderr(&output));
    assert!(
        text.starts_with(
            "✓ status: ended cancelled, as recorded: stopped by SIGINT (Ctrl+C) after 2 turns (while waiting for the model in turn 2)\n"
        ),
        "{text}"
    );
    let _ = std::fs::remove_file(record);
}
