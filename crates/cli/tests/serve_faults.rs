//! `agent-loop serve` when connections pile up: past its cap a client is
//! told to come back (503 with `Retry-After`), and when the process runs
//! out of file descriptors it pauses, logs once a second, and recovers.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{serve, temp_scenario};
use serde_json::{json, Value};

/// The connections `serve` serves at once.
const CAP: usize = 256;

struct Reply {
    status: u16,
    head: String,
    body: String,
}

fn chat(port: u16) -> Reply {
    let body = json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]}).to_string();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let request = format!(
        "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).expect("reads the reply");
    let (head, body) = raw.split_once("\r\n\r\n").expect("a header block");
    Reply {
        status: head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap(),
        head: head.to_ascii_lowercase(),
        body: body.to_string(),
    }
}

fn scenario() -> Value {
    json!({
        "name": "Answers",
        "task": "Say hello.",
        "model": {"type": "scripted", "responses": [{"text": "Hello."}], "loop_from": 0}
    })
}

/// Connections that send nothing: each holds a place on the server.
fn idle(port: u16, count: usize) -> Vec<TcpStream> {
    (0..count)
        .map(|_| TcpStream::connect(("127.0.0.1", port)).expect("connects"))
        .collect()
}

#[test]
fn past_the_connection_cap_a_client_is_told_to_retry() {
    let server = serve("cap", &scenario());
    let mut held = idle(server.port, CAP);
    // Connections are accepted in order: once a request is answered
    // (refused), every idle one before it holds its place.
    let refused = chat(server.port);
    assert_eq!(refused.status, 503, "{}", refused.body);
    assert!(
        refused.head.contains("\r\nretry-after: 1"),
        "{}",
        refused.head
    );
    let said: Value = serde_json::from_str(&refused.body).unwrap();
    assert_eq!(
        said["error"]["message"],
        "this server is serving 256 connections already; retry in 1 s"
    );

    held.truncate(CAP - 10);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let reply = chat(server.port);
        if reply.status == 200 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "still {}: {}",
            reply.status,
            reply.body
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn out_of_file_descriptors_it_pauses_logs_once_a_second_and_recovers() {
    let path = temp_scenario("fds", &scenario());
    // Few descriptors, so that idle connections use them all up.
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -n 48 && exec \"$0\" serve --port 0 {}",
            path.display()
        ))
        .arg(env!("CARGO_BIN_EXE_agent-loop"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh starts");
    let stderr = child.stderr.take().unwrap();
    let log = Arc::new(Mutex::new(String::new()));
    let sink = log.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            sink.lock().unwrap().push_str(&format!("{line}\n"));
        }
    });
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port: u16 = line
        .trim()
        .strip_prefix("listening on http://127.0.0.1:")
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"));

    let held = idle(port, 80);
    std::thread::sleep(Duration::from_millis(2500));
    let failures: Vec<String> = log
        .lock()
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("accept failed"))
        .map(str::to_string)
        .collect();
    drop(held);
    let recovered = (0..50).find_map(|_| {
        let reply = chat(port);
        (reply.status == 200).then_some(()).or_else(|| {
            std::thread::sleep(Duration::from_millis(100));
            None
        })
    });
    let _ = child.kill();
    let _ = child.wait();

    assert!(
        !failures.is_empty(),
        "no accept failed: {}",
        log.lock().unwrap()
    );
    assert!(
        failures.len() <= 4,
        "{} lines in 2.5 s, the first: {}",
        failures.len(),
        failures[0]
    );
    assert!(
        failures[0].starts_with("accept failed: too many open files; retrying in 10 ms"),
        "{}",
        failures[0]
    );
    assert!(recovered.is_some(), "no answer once the connections closed");
}

/// Sends `partial` and waits for the server's answer or close: what it
/// sent back, and after how long.
fn stalled(port: u16, partial: &str) -> (String, Duration) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let started = Instant::now();
    stream.write_all(partial.as_bytes()).unwrap();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    (
        String::from_utf8_lossy(&raw).into_owned(),
        started.elapsed(),
    )
}

#[test]
fn a_client_that_stops_sending_headers_is_let_go_after_10_s() {
    let server = serve("slow-headers", &scenario());
    let (reply, after) = stalled(
        server.port,
        &format!(
            "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n",
            server.port
        ),
    );
    assert!(
        after >= Duration::from_secs(9) && after < Duration::from_secs(20),
        "closed after {after:?}: {reply}"
    );
    assert_eq!(chat(server.port).status, 200, "the server goes on");
}

#[test]
fn a_body_that_stops_arriving_is_answered_408_after_10_s() {
    let server = serve("slow-body", &scenario());
    let (reply, after) = stalled(
        server.port,
        &format!(
            "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"model\": ",
            server.port
        ),
    );
    assert!(
        after >= Duration::from_secs(9) && after < Duration::from_secs(20),
        "answered after {after:?}: {reply}"
    );
    assert!(reply.starts_with("HTTP/1.1 408 "), "{reply}");
    assert!(
        reply.contains("the request body did not arrive within 10 s"),
        "{reply}"
    );
}
