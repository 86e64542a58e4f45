//! Starting `agent-loop serve` for a test: on a port the system picks, its
//! log collected, killed when the guard drops (even when an assertion fails).

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

use serde_json::Value;

/// A running `agent-loop serve`, killed on drop.
pub struct Server {
    child: Child,
    pub port: u16,
    pub log: Arc<Mutex<String>>,
}

impl Server {
    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn temp_scenario(name: &str, scenario: &Value) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("agent-loop-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, scenario.to_string()).unwrap();
    path
}

/// Starts the server on a port the system picks and waits for its
/// `listening on` line.
pub fn serve(name: &str, scenario: &Value) -> Server {
    serve_with(name, scenario, &[])
}

pub fn serve_with(name: &str, scenario: &Value, options: &[&str]) -> Server {
    let path = temp_scenario(name, scenario);
    let mut command = Command::new(env!("CARGO_BIN_EXE_agent-loop"));
    command
        .args(["serve", "--port", "0"])
        .args(options)
        .arg(&path);
    let (child, log, line) = start_listening(command);
    let mut server = Server {
        child,
        port: 0,
        log,
    };
    let port = line
        .trim()
        .strip_prefix("listening on http://127.0.0.1:")
        .unwrap_or_else(|| {
            panic!(
                "expected the listening line, got {line:?}; stderr: {}",
                server.log.lock().unwrap()
            )
        });
    server.port = port.parse().expect("a port number");
    server
}

/// Starts a command that prints one line on stdout once it listens
/// (`agent-loop serve`, `agent-loop mcp bridge`): the child, its stderr as
/// it is collected, and that first line.
pub fn start_listening(mut command: Command) -> (Child, Arc<Mutex<String>>, String) {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agent-loop starts");
    let stdout = child.stdout.take().unwrap();
    let stderr = child.stderr.take().unwrap();
    let log = Arc::new(Mutex::new(String::new()));
    let sink = log.clone();
    // Drained on a thread so the child never blocks on a full pipe.
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let mut log = sink.lock().unwrap();
            log.push_str(&line);
            log.push('\n');
        }
    });
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    (child, log, line)
}

/// One HTTP/1.1 request on a fresh connection (`Connection: close`, so the
/// reply ends where the connection does), and the raw reply; the test
/// fails if no reply has come within `timeout`.
pub fn exchange(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
    timeout: std::time::Duration,
) -> Vec<u8> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connects");
    stream.set_read_timeout(Some(timeout)).unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    // A test may name its own Host (DNS rebinding); else the one a client sends.
    if !headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("host"))
    {
        head.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("reads the reply");
    raw
}

/// An MCP endpoint's answer as text: status, headers (names lower-cased)
/// and body as sent (not de-chunked).
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// One request to `/mcp` (of `serve --mcp` or `mcp bridge`), read as text.
pub fn mcp_send(port: u16, method: &str, headers: &[(&str, &str)], body: &str) -> Reply {
    let raw = exchange(
        port,
        method,
        "/mcp",
        headers,
        body,
        std::time::Duration::from_secs(20),
    );
    let (status, headers, body) = split_reply(&raw);
    Reply {
        status,
        headers,
        body: String::from_utf8(body).expect("the reply is text"),
    }
}

/// A raw HTTP/1.1 reply split into its status, its headers (names
/// lower-cased) and the bytes after the header block, as sent.
pub fn split_reply(raw: &[u8]) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header block");
    let head = String::from_utf8_lossy(&raw[..split]);
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status, headers, raw[split + 4..].to_vec())
}
