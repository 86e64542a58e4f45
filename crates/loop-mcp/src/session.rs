//! One MCP server, as a client talks to it: which generation it speaks,
//! each request's headers and body, reading the answer (JSON or SSE), and
//! cancelling.
//!
//! Choosing the generation follows the 2026-07-28 spec's "Backward
//! Compatibility" rule: probe with a modern `server/discover`; a modern
//! discover result counts only when it names the versions the server
//! speaks (`supportedVersions`); any other result (an older server's `{}`)
//! falls back to `initialize`. A modern
//! JSON-RPC error (-32020…-32022) means a modern server that wants the
//! request corrected; a method-not-found JSON-RPC 404 means a modern server
//! without discovery; anything else (another 400, a 404 or 405 without
//! JSON-RPC, no answer at all, as a browser sees a refused CORS preflight)
//! falls back to the legacy `initialize` handshake. When that POST is
//! refused as the old HTTP+SSE transport's servers refuse it, that
//! transport is tried (`legacy_sse`), and every message goes through it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use base64::Engine;
use futures::future::LocalBoxFuture;
use futures::StreamExt;
use serde_json::{json, Value};

use super::config::Secret;
pub use super::error::Failure;
use super::error::McpError;
use super::jsonrpc::{self, Incoming, RpcError};
use super::legacy_sse::{self, LegacySse};
use super::transport::{HttpRequest, HttpResponse, McpTransport};
use crate::wire::sse::SseParser;

pub use crate::versions::{LEGACY, MODERN};

/// A body larger than this is refused rather than read into memory.
const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// How often a closed SSE stream is resumed (GET with `Last-Event-ID`)
/// before the call fails.
const MAX_RECONNECTS: u32 = 3;
/// The wait before resuming when the server gave no `retry`, and the most
/// a server's `retry` can make the client wait.
const DEFAULT_RETRY_MS: u64 = 1000;
const MAX_RETRY_MS: u64 = 5000;

/// The server's request for input from the user.
pub const ELICITATION: &str = "elicitation/create";

/// How this client introduces itself.
fn client_info() -> Value {
    json!({"name": "agent-loop", "version": env!("CARGO_PKG_VERSION")})
}

#[derive(Clone, Debug, PartialEq)]
pub enum Generation {
    /// 2026-07-28: no handshake, `_meta` and `Mcp-*` headers on every request.
    Modern,
    /// 2025-03-26 … 2025-11-25: after `initialize`, in a session when the
    /// server gave one.
    Legacy {
        version: String,
        session_id: Option<String>,
    },
}

/// A connection to one server.
pub struct Session {
    url: String,
    headers: Vec<(String, Secret)>,
    transport: Rc<dyn McpTransport>,
    generation: RefCell<Generation>,
    next_id: Cell<u64>,
    /// `name version` as the server gave it, when it did.
    server_info: RefCell<Option<String>>,
    /// The server's own requests this client declined, on any stream, not
    /// yet taken by [`Session::take_declined`].
    declined: RefCell<Vec<String>>,
    /// The old HTTP+SSE transport's stream, when the server speaks only that.
    legacy_sse: RefCell<Option<Rc<LegacySse>>>,
}

/// A result, with the session id its HTTP answer carried.
struct Reply {
    result: Value,
    session_id: Option<String>,
    /// The server's own requests met while reading (declined).
    declined: Vec<String>,
}

impl Session {
    /// Reaches the server and settles its generation (see the module doc).
    pub async fn connect(
        url: &str,
        headers: Vec<(String, Secret)>,
        transport: Rc<dyn McpTransport>,
    ) -> Result<Rc<Session>, McpError> {
        let session = Rc::new(Session {
            url: url.to_string(),
            headers,
            transport,
            generation: RefCell::new(Generation::Modern),
            next_id: Cell::new(0),
            server_info: RefCell::new(None),
            declined: RefCell::new(Vec::new()),
            legacy_sse: RefCell::new(None),
        });
        let probe = session.exchange("server/discover", json!({})).await;
        let fallback_version = match probe {
            Ok(reply) => {
                session.note_server_info(
                    reply
                        .result
                        .pointer("/_meta/io.modelcontextprotocol~1serverInfo"),
                );
                let versions = strings(reply.result.get("supportedVersions"));
                if versions.iter().any(|v| v == MODERN) {
                    return Ok(session);
                }
                match LEGACY.iter().find(|v| versions.iter().any(|s| s == *v)) {
                    Some(version) => version.to_string(),
                    // Not a conforming discover answer (one names the
                    // versions the server speaks): an older server that
                    // answers any method with `{}`. It is no proof of
                    // 2026-07-28, so the handshake decides.
                    None if versions.is_empty() => LEGACY[0].to_string(),
                    None => return Err(McpError::NoCommonVersion { versions }),
                }
            }
            Err(Failure::Rpc { error, .. })
                if error.code == jsonrpc::UNSUPPORTED_PROTOCOL_VERSION =>
            {
                let versions = strings(error.data.as_ref().and_then(|d| d.get("supported")));
                match LEGACY.iter().find(|v| versions.iter().any(|s| s == *v)) {
                    Some(version) => version.to_string(),
                    None => return Err(McpError::NoCommonVersion { versions }),
                }
            }
            Err(Failure::Rpc { error, .. })
                if error.code == jsonrpc::HEADER_MISMATCH
                    || error.code == jsonrpc::MISSING_REQUIRED_CLIENT_CAPABILITY =>
            {
                return Err(McpError::RefusedByModernServer(error));
            }
            // A modern server need not answer discovery to serve tools.
            Err(Failure::Rpc { status: 404, error }) if error.code == jsonrpc::METHOD_NOT_FOUND => {
                return Ok(session)
            }
            Err(other) => {
                return match session.initialize(LEGACY[0]).await {
                    Ok(()) => Ok(session),
                    Err(McpError::Handshake(post))
                        if legacy_sse::worth_trying(&session.url, &post) =>
                    {
                        session.connect_legacy_sse(post).await.map(|()| session)
                    }
                    Err(legacy) => Err(McpError::NeitherGeneration {
                        discover: other,
                        initialize: Box::new(legacy),
                    }),
                };
            }
        };
        session
            .initialize(&fallback_version)
            .await
            .map(|()| session)
            .map_err(|cause| McpError::Initialize {
                version: fallback_version,
                cause: Box::new(cause),
            })
    }

    /// The old HTTP+SSE transport, after `post` refused the handshake: GET
    /// the URL for its stream, then the handshake through it.
    async fn connect_legacy_sse(&self, post: Failure) -> Result<(), McpError> {
        let headers = self
            .headers
            .iter()
            .map(|(name, value)| (name.clone(), value.expose().to_string()))
            .collect();
        let sse = LegacySse::open(&self.transport, &self.url, headers)
            .await
            .map_err(|get| McpError::NoTransport {
                url: self.url.clone(),
                post,
                get,
            })?;
        *self.legacy_sse.borrow_mut() = Some(Rc::new(sse));
        self.initialize(legacy_sse::VERSION)
            .await
            .map_err(|cause| McpError::Initialize {
                version: format!("{} over HTTP+SSE", legacy_sse::VERSION),
                cause: Box::new(cause),
            })
    }

    /// The legacy handshake: `initialize`, then `notifications/initialized`.
    async fn initialize(&self, version: &str) -> Result<(), McpError> {
        *self.generation.borrow_mut() = Generation::Legacy {
            version: version.to_string(),
            session_id: None,
        };
        let params = json!({
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": client_info(),
        });
        let reply = self
            .exchange("initialize", params)
            .await
            .map_err(McpError::Handshake)?;
        let chosen = reply
            .result
            .get("protocolVersion")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        // The old transport's own version is spoken over that transport.
        let old_transport = self.is_legacy_sse() && chosen == legacy_sse::VERSION;
        if !LEGACY.contains(&chosen.as_str()) && !old_transport {
            return Err(McpError::VersionNotSpoken { chosen });
        }
        self.note_server_info(reply.result.get("serverInfo"));
        *self.generation.borrow_mut() = Generation::Legacy {
            version: chosen,
            session_id: reply.session_id,
        };
        self.notify("notifications/initialized", json!({}))
            .await
            .map_err(McpError::Initialized)
    }

    pub fn generation(&self) -> Generation {
        self.generation.borrow().clone()
    }

    /// The protocol version in use.
    pub fn protocol_version(&self) -> String {
        match &*self.generation.borrow() {
            Generation::Modern => MODERN.to_string(),
            Generation::Legacy { version, .. } => version.clone(),
        }
    }

    /// The protocol version, and the transport when it is the old HTTP+SSE
    /// one: what a person is told the server speaks.
    pub fn speaks(&self) -> String {
        if self.is_legacy_sse() {
            format!("{} over HTTP+SSE", self.protocol_version())
        } else {
            self.protocol_version()
        }
    }

    /// Whether the server is reached by the old HTTP+SSE transport, whose
    /// one stream carries everything (no standalone stream is opened).
    pub fn is_legacy_sse(&self) -> bool {
        self.legacy_sse.borrow().is_some()
    }

    pub fn server_info(&self) -> Option<String> {
        self.server_info.borrow().clone()
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// The methods of the server's requests declined since the last call,
    /// in the order they came, on the call's stream or the standalone one.
    pub fn take_declined(&self) -> Vec<String> {
        std::mem::take(&mut *self.declined.borrow_mut())
    }

    pub(crate) fn transport(&self) -> &Rc<dyn McpTransport> {
        &self.transport
    }

    fn note_server_info(&self, info: Option<&Value>) {
        let Some(info) = info else { return };
        let name = info.get("name").and_then(Value::as_str).unwrap_or_default();
        let version = info
            .get("version")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if !name.is_empty() {
            *self.server_info.borrow_mut() = Some(format!("{name} {version}").trim().to_string());
        }
    }

    /// One request, its result or why there is none.
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, Failure> {
        self.exchange(method, params)
            .await
            .map(|reply| reply.result)
    }

    /// Calls a tool; the future may be dropped at any time (a timeout, the
    /// run's deadline, Stop): the HTTP request is aborted with it, and a
    /// legacy server is also sent `notifications/cancelled`.
    pub fn call_tool(
        self: &Rc<Self>,
        name: &str,
        arguments: Value,
    ) -> LocalBoxFuture<'static, Result<crate::tool::ToolOutput, String>> {
        let session = self.clone();
        let name = name.to_string();
        Box::pin(async move {
            let id = session.take_id();
            let mut guard = CancelOnDrop {
                session: session.clone(),
                id,
                armed: true,
            };
            let params = json!({"name": name, "arguments": arguments});
            let outcome = session.exchange_with_id(id, "tools/call", params).await;
            guard.armed = false;
            match outcome {
                Ok(reply) => super::content::tool_result(&reply.result).map_err(|text| {
                    if reply.declined.is_empty() {
                        text
                    } else {
                        format!("{text}\n{}", declined_note(&reply.declined))
                    }
                }),
                Err(Failure::Rpc { error, .. }) => {
                    Err(format!("the MCP server answered tools/call with {error}"))
                }
                Err(other) => Err(format!("the MCP call to {name} failed: {other}")),
            }
        })
    }

    fn take_id(&self) -> u64 {
        let id = self.next_id.get() + 1;
        self.next_id.set(id);
        id
    }

    async fn exchange(&self, method: &str, params: Value) -> Result<Reply, Failure> {
        let id = self.take_id();
        self.exchange_with_id(id, method, params).await
    }

    async fn exchange_with_id(
        &self,
        id: u64,
        method: &str,
        params: Value,
    ) -> Result<Reply, Failure> {
        let request = self.http_request(&jsonrpc::request(id, method, self.with_meta(params)));
        let legacy_sse = self.legacy_sse.borrow().clone();
        if let Some(sse) = legacy_sse {
            return match sse.send(&self.transport, request, Some(id)).await? {
                Some(outcome) => finish(outcome, 200, None, Vec::new()),
                None => Err(Failure::Unreadable(format!(
                    "no answer to request {id} on the SSE stream"
                ))),
            };
        }
        let response = self
            .transport
            .post(request)
            .await
            .map_err(Failure::Unreachable)?;
        self.read_reply(response, id).await
    }

    /// Sends a notification; the server answers 202 (or 200) with no body.
    pub async fn notify(&self, method: &str, params: Value) -> Result<(), Failure> {
        let request = self.http_request(&jsonrpc::notification(method, params));
        let legacy_sse = self.legacy_sse.borrow().clone();
        if let Some(sse) = legacy_sse {
            return sse.send(&self.transport, request, None).await.map(|_| ());
        }
        let response = self
            .transport
            .post(request)
            .await
            .map_err(Failure::Unreachable)?;
        if (200..300).contains(&response.status) {
            return Ok(());
        }
        let status = response.status;
        Err(error_from_body(status, &read_all(response).await?))
    }

    /// A modern request's params carry the protocol version and this
    /// client's capabilities (none: no sampling, elicitation or roots).
    fn with_meta(&self, mut params: Value) -> Value {
        if *self.generation.borrow() == Generation::Modern {
            if let Some(object) = params.as_object_mut() {
                let meta = object.entry("_meta").or_insert_with(|| json!({}));
                if let Some(meta) = meta.as_object_mut() {
                    meta.insert(
                        "io.modelcontextprotocol/protocolVersion".into(),
                        json!(MODERN),
                    );
                    meta.insert(
                        "io.modelcontextprotocol/clientCapabilities".into(),
                        json!({}),
                    );
                    meta.insert("io.modelcontextprotocol/clientInfo".into(), client_info());
                }
            }
        }
        params
    }

    /// The HTTP request for a JSON-RPC message, with this generation's headers.
    pub fn http_request(&self, message: &Value) -> HttpRequest {
        let mut headers = vec![
            ("content-type".to_string(), "application/json".to_string()),
            (
                "accept".to_string(),
                "application/json, text/event-stream".to_string(),
            ),
        ];
        match &*self.generation.borrow() {
            Generation::Modern => {
                headers.push(("mcp-protocol-version".into(), MODERN.into()));
                let method = message
                    .get("method")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                headers.push(("mcp-method".into(), method.into()));
                let name = match method {
                    "tools/call" | "prompts/get" => message.pointer("/params/name"),
                    "resources/read" => message.pointer("/params/uri"),
                    _ => None,
                };
                if let Some(name) = name.and_then(Value::as_str) {
                    headers.push(("mcp-name".into(), header_value(name)));
                }
            }
            Generation::Legacy {
                version,
                session_id,
            } => {
                // The header exists from 2025-06-18; `initialize` itself goes without.
                let initializing = message.get("method") == Some(&json!("initialize"));
                let before_header = ["2024-11-05", "2025-03-26"].contains(&version.as_str());
                if !before_header && !initializing {
                    headers.push(("mcp-protocol-version".into(), version.clone()));
                }
                if let Some(id) = session_id {
                    headers.push(("mcp-session-id".into(), id.clone()));
                }
            }
        }
        for (name, value) in &self.headers {
            headers.push((name.clone(), value.expose().to_string()));
        }
        // The old HTTP+SSE transport takes messages at its endpoint.
        let url = match &*self.legacy_sse.borrow() {
            Some(sse) => sse.endpoint().to_string(),
            None => self.url.clone(),
        };
        HttpRequest {
            url,
            headers,
            body: message.to_string(),
        }
    }

    /// Reads the answer to request `id`: a JSON body, or an SSE stream whose
    /// notifications are skipped and whose server requests are declined.
    async fn read_reply(&self, response: HttpResponse, id: u64) -> Result<Reply, Failure> {
        let status = response.status;
        let session_id = response.header("mcp-session-id").map(str::to_string);
        let content_type = response
            .header("content-type")
            .unwrap_or_default()
            .to_ascii_lowercase();
        if !(200..300).contains(&status) {
            return Err(error_from_body(status, &read_all(response).await?));
        }
        let want = json!(id);
        let mut declined = Vec::new();
        if content_type.starts_with("text/event-stream") {
            let mut parser = SseParser::new();
            if let Some(outcome) = self
                .read_events(response.body, &mut parser, &want, &mut declined)
                .await?
            {
                return finish(outcome, status, session_id, declined);
            }
            // The server closed the stream without the answer. When it gave
            // an event id, it means the client to come back for the rest
            // (2025-11-25 "SSE polling"): wait its `retry`, then GET with
            // `Last-Event-ID`.
            let mut reconnects = 0;
            while let Some(last_id) = parser.last_event_id().map(str::to_string) {
                if reconnects == MAX_RECONNECTS {
                    return Err(Failure::Unreadable(format!(
                        "the SSE stream ended without the answer to request {id}, and so did each of {reconnects} reconnects (GET with Last-Event-ID: {last_id})"
                    )));
                }
                reconnects += 1;
                let wait = parser
                    .retry_ms()
                    .unwrap_or(DEFAULT_RETRY_MS)
                    .min(MAX_RETRY_MS);
                self.transport.sleep(wait).await;
                let resumed = self
                    .transport
                    .get(self.stream_request(Some(&last_id)))
                    .await
                    .map_err(|e| {
                        Failure::Unreachable(format!(
                            "the SSE stream ended without the answer to request {id}, and reconnect {reconnects} (GET with Last-Event-ID: {last_id}) got no answer: {e}"
                        ))
                    })?;
                let resumed_status = resumed.status;
                let resumed_type = resumed
                    .header("content-type")
                    .unwrap_or_default()
                    .to_ascii_lowercase();
                if !(200..300).contains(&resumed_status)
                    || !resumed_type.starts_with("text/event-stream")
                {
                    let body = read_all(resumed).await.unwrap_or_default();
                    let why = error_from_body(resumed_status, &body);
                    return Err(Failure::Unreadable(format!(
                        "the SSE stream ended without the answer to request {id}, and reconnect {reconnects} (GET with Last-Event-ID: {last_id}) was answered with {why}{}",
                        if resumed_type.is_empty() || resumed_type.starts_with("text/event-stream") {
                            String::new()
                        } else {
                            format!(" ({resumed_type}, not an SSE stream)")
                        }
                    )));
                }
                if let Some(outcome) = self
                    .read_events(resumed.body, &mut parser, &want, &mut declined)
                    .await?
                {
                    return finish(outcome, status, session_id, declined);
                }
            }
            return Err(Failure::Unreadable(format!(
                "the SSE stream ended without the answer to request {id}{}",
                if reconnects == 0 {
                    " (and gave no event id to resume it from)"
                } else {
                    ""
                }
            )));
        }
        let bytes = read_all(response).await?;
        let message: Value = serde_json::from_slice(&bytes).map_err(|e| {
            Failure::Unreadable(format!(
                "the answer ({}) is not JSON ({e}): {}",
                if content_type.is_empty() {
                    "no content-type"
                } else {
                    &content_type
                },
                clip(&String::from_utf8_lossy(&bytes), 200)
            ))
        })?;
        match jsonrpc::read(&message) {
            Some(Incoming::Response { id, outcome }) if id == want || id.is_null() => {
                finish(outcome, status, session_id, declined)
            }
            _ => Err(Failure::Unreadable(format!(
                "the answer is not the JSON-RPC response to request {id}: {}",
                clip(&message.to_string(), 200)
            ))),
        }
    }

    /// Reads one SSE stream until the response to `want` (its outcome) or
    /// the end of the stream (`None`). `parser` carries the last event id
    /// and `retry` across reconnects.
    async fn read_events(
        &self,
        mut body: futures::stream::LocalBoxStream<'static, Result<Vec<u8>, String>>,
        parser: &mut SseParser,
        want: &Value,
        declined: &mut Vec<String>,
    ) -> Result<Option<Result<Value, RpcError>>, Failure> {
        while let Some(chunk) = body.next().await {
            let chunk = chunk
                .map_err(|e| Failure::Unreachable(format!("the SSE stream broke off: {e}")))?;
            for event in parser.push(&chunk) {
                if event.data.trim().is_empty() {
                    continue; // a priming event, or a keep-alive
                }
                let message: Value = serde_json::from_str(&event.data).map_err(|e| {
                    Failure::Unreadable(format!(
                        "an SSE event is not JSON ({e}): {}",
                        clip(&event.data, 200)
                    ))
                })?;
                match jsonrpc::read(&message) {
                    Some(Incoming::Response { id, outcome }) if &id == want => {
                        return Ok(Some(outcome));
                    }
                    Some(Incoming::Request { id, method }) => {
                        self.decline(&id, &method).await;
                        declined.push(method);
                    }
                    _ => {}
                }
            }
        }
        Ok(None)
    }

    /// A GET for an SSE stream with this generation's headers (protocol
    /// version, session id, the scenario's own), SSE only: with the last
    /// event id seen, it resumes a closed stream; without, it opens the
    /// session's standalone stream.
    pub(crate) fn stream_request(&self, last_event_id: Option<&str>) -> HttpRequest {
        let mut request = self.http_request(&json!({}));
        request.headers.retain(|(name, _)| {
            !matches!(
                name.to_ascii_lowercase().as_str(),
                "content-type" | "accept" | "mcp-method" | "mcp-name" | "last-event-id"
            )
        });
        request
            .headers
            .insert(0, ("accept".into(), "text/event-stream".into()));
        if let Some(last_event_id) = last_event_id {
            request
                .headers
                .insert(1, ("last-event-id".into(), last_event_id.into()));
        }
        request.body = String::new();
        request
    }

    /// Answers a server's own request at once: this client offers no
    /// sampling, elicitation or roots, and leaving the request unanswered
    /// would hang the call that is waiting on it. Elicitation is answered
    /// with the result the spec gives for it, `{"action": "decline"}`
    /// (`ElicitResult`'s actions are accept, decline and cancel:
    /// https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation);
    /// the others with an error.
    pub(crate) async fn decline(&self, id: &Value, method: &str) {
        let message = if method == ELICITATION {
            jsonrpc::result(id, json!({"action": "decline"}))
        } else {
            jsonrpc::error(
                id,
                jsonrpc::METHOD_NOT_FOUND,
                &format!("agent-loop does not offer {method} to servers"),
                None,
            )
        };
        self.declined.borrow_mut().push(method.to_string());
        let _ = self.transport.post(self.http_request(&message)).await;
    }
}

fn finish(
    outcome: Result<Value, RpcError>,
    status: u16,
    session_id: Option<String>,
    declined: Vec<String>,
) -> Result<Reply, Failure> {
    match outcome {
        Ok(result) => Ok(Reply {
            result,
            session_id,
            declined,
        }),
        Err(error) => Err(Failure::Rpc { status, error }),
    }
}

fn declined_note(declined: &[String]) -> String {
    format!(
        "(the server asked this client for {}, which agent-loop does not offer: it declined)",
        declined.join(", ")
    )
}

/// Sends `notifications/cancelled` to a legacy server when a call's future
/// is dropped before its answer came (the 2026 generation reads the closed
/// stream instead).
struct CancelOnDrop {
    session: Rc<Session>,
    id: u64,
    armed: bool,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if !self.armed || self.session.generation() == Generation::Modern {
            return;
        }
        let message = jsonrpc::notification(
            "notifications/cancelled",
            json!({"requestId": self.id, "reason": "the agent loop stopped waiting (tool timeout, deadline or Stop)"}),
        );
        let post = self
            .session
            .transport
            .post(self.session.http_request(&message));
        self.session.transport.spawn(Box::pin(async move {
            let _ = post.await;
        }));
    }
}

/// A header value as the spec carries it: plain when it is visible ASCII
/// without edge spaces, else the Base64 sentinel form.
pub fn header_value(value: &str) -> String {
    let plain = value.bytes().all(|b| (0x20..=0x7e).contains(&b))
        && value.trim() == value
        && !(value.starts_with("=?base64?") && value.ends_with("?="));
    if plain {
        value.to_string()
    } else {
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(value)
        )
    }
}

/// Reads a header value written by [`header_value`].
pub fn decode_header_value(value: &str) -> Option<String> {
    match value
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    {
        Some(encoded) => base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok()),
        None => Some(value.to_string()),
    }
}

async fn read_all(response: HttpResponse) -> Result<Vec<u8>, Failure> {
    let mut body = response.body;
    let mut bytes = Vec::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| Failure::Unreachable(format!("the body broke off: {e}")))?;
        bytes.extend_from_slice(&chunk);
        if bytes.len() > MAX_BODY_BYTES {
            return Err(Failure::Unreadable(format!(
                "the answer is larger than {} MB",
                MAX_BODY_BYTES / 1024 / 1024
            )));
        }
    }
    Ok(bytes)
}

fn error_from_body(status: u16, bytes: &[u8]) -> Failure {
    let text = String::from_utf8_lossy(bytes).into_owned();
    match serde_json::from_str::<Value>(&text)
        .ok()
        .as_ref()
        .and_then(jsonrpc::read)
    {
        Some(Incoming::Response {
            outcome: Err(error),
            ..
        }) => Failure::Rpc { status, error },
        _ => Failure::Http { status, body: text },
    }
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn clip(text: &str, max: usize) -> String {
    crate::tool::clip(text.trim(), max)
}

#[cfg(test)]
mod tests {
    use super::{decode_header_value, header_value};

    #[test]
    fn names_outside_plain_ascii_use_the_base64_sentinel() {
        assert_eq!(header_value("get_weather"), "get_weather");
        assert_eq!(
            header_value("Hello, 世界"),
            "=?base64?SGVsbG8sIOS4lueVjA==?="
        );
        assert_eq!(header_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(
            header_value("=?base64?literal?="),
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
        );
        assert_eq!(
            decode_header_value("=?base64?IHBhZGRlZCA=?=").as_deref(),
            Some(" padded ")
        );
    }
}
