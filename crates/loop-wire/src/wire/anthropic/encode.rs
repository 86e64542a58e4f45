//! Anthropic's server side: a [`ModelResponse`] as the Messages API sends
//! it, whole or as SSE events in its own order, its error body, and its
//! stop-reason words. `agent-loop serve` answers with it (through
//! [`crate::wire::encode`]).
//!
//! What does not round-trip: in a whole body `input` must be an object, so
//! argument text that was not JSON (`input_raw`) goes out as `{}`. Streamed,
//! it goes out verbatim as `input_json_delta` fragments and round-trips.

use serde_json::{json, Value};

use crate::message::ContentBlock;
use crate::model::{ModelResponse, StopKind};
use crate::wire::sse::{event_text, fragments, PIECES};
use crate::wire::{arguments_text, Meta};

/// The error body for an HTTP `status`:
/// `{"type":"error","error":{"type","message"}}`.
pub(crate) fn error_body(status: u16, message: &str) -> Value {
    json!({
        "type": "error",
        "error": {"type": error_type(status), "message": message},
    })
}

/// Anthropic's `error.type` for a status, as its docs list them.
pub fn error_type(status: u16) -> &'static str {
    match status {
        400 => "invalid_request_error",
        401 => "authentication_error",
        402 => "billing_error",
        403 => "permission_error",
        404 => "not_found_error",
        413 => "request_too_large",
        429 => "rate_limit_error",
        504 => "timeout_error",
        529 => "overloaded_error",
        _ => "api_error",
    }
}

/// Anthropic's word for the harness's stop reason. Its own words are kept
/// (`stop_sequence` and `model_context_window_exceeded` too); a word with no
/// meaning the loop knows is sent as it is.
pub(crate) fn stop_reason(reason: &str) -> String {
    let word = match StopKind::classify(reason) {
        StopKind::EndTurn if reason == "stop_sequence" => reason,
        StopKind::EndTurn => "end_turn",
        StopKind::ToolUse => "tool_use",
        StopKind::PauseTurn => "pause_turn",
        StopKind::ContextWindowExceeded => "model_context_window_exceeded",
        StopKind::MaxTokens => "max_tokens",
        StopKind::Refusal => "refusal",
        StopKind::Unknown => reason,
    };
    word.to_string()
}

fn message_id(meta: &Meta<'_>) -> String {
    format!("msg_scripted_{:06}", meta.id_seed)
}

/// A response's block as Anthropic sends it: the same shape a request carries
/// it in (an unparseable `input` goes out as `{}`; see the module docs).
fn response_block(block: &ContentBlock) -> Option<Value> {
    match block {
        // A model never answers with a tool result.
        ContentBlock::ToolResult(_) => None,
        other => Some(super::block_json(other)),
    }
}

/// The whole (non-streamed) response body.
pub(crate) fn body(response: &ModelResponse, meta: &Meta<'_>) -> Value {
    json!({
        "id": message_id(meta),
        "type": "message",
        "role": "assistant",
        "model": meta.model,
        "content": response.content.iter().filter_map(response_block).collect::<Vec<_>>(),
        "stop_reason": stop_reason(&response.stop_reason),
        "stop_sequence": null,
        "usage": {
            "input_tokens": response.usage.input_tokens,
            "output_tokens": response.usage.output_tokens,
        },
    })
}

/// The streamed response: `message_start`, `ping`, each block's start,
/// deltas and stop, `message_delta`, `message_stop`.
pub(crate) fn events(response: &ModelResponse, meta: &Meta<'_>) -> Vec<String> {
    let mut out = Vec::new();
    let mut event = |data: Value| {
        let name = data["type"].as_str().unwrap_or_default().to_string();
        out.push(event_text(Some(&name), &data));
    };
    event(json!({"type": "message_start", "message": {
        "id": message_id(meta), "type": "message", "role": "assistant", "model": meta.model,
        "content": [], "stop_reason": null, "stop_sequence": null,
        // The real API reports a token or so of output here; the final count
        // comes in `message_delta`.
        "usage": {"input_tokens": response.usage.input_tokens, "output_tokens": 1},
    }}));
    event(json!({"type": "ping"}));
    let blocks = response
        .content
        .iter()
        .filter(|b| !matches!(b, ContentBlock::ToolResult(_)));
    for (index, block) in blocks.enumerate() {
        let delta =
            |delta: Value| json!({"type": "content_block_delta", "index": index, "delta": delta});
        match block {
            ContentBlock::Text { text } => {
                event(json!({"type": "content_block_start", "index": index,
                             "content_block": {"type": "text", "text": ""}}));
                for piece in fragments(text, PIECES)
                    .into_iter()
                    .filter(|p| !p.is_empty())
                {
                    event(delta(json!({"type": "text_delta", "text": piece})));
                }
            }
            ContentBlock::Thinking {
                thinking,
                signature,
            } => {
                event(json!({"type": "content_block_start", "index": index,
                             "content_block": {"type": "thinking", "thinking": ""}}));
                for piece in fragments(thinking, PIECES)
                    .into_iter()
                    .filter(|p| !p.is_empty())
                {
                    event(delta(json!({"type": "thinking_delta", "thinking": piece})));
                }
                if let Some(signature) = signature {
                    event(delta(
                        json!({"type": "signature_delta", "signature": signature}),
                    ));
                }
            }
            ContentBlock::ToolUse(call) => {
                event(json!({"type": "content_block_start", "index": index,
                             "content_block": {"type": "tool_use", "id": call.id,
                                               "name": call.name, "input": {}}}));
                // Streamed, the argument text goes out as the model wrote it,
                // so malformed arguments (`input_raw`) arrive as they are.
                let arguments = arguments_text(call);
                for piece in fragments(&arguments, PIECES) {
                    event(delta(
                        json!({"type": "input_json_delta", "partial_json": piece}),
                    ));
                }
            }
            ContentBlock::ToolResult(_) => continue,
        }
        event(json!({"type": "content_block_stop", "index": index}));
    }
    event(json!({"type": "message_delta",
                 "delta": {"stop_reason": stop_reason(&response.stop_reason),
                           "stop_sequence": null},
                 "usage": {"output_tokens": response.usage.output_tokens}}));
    event(json!({"type": "message_stop"}));
    out
}
