//! `agent-loop` against MCP servers spoken to over stdio: the reference
//! time server (PyPI `mcp-server-time`, 2026-07-28) and filesystem server
//! (npm `@modelcontextprotocol/server-filesystem`, 2025-11-25), started by
//! `mcp tools -- CMD`, `mcp call TOOL ARGS -- CMD` and a scenario's
//! `command`; and programs that are no MCP server at all (missing, exiting
//! at once, printing text), each named in a plain message.
//!
//! The reference servers are installed by scripts/setup.sh (into .venv-mcp
//! and node_modules). Without them the tests that need them say SKIPPED on
//! stderr, or fail when `AGENT_LOOP_REQUIRE_MCP_PACKAGES` is set (CI sets
//! it), since a machine without them would otherwise pass having checked
//! nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};

mod mcp_packages;
use mcp_packages::{installed, repo_root};

fn time_server() -> Option<String> {
    installed(".venv-mcp/bin/mcp-server-time")
}

fn filesystem_server() -> Option<String> {
    installed("node_modules/.bin/mcp-server-filesystem")
}

fn agent_loop(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .args(args)
        .output()
        .expect("agent-loop runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn listed_names(output: &Output) -> Vec<String> {
    let tools: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(output), stderr(output)));
    tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

/// A folder of this test's own, made empty.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agent-loop-stdio-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_scenario(dir: &Path, scenario: &Value) -> String {
    let path = dir.join("scenario.json");
    std::fs::write(&path, scenario.to_string()).unwrap();
    path.display().to_string()
}

/// A scenario that asks `server` (an `mcp_servers` entry) for the time in UTC.
fn time_scenario(server: Value) -> Value {
    json!({
        "name": "stdio time",
        "task": "What time is it in UTC?",
        "mcp_servers": [server],
        "model": {"type": "scripted", "responses": [
            {"tool_calls": [{"name": "get_current_time", "args": {"timezone": "UTC"}}]},
            {"text": "Done."}
        ]}
    })
}

#[test]
fn mcp_tools_after_a_double_dash_lists_the_time_server_s_tools() {
    let Some(server) = time_server() else { return };
    let output = agent_loop(&["mcp", "tools", "--", &server]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(listed_names(&output), ["get_current_time", "convert_time"]);
    let said = stderr(&output);
    assert!(
        said.contains(&format!("`{server}` (mcp-time "))
            && said.contains("speaks 2026-07-28: 2 tools"),
        "{said}"
    );
    assert!(
        said.contains(&format!("\"command\": [\"{server}\"]")),
        "the note shows the scenario entry to paste: {said}"
    );
}

#[test]
fn mcp_call_after_a_double_dash_gets_the_time_in_utc() {
    let Some(server) = time_server() else { return };
    let output = agent_loop(&[
        "mcp",
        "call",
        "get_current_time",
        r#"{"timezone": "UTC"}"#,
        "--",
        &server,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let result: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(result["timezone"], "UTC");
    let datetime = result["datetime"].as_str().unwrap();
    assert!(datetime.ends_with("+00:00"), "{datetime}");
}

#[test]
fn a_scenario_s_command_server_is_listed_and_called_in_a_run() {
    let Some(server) = time_server() else { return };
    let dir = temp_dir("run");
    let scenario = write_scenario(
        &dir,
        &time_scenario(json!({"name": "time", "command": [server]})),
    );
    let output = agent_loop(&["run", &scenario]);
    assert!(
        output.status.success(),
        "{}\n{}",
        stdout(&output),
        stderr(&output)
    );
    let shown = stdout(&output);
    assert!(shown.contains("→ get_current_time"), "{shown}");
    assert!(
        shown.contains("\"timezone\": \"UTC\"") && shown.contains("\"datetime\""),
        "{shown}"
    );
    assert!(shown.contains("■ done"), "{shown}");
    assert!(
        stderr(&output).contains("MCP server \"time\" at `"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn calls_made_at_once_each_get_their_own_answer() {
    let Some(server) = time_server() else { return };
    let dir = temp_dir("parallel");
    let mut scenario = time_scenario(json!({"name": "time", "command": [server]}));
    scenario["model"]["responses"][0] = json!({"tool_calls": [
        {"name": "get_current_time", "args": {"timezone": "Asia/Tokyo"}},
        {"name": "convert_time", "args": {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Europe/Paris"}},
        {"name": "get_current_time", "args": {"timezone": "UTC"}}
    ]});
    let output = agent_loop(&["run", &write_scenario(&dir, &scenario), "--jsonl"]);
    assert!(
        output.status.success(),
        "{}\n{}",
        stdout(&output),
        stderr(&output)
    );
    // Each result by its call's id, in the order the model made the calls.
    let events: Vec<Value> = stdout(&output)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .collect();
    let result_of = |id: &str| -> String {
        events
            .iter()
            .find(|e| e["type"] == "tool_result" && e["id"] == id)
            .and_then(|e| e["content"].as_str())
            .unwrap_or_else(|| panic!("no result for {id}: {}", stdout(&output)))
            .to_string()
    };
    let tokyo = result_of("toolu_0001");
    assert!(
        tokyo.contains("\"timezone\": \"Asia/Tokyo\"") && tokyo.contains("+09:00"),
        "{tokyo}"
    );
    let paris = result_of("toolu_0002");
    assert!(
        paris.contains("Europe/Paris") && paris.contains("time_difference"),
        "{paris}"
    );
    let utc = result_of("toolu_0003");
    assert!(
        utc.contains("\"timezone\": \"UTC\"") && utc.contains("+00:00"),
        "{utc}"
    );
}

/// A 2026-07-28 stdio server whose one tool never answers, and which
/// writes each `notifications/cancelled` it receives to the file named by
/// its first argument.
const NEVER_ANSWERS: &str = r#"
import json, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    message = json.loads(line)
    method, id = message.get("method"), message.get("id")
    if method == "notifications/cancelled":
        log.write(json.dumps(message["params"]) + "\n"); log.flush()
    if id is None:
        continue
    if method == "server/discover":
        result = {"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}}
    elif method == "tools/list":
        result = {"tools": [{"name": "wait_forever", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}}]}
    else:
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": id, "result": result}), flush=True)
"#;

#[test]
fn a_call_the_run_stops_waiting_for_is_cancelled_on_the_server() {
    let dir = temp_dir("cancel");
    std::fs::write(dir.join("server.py"), NEVER_ANSWERS).unwrap();
    let log = dir.join("cancelled.jsonl");
    let scenario = json!({
        "name": "stdio cancel",
        "task": "Wait.",
        "limits": {"tool_timeout_ms": 300},
        "mcp_servers": [{"name": "slow", "command": ["python3", "server.py", log.display().to_string()]}],
        "model": {"type": "scripted", "responses": [
            {"tool_calls": [{"name": "wait_forever", "args": {}}]},
            {"text": "Gave up."}
        ]}
    });
    let output = agent_loop(&["run", &write_scenario(&dir, &scenario), "--jsonl"]);
    let said = stdout(&output);
    assert!(
        said.contains("\"type\":\"tool_result\""),
        "{said}\n{}",
        stderr(&output)
    );
    let cancelled = std::fs::read_to_string(&log).unwrap_or_default();
    let notice: Value = serde_json::from_str(cancelled.lines().next().unwrap_or("null")).unwrap();
    assert!(
        notice["requestId"].is_u64(),
        "the server got no notifications/cancelled for the call: {cancelled:?}"
    );
}

#[test]
fn the_checked_in_stdio_scenario_runs_its_relative_command_from_its_own_folder() {
    if time_server().is_none() {
        return;
    }
    let scenario = repo_root().join("tests/mcp/stdio_time_scenario.json");
    // From another folder: the command is read against the file's.
    let output = Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .args(["run", &scenario.display().to_string()])
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}\n{}",
        stdout(&output),
        stderr(&output)
    );
    assert!(
        stdout(&output).contains("\"datetime\""),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_command_server_gets_its_env_and_no_trace_or_record_shows_it() {
    let Some(server) = time_server() else { return };
    let dir = temp_dir("env");
    // The server starts only when the secret (9 characters) reached its
    // environment; the command itself does not hold the value.
    let scenario = write_scenario(
        &dir,
        &time_scenario(json!({
            "name": "time",
            "command": ["sh", "-c", "test \"${#STDIO_TEST_TOKEN}\" = 9 && exec \"$0\"", server],
            "env": {"STDIO_TEST_TOKEN": "tok-8f3e1"}
        })),
    );
    let record = dir.join("run.record.json");
    let output = agent_loop(&[
        "run",
        &scenario,
        "--jsonl",
        "--record",
        &record.display().to_string(),
    ]);
    assert!(
        output.status.success(),
        "{}\n{}",
        stdout(&output),
        stderr(&output)
    );
    assert!(stdout(&output).contains("datetime"), "{}", stdout(&output));
    let written = std::fs::read_to_string(&record).unwrap();
    for (what, text) in [
        ("trace", stdout(&output)),
        ("log", stderr(&output)),
        ("record", written),
    ] {
        assert!(
            !text.contains("tok-8f3e1"),
            "the {what} shows the env value: {text}"
        );
    }
}

#[test]
fn mcp_tools_and_call_speak_to_the_filesystem_server() {
    let Some(server) = filesystem_server() else {
        return;
    };
    let dir = temp_dir("files");
    std::fs::write(dir.join("note.txt"), "written by the stdio test\n").unwrap();
    let dir = dir.canonicalize().unwrap().display().to_string();
    let output = agent_loop(&["mcp", "tools", "--", &server, &dir]);
    assert!(output.status.success(), "{}", stderr(&output));
    let names = listed_names(&output);
    assert!(names.iter().any(|n| n == "read_text_file"), "{names:?}");
    assert!(
        stderr(&output).contains("speaks 2025-11-25"),
        "{}",
        stderr(&output)
    );
    let arguments = json!({"path": format!("{dir}/note.txt")}).to_string();
    let output = agent_loop(&[
        "mcp",
        "call",
        "read_text_file",
        &arguments,
        "--",
        &server,
        &dir,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output).trim(), "written by the stdio test");
}

#[test]
fn a_program_that_is_not_installed_is_named_with_what_to_check() {
    let output = agent_loop(&["mcp", "tools", "--", "no-such-mcp-server-x7", "--flag"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output).trim(),
        "agent-loop: could not start `no-such-mcp-server-x7 --flag`: no such program (is it installed? is it on PATH, or is the path to it right?)"
    );
}

#[test]
fn a_program_that_exits_at_once_is_named_with_its_status_and_stderr() {
    let output = agent_loop(&["mcp", "tools", "--", "false"]);
    assert_eq!(output.status.code(), Some(2));
    let said = stderr(&output);
    assert!(
        said.contains("`false` exited with status 1 before"),
        "{said}"
    );
    assert!(said.contains("it wrote nothing on stderr"), "{said}");

    let output = agent_loop(&[
        "mcp",
        "call",
        "anything",
        "--",
        "sh",
        "-c",
        "echo 'no config file' >&2; exit 3",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let said = stderr(&output);
    assert!(
        said.contains(
            "`sh -c 'echo '\\''no config file'\\'' >&2; exit 3'` exited with status 3 before"
        ),
        "{said}"
    );
    assert!(said.contains("its stderr:\nno config file"), "{said}");
}

#[test]
fn a_program_that_prints_text_is_named_with_the_line() {
    let output = agent_loop(&["mcp", "tools", "--", "echo", "hello"]);
    assert_eq!(output.status.code(), Some(2));
    let said = stderr(&output);
    assert!(
        said.contains("`echo hello` wrote a line that is not JSON-RPC: hello"),
        "{said}"
    );
}

#[test]
fn a_run_whose_command_server_exits_reports_it_at_the_server_s_path() {
    let dir = temp_dir("exits");
    let scenario = write_scenario(
        &dir,
        &time_scenario(json!({"name": "time", "command": ["false"]})),
    );
    let output = agent_loop(&["run", &scenario]);
    assert_eq!(output.status.code(), Some(2));
    let said = stderr(&output);
    assert!(
        said.contains("mcp_servers[0]: `false` exited with status 1 before"),
        "{said}"
    );
    let scenario = write_scenario(
        &dir,
        &time_scenario(json!({"name": "time", "command": ["no-such-mcp-server-x7"]})),
    );
    let said = stderr(&agent_loop(&["run", &scenario]));
    assert!(
        said.contains(
            "mcp_servers[0].command: could not start `no-such-mcp-server-x7`: no such program"
        ),
        "{said}"
    );
}

#[test]
fn a_server_entry_needs_exactly_one_of_url_and_command() {
    let dir = temp_dir("validate");
    let neither = write_scenario(&dir, &time_scenario(json!({"name": "time"})));
    let output = agent_loop(&["validate", &neither]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("mcp_servers[0]: \"time\" says neither where the server is nor how to start it: give \"url\" (e.g. \"http://127.0.0.1:3001/mcp\") or \"command\" (e.g. [\"uvx\", \"mcp-server-time\"])"),
        "{}",
        stderr(&output)
    );
    let both = write_scenario(
        &dir,
        &time_scenario(
            json!({"name": "time", "url": "http://127.0.0.1:3001/mcp", "command": ["uvx", "mcp-server-time"]}),
        ),
    );
    let output = agent_loop(&["validate", &both]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("mcp_servers[0]: \"time\" gives both \"url\" and \"command\"; a server is either at a URL or started from a command: keep one"),
        "{}",
        stderr(&output)
    );
    let command = write_scenario(
        &dir,
        &time_scenario(
            json!({"name": "time", "command": ["uvx", "mcp-server-time"], "env": {"TZ": "UTC"}, "cwd": "."}),
        ),
    );
    let output = agent_loop(&["validate", &command]);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn the_url_forms_read_as_before() {
    // Nothing listens on port 9: the URL is taken as a URL, as it always was.
    let output = agent_loop(&["mcp", "call", "http://127.0.0.1:9/mcp", "add", "{}"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output)
            .starts_with("agent-loop: cannot reach the MCP server at http://127.0.0.1:9/mcp: "),
        "{}",
        stderr(&output)
    );
    let output = agent_loop(&["mcp", "tools", "http://127.0.0.1:9/mcp", "--", "false"]);
    assert_eq!(
        output.status.code(),
        Some(2),
        "a URL and a command at once is a usage error"
    );
}
