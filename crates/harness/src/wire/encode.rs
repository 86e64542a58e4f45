//! Response encoders: a [`ModelResponse`] as each provider's API would send
//! it, whole (a JSON body) or streamed (the SSE events, in the provider's own
//! order), and each provider's error body. This is the server side of the
//! parsers in [`super::anthropic`], [`super::openai_chat`] and
//! [`super::openai_responses`]; `agent-loop serve` answers with it, so an
//! official SDK or a browser adapter can talk to a scripted model.
//!
//! Invariants:
//! - Pure: no IO, no clock (the `created` timestamp is passed in), so it runs
//!   in wasm like the rest of `wire`.
//! - Round trip: parsing an encoded body with the provider's `parse_response`,
//!   or feeding the encoded events (split anywhere, even inside a UTF-8
//!   character) to its `StreamAssembler`, gives the response back, except for
//!   what the format cannot carry, listed here:
//!   - Anthropic, whole body: `input` must be an object, so argument text that
//!     was not JSON (`input_raw`) goes out as `{}`. Streamed, it goes out
//!     verbatim as `input_json_delta` fragments and round-trips.
//!   - Chat Completions: the text blocks are one `content` string (joined with
//!     a newline); thinking goes out as `reasoning_content` (what compatible
//!     servers send) without its signature; blocks come back as thinking,
//!     text, then tool calls.
//!   - Responses: a normal end of turn and a tool turn are both `status:
//!     completed` (a tool turn shows as `function_call` items).
//!   - Everywhere: the stop reason is translated into the provider's own word
//!     ([`stop_reason`]); a word with no translation is sent as it is, so a
//!     scripted unknown stop reason stays unknown to the client.
//! - Tool-call arguments and text are streamed in several fragments, as real
//!   servers do, so a client that parses a fragment on its own is caught.

use serde_json::{json, Map, Value};

use super::openai_chat::arguments_text;
use super::Provider;
use crate::message::{ContentBlock, ToolCall};
use crate::model::{ModelResponse, StopKind};

/// What a response carries besides its content.
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

/// The whole (non-streamed) response body.
pub fn response_body(provider: Provider, response: &ModelResponse, meta: &Meta<'_>) -> Value {
    match provider {
        Provider::Anthropic => anthropic_body(response, meta),
        Provider::OpenaiChat => chat_body(response, meta),
        Provider::OpenaiResponses => responses_body(response, meta),
    }
}

/// The streamed response: the text of each SSE event (each ends with its
/// blank line), in the order the provider sends them.
pub fn stream_events(provider: Provider, response: &ModelResponse, meta: &Meta<'_>) -> Vec<String> {
    match provider {
        Provider::Anthropic => anthropic_events(response, meta),
        Provider::OpenaiChat => chat_events(response, meta),
        Provider::OpenaiResponses => responses_events(response, meta),
    }
}

/// The provider's error body for an HTTP `status` and a message.
/// Anthropic: `{"type":"error","error":{"type","message"}}`; OpenAI (both
/// APIs): `{"error":{"message","type","param","code"}}`.
pub fn error_body(provider: Provider, status: u16, message: &str) -> Value {
    match provider {
        Provider::Anthropic => json!({
            "type": "error",
            "error": {"type": anthropic_error_type(status), "message": message},
        }),
        Provider::OpenaiChat | Provider::OpenaiResponses => {
            let (kind, code) = openai_error_type(status);
            json!({"error": {"message": message, "type": kind, "param": null, "code": code}})
        }
    }
}

/// Anthropic's `error.type` for a status, as its docs list them.
pub fn anthropic_error_type(status: u16) -> &'static str {
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

/// OpenAI's `error.type` and `error.code` for a status.
pub fn openai_error_type(status: u16) -> (&'static str, Value) {
    match status {
        401 => ("invalid_request_error", json!("invalid_api_key")),
        403 => (
            "invalid_request_error",
            json!("unsupported_country_region_territory"),
        ),
        404 => ("invalid_request_error", json!("model_not_found")),
        429 => ("requests", json!("rate_limit_exceeded")),
        400..=499 => ("invalid_request_error", Value::Null),
        _ => ("server_error", Value::Null),
    }
}

/// The provider's own word for the harness's stop reason. Words the provider
/// already uses are kept; a word with no meaning the loop knows is sent as is.
pub fn stop_reason(provider: Provider, reason: &str) -> String {
    let kind = StopKind::classify(reason);
    let word = match (provider, kind) {
        (Provider::Anthropic, StopKind::EndTurn) if reason == "stop_sequence" => reason,
        (Provider::Anthropic, StopKind::EndTurn) => "end_turn",
        (Provider::Anthropic, StopKind::ToolUse) => "tool_use",
        (Provider::Anthropic, StopKind::PauseTurn) => "pause_turn",
        (Provider::Anthropic, StopKind::MaxTokens) if reason == "model_context_window_exceeded" => {
            reason
        }
        (Provider::Anthropic, StopKind::MaxTokens) => "max_tokens",
        (Provider::Anthropic, StopKind::Refusal) => "refusal",
        (Provider::OpenaiChat, StopKind::EndTurn) => "stop",
        (Provider::OpenaiChat, StopKind::ToolUse) => "tool_calls",
        (Provider::OpenaiChat, StopKind::MaxTokens) => "length",
        (Provider::OpenaiChat, StopKind::Refusal) => "content_filter",
        (Provider::OpenaiResponses, StopKind::EndTurn | StopKind::ToolUse) => "completed",
        (Provider::OpenaiResponses, StopKind::MaxTokens) => "max_output_tokens",
        (Provider::OpenaiResponses, StopKind::Refusal) => "content_filter",
        _ => reason,
    };
    word.to_string()
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

/// How many fragments streamed text and arguments are cut into.
const PIECES: usize = 3;

fn sse(name: Option<&str>, data: &Value) -> String {
    match name {
        Some(name) => format!("event: {name}\ndata: {data}\n\n"),
        None => format!("data: {data}\n\n"),
    }
}

fn texts(response: &ModelResponse) -> Vec<&str> {
    response
        .content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn calls(response: &ModelResponse) -> impl Iterator<Item = &ToolCall> {
    response.content.iter().filter_map(|b| match b {
        ContentBlock::ToolUse(call) => Some(call),
        _ => None,
    })
}

// ---------------------------------------------------------------- Anthropic

fn anthropic_id(meta: &Meta<'_>) -> String {
    format!("msg_scripted_{:06}", meta.id_seed)
}

/// A response's block as Anthropic sends it: the same shape a request carries
/// it in (an unparseable `input` goes out as `{}`; see the module docs).
fn anthropic_block(block: &ContentBlock) -> Option<Value> {
    match block {
        // A model never answers with a tool result.
        ContentBlock::ToolResult(_) => None,
        other => Some(super::anthropic::block_json(other)),
    }
}

fn anthropic_body(response: &ModelResponse, meta: &Meta<'_>) -> Value {
    json!({
        "id": anthropic_id(meta),
        "type": "message",
        "role": "assistant",
        "model": meta.model,
        "content": response.content.iter().filter_map(anthropic_block).collect::<Vec<_>>(),
        "stop_reason": stop_reason(Provider::Anthropic, &response.stop_reason),
        "stop_sequence": null,
        "usage": {
            "input_tokens": response.usage.input_tokens,
            "output_tokens": response.usage.output_tokens,
        },
    })
}

fn anthropic_events(response: &ModelResponse, meta: &Meta<'_>) -> Vec<String> {
    let mut out = Vec::new();
    let mut event = |data: Value| {
        let name = data["type"].as_str().unwrap_or_default().to_string();
        out.push(sse(Some(&name), &data));
    };
    event(json!({"type": "message_start", "message": {
        "id": anthropic_id(meta), "type": "message", "role": "assistant", "model": meta.model,
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
                 "delta": {"stop_reason": stop_reason(Provider::Anthropic, &response.stop_reason),
                           "stop_sequence": null},
                 "usage": {"output_tokens": response.usage.output_tokens}}));
    event(json!({"type": "message_stop"}));
    out
}

// ------------------------------------------------------ OpenAI Chat Completions

fn chat_id(meta: &Meta<'_>) -> String {
    format!("chatcmpl-scripted{:06}", meta.id_seed)
}

fn thinking_text(response: &ModelResponse) -> Option<String> {
    let parts: Vec<&str> = response
        .content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Thinking { thinking, .. } => Some(thinking.as_str()),
            _ => None,
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n"))
}

fn chat_usage(response: &ModelResponse) -> Value {
    json!({
        "prompt_tokens": response.usage.input_tokens,
        "completion_tokens": response.usage.output_tokens,
        "total_tokens": response.usage.total(),
    })
}

fn chat_body(response: &ModelResponse, meta: &Meta<'_>) -> Value {
    let texts = texts(response);
    let mut message = Map::new();
    message.insert("role".into(), json!("assistant"));
    message.insert(
        "content".into(),
        if texts.is_empty() {
            Value::Null
        } else {
            json!(texts.join("\n"))
        },
    );
    message.insert("refusal".into(), Value::Null);
    if let Some(thinking) = thinking_text(response) {
        message.insert("reasoning_content".into(), json!(thinking));
    }
    let tool_calls: Vec<Value> = calls(response)
        .map(|call| {
            json!({"id": call.id, "type": "function",
                   "function": {"name": call.name, "arguments": arguments_text(call)}})
        })
        .collect();
    if !tool_calls.is_empty() {
        message.insert("tool_calls".into(), Value::Array(tool_calls));
    }
    json!({
        "id": chat_id(meta),
        "object": "chat.completion",
        "created": meta.created,
        "model": meta.model,
        "choices": [{
            "index": 0,
            "message": Value::Object(message),
            "logprobs": null,
            "finish_reason": stop_reason(Provider::OpenaiChat, &response.stop_reason),
        }],
        "usage": chat_usage(response),
    })
}

fn chat_events(response: &ModelResponse, meta: &Meta<'_>) -> Vec<String> {
    let id = chat_id(meta);
    let chunk = |choices: Value| {
        json!({"id": id, "object": "chat.completion.chunk", "created": meta.created,
               "model": meta.model, "choices": choices})
    };
    let delta = |delta: Value| {
        chunk(json!([{"index": 0, "delta": delta, "logprobs": null,
                                             "finish_reason": null}]))
    };
    let texts = texts(response);
    let mut out = Vec::new();
    // The first chunk carries the role; `content: ""` only when text follows,
    // as OpenAI does (a tool-only turn starts with `content: null`).
    let first_content = if texts.is_empty() {
        Value::Null
    } else {
        json!("")
    };
    out.push(sse(
        None,
        &delta(json!({"role": "assistant", "content": first_content, "refusal": null})),
    ));
    if let Some(thinking) = thinking_text(response) {
        for piece in fragments(&thinking, PIECES) {
            out.push(sse(None, &delta(json!({"reasoning_content": piece}))));
        }
    }
    if !texts.is_empty() {
        let text = texts.join("\n");
        for piece in fragments(&text, PIECES)
            .into_iter()
            .filter(|p| !p.is_empty())
        {
            out.push(sse(None, &delta(json!({"content": piece}))));
        }
    }
    for (index, call) in calls(response).enumerate() {
        // The first fragment of a call names it; the rest carry only
        // argument text, keyed by `index`.
        out.push(sse(
            None,
            &delta(
                json!({"tool_calls": [{"index": index, "id": call.id, "type": "function",
                                           "function": {"name": call.name, "arguments": ""}}]}),
            ),
        ));
        for piece in fragments(&arguments_text(call), PIECES) {
            out.push(sse(
                None,
                &delta(json!({"tool_calls": [{"index": index,
                                               "function": {"arguments": piece}}]})),
            ));
        }
    }
    out.push(sse(
        None,
        &chunk(json!([{"index": 0, "delta": {}, "logprobs": null,
                       "finish_reason": stop_reason(Provider::OpenaiChat, &response.stop_reason)}])),
    ));
    // The usage chunk (what `stream_options.include_usage` asks for): no choices.
    let mut usage = chunk(json!([]));
    usage["usage"] = chat_usage(response);
    out.push(sse(None, &usage));
    out.push("data: [DONE]\n\n".to_string());
    out
}

// ------------------------------------------------------------ OpenAI Responses

fn responses_id(meta: &Meta<'_>) -> String {
    format!("resp_scripted{:06}", meta.id_seed)
}

/// The output items, finished, in block order: consecutive text blocks are
/// one `message` item (a part each).
fn responses_items(response: &ModelResponse, meta: &Meta<'_>) -> Vec<Value> {
    let mut items: Vec<Value> = Vec::new();
    let mut texts: Vec<&str> = Vec::new();
    let flush = |texts: &mut Vec<&str>, items: &mut Vec<Value>| {
        if texts.is_empty() {
            return;
        }
        let parts: Vec<Value> = texts
            .iter()
            .map(|t| json!({"type": "output_text", "text": t, "annotations": []}))
            .collect();
        items.push(
            json!({"id": format!("msg_scripted{:06}_{}", meta.id_seed, items.len()),
                          "type": "message", "status": "completed", "role": "assistant",
                          "content": parts}),
        );
        texts.clear();
    };
    for block in &response.content {
        match block {
            ContentBlock::Text { text } => texts.push(text),
            ContentBlock::Thinking {
                thinking,
                signature,
            } => {
                flush(&mut texts, &mut items);
                let mut item = json!({"id": format!("rs_scripted{:06}_{}", meta.id_seed, items.len()),
                    "type": "reasoning",
                    "summary": [{"type": "summary_text", "text": thinking}]});
                if let Some(signature) = signature {
                    item["encrypted_content"] = json!(signature);
                }
                items.push(item);
            }
            ContentBlock::ToolUse(call) => {
                flush(&mut texts, &mut items);
                items.push(
                    json!({"id": format!("fc_scripted{:06}_{}", meta.id_seed, items.len()),
                    "type": "function_call", "status": "completed", "call_id": call.id,
                    "name": call.name, "arguments": arguments_text(call)}),
                );
            }
            ContentBlock::ToolResult(_) => {}
        }
    }
    flush(&mut texts, &mut items);
    items
}

/// The response object with `output` and the status the stop reason gives.
fn responses_object(response: &ModelResponse, meta: &Meta<'_>, output: Vec<Value>) -> Value {
    let word = stop_reason(Provider::OpenaiResponses, &response.stop_reason);
    let (status, incomplete) = if word == "completed" {
        ("completed", Value::Null)
    } else {
        // Anything else is `incomplete` with the word as its reason, so a
        // scripted unknown stop reason reaches the client unchanged.
        ("incomplete", json!({"reason": word}))
    };
    json!({
        "id": responses_id(meta),
        "object": "response",
        "created_at": meta.created,
        "status": status,
        "error": null,
        "incomplete_details": incomplete,
        "model": meta.model,
        "output": output,
        "parallel_tool_calls": true,
        "store": false,
        "usage": {
            "input_tokens": response.usage.input_tokens,
            "output_tokens": response.usage.output_tokens,
            "total_tokens": response.usage.total(),
        },
    })
}

/// `at` (the fields that place an event) with its `type` and `extra` fields.
fn merged(at: &Value, kind: &str, extra: Value) -> Value {
    let mut event = at.clone();
    event["type"] = json!(kind);
    if let (Some(event), Value::Object(extra)) = (event.as_object_mut(), extra) {
        event.extend(extra);
    }
    event
}

fn responses_body(response: &ModelResponse, meta: &Meta<'_>) -> Value {
    responses_object(response, meta, responses_items(response, meta))
}

fn responses_events(response: &ModelResponse, meta: &Meta<'_>) -> Vec<String> {
    let mut out = Vec::new();
    let mut sequence = 0u64;
    let mut event = |mut data: Value| {
        data["sequence_number"] = json!(sequence);
        sequence += 1;
        let name = data["type"].as_str().unwrap_or_default().to_string();
        out.push(sse(Some(&name), &data));
    };
    let finished = responses_object(response, meta, responses_items(response, meta));
    let mut started = finished.clone();
    started["status"] = json!("in_progress");
    started["incomplete_details"] = Value::Null;
    started["output"] = json!([]);
    started["usage"] = Value::Null;
    event(json!({"type": "response.created", "response": started}));
    event(json!({"type": "response.in_progress", "response": started}));
    let items = responses_items(response, meta);
    for (output_index, item) in items.iter().enumerate() {
        let item_id = item["id"].clone();
        let mut added = item.clone();
        let kind = item["type"].as_str().unwrap_or_default();
        if kind != "reasoning" {
            added["status"] = json!("in_progress");
        }
        match kind {
            "message" => added["content"] = json!([]),
            "reasoning" => added["summary"] = json!([]),
            "function_call" => added["arguments"] = json!(""),
            _ => {}
        }
        event(
            json!({"type": "response.output_item.added", "output_index": output_index,
                     "item": added}),
        );
        match kind {
            "message" => {
                let parts = item["content"].as_array().cloned().unwrap_or_default();
                for (content_index, part) in parts.iter().enumerate() {
                    let text = part["text"].as_str().unwrap_or_default();
                    let at = json!({"item_id": item_id, "output_index": output_index,
                                    "content_index": content_index});
                    let with = |kind: &str, extra: Value| merged(&at, kind, extra);
                    event(with(
                        "response.content_part.added",
                        json!({"part": {"type": "output_text", "text": "", "annotations": []}}),
                    ));
                    for piece in fragments(text, PIECES)
                        .into_iter()
                        .filter(|p| !p.is_empty())
                    {
                        event(with("response.output_text.delta", json!({"delta": piece})));
                    }
                    event(with("response.output_text.done", json!({"text": text})));
                    event(with("response.content_part.done", json!({"part": part})));
                }
            }
            "reasoning" => {
                let parts = item["summary"].as_array().cloned().unwrap_or_default();
                for (summary_index, part) in parts.iter().enumerate() {
                    let text = part["text"].as_str().unwrap_or_default();
                    let at = json!({"item_id": item_id, "output_index": output_index,
                                    "summary_index": summary_index});
                    let with = |kind: &str, extra: Value| merged(&at, kind, extra);
                    event(with(
                        "response.reasoning_summary_part.added",
                        json!({"part": {"type": "summary_text", "text": ""}}),
                    ));
                    for piece in fragments(text, PIECES)
                        .into_iter()
                        .filter(|p| !p.is_empty())
                    {
                        event(with(
                            "response.reasoning_summary_text.delta",
                            json!({"delta": piece}),
                        ));
                    }
                    event(with(
                        "response.reasoning_summary_text.done",
                        json!({"text": text}),
                    ));
                    event(with(
                        "response.reasoning_summary_part.done",
                        json!({"part": part}),
                    ));
                }
            }
            "function_call" => {
                let arguments = item["arguments"].as_str().unwrap_or_default();
                for piece in fragments(arguments, PIECES) {
                    event(json!({"type": "response.function_call_arguments.delta",
                                 "item_id": item_id, "output_index": output_index,
                                 "delta": piece}));
                }
                event(json!({"type": "response.function_call_arguments.done",
                             "item_id": item_id, "output_index": output_index,
                             "arguments": arguments}));
            }
            _ => {}
        }
        event(
            json!({"type": "response.output_item.done", "output_index": output_index,
                     "item": item}),
        );
    }
    let terminal = if finished["status"] == "completed" {
        "response.completed"
    } else {
        "response.incomplete"
    };
    event(json!({"type": terminal, "response": finished}));
    out
}
