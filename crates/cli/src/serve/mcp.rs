//! `POST /mcp` on `agent-loop serve --mcp`: a scenario's tools over MCP's
//! Streamable HTTP, both generations (`harness::mcp::server` decides what
//! to answer; this puts it on HTTP).
//!
//! - DNS rebinding: the server binds 127.0.0.1, so a request whose `Host`
//!   is not a loopback name (`localhost`, `127.0.0.1`, `[::1]`, any port)
//!   came through a name that rebinds to this machine, and gets 403; so
//!   does one with an `Origin` of a page not on this machine (only
//!   `http://127.0.0.1:*`, `http://localhost:*` and `http://[::1]:*` pass).
//!   Requests without `Origin` (SDKs, curl) pass.
//! - JSON or SSE: a `tools/call` is answered as an SSE stream when the
//!   client accepts `text/event-stream` (a call may take long; closing the
//!   stream cancels it); everything else, and every answer to a client that
//!   accepts only JSON, is one JSON body. A stream to a client of
//!   2025-11-25 or later (by its header or by the version its session
//!   settled) opens with a priming event (an `id`, `retry` and empty
//!   `data`, the spec's "SSE polling"), and its message has an `id`.
//! - Resumption, as the priming event promises: a primed stream's events are
//!   kept (`serve/sse_replay.rs` says how long), and `GET` with
//!   `Last-Event-ID` replays those after the id, in the stream's session.
//!   A stream too large to keep is not primed.
//! - `--mcp-close-streams` (for testing clients' resumption): a primed
//!   stream, in a legacy session, carries the priming event only and is
//!   closed; the client gets the message by resuming.
//! - An `MCP-Protocol-Version` the server does not speak is refused with 400
//!   (`harness::mcp::server`); session ids are 128 random bits in hex.
//! - GET without `Last-Event-ID` is 405 (no standalone stream is offered:
//!   this server sends no requests or notifications of its own); DELETE
//!   ends a legacy session.

use std::cell::RefCell;

use bytes::Bytes;
use harness::mcp::jsonrpc;
use harness::mcp::server::{self, McpServerCore};
use hyper::body::Incoming;
use hyper::{Method, Request, StatusCode};
use serde_json::{json, Value};

use super::body;
use super::sse_replay::{self, Refusal, Replay};
use super::{allowed_origin, Answer};

/// `/mcp`: the tools' server, and the events of its SSE streams, kept for
/// clients that resume them.
pub struct McpEndpoint {
    core: McpServerCore,
    close_streams: bool,
    replay: RefCell<Replay>,
}

impl McpEndpoint {
    pub fn new(core: McpServerCore, close_streams: bool) -> Self {
        McpEndpoint {
            core,
            close_streams,
            replay: RefCell::new(Replay::default()),
        }
    }

    pub fn tool_names(&self) -> Vec<String> {
        self.core.tool_names()
    }
}

pub async fn answer(
    endpoint: Option<&McpEndpoint>,
    method: &Method,
    request: Request<Incoming>,
) -> Answer {
    let Some(endpoint) = endpoint else {
        return Answer::json(
            StatusCode::NOT_FOUND,
            &jsonrpc::error(
                &Value::Null,
                -32000,
                "this server serves no MCP tools; start it with --mcp SCENARIO",
                None,
            ),
            "no --mcp",
        );
    };
    let core = &endpoint.core;
    if let Some(host) = request
        .headers()
        .get(hyper::header::HOST)
        .and_then(|h| h.to_str().ok())
    {
        if !loopback_host(host) {
            return Answer::json(
                StatusCode::FORBIDDEN,
                &jsonrpc::error(
                    &Value::Null,
                    -32000,
                    &format!("Forbidden: Host {host} is not this machine's loopback name (a DNS rebinding?); use http://127.0.0.1:PORT/mcp"),
                    None,
                ),
                "foreign Host refused",
            );
        }
    }
    let origin = request
        .headers()
        .get(hyper::header::ORIGIN)
        .and_then(|o| o.to_str().ok())
        .map(str::to_string);
    if let Some(origin) = &origin {
        if allowed_origin(Some(origin)) != origin {
            return Answer::json(
                StatusCode::FORBIDDEN,
                &jsonrpc::error(
                    &Value::Null,
                    -32000,
                    &format!("Forbidden: origin {origin} is not on this machine"),
                    None,
                ),
                "foreign origin refused",
            );
        }
    }
    let header = |name: &str| {
        request
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    match *method {
        Method::POST => {}
        Method::DELETE => {
            let ended = header("mcp-session-id").is_some_and(|s| core.end_session(&s));
            return if ended {
                Answer::json(StatusCode::OK, &json!({}), "session ended")
            } else {
                Answer::json(
                    StatusCode::NOT_FOUND,
                    &jsonrpc::error(&Value::Null, -32001, "Session not found", None),
                    "DELETE of an unknown session",
                )
            };
        }
        Method::GET => {
            if let Some(last) = header("last-event-id") {
                return resume(endpoint, &last, header("mcp-session-id"));
            }
            let mut answer = Answer::json(
                StatusCode::METHOD_NOT_ALLOWED,
                &jsonrpc::error(
                    &Value::Null,
                    -32000,
                    "GET without Last-Event-ID: this server offers no standalone SSE stream (it sends no requests or notifications of its own)",
                    None,
                ),
                "no standalone stream",
            );
            answer
                .headers
                .push(("allow", "GET, POST, DELETE, OPTIONS".into()));
            return answer;
        }
        _ => {
            let mut answer = Answer::json(
                StatusCode::METHOD_NOT_ALLOWED,
                &jsonrpc::error(
                    &Value::Null,
                    -32000,
                    &format!("{method} is not supported on /mcp: POST a JSON-RPC message"),
                    None,
                ),
                "wrong method",
            );
            answer
                .headers
                .push(("allow", "GET, POST, DELETE, OPTIONS".into()));
            return answer;
        }
    }
    let accepts_sse = header("accept").is_some_and(|a| a.contains("text/event-stream"));
    // Clients before 2025-11-25 may not read an event with empty data (the
    // spec added priming events then): only newer ones get one. A client
    // whose session settled 2025-11-25 reads them whatever a later header
    // says (the conformance suite's raw requests name 2025-03-26). Dates in
    // ISO form compare as strings.
    let session = header("mcp-session-id");
    let primes = header("mcp-protocol-version")
        .into_iter()
        .chain(session.as_deref().and_then(|s| core.session_version(s)))
        .any(|v| v.as_str() >= "2025-11-25");
    let headers: Vec<(String, String)> = request
        .headers()
        .iter()
        .filter_map(|(n, v)| Some((n.as_str().to_string(), v.to_str().ok()?.to_string())))
        .collect();
    let body = match body::read(request.into_body()).await {
        Ok(bytes) => bytes,
        Err(error) => {
            let (status, message) = error.refusal();
            return Answer::json(
                status,
                &jsonrpc::error(&Value::Null, -32000, &message, None),
                "body unreadable",
            );
        }
    };
    // Parsed on a worker thread: a body of megabytes would otherwise hold
    // up every other connection, which this thread also serves.
    let parsed = match tokio::task::spawn_blocking(move || server::parse(&body)).await {
        Ok(parsed) => parsed,
        Err(_) => {
            return Answer::json(
                StatusCode::INTERNAL_SERVER_ERROR,
                &jsonrpc::error(&Value::Null, -32603, "the body could not be read", None),
                "body unreadable",
            )
        }
    };
    let is_call = parsed
        .as_ref()
        .is_ok_and(|m| m.get("method") == Some(&json!("tools/call")));
    let lookup = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    // Dropped with the connection when the client goes away mid-call: the
    // call is cancelled, and the log says so.
    let mut watch = CancelLog { armed: is_call };
    let reply = match parsed {
        Ok(message) => {
            let reply = core.handle_parsed(&lookup, &message).await;
            // Freeing it can take a while too.
            tokio::task::spawn_blocking(move || drop(message));
            reply
        }
        Err(refusal) => *refusal,
    };
    watch.armed = false;
    let status = StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut answer = match reply.body {
        None => Answer {
            status,
            content_type: "text/plain",
            body: Bytes::new(),
            events: Vec::new(),
            headers: Vec::new(),
            note: reply.note,
        },
        Some(message) if is_call && accepts_sse && reply.status == 200 => {
            let stream = random_id();
            let mut note = format!("{} (SSE)", reply.note);
            let priming = format!("id: {stream}-0\nretry: {SSE_RETRY_MS}\ndata: \n\n");
            let message = message_event(&stream, &message);
            // The priming event promises resumption: only a stream whose
            // events are kept gets one.
            let primes = primes && Replay::fits(priming.len() + message.len());
            let events = if primes {
                endpoint.replay.borrow_mut().keep(
                    stream,
                    session.clone(),
                    vec![priming.clone(), message.clone()],
                );
                // Only in a legacy session: the 2026-07-28 generation has
                // no sessions to resume in.
                if endpoint.close_streams && session.is_some() {
                    note.push_str(", closed after its priming event: the answer waits for GET");
                    vec![priming]
                } else {
                    vec![priming, message]
                }
            } else {
                vec![message]
            };
            Answer {
                status,
                content_type: "text/event-stream",
                body: Bytes::from(events.concat()),
                events,
                headers: vec![
                    ("cache-control", "no-cache".into()),
                    ("x-accel-buffering", "no".into()),
                ],
                note,
            }
        }
        Some(message) => Answer::json(status, &message, reply.note),
    };
    answer.headers.extend(reply.headers);
    answer
}

/// GET with `Last-Event-ID`: the events of the stream the id names that
/// came after it, as an SSE stream that then ends (as the stream did); 404
/// when the stream is not kept (never ours, or forgotten) or is another
/// session's.
fn resume(endpoint: &McpEndpoint, last_event_id: &str, session: Option<String>) -> Answer {
    let kept_for = sse_replay::KEEP_FOR.as_secs() / 60;
    let events = match endpoint
        .replay
        .borrow_mut()
        .after(last_event_id, session.as_deref())
    {
        Ok(events) => events,
        Err(refusal) => {
            let why = match refusal {
                Refusal::Unknown => format!("it is not an event of a stream this server keeps (streams are kept {kept_for} minutes, fewer when many are open)"),
                Refusal::OtherSession => "its stream belongs to another session".to_string(),
            };
            return Answer::json(
                StatusCode::NOT_FOUND,
                &jsonrpc::error(
                    &Value::Null,
                    -32000,
                    &format!("no stream to resume after event {last_event_id:?}: {why}"),
                    None,
                ),
                "GET: nothing to resume",
            );
        }
    };
    let note = format!(
        "GET with Last-Event-ID: {} event{} replayed",
        events.len(),
        if events.len() == 1 { "" } else { "s" }
    );
    Answer {
        status: StatusCode::OK,
        content_type: "text/event-stream",
        body: Bytes::from(events.concat()),
        events,
        headers: vec![
            ("cache-control", "no-cache".into()),
            ("x-accel-buffering", "no".into()),
        ],
        note,
    }
}

fn message_event(stream: &str, message: &Value) -> String {
    format!("event: message\nid: {stream}-1\ndata: {message}\n\n")
}

/// Whether a `Host` header names this machine's loopback interface:
/// `localhost`, `127.0.0.1` or `[::1]`, with or without a port.
pub(crate) fn loopback_host(host: &str) -> bool {
    // `[::1]:80` keeps its colons inside the brackets; `name:80` has one.
    let (name, port) = match host.strip_prefix('[') {
        Some(rest) => match rest.split_once(']') {
            Some((name, "")) => (name, None),
            Some((name, port)) => match port.strip_prefix(':') {
                Some(port) => (name, Some(port)),
                None => return false,
            },
            None => return false,
        },
        None => match host.split_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        },
    };
    let port_ok = port.is_none_or(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    port_ok && ["localhost", "127.0.0.1", "::1"].contains(&name.to_ascii_lowercase().as_str())
}

/// The `retry` (ms) a priming event tells the client to wait before it
/// reconnects.
const SSE_RETRY_MS: u32 = 1000;

/// 128 bits from the OS, as 32 lowercase hex digits: session ids and SSE
/// stream ids nobody can guess.
pub fn random_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::getrandom(&mut bytes).expect("the OS gives random bytes");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

struct CancelLog {
    armed: bool,
}

impl Drop for CancelLog {
    fn drop(&mut self) {
        if self.armed {
            eprintln!("POST /mcp tools/call cancelled: the client closed the connection");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::loopback_host;

    #[test]
    fn only_loopback_hosts_pass() {
        for ok in [
            "127.0.0.1:8787",
            "localhost:3000",
            "LOCALHOST",
            "[::1]:80",
            "127.0.0.1",
        ] {
            assert!(loopback_host(ok), "{ok}");
        }
        for bad in [
            "evil.example.com",
            "evil.example.com:8787",
            "localhost.evil.com:80",
            "127.0.0.1.nip.io",
            "127.0.0.1:80x",
            "[::1",
            "[::2]:80",
            "",
        ] {
            assert!(!loopback_host(bad), "{bad}");
        }
    }
}
