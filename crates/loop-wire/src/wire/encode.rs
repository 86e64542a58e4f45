//! Response encoders: a [`ModelResponse`] as each provider's API would send
//! it, whole (a JSON body) or streamed (the SSE events, in the provider's own
//! order), and each provider's error body. This is the server side of the
//! formats' parsers and assemblers; `agent-loop serve` answers with it, so an
//! official SDK or a browser adapter can talk to a scripted model.
//!
//! Job: pick the provider's encoder (`<format>/encode.rs`; the OpenAI error
//! body is `openai.rs`). Each encoder's docs list what its format cannot
//! carry.
//!
//! Invariants:
//! - Pure: no IO, no clock (the `created` timestamp is passed in), so it runs
//!   in wasm like the rest of `wire`.
//! - Round trip: parsing an encoded body with the provider's `parse_response`,
//!   or feeding the encoded events (split anywhere, even inside a UTF-8
//!   character) to its `StreamAssembler`, gives the response back, except for
//!   what the format cannot carry (Anthropic: an unparseable `input` in a
//!   whole body; Chat Completions: text joined, thinking not sent (OpenAI's
//!   own API returns none), blocks reordered; Responses: a tool turn's
//!   status).
//! - Everywhere: the stop reason is translated into the provider's own word
//!   ([`stop_reason`]); a word with no translation is sent as it is, so a
//!   scripted unknown stop reason stays unknown to the client.
//! - Tool-call arguments and text are streamed in several fragments, as real
//!   servers do, so a client that parses a fragment on its own is caught.

use serde_json::Value;

use super::{anthropic, openai, openai_chat, openai_responses, Provider};
use crate::model::ModelResponse;

pub use super::anthropic::encode::error_type as anthropic_error_type;
pub use super::openai::error_type as openai_error_type;
pub use super::sse::fragments;
pub use super::Meta;

/// The whole (non-streamed) response body.
pub fn response_body(provider: Provider, response: &ModelResponse, meta: &Meta<'_>) -> Value {
    match provider {
        Provider::Anthropic => anthropic::encode::body(response, meta),
        Provider::OpenaiChat => openai_chat::encode::body(response, meta),
        Provider::OpenaiResponses => openai_responses::encode::body(response, meta),
    }
}

/// The streamed response: the text of each SSE event (each ends with its
/// blank line), in the order the provider sends them.
pub fn stream_events(provider: Provider, response: &ModelResponse, meta: &Meta<'_>) -> Vec<String> {
    match provider {
        Provider::Anthropic => anthropic::encode::events(response, meta),
        Provider::OpenaiChat => openai_chat::encode::events(response, meta),
        Provider::OpenaiResponses => openai_responses::encode::events(response, meta),
    }
}

/// The provider's error body for an HTTP `status` and a message.
/// Anthropic: `{"type":"error","error":{"type","message"}}`; OpenAI (both
/// APIs): `{"error":{"message","type","param","code"}}`.
pub fn error_body(provider: Provider, status: u16, message: &str) -> Value {
    match provider {
        Provider::Anthropic => anthropic::encode::error_body(status, message),
        Provider::OpenaiChat | Provider::OpenaiResponses => openai::error_body(status, message),
    }
}

/// The provider's own word for the harness's stop reason. Words the provider
/// already uses are kept; a word with no meaning the loop knows is sent as is.
pub fn stop_reason(provider: Provider, reason: &str) -> String {
    match provider {
        Provider::Anthropic => anthropic::encode::stop_reason(reason),
        Provider::OpenaiChat => openai_chat::encode::stop_reason(reason),
        Provider::OpenaiResponses => openai_responses::encode::stop_reason(reason),
    }
}
