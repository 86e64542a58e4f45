//! The messages between the HTTP client and the stdio server: the one
//! session the server has, each client request forwarded under an id of
//! the bridge's own (two requests from different connections may carry the
//! same id; the server must not see them clash), and each message the
//! server writes routed back: a response to the request that asked, any
//! other message (a notification, a request of the server's own) to the
//! stream of the newest request still waiting, since only a pending
//! request has an open stream to carry it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use serde_json::{json, Value};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use crate::stdio_server::StdioServer;

/// A client request waiting for the server's response.
struct Pending {
    /// The id the server saw.
    bridge_id: u64,
    /// The id the client sent, put back on the response.
    client_id: Value,
    /// Where the messages for this request go (the response last).
    out: UnboundedSender<Value>,
}

pub struct Relay {
    server: Rc<StdioServer>,
    /// The session id handed out when the client initialized; `None` before
    /// that and after a DELETE.
    session: RefCell<Option<String>>,
    next_id: Cell<u64>,
    /// Oldest first.
    pending: RefCell<Vec<Pending>>,
}

/// What the client's `Mcp-Session-Id` says against the session the bridge
/// holds.
#[derive(Debug, PartialEq)]
pub enum SessionCheck {
    /// The header names the current session.
    Current,
    /// No session (none yet, or it ended) and none named: only
    /// `initialize` may start one.
    NotStarted,
    /// A session exists, and the request does not name it.
    Missing,
    /// The header names another session (an old one, ended or replaced).
    Unknown,
}

/// Messages for one request, until its response; dropping it (the client
/// went away) tells the server the request is cancelled.
pub struct Replies {
    relay: Rc<Relay>,
    bridge_id: u64,
    messages: UnboundedReceiver<Value>,
    answered: bool,
}

impl Relay {
    pub fn new(server: Rc<StdioServer>) -> Rc<Relay> {
        Rc::new(Relay {
            server,
            session: RefCell::new(None),
            next_id: Cell::new(1),
            pending: RefCell::new(Vec::new()),
        })
    }

    pub fn command_line(&self) -> String {
        self.server.command_line()
    }

    pub fn check_session(&self, header: Option<&str>) -> SessionCheck {
        match (self.session.borrow().as_deref(), header) {
            (None, None) => SessionCheck::NotStarted,
            // A session that ended is not found (404), so the client starts
            // a new one: "the server MUST respond to requests containing
            // that session ID with HTTP 404 Not Found", and on a 404 the
            // client "MUST start a new session"
            // (https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#session-management).
            (None, Some(_)) => SessionCheck::Unknown,
            (Some(_), None) => SessionCheck::Missing,
            (Some(current), Some(named)) if current == named => SessionCheck::Current,
            (Some(_), Some(_)) => SessionCheck::Unknown,
        }
    }

    /// A new session (at `initialize`); an earlier one ends with it, as the
    /// server itself is initialized again.
    pub fn start_session(&self, id: String) {
        *self.session.borrow_mut() = Some(id);
    }

    /// Ends the session named by `header` (DELETE); false when it is not
    /// the current one.
    pub fn end_session(&self, header: Option<&str>) -> bool {
        if self.check_session(header) != SessionCheck::Current {
            return false;
        }
        *self.session.borrow_mut() = None;
        true
    }

    /// Sends the client's request `message` (it has a `method` and an `id`)
    /// to the server under an id of the bridge's; the messages for it come
    /// on the returned `Replies`.
    pub async fn request(self: &Rc<Self>, mut message: Value) -> Result<Replies, String> {
        let bridge_id = self.next_id.get();
        self.next_id.set(bridge_id + 1);
        let client_id = message["id"].take();
        message["id"] = json!(bridge_id);
        let (out, messages) = unbounded_channel();
        self.pending.borrow_mut().push(Pending {
            bridge_id,
            client_id,
            out,
        });
        let replies = Replies {
            relay: self.clone(),
            bridge_id,
            messages,
            answered: false,
        };
        self.server.send(&message).await?;
        Ok(replies)
    }

    /// Sends a notification or a response of the client's as it is.
    pub async fn forward(&self, message: &Value) -> Result<(), String> {
        self.server.send(message).await
    }

    /// Reads the server's messages and routes each until the server can no
    /// longer be read (it exited, or wrote something that is not JSON-RPC);
    /// returns why, in plain words naming the command.
    pub async fn pump(&self) -> String {
        loop {
            match self.server.next_message().await {
                Ok(message) => self.route(message),
                Err(why) => return why,
            }
        }
    }

    fn route(&self, mut message: Value) {
        let is_response = message.get("method").is_none()
            && (message.get("result").is_some() || message.get("error").is_some());
        let mut pending = self.pending.borrow_mut();
        if is_response {
            let id = message.get("id").and_then(Value::as_u64);
            match pending.iter().position(|p| Some(p.bridge_id) == id) {
                Some(at) => {
                    let waiting = pending.remove(at);
                    message["id"] = waiting.client_id;
                    let _ = waiting.out.send(message);
                }
                None => eprintln!(
                    "note: the server answered a request nobody waits for any more (id {}): dropped",
                    message.get("id").unwrap_or(&Value::Null)
                ),
            }
            return;
        }
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or("a message")
            .to_string();
        match pending.last() {
            Some(newest) => {
                let _ = newest.out.send(message);
            }
            None => eprintln!(
                "note: the server sent {method} while no request was open to carry it: dropped (this bridge offers no standalone stream)"
            ),
        }
    }

    /// A request whose client went away: forgotten, and the server told to
    /// stop working on it.
    fn abandon(self: &Rc<Self>, bridge_id: u64) {
        let removed = {
            let mut pending = self.pending.borrow_mut();
            let before = pending.len();
            pending.retain(|p| p.bridge_id != bridge_id);
            pending.len() != before
        };
        if removed {
            let relay = self.clone();
            tokio::task::spawn_local(async move {
                let cancel = json!({
                    "jsonrpc": "2.0",
                    "method": "notifications/cancelled",
                    "params": {"requestId": bridge_id, "reason": "the HTTP client closed the connection"},
                });
                let _ = relay.server.send(&cancel).await;
            });
        }
    }
}

impl Replies {
    /// The next message for this request; `None` after the response (the
    /// last) or when the server is gone.
    pub async fn next(&mut self) -> Option<Value> {
        if self.answered {
            return None;
        }
        let message = self.messages.recv().await?;
        self.answered = message.get("method").is_none();
        Some(message)
    }
}

impl Drop for Replies {
    fn drop(&mut self) {
        if !self.answered {
            self.relay.abandon(self.bridge_id);
        }
    }
}
