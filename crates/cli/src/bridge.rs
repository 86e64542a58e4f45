//! `agent-loop mcp bridge -- CMD [ARGS…]`: a stdio MCP server served over
//! Streamable HTTP on 127.0.0.1, so a page (which cannot start processes)
//! can use it.
//!
//! - `POST /mcp` takes one JSON-RPC message. A request is forwarded to the
//!   server and answered as an SSE stream when the client accepts one (the
//!   server's notifications and requests sent meanwhile ride on it), else
//!   as one JSON body; a notification or a response is forwarded and
//!   answered 202.
//! - The server has one session: `initialize` starts it and the answer
//!   carries its `Mcp-Session-Id`; later requests must name it (400
//!   without, 404 with another). A request before `initialize` gets 400
//!   with a JSON-RPC error, so a client probing for the 2026-07-28
//!   generation falls back to `initialize` and the server never sees a
//!   request before its handshake. `DELETE /mcp` ends the session; `GET
//!   /mcp` is 405 (no standalone stream).
//! - Who may use it (`bridge/gate.rs`): 127.0.0.1 only, loopback `Host`,
//!   no `Origin` or an allowed one (403 otherwise), and the token printed
//!   at start as `Authorization: Bearer TOKEN` (401 otherwise). Preflights
//!   from allowed pages are answered without the token (a browser sends
//!   none with them).
//! - When the server exits, the bridge says so with its stderr tail and
//!   exits 1; Ctrl-C stops both (exit 130). One log line a request on
//!   stderr; headers are never logged.

mod gate;
mod relay;

use std::convert::Infallible;
use std::process::ExitCode;
use std::rc::Rc;

use bytes::Bytes;
use harness::mcp::jsonrpc;
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Full, StreamBody};
use hyper::body::{Frame, Incoming};
use hyper::header::HeaderValue;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};

use crate::args::McpBridgeArgs;
use crate::stdio_server::StdioServer;
use gate::Gate;
use relay::{Relay, Replies, SessionCheck};

type Body = UnsyncBoxBody<Bytes, Infallible>;

pub fn command(args: &McpBridgeArgs) -> ExitCode {
    let runtime = match crate::tokio_runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    let local = tokio::task::LocalSet::new();
    let code = local.block_on(&runtime, run(args));
    // The server is killed as it is dropped: its process is gone before we
    // return.
    drop(local);
    code
}

async fn run(args: &McpBridgeArgs) -> ExitCode {
    let server = match StdioServer::spawn(&args.command, &Default::default(), None) {
        Ok(server) => Rc::new(server),
        Err(why) => {
            eprintln!("agent-loop: {why}");
            return ExitCode::from(2);
        }
    };
    let listener = match tokio::net::TcpListener::bind(("127.0.0.1", args.port)).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("agent-loop: cannot listen on 127.0.0.1:{}: {e}", args.port);
            return ExitCode::from(2);
        }
    };
    let port = listener.local_addr().map_or(args.port, |a| a.port());
    let mut origins: Vec<String> = gate::DEFAULT_ORIGINS
        .iter()
        .map(|o| o.to_string())
        .collect();
    origins.extend(
        args.allow_origins
            .iter()
            .map(|o| o.trim_end_matches('/').to_string()),
    );
    let gate = Rc::new(Gate {
        token: crate::serve::random_id(),
        origins,
    });
    // Listening for Ctrl-C starts before the URL is printed: one pressed
    // (or sent by a script) once the URL is out must stop both.
    let mut interrupt =
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt()) {
            Ok(interrupt) => interrupt,
            Err(e) => {
                eprintln!("agent-loop: cannot listen for Ctrl-C: {e}");
                return ExitCode::from(2);
            }
        };
    let relay = Relay::new(server);
    announce(port, &gate, &relay.command_line());
    let accepting = accept(listener, relay.clone(), gate);
    tokio::select! {
        why = relay.pump() => {
            // The reader says "before answering", true of a run's first
            // request; a bridged server may have answered for hours.
            let why = why.replacen(" before answering", "", 1);
            eprintln!("agent-loop: the MCP server stopped, so the bridge stops too: {why}");
            ExitCode::from(1)
        }
        () = accepting => ExitCode::from(2),
        _ = interrupt.recv() => {
            eprintln!("agent-loop: stopped (Ctrl-C); `{}` is stopped with it", relay.command_line());
            ExitCode::from(130)
        }
    }
}

/// The URL and token on stdout (one line, which tests and scripts wait
/// for), how to use them on stderr.
fn announce(port: u16, gate: &Gate, command_line: &str) {
    use std::io::Write;
    let url = format!("http://127.0.0.1:{port}/mcp");
    eprintln!("bridging `{command_line}` (MCP over stdio) to Streamable HTTP");
    let mut stdout = std::io::stdout();
    let _ = writeln!(stdout, "listening on {url} — token: {}", gate.token);
    let _ = stdout.flush();
    eprintln!(
        "In the playground: add {{\"name\": \"NAME\", \"url\": \"{url}\"}} to \"mcp_servers\" and paste the token into its Token field under \"MCP servers\".\n\
         From another client: send \"Authorization: Bearer TOKEN\" with every request, e.g.\n  \
         agent-loop mcp tools {url} --header \"Authorization: Bearer TOKEN\"\n\
         Pages allowed: {} (add one with --allow-origin ORIGIN). Ctrl-C stops the bridge and the server.",
        gate.origins.join(", ")
    );
}

async fn accept(listener: tokio::net::TcpListener, relay: Rc<Relay>, gate: Rc<Gate>) {
    // A failing accept (too many open files) pauses and logs as `serve`'s does.
    let mut failures = crate::serve::AcceptFailures::default();
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => {
                failures.accepted();
                stream
            }
            Err(err) => {
                failures.failed(&err).await;
                continue;
            }
        };
        let (relay, gate) = (relay.clone(), gate.clone());
        tokio::task::spawn_local(async move {
            let service = hyper::service::service_fn(move |request| {
                let (relay, gate) = (relay.clone(), gate.clone());
                async move { Ok::<_, Infallible>(handle(&relay, &gate, request).await) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(crate::serve::body::READ_TIME)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// An answer before the CORS headers are added.
struct Answer {
    status: StatusCode,
    content_type: &'static str,
    body: Body,
    headers: Vec<(&'static str, String)>,
    note: String,
}

impl Answer {
    fn json(status: StatusCode, body: &Value, note: impl Into<String>) -> Answer {
        Answer {
            status,
            content_type: "application/json",
            body: Full::new(Bytes::from(body.to_string())).boxed_unsync(),
            headers: Vec::new(),
            note: note.into(),
        }
    }

    fn text(status: StatusCode, body: String, note: impl Into<String>) -> Answer {
        Answer {
            status,
            content_type: "text/plain; charset=utf-8",
            body: Full::new(Bytes::from(body)).boxed_unsync(),
            headers: Vec::new(),
            note: note.into(),
        }
    }

    fn rpc_error(status: StatusCode, message: &str, note: impl Into<String>) -> Answer {
        Answer::json(
            status,
            &jsonrpc::error(&Value::Null, -32000, message, None),
            note,
        )
    }

    /// A 404 for a session the bridge does not hold, with the code `serve
    /// --mcp` and the project's MCP server give it.
    fn session_not_found(note: &str) -> Answer {
        Answer::json(
            StatusCode::NOT_FOUND,
            &jsonrpc::error(&Value::Null, -32001, "Session not found", None),
            note,
        )
    }
}

async fn handle(relay: &Rc<Relay>, gate: &Gate, request: Request<Incoming>) -> Response<Body> {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let origin = gate.allowed_origin(request.headers()).map(str::to_string);
    let answer = match gate.check_origin(request.headers()) {
        Err(refusal) => Answer::text(refusal.status, refusal.body, refusal.note),
        Ok(()) if method == Method::OPTIONS => Answer {
            status: StatusCode::NO_CONTENT,
            content_type: "text/plain",
            body: Full::new(Bytes::new()).boxed_unsync(),
            headers: gate::preflight_headers(),
            note: "preflight".into(),
        },
        Ok(()) => match gate.check_token(request.headers()) {
            Err(refusal) => Answer::text(refusal.status, refusal.body, refusal.note),
            Ok(()) if path == "/mcp" => answer_mcp(relay, &method, request).await,
            Ok(()) => Answer::text(
                StatusCode::NOT_FOUND,
                format!("Not found: this bridge serves MCP at /mcp only, not {path}\n"),
                "no such route",
            ),
        },
    };
    eprintln!("{method} {path} {} {}", answer.status.as_u16(), answer.note);
    respond(answer, origin.as_deref())
}

async fn answer_mcp(relay: &Rc<Relay>, method: &Method, request: Request<Incoming>) -> Answer {
    let header = |name: &str| {
        request
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let session = header("mcp-session-id");
    match *method {
        Method::POST => {}
        Method::DELETE => {
            return if relay.end_session(session.as_deref()) {
                Answer::json(StatusCode::OK, &json!({}), "session ended")
            } else {
                Answer::session_not_found("DELETE of an unknown session")
            };
        }
        _ => {
            let mut answer = Answer::rpc_error(
                StatusCode::METHOD_NOT_ALLOWED,
                &format!("{method} is not supported on /mcp: POST a JSON-RPC message (this bridge offers no standalone SSE stream)"),
                "wrong method",
            );
            answer
                .headers
                .push(("allow", "POST, DELETE, OPTIONS".into()));
            return answer;
        }
    }
    let accepts_sse = header("accept").is_some_and(|a| a.contains("text/event-stream"));
    let body = match crate::serve::body::read(request.into_body()).await {
        Ok(bytes) => bytes,
        Err(error) => {
            let (status, message) = error.refusal();
            return Answer::rpc_error(status, &message, "body unreadable");
        }
    };
    let message: Value = match serde_json::from_slice(&body) {
        Ok(message @ Value::Object(_)) => message,
        Ok(_) => {
            return Answer::rpc_error(
                StatusCode::BAD_REQUEST,
                "POST one JSON-RPC message, a JSON object (this bridge takes no batches)",
                "not one message",
            )
        }
        Err(e) => {
            return Answer::json(
                StatusCode::BAD_REQUEST,
                &jsonrpc::error(
                    &Value::Null,
                    jsonrpc::PARSE_ERROR,
                    &format!("Parse error: the body is not JSON ({e})"),
                    None,
                ),
                "not JSON",
            )
        }
    };
    let rpc_method = message
        .get("method")
        .and_then(Value::as_str)
        .map(str::to_string);
    let initializing = rpc_method.as_deref() == Some("initialize");
    let mut headers = Vec::new();
    if initializing {
        let id = crate::serve::random_id();
        relay.start_session(id.clone());
        headers.push(("mcp-session-id", id));
    } else {
        match relay.check_session(session.as_deref()) {
            SessionCheck::Current => {}
            SessionCheck::NotStarted => {
                return Answer::rpc_error(
                    StatusCode::BAD_REQUEST,
                    "Bad Request: no session; send initialize first (this bridge speaks the session generation of MCP, 2025-03-26 to 2025-11-25)",
                    format!("{} before initialize", rpc_method.as_deref().unwrap_or("a message")),
                )
            }
            SessionCheck::Missing => {
                return Answer::rpc_error(
                    StatusCode::BAD_REQUEST,
                    "Bad Request: Mcp-Session-Id header is required",
                    "no session id",
                )
            }
            SessionCheck::Unknown => {
                return Answer::session_not_found("unknown session")
            }
        }
    }
    let what = rpc_method.clone().unwrap_or_else(|| "a response".into());
    let is_request = rpc_method.is_some() && message.get("id").is_some_and(|id| !id.is_null());
    if !is_request {
        return match relay.forward(&message).await {
            Ok(()) => Answer {
                status: StatusCode::ACCEPTED,
                content_type: "text/plain",
                body: Full::new(Bytes::new()).boxed_unsync(),
                headers,
                note: format!("{what} forwarded"),
            },
            Err(why) => Answer::rpc_error(StatusCode::BAD_GATEWAY, &why, "server gone"),
        };
    }
    let mut replies = match relay.request(message).await {
        Ok(replies) => replies,
        Err(why) => return Answer::rpc_error(StatusCode::BAD_GATEWAY, &why, "server gone"),
    };
    let mut answer = if accepts_sse {
        Answer {
            status: StatusCode::OK,
            content_type: "text/event-stream",
            body: sse_body(replies),
            headers: vec![("cache-control", "no-cache".into())],
            note: format!("{what} (SSE)"),
        }
    } else {
        // A client that takes JSON only gets the response alone: the
        // server's messages before it have no way to reach it.
        let mut response = None;
        while let Some(message) = replies.next().await {
            if message.get("method").is_none() {
                response = Some(message);
            } else {
                eprintln!(
                    "note: a JSON-only client cannot take the server's {}: dropped",
                    message["method"]
                );
            }
        }
        match response {
            Some(response) => Answer::json(StatusCode::OK, &response, format!("{what} (JSON)")),
            None => Answer::rpc_error(
                StatusCode::BAD_GATEWAY,
                &format!("`{}` stopped before answering", relay.command_line()),
                "server gone",
            ),
        }
    };
    answer.headers.extend(headers);
    answer
}

/// The request's messages as SSE events, sent as they come; the stream
/// ends after the response. A body must be `Send` and the relay is not, so
/// a local task carries the events over a channel; it ends (and the
/// request is cancelled) when the client goes away.
fn sse_body(mut replies: Replies) -> Body {
    let (events, received) = tokio::sync::mpsc::unbounded_channel::<Bytes>();
    tokio::task::spawn_local(async move {
        loop {
            tokio::select! {
                message = replies.next() => match message {
                    Some(message) => {
                        let event = format!("event: message\ndata: {message}\n\n");
                        if events.send(Bytes::from(event)).is_err() {
                            break;
                        }
                    }
                    None => break,
                },
                () = events.closed() => break,
            }
        }
    });
    let frames = futures::stream::unfold(received, |mut received| async move {
        let event = received.recv().await?;
        Some((Ok::<_, Infallible>(Frame::data(event)), received))
    });
    StreamBody::new(frames).boxed_unsync()
}

fn respond(answer: Answer, origin: Option<&str>) -> Response<Body> {
    let mut response = Response::new(answer.body);
    *response.status_mut() = answer.status;
    let headers = response.headers_mut();
    let mut set = |name: &'static str, value: &str| {
        if let Ok(value) = HeaderValue::from_str(value) {
            headers.insert(name, value);
        }
    };
    if answer.status != StatusCode::NO_CONTENT && answer.status != StatusCode::ACCEPTED {
        set("content-type", answer.content_type);
    }
    if let Some(origin) = origin {
        set("access-control-allow-origin", origin);
        set("access-control-expose-headers", &gate::exposed_headers());
    }
    set("vary", "origin");
    for (name, value) in &answer.headers {
        set(name, value);
    }
    response
}
