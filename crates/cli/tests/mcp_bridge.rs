//! `agent-loop mcp bridge` over a real stdio server (mcp-server-time, from
//! PyPI, in the project's `.venv-mcp`): reached by our own client with the
//! printed token, on 127.0.0.1 only; refused without the token (401), from
//! a foreign page (403); the page's preflight answered; the session carried
//! through; and the bridge ending when its server does.
//!
//! Without mcp-server-time these tests say so and pass, unless
//! AGENT_LOOP_REQUIRE_MCP_PACKAGES=1, where they fail.

mod process;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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

/// mcp-server-time as setup installs it; `None` (with a note) when it is
/// not there and the run does not require it.
fn time_server() -> Option<String> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.venv-mcp/bin/mcp-server-time");
    if path.is_file() {
        return Some(path.to_string_lossy().into_owned());
    }
    if std::env::var("AGENT_LOOP_REQUIRE_MCP_PACKAGES").as_deref() == Ok("1") {
        panic!(
            "mcp-server-time is not at {} (scripts/setup.sh installs it), and AGENT_LOOP_REQUIRE_MCP_PACKAGES=1",
            path.display()
        );
    }
    eprintln!("skipped: mcp-server-time is not installed (scripts/setup.sh installs it)");
    None
}

/// Starts the bridge over `command` and reads the line with its URL and token.
fn bridge(command: &[&str], options: &[&str]) -> Bridge {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .args(["mcp", "bridge", "--port", "0"])
        .args(options)
        .arg("--")
        .args(command)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agent-loop starts");
    let stdout = child.stdout.take().unwrap();
    let stderr = child.stderr.take().unwrap();
    let log = Arc::new(Mutex::new(String::new()));
    let sink = log.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let mut log = sink.lock().unwrap();
            log.push_str(&line);
            log.push('\n');
        }
    });
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
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

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn send(port: u16, method: &str, headers: &[(&str, &str)], body: &str) -> Reply {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut head = format!(
        "{method} /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).expect("reads the reply");
    let (head, body) = raw.split_once("\r\n\r\n").expect("a header block");
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Reply {
        status,
        headers,
        body: body.to_string(),
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
    assert!(
        process::stderr(&out).contains("401"),
        "{}",
        process::stderr(&out)
    );
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
    assert_eq!(
        send(bridge.port, "POST", &[auth, accept, sid], &list).status,
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
}
