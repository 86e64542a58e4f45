//! The native HTTP client for the command line: `run --provider` (a hosted
//! API over https, a local OpenAI-compatible server, `agent-loop serve`) and
//! MCP servers (`agent-loop mcp`, a scenario's `mcp_servers`).
//!
//! It is `reqwest` with rustls, not connection code of our own, so that it
//! behaves as every other client does: origin-form request lines
//! (`POST /v1/chat/completions HTTP/1.1`, which servers that route on the
//! path, such as uvicorn/Starlette, need), https with the system's roots or
//! the file `SSL_CERT_FILE` names, and the proxy in `HTTPS_PROXY` /
//! `HTTP_PROXY` / `ALL_PROXY` unless `NO_PROXY` names the host. Loopback
//! hosts (`127.0.0.1`, `::1`, `localhost`) are always reached directly, as
//! Go's `ProxyFromEnvironment` does: a proxy cannot reach this machine's
//! own `agent-loop serve` or local model server, and a CI machine with a
//! proxy set would otherwise send every local test there.

use std::time::Duration;

use futures::future::LocalBoxFuture;
use futures::StreamExt;
use harness::mcp::transport::McpTransport;
use harness::provider::{HttpRequest, HttpResponse, Transport};

/// How long a connection (TCP and TLS) may take before the request fails.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a response may go without a byte: a model that thinks for a
/// while before streaming, or a slow tool call, stays well inside it; a
/// server that hangs does not hold the run until its deadline.
pub const READ_TIMEOUT: Duration = Duration::from_secs(120);

/// A client and its connection pool: the provider's requests in a run, or
/// an MCP server's, reuse one connection to the same host.
#[derive(Clone)]
pub struct NativeHttp {
    /// A client that cannot be built (no readable CA certificates) fails
    /// each request with the reason, as an unreachable server would, rather
    /// than the commands that never send one.
    client: Result<reqwest::Client, String>,
    /// The same, with no proxy: for loopback hosts.
    direct: Result<reqwest::Client, String>,
}

impl NativeHttp {
    pub fn new() -> Self {
        let builder = || {
            reqwest::Client::builder()
                .connect_timeout(CONNECT_TIMEOUT)
                .read_timeout(READ_TIMEOUT)
                .user_agent(concat!("agent-loop/", env!("CARGO_PKG_VERSION")))
        };
        let built = |builder: reqwest::ClientBuilder| {
            builder
                .build()
                .map_err(|err| format!("cannot set up the HTTP client: {}", describe(err)))
        };
        NativeHttp {
            client: built(builder()),
            direct: built(builder().no_proxy()),
        }
    }

    /// The client for `url`: without a proxy for a loopback host.
    fn for_url(&self, url: &str) -> Result<reqwest::Client, String> {
        let loopback = reqwest::Url::parse(url).is_ok_and(|url| {
            let host = url.host_str().unwrap_or_default();
            let bare = host.trim_start_matches('[').trim_end_matches(']');
            match bare.parse::<std::net::IpAddr>() {
                Ok(ip) => ip.is_loopback(),
                Err(_) => host.eq_ignore_ascii_case("localhost") || host.ends_with(".localhost"),
            }
        });
        if loopback {
            self.direct.clone()
        } else {
            self.client.clone()
        }
    }
}

impl Default for NativeHttp {
    fn default() -> Self {
        Self::new()
    }
}

impl Transport for NativeHttp {
    fn send(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, String>> {
        Box::pin(send(self.for_url(&request.url), request))
    }
}

/// MCP's transport on the same client. Dropping a request's future or its
/// body closes the connection, which is how a call is aborted.
impl McpTransport for NativeHttp {
    fn post(&self, request: HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, String>> {
        Box::pin(send(self.for_url(&request.url), request))
    }

    fn get(&self, request: HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, String>> {
        Box::pin(send_as(
            reqwest::Method::GET,
            self.for_url(&request.url),
            request,
        ))
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        Box::pin(tokio::time::sleep(std::time::Duration::from_millis(ms)))
    }

    /// The CLI runs on a current-thread runtime inside a `LocalSet`
    /// (`crate::local`), so a `!Send` task can be spawned beside the run.
    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        tokio::task::spawn_local(task);
    }
}

async fn send(
    client: Result<reqwest::Client, String>,
    request: HttpRequest,
) -> Result<HttpResponse, String> {
    send_as(reqwest::Method::POST, client, request).await
}

async fn send_as(
    method: reqwest::Method,
    client: Result<reqwest::Client, String>,
    request: HttpRequest,
) -> Result<HttpResponse, String> {
    let client = client?;
    let get = method == reqwest::Method::GET;
    let url = reqwest::Url::parse(&request.url)
        .map_err(|e| format!("{:?} is not a URL: {e}", request.url))?;
    let mut headers = reqwest::header::HeaderMap::new();
    for (name, value) in &request.headers {
        // The error names the header only: its value may be the API key.
        let header_name = reqwest::header::HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| format!("{name:?} is not a valid header name"))?;
        let mut header_value = reqwest::header::HeaderValue::from_str(value)
            .map_err(|_| format!("the value of the {name} header is not valid in HTTP"))?;
        // Kept out of any debug output of the request.
        header_value.set_sensitive(is_secret(name));
        headers.append(header_name, header_value);
    }
    let mut builder = client.request(method, url).headers(headers);
    if !get {
        builder = builder.body(request.body);
    }
    let response = builder.send().await.map_err(describe)?;
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .map(|(name, value)| {
            (
                name.as_str().to_ascii_lowercase(),
                String::from_utf8_lossy(value.as_bytes()).into_owned(),
            )
        })
        .collect();
    // The body as it arrives (SSE events as the server flushes them). The
    // stream owns the response: dropping it closes the connection.
    let body = futures::stream::unfold(Some(response), |response| async move {
        let mut response = response?;
        match response.chunk().await {
            Ok(Some(bytes)) => Some((Ok(bytes.to_vec()), Some(response))),
            Ok(None) => None,
            Err(err) => Some((Err(describe(err)), None)),
        }
    })
    .boxed_local();
    Ok(HttpResponse {
        status,
        headers,
        body,
    })
}

fn is_secret(name: &str) -> bool {
    ["authorization", "x-api-key", "api-key"]
        .iter()
        .any(|secret| name.eq_ignore_ascii_case(secret))
}

/// The error and its causes on one line ("error sending request: client
/// error (Connect): invalid peer certificate: UnknownIssuer"), without the
/// URL, which the harness puts in its own message. reqwest's own text stops
/// at the outermost cause, which hides why a certificate was refused.
fn describe(err: reqwest::Error) -> String {
    let timed_out = err.is_timeout();
    let err = err.without_url();
    let mut text = err.to_string();
    let mut source = std::error::Error::source(&err);
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.ends_with(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    if timed_out {
        text.push_str(&format!(
            " (the client waits {} s to connect and {} s for each read)",
            CONNECT_TIMEOUT.as_secs(),
            READ_TIMEOUT.as_secs()
        ));
    }
    text
}
