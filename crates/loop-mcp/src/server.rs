//! The serving end of MCP over Streamable HTTP, without the HTTP: a
//! scenario's own tools (built-in, fixed-result, built-in-backed; their
//! stores kept across calls) answered in either generation. The CLI's
//! `serve --mcp` puts it on hyper; it decides JSON or SSE and CORS.
//!
//! A request is modern when its `_meta` names a protocol version: then the
//! `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers must match
//! the body (else 400 with `HeaderMismatch`, -32020), and no session is
//! kept. Otherwise it is legacy: `initialize` opens a session
//! (`Mcp-Session-Id`), which every later request must carry.
//!
//! A method this server does not serve is JSON-RPC's -32601 "Method not
//! found": in a legacy session with HTTP 200, since a 404 there means
//! "session gone" and sends the client to open a new one; in the 2026
//! generation with 404, as its transport requires. A request whose id is
//! null is refused (MCP forbids it), and a JSON array of messages (a batch)
//! is taken only in a 2025-03-26 session, the one version that allowed it.

use std::cell::RefCell;
use std::collections::HashMap;

use futures::future::AbortHandle;
use serde_json::{json, Value};

use super::jsonrpc::{self, Incoming};
use super::session::decode_header_value;
use super::versions::{LEGACY, MODERN};
use crate::tool::{result_text, ToolRegistry};

/// An HTTP answer to one POST, before the transport's own headers.
#[derive(Debug, PartialEq)]
pub struct Reply {
    pub status: u16,
    /// The JSON-RPC message; `None` for 202 Accepted.
    pub body: Option<Value>,
    pub headers: Vec<(&'static str, String)>,
    /// What happened, for the server's log line (never header values).
    pub note: String,
}

impl Reply {
    fn json(status: u16, body: Value, note: impl Into<String>) -> Reply {
        Reply {
            status,
            body: Some(body),
            headers: Vec::new(),
            note: note.into(),
        }
    }

    fn accepted(note: impl Into<String>) -> Reply {
        Reply {
            status: 202,
            body: None,
            headers: Vec::new(),
            note: note.into(),
        }
    }
}

pub struct McpServerCore {
    name: String,
    tools: ToolRegistry,
    /// Open legacy sessions: id, and the version `initialize` settled.
    sessions: RefCell<Vec<(String, String)>>,
    /// Makes each new session's id: unguessable (the CLI gives 128 random
    /// bits), visible ASCII as the spec requires.
    new_session_id: Box<dyn Fn() -> String>,
    /// Legacy calls in flight, by (session, request id), so that
    /// `notifications/cancelled` can stop them.
    in_flight: RefCell<HashMap<(String, String), AbortHandle>>,
}

impl McpServerCore {
    /// `new_session_id` makes the `Mcp-Session-Id` of each legacy session.
    /// The spec wants it globally unique and cryptographically secure, so
    /// the caller gives a source of random ids (the harness has none of its
    /// own: it also builds for the page).
    pub fn new(
        name: impl Into<String>,
        tools: ToolRegistry,
        new_session_id: Box<dyn Fn() -> String>,
    ) -> Self {
        McpServerCore {
            name: name.into(),
            tools,
            sessions: RefCell::new(Vec::new()),
            new_session_id,
            in_flight: RefCell::new(HashMap::new()),
        }
    }

    pub fn tool_names(&self) -> Vec<String> {
        self.tools.names()
    }

    /// Answers one POSTed body; `header(name)` reads a request header.
    pub async fn handle(&self, header: &dyn Fn(&str) -> Option<String>, body: &[u8]) -> Reply {
        match parse(body) {
            Ok(message) => self.handle_parsed(header, &message).await,
            Err(refusal) => *refusal,
        }
    }

    /// Answers a body [`parse`] read (a server may parse a large body on
    /// another thread, as this one holds tools that stay on theirs).
    pub async fn handle_parsed(
        &self,
        header: &dyn Fn(&str) -> Option<String>,
        message: &Value,
    ) -> Reply {
        match message {
            Value::Array(batch) => self.batch(header, batch).await,
            message => self.message(header, message).await,
        }
    }

    /// One JSON-RPC message (not a batch).
    async fn message(&self, header: &dyn Fn(&str) -> Option<String>, message: &Value) -> Reply {
        let Some(incoming) = jsonrpc::read(message) else {
            return Reply::json(
                400,
                jsonrpc::error(
                    &Value::Null,
                    jsonrpc::INVALID_REQUEST,
                    "not a JSON-RPC request or notification",
                    None,
                ),
                "not JSON-RPC",
            );
        };
        // Both generations: a version header this server does not speak is
        // refused (400), whatever the body says.
        if let Some(asked) = header("mcp-protocol-version") {
            if asked != MODERN && !LEGACY.contains(&asked.as_str()) {
                let id = message.get("id").cloned().unwrap_or(Value::Null);
                return unsupported_version(&id, &asked, "MCP-Protocol-Version header");
            }
        }
        // Borrowed, not copied: params may be megabytes.
        let no_params = json!({});
        let params = message.get("params").unwrap_or(&no_params);
        let meta_version = params
            .pointer("/_meta/io.modelcontextprotocol~1protocolVersion")
            .and_then(Value::as_str)
            .map(str::to_string);
        match (incoming, meta_version) {
            (Incoming::Response { .. }, _) => Reply::accepted("a client's response (ignored)"),
            // JSON-RPC answers a null id with an error whose id is null; MCP
            // forbids null ids ("Unlike base JSON-RPC, the ID MUST NOT be
            // null", https://modelcontextprotocol.io/specification/2025-06-18/basic#requests).
            (
                Incoming::Request {
                    id: Value::Null,
                    method,
                },
                _,
            ) => Reply::json(
                400,
                jsonrpc::error(
                    &Value::Null,
                    jsonrpc::INVALID_REQUEST,
                    "Invalid Request: an MCP request's id must be a string or a number, not null",
                    None,
                ),
                format!("{method}: null id refused"),
            ),
            (Incoming::Request { id, method }, Some(version)) => {
                self.modern(header, &id, &method, params, &version).await
            }
            (Incoming::Request { id, method }, None) => {
                self.legacy_request(header, &id, &method, params).await
            }
            (Incoming::Notification { method }, _) => self.notification(header, &method, params),
        }
    }

    async fn modern(
        &self,
        header: &dyn Fn(&str) -> Option<String>,
        id: &Value,
        method: &str,
        params: &Value,
        version: &str,
    ) -> Reply {
        if version != MODERN {
            return unsupported_version(id, version, method);
        }
        let mismatch = |what: String| {
            Reply::json(
                400,
                jsonrpc::error(
                    id,
                    jsonrpc::HEADER_MISMATCH,
                    &format!("Header mismatch: {what}"),
                    None,
                ),
                format!("{method}: header mismatch"),
            )
        };
        match header("mcp-protocol-version") {
            Some(v) if v == version => {}
            Some(v) => {
                return mismatch(format!(
                    "MCP-Protocol-Version {v:?} does not match _meta's {version:?}"
                ))
            }
            None => return mismatch("the MCP-Protocol-Version header is missing".into()),
        }
        match header("mcp-method") {
            Some(m) if m == method => {}
            Some(m) => {
                return mismatch(format!(
                    "Mcp-Method {m:?} does not match the body's {method:?}"
                ))
            }
            None => return mismatch("the Mcp-Method header is missing".into()),
        }
        if method == "tools/call" {
            let name = params
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            match header("mcp-name").map(|v| decode_header_value(&v)) {
                Some(Some(n)) if n == name => {}
                Some(_) => {
                    return mismatch(format!("Mcp-Name does not match the body's name {name:?}"))
                }
                None => return mismatch("the Mcp-Name header is missing".into()),
            }
        }
        let (outcome, note) = match method {
            "server/discover" => {
                let supported = supported_versions();
                (
                    Ok(json!({
                        "supportedVersions": supported,
                        "capabilities": {"tools": {}},
                        "_meta": {"io.modelcontextprotocol/serverInfo": self.server_info()},
                        "ttlMs": 0,
                        "cacheScope": "private",
                    })),
                    "server/discover".to_string(),
                )
            }
            _ => self.method(method, params).await,
        };
        match outcome {
            Ok(mut result) => {
                result["resultType"] = json!("complete");
                Reply::json(200, jsonrpc::result(id, result), note)
            }
            // "If the server does not implement the requested RPC method, it
            // MUST respond with 404 Not Found and a JSON-RPC error with code
            // -32601" (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http).
            Err((_, error)) if error["error"]["code"] == jsonrpc::METHOD_NOT_FOUND => {
                Reply::json(404, with_id(error, id), note)
            }
            Err((status, error)) => Reply::json(status, with_id(error, id), note),
        }
    }

    /// A JSON array of messages: in a 2025-03-26 session, each is answered
    /// and the answers come back as one array (202 when none is a request);
    /// 2025-06-18 removed batches, and the 2026 generation never had them
    /// (https://modelcontextprotocol.io/specification/2025-03-26/basic/transports#sending-messages-to-the-server).
    async fn batch(&self, header: &dyn Fn(&str) -> Option<String>, batch: &[Value]) -> Reply {
        let version = match self.session(header) {
            Ok(session) => self.session_version(&session),
            Err(refusal) if header("mcp-session-id").is_some() => return *refusal,
            Err(_) => None,
        };
        if version.as_deref() != Some(BATCHING_VERSION) {
            let speaks = match &version {
                Some(version) => format!("this session speaks {version}, which removed them"),
                None => "this request is in no session".to_string(),
            };
            let message = format!(
                "Invalid Request: batches (JSON arrays) are accepted only in a {BATCHING_VERSION} session; {speaks}: send one message per request"
            );
            return Reply::json(
                400,
                jsonrpc::error(&Value::Null, jsonrpc::INVALID_REQUEST, &message, None),
                "batch refused",
            );
        }
        if batch.is_empty() {
            return Reply::json(
                400,
                jsonrpc::error(
                    &Value::Null,
                    jsonrpc::INVALID_REQUEST,
                    "Invalid Request: an empty batch",
                    None,
                ),
                "empty batch",
            );
        }
        let mut answers = Vec::new();
        let mut notes = Vec::new();
        for message in batch {
            // Only requests get answers (a notification's reply has none).
            let reply = if message.get("method") == Some(&json!("initialize")) {
                Reply::json(
                    400,
                    jsonrpc::error(
                        message.get("id").unwrap_or(&Value::Null),
                        jsonrpc::INVALID_REQUEST,
                        "Invalid Request: initialize cannot be part of a batch",
                        None,
                    ),
                    "initialize in a batch refused",
                )
            } else {
                self.message(header, message).await
            };
            notes.push(reply.note);
            answers.extend(reply.body);
        }
        let note = format!("batch of {}: {}", batch.len(), notes.join("; "));
        if answers.is_empty() {
            Reply::accepted(note)
        } else {
            Reply::json(200, Value::Array(answers), note)
        }
    }

    async fn legacy_request(
        &self,
        header: &dyn Fn(&str) -> Option<String>,
        id: &Value,
        method: &str,
        params: &Value,
    ) -> Reply {
        if method == "initialize" {
            let asked = params
                .get("protocolVersion")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let version = if LEGACY.contains(&asked) {
                asked
            } else {
                LEGACY[0]
            };
            let session = (self.new_session_id)();
            self.sessions
                .borrow_mut()
                .push((session.clone(), version.to_string()));
            let mut reply = Reply::json(
                200,
                jsonrpc::result(
                    id,
                    json!({
                        "protocolVersion": version,
                        "capabilities": {"tools": {}},
                        "serverInfo": self.server_info(),
                    }),
                ),
                format!("initialize: session opened ({version})"),
            );
            reply.headers.push(("mcp-session-id", session));
            return reply;
        }
        let session = match self.session(header) {
            Ok(session) => session,
            Err(reply) => return *reply,
        };
        let key = (session, id.to_string());
        let (abort, registration) = AbortHandle::new_pair();
        self.in_flight.borrow_mut().insert(key.clone(), abort);
        let outcome =
            futures::future::Abortable::new(self.method(method, params), registration).await;
        self.in_flight.borrow_mut().remove(&key);
        match outcome {
            Ok((Ok(result), note)) => Reply::json(200, jsonrpc::result(id, result), note),
            Ok((Err((status, error)), note)) => Reply::json(status, with_id(error, id), note),
            // The client said it no longer wants the answer; it gets one it
            // will ignore, so the stream still ends.
            Err(_) => Reply::json(
                200,
                jsonrpc::error(id, -32800, "request cancelled by the client", None),
                format!("{method}: cancelled by notifications/cancelled"),
            ),
        }
    }

    /// The legacy session a request names, or the answer refusing it.
    fn session(&self, header: &dyn Fn(&str) -> Option<String>) -> Result<String, Box<Reply>> {
        match header("mcp-session-id") {
            None => Err(Box::new(Reply::json(
                400,
                jsonrpc::error(
                    &Value::Null,
                    -32000,
                    "Bad Request: no Mcp-Session-Id; send initialize first (or _meta with io.modelcontextprotocol/protocolVersion for 2026-07-28)",
                    None,
                ),
                "no session",
            ))),
            Some(session) if self.session_version(&session).is_some() => Ok(session),
            Some(_) => Err(Box::new(Reply::json(
                404,
                jsonrpc::error(&Value::Null, -32001, "Session not found; initialize again", None),
                "unknown session",
            ))),
        }
    }

    fn notification(
        &self,
        header: &dyn Fn(&str) -> Option<String>,
        method: &str,
        params: &Value,
    ) -> Reply {
        if method == "notifications/cancelled" {
            let request = params
                .get("requestId")
                .map(Value::to_string)
                .unwrap_or_default();
            let reason = params
                .get("reason")
                .and_then(Value::as_str)
                .unwrap_or("no reason given");
            if let Ok(session) = self.session(header) {
                if let Some(abort) = self
                    .in_flight
                    .borrow_mut()
                    .remove(&(session, request.clone()))
                {
                    abort.abort();
                }
            }
            return Reply::accepted(format!(
                "notifications/cancelled: request {request} ({reason})"
            ));
        }
        Reply::accepted(method.to_string())
    }

    /// DELETE: ends a legacy session.
    pub fn end_session(&self, session: &str) -> bool {
        let mut sessions = self.sessions.borrow_mut();
        let before = sessions.len();
        sessions.retain(|(s, _)| s != session);
        sessions.len() < before
    }

    /// The protocol version a legacy session's `initialize` settled, while
    /// the session is open.
    pub fn session_version(&self, session: &str) -> Option<String> {
        self.sessions
            .borrow()
            .iter()
            .find(|(s, _)| s == session)
            .map(|(_, version)| version.clone())
    }

    fn server_info(&self) -> Value {
        json!({"name": format!("agent-loop serve --mcp ({})", self.name), "version": env!("CARGO_PKG_VERSION")})
    }

    /// The methods both generations share: the result or (HTTP status,
    /// error), and a note for the log.
    async fn method(&self, method: &str, params: &Value) -> (Result<Value, (u16, Value)>, String) {
        match method {
            "ping" => (Ok(json!({})), "ping".into()),
            "tools/list" => (
                Ok(self.list()),
                format!("tools/list: {} tools", self.tools.specs().len()),
            ),
            "tools/call" => self.call(params).await,
            other => (
                Err((
                    200,
                    jsonrpc::error(
                        &Value::Null,
                        jsonrpc::METHOD_NOT_FOUND,
                        &format!("Method not found: {other}"),
                        None,
                    ),
                )),
                format!("{other}: not served"),
            ),
        }
    }

    fn list(&self) -> Value {
        let tools: Vec<Value> = self
            .tools
            .specs()
            .iter()
            .map(|spec| {
                let needs_approval = self.tools.get(&spec.name).is_some_and(|t| t.needs_approval);
                json!({
                    "name": spec.name,
                    "description": spec.description,
                    "inputSchema": spec.input_schema,
                    // Approval in the scenario is what the hint says.
                    "annotations": {"destructiveHint": needs_approval},
                })
            })
            .collect();
        json!({"tools": tools, "ttlMs": 0, "cacheScope": "private"})
    }

    async fn call(&self, params: &Value) -> (Result<Value, (u16, Value)>, String) {
        let name = params
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let args = params.get("arguments").cloned().unwrap_or(json!({}));
        let Some(tool) = self.tools.get(name) else {
            let message = format!(
                "Unknown tool {name:?}; this server has: {}",
                self.tools.names().join(", ")
            );
            return (
                Err((
                    200,
                    jsonrpc::error(&Value::Null, jsonrpc::INVALID_PARAMS, &message, None),
                )),
                format!("tools/call {name}: unknown tool"),
            );
        };
        // Invalid arguments are a result the model can read and correct.
        if let Err(rejection) = self.tools.check_args(tool, &args) {
            return (
                Ok(
                    json!({"content": [{"type": "text", "text": rejection.message}], "isError": true}),
                ),
                format!("tools/call {name}: invalid arguments"),
            );
        }
        match tool.handler.call(args).await {
            Ok(value) => {
                let mut result =
                    json!({"content": [{"type": "text", "text": result_text(&value)}]});
                if value.is_object() {
                    result["structuredContent"] = value;
                }
                (Ok(result), format!("tools/call {name}"))
            }
            Err(message) => (
                Ok(json!({"content": [{"type": "text", "text": message}], "isError": true})),
                format!("tools/call {name}: tool error"),
            ),
        }
    }
}

/// A POSTed body as JSON, or the 400 refusing it. Needs no server, so it
/// can run on any thread.
pub fn parse(body: &[u8]) -> Result<Value, Box<Reply>> {
    serde_json::from_slice(body).map_err(|e| {
        Box::new(Reply::json(
            400,
            jsonrpc::error(
                &Value::Null,
                jsonrpc::PARSE_ERROR,
                &format!("the body is not JSON: {e}"),
                None,
            ),
            "unparseable body",
        ))
    })
}

/// The one protocol version that allowed JSON-RPC batches.
const BATCHING_VERSION: &str = "2025-03-26";

/// Every version this server speaks, newest first.
pub fn supported_versions() -> Vec<String> {
    let mut supported = vec![MODERN.to_string()];
    supported.extend(LEGACY.iter().map(|v| v.to_string()));
    supported
}

/// 400 for a protocol version this server does not speak, naming those it does.
fn unsupported_version(id: &Value, version: &str, what: &str) -> Reply {
    let supported = supported_versions();
    Reply::json(
        400,
        jsonrpc::error(
            id,
            jsonrpc::UNSUPPORTED_PROTOCOL_VERSION,
            &format!(
                "Bad Request: protocol version {version:?} is not supported; this server supports {}",
                supported.join(", ")
            ),
            Some(json!({"supported": supported, "requested": version})),
        ),
        format!("{what}: unsupported version {version}"),
    )
}

fn with_id(mut error: Value, id: &Value) -> Value {
    error["id"] = id.clone();
    error
}
