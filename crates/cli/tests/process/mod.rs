//! Running the built `agent-loop` binary as a user would, and reading what
//! it printed. Shared by the test files that drive the command line.

use std::process::{Command, Output};

pub fn agent_loop(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .args(args)
        .output()
        .expect("agent-loop runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
