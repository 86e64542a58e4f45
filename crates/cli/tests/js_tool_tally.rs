//! `agent-loop run` on a JavaScript tool: the command line has no sandbox
//! to run it in, so its tally says the call was not run, never that it ran.

mod process;
use process::{agent_loop, stderr, stdout};

#[test]
fn an_endless_javascript_tool_is_not_run_on_the_command_line() {
    let output = agent_loop(&["run", "js-tool-infinite-loop"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("tool calls: 1 requested (1 not run), 1 checked against max_tool_calls"),
        "{text}"
    );
    assert!(!text.contains("1 ran"), "{text}");
}
