//! The MCP client's transport in the page: `fetch`, as for providers (see
//! `fetch`), with two additions a learner needs.
//! - Every JSON-RPC exchange is told to `on_wire` as it happens: the request
//!   (headers the client sets, a scenario's own header values as
//!   `[redacted]`), then the answer's status and each chunk of its body, so
//!   an SSE stream shows as it arrives.
//! - A request that got no answer at all (the browser's network error, which
//!   is also how a CORS refusal looks to a script) is remembered per URL, so
//!   the page can explain CORS instead of repeating "Failed to fetch".

use std::cell::RefCell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use futures::StreamExt;
use gloo_net::http::Method;
use harness::mcp::config::REDACTED;
use harness::mcp::cors::CLIENT_HEADERS;
use harness::mcp::transport::McpTransport;
use harness::provider::{HttpRequest, HttpResponse};

/// One step of one exchange, numbered by exchange.
#[derive(Clone, Debug, PartialEq)]
pub enum McpWire {
    Request {
        n: u64,
        url: String,
        headers: Vec<(String, String)>,
        /// The JSON-RPC method, and for `tools/call` the tool.
        method: String,
        /// The body, pretty.
        body: String,
    },
    Answer {
        n: u64,
        status: u16,
        content_type: String,
    },
    Chunk {
        n: u64,
        text: String,
    },
    NoAnswer {
        n: u64,
        why: String,
    },
}

/// Cheap to clone: the clones share the numbering and what was unreachable.
#[derive(Clone)]
pub struct McpFetch(Rc<Shared>);

struct Shared {
    on_wire: Rc<dyn Fn(McpWire)>,
    next: std::cell::Cell<u64>,
    /// URLs a request to which got no answer at all.
    unreachable: RefCell<Vec<String>>,
}

impl McpFetch {
    pub fn new(on_wire: Rc<dyn Fn(McpWire)>) -> Self {
        McpFetch(Rc::new(Shared {
            on_wire,
            next: std::cell::Cell::new(1),
            unreachable: RefCell::new(Vec::new()),
        }))
    }

    /// Whether some request to `url` got no answer (network error or CORS).
    pub fn unreachable(&self, url: &str) -> bool {
        self.0.unreachable.borrow().iter().any(|u| u == url)
    }
}

/// A request body as the wire view shows it: its method (with the tool a
/// `tools/call` names) and the body, pretty.
fn read_request(body: &str) -> (String, String) {
    match serde_json::from_str::<serde_json::Value>(body) {
        Ok(message) => {
            let method = message
                .get("method")
                .and_then(serde_json::Value::as_str)
                .unwrap_or("(no method)");
            let method = match message
                .pointer("/params/name")
                .and_then(serde_json::Value::as_str)
            {
                Some(tool) if method == "tools/call" => format!("{method} {tool}"),
                _ => method.to_string(),
            };
            let pretty = serde_json::to_string_pretty(&message).unwrap_or_else(|_| body.into());
            (method, pretty)
        }
        Err(_) => ("(not JSON)".into(), body.into()),
    }
}

/// The headers as the page shows them: the client's own in full, a
/// scenario's own (an `Authorization` token, say) as `[redacted]`.
fn shown_headers(request: &HttpRequest) -> Vec<(String, String)> {
    request
        .headers
        .iter()
        .map(|(name, value)| {
            let name_lower = name.to_ascii_lowercase();
            let own =
                CLIENT_HEADERS.contains(&name_lower.as_str()) || name_lower == "last-event-id";
            let value = if own { value.clone() } else { REDACTED.into() };
            (name.clone(), value)
        })
        .collect()
}

impl McpTransport for McpFetch {
    fn post(&self, request: HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, String>> {
        self.exchange(Method::POST, request)
    }

    fn get(&self, request: HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, String>> {
        self.exchange(Method::GET, request)
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        harness::runtime::Runtime::sleep(&super::runtime::BrowserRuntime::new(), ms)
    }

    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        crate::browser::runner::start(task);
    }
}

impl McpFetch {
    /// One exchange (a POST, or the GET that resumes an SSE stream), told
    /// to `on_wire` as it happens.
    fn exchange(
        &self,
        verb: Method,
        request: HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HttpResponse, String>> {
        let this = self.0.clone();
        let n = this.next.get();
        this.next.set(n + 1);
        let (method, body) = if verb == Method::GET {
            let resume = request
                .headers
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case("last-event-id"))
                .map(|(_, id)| format!("GET (resume the SSE stream after event {id})"))
                .unwrap_or_else(|| "GET".into());
            (resume, String::new())
        } else {
            read_request(&request.body)
        };
        (this.on_wire)(McpWire::Request {
            n,
            url: request.url.clone(),
            headers: shown_headers(&request),
            method,
            body,
        });
        let url = request.url.clone();
        Box::pin(async move {
            match super::fetch::send_as(verb, request).await {
                Ok(response) => {
                    (this.on_wire)(McpWire::Answer {
                        n,
                        status: response.status,
                        content_type: response
                            .header("content-type")
                            .unwrap_or_default()
                            .to_string(),
                    });
                    let on_wire = this.on_wire.clone();
                    let body = response
                        .body
                        .inspect(move |chunk| {
                            if let Ok(bytes) = chunk {
                                on_wire(McpWire::Chunk {
                                    n,
                                    text: String::from_utf8_lossy(bytes).into_owned(),
                                });
                            }
                        })
                        .boxed_local();
                    Ok(HttpResponse { body, ..response })
                }
                Err(why) => {
                    (this.on_wire)(McpWire::NoAnswer {
                        n,
                        why: why.clone(),
                    });
                    this.unreachable.borrow_mut().push(url.clone());
                    Err(format!("no answer from {url} ({why})"))
                }
            }
        })
    }
}
