//! `agent-loop serve --mcp` from both ends: raw HTTP requests checking what
//! each generation requires (the 2026-07-28 headers against the body, the
//! legacy session), the Host, Origin and CORS rules, JSON or SSE by Accept,
//! a stream closed early and resumed with GET; and our own client (`mcp
//! tools`, `mcp call`, `run`) against it, a slow call cancelled.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::{mcp_send as send, serve_with, temp_scenario, Reply};
use serde_json::{json, Value};

fn post(port: u16, headers: &[(&str, &str)], body: &Value) -> Reply {
    send(port, "POST", headers, &body.to_string())
}

const MODERN: &str = "2026-07-28";

fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}})
}

fn modern_call(port: u16, headers: &[(&str, &str)], name: &str, args: Value) -> Reply {
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": name, "arguments": args, "_meta": meta()}});
    post(port, headers, &body)
}

/// Each test its own file: tests run at once, and a file being rewritten
/// while another server reads it would not load.
fn shop(test: &str) -> common::Server {
    serving(&format!("shop-{test}"), "refund-with-approval")
}

/// `serve --mcp served`: the tools of scenario `served` over MCP.
fn serving(test: &str, served: &str) -> common::Server {
    serve_with(
        &format!("mcp-{test}"),
        &json!({"name": "x", "task": "x", "model": {"type": "rules"}}),
        &["--mcp", served],
    )
}

#[test]
fn the_2026_generation_checks_its_headers_against_the_body() {
    let server = shop("modern");
    let good = [
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", MODERN),
        ("mcp-method", "tools/call"),
        ("mcp-name", "get_order_status"),
    ];
    let reply = modern_call(
        server.port,
        &good,
        "get_order_status",
        json!({"order_id": "ord_f6g7h8i9j0"}),
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    // A call is streamed when SSE is accepted.
    assert_eq!(reply.header("content-type"), Some("text/event-stream"));
    let data = reply
        .body
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .find(|d| !d.is_empty())
        .expect("an SSE data line");
    let message: Value = serde_json::from_str(data).unwrap();
    assert_eq!(message["id"], 7);
    assert_eq!(message["result"]["resultType"], "complete");
    assert!(
        message["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("ord_f6g7h8i9j0"),
        "{message}"
    );

    let whole = modern_call(
        server.port,
        &[
            ("accept", "application/json"),
            ("mcp-protocol-version", MODERN),
            ("mcp-method", "tools/call"),
            ("mcp-name", "get_order_status"),
        ],
        "get_order_status",
        json!({"order_id": "ord_f6g7h8i9j0"}),
    );
    assert_eq!(whole.header("content-type"), Some("application/json"));
    assert_eq!(whole.json()["result"]["isError"], Value::Null);

    let wrong_name = modern_call(
        server.port,
        &[
            ("mcp-protocol-version", MODERN),
            ("mcp-method", "tools/call"),
            ("mcp-name", "issue_refund"),
        ],
        "get_order_status",
        json!({}),
    );
    assert_eq!(wrong_name.status, 400);
    assert_eq!(wrong_name.json()["error"]["code"], -32020);
    assert!(wrong_name.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("Mcp-Name"));

    let no_method = modern_call(
        server.port,
        &[
            ("mcp-protocol-version", MODERN),
            ("mcp-name", "get_order_status"),
        ],
        "get_order_status",
        json!({}),
    );
    assert_eq!(no_method.status, 400);
    assert_eq!(
        no_method.json()["error"]["message"],
        "Header mismatch: the Mcp-Method header is missing"
    );

    let old = post(
        server.port,
        &[
            ("mcp-protocol-version", "2024-01-01"),
            ("mcp-method", "tools/list"),
        ],
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
            "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2024-01-01", "io.modelcontextprotocol/clientCapabilities": {}}}}),
    );
    assert_eq!(old.status, 400);
    assert_eq!(old.json()["error"]["code"], -32022);
    assert_eq!(old.json()["error"]["data"]["supported"][0], MODERN);

    let listed = post(
        server.port,
        &[
            ("mcp-protocol-version", MODERN),
            ("mcp-method", "tools/list"),
        ],
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta()}}),
    );
    let tools = listed.json()["result"]["tools"].clone();
    assert_eq!(tools[0]["name"], "get_order_status");
    assert_eq!(
        tools[1]["annotations"]["destructiveHint"], true,
        "issue_refund needs approval"
    );
    assert_eq!(
        listed.header("mcp-session-id"),
        None,
        "2026-07-28 keeps no session"
    );
}

#[test]
fn the_legacy_generation_opens_a_session_and_requires_it() {
    let server = shop("legacy");
    let init = post(
        server.port,
        &[("accept", "application/json, text/event-stream")],
        &json!({"jsonrpc": "2.0", "id": 1,
        "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
    );
    assert_eq!(init.status, 200);
    assert_eq!(init.json()["result"]["protocolVersion"], "2025-11-25");
    let session = init
        .header("mcp-session-id")
        .expect("a session")
        .to_string();
    let with = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    assert_eq!(
        post(
            server.port,
            &with,
            &json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
        )
        .status,
        202
    );
    let listed = post(
        server.port,
        &with,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    );
    assert_eq!(
        listed.json()["result"]["tools"].as_array().unwrap().len(),
        2
    );
    let without = post(
        server.port,
        &[],
        &json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}),
    );
    assert_eq!(without.status, 400);
    let unknown = post(
        server.port,
        &[("mcp-session-id", "nope")],
        &json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list"}),
    );
    assert_eq!(unknown.status, 404);
    let cancelled = post(
        server.port,
        &with,
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 9, "reason": "test"}}),
    );
    assert_eq!(cancelled.status, 202);
    assert_eq!(send(server.port, "DELETE", &with, "").status, 200);
    assert_eq!(
        post(
            server.port,
            &with,
            &json!({"jsonrpc": "2.0", "id": 5, "method": "tools/list"})
        )
        .status,
        404
    );
    assert_eq!(send(server.port, "GET", &[], "").status, 405);
}

/// A legacy `initialize` at `version`: the session id it opens.
fn initialize(port: u16, version: &str) -> String {
    let init = post(
        port,
        &[("accept", "application/json, text/event-stream")],
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
    );
    assert_eq!(init.status, 200, "{}", init.body);
    init.header("mcp-session-id")
        .expect("a session")
        .to_string()
}

#[test]
fn an_unsupported_protocol_version_header_gets_400_naming_the_supported_ones() {
    let server = shop("version-header");
    let session = initialize(server.port, "2025-11-25");
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let refused = post(
        server.port,
        &[
            ("mcp-session-id", session.as_str()),
            ("mcp-protocol-version", "1999-01-01"),
        ],
        &list,
    );
    assert_eq!(refused.status, 400, "{}", refused.body);
    let error = &refused.json()["error"];
    assert_eq!(error["code"], -32022);
    assert_eq!(
        error["message"],
        "Bad Request: protocol version \"1999-01-01\" is not supported; this server supports 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26"
    );
    assert_eq!(
        error["data"],
        json!({"supported": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"], "requested": "1999-01-01"})
    );
    assert_eq!(refused.json()["id"], 2);
    // Every version the server speaks still works.
    for version in ["2025-11-25", "2025-06-18", "2025-03-26"] {
        let listed = post(
            server.port,
            &[
                ("mcp-session-id", session.as_str()),
                ("mcp-protocol-version", version),
            ],
            &list,
        );
        assert_eq!(listed.status, 200, "{version}: {}", listed.body);
        assert_eq!(
            listed.json()["result"]["tools"][0]["name"],
            "get_order_status"
        );
    }
    // Before a session too, and in the 2026 generation, whatever the body says.
    let early = post(
        server.port,
        &[("mcp-protocol-version", "1999-01-01")],
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
    );
    assert_eq!(early.status, 400);
    assert_eq!(early.header("mcp-session-id"), None);
    let modern = post(
        server.port,
        &[
            ("mcp-protocol-version", "1999-01-01"),
            ("mcp-method", "tools/list"),
        ],
        &json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": meta()}}),
    );
    assert_eq!(modern.status, 400);
    assert_eq!(modern.json()["error"]["code"], -32022);
}

#[test]
fn session_ids_are_128_random_bits_in_hex() {
    let server = shop("session-ids");
    let first = initialize(server.port, "2025-11-25");
    let second = initialize(server.port, "2025-11-25");
    assert_ne!(first, second);
    for id in [&first, &second] {
        assert_eq!(id.len(), 32, "{id}");
        assert!(
            id.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
            "{id}"
        );
        assert!(!id.contains(&server.pid().to_string()), "{id}");
        assert!(!id.contains("agent-loop"), "{id}");
    }
}

/// The SSE blocks of a raw body (a chunked body's size lines are not fields).
fn sse_events(body: &str) -> Vec<Vec<String>> {
    body.split("\n\n")
        .map(|block| {
            block
                .lines()
                .filter(|l| {
                    ["id:", "data:", "event:", "retry:"]
                        .iter()
                        .any(|f| l.starts_with(f))
                })
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|fields| !fields.is_empty())
        .collect()
}

#[test]
fn sse_answers_open_with_a_priming_event_and_a_retry() {
    let server = shop("sse-priming");
    let session = initialize(server.port, "2025-11-25");
    let call = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": {"name": "get_order_status", "arguments": {"order_id": "ord_f6g7h8i9j0"}}});
    let reply = post(
        server.port,
        &[
            ("accept", "application/json, text/event-stream"),
            ("mcp-session-id", session.as_str()),
            ("mcp-protocol-version", "2025-11-25"),
        ],
        &call,
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.header("content-type"), Some("text/event-stream"));
    let events = sse_events(&reply.body);
    assert_eq!(events.len(), 2, "{}", reply.body);
    let priming = &events[0];
    assert_eq!(priming.len(), 3, "{priming:?}");
    let priming_id = priming[0].strip_prefix("id: ").expect("an id first");
    assert!(!priming_id.is_empty());
    assert_eq!(priming[1], "retry: 1000");
    assert_eq!(priming[2].trim_end(), "data:");
    let message = &events[1];
    assert_eq!(message[0], "event: message");
    let message_id = message[1]
        .strip_prefix("id: ")
        .expect("the message has an id");
    assert_ne!(message_id, priming_id);
    let answer: Value = serde_json::from_str(message[2].strip_prefix("data: ").unwrap()).unwrap();
    assert_eq!(answer["id"], 4);
    assert!(answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("ord_f6g7h8i9j0"));
    // A 2025-06-18 client gets no priming event (it may not read empty data).
    let old = initialize(server.port, "2025-06-18");
    let reply = post(
        server.port,
        &[
            ("accept", "application/json, text/event-stream"),
            ("mcp-session-id", old.as_str()),
            ("mcp-protocol-version", "2025-06-18"),
        ],
        &call,
    );
    let events = sse_events(&reply.body);
    assert_eq!(events.len(), 1, "{}", reply.body);
    assert_eq!(events[0][0], "event: message");
}

/// The events of an SSE reply after the one `last` names, by `GET` with
/// `Last-Event-ID` in `session`.
fn resume_after(port: u16, session: &str, last: &str) -> Reply {
    send(
        port,
        "GET",
        &[
            ("accept", "text/event-stream"),
            ("mcp-session-id", session),
            ("last-event-id", last),
        ],
        "",
    )
}

#[test]
fn a_primed_stream_can_be_resumed_with_last_event_id_by_default() {
    let server = shop("sse-resume");
    let session = initialize(server.port, "2025-11-25");
    let other = initialize(server.port, "2025-11-25");
    let call = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": {"name": "get_order_status", "arguments": {"order_id": "ord_f6g7h8i9j0"}}});
    let reply = post(
        server.port,
        &[
            ("accept", "application/json, text/event-stream"),
            ("mcp-session-id", session.as_str()),
            ("mcp-protocol-version", "2025-11-25"),
        ],
        &call,
    );
    let events = sse_events(&reply.body);
    assert_eq!(events.len(), 2, "{}", reply.body);
    let priming_id = events[0][0]
        .strip_prefix("id: ")
        .expect("an id")
        .to_string();
    let message_id = events[1][1]
        .strip_prefix("id: ")
        .expect("an id")
        .to_string();
    // A client that lost the stream after the priming event gets the
    // message again, with its own id, as often as it asks while it is kept.
    for _ in 0..2 {
        let resumed = resume_after(server.port, &session, &priming_id);
        assert_eq!(resumed.status, 200, "{}", resumed.body);
        assert_eq!(resumed.header("content-type"), Some("text/event-stream"));
        let replayed = sse_events(&resumed.body);
        assert_eq!(replayed, vec![events[1].clone()], "{}", resumed.body);
    }
    // After the last event there is nothing more: the stream ends empty.
    let done = resume_after(server.port, &session, &message_id);
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(sse_events(&done.body).is_empty(), "{}", done.body);
    // Another session cannot read it, and an id of no stream is 404.
    let foreign = resume_after(server.port, &other, &priming_id);
    assert_eq!(foreign.status, 404, "{}", foreign.body);
    assert!(foreign.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("another session"));
    let unknown = resume_after(server.port, &session, "0123456789abcdef-0");
    assert_eq!(unknown.status, 404, "{}", unknown.body);
    assert!(unknown.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("kept 5 minutes"));
}

#[test]
fn foreign_origins_are_refused_and_the_playground_gets_cors() {
    let server = shop("origin");
    let foreign = post(
        server.port,
        &[("origin", "https://evil.example")],
        &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
    );
    assert_eq!(foreign.status, 403);
    assert!(foreign.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("evil.example"));
    let local = post(
        server.port,
        &[
            ("origin", "http://localhost:8080"),
            ("mcp-protocol-version", MODERN),
            ("mcp-method", "ping"),
        ],
        &json!({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"_meta": meta()}}),
    );
    assert_eq!(local.status, 200, "{}", local.body);
    assert_eq!(
        local.header("access-control-allow-origin"),
        Some("http://localhost:8080")
    );
    assert!(local
        .header("access-control-expose-headers")
        .unwrap()
        .contains("mcp-session-id"));
    let preflight = send(
        server.port,
        "OPTIONS",
        &[
            ("origin", "http://127.0.0.1:8080"),
            ("access-control-request-method", "POST"),
            (
                "access-control-request-headers",
                "mcp-method, mcp-name, mcp-protocol-version",
            ),
        ],
        "",
    );
    let allowed = preflight.header("access-control-allow-headers").unwrap();
    for name in [
        "mcp-method",
        "mcp-name",
        "mcp-protocol-version",
        "mcp-session-id",
    ] {
        assert!(allowed.contains(name), "{allowed}");
    }
}

#[test]
fn a_host_that_is_not_loopback_is_refused_as_dns_rebinding() {
    let server = shop("host");
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let port = server.port.to_string();
    // A page on evil.example.com whose name rebinds to 127.0.0.1: its
    // browser sends that Host, with or without a foreign Origin.
    for headers in [
        vec![("host", format!("evil.example.com:{port}"))],
        vec![
            ("host", format!("evil.example.com:{port}")),
            ("origin", format!("http://evil.example.com:{port}")),
        ],
        vec![("host", format!("127.0.0.1.evil.example.com:{port}"))],
    ] {
        let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
        let refused = post(server.port, &headers, &ping);
        assert_eq!(refused.status, 403, "{headers:?}: {}", refused.body);
        assert_eq!(refused.header("mcp-session-id"), None);
        assert!(
            refused.json()["error"]["message"]
                .as_str()
                .unwrap()
                .contains("evil.example.com"),
            "{}",
            refused.body
        );
    }
    for host in [
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
    ] {
        let origin = format!("http://{host}");
        let accepted = post(server.port, &[("host", &host), ("origin", &origin)], &ping);
        assert_eq!(accepted.status, 200, "{host}: {}", accepted.body);
    }
}

#[test]
fn with_close_streams_a_call_is_answered_on_get_with_last_event_id() {
    let server = serve_with(
        "mcp-close-streams",
        &json!({"name": "x", "task": "x", "model": {"type": "rules"}}),
        &["--mcp", "refund-with-approval", "--mcp-close-streams"],
    );
    let session = initialize(server.port, "2025-11-25");
    let other = initialize(server.port, "2025-11-25");
    let call = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": {"name": "get_order_status", "arguments": {"order_id": "ord_f6g7h8i9j0"}}});
    // The session settled 2025-11-25, so it is primed even when a request's
    // header names an older version (as the conformance suite's do).
    let closed = post(
        server.port,
        &[
            ("accept", "application/json, text/event-stream"),
            ("mcp-session-id", session.as_str()),
            ("mcp-protocol-version", "2025-03-26"),
        ],
        &call,
    );
    assert_eq!(closed.status, 200, "{}", closed.body);
    let events = sse_events(&closed.body);
    assert_eq!(events.len(), 1, "only the priming event: {}", closed.body);
    let last = events[0][0]
        .strip_prefix("id: ")
        .expect("an id")
        .to_string();
    assert_eq!(events[0][1], "retry: 1000");
    let resume = |session: &str| resume_after(server.port, session, &last);
    // Another session cannot take it.
    assert_eq!(resume(&other).status, 404);
    let resumed = resume(&session);
    assert_eq!(resumed.status, 200, "{}", resumed.body);
    assert_eq!(resumed.header("content-type"), Some("text/event-stream"));
    let events = sse_events(&resumed.body);
    assert_eq!(events.len(), 1, "{}", resumed.body);
    assert_eq!(events[0][0], "event: message");
    let answer: Value = serde_json::from_str(events[0][2].strip_prefix("data: ").unwrap()).unwrap();
    assert_eq!(answer["id"], 4);
    assert!(answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("ord_f6g7h8i9j0"));
    // Kept, so a client that lost the resumed stream too can ask again.
    let again = resume(&session);
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(sse_events(&again.body), events);
    // A GET without Last-Event-ID opens no standalone stream.
    let standalone = send(
        server.port,
        "GET",
        &[
            ("accept", "text/event-stream"),
            ("mcp-session-id", &session),
        ],
        "",
    );
    assert_eq!(standalone.status, 405);
    // A 2025-06-18 session is not primed, so its stream cannot be resumed
    // and is left whole.
    let old = initialize(server.port, "2025-06-18");
    let whole = post(
        server.port,
        &[
            ("accept", "application/json, text/event-stream"),
            ("mcp-session-id", old.as_str()),
            ("mcp-protocol-version", "2025-06-18"),
        ],
        &call,
    );
    let events = sse_events(&whole.body);
    assert_eq!(events.len(), 1, "{}", whole.body);
    assert_eq!(events[0][0], "event: message");
}

#[test]
fn mcp_call_prints_a_tools_result_and_says_how_it_ended() {
    let server = shop("mcp-call");
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let called = agent_loop(&[
        "mcp",
        "call",
        &url,
        "get_order_status",
        r#"{"order_id": "ord_f6g7h8i9j0"}"#,
    ]);
    let stderr = String::from_utf8_lossy(&called.stderr);
    assert!(called.status.success(), "{stderr}");
    assert!(
        stderr.contains("speaks 2026-07-28: calling get_order_status"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&called.stdout).contains("ord_f6g7h8i9j0"));
    // Arguments the schema refuses: an error result, exit 1.
    let refused = agent_loop(&[
        "mcp",
        "call",
        &url,
        "get_order_status",
        r#"{"order_id": 7}"#,
    ]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("answered with an error result"));
    assert!(
        String::from_utf8_lossy(&refused.stdout).contains("order_id"),
        "{}",
        String::from_utf8_lossy(&refused.stdout)
    );
    // A tool the server lacks: the server refuses the call, exit 2.
    let unknown = agent_loop(&["mcp", "call", &url, "no_such_tool"]);
    assert_eq!(unknown.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&unknown.stderr);
    assert!(
        stderr.contains("tools/call no_such_tool failed") && stderr.contains("no_such_tool"),
        "{stderr}"
    );
    // Arguments that are not a JSON object: a usage error, before any request.
    for bad in ["[1]", "{oops"] {
        let usage = agent_loop(&["mcp", "call", &url, "get_order_status", bad]);
        assert_eq!(usage.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&usage.stderr);
        assert!(
            stderr.contains("ARGUMENTS") && stderr.contains("agent-loop mcp call --help"),
            "{stderr}"
        );
    }
}

fn agent_loop(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .args(args)
        .output()
        .expect("agent-loop runs")
}

#[test]
fn our_client_speaks_2026_07_28_to_serve_and_a_run_calls_its_tools() {
    let server = shop("client");
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let listed = agent_loop(&["mcp", "tools", &url]);
    let stderr = String::from_utf8_lossy(&listed.stderr);
    assert!(listed.status.success(), "{stderr}");
    assert!(stderr.contains("speaks 2026-07-28: 2 tools"), "{stderr}");
    let tools: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(tools[1]["name"], "issue_refund");
    assert_eq!(tools[1]["needs_approval"], true);

    let scenario = temp_scenario(
        "mcp-client",
        &json!({"name": "client", "task": "Check ord_f6g7h8i9j0.",
        "mcp_servers": [{"name": "shop", "url": url, "headers": {"Authorization": "Bearer sk-never-logged"}}],
        "model": {"type": "scripted", "responses": [
            {"tool_calls": [{"name": "get_order_status", "args": {"order_id": "ord_f6g7h8i9j0"}}]},
            {"text": "checked"}]}}),
    );
    let record = std::env::temp_dir().join(format!("mcp-client-{}.jsonl", std::process::id()));
    let run = agent_loop(&[
        "run",
        "--jsonl",
        "--record",
        record.to_str().unwrap(),
        scenario.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let result = stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|e| e["type"] == "tool_result")
        .expect("a tool_result");
    assert_eq!(result["is_error"], false);
    assert!(
        result["content"]
            .as_str()
            .unwrap()
            .contains("ord_f6g7h8i9j0"),
        "{result}"
    );
    let written = std::fs::read_to_string(&record).unwrap();
    assert!(
        !written.contains("sk-never-logged"),
        "the record holds the header value"
    );
    assert!(
        written.contains("\"mcp_tools\""),
        "the record keeps the loaded tools"
    );
    assert!(!server.log.lock().unwrap().contains("sk-never-logged"));
}

#[test]
fn a_call_past_tool_timeout_is_cancelled_on_the_server() {
    let served = json!({"name": "slow", "task": "x", "model": {"type": "rules"},
        "tools": [{"name": "slow", "result": "late", "delay_ms": 10000}]});
    let server = serve_with(
        "mcp-slow",
        &served,
        &[
            "--mcp",
            temp_scenario("mcp-slow-tools", &served).to_str().unwrap(),
        ],
    );
    let scenario = temp_scenario(
        "mcp-slow-client",
        &json!({"name": "c", "task": "x", "limits": {"tool_timeout_ms": 300},
        "mcp_servers": [{"name": "s", "url": format!("http://127.0.0.1:{}/mcp", server.port)}],
        "model": {"type": "scripted", "responses": [{"tool_calls": [{"name": "slow", "args": {}}]}, {"text": "gave up"}]}}),
    );
    let started = Instant::now();
    let run = agent_loop(&["run", "--jsonl", scenario.to_str().unwrap()]);
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "the call was not cut at its timeout"
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.contains("did not finish within 300 ms"), "{stdout}");
    let deadline = Instant::now() + Duration::from_secs(5);
    while !server.log.lock().unwrap().contains("tools/call cancelled") && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        server
            .log
            .lock()
            .unwrap()
            .contains("tools/call cancelled: the client closed the connection"),
        "{}",
        server.log.lock().unwrap()
    );
}

#[test]
fn the_mcp_built_in_runs_against_the_server_its_lesson_names() {
    let builtin = harness::library::find("mcp-tools").expect("the built-in");
    let mut scenario: Value = serde_json::from_str(builtin.json()).unwrap();
    let lesson = scenario["description"].as_str().unwrap();
    assert!(
        lesson.contains("`agent-loop serve --mcp refund-with-approval`"),
        "{lesson}"
    );
    assert_eq!(
        scenario["mcp_servers"][0]["url"],
        "http://127.0.0.1:8787/mcp"
    );
    // The lesson's server, on a free port instead of 8787.
    let server = shop("builtin");
    scenario["mcp_servers"][0]["url"] = json!(format!("http://127.0.0.1:{}/mcp", server.port));
    let path = temp_scenario("mcp-builtin", &scenario);
    let run = agent_loop(&["run", "--jsonl", "--approve", "all", path.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let events: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let calls: Vec<(&str, bool)> = events
        .iter()
        .filter(|e| e["type"] == "tool_call")
        .map(|e| (e["name"].as_str().unwrap(), e["needs_approval"] == true))
        .collect();
    assert_eq!(calls, [("get_order_status", false), ("issue_refund", true)]);
    assert_eq!(events.last().unwrap()["status"], "done");

    let list = agent_loop(&["list"]);
    let text = String::from_utf8_lossy(&list.stdout);
    assert!(
        text.contains("mcp-tools")
            && text.contains("once `agent-loop serve --mcp refund-with-approval` is running"),
        "{text}"
    );
}

#[test]
fn replay_answers_mcp_tools_from_the_record_unless_told_to_call_the_servers_again() {
    let builtin = harness::library::find("mcp-tools").expect("the built-in");
    let mut scenario: Value = serde_json::from_str(builtin.json()).unwrap();
    // Approved by the scenario's policy, so the edited scenario below
    // decides the same way without a person's recorded decision.
    scenario["approval"] = json!("approve_all");
    let first = shop("replay-first");
    scenario["mcp_servers"][0]["url"] = json!(format!("http://127.0.0.1:{}/mcp", first.port));
    let path = temp_scenario("mcp-replay-first", &scenario);
    let record = path.with_extension("jsonl");
    let run = agent_loop(&[
        "run",
        "--record",
        record.to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    drop(first);
    let record = record.to_str().unwrap();
    // The server is gone: the default replay needs none.
    let offline = agent_loop(&["replay", record]);
    assert!(
        offline.status.success(),
        "{}{}",
        String::from_utf8_lossy(&offline.stdout),
        String::from_utf8_lossy(&offline.stderr)
    );
    // Asked to call it again, the replay reaches for it and says it is gone.
    let gone = agent_loop(&["replay", "--call-mcp-servers", record]);
    let said = String::from_utf8_lossy(&gone.stderr);
    assert_eq!(gone.status.code(), Some(2), "{said}");
    assert!(said.contains("cannot load the tools of \"shop\""), "{said}");
    // A fresh server, named by an edited scenario: the calls go to it, and pass.
    let second = shop("replay-second");
    scenario["mcp_servers"][0]["url"] = json!(format!("http://127.0.0.1:{}/mcp", second.port));
    let edited = temp_scenario("mcp-replay-second", &scenario);
    let live = agent_loop(&[
        "replay",
        "--call-mcp-servers",
        "--scenario",
        edited.to_str().unwrap(),
        record,
    ]);
    assert!(
        live.status.success(),
        "{}{}",
        String::from_utf8_lossy(&live.stdout),
        String::from_utf8_lossy(&live.stderr)
    );
    // A fork before the refund calls that server for it: the live replay
    // refunded the order there already, and the server says so (a record's
    // result would have been the refund).
    let list = agent_loop(&["fork", "--list", record]);
    let listed = String::from_utf8_lossy(&list.stdout);
    let at = listed
        .lines()
        .find(|l| l.contains("before tool call issue_refund"))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("no fork point before the refund: {listed}"));
    let fork = agent_loop(&[
        "fork",
        record,
        "--at",
        at,
        "--scenario",
        edited.to_str().unwrap(),
        "--call-mcp-servers",
    ]);
    let out = String::from_utf8_lossy(&fork.stdout);
    assert!(
        out.contains("already refunded; refusing to refund it twice"),
        "{out}{}",
        String::from_utf8_lossy(&fork.stderr)
    );
    assert!(
        String::from_utf8_lossy(&fork.stderr)
            .contains(&format!("at http://127.0.0.1:{}/mcp", second.port)),
        "the fork did not load the server's tools: {}",
        String::from_utf8_lossy(&fork.stderr)
    );
}

#[test]
fn the_rules_model_reads_an_mcp_tools_description_as_any_other() {
    // The schema-lab pair, served over MCP: the same tools, one parameter
    // description with an example id and one without.
    let run_against = |server: &common::Server, name: &str| -> String {
        let scenario = json!({
            "name": "rules over MCP", "task": "Please refund my order A1001, it arrived broken.",
            "mcp_servers": [{"name": "shop", "url": format!("http://127.0.0.1:{}/mcp", server.port)}],
            "approval": "approve_all",
            "model": {"type": "rules"}
        });
        let path = temp_scenario(name, &scenario);
        let run = agent_loop(&["run", "--jsonl", path.to_str().unwrap()]);
        let stdout = String::from_utf8_lossy(&run.stdout).to_string();
        stdout
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .find(|e| e["type"] == "tool_call" && e["name"] == "get_order")
            .map(|e| {
                e["args"]["order_id"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string()
            })
            .unwrap_or_else(|| panic!("no get_order call: {stdout}"))
    };
    let with = serving("described-with", "rules-with-example");
    let without = serving("described-without", "rules-without-example");
    assert_eq!(run_against(&with, "rules-mcp-with"), "A1001");
    assert_eq!(run_against(&without, "rules-mcp-without"), "ORD-1001");
}

/// The headers of a legacy session at `version`, opened with `initialize`.
fn legacy_session(port: u16, version: &'static str) -> [(&'static str, String); 2] {
    [
        ("mcp-session-id", initialize(port, version)),
        ("mcp-protocol-version", version.to_string()),
    ]
}

fn borrowed<'a>(headers: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    headers.iter().map(|(n, v)| (*n, v.as_str())).collect()
}

#[test]
fn an_unknown_method_in_a_live_session_is_method_not_found_not_session_gone() {
    let server = shop("unknown-method");
    let session = legacy_session(server.port, "2025-11-25");
    let with = borrowed(&session);
    let unknown = post(
        server.port,
        &with,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "resources/list"}),
    );
    // 404 would tell the client its session is gone: it would start over.
    assert_eq!(unknown.status, 200, "{}", unknown.body);
    assert_eq!(
        unknown.json(),
        json!({"jsonrpc": "2.0", "id": 2,
            "error": {"code": -32601, "message": "Method not found: resources/list"}})
    );
    let listed = post(
        server.port,
        &with,
        &json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}),
    );
    assert_eq!(listed.status, 200, "the session goes on: {}", listed.body);

    // The 2026 generation's transport asks for 404 with -32601 instead.
    let modern = post(
        server.port,
        &[
            ("mcp-protocol-version", MODERN),
            ("mcp-method", "resources/list"),
        ],
        &json!({"jsonrpc": "2.0", "id": 4, "method": "resources/list", "params": {"_meta": meta()}}),
    );
    assert_eq!(modern.status, 404, "{}", modern.body);
    assert_eq!(modern.json()["error"]["code"], -32601);
}

#[test]
fn a_request_with_a_null_id_is_answered_invalid_request() {
    let server = shop("null-id");
    let session = legacy_session(server.port, "2025-11-25");
    let reply = post(
        server.port,
        &borrowed(&session),
        &json!({"jsonrpc": "2.0", "id": null, "method": "tools/list"}),
    );
    assert_eq!(reply.status, 400, "{}", reply.body);
    let answer = reply.json();
    assert_eq!(answer["id"], Value::Null, "{answer}");
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    assert_eq!(
        answer["error"]["message"],
        "Invalid Request: an MCP request's id must be a string or a number, not null"
    );
}

#[test]
fn a_2025_03_26_session_takes_batches_and_later_versions_refuse_them() {
    let server = shop("batches");
    let session = legacy_session(server.port, "2025-03-26");
    let with = borrowed(&session);
    let reply = post(
        server.port,
        &with,
        &json!([
            {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": "two", "method": "ping"},
            {"jsonrpc": "2.0", "id": 3, "method": "resources/list"}
        ]),
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    let answers = reply.json();
    let answers = answers.as_array().expect("a batch of answers");
    let ids: Vec<&Value> = answers.iter().map(|a| &a["id"]).collect();
    assert_eq!(ids, [&json!(1), &json!("two"), &json!(3)]);
    assert_eq!(answers[0]["result"]["tools"].as_array().unwrap().len(), 2);
    assert_eq!(answers[1]["result"], json!({}));
    assert_eq!(answers[2]["error"]["code"], -32601);

    let only_notifications = post(
        server.port,
        &with,
        &json!([{"jsonrpc": "2.0", "method": "notifications/initialized"}]),
    );
    assert_eq!(
        only_notifications.status, 202,
        "{}",
        only_notifications.body
    );

    let later = legacy_session(server.port, "2025-06-18");
    let refused = post(
        server.port,
        &borrowed(&later),
        &json!([{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]),
    );
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert_eq!(refused.json()["error"]["code"], -32600);
    assert_eq!(
        refused.json()["error"]["message"],
        "Invalid Request: batches (JSON arrays) are accepted only in a 2025-03-26 session; this session speaks 2025-06-18, which removed them: send one message per request"
    );
}

#[test]
fn a_body_past_32_mib_is_answered_413_and_the_client_reads_it() {
    let server = shop("too-large");
    let body = format!("[\"{}\"]", "x".repeat(64 * 1024 * 1024));
    let reply = send(
        server.port,
        "POST",
        &[("content-type", "application/json")],
        &body,
    );
    assert_eq!(reply.status, 413, "{}", reply.body);
    assert_eq!(reply.json()["error"]["code"], -32000, "{}", reply.body);
}
