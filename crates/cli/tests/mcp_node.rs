//! `agent-loop` against MCP servers no one here wrote: the official
//! reference server (`@modelcontextprotocol/server-everything`, 2025-11-25
//! with sessions and SSE) and a server made with the official TypeScript SDK
//! (`tests/mcp/sdk_server.mjs`: tools that ask for elicitation on the
//! call's stream or the session's standalone one, a slow tool that prints
//! the cancellations it receives). Each test starts its
//! server with node on a free port and stops it when done.
//!
//! These need node and `npm ci` (scripts/setup.sh runs it); without them
//! they fail and say so, rather than pass having tested nothing.

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A node server, stopped on drop; its stdout collected.
struct NodeServer {
    child: Child,
    url: String,
    out: Arc<Mutex<String>>,
}

impl Drop for NodeServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(script: &str, args: &[&str]) -> NodeServer {
    let root = repo_root();
    let path = root.join(script);
    let package = root.join("node_modules/@modelcontextprotocol");
    assert!(
        package.join("server-everything").is_dir() && package.join("sdk").is_dir(),
        "{} is missing: run `npm ci` in the repository root (scripts/setup.sh does) to install the MCP test servers",
        package.display()
    );
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = Command::new("node")
        .arg(&path)
        .args(args)
        .current_dir(&root)
        .env("PORT", port.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start node ({e}); these tests need Node.js 20 on PATH"));
    let out = Arc::new(Mutex::new(String::new()));
    let sink = out.clone();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let mut out = sink.lock().unwrap();
            out.push_str(&line);
            out.push('\n');
        }
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "{script} did not listen on port {port} within 30 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    NodeServer {
        child,
        url: format!("http://127.0.0.1:{port}/mcp"),
        out,
    }
}

fn everything() -> NodeServer {
    start(
        "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
        &["streamableHttp"],
    )
}

fn agent_loop(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .args(args)
        .output()
        .expect("agent-loop runs")
}

fn scenario_file(name: &str, scenario: &Value) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agent-loop-mcp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, scenario.to_string()).unwrap();
    path
}

/// The run's events, from `run --jsonl`.
fn events(output: &std::process::Output) -> Vec<Value> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not an event ({e}): {l}")))
        .collect()
}

fn results(events: &[Value]) -> Vec<(String, String, bool)> {
    events
        .iter()
        .filter(|e| e["type"] == "tool_result")
        .map(|e| {
            (
                e["name"].as_str().unwrap().to_string(),
                e["content"].as_str().unwrap().to_string(),
                e["is_error"] == true,
            )
        })
        .collect()
}

fn status(events: &[Value]) -> String {
    events.last().unwrap()["status"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn mcp_tools_prints_the_reference_servers_tools_as_scenario_json() {
    let server = everything();
    let output = agent_loop(&["mcp", "tools", &server.url]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("(mcp-servers/everything 2.0.0) speaks 2025-11-25: 13 tools"),
        "{stderr}"
    );
    let tools: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(tools.len(), 13);
    let echo = tools.iter().find(|t| t["name"] == "echo").unwrap();
    assert_eq!(echo["input_schema"]["required"], json!(["message"]));
    assert_eq!(echo["description"], "Echoes back the input string");
    let help = agent_loop(&["mcp", "tools", "--help"]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("Usage: agent-loop mcp tools"));
}

#[test]
fn a_scripted_run_calls_echo_and_get_sum_then_replays_without_the_server() {
    let server = everything();
    let scenario = scenario_file(
        "everything",
        &json!({
            "name": "everything", "task": "Echo and add.",
            "mcp_servers": [{"name": "everything", "url": server.url, "allowed_tools": ["echo", "get-sum", "get-tiny-image"]}],
            "approval": "approve_all",
            "model": {"type": "scripted", "responses": [
                {"tool_calls": [{"name": "echo", "args": {"message": "hello"}}, {"name": "get-sum", "args": {"a": 2, "b": 3}}]},
                {"tool_calls": [{"name": "get-tiny-image", "args": {}}]},
                {"text": "Echoed and added."}]}
        }),
    );
    let record = scenario.with_extension("jsonl");
    let output = agent_loop(&[
        "run",
        "--jsonl",
        "--record",
        record.to_str().unwrap(),
        scenario.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("MCP server \"everything\" at "), "{stderr}");
    assert!(stderr.contains("speaks 2025-11-25: 3 tools"), "{stderr}");
    let events = events(&output);
    assert_eq!(status(&events), "done");
    let results = results(&events);
    assert_eq!(results[0], ("echo".into(), "Echo: hello".into(), false));
    assert_eq!(
        results[1],
        ("get-sum".into(), "The sum of 2 and 3 is 5.".into(), false)
    );
    assert!(
        results[2].1.contains("[image: image/png, "),
        "{:?}",
        results[2]
    );
    drop(server);
    let replay = agent_loop(&["replay", record.to_str().unwrap()]);
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stdout)
    );
    // An edited scenario naming the same server replays against the record's
    // tools and results too, and a fork continues from them.
    let edited = agent_loop(&[
        "replay",
        record.to_str().unwrap(),
        "--scenario",
        scenario.to_str().unwrap(),
    ]);
    assert!(
        edited.status.success(),
        "{}",
        String::from_utf8_lossy(&edited.stdout)
    );
    let fork = agent_loop(&[
        "fork",
        record.to_str().unwrap(),
        "--at",
        "5",
        "--scenario",
        scenario.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&fork.stdout);
    assert!(
        fork.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&fork.stderr)
    );
    assert!(text.contains("The sum of 2 and 3 is 5."), "{text}");
}

/// The reference server's `get-tiny-image` answers with text, a PNG and
/// text. The image rides in the trace beside the text, comes back from the
/// record in a replay, and reaches the model as each provider takes it:
/// an `image` block (Anthropic), an `input_image` (Responses), and in Chat
/// Completions, whose tool messages hold only text, a line saying it was not sent.
#[test]
fn the_reference_servers_image_reaches_the_model_in_each_providers_format() {
    let server = everything();
    let scenario = scenario_file(
        "tiny-image",
        &json!({
            "name": "tiny image", "task": "Show the logo.",
            "mcp_servers": [{"name": "everything", "url": server.url, "allowed_tools": ["get-tiny-image"]}],
            "approval": "approve_all",
            "model": {"type": "scripted", "responses": [
                {"tool_calls": [{"name": "get-tiny-image", "args": {}}]},
                {"text": "That is the MCP logo."}]}
        }),
    );
    let record = scenario.with_extension("jsonl");
    let output = agent_loop(&[
        "run",
        "--jsonl",
        "--record",
        record.to_str().unwrap(),
        scenario.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let events = events(&output);
    let result = events.iter().find(|e| e["type"] == "tool_result").unwrap();
    assert_eq!(
        result["content"],
        "Here's the image you requested:\n[image: image/png, 4033 bytes]\nThe image above is the MCP logo."
    );
    let media = result["media"]
        .as_array()
        .expect("the image is in the trace");
    assert_eq!(media.len(), 1);
    assert_eq!(media[0]["type"], "image");
    assert_eq!(media[0]["mime_type"], "image/png");
    let png = media[0]["data"].as_str().unwrap();
    assert!(png.starts_with("iVBORw0KGgo"), "{png:.20}");

    let last_body = |provider: &str| -> Value {
        let wire = agent_loop(&["wire", "--provider", provider, scenario.to_str().unwrap()]);
        assert!(
            wire.status.success(),
            "{}",
            String::from_utf8_lossy(&wire.stderr)
        );
        let out: Value = serde_json::from_slice(&wire.stdout).unwrap();
        out["requests"].as_array().unwrap().last().unwrap()["body"].clone()
    };
    let anthropic = last_body("anthropic");
    let content = &anthropic["messages"][2]["content"][0]["content"];
    assert_eq!(content[0]["type"], "text");
    assert_eq!(
        content[1],
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png}})
    );
    let responses = last_body("openai-responses");
    let output = &responses["input"][2]["output"];
    assert_eq!(
        output[1],
        json!({"type": "input_image", "image_url": format!("data:image/png;base64,{png}")})
    );
    let chat = last_body("openai-chat");
    let text = chat["messages"][2]["content"].as_str().unwrap();
    assert!(
        text.ends_with("[not sent to the model: the image/png image, 4033 bytes; a Chat Completions tool message carries only text]"),
        "{text}"
    );

    // Without the server, the replay plays the image back from the record.
    drop(server);
    let replay = agent_loop(&["replay", record.to_str().unwrap()]);
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stdout)
    );
    let recorded = std::fs::read_to_string(&record).unwrap();
    assert!(recorded.contains(&format!("\"data\":\"{png}\"")));
}

#[test]
fn an_unreachable_server_is_a_problem_not_zero_tools() {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let scenario = scenario_file(
        "unreachable",
        &json!({
            "name": "u", "task": "t", "mcp_servers": [{"name": "gone", "url": format!("http://127.0.0.1:{port}/mcp")}],
            "model": {"type": "scripted", "responses": [{"text": "ok"}]}
        }),
    );
    let output = agent_loop(&["run", scenario.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("mcp_servers[0]: cannot load the tools of \"gone\""),
        "{stderr}"
    );
    assert!(stderr.contains("Connection refused"), "{stderr}");
}

#[test]
fn the_reference_servers_long_operation_is_cut_at_tool_timeout() {
    let server = everything();
    let scenario = scenario_file(
        "long",
        &json!({
            "name": "long", "task": "t", "limits": {"tool_timeout_ms": 400},
            "mcp_servers": [{"name": "everything", "url": server.url, "allowed_tools": ["trigger-long-running-operation"], "approval": false}],
            "model": {"type": "scripted", "responses": [
                {"tool_calls": [{"name": "trigger-long-running-operation", "args": {"duration": 20, "steps": 4}}]},
                {"text": "gave up"}]}
        }),
    );
    let started = Instant::now();
    let output = agent_loop(&["run", "--jsonl", scenario.to_str().unwrap()]);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the call ran on past its timeout"
    );
    let events = events(&output);
    assert_eq!(status(&events), "done");
    let results = results(&events);
    assert!(
        results[0].2 && results[0].1.contains("did not finish within 400 ms"),
        "{results:?}"
    );
}

#[test]
fn elicitation_is_declined_and_a_cancelled_call_is_announced_to_the_server() {
    let server = start("tests/mcp/sdk_server.mjs", &[]);
    let scenario = scenario_file(
        "sdk",
        &json!({
            "name": "sdk", "task": "t", "limits": {"tool_timeout_ms": 500}, "approval": "approve_all",
            "mcp_servers": [{"name": "sdk", "url": server.url}],
            "model": {"type": "scripted", "responses": [
                {"tool_calls": [{"name": "ask_user", "args": {"question": "Which one?"}}]},
                {"tool_calls": [{"name": "slow", "args": {}}]},
                {"text": "done"}]}
        }),
    );
    let started = Instant::now();
    let output = agent_loop(&["run", "--jsonl", scenario.to_str().unwrap()]);
    assert!(started.elapsed() < Duration::from_secs(8), "a call hung");
    let events = events(&output);
    assert_eq!(status(&events), "done");
    let results = results(&events);
    // Declined as the spec has a client decline: the server's tool goes on
    // and says what it got.
    assert_eq!(
        results[0],
        (
            "ask_user".into(),
            r#"answered: {"action":"decline"}"#.into(),
            false
        ),
        "{results:?}"
    );
    assert!(
        results[1].2 && results[1].1.contains("did not finish within 500 ms"),
        "{results:?}"
    );
    let deadline = Instant::now() + Duration::from_secs(5);
    while !server.out.lock().unwrap().contains("cancelled request") && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = server.out.lock().unwrap().clone();
    assert!(
        out.contains("cancelled request")
            && out.contains("the agent loop stopped waiting (tool timeout, deadline or Stop)"),
        "the server saw no notifications/cancelled: {out}"
    );
}

/// `agent-loop mcp call` with a bound: a call that hangs fails the test
/// instead of hanging it.
fn mcp_call_within(limit: Duration, args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .arg("mcp")
        .arg("call")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agent-loop runs");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let output = child.wait_with_output().unwrap();
            panic!(
                "mcp call still waiting after {limit:?}; stderr: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// The server asks for elicitation on the session's standalone GET stream,
/// not on the call's: `mcp call` listens there too, declines at once and
/// says so, and the tool's answer comes back.
#[test]
fn mcp_call_declines_an_elicitation_sent_on_the_standalone_stream_at_once() {
    let server = start("tests/mcp/sdk_server.mjs", &[]);
    let started = Instant::now();
    let output = mcp_call_within(
        Duration::from_secs(15),
        &[
            &server.url,
            "ask_user_standalone",
            r#"{"question": "Which one?"}"#,
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the decline was not at once: {:?}; {stderr}",
        started.elapsed()
    );
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        r#"answered: {"action":"decline"}"#
    );
    assert!(
        stderr.contains("note: the server asked for input from the user (elicitation/create) during the call; agent-loop has no one to ask, so it declined at once"),
        "{stderr}"
    );
}

/// On the call's own stream the same: declined at once, and said.
#[test]
fn mcp_call_says_it_declined_an_elicitation_on_the_calls_stream() {
    let server = start("tests/mcp/sdk_server.mjs", &[]);
    let output = mcp_call_within(
        Duration::from_secs(15),
        &[&server.url, "ask_user", r#"{"question": "Which one?"}"#],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        r#"answered: {"action":"decline"}"#
    );
    assert!(
        stderr.contains("(elicitation/create) during the call; agent-loop has no one to ask, so it declined at once"),
        "{stderr}"
    );
}
