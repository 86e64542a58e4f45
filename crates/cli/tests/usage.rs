//! The command line as a CLI user expects it: help for every command in
//! every spelling, `--version`, and usage mistakes told in one line with a
//! suggestion and the help to read, exit code 2.

mod process;
use process::{agent_loop, stderr, stdout};

/// Each command, and the arguments its help must explain.
const COMMANDS: &[(&str, &[&str])] = &[
    (
        "run",
        &[
            "<SCENARIO>",
            "--approve <all|none>",
            "--jsonl",
            "--record <OUT.jsonl>",
            "--provider <PROVIDER>",
            "--base-url <URL>",
            "--model <NAME>",
            "--no-stream",
        ],
    ),
    ("list", &[]),
    ("validate", &["<SCENARIO>"]),
    ("show", &["<RECORD.jsonl>"]),
    (
        "replay",
        &[
            "<RECORD.jsonl|FOLDER>...",
            "--scenario <SCENARIO>",
            "--assert <ASSERT.json>",
            "--jsonl",
        ],
    ),
    (
        "fork",
        &[
            "<RECORD.jsonl>",
            "--list",
            "--at <EVENT>",
            "--scenario <SCENARIO>",
            "--record <OUT.jsonl>",
        ],
    ),
    (
        "wire",
        &[
            "<SCENARIO>",
            "--provider <PROVIDER>",
            "--approve <all|none>",
        ],
    ),
    ("check", &["<SCENARIO>", "--approve <all|none>"]),
    (
        "serve",
        &[
            "[SCENARIO]",
            "--port <PORT>",
            "--pace-ms <MS>",
            "--mcp <FILE|BUILTIN>",
        ],
    ),
    ("mcp", &["tools"]),
    ("schema", &[]),
];

#[test]
fn every_command_has_help_in_every_spelling_and_it_names_the_arguments() {
    for (command, arguments) in COMMANDS {
        for args in [
            vec![*command, "--help"],
            vec![*command, "-h"],
            vec!["help", *command],
        ] {
            let output = agent_loop(&args);
            assert_eq!(
                output.status.code(),
                Some(0),
                "{args:?}: {}",
                stderr(&output)
            );
            let text = stdout(&output);
            assert!(
                text.contains(&format!("Usage: agent-loop {command}")),
                "{args:?}:\n{text}"
            );
            for argument in *arguments {
                assert!(
                    text.contains(argument),
                    "{args:?} does not mention {argument}:\n{text}"
                );
            }
        }
    }
}

#[test]
fn the_top_level_help_lists_every_command_and_the_exit_codes() {
    for args in [&["--help"][..], &["-h"], &["help"]] {
        let output = agent_loop(args);
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        let text = stdout(&output);
        for (command, _) in COMMANDS {
            assert!(
                text.lines()
                    .any(|line| line.trim_start().starts_with(&format!("{command} "))),
                "{args:?} does not list {command}:\n{text}"
            );
        }
        assert!(
            text.contains("Exit codes: 0 when a run ends `done`"),
            "{text}"
        );
    }
}

#[test]
fn run_help_says_what_happens_to_approvals_without_the_flag() {
    let text = stdout(&agent_loop(&["run", "--help"]));
    assert!(
        text.contains(
            "Approvals: without --approve, the scenario's own `approval` policy decides."
        ),
        "{text}"
    );
    assert!(
        text.contains("the first\ncall to a tool that needs approval ends the run `blocked`"),
        "{text}"
    );
}

#[test]
fn version_prints_the_name_and_version() {
    for flag in ["--version", "-V"] {
        let output = agent_loop(&[flag]);
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(
            stdout(&output),
            format!("agent-loop {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
}

/// A usage mistake: exit 2, nothing on stdout, and one line on stderr.
fn usage_mistake(args: &[&str]) -> String {
    let output = agent_loop(args);
    assert_eq!(
        output.status.code(),
        Some(2),
        "{args:?}: {}",
        stderr(&output)
    );
    assert_eq!(stdout(&output), "", "{args:?}");
    let err = stderr(&output);
    assert!(err.lines().count() <= 2, "{args:?} printed:\n{err}");
    err.trim_end().to_string()
}

#[test]
fn a_usage_mistake_is_one_line_with_what_is_wrong_and_where_help_is() {
    assert_eq!(
        usage_mistake(&["run", "get-time", "--aprove", "all"]),
        "agent-loop: unknown flag --aprove (did you mean `--approve`?); see `agent-loop run --help`"
    );
    assert_eq!(
        usage_mistake(&["run", "get-time", "--approve", "maybe"]),
        "agent-loop: --approve takes all or none, not `maybe`; see `agent-loop run --help`"
    );
    assert_eq!(
        usage_mistake(&["run"]),
        "agent-loop: missing SCENARIO (a scenario file, or the name of a built-in scenario; `agent-loop list` names them); see `agent-loop run --help`"
    );
    assert_eq!(
        usage_mistake(&["serve", "--port", "http", "get-time"]),
        "agent-loop: --port got `http`: expected a port number from 0 to 65535 (0 picks a free one); see `agent-loop serve --help`"
    );
    assert_eq!(
        usage_mistake(&["wire", "get-time"]),
        "agent-loop: missing --provider (the format to print the request bodies in); see `agent-loop wire --help`"
    );
    assert_eq!(
        usage_mistake(&["run", "get-time", "--model", "m"]),
        "agent-loop: --base-url, --model and --no-stream go with --provider; see `agent-loop run --help`"
    );
    assert_eq!(
        usage_mistake(&["fork", "run.jsonl", "--list", "--at", "3"]),
        "agent-loop: --list cannot be combined with --at; see `agent-loop fork --help`"
    );
    assert_eq!(
        usage_mistake(&[]),
        "agent-loop: expected a command: run, list, validate, show, replay, fork, wire, check, serve, mcp, schema, export, import or lesson; see `agent-loop --help`"
    );
    for args in [
        &["list", "extra"][..],
        &["schema", "--pretty"],
        &["replay"],
        &["show"],
        &["check", "get-time", "--jsonl"],
    ] {
        usage_mistake(args);
    }
}

#[test]
fn a_misspelt_command_or_scenario_suggests_the_nearest_one() {
    assert_eq!(
        usage_mistake(&["rnu", "get-time"]),
        "agent-loop: unknown command `rnu` (did you mean `run`?); see `agent-loop --help`"
    );
    assert_eq!(
        usage_mistake(&["replya", "run.jsonl"]),
        "agent-loop: unknown command `replya` (did you mean `replay`?); see `agent-loop --help`"
    );
    assert_eq!(
        usage_mistake(&["frobnicate"]),
        "agent-loop: unknown command `frobnicate`; see `agent-loop --help`"
    );
    assert_eq!(
        usage_mistake(&["run", "get-tiem"]),
        "agent-loop: get-tiem: no such file, and no built-in scenario has that name (did you mean `get-time`?); `agent-loop list` names them"
    );
    assert!(usage_mistake(&["validate", "refund-with-aproval"])
        .contains("(did you mean `refund-with-approval`?)"));
}

/// `mcp` has commands of its own: a misspelt one is suggested from them, and
/// a flag of `mcp tools` from that command's flags, with its own help.
#[test]
fn an_mcp_command_mistake_is_suggested_from_mcps_own_commands() {
    assert_eq!(
        usage_mistake(&["mcp", "tool", "http://127.0.0.1:3001/mcp"]),
        "agent-loop: unknown mcp command `tool` (did you mean `tools`?); see `agent-loop mcp --help`"
    );
    assert_eq!(
        usage_mistake(&["mcp", "cal", "http://127.0.0.1:3001/mcp", "add"]),
        "agent-loop: unknown mcp command `cal` (did you mean `call`?); see `agent-loop mcp --help`"
    );
    assert_eq!(
        usage_mistake(&["mcp"]),
        "agent-loop: mcp needs a command: tools, call or bridge; see `agent-loop mcp --help`"
    );
    assert_eq!(
        usage_mistake(&["mcp", "tools", "--hedaer", "A: b", "http://127.0.0.1:3001/mcp"]),
        "agent-loop: unknown flag --hedaer (did you mean `--header`?); see `agent-loop mcp tools --help`"
    );
}
