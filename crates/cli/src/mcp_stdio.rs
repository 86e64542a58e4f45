//! The MCP session's HTTP, carried over a child process's stdio: each
//! POSTed JSON-RPC body is written as one line to the server's stdin, and
//! answered as an HTTP response would be. So the whole session (choosing
//! the protocol generation, paging `tools/list`, `tools/call`, declining
//! the server's own requests, cancelling) runs unchanged on a stdio server.
//!
//! How the answers map:
//! - a request is answered 200: with the matching response as a JSON body
//!   when it is the first thing the server writes, else as an SSE stream
//!   carrying the server's requests and notifications as they come, up to
//!   and with the response (so the session declines an elicitation while
//!   the server waits on it, as on an HTTP stream);
//! - a notification, or the client's answer to a server request, is
//!   answered 202 with no body;
//! - a JSON-RPC error is answered 200, as stdio has no status: the session
//!   then reads a method-not-found for `server/discover` as "an older
//!   server", and falls back to `initialize`, which is right for stdio
//!   servers of the 2025 generations (they refuse an unknown method);
//! - a GET (the standalone SSE stream, resuming a stream) is answered 405:
//!   stdio has one stream, and the server's messages on it reach the
//!   oldest call waiting.
//!
//! One task reads the server's stdout and hands each response to the
//! request waiting on its id, so calls made at the same time each get
//! their own answer. It runs on the runtime, not in the CLI's `LocalSet`:
//! the run's end waits on that set for cancellation notices to go out,
//! and a reader that lasts as long as its server would hold it there. A call dropped before its answer closes its "stream",
//! which the 2026-07-28 generation reads as cancellation; stdio has no
//! stream to close, so the transport sends `notifications/cancelled` for it
//! (the legacy session sends its own).

use std::sync::{Arc, Mutex};

use futures::future::LocalBoxFuture;
use futures::StreamExt;
use harness::mcp::jsonrpc::{self, Incoming};
use harness::mcp::session::MODERN;
use harness::mcp::transport::{HttpRequest, HttpResponse, McpTransport};
use serde_json::{json, Value};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio::task::JoinHandle;

use crate::stdio_server::StdioServer;

/// Where the server's messages for one waiting request go: each message,
/// or why none will come.
type Inbox = UnboundedSender<Result<Value, String>>;

/// A stdio server as the MCP session's transport.
pub struct StdioTransport {
    shared: Arc<Shared>,
    reader: Mutex<Option<JoinHandle<()>>>,
}

struct Shared {
    server: StdioServer,
    /// The requests waiting on an answer, oldest first: each id (as JSON
    /// text) with where its messages go.
    waiting: Mutex<Vec<(String, Inbox)>>,
    /// Why the server can no longer answer, once it cannot.
    ended: Mutex<Option<String>>,
}

impl StdioTransport {
    pub fn new(server: StdioServer) -> StdioTransport {
        StdioTransport {
            shared: Arc::new(Shared {
                server,
                waiting: Mutex::new(Vec::new()),
                ended: Mutex::new(None),
            }),
            reader: Mutex::new(None),
        }
    }

    /// The command as a person would type it, for messages.
    pub fn command_line(&self) -> String {
        self.shared.server.command_line()
    }

    /// Why the server can no longer answer (it exited, or wrote a line
    /// that is not JSON-RPC), once it cannot.
    pub fn ended(&self) -> Option<String> {
        self.shared.ended()
    }

    /// Starts the task that reads the server's stdout, once.
    fn start_reader(&self) {
        let mut reader = lock(&self.reader);
        if reader.is_none() {
            *reader = Some(tokio::spawn(read_stdout(self.shared.clone())));
        }
    }
}

impl Drop for StdioTransport {
    /// The reader holds the server: stopping it drops (and kills) the process.
    fn drop(&mut self) {
        if let Some(reader) = lock(&self.reader).take() {
            reader.abort();
        }
    }
}

impl McpTransport for StdioTransport {
    fn post(&self, request: HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, String>> {
        let message: Value = match serde_json::from_str(&request.body) {
            Ok(message) => message,
            Err(e) => {
                let why = format!("the client's message is not JSON ({e})");
                return Box::pin(async move { Err(why) });
            }
        };
        let shared = self.shared.clone();
        let is_request = message.get("method").is_some() && message.get("id").is_some();
        if !is_request {
            return Box::pin(async move {
                shared.send(&message).await?;
                Ok(response(
                    202,
                    "application/json",
                    futures::stream::empty().boxed_local(),
                ))
            });
        }
        self.start_reader();
        let modern = request.headers.iter().any(|(name, value)| {
            name.eq_ignore_ascii_case("mcp-protocol-version") && value == MODERN
        });
        Box::pin(ask(shared, message, modern))
    }

    fn get(&self, _request: HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, String>> {
        Box::pin(async {
            Ok(response(
                405,
                "text/plain",
                futures::stream::empty().boxed_local(),
            ))
        })
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        Box::pin(tokio::time::sleep(std::time::Duration::from_millis(ms)))
    }

    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        tokio::task::spawn_local(task);
    }
}

impl Shared {
    async fn send(&self, message: &Value) -> Result<(), String> {
        if let Some(why) = self.ended() {
            return Err(why);
        }
        self.server.send(message).await
    }

    fn ended(&self) -> Option<String> {
        lock(&self.ended).clone()
    }
}

/// The lock's value; a panic elsewhere while it was held leaves the data
/// as usable as it was (a list of waiters, a message).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Sends request `message` and answers with the server's messages up to
/// its response.
async fn ask(shared: Arc<Shared>, message: Value, modern: bool) -> Result<HttpResponse, String> {
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    let (sender, mut messages) = unbounded_channel();
    let mut pending = Pending {
        shared: shared.clone(),
        key: id.to_string(),
        id: id.clone(),
        modern,
        answered: false,
    };
    lock(&shared.waiting).push((pending.key.clone(), sender));
    if let Err(why) = shared.send(&message).await {
        pending.answered = true; // never sent: nothing to cancel
        return Err(why);
    }
    let first = match messages.recv().await {
        Some(first) => first?,
        None => return Err(shared.ended().unwrap_or_default()),
    };
    if is_response_to(&first, &id) {
        pending.answered = true;
        return Ok(response(
            200,
            "application/json",
            futures::stream::once(async move { Ok(first.to_string().into_bytes()) }).boxed_local(),
        ));
    }
    let rest = futures::stream::unfold(
        (messages, pending, false),
        |(mut messages, mut pending, done): (UnboundedReceiver<_>, Pending, bool)| async move {
            if done {
                return None;
            }
            let next = messages.recv().await?;
            let next = match next {
                Ok(next) => next,
                Err(why) => return Some((Err(why), (messages, pending, true))),
            };
            let done = is_response_to(&next, &pending.id);
            pending.answered |= done;
            Some((Ok(event(&next)), (messages, pending, done)))
        },
    );
    let body = futures::stream::once(async move { Ok(event(&first)) }).chain(rest);
    Ok(response(200, "text/event-stream", body.boxed_local()))
}

/// A request still waiting on its response: dropped, it stops waiting, and
/// a 2026-07-28 server is told it was cancelled.
struct Pending {
    shared: Arc<Shared>,
    key: String,
    id: Value,
    modern: bool,
    answered: bool,
}

impl Drop for Pending {
    fn drop(&mut self) {
        lock(&self.shared.waiting).retain(|(key, _)| *key != self.key);
        if self.answered || !self.modern || self.shared.ended().is_some() {
            return;
        }
        let cancelled = jsonrpc::notification(
            "notifications/cancelled",
            json!({"requestId": self.id, "reason": "the agent loop stopped waiting (tool timeout, deadline or Stop)"}),
        );
        let shared = self.shared.clone();
        tokio::task::spawn_local(async move {
            let _ = shared.send(&cancelled).await;
        });
    }
}

/// Reads the server's messages and hands each to the request it belongs
/// to, until the server ends; then every waiting request gets why.
async fn read_stdout(shared: Arc<Shared>) {
    loop {
        match shared.server.next_message().await {
            Ok(message) => route(&shared, message).await,
            Err(why) => {
                *lock(&shared.ended) = Some(why.clone());
                for (_, sender) in lock(&shared.waiting).drain(..) {
                    let _ = sender.send(Err(why.clone()));
                }
                return;
            }
        }
    }
}

/// A response goes to the request with its id (none waits on a cancelled
/// one's: it is dropped); the server's own requests and notifications go
/// to the oldest request waiting, whose session declines or skips them.
/// `ping` is answered here, as the spec asks of a client, and so is any
/// server request while nothing waits (declined).
async fn route(shared: &Shared, message: Value) {
    let incoming = jsonrpc::read(&message);
    match &incoming {
        Some(Incoming::Response { id, .. }) => {
            let key = id.to_string();
            if let Some((_, sender)) = lock(&shared.waiting).iter().find(|(k, _)| *k == key) {
                let _ = sender.send(Ok(message));
            }
            return;
        }
        Some(Incoming::Request { id, method }) if method == "ping" => {
            let _ = shared.server.send(&jsonrpc::result(id, json!({}))).await;
            return;
        }
        _ => {}
    }
    let oldest = lock(&shared.waiting).first().map(|(_, s)| s.clone());
    if let Some(sender) = oldest {
        let _ = sender.send(Ok(message));
        return;
    }
    if let Some(Incoming::Request { id, method }) = incoming {
        let declined = jsonrpc::error(
            &id,
            jsonrpc::METHOD_NOT_FOUND,
            &format!("agent-loop does not offer {method} to servers"),
            None,
        );
        let _ = shared.server.send(&declined).await;
    }
}

fn is_response_to(message: &Value, id: &Value) -> bool {
    matches!(jsonrpc::read(message), Some(Incoming::Response { id: answered, .. }) if &answered == id)
}

/// One message as an SSE event.
fn event(message: &Value) -> Vec<u8> {
    format!("data: {message}\n\n").into_bytes()
}

fn response(
    status: u16,
    content_type: &str,
    body: futures::stream::LocalBoxStream<'static, Result<Vec<u8>, String>>,
) -> HttpResponse {
    HttpResponse {
        status,
        headers: vec![("content-type".to_string(), content_type.to_string())],
        body,
    }
}
