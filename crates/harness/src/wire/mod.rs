//! Wire formats: the harness's provider-neutral history translated to and from
//! the JSON that Anthropic Messages, OpenAI Chat Completions and OpenAI
//! Responses speak, and an offline checker for each provider's protocol rules.
//!
//! - [`anthropic`], [`openai_chat`], [`openai_responses`]: one module per
//!   format, each with `request_body` (history → the exact request body),
//!   `parse_request` (request body → history, so a wire view can be checked and
//!   round-tripped), `parse_response` (a non-streaming response body →
//!   [`ModelResponse`]) and a `StreamAssembler` (SSE bytes → [`ModelResponse`]).
//! - [`sse`]: the byte-level SSE splitter the assemblers share.
//! - [`check`]: the protocol checker.
//!
//! Invariants:
//! - Everything here is pure: no IO, no clock, no `std::fs`, so it runs in wasm.
//! - Provider bytes are untrusted: every parser returns a [`ModelError`]
//!   (kind `invalid_response`) for anything it cannot use, and never panics.
//! - Assistant content is sent back as the model produced it, thinking blocks
//!   included (seed 001), wherever the format can carry it. Where it cannot,
//!   the module's docs say what is dropped.
//! - A stream that ends early is a [`ModelError`] (kind `network`: the
//!   connection broke, so it may be retried) whose message says what had been
//!   received, never a silently shortened response.

pub mod anthropic;
pub mod check;
pub mod encode;
pub mod openai_chat;
pub mod openai_responses;
pub mod sse;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::event::{EventKind, RunEvent};
use crate::message::{ContentBlock, Message, Role, ToolResult};
use crate::model::{ModelError, ModelErrorKind, ModelRequest, ModelResponse, ToolSpec};

pub use check::{check, check_body, Rule, Violation};

/// The three wire formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Provider {
    Anthropic,
    OpenaiChat,
    OpenaiResponses,
}

impl Provider {
    pub const ALL: [Provider; 3] = [
        Provider::Anthropic,
        Provider::OpenaiChat,
        Provider::OpenaiResponses,
    ];

    /// The format's name as people say it.
    pub fn label(self) -> &'static str {
        match self {
            Provider::Anthropic => "Anthropic Messages",
            Provider::OpenaiChat => "OpenAI Chat Completions",
            Provider::OpenaiResponses => "OpenAI Responses",
        }
    }

    pub fn request_body(self, request: &WireRequest<'_>) -> Value {
        match self {
            Provider::Anthropic => anthropic::request_body(request),
            Provider::OpenaiChat => openai_chat::request_body(request),
            Provider::OpenaiResponses => openai_responses::request_body(request),
        }
    }

    pub fn parse_request(self, body: &Value) -> Result<WireHistory, String> {
        match self {
            Provider::Anthropic => anthropic::parse_request(body),
            Provider::OpenaiChat => openai_chat::parse_request(body),
            Provider::OpenaiResponses => openai_responses::parse_request(body),
        }
    }

    pub fn parse_response(self, body: &Value) -> Result<ModelResponse, ModelError> {
        match self {
            Provider::Anthropic => anthropic::parse_response(body),
            Provider::OpenaiChat => openai_chat::parse_response(body),
            Provider::OpenaiResponses => openai_responses::parse_response(body),
        }
    }

    pub fn assembler(self) -> StreamAssembler {
        match self {
            Provider::Anthropic => StreamAssembler::Anthropic(Default::default()),
            Provider::OpenaiChat => StreamAssembler::OpenaiChat(Default::default()),
            Provider::OpenaiResponses => StreamAssembler::OpenaiResponses(Default::default()),
        }
    }
}

/// Everything a request body is built from. It borrows the history.
#[derive(Clone, Copy, Debug)]
pub struct WireRequest<'a> {
    pub model: &'a str,
    pub system: &'a str,
    pub messages: &'a [Message],
    pub tools: &'a [ToolSpec],
    pub max_output_tokens: u32,
    pub stream: bool,
}

impl<'a> WireRequest<'a> {
    pub fn from_model_request(model: &'a str, request: &ModelRequest<'a>, stream: bool) -> Self {
        WireRequest {
            model,
            system: request.system,
            messages: request.messages,
            tools: request.tools,
            max_output_tokens: request.max_output_tokens,
            stream,
        }
    }
}

/// A history read back from a request body.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WireHistory {
    pub system: String,
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
}

/// Any of the three streaming assemblers.
#[derive(Debug)]
pub enum StreamAssembler {
    Anthropic(anthropic::StreamAssembler),
    OpenaiChat(openai_chat::StreamAssembler),
    OpenaiResponses(openai_responses::StreamAssembler),
}

impl StreamAssembler {
    /// Feeds a chunk of the body. An error (a provider `error` event, a data
    /// line that is not JSON) ends the stream; later pushes repeat it.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), ModelError> {
        match self {
            StreamAssembler::Anthropic(a) => a.push(chunk),
            StreamAssembler::OpenaiChat(a) => a.push(chunk),
            StreamAssembler::OpenaiResponses(a) => a.push(chunk),
        }
    }

    /// The response, once the body has ended; a truncated stream is an error
    /// naming what was received.
    pub fn finish(self) -> Result<ModelResponse, ModelError> {
        match self {
            StreamAssembler::Anthropic(a) => a.finish(),
            StreamAssembler::OpenaiChat(a) => a.finish(),
            StreamAssembler::OpenaiResponses(a) => a.finish(),
        }
    }
}

/// Rebuilds the history a run had from its trace: the task, each
/// `model_response`'s content, and its `tool_result` events (consecutive
/// results form one user message, as the run builds it).
pub fn history_from_trace(events: &[RunEvent]) -> Vec<Message> {
    let mut messages: Vec<Message> = Vec::new();
    // A run with `history_mode: text_only` sent its turns back without their
    // thinking; the rebuilt history must show what was really sent.
    let mut text_only = false;
    let mut results_mode = crate::limits::ResultsMode::Correct;
    for event in events {
        match &event.kind {
            EventKind::RunStarted { task, limits, .. } => {
                text_only = limits.history_mode == crate::limits::HistoryMode::TextOnly;
                results_mode = limits.results_mode;
                messages.push(Message::user_text(task.clone()))
            }
            EventKind::ModelResponse { content, .. } => {
                let mut content = content.clone();
                if text_only {
                    content.retain(|block| !matches!(block, ContentBlock::Thinking { .. }));
                }
                messages.push(Message {
                    role: Role::Assistant,
                    content,
                })
            }
            EventKind::ToolResult {
                id,
                content,
                is_error,
                ..
            } => {
                let block = ContentBlock::ToolResult(ToolResult {
                    tool_use_id: id.clone(),
                    content: content.clone(),
                    is_error: *is_error,
                });
                match messages.last_mut() {
                    Some(last)
                        if last.role == Role::User
                            && matches!(last.content.last(), Some(ContentBlock::ToolResult(_))) =>
                    {
                        last.content.push(block)
                    }
                    _ => messages.push(Message {
                        role: Role::User,
                        content: vec![block],
                    }),
                }
            }
            _ => {}
        }
    }
    // A run whose results_mode reproduces a harness bug sent its results
    // that way; the rebuilt history shows it, so the checker can catch it.
    for message in &mut messages {
        let is_results = message.role == Role::User
            && !message.content.is_empty()
            && message
                .content
                .iter()
                .all(|b| matches!(b, ContentBlock::ToolResult(_)));
        if is_results {
            crate::message::apply_results_mode(message, results_mode);
        }
    }
    messages
}

pub(crate) fn invalid(message: impl Into<String>) -> ModelError {
    ModelError::new(ModelErrorKind::InvalidResponse, message)
}

/// A stream that ended early: the connection broke, so the kind is
/// `network` (worth a retry); the message says what had been received.
pub(crate) fn truncated(message: impl Into<String>) -> ModelError {
    ModelError::new(ModelErrorKind::Network, message)
}

/// At most `max` characters of `text`, quoted, with "…" when cut.
pub(crate) fn preview(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{:?}…", &text[..at]),
        None => format!("{text:?}"),
    }
}

pub(crate) fn u64_at(value: &Value, pointer: &str) -> u64 {
    value.pointer(pointer).and_then(Value::as_u64).unwrap_or(0)
}

/// The `tools` of a request body whose entries are flat objects (`name`,
/// `description`, and the schema under `schema_key`), as Anthropic and
/// Responses send them.
pub(crate) fn flat_tool_specs(body: &Value, schema_key: &str) -> Vec<ToolSpec> {
    body.get("tools")
        .and_then(Value::as_array)
        .map(|tools| {
            tools
                .iter()
                .map(|t| ToolSpec {
                    name: str_at(t, "name").unwrap_or_default().to_string(),
                    description: str_at(t, "description").unwrap_or_default().to_string(),
                    input_schema: t.get(schema_key).cloned().unwrap_or(Value::Null),
                })
                .collect()
        })
        .unwrap_or_default()
}

pub(crate) fn str_at<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

/// The provider's own error text from an `{"error": {...}}` body, if it is one.
pub(crate) fn error_body(body: &Value) -> Option<ModelError> {
    let error = body.get("error").filter(|e| e.is_object())?;
    let message = str_at(error, "message").unwrap_or("(no message)");
    let text = match str_at(error, "type").or_else(|| str_at(error, "code")) {
        Some(kind) => format!("{kind}: {message}"),
        None => message.to_string(),
    };
    Some(invalid(text))
}

/// Parses one SSE `data` payload as JSON, naming the event when it is not.
pub(crate) fn json_data(data: &str) -> Result<Value, ModelError> {
    serde_json::from_str(data).map_err(|e| {
        invalid(format!(
            "a stream event's data is not JSON ({e}): {}",
            preview(data, 200)
        ))
    })
}
