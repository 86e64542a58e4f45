//! `agent-loop mcp bridge` over a real stdio server (mcp-server-time, from
//! PyPI, in the project's `.venv-mcp`): reached by our own client with the
//! printed token, on 127.0.0.1 only; refused without the token (401), from
//! a foreign page (403); the page's preflight answered; the session carried
//! through; and the bridge ending when its server does.
//!
//! Without mcp-server-time these tests say SKIPPED on stderr, or fail when
//! `AGENT_LOOP_REQUIRE_MCP_PACKAGES` is set.

mod common;
mod mcp_packages;
mod process;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{mcp_send as send, start_listening};
use mcp_packages::installed;
use serde_json::{json, Value};

/// A running bridge: killed when dropped, its stderr collected.
struct Bridge {
    child: Child,
    url: String,
    port: u16,
    token: String,
    log: Arc<Mutex<String>>,
}

impl Drop for Bridge {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// mcp-server-time as setup installs it.
fn time_server() -> Option<String> {
    installed(".venv-mcp/bin/mcp-server-time")
}

/// Starts the bridge over `command` and reads the line with its URL and token.
fn bridge(command: &[&str], options: &[&str]) -> Bridge {
    let mut bridge = Command::new(env!("CARGO_BIN_EXE_agent-loop"));
    bridge
        .args(["mcp", "bridge", "--port", "0"])
        .args(options)
        .arg("--")
        .args(command);
    let (child, log, line) = start_listening(bridge);
    let (url, token) = line
        .trim()
        .strip_prefix("listening on ")
        .and_then(|rest| rest.split_once(" — token: "))
        .unwrap_or_else(|| {
            panic!(
                "expected the listening line, got {line:?}; stderr: {}",
                log.lock().unwrap()
            )
        });
    let port = url
        .strip_prefix("http://127.0.0.1:")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .unwrap_or_else(|| panic!("the URL is on 127.0.0.1 and ends in /mcp: {url}"))
        .parse()
        .unwrap();
    Bridge {
        url: url.to_string(),
        token: token.to_string(),
        port,
        child,
        log,
    }
}

fn initialize() -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}})
    .to_string()
}

/// An address of this machine other than loopback, if it has one.
fn outward_address() -> Option<std::net::IpAddr> {
    // Connecting a UDP socket sends nothing; it only picks the interface.
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

#[test]
fn our_client_lists_the_stdio_servers_tools_through_the_bridge_with_its_token() {
    let Some(server) = time_server() else { return };
    let bridge = bridge(&[&server], &[]);
    let authorization = format!("Authorization: Bearer {}", bridge.token);
    let out = process::agent_loop(&["mcp", "tools", &bridge.url, "--header", &authorization]);
    let stdout = process::stdout(&out);
    assert!(
        out.status.success(),
        "{}\nbridge: {}",
        process::stderr(&out),
        bridge.log.lock().unwrap()
    );
    let tools: Value = serde_json::from_str(&stdout).expect("JSON tools");
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.contains(&"get_current_time"), "{stdout}");

    let call = process::agent_loop(&[
        "mcp",
        "call",
        &bridge.url,
        "get_current_time",
        r#"{"timezone": "Etc/UTC"}"#,
        "--header",
        &authorization,
    ]);
    let answer = process::stdout(&call);
    assert!(call.status.success(), "{}", process::stderr(&call));
    assert!(answer.contains("\"datetime\""), "{answer}");
    assert!(answer.contains("Etc/UTC"), "{answer}");
}

#[test]
fn the_bridge_listens_on_loopback_only() {
    let Some(server) = time_server() else { return };
    let bridge = bridge(&[&server], &[]);
    assert!(TcpStream::connect(("127.0.0.1", bridge.port)).is_ok());
    if let Some(ip) = outward_address() {
        let reached = TcpStream::connect_timeout(
            &std::net::SocketAddr::new(ip, bridge.port),
            Duration::from_secs(2),
        );
        assert!(
            reached.is_err(),
            "the bridge answered on {ip}, not only on 127.0.0.1"
        );
    }
}

#[test]
fn a_request_without_the_token_gets_401_saying_where_the_token_is() {
    let Some(server) = time_server() else { return };
    let bridge = bridge(&[&server], &[]);
    for headers in [
        vec![("Content-Type", "application/json")],
        vec![("Authorization", "Bearer not-the-token")],
    ] {
        let reply = send(bridge.port, "POST", &headers, &initialize());
        assert_eq!(reply.status, 401, "{}", reply.body);
        assert!(
            reply
                .header("content-type")
                .unwrap_or_default()
                .starts_with("text/plain"),
            "a plain body: {:?}",
            reply.headers
        );
        assert!(
            reply.body.contains("Authorization: Bearer TOKEN")
                && reply.body.contains("agent-loop mcp bridge")
                && reply.body.contains("token:"),
            "says how and where: {}",
            reply.body
        );
        assert!(!reply.body.contains(&bridge.token), "{}", reply.body);
    }
    let out = process::agent_loop(&["mcp", "tools", &bridge.url]);
    assert_eq!(out.status.code(), Some(2));
    // Our client, refused, points at the header the bridge wants.
    let said = process::stderr(&out);
    assert!(said.contains("Authorization: Bearer"), "{said}");
}

#[test]
fn a_page_from_a_foreign_origin_gets_403_even_with_the_token() {
    let Some(server) = time_server() else { return };
    let bridge = bridge(&[&server], &[]);
    let authorization = format!("Bearer {}", bridge.token);
    let reply = send(
        bridge.port,
        "POST",
        &[
            ("Origin", "http://evil.example"),
            ("Authorization", &authorization),
        ],
        &initialize(),
    );
    assert_eq!(reply.status, 403, "{}", reply.body);
    assert!(reply.body.contains("http://evil.example"), "{}", reply.body);
    assert!(reply.body.contains("--allow-origin"), "{}", reply.body);
    assert_eq!(reply.header("access-control-allow-origin"), None);
    let preflight = send(
        bridge.port,
        "OPTIONS",
        &[
            ("Origin", "http://evil.example"),
            ("Access-Control-Request-Method", "POST"),
        ],
        "",
    );
    assert_eq!(preflight.status, 403);
}

#[test]
fn a_preflight_from_the_pages_origin_gets_the_headers_its_fetch_needs() {
    let Some(server) = time_server() else { return };
    let bridge = bridge(&[&server], &["--allow-origin", "http://127.0.0.1:5173"]);
    for origin in [
        "http://127.0.0.1:8080",
        "http://localhost:8080",
        "http://127.0.0.1:5173",
    ] {
        let reply = send(
            bridge.port,
            "OPTIONS",
            &[
                ("Origin", origin),
                ("Access-Control-Request-Method", "POST"),
                (
                    "Access-Control-Request-Headers",
                    "authorization, content-type, mcp-session-id",
                ),
            ],
            "",
        );
        assert_eq!(reply.status, 204, "{origin}: {}", reply.body);
        assert_eq!(reply.header("access-control-allow-origin"), Some(origin));
        let allowed = reply
            .header("access-control-allow-headers")
            .unwrap_or_default()
            .to_ascii_lowercase();
        for needed in [
            "authorization",
            "content-type",
            "mcp-session-id",
            "mcp-protocol-version",
            "last-event-id",
        ] {
            assert!(allowed.contains(needed), "{needed} in {allowed}");
        }
        assert!(reply
            .header("access-control-allow-methods")
            .unwrap_or_default()
            .contains("POST"));
        assert_eq!(
            reply.header("access-control-expose-headers"),
            Some("mcp-session-id")
        );
    }
}

#[test]
fn the_servers_one_session_is_handed_out_at_initialize_and_required_after() {
    let Some(server) = time_server() else { return };
    let bridge = bridge(&[&server], &[]);
    let authorization = format!("Bearer {}", bridge.token);
    let auth = ("Authorization", authorization.as_str());
    let accept = ("Accept", "application/json, text/event-stream");
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string();
    let early = send(bridge.port, "POST", &[auth, accept], &list);
    assert_eq!(early.status, 400, "before initialize: {}", early.body);

    let init = send(bridge.port, "POST", &[auth, accept], &initialize());
    assert_eq!(init.status, 200, "{}", init.body);
    assert!(init.body.contains("\"serverInfo\""), "{}", init.body);
    assert!(
        init.body.contains("\"id\":1"),
        "the client's id comes back: {}",
        init.body
    );
    let session = init
        .header("mcp-session-id")
        .expect("a session id")
        .to_string();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
    let sid = ("Mcp-Session-Id", session.as_str());
    assert_eq!(
        send(bridge.port, "POST", &[auth, sid], &initialized).status,
        202
    );

    let listed = send(bridge.port, "POST", &[auth, accept, sid], &list);
    assert_eq!(listed.status, 200, "{}", listed.body);
    assert_eq!(listed.header("content-type"), Some("text/event-stream"));
    assert!(listed.body.contains("get_current_time"), "{}", listed.body);
    assert!(listed.body.contains("\"id\":2"), "{}", listed.body);

    let json_only = send(
        bridge.port,
        "POST",
        &[auth, ("Accept", "application/json"), sid],
        &list,
    );
    assert_eq!(json_only.header("content-type"), Some("application/json"));
    let body: Value = serde_json::from_str(&json_only.body).unwrap();
    assert_eq!(body["id"], 2);

    assert_eq!(
        send(bridge.port, "POST", &[auth, accept], &list).status,
        400
    );
    let other = ("Mcp-Session-Id", "0123");
    assert_eq!(
        send(bridge.port, "POST", &[auth, accept, other], &list).status,
        404
    );
    assert_eq!(send(bridge.port, "GET", &[auth, sid], "").status, 405);
    assert_eq!(send(bridge.port, "DELETE", &[auth, sid], "").status, 200);
    // The ended session is not found, so a client knows to initialize again.
    let ended = send(bridge.port, "POST", &[auth, accept, sid], &list);
    assert_eq!(ended.status, 404, "{}", ended.body);
    assert_eq!(ended.json()["error"]["message"], "Session not found");
    // The same code as `serve --mcp` answers with.
    assert_eq!(ended.json()["error"]["code"], -32001);
    assert_eq!(
        send(bridge.port, "POST", &[auth, accept], &list).status,
        400
    );
}

#[test]
fn when_the_server_exits_the_bridge_exits_non_zero_naming_it_and_quoting_its_stderr() {
    let script = "sleep 1; echo time server cannot start >&2; exit 3";
    let mut bridge = bridge(&["sh", "-c", script], &[]);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = bridge.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the bridge is still running after its server exited"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    // The stderr thread may still be reading the last lines.
    std::thread::sleep(Duration::from_millis(200));
    let log = bridge.log.lock().unwrap().clone();
    assert_eq!(status.code(), Some(1), "{log}");
    assert!(log.contains(&format!("sh -c '{script}'")), "{log}");
    assert!(log.contains("time server cannot start"), "{log}");
    assert!(log.contains("status 3"), "{log}");
    assert!(!log.contains("before answering"), "{log}");
}

/// A stdio server that, asked to call a tool, first logs a message and asks
/// the client for its roots, then answers with how many it got.
const ASKING_SERVER: &str = r#"
import json, sys
def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
call = None
for line in sys.stdin:
    message = json.loads(line)
    method = message.get("method")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": message["id"], "result": {"protocolVersion": "2025-06-18",
              "capabilities": {"tools": {}}, "serverInfo": {"name": "asker", "version": "1"}}})
    elif method == "tools/call":
        call = message["id"]
        send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "working on it"}})
        send({"jsonrpc": "2.0", "id": "ask-1", "method": "roots/list"})
    elif method is None and message.get("id") == "ask-1":
        roots = len(message["result"]["roots"])
        send({"jsonrpc": "2.0", "id": call, "result": {"content": [{"type": "text", "text": "roots: %d" % roots}]}})
"#;

#[test]
fn the_servers_messages_during_a_call_ride_its_sse_stream_and_the_clients_answer_reaches_the_server(
) {
    let bridge = bridge(&["python3", "-c", ASKING_SERVER], &[]);
    let authorization = format!("Bearer {}", bridge.token);
    let auth = ("Authorization", authorization.as_str());
    let accept = ("Accept", "application/json, text/event-stream");
    let init = send(bridge.port, "POST", &[auth, accept], &initialize());
    assert_eq!(
        init.status,
        200,
        "{}\n{}",
        init.body,
        bridge.log.lock().unwrap()
    );
    let session = init.header("mcp-session-id").unwrap().to_string();
    let sid = ("Mcp-Session-Id", session.as_str());

    // The call's stream stays open while the server waits for the roots.
    let call = json!({"jsonrpc": "2.0", "id": "call-7", "method": "tools/call",
                      "params": {"name": "anything", "arguments": {}}})
    .to_string();
    let mut stream = TcpStream::connect(("127.0.0.1", bridge.port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\nAuthorization: {authorization}\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: {session}\r\nContent-Length: {}\r\n\r\n{call}",
        bridge.port,
        call.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("roots/list") {
        let n = stream
            .read(&mut buffer)
            .expect("the stream carries the server's request");
        assert!(
            n > 0,
            "the stream ended early: {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&buffer[..n]);
    }
    let so_far = String::from_utf8_lossy(&seen).to_string();
    assert!(so_far.contains("text/event-stream"), "{so_far}");
    assert!(
        so_far.contains("working on it"),
        "the log message rides the stream: {so_far}"
    );

    let answer =
        json!({"jsonrpc": "2.0", "id": "ask-1", "result": {"roots": [{"uri": "file:///tmp"}]}});
    let forwarded = send(bridge.port, "POST", &[auth, sid], &answer.to_string());
    assert_eq!(forwarded.status, 202, "{}", forwarded.body);

    stream.read_to_end(&mut seen).unwrap();
    let whole = String::from_utf8_lossy(&seen);
    assert!(
        whole.contains("roots: 1"),
        "the server got the roots and answered: {whole}"
    );
    assert!(
        whole.contains("\"id\":\"call-7\""),
        "the answer carries the client's id: {whole}"
    );
}

#[test]
fn ctrl_c_stops_the_bridge_and_its_server() {
    let Some(server) = time_server() else { return };
    let mut bridge = bridge(&[&server], &[]);
    let pid = bridge.child.id();
    let children =
        std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap_or_default();
    let server_pid = children.split_whitespace().next().map(str::to_string);
    let sent = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = bridge.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "Ctrl-C did not stop the bridge"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    std::thread::sleep(Duration::from_millis(200));
    let log = bridge.log.lock().unwrap().clone();
    assert_eq!(status.code(), Some(130), "{log}");
    assert!(log.contains("stopped (Ctrl-C)"), "{log}");
    if let Some(server_pid) = server_pid {
        // Gone, or a zombie no one has reaped yet: either way not running.
        let state = std::fs::read_to_string(format!("/proc/{server_pid}/stat")).unwrap_or_default();
        let running = state
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z'));
        assert!(
            !running,
            "the server (pid {server_pid}) still runs: {state}"
        );
    }
}
