//! What the MCP client needs from HTTP, behind a trait: the CLI implements it
//! on hyper, the page on `fetch`. Requests and responses are the provider
//! adapter's ([`HttpRequest`], [`HttpResponse`]): a POST with headers (or a
//! GET that resumes an SSE stream); a
//! status, headers and a body that arrives chunk by chunk (JSON, or an SSE
//! stream read as it comes).

use futures::future::LocalBoxFuture;

pub use crate::provider::{HttpRequest, HttpResponse};

pub trait McpTransport {
    /// POSTs `request`. Dropping the future (or the response's body) aborts
    /// the request and closes its stream, which the 2026 generation reads
    /// as cancellation.
    fn post(&self, request: HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, String>>;

    /// GETs `request.url` with `request.headers` (the body is unused): how
    /// a client resumes an SSE stream the server closed, with
    /// `Last-Event-ID` (2025-11-25 "SSE polling").
    fn get(&self, request: HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, String>>;

    /// Waits `ms` milliseconds (the `retry` a server asks for before a
    /// client reconnects).
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()>;

    /// Runs `task` on its own, unawaited: the cancellation notice a legacy
    /// server is sent after the call it cancels was dropped.
    fn spawn(&self, task: LocalBoxFuture<'static, ()>);
}
