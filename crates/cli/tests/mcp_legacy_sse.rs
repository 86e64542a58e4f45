//! `agent-loop` against a server that speaks only the old HTTP+SSE
//! transport of MCP 2024-11-05 (GET `/sse` for a stream whose `endpoint`
//! event names where to POST): the reference time server (PyPI
//! `mcp-server-time`) behind supergateway (npm) with its default SSE
//! output, as many deployed bridges run. Our POST is refused there with
//! an HTML 404, so the client must fall back to the old transport, and say
//! so; where neither transport answers, the message says what was tried,
//! in words rather than the server's HTML.
//!
//! Both packages are installed by scripts/setup.sh. Without them the tests
//! say SKIPPED on stderr, or fail when `AGENT_LOOP_REQUIRE_MCP_PACKAGES` is
//! set (CI sets it), since a machine without them would otherwise pass
//! having checked nothing.

#[path = "process/mod.rs"]
mod process;

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use process::{agent_loop, stderr, stdout};
use serde_json::Value;

mod mcp_packages;
use mcp_packages::installed_all;

/// supergateway, stopped on drop, serving the time server over HTTP+SSE.
struct Gateway {
    child: Child,
    port: u16,
}

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The gateway on a free port, or `None` after saying SKIPPED when a
/// package is missing (a failure when the packages are required).
fn gateway() -> Option<Gateway> {
    let paths = installed_all(&[
        "node_modules/.bin/supergateway",
        ".venv-mcp/bin/mcp-server-time",
    ])?;
    let (supergateway, time_server) = (&paths[0], &paths[1]);
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    // Its defaults: SSE output, GET /sse and POST /message.
    let child = Command::new(supergateway)
        .args(["--stdio", time_server])
        .args(["--port", &port.to_string(), "--logLevel", "none"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {supergateway} ({e})"));
    let gateway = Gateway { child, port };
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "supergateway did not listen on port {port} within 30 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    Some(gateway)
}

#[test]
fn mcp_tools_and_call_reach_a_server_that_speaks_only_http_sse() {
    let Some(gateway) = gateway() else { return };
    let url = format!("http://127.0.0.1:{}/sse", gateway.port);
    let listed = agent_loop(&["mcp", "tools", &url]);
    assert!(listed.status.success(), "{}", stderr(&listed));
    let tools: Value = serde_json::from_slice(&listed.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(&listed)));
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.contains(&"get_current_time"), "{names:?}");
    assert!(
        stderr(&listed).contains(&format!("{url} (mcp-time ")),
        "{}",
        stderr(&listed)
    );
    assert!(
        stderr(&listed).contains("speaks 2024-11-05 over HTTP+SSE: 2 tools"),
        "{}",
        stderr(&listed)
    );

    let called = agent_loop(&[
        "mcp",
        "call",
        &url,
        "get_current_time",
        r#"{"timezone": "Europe/Paris"}"#,
    ]);
    assert_eq!(called.status.code(), Some(0), "{}", stderr(&called));
    assert!(
        stderr(&called).contains("speaks 2024-11-05 over HTTP+SSE: calling get_current_time"),
        "{}",
        stderr(&called)
    );
    let result: Value = serde_json::from_slice(&called.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(&called)));
    assert_eq!(result["timezone"], "Europe/Paris", "{result}");
    assert!(result["datetime"].as_str().is_some(), "{result}");
}

#[test]
fn when_neither_transport_answers_the_message_says_what_was_tried_in_words() {
    let Some(gateway) = gateway() else { return };
    let url = format!("http://127.0.0.1:{}/nothing", gateway.port);
    let listed = agent_loop(&["mcp", "tools", &url]);
    assert_eq!(listed.status.code(), Some(2), "{}", stderr(&listed));
    let message = stderr(&listed);
    assert!(
        message.contains(&format!(
            "POST {url} (Streamable HTTP) answered 404 (Cannot POST /nothing); GET {url} (the old HTTP+SSE transport) did not open an SSE stream (HTTP 404: Cannot GET /nothing)"
        )),
        "{message}"
    );
    assert!(!message.to_ascii_lowercase().contains("<html"), "{message}");
    assert!(!message.contains("<pre>"), "{message}");
}

#[test]
fn a_run_calls_the_tools_of_a_scenario_server_that_speaks_only_http_sse() {
    let Some(gateway) = gateway() else { return };
    let url = format!("http://127.0.0.1:{}/sse", gateway.port);
    let dir = std::env::temp_dir().join(format!("agent-loop-legacy-sse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scenario = dir.join("time.json");
    std::fs::write(
        &scenario,
        serde_json::json!({
            "name": "time over HTTP+SSE",
            "task": "What time is it in UTC?",
            "mcp_servers": [{"name": "time", "url": url}],
            "model": {"type": "scripted", "responses": [
                {"tool_calls": [{"name": "get_current_time", "args": {"timezone": "UTC"}}]},
                {"text": "Done."}
            ]}
        })
        .to_string(),
    )
    .unwrap();
    let output = agent_loop(&["run", &scenario.display().to_string()]);
    let shown = stdout(&output);
    assert!(output.status.success(), "{shown}\n{}", stderr(&output));
    assert!(shown.contains("→ get_current_time"), "{shown}");
    assert!(shown.contains("\"datetime\""), "{shown}");
    assert!(shown.contains("■ done"), "{shown}");
    assert!(
        stderr(&output).contains(&format!("MCP server \"time\" at {url} (mcp-time "))
            && stderr(&output).contains("speaks 2024-11-05 over HTTP+SSE: 2 tools"),
        "{}",
        stderr(&output)
    );
}
