//! `agent-loop serve` under load: one large request does not hold up the
//! small ones that arrive while it is read and checked.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::serve;
use serde_json::{json, Value};

/// Sends one request and reads the whole reply; its status.
fn status_of(port: u16, path: &str, body: &str) -> u16 {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("reads the reply");
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
            json!({"role": role, "content": format!("message {i}: the weather in Lisbon is mild today, with some wind from the west and a few clouds by the sea.")})
        })
        .collect();
    json!({"model": "scripted-model", "messages": messages}).to_string()
}

#[test]
fn small_requests_are_answered_at_once_while_a_large_one_is_processed() {
    let server = serve("load", &scenario());
    let port = server.port;
    let small = chat_body(1);
    // A warm-up, so the first measured request does not pay for it.
    assert_eq!(status_of(port, "/v1/chat/completions", &small), 200);

    let large = chat_body(75_001);
    assert!(large.len() > 10_000_000, "{} bytes", large.len());
    let done = Arc::new(AtomicBool::new(false));
    let finished = done.clone();
    let big = std::thread::spawn(move || {
        let started = Instant::now();
        let status = status_of(port, "/v1/chat/completions", &large);
        finished.store(true, Ordering::SeqCst);
        (status, started.elapsed())
    });
    let mut waits: Vec<Duration> = Vec::new();
    while !done.load(Ordering::SeqCst) {
        let started = Instant::now();
        assert_eq!(status_of(port, "/v1/chat/completions", &small), 200);
        waits.push(started.elapsed());
        std::thread::sleep(Duration::from_millis(5));
    }
    let (status, took) = big.join().unwrap();
    assert_eq!(status, 200);
    waits.sort();
    let typical = waits[waits.len() / 2];
    let slowest = waits.last().copied().unwrap_or_default();
    println!(
        "large request: {took:?}; {} small ones meanwhile, typically {typical:?}, the slowest {slowest:?}",
        waits.len()
    );
    // Held behind the large one, only one or two would be sent in its time,
    // each waiting for all of it. The median, not the slowest: on a busy
    // machine the system may pause any one request for a while.
    assert!(
        waits.len() >= 10,
        "only {} small requests were answered during the large one ({took:?}): {waits:?}",
        waits.len()
    );
    assert!(
        typical < Duration::from_millis(50),
        "small requests took {typical:?} (median) while the large one ({took:?}) was processed"
    );
}
