//! What the MCP client needs from HTTP, behind a trait: the CLI implements it
//! on hyper, the page on `fetch`. Requests and responses are the provider
//! adapter's ([`HttpRequest`], [`HttpResponse`]): a POST with headers; a
//! status, headers and a body that arrives chunk by chunk (JSON, or an SSE
//! stream read as it comes).

use futures::future::LocalBoxFuture;

pub use crate::provider::{HttpRequest, HttpResponse};

pub trait McpTransport {
    /// POSTs `request`. Dropping the future (or the response's body) aborts
    /// the request and closes its stream, which the 2026 generation reads
    /// as cancellation.
    fn post(&self, request: HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, String>>;

    /// Runs `task` on its own, unawaited: the cancellation notice a legacy
    /// server is sent after the call it cancels was dropped.
    fn spawn(&self, task: LocalBoxFuture<'static, ()>);
}
