//! `agent-loop serve` under load: one large request does not hold up the
//! small ones that arrive while it is read and checked.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{exchange, serve, serve_with};
use serde_json::{json, Value};

/// Sends one POST with `headers` and reads the whole reply; its status.
fn status_with(port: u16, path: &str, headers: &[(&str, &str)], body: &str) -> u16 {
    let mut all = vec![("Content-Type", "application/json")];
    all.extend_from_slice(headers);
    let raw = exchange(port, "POST", path, &all, body, Duration::from_secs(120));
    let text = String::from_utf8_lossy(&raw);
    text.split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {text}"))
}

fn scenario() -> Value {
    json!({
        "name": "Answers",
        "task": "Say hello.",
        "model": {"type": "scripted", "responses": [{"text": "Hello."}], "loop_from": 0}
    })
}

/// A Chat Completions body of `count` alternating user and assistant turns.
fn chat_body(count: usize) -> String {
    let messages: Vec<Value> = (0..count)
        .map(|i| {
            let role = if i % 2 == 0 { "user" } else { "assistant" };
            json!({"role": role, "content": format!("message {i}: the weather in Lisbon is mild today, with some wind from the west, a few clouds by the sea and some rain later in the evening.")})
        })
        .collect();
    json!({"model": "scripted-model", "messages": messages}).to_string()
}

/// Sends `large` once and `small` again and again until the large one is
/// answered: both statuses must be 200; the small ones' waits, sorted, and
/// how long the large one took.
fn small_ones_during_a_large_one(
    port: u16,
    path: &'static str,
    headers: &'static [(&'static str, &'static str)],
    small: &str,
    large: String,
) -> (Vec<Duration>, Duration) {
    // A warm-up, so the first measured request does not pay for it.
    assert_eq!(status_with(port, path, headers, small), 200);
    let done = Arc::new(AtomicBool::new(false));
    let finished = done.clone();
    let big = std::thread::spawn(move || {
        let started = Instant::now();
        let status = status_with(port, path, headers, &large);
        finished.store(true, Ordering::SeqCst);
        (status, started.elapsed())
    });
    let mut waits: Vec<Duration> = Vec::new();
    while !done.load(Ordering::SeqCst) {
        let started = Instant::now();
        assert_eq!(status_with(port, path, headers, small), 200);
        waits.push(started.elapsed());
        std::thread::sleep(Duration::from_millis(5));
    }
    let (status, took) = big.join().unwrap();
    assert_eq!(status, 200);
    waits.sort();
    (waits, took)
}

/// Held behind the large one, only one or two would be sent in its time,
/// each waiting for all of it. The median, not the slowest: on a busy
/// machine the system may pause any one request for a while.
fn assert_answered_at_once(waits: &[Duration], took: Duration) {
    let typical = waits[waits.len() / 2];
    let slowest = waits.last().copied().unwrap_or_default();
    println!(
        "large request: {took:?}; {} small ones meanwhile, typically {typical:?}, the slowest {slowest:?}",
        waits.len()
    );
    assert!(
        waits.len() >= 5,
        "only {} small requests were answered during the large one ({took:?}): {waits:?}",
        waits.len()
    );
    assert!(
        typical < Duration::from_millis(50),
        "small requests took {typical:?} (median) while the large one ({took:?}) was processed"
    );
}

#[test]
fn small_requests_are_answered_at_once_while_a_large_one_is_processed() {
    let server = serve("load", &scenario());
    let large = chat_body(75_001);
    assert!(large.len() > 10_000_000, "{} bytes", large.len());
    let (waits, took) = small_ones_during_a_large_one(
        server.port,
        "/v1/chat/completions",
        &[],
        &chat_body(1),
        large,
    );
    assert_answered_at_once(&waits, took);
}

const MCP_PING: &[(&str, &str)] = &[
    ("mcp-protocol-version", "2026-07-28"),
    ("mcp-method", "ping"),
];

/// A 2026-07-28 `ping` whose params carry `padding`.
fn mcp_ping(padding: Value) -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}},
        "padding": padding}})
    .to_string()
}

#[test]
fn small_mcp_requests_are_answered_at_once_while_a_large_one_is_processed() {
    let server = serve_with("mcp-load", &scenario(), &["--mcp", "refund-with-approval"]);
    let padding: Vec<String> = (0..75_000)
        .map(|i| format!("message {i}: the weather in Lisbon is mild today, with some wind from the west, a few clouds by the sea and some rain later in the evening."))
        .collect();
    let large = mcp_ping(json!(padding));
    assert!(large.len() > 10_000_000, "{} bytes", large.len());
    let (waits, took) =
        small_ones_during_a_large_one(server.port, "/mcp", MCP_PING, &mcp_ping(json!(null)), large);
    assert_answered_at_once(&waits, took);
}
