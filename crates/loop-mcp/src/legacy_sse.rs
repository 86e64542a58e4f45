//! The old HTTP+SSE transport of MCP 2024-11-05, which many deployed
//! servers and bridges still speak: the client GETs the server URL and
//! keeps that SSE stream open; its first event, `endpoint`, names the URL
//! to POST every message to (answered 202); every answer comes back on
//! the stream, matched to its request by id.
//!
//! A client that supports both transports tries Streamable HTTP first and
//! falls back to this one when its POST of `initialize` fails with 400, 404
//! or 405 (https://modelcontextprotocol.io/specification/2025-03-26/basic/transports#backwards-compatibility);
//! [`worth_trying`] says when. Transport-agnostic, as the session is: it
//! only needs [`McpTransport`]'s GET, POST and spawn.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use futures::channel::oneshot;
use futures::future::{AbortHandle, Abortable};
use futures::stream::LocalBoxStream;
use futures::StreamExt;
use serde_json::Value;

use crate::error::Failure;
use crate::jsonrpc::{self, Incoming, RpcError};
use crate::transport::{HttpRequest, McpTransport};
use crate::wire::sse::{SseEvent, SseParser};

/// The protocol version the old transport belongs to, asked for in its
/// `initialize`.
pub const VERSION: &str = "2024-11-05";

type Outcome = Result<Value, RpcError>;

/// An open HTTP+SSE connection: where to POST, and the answers awaited on
/// the stream. Dropping it closes the stream.
pub struct LegacySse {
    /// The `endpoint` event's URL, resolved against the server's URL.
    endpoint: String,
    waiting: Rc<RefCell<HashMap<String, oneshot::Sender<Outcome>>>>,
    /// Why the stream ended, once it has.
    ended: Rc<RefCell<Option<String>>>,
    reader: AbortHandle,
}

impl Drop for LegacySse {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

/// Whether a failed POST of `initialize` to `url` calls for the old
/// transport: a plain HTTP 400, 404 or 405 (not a JSON-RPC error, which an
/// MCP server of the new transport sends), or any refusal but a request for
/// credentials at a URL ending in `/sse`, the old transport's usual path.
pub fn worth_trying(url: &str, failure: &Failure) -> bool {
    let sse_path = url
        .split(['?', '#'])
        .next()
        .unwrap_or_default()
        .trim_end_matches('/')
        .ends_with("/sse");
    match failure {
        // 401 and 403 ask for credentials, which another transport would not
        // change.
        Failure::Http { status, .. } => {
            [400, 404, 405].contains(status) || (sse_path && ![401, 403].contains(status))
        }
        Failure::Unreadable(_) | Failure::Rpc { .. } => sse_path,
        Failure::Unreachable(_) => false,
    }
}

impl LegacySse {
    /// GETs `url` and waits for its `endpoint` event; the error says what
    /// the GET got instead, to follow "GET {url} ".
    pub async fn open(
        transport: &Rc<dyn McpTransport>,
        url: &str,
        headers: Vec<(String, String)>,
    ) -> Result<LegacySse, String> {
        let mut request_headers = vec![("accept".to_string(), "text/event-stream".to_string())];
        request_headers.extend(headers);
        let response = transport
            .get(HttpRequest {
                url: url.to_string(),
                headers: request_headers,
                body: String::new(),
            })
            .await
            .map_err(|e| format!("got no answer: {e}"))?;
        let content_type = response
            .header("content-type")
            .unwrap_or_default()
            .to_ascii_lowercase();
        let status = response.status;
        let mut body = response.body;
        if !(200..300).contains(&status) || !content_type.starts_with("text/event-stream") {
            let mut bytes = Vec::new();
            while let Some(Ok(chunk)) = body.next().await {
                bytes.extend_from_slice(&chunk);
                if bytes.len() > 64 * 1024 {
                    break;
                }
            }
            let failure = Failure::Http {
                status,
                body: String::from_utf8_lossy(&bytes).into_owned(),
            };
            return Err(format!("did not open an SSE stream ({failure})"));
        }
        let mut parser = SseParser::new();
        let (endpoint, early) = loop {
            let Some(chunk) = body.next().await else {
                return Err("opened an SSE stream that ended before its endpoint event".into());
            };
            let chunk = chunk.map_err(|e| format!("opened an SSE stream that broke off: {e}"))?;
            let mut events = parser.push(&chunk).into_iter();
            if let Some(found) = events
                .by_ref()
                .find(|e| e.event.as_deref() == Some("endpoint"))
            {
                break (found.data.trim().to_string(), events.collect::<Vec<_>>());
            }
        };
        let endpoint = resolve(url, &endpoint);
        let waiting = Rc::new(RefCell::new(HashMap::new()));
        let ended = Rc::new(RefCell::new(None));
        let (reader, registration) = AbortHandle::new_pair();
        let read = Reader {
            transport: transport.clone(),
            endpoint: endpoint.clone(),
            waiting: waiting.clone(),
            ended: ended.clone(),
        };
        transport.spawn(Box::pin(async move {
            let _ = Abortable::new(read.run(parser, early, body), registration).await;
        }));
        Ok(LegacySse {
            endpoint,
            waiting,
            ended,
            reader,
        })
    }

    /// Where messages are POSTed.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// POSTs `request` (already addressed to [`LegacySse::endpoint`]) and,
    /// for a request (`id`), waits for its answer on the stream.
    pub async fn send(
        &self,
        transport: &Rc<dyn McpTransport>,
        request: HttpRequest,
        id: Option<u64>,
    ) -> Result<Option<Outcome>, Failure> {
        if let Some(why) = self.ended.borrow().clone() {
            return Err(Failure::Unreachable(format!(
                "the server's SSE stream has closed ({why})"
            )));
        }
        let answer = id.map(|id| {
            let (sender, receiver) = oneshot::channel();
            self.waiting.borrow_mut().insert(id.to_string(), sender);
            receiver
        });
        let forget = || {
            if let Some(id) = id {
                self.waiting.borrow_mut().remove(&id.to_string());
            }
        };
        let response = match transport.post(request).await {
            Ok(response) => response,
            Err(e) => {
                forget();
                return Err(Failure::Unreachable(e));
            }
        };
        if !(200..300).contains(&response.status) {
            forget();
            let mut bytes = Vec::new();
            let mut body = response.body;
            while let Some(Ok(chunk)) = body.next().await {
                bytes.extend_from_slice(&chunk);
            }
            return Err(Failure::Http {
                status: response.status,
                body: String::from_utf8_lossy(&bytes).into_owned(),
            });
        }
        // The POST's own body ("Accepted") says nothing: the answer comes
        // on the stream.
        drop(response);
        let Some(answer) = answer else {
            return Ok(None);
        };
        match answer.await {
            Ok(outcome) => Ok(Some(outcome)),
            Err(_) => Err(Failure::Unreachable(format!(
                "the server's SSE stream closed before the answer ({})",
                self.ended
                    .borrow()
                    .clone()
                    .unwrap_or_else(|| "no reason given".into())
            ))),
        }
    }
}

/// Reads the stream for as long as it is open, handing each answer to the
/// request waiting for it.
struct Reader {
    transport: Rc<dyn McpTransport>,
    endpoint: String,
    waiting: Rc<RefCell<HashMap<String, oneshot::Sender<Outcome>>>>,
    ended: Rc<RefCell<Option<String>>>,
}

impl Reader {
    async fn run(
        self,
        mut parser: SseParser,
        early: Vec<SseEvent>,
        mut body: LocalBoxStream<'static, Result<Vec<u8>, String>>,
    ) {
        for event in early {
            self.take(event).await;
        }
        let why = loop {
            match body.next().await {
                Some(Ok(chunk)) => {
                    for event in parser.push(&chunk) {
                        self.take(event).await;
                    }
                }
                Some(Err(e)) => break format!("it broke off: {e}"),
                None => break "the server ended it".to_string(),
            }
        };
        *self.ended.borrow_mut() = Some(why);
        // Every request still waiting learns that no answer will come.
        self.waiting.borrow_mut().clear();
    }

    async fn take(&self, event: SseEvent) {
        if event.event.as_deref().is_some_and(|e| e != "message") {
            return;
        }
        let Ok(message) = serde_json::from_str::<Value>(&event.data) else {
            return;
        };
        match jsonrpc::read(&message) {
            Some(Incoming::Response { id, outcome }) => {
                if let Some(sender) = self.waiting.borrow_mut().remove(&id.to_string()) {
                    let _ = sender.send(outcome);
                }
            }
            // This client offers the server nothing (sampling, roots,
            // elicitation): it says so rather than leave the server waiting.
            Some(Incoming::Request { id, method }) => {
                let answer = jsonrpc::error(
                    &id,
                    jsonrpc::METHOD_NOT_FOUND,
                    &format!("agent-loop does not offer {method} to servers"),
                    None,
                );
                let _ = self
                    .transport
                    .post(HttpRequest {
                        url: self.endpoint.clone(),
                        headers: vec![("content-type".into(), "application/json".into())],
                        body: answer.to_string(),
                    })
                    .await;
            }
            _ => {}
        }
    }
}

/// `reference` (the `endpoint` event's data) as an absolute URL, read
/// against `base` as a browser would: a full URL as is, `/path` on the
/// base's origin, anything else beside the base's last path segment.
fn resolve(base: &str, reference: &str) -> String {
    if reference.starts_with("http://") || reference.starts_with("https://") {
        return reference.to_string();
    }
    let (scheme, rest) = base.split_once("://").unwrap_or(("http", base));
    if let Some(authority_relative) = reference.strip_prefix("//") {
        return format!("{scheme}://{authority_relative}");
    }
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let origin = format!("{scheme}://{}", &rest[..authority_end]);
    if reference.starts_with('/') {
        return format!("{origin}{reference}");
    }
    let path = rest[authority_end..]
        .split(['?', '#'])
        .next()
        .unwrap_or_default();
    let directory = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    let directory = if directory.is_empty() { "/" } else { directory };
    format!("{origin}{directory}{reference}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_endpoint_is_read_against_the_server_url() {
        let base = "http://127.0.0.1:8000/sse";
        assert_eq!(
            resolve(base, "/message?sessionId=abc"),
            "http://127.0.0.1:8000/message?sessionId=abc"
        );
        assert_eq!(
            resolve("http://h:1/mcp/sse?x=1", "messages/?session_id=9"),
            "http://h:1/mcp/messages/?session_id=9"
        );
        assert_eq!(resolve(base, "https://other/m"), "https://other/m");
        assert_eq!(resolve("http://h:1", "m"), "http://h:1/m");
    }

    #[test]
    fn a_plain_404_or_a_refusing_sse_url_calls_for_the_old_transport() {
        let http = |status| Failure::Http {
            status,
            body: String::new(),
        };
        assert!(worth_trying("http://h/mcp", &http(404)));
        assert!(worth_trying("http://h/mcp", &http(405)));
        assert!(!worth_trying("http://h/mcp", &http(401)));
        assert!(worth_trying("http://h/sse", &http(500)));
        assert!(worth_trying("http://h/sse/?a=b", &http(400)));
        assert!(!worth_trying("http://h/sse", &http(401)));
        assert!(!worth_trying(
            "http://h/sse",
            &Failure::Unreachable("refused".into())
        ));
    }
}
