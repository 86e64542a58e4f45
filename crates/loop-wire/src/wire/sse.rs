//! Server-Sent Events, both ends: a byte-level splitter for the clients, and
//! the event text and fragments for the encoders.
//!
//! Job: [`SseParser`] turns the raw bytes of an HTTP response body, delivered
//! in chunks of any size, into complete SSE events (`event:` name and joined
//! `data:` lines), as the WHATWG "event stream interpretation" describes.
//! `event_text` writes one event; [`fragments`] cuts a text into the pieces a
//! stream sends it in.
//!
//! Invariants (the splitter):
//! - Bytes are decoded only once a whole line has arrived. Line terminators
//!   (`\n`, `\r`, `\r\n`) are ASCII, and ASCII bytes never occur inside a
//!   multi-byte UTF-8 sequence, so splitting at them first and decoding after
//!   can never cut a character in half. A chunk boundary inside "é" or "日本"
//!   therefore decodes exactly as if the body had arrived in one piece.
//!   Decoding per chunk would turn such a split into two U+FFFD characters.
//! - A `\r` at the end of one chunk followed by `\n` at the start of the next
//!   is one line ending, not two.
//! - Invalid UTF-8 becomes U+FFFD (as the spec says); nothing here panics.
//! - An event is only dispatched at its blank line. An event cut off by the end
//!   of the stream is never dispatched (the spec discards it); `pending` tells
//!   the caller what was lost so a truncation can be reported.

/// One dispatched event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, when the server named the event.
    pub event: Option<String>,
    /// The `data:` lines joined with `\n`.
    pub data: String,
}

#[derive(Debug, Default)]
pub struct SseParser {
    /// Bytes of the current, unfinished line.
    line: Vec<u8>,
    /// The previous chunk ended in `\r`: a `\n` starting this chunk belongs to it.
    skip_lf: bool,
    /// Whether the byte-order mark check has been done (only the stream's first bytes).
    started: bool,
    event: Option<String>,
    data: String,
    has_data: bool,
    /// The last `id:` field seen (for `Last-Event-ID` when reconnecting).
    last_event_id: Option<String>,
    /// The last valid `retry:` field, in milliseconds.
    retry_ms: Option<u64>,
}

impl SseParser {
    pub fn new() -> Self {
        SseParser::default()
    }

    /// The last event id the stream gave (an `id:` field), if any.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref().filter(|id| !id.is_empty())
    }

    /// The reconnection time the stream asked for (a `retry:` field), if any.
    pub fn retry_ms(&self) -> Option<u64> {
        self.retry_ms
    }

    /// Feeds a chunk of bytes; returns the events it completed, in order.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        for &byte in chunk {
            if self.skip_lf {
                self.skip_lf = false;
                if byte == b'\n' {
                    continue;
                }
            }
            match byte {
                b'\n' => self.end_line(&mut out),
                b'\r' => {
                    self.end_line(&mut out);
                    self.skip_lf = true;
                }
                _ => self.line.push(byte),
            }
        }
        out
    }

    /// What an unfinished event holds at the end of the stream (the spec
    /// discards it); `None` when nothing was pending.
    pub fn pending(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.has_data {
            parts.push(format!("data {:?}", self.data));
        }
        if !self.line.is_empty() {
            parts.push(format!(
                "an unterminated line {:?}",
                String::from_utf8_lossy(&self.line)
            ));
        }
        (!parts.is_empty()).then(|| parts.join(" and "))
    }

    fn end_line(&mut self, out: &mut Vec<SseEvent>) {
        let bytes = std::mem::take(&mut self.line);
        let mut text = String::from_utf8_lossy(&bytes).into_owned();
        if !self.started {
            self.started = true;
            if let Some(rest) = text.strip_prefix('\u{feff}') {
                text = rest.to_string();
            }
        }
        if text.is_empty() {
            self.dispatch(out);
            return;
        }
        if text.starts_with(':') {
            return; // a comment, e.g. a keep-alive
        }
        let (field, value) = match text.find(':') {
            Some(at) => {
                let value = &text[at + 1..];
                (&text[..at], value.strip_prefix(' ').unwrap_or(value))
            }
            None => (text.as_str(), ""),
        };
        match field {
            "event" => self.event = Some(value.to_string()),
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            // `id` and `retry` only matter for reconnecting (an MCP client
            // resumes a stream; a model call never does). An id with NUL is
            // ignored and a retry must be all digits, as the spec says.
            "id" if !value.contains('\0') => self.last_event_id = Some(value.to_string()),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                self.retry_ms = value.parse().ok().or(Some(u64::MAX));
            }
            // Unknown fields are ignored, as the spec says.
            _ => {}
        }
    }

    fn dispatch(&mut self, out: &mut Vec<SseEvent>) {
        let event = self.event.take();
        if !std::mem::take(&mut self.has_data) {
            return;
        }
        out.push(SseEvent {
            event,
            data: std::mem::take(&mut self.data),
        });
    }
}

/// How many fragments the encoders cut streamed text and arguments into:
/// more than one, as real servers send them, so a client that parses a
/// fragment on its own is caught.
pub(crate) const PIECES: usize = 3;

/// One event as a server writes it: its `event:` line when named, its one
/// `data:` line, and the blank line that dispatches it.
pub(crate) fn event_text(name: Option<&str>, data: &serde_json::Value) -> String {
    match name {
        Some(name) => format!("event: {name}\ndata: {data}\n\n"),
        None => format!("data: {data}\n\n"),
    }
}

/// Splits `text` into at most `pieces` fragments at character boundaries
/// (never inside a UTF-8 character: each fragment must be valid JSON text).
/// Empty text is one empty fragment.
pub fn fragments(text: &str, pieces: usize) -> Vec<&str> {
    let chars = text.chars().count();
    if chars == 0 {
        return vec![text];
    }
    let step = chars.div_ceil(pieces.max(1));
    let mut out = Vec::new();
    let mut start = 0;
    for (n, (at, _)) in text.char_indices().enumerate() {
        if n > 0 && n % step == 0 {
            out.push(&text[start..at]);
            start = at;
        }
    }
    out.push(&text[start..]);
    out
}
