//! The session's standalone SSE stream, listened to while a call runs.
//!
//! A legacy (2025-03-26 … 2025-11-25) Streamable HTTP server may send its
//! own requests (elicitation, sampling, roots) not on the stream that
//! answers the call but on the stream a client opens with a GET on the MCP
//! URL; a request sent there while no client listens is never seen, and
//! the call waiting on its answer hangs. So while a call runs, the GET is
//! open, and each request that arrives on it is declined at once, as on the
//! call's own stream (`Session::decline`). A server without the stream
//! (405, or any other answer that is not SSE) is left alone: the stream is
//! optional.

use std::future::Future;

use futures::future::{select, Either};
use futures::stream::LocalBoxStream;
use futures::StreamExt;
use serde_json::Value;

use crate::jsonrpc::{self, Incoming};
use crate::session::{Generation, Session};
use crate::wire::sse::SseParser;

/// How long the server may take to open the standalone stream before the
/// call goes ahead without it.
const OPEN_WAIT_MS: u64 = 2000;

/// Runs `work` with the session's standalone stream open (legacy servers
/// only; the 2026-07-28 generation has no such stream), declining the
/// server's requests that arrive there, and gives `work`'s output. The
/// stream is opened before `work` starts: a server drops what it sends
/// there while no client listens.
pub async fn while_listening<T>(session: &Session, work: impl Future<Output = T>) -> T {
    // The old HTTP+SSE transport's one stream is already being read.
    if session.generation() == Generation::Modern || session.is_legacy_sse() {
        return work.await;
    }
    let Some(body) = open(session).await else {
        return work.await;
    };
    let listen = listen(session, body);
    futures::pin_mut!(work, listen);
    match select(work, listen).await {
        Either::Left((output, _)) => output,
        // The stream ended: the call goes on without it.
        Either::Right(((), work)) => work.await,
    }
}

/// The standalone stream's body, when the server opens one in time.
async fn open(session: &Session) -> Option<LocalBoxStream<'static, Result<Vec<u8>, String>>> {
    let get = session.transport().get(session.stream_request(None));
    let timeout = session.transport().sleep(OPEN_WAIT_MS);
    let response = match select(get, timeout).await {
        Either::Left((Ok(response), _)) => response,
        _ => return None,
    };
    let is_sse = response
        .header("content-type")
        .unwrap_or_default()
        .to_ascii_lowercase()
        .starts_with("text/event-stream");
    ((200..300).contains(&response.status) && is_sse).then_some(response.body)
}

/// Reads the standalone stream until it ends, declining each request.
async fn listen(session: &Session, mut body: LocalBoxStream<'static, Result<Vec<u8>, String>>) {
    let mut parser = SseParser::new();
    while let Some(Ok(chunk)) = body.next().await {
        for event in parser.push(&chunk) {
            let Ok(message) = serde_json::from_str::<Value>(&event.data) else {
                continue; // a priming event, a keep-alive
            };
            if let Some(Incoming::Request { id, method }) = jsonrpc::read(&message) {
                session.decline(&id, &method).await;
            }
        }
    }
}
