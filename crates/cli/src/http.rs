//! The native HTTP transport for real-provider runs from the command line:
//! plain HTTP/1.1 (a local OpenAI-compatible server, or `agent-loop serve`).
//! HTTPS is not built into the CLI; hosted providers are for the playground.

use bytes::Bytes;
use futures::future::LocalBoxFuture;
use futures::StreamExt;
use harness::mcp::transport::McpTransport;
use harness::provider::{HttpRequest, HttpResponse, Transport};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;

pub struct NativeHttp;

impl Transport for NativeHttp {
    fn send(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, String>> {
        Box::pin(send(request))
    }
}

/// MCP's transport on the same client. Dropping a request's future or its
/// body closes the connection, which is how a call is aborted.
impl McpTransport for NativeHttp {
    fn post(&self, request: HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, String>> {
        Box::pin(send(request))
    }

    /// The CLI runs on a current-thread runtime inside a `LocalSet`
    /// (`crate::local`), so a `!Send` task can be spawned beside the run.
    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        tokio::task::spawn_local(task);
    }
}

async fn send(request: HttpRequest) -> Result<HttpResponse, String> {
    let uri: hyper::Uri = request
        .url
        .parse()
        .map_err(|e| format!("{:?} is not a URL: {e}", request.url))?;
    if uri.scheme_str() != Some("http") {
        return Err(format!(
            "the command line speaks plain http only, not {}; use the playground for hosted providers",
            uri.scheme_str().unwrap_or("this scheme")
        ));
    }
    let host = uri.host().ok_or("the URL has no host")?.to_string();
    let port = uri.port_u16().unwrap_or(80);
    let stream = tokio::net::TcpStream::connect((host.as_str(), port))
        .await
        .map_err(|e| format!("cannot connect to {host}:{port}: {e}"))?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| format!("HTTP handshake with {host}:{port} failed: {e}"))?;
    // The connection runs beside the request; it ends when the body is read.
    tokio::spawn(async move {
        let _ = connection.await;
    });
    let mut builder = hyper::Request::post(&uri).header("host", format!("{host}:{port}"));
    for (name, value) in &request.headers {
        builder = builder.header(name.as_str(), value.as_str());
    }
    let http_request = builder
        .body(Full::new(Bytes::from(request.body)))
        .map_err(|e| format!("cannot build the request: {e}"))?;
    let response = sender
        .send_request(http_request)
        .await
        .map_err(|e| format!("the request to {host}:{port} failed: {e}"))?;
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
    let body = response
        .into_body()
        .into_data_stream()
        .map(|chunk| chunk.map(|bytes| bytes.to_vec()).map_err(|e| e.to_string()))
        .boxed_local();
    Ok(HttpResponse {
        status,
        headers,
        body,
    })
}
