//! `POST /mcp` on `agent-loop serve --mcp`: a scenario's tools over MCP's
//! Streamable HTTP, both generations (`harness::mcp::server` decides what
//! to answer; this puts it on HTTP).
//!
//! - `Origin` is validated as the spec requires (DNS rebinding): a request
//!   from a page that is not on this machine (`http://127.0.0.1:*`,
//!   `http://localhost:*`) gets 403. Requests without `Origin` (SDKs, curl)
//!   pass.
//! - JSON or SSE: a `tools/call` is answered as an SSE stream when the
//!   client accepts `text/event-stream` (a call may take long; closing the
//!   stream cancels it); everything else, and every answer to a client that
//!   accepts only JSON, is one JSON body. A stream to a client of
//!   2025-11-25 or later opens with a priming event (an `id`, `retry` and
//!   empty `data`, the spec's "SSE polling"), and its message has an `id`.
//! - An `MCP-Protocol-Version` the server does not speak is refused with 400
//!   (`harness::mcp::server`); session ids are 128 random bits in hex.
//! - GET is 405 (no standalone stream is offered); DELETE ends a legacy session.

use bytes::Bytes;
use harness::mcp::jsonrpc;
use harness::mcp::server::McpServerCore;
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use hyper::{Method, Request, StatusCode};
use serde_json::{json, Value};

use super::{allowed_origin, Answer, MAX_BODY_BYTES};

pub async fn answer(
    core: Option<&McpServerCore>,
    method: &Method,
    request: Request<Incoming>,
) -> Answer {
    let Some(core) = core else {
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
                .push(("allow", "POST, DELETE, OPTIONS".into()));
            return answer;
        }
    }
    let accepts_sse = header("accept").is_some_and(|a| a.contains("text/event-stream"));
    // Clients before 2025-11-25 may not read an event with empty data (the
    // spec added priming events then): only newer ones get one. Dates in
    // ISO form compare as strings.
    let primes = header("mcp-protocol-version").is_some_and(|v| v.as_str() >= "2025-11-25");
    let headers: Vec<(String, String)> = request
        .headers()
        .iter()
        .filter_map(|(n, v)| Some((n.as_str().to_string(), v.to_str().ok()?.to_string())))
        .collect();
    let body = match Limited::new(request.into_body(), MAX_BODY_BYTES)
        .collect()
        .await
    {
        Ok(collected) => collected.to_bytes(),
        Err(e) => {
            return Answer::json(
                StatusCode::PAYLOAD_TOO_LARGE,
                &jsonrpc::error(
                    &Value::Null,
                    -32000,
                    &format!("the body could not be read: {e}"),
                    None,
                ),
                "body unreadable",
            )
        }
    };
    let is_call = serde_json::from_slice::<Value>(&body)
        .ok()
        .is_some_and(|m| m.get("method") == Some(&json!("tools/call")));
    let lookup = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    // Dropped with the connection when the client goes away mid-call: the
    // call is cancelled, and the log says so.
    let mut watch = CancelLog { armed: is_call };
    let reply = core.handle(&lookup, &body).await;
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
            let mut events = Vec::new();
            let stream = random_id();
            if primes {
                events.push(format!("id: {stream}-0\nretry: {SSE_RETRY_MS}\ndata: \n\n"));
            }
            events.push(format!(
                "event: message\nid: {stream}-1\ndata: {message}\n\n"
            ));
            Answer {
                status,
                content_type: "text/event-stream",
                body: Bytes::from(events.concat()),
                events,
                headers: vec![
                    ("cache-control", "no-cache".into()),
                    ("x-accel-buffering", "no".into()),
                ],
                note: format!("{} (SSE)", reply.note),
            }
        }
        Some(message) => Answer::json(status, &message, reply.note),
    };
    answer.headers.extend(reply.headers);
    answer
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
