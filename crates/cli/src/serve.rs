//! `agent-loop serve`: a scenario's model as a real HTTP API, in all three
//! wire formats, so browser adapters and official SDKs can talk to a
//! scripted model.
//!
//! Routes: `POST /v1/messages` (Anthropic Messages), `POST
//! /v1/chat/completions` (OpenAI Chat Completions), `POST /v1/responses`
//! (OpenAI Responses), `POST /reset` (start the script over), `GET /` (what is
//! being served), `GET /v1/models` (`serve/models.rs`), and `OPTIONS`
//! anything (CORS preflight). `"stream": true` in
//! a body selects SSE; otherwise the answer is one JSON body.
//!
//! How a request is answered:
//! 1. The body must be JSON in the provider's shape, with a `model` (and, for
//!    Anthropic, `max_tokens`); otherwise HTTP 400 with the provider's error
//!    body.
//! 2. The harness's protocol checker runs on the body; a violation is HTTP 400
//!    with the provider's own error text, as the real API would reject it.
//! 3. The scenario's model answers: a scripted model plays its next response
//!    (as `ScriptedModel` does in a run: `loop_from`, `delay_ms` slept before
//!    answering, `error` as that HTTP status with the provider's error body and
//!    `retry-after`, `usage` or an estimate, generated tool-call ids), and the
//!    rules model answers from the request's history and tools. A tool call
//!    to a tool the request did not declare is sent all the same (the script
//!    is the truth), with a warning on the request's log line.
//!
//! Conversations: the server cannot see which run a request belongs to, so a
//! request whose history has no assistant message starts a new conversation
//! and the script starts over at response 0, but only once the current one
//! has served a successful response: a retry of a first request that got a
//! scripted 429 must get the script's next response, not the 429 again.
//! `POST /reset` starts over unconditionally. When the script runs out the
//! answer is HTTP 500 naming it.
//!
//! Invariants:
//! - Binds 127.0.0.1 only, and prints `listening on http://127.0.0.1:PORT`
//!   to stdout once it accepts connections (with `--port 0`, the port the
//!   system chose). Tests wait for that line.
//! - No request can panic the server: every failure is an HTTP answer.
//! - One log line a request on stderr (method, path, status, what answered).
//!   Headers are never logged, so API keys never reach the log.
//! - `--pace-ms N` sends a stream's events N ms apart (each its own chunk),
//!   so a client's incremental parsing is exercised as with a real model;
//!   by default the whole stream is written at once.
//! - CORS: every answer allows the page's origin (any `http://127.0.0.1:*`
//!   or `http://localhost:*` is echoed, anything else gets `*`) and exposes
//!   `retry-after`.
//! - Under load and faults (`serve/accept.rs`, `serve/body.rs`): each
//!   connection is its own task, and a body is parsed and checked on a
//!   worker thread (`serve/prepare.rs`), so a large request does not hold up
//!   small ones; at most 256 connections are served at once (past them,
//!   503 with `Retry-After`); headers and body must each arrive within 10 s
//!   (else the connection is closed, or 408); a body past 32 MiB is 413,
//!   up to 64 MiB more of it read and dropped so the client reads the
//!   answer rather than a reset; a
//!   failing accept (too many open files) is retried after a pause, with
//!   one log line a second.

mod accept;
pub(crate) mod body;
mod mcp;
mod models;
// `agent-loop mcp bridge` guards its endpoint with these too.
pub(crate) use accept::AcceptFailures;
pub(crate) use mcp::{loopback_host, random_id};
mod prepare;
mod sse_replay;

use std::cell::{Cell, RefCell};
use std::convert::Infallible;
use std::process::ExitCode;
use std::rc::Rc;

use bytes::Bytes;
use futures::stream::{self, StreamExt};
use harness::model::{
    estimate_tokens, ModelClient, ModelError, ModelErrorKind, ModelRequest, ModelResponse,
};
use harness::rules::RulesModel;
use harness::runtime::TokioRuntime;
use harness::scenario::ModelConfig;
use harness::scripted::{script_index, ScriptedModel, ScriptedResponse};
use harness::wire::encode::{self, Meta};
use harness::wire::Provider;
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Full, StreamBody};
use hyper::body::{Frame, Incoming};
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};

/// Headers a browser adapter or an SDK sends, allowed in every preflight.
const ALLOWED_HEADERS: &[&str] = &[
    "content-type",
    "authorization",
    "x-api-key",
    "anthropic-version",
    "anthropic-beta",
    "anthropic-dangerous-direct-browser-access",
    "openai-organization",
    "openai-project",
    "mcp-protocol-version",
    "mcp-session-id",
    "mcp-method",
    "mcp-name",
    "last-event-id",
];

type Body = UnsyncBoxBody<Bytes, Infallible>;

pub fn command(args: &crate::args::ServeArgs) -> ExitCode {
    let (port, pace_ms) = (args.port, args.pace_ms);
    // Without SCENARIO, the --mcp scenario's model answers too.
    let source = args
        .scenario
        .as_deref()
        .or(args.mcp.as_deref())
        .unwrap_or_default();
    let scenario = match crate::load(source) {
        Ok(scenario) => scenario,
        Err(code) => return code,
    };
    let mcp = match &args.mcp {
        None => None,
        Some(source) => match mcp_core(source) {
            Ok(core) => Some(mcp::McpEndpoint::new(core, args.mcp_close_streams)),
            Err(code) => return code,
        },
    };
    let runtime = match crate::tokio_runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    let mut server = Server::new(scenario.name.clone(), &scenario.model, pace_ms);
    server.mcp = mcp;
    let server = Rc::new(server);
    // The scripted model holds `Rc`s and `Cell`s: connections are served on
    // this one thread, as local tasks.
    let local = tokio::task::LocalSet::new();
    match runtime.block_on(local.run_until(listen(server, port))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("agent-loop: {message}");
            ExitCode::from(2)
        }
    }
}

/// The tools of the `--mcp` scenario, built once so their stores last
/// across calls, as one run's would.
fn mcp_core(source: &str) -> Result<harness::mcp::server::McpServerCore, ExitCode> {
    let scenario = crate::load(source)?;
    if !scenario.mcp_servers.is_empty() {
        eprintln!("agent-loop: {source} takes tools from MCP servers itself; serve a scenario whose tools are its own");
        return Err(ExitCode::from(2));
    }
    let runtime: Rc<dyn harness::runtime::Runtime> = Rc::new(TokioRuntime::default());
    let (config, _) = scenario.build(runtime).map_err(|problems| {
        crate::report_problems(source, &problems);
        ExitCode::from(2)
    })?;
    let js = scenario.js_tool_names();
    if !js.is_empty() {
        eprintln!(
            "note: {} run only in the browser; over MCP every call to them answers with an error result",
            js.join(", ")
        );
    }
    Ok(harness::mcp::server::McpServerCore::new(
        scenario.name.clone(),
        config.tools,
        Box::new(mcp::random_id),
    ))
}

async fn listen(server: Rc<Server>, port: u16) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    let bound = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?;
    eprintln!(
        "serving {:?} ({}): POST {}; POST /reset; GET /v1/models",
        server.scenario_name,
        server.model.describe(),
        model_paths().join(", ")
    );
    if let Some(mcp) = &server.mcp {
        eprintln!(
            "serving MCP at http://127.0.0.1:{}/mcp (2026-07-28 and 2025-03-26 … 2025-11-25): {}",
            bound.port(),
            mcp.tool_names().join(", ")
        );
    }
    {
        use std::io::Write;
        let mut stdout = std::io::stdout();
        let _ = writeln!(stdout, "listening on http://127.0.0.1:{}", bound.port());
        let _ = stdout.flush();
    }
    let open = accept::OpenConnections::default();
    let mut failures = accept::AcceptFailures::default();
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(accepted) => {
                failures.accepted();
                accepted
            }
            Err(err) => {
                // E.g. too many open files: keep serving the others.
                failures.failed(&err).await;
                continue;
            }
        };
        let server = server.clone();
        let served = open.enter();
        tokio::task::spawn_local(async move {
            let busy = served.is_none();
            let service = hyper::service::service_fn(move |request| {
                let server = server.clone();
                async move {
                    Ok::<_, Infallible>(if busy {
                        server.too_busy(request).await
                    } else {
                        server.handle(request).await
                    })
                }
            });
            // A client that hangs up mid-request is its own business.
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(body::READ_TIME)
                .serve_connection(TokioIo::new(stream), service)
                .await;
            // Counted until here: the connection's place is free again.
            drop(served);
        });
    }
}

/// A conversation with the scripted model: its own `ScriptedModel` (so the
/// cursor and the generated ids start over with it).
struct Conversation {
    model: Rc<ScriptedModel>,
    /// Requests it has taken, errors included.
    requests: usize,
    /// Whether it has given a successful response (see the module docs).
    answered: bool,
}

enum Model {
    Scripted {
        responses: Vec<ScriptedResponse>,
        loop_from: Option<usize>,
        conversation: RefCell<Conversation>,
    },
    Rules,
}

impl Model {
    fn describe(&self) -> String {
        match self {
            Model::Scripted {
                responses,
                loop_from,
                ..
            } => format!(
                "{} scripted response{}{}",
                responses.len(),
                if responses.len() == 1 { "" } else { "s" },
                loop_from.map_or(String::new(), |n| format!(", looping from {n}"))
            ),
            Model::Rules => "the rules model".to_string(),
        }
    }

    /// Who gives the answers, as a log line names it.
    fn speaker(&self) -> &'static str {
        match self {
            Model::Scripted { .. } => "the script",
            Model::Rules => "the rules model",
        }
    }
}

struct Server {
    scenario_name: String,
    model: Model,
    runtime: Rc<TokioRuntime>,
    /// Makes response ids unique for the server's life.
    next_id: Cell<u64>,
    /// Milliseconds between a stream's events.
    pace_ms: u64,
    /// `--mcp`: the tools `/mcp` serves.
    mcp: Option<mcp::McpEndpoint>,
    /// When the server started (Unix seconds): `created` in `/v1/models`.
    started: u64,
}

/// One answer, before CORS headers are added.
struct Answer {
    status: StatusCode,
    content_type: &'static str,
    body: Bytes,
    /// A stream's events, sent one by one when pacing; `body` holds them all.
    events: Vec<String>,
    headers: Vec<(&'static str, String)>,
    /// What answered, for the log line.
    note: String,
}

impl Answer {
    fn json(status: StatusCode, body: &Value, note: impl Into<String>) -> Answer {
        Answer {
            status,
            content_type: "application/json",
            body: Bytes::from(body.to_string()),
            events: Vec::new(),
            headers: Vec::new(),
            note: note.into(),
        }
    }

    fn error(provider: Provider, status: StatusCode, message: &str, note: &str) -> Answer {
        let body = encode::error_body(provider, status.as_u16(), message);
        Answer::json(status, &body, format!("{note}: {message}"))
    }
}

impl Server {
    fn new(scenario_name: String, config: &ModelConfig, pace_ms: u64) -> Server {
        let runtime = Rc::new(TokioRuntime::default());
        let model = match config {
            ModelConfig::Scripted {
                responses,
                loop_from,
            } => Model::Scripted {
                conversation: RefCell::new(Conversation::new(responses, *loop_from, &runtime)),
                responses: responses.clone(),
                loop_from: *loop_from,
            },
            ModelConfig::Rules {} => Model::Rules,
        };
        Server {
            scenario_name,
            model,
            runtime,
            next_id: Cell::new(1),
            pace_ms,
            mcp: None,
            started: unix_seconds(),
        }
    }

    /// A request on a connection past the cap: its body is read (and
    /// dropped) so that the client reads the 503 rather than a reset.
    async fn too_busy(&self, request: Request<Incoming>) -> Response<Body> {
        let origin = request
            .headers()
            .get(header::ORIGIN)
            .and_then(|o| o.to_str().ok())
            .map(str::to_string);
        let _ = body::read(request.into_body()).await;
        respond(accept::too_busy(), origin.as_deref(), 0)
    }

    async fn handle(&self, request: Request<Incoming>) -> Response<Body> {
        let method = request.method().clone();
        let path = request.uri().path().to_string();
        let origin = request
            .headers()
            .get(header::ORIGIN)
            .and_then(|o| o.to_str().ok())
            .map(str::to_string);
        let answer = if method == Method::OPTIONS {
            Answer {
                status: StatusCode::NO_CONTENT,
                content_type: "text/plain",
                body: Bytes::new(),
                events: Vec::new(),
                headers: preflight_headers(request.headers()),
                note: "preflight".into(),
            }
        } else {
            self.route(&method, &path, request).await
        };
        eprintln!("{method} {path} {} {}", answer.status.as_u16(), answer.note);
        respond(answer, origin.as_deref(), self.pace_ms)
    }

    async fn route(&self, method: &Method, path: &str, request: Request<Incoming>) -> Answer {
        let provider = Provider::ALL.into_iter().find(|p| p.path() == path);
        match (method, path, provider) {
            (_, "/mcp", _) => mcp::answer(self.mcp.as_ref(), method, request).await,
            (&Method::POST, _, Some(provider)) => self.model_request(provider, request).await,
            (&Method::POST, "/reset", _) => {
                self.reset();
                Answer::json(StatusCode::OK, &json!({"reset": true}), "script reset")
            }
            (&Method::GET, "/v1/models", _) => {
                models::list(&models::model_id(&self.scenario_name), self.started)
            }
            (&Method::GET, _, _) if path.starts_with("/v1/models/") => {
                models::one(&path["/v1/models/".len()..], self.started)
            }
            (&Method::GET, "/" | "/health", _) => Answer::json(
                StatusCode::OK,
                &json!({
                    "scenario": self.scenario_name,
                    "model": self.model.describe(),
                    "routes": model_paths()
                        .iter()
                        .map(|path| format!("POST {path}"))
                        .chain(["POST /reset".to_string(), "GET /v1/models".to_string()])
                        .collect::<Vec<_>>(),
                }),
                "info",
            ),
            (_, _, Some(provider)) => Answer::error(
                provider,
                StatusCode::METHOD_NOT_ALLOWED,
                &format!("{method} is not supported on {path}: use POST"),
                "wrong method",
            ),
            _ => Answer::json(
                StatusCode::NOT_FOUND,
                &json!({"error": {"type": "not_found_error", "message": format!(
                    "no route {method} {path}; this server answers POST {} and /reset, and GET /v1/models",
                    model_paths().join(", "))}}),
                "no such route",
            ),
        }
    }

    fn reset(&self) {
        if let Model::Scripted {
            responses,
            loop_from,
            conversation,
        } = &self.model
        {
            *conversation.borrow_mut() = Conversation::new(responses, *loop_from, &self.runtime);
        }
    }

    async fn model_request(&self, provider: Provider, request: Request<Incoming>) -> Answer {
        let bytes = match body::read(request.into_body()).await {
            Ok(bytes) => bytes,
            Err(error) => {
                let (status, message) = error.refusal();
                return Answer::error(provider, status, &message, "body refused");
            }
        };
        let prepared = match prepare::prepare(provider, bytes).await {
            Ok(prepared) => prepared,
            Err(answer) => return *answer,
        };
        let history = &prepared.history;
        let model_request = ModelRequest {
            turn: u32::try_from(prepared.assistant_turns + 1).unwrap_or(u32::MAX),
            system: &history.system,
            messages: &history.messages,
            tools: &history.tools,
            tool_choice: &history.tool_choice,
            max_output_tokens: prepared.max_output_tokens,
            estimated_input_tokens: estimate_tokens(prepared.input_chars),
        };
        let (result, mut note) = self
            .answer(model_request, prepared.assistant_turns == 0)
            .await;
        if let Ok(response) = &result {
            for warning in undeclared_tools(response, &history.tools, self.model.speaker()) {
                note.push_str(&format!("; {warning}"));
            }
        }
        let answer = match result {
            Ok(response) => self.encode(
                provider,
                &response,
                &prepared.model_name,
                prepared.stream,
                note,
            ),
            Err(error) => error_answer(provider, &error, note),
        };
        // Freeing a history of tens of thousands of messages takes a while
        // too: on a worker, not where other connections wait.
        tokio::task::spawn_blocking(move || drop(prepared));
        answer
    }

    /// The model's answer, and which one it was for the log.
    async fn answer(
        &self,
        request: ModelRequest<'_>,
        new_conversation: bool,
    ) -> (Result<ModelResponse, ModelError>, String) {
        let Model::Scripted {
            responses,
            loop_from,
            conversation,
        } = &self.model
        else {
            return (
                RulesModel.complete(request).await,
                format!("rules model, turn {}", request.turn),
            );
        };
        let (model, n, restarted) = {
            let mut conversation = conversation.borrow_mut();
            let restarted = new_conversation && conversation.answered;
            if restarted {
                *conversation = Conversation::new(responses, *loop_from, &self.runtime);
            }
            let n = conversation.requests;
            conversation.requests += 1;
            (conversation.model.clone(), n, restarted)
        };
        let mut note = match script_index(responses.len(), *loop_from, n) {
            Some(i) => format!("scripted response {} of {}", i + 1, responses.len()),
            None => format!("request {} after the script's end", n + 1),
        };
        if restarted {
            note.push_str(" (new conversation: script restarted)");
        }
        // No borrow is held across the await: other requests may arrive
        // while this one sleeps its `delay_ms`.
        let result = model.complete(request).await;
        if result.is_ok() {
            let mut conversation = conversation.borrow_mut();
            // Unless a reset replaced the conversation meanwhile.
            if Rc::ptr_eq(&conversation.model, &model) {
                conversation.answered = true;
            }
        }
        (result, note)
    }

    fn encode(
        &self,
        provider: Provider,
        response: &ModelResponse,
        model: &str,
        stream: bool,
        note: String,
    ) -> Answer {
        let id_seed = self.next_id.get();
        self.next_id.set(id_seed + 1);
        let created = unix_seconds();
        let meta = Meta {
            model,
            id_seed,
            created,
        };
        if stream {
            let events = encode::stream_events(provider, response, &meta);
            Answer {
                status: StatusCode::OK,
                content_type: "text/event-stream; charset=utf-8",
                body: Bytes::from(events.concat()),
                events,
                headers: vec![("cache-control", "no-cache".to_string())],
                note: format!("{note}, streamed"),
            }
        } else {
            Answer::json(
                StatusCode::OK,
                &encode::response_body(provider, response, &meta),
                note,
            )
        }
    }
}

impl Conversation {
    fn new(
        responses: &[ScriptedResponse],
        loop_from: Option<usize>,
        runtime: &Rc<TokioRuntime>,
    ) -> Conversation {
        Conversation {
            model: Rc::new(ScriptedModel::new(
                responses.to_vec(),
                loop_from,
                runtime.clone(),
            )),
            requests: 0,
            answered: false,
        }
    }
}

fn unix_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A warning for each tool the response calls that the request did not
/// declare: a real provider would never answer so, and a client may not
/// know what to do with the call.
fn undeclared_tools(
    response: &ModelResponse,
    declared: &[harness::model::ToolSpec],
    speaker: &str,
) -> Vec<String> {
    let names: Vec<&str> = declared.iter().map(|t| t.name.as_str()).collect();
    let mut warned: Vec<&str> = Vec::new();
    for call in harness::message::tool_calls_of(&response.content) {
        let name = call.name.as_str();
        if !names.contains(&name) && !warned.contains(&name) {
            warned.push(name);
        }
    }
    let declared = if names.is_empty() {
        "it declared none".to_string()
    } else {
        format!("it declared: {}", names.join(", "))
    };
    warned
        .into_iter()
        .map(|name| {
            format!("warning: {speaker} answers with tool {name:?}, which the request did not declare ({declared})")
        })
        .collect()
}

/// The three formats' paths (`/v1/messages`, …), the routes a model answers on.
fn model_paths() -> [&'static str; 3] {
    Provider::ALL.map(Provider::path)
}

/// A model error as the provider would send it.
fn error_answer(provider: Provider, error: &ModelError, note: String) -> Answer {
    let status = match error.kind {
        ModelErrorKind::Http => error
            .status
            .and_then(|s| StatusCode::from_u16(s).ok())
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    let message = match error.kind {
        ModelErrorKind::ScriptExhausted => format!(
            "{} (POST /reset, or send a conversation with no assistant message, to start over)",
            error.message
        ),
        // The scripted defaults read "rate_limit_error: …"; the error type is
        // already in the body, so it is not repeated in the message.
        _ => {
            let kind = encode::anthropic_error_type(status.as_u16());
            error
                .message
                .strip_prefix(&format!("{kind}: "))
                .unwrap_or(&error.message)
                .to_string()
        }
    };
    let mut answer = Answer::error(provider, status, &message, &note);
    if let Some(ms) = error.retry_after_ms {
        // `retry-after` is whole seconds (rounded up, so a client never
        // retries early); OpenAI also sends the exact `retry-after-ms`.
        answer
            .headers
            .push(("retry-after", ms.div_ceil(1000).to_string()));
        answer.headers.push(("retry-after-ms", ms.to_string()));
    }
    answer
}

/// The origin allowed back: the playground's (any local port), else `*`.
fn allowed_origin(origin: Option<&str>) -> &str {
    let local = origin.is_some_and(|o| {
        ["http://127.0.0.1", "http://localhost", "http://[::1]"]
            .iter()
            .any(|host| {
                o.strip_prefix(host).is_some_and(|rest| {
                    rest.is_empty()
                        || rest.strip_prefix(':').is_some_and(|port| {
                            !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit())
                        })
                })
            })
    });
    match origin {
        Some(o) if local => o,
        _ => "*",
    }
}

fn preflight_headers(request: &HeaderMap) -> Vec<(&'static str, String)> {
    let mut allowed: Vec<String> = ALLOWED_HEADERS.iter().map(|h| h.to_string()).collect();
    // SDKs send headers of their own (`x-stainless-*`); allow what was asked,
    // when it is a plain header name.
    if let Some(asked) = request
        .get(header::ACCESS_CONTROL_REQUEST_HEADERS)
        .and_then(|h| h.to_str().ok())
    {
        for name in asked.split(',').map(|n| n.trim().to_ascii_lowercase()) {
            let plain = !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            if plain && !allowed.contains(&name) {
                allowed.push(name);
            }
        }
    }
    vec![
        (
            "access-control-allow-methods",
            "GET, POST, DELETE, OPTIONS".into(),
        ),
        ("access-control-allow-headers", allowed.join(", ")),
        ("access-control-max-age", "600".into()),
    ]
}

fn respond(answer: Answer, origin: Option<&str>, pace_ms: u64) -> Response<Body> {
    let body = if pace_ms > 0 && !answer.events.is_empty() {
        let frames = stream::iter(answer.events)
            .enumerate()
            .then(move |(n, event)| async move {
                if n > 0 {
                    tokio::time::sleep(std::time::Duration::from_millis(pace_ms)).await;
                }
                Ok::<_, Infallible>(Frame::data(Bytes::from(event)))
            });
        StreamBody::new(frames).boxed_unsync()
    } else {
        Full::new(answer.body).boxed_unsync()
    };
    let mut response = Response::new(body);
    *response.status_mut() = answer.status;
    let headers = response.headers_mut();
    let mut set = |name: &'static str, value: &str| {
        // Every value here is ASCII we made or an origin that was a valid
        // header already; a failure drops the header rather than panicking.
        if let Ok(value) = HeaderValue::from_str(value) {
            headers.insert(name, value);
        }
    };
    if answer.status != StatusCode::NO_CONTENT {
        set("content-type", answer.content_type);
    }
    set("access-control-allow-origin", allowed_origin(origin));
    set("vary", "origin");
    set(
        "access-control-expose-headers",
        "retry-after, retry-after-ms, mcp-session-id",
    );
    for (name, value) in &answer.headers {
        set(name, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_origins_are_echoed_and_others_get_a_wildcard() {
        assert_eq!(
            allowed_origin(Some("http://127.0.0.1:8080")),
            "http://127.0.0.1:8080"
        );
        assert_eq!(
            allowed_origin(Some("http://localhost:3000")),
            "http://localhost:3000"
        );
        assert_eq!(allowed_origin(Some("http://localhost")), "http://localhost");
        assert_eq!(
            allowed_origin(Some("http://[::1]:8080")),
            "http://[::1]:8080"
        );
        assert_eq!(allowed_origin(Some("http://localhost.evil.com")), "*");
        assert_eq!(allowed_origin(Some("http://127.0.0.1:80x")), "*");
        assert_eq!(allowed_origin(Some("https://example.com")), "*");
        assert_eq!(allowed_origin(None), "*");
    }
}
