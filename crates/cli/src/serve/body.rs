//! Reading a request's body within the size limit. Past the limit the rest
//! is read and thrown away (up to a bound) before the 413 goes out: a socket
//! closed with unread data in it is reset, and the reset reaches the client
//! before it has read the 413, which it then never sees.

use std::time::Duration;

use bytes::{Bytes, BytesMut};
use http_body_util::BodyExt;
use hyper::body::Incoming;

/// Larger bodies are refused (413) without being kept.
pub const MAX_BODY_BYTES: usize = 32 * 1024 * 1024;

/// How much of a too-large body is read and dropped so that its sender
/// reads the 413; a sender of more is cut off (and may see a reset).
const DRAINED_BYTES: usize = 2 * MAX_BODY_BYTES;

/// How long draining may take: a slow sender does not hold the connection.
const DRAIN_TIME: Duration = Duration::from_secs(10);

/// How long a request's headers, and then its body, may take to arrive: a
/// client that stops sending mid-request does not hold its place for ever.
pub const READ_TIME: Duration = Duration::from_secs(10);

/// Why a body was not read.
pub enum BodyError {
    /// More than [`MAX_BODY_BYTES`].
    TooLarge,
    /// The connection failed mid-body, in plain words.
    Unreadable(String),
    /// Not all there within [`READ_TIME`].
    TooSlow,
}

impl BodyError {
    /// The HTTP status refusing the request, and why in plain words.
    pub fn refusal(&self) -> (hyper::StatusCode, String) {
        use hyper::StatusCode;
        match self {
            BodyError::TooLarge => (
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the request body is larger than {MAX_BODY_BYTES} bytes"),
            ),
            BodyError::Unreadable(why) => (
                StatusCode::BAD_REQUEST,
                format!("the request body could not be read: {why}"),
            ),
            BodyError::TooSlow => (
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body did not arrive within {} s",
                    READ_TIME.as_secs()
                ),
            ),
        }
    }
}

/// The whole body, if it is no larger than [`MAX_BODY_BYTES`] and arrives
/// within [`READ_TIME`].
pub async fn read(mut body: Incoming) -> Result<Bytes, BodyError> {
    match tokio::time::timeout(READ_TIME, read_within_limit(&mut body)).await {
        Err(_) => Err(BodyError::TooSlow),
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(Stop::PastLimit(read_past_limit))) => {
            let _ = tokio::time::timeout(DRAIN_TIME, drain(body, read_past_limit)).await;
            Err(BodyError::TooLarge)
        }
        Ok(Err(Stop::Failed(why))) => Err(BodyError::Unreadable(why)),
    }
}

/// Why reading stopped short of the body's end.
enum Stop {
    /// Past [`MAX_BODY_BYTES`], with how many bytes were read.
    PastLimit(usize),
    /// The connection failed, in words.
    Failed(String),
}

async fn read_within_limit(body: &mut Incoming) -> Result<Bytes, Stop> {
    let mut kept = BytesMut::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| Stop::Failed(e.to_string()))?;
        let Ok(data) = frame.into_data() else {
            continue; // Trailers: nothing to keep.
        };
        if kept.len() + data.len() > MAX_BODY_BYTES {
            return Err(Stop::PastLimit(kept.len() + data.len()));
        }
        kept.extend_from_slice(&data);
        // A large body arrives faster than it is read: without a pause the
        // serving thread would read it all before any other connection's turn.
        tokio::task::yield_now().await;
    }
    Ok(kept.freeze())
}

/// Reads and drops the rest of `body`, up to [`DRAINED_BYTES`].
async fn drain(mut body: Incoming, mut dropped: usize) {
    while dropped <= DRAINED_BYTES {
        match body.frame().await {
            Some(Ok(frame)) => dropped += frame.data_ref().map_or(0, Bytes::len),
            _ => return,
        }
    }
}
