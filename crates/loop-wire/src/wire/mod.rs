//! Wire formats: the harness's provider-neutral history translated to and from
//! the JSON that Anthropic Messages, OpenAI Chat Completions and OpenAI
//! Responses speak, an offline checker for each provider's protocol rules,
//! and the server side (a response as each provider sends it).
//!
//! Grouped by provider, as genai groups its adapters: everything about one
//! format lives in its directory, and the files at this level hold only what
//! the three share.
//!
//! - `mod.rs` (this file): [`Provider`], which dispatches to the formats
//!   (their name, URL path, base URL, headers, request bodies, response
//!   parsers and stream assemblers); the shared types [`WireRequest`],
//!   [`WireHistory`], [`Meta`] and `Origin`; `arguments_text`; and the small
//!   JSON readers the parsers share.
//! - `anthropic/`, `openai_chat/`, `openai_responses/`: one directory per
//!   format, each with the same four files:
//!   - `mod.rs`: the format's facts (name, path, base URL, headers) and its
//!     request and response JSON: `request_body` (history → the exact
//!     request body), `parse_request` (request body → history, so a wire view
//!     can be checked and round-tripped) and `parse_response` (a non-streaming
//!     response body → [`ModelResponse`]). Its docs say what the format cannot
//!     carry.
//!   - `stream.rs`: its `StreamAssembler` (SSE bytes → [`ModelResponse`]).
//!   - `encode.rs`: the server side: a response as the provider sends it,
//!     whole and as SSE events, its error body, and its stop-reason words.
//!   - `check.rs`: the provider's protocol rules, which the checker runs on
//!     the request body. Where each wire message came from in the history
//!     is Anthropic's `check::origins` (one to one); the OpenAI formats'
//!     `request_body_and_origins` says it while building the body, since
//!     they move things.
//! - [`openai`]: what the two OpenAI formats share: the host and base URL,
//!   the `authorization` header, and the error body.
//! - [`check`](mod@check): the checker's driver (`check`, `check_body`): it builds the
//!   body and runs the provider's rules on it.
//! - [`verdict`]: what the checker reports ([`Rule`], [`Violation`]) and the
//!   list the provider rules add their findings to.
//! - `place`: places in plain words ("the 4th message (user), its 2nd block,
//!   a tool_result"), the one phrasing of the checker's explanations, of
//!   [`Violation::place`] and of [`Rejection::place`].
//! - [`encode`]: the encoders' driver (`response_body`, `stream_events`,
//!   `error_body`, `stop_reason`), which `agent-loop serve` answers with.
//! - [`tool_choice`](mod@tool_choice): `tool_choice` in each format's words,
//!   both ways, with the documentation behind each.
//! - [`sse`]: Server-Sent Events both ways: the byte-level splitter the
//!   assemblers share, and the event text and fragments the encoders write.
//! - [`history`]: [`history_from_trace`], the history a run sent, rebuilt
//!   from its trace.
//! - [`replayed`]: a run's model requests rebuilt from its trace
//!   ([`request_at_turn`], [`replayed_requests`]) with the [`RequestShape`]
//!   (system prompt, tools) the trace does not carry.
//!
//! Imports go one way: a format's files use this file and the shared leaves
//! (`sse`, `verdict`); only the drivers (`check`, `encode`) and this file's
//! dispatch reach into the formats; no format uses another.
//!
//! Invariants:
//! - Everything here is pure: no IO, no clock, no `std::fs`, so it runs in wasm.
//! - Provider bytes are untrusted: every parser returns a [`ModelError`]
//!   (kind `invalid_response`) for anything it cannot use, and never panics.
//! - Assistant content is sent back as the model produced it, thinking blocks
//!   included (seed 001), wherever the format can carry it. Where it cannot,
//!   the format's docs say what is dropped.
//! - A stream that ends early is a [`ModelError`] (kind `network`: the
//!   connection broke, so it may be retried) whose message says what had been
//!   received, never a silently shortened response.

pub mod anthropic;
pub mod body_error;
pub mod check;
pub mod encode;
pub mod history;
pub mod openai;
pub mod openai_chat;
pub mod openai_responses;
mod place;
pub mod recognise;
pub mod rejections;
pub mod replayed;
pub mod sse;
pub mod tool_choice;
pub mod verdict;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::message::{Message, ToolCall};
use crate::model::{ModelError, ModelErrorKind, ModelRequest, ModelResponse, ToolSpec};
use crate::tool_choice::ToolChoice;

pub use body_error::BodyError;
pub use check::{check, check_body, check_request, check_with_thinking, Thinking};
pub use history::{history_from_trace, thinking_of_trace};
pub use rejections::{rejections, run_violations, Rejection};
pub use replayed::{replayed_requests, request_at_turn, ReplayedRequest, RequestShape};
pub use verdict::{Rule, Violation};

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
            Provider::Anthropic => anthropic::LABEL,
            Provider::OpenaiChat => openai_chat::LABEL,
            Provider::OpenaiResponses => openai_responses::LABEL,
        }
    }

    /// The request's path below the base URL (`/v1/messages`): where a
    /// client posts, and the route `agent-loop serve` answers on.
    pub fn path(self) -> &'static str {
        match self {
            Provider::Anthropic => anthropic::PATH,
            Provider::OpenaiChat => openai_chat::PATH,
            Provider::OpenaiResponses => openai_responses::PATH,
        }
    }

    /// The field the official API refuses `body` without (HTTP 400), in
    /// its own words, checked before anything else in the body is read.
    pub fn missing_field(self, body: &Value) -> Option<&'static str> {
        match self {
            Provider::Anthropic => anthropic::missing_field(body),
            Provider::OpenaiChat | Provider::OpenaiResponses => openai::missing_field(body),
        }
    }

    /// The cap on output tokens `body` asks for, under this format's key.
    pub fn max_output_tokens(self, body: &Value) -> Option<u64> {
        let keys = match self {
            Provider::Anthropic => anthropic::MAX_OUTPUT_KEYS,
            Provider::OpenaiChat => openai_chat::MAX_OUTPUT_KEYS,
            Provider::OpenaiResponses => openai_responses::MAX_OUTPUT_KEYS,
        };
        keys.iter()
            .find_map(|key| body.get(*key).and_then(Value::as_u64))
    }

    /// The API whose response body `body` is, if any (a JSON body as saved
    /// from a provider's answer).
    pub fn of_response_body(body: &Value) -> Option<Provider> {
        [
            (Provider::Anthropic, anthropic::is_response_body(body)),
            (Provider::OpenaiChat, openai_chat::is_response_body(body)),
            (
                Provider::OpenaiResponses,
                openai_responses::is_response_body(body),
            ),
        ]
        .into_iter()
        .find_map(|(provider, is)| is.then_some(provider))
    }

    /// The API whose request body `body` is, with the reason in words; or
    /// why it is none (see `recognise`).
    pub fn of_request_body(body: &Value) -> Result<(Provider, String), BodyError> {
        recognise::request_body(body)
    }

    /// The API whose SSE stream `text` is, if any (`data:` lines as saved).
    /// Chat's mark is the loosest (any `"choices"`), so it is asked last.
    pub fn of_stream(text: &str) -> Option<Provider> {
        [
            (Provider::Anthropic, anthropic::is_stream(text)),
            (Provider::OpenaiResponses, openai_responses::is_stream(text)),
            (Provider::OpenaiChat, openai_chat::is_stream(text)),
        ]
        .into_iter()
        .find_map(|(provider, is)| is.then_some(provider))
    }

    /// The top-level keys a record keeps of this format's request body.
    pub fn kept_keys(self) -> &'static [&'static str] {
        match self {
            Provider::Anthropic => anthropic::KEPT_KEYS,
            Provider::OpenaiChat => openai_chat::KEPT_KEYS,
            Provider::OpenaiResponses => openai_responses::KEPT_KEYS,
        }
    }

    /// The key of a request body's conversation, and the content kinds in
    /// it a record keeps.
    pub fn conversation(self) -> (&'static str, &'static [&'static str]) {
        match self {
            Provider::Anthropic => anthropic::CONVERSATION,
            Provider::OpenaiChat => openai_chat::CONVERSATION,
            Provider::OpenaiResponses => openai_responses::CONVERSATION,
        }
    }

    /// Whether a record keeps a conversation item of `kind` (only
    /// Responses' `input` has typed items).
    pub fn keeps_item(self, kind: &str) -> bool {
        match self {
            Provider::OpenaiResponses => openai_responses::KEPT_ITEMS.contains(&kind),
            Provider::Anthropic | Provider::OpenaiChat => true,
        }
    }

    /// Whether `tool`, as declared in a request body, is one the client
    /// runs rather than a server tool the provider runs.
    pub fn is_client_tool(self, tool: &Value) -> bool {
        match self {
            Provider::Anthropic => anthropic::is_client_tool(tool),
            Provider::OpenaiChat | Provider::OpenaiResponses => openai::is_client_tool(tool),
        }
    }

    /// The official API's base URL.
    pub fn default_base_url(self) -> &'static str {
        match self {
            Provider::Anthropic => anthropic::BASE_URL,
            Provider::OpenaiChat | Provider::OpenaiResponses => openai::BASE_URL,
        }
    }

    /// The headers a request carries besides `content-type`: the API
    /// version where the provider wants one, and the key (`None`: no key
    /// header at all) in the header the provider reads it from.
    pub fn headers(self, key: Option<&str>) -> Vec<(String, String)> {
        match self {
            Provider::Anthropic => anthropic::headers(key),
            Provider::OpenaiChat | Provider::OpenaiResponses => openai::headers(key),
        }
    }

    pub fn request_body(self, request: &WireRequest<'_>) -> Value {
        match self {
            Provider::Anthropic => anthropic::request_body(request),
            Provider::OpenaiChat => openai_chat::request_body(request),
            Provider::OpenaiResponses => openai_responses::request_body(request),
        }
    }

    pub fn parse_request(self, body: &Value) -> Result<WireHistory, BodyError> {
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
    /// Sent in the format's words, and left out for `auto` (see `tool_choice`).
    pub tool_choice: &'a ToolChoice,
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
            tool_choice: request.tool_choice,
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
    pub tool_choice: ToolChoice,
}

/// What an encoded response carries besides its content.
#[derive(Clone, Copy, Debug)]
pub struct Meta<'a> {
    /// The model name echoed back (the request's `model`).
    pub model: &'a str,
    /// Makes the response's and its items' ids (`msg_…`, `chatcmpl-…`,
    /// `resp_…`, `fc_…`) unique per response.
    pub id_seed: u64,
    /// Seconds since the Unix epoch, for `created` / `created_at`.
    pub created: u64,
}

/// Where a wire message or item came from in the harness history: the message
/// index and the block indices its parts came from, in wire order (Anthropic:
/// every block; Chat assistant: the tool calls; otherwise the one block).
/// A format's request builder makes them; the checker maps its findings back
/// through them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Origin {
    pub message: usize,
    pub blocks: Vec<usize>,
}

/// The argument text as the model sent it: raw when it was not JSON. The
/// OpenAI formats carry arguments as a string, and every streamed encoder
/// sends this text, so malformed arguments arrive as they were.
pub(crate) fn arguments_text(call: &ToolCall) -> String {
    match &call.input_raw {
        Some(raw) => raw.clone(),
        None => call.input.to_string(),
    }
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

pub(crate) fn str_at<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

/// The elements of a JSON array, or none when it is missing or not an array.
pub(crate) fn array(value: Option<&Value>) -> &[Value] {
    value.and_then(Value::as_array).map_or(&[], Vec::as_slice)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_official_base_url_is_its_host_over_https() {
        assert_eq!(anthropic::BASE_URL, format!("https://{}", anthropic::HOST));
        assert_eq!(openai::BASE_URL, format!("https://{}", openai::HOST));
    }

    #[test]
    fn each_format_names_the_field_its_api_requires_and_reads_its_own_cap() {
        let bare = serde_json::json!({"messages": []});
        assert_eq!(
            Provider::Anthropic.missing_field(&bare),
            Some("model: Field required")
        );
        assert_eq!(
            Provider::OpenaiResponses.missing_field(&bare),
            Some("you must provide a model parameter")
        );
        let named = serde_json::json!({"model": "m", "max_output_tokens": 9, "max_tokens": 7});
        assert_eq!(Provider::Anthropic.missing_field(&named), None);
        assert_eq!(Provider::OpenaiChat.missing_field(&named), None);
        let no_cap = serde_json::json!({"model": "m"});
        assert_eq!(
            Provider::Anthropic.missing_field(&no_cap),
            Some("max_tokens: Field required")
        );
        assert_eq!(Provider::Anthropic.max_output_tokens(&named), Some(7));
        assert_eq!(Provider::OpenaiChat.max_output_tokens(&named), Some(7));
        assert_eq!(Provider::OpenaiResponses.max_output_tokens(&named), Some(9));
        assert_eq!(Provider::OpenaiChat.max_output_tokens(&no_cap), None);
    }
}
