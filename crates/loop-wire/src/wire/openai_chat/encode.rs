//! Chat Completions' server side: a [`ModelResponse`] as the API sends it,
//! whole (`chat.completion`) or as SSE chunks in its own order, and its
//! stop-reason words. The error body is OpenAI's (`wire/openai.rs`).
//!
//! What does not round-trip: the text blocks are one `content` string
//! (joined with a newline); thinking is not sent, as OpenAI sends none: its
//! response message has `role`, `content`, `refusal`, `tool_calls`,
//! `annotations`, `audio` and the deprecated `function_call`
//! (<https://platform.openai.com/docs/api-reference/chat/object>), and a
//! reasoning model's reasoning stays hidden
//! (<https://platform.openai.com/docs/guides/reasoning>). The
//! `reasoning_content` that DeepSeek
//! (<https://api-docs.deepseek.com/guides/reasoning_model>) and vLLM add is
//! theirs, so it is read (see `mod.rs`) but never written. Blocks come back
//! as text, then tool calls.

use serde_json::{json, Map, Value};

use crate::message::{ContentBlock, ToolCall};
use crate::model::{ModelResponse, StopKind};
use crate::wire::sse::{event_text, fragments, PIECES};
use crate::wire::{arguments_text, Meta};

/// Chat's word for the harness's stop reason; a word with no Chat
/// translation is sent as it is.
pub(crate) fn stop_reason(reason: &str) -> String {
    let word = match StopKind::classify(reason) {
        StopKind::EndTurn => "stop",
        StopKind::ToolUse => "tool_calls",
        StopKind::MaxTokens => "length",
        StopKind::Refusal => "content_filter",
        // Chat has no word for a full context window ("length" would read
        // back as the output cap): the harness's own word is sent.
        StopKind::PauseTurn | StopKind::ContextWindowExceeded | StopKind::Unknown => reason,
    };
    word.to_string()
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

fn completion_id(meta: &Meta<'_>) -> String {
    format!("chatcmpl-scripted{:06}", meta.id_seed)
}

fn usage(response: &ModelResponse) -> Value {
    json!({
        "prompt_tokens": response.usage.input_tokens,
        "completion_tokens": response.usage.output_tokens,
        "total_tokens": response.usage.total(),
    })
}

/// The whole (non-streamed) response body: one `chat.completion`.
pub(crate) fn body(response: &ModelResponse, meta: &Meta<'_>) -> Value {
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
        "id": completion_id(meta),
        "object": "chat.completion",
        "created": meta.created,
        "model": meta.model,
        "choices": [{
            "index": 0,
            "message": Value::Object(message),
            "logprobs": null,
            "finish_reason": stop_reason(&response.stop_reason),
        }],
        "usage": usage(response),
    })
}

/// The streamed response: `chat.completion.chunk`s (the role, the text,
/// each call's fragments, the `finish_reason`), the usage chunk, then
/// `data: [DONE]`.
pub(crate) fn events(response: &ModelResponse, meta: &Meta<'_>) -> Vec<String> {
    let id = completion_id(meta);
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
    out.push(event_text(
        None,
        &delta(json!({"role": "assistant", "content": first_content, "refusal": null})),
    ));
    if !texts.is_empty() {
        let text = texts.join("\n");
        for piece in fragments(&text, PIECES)
            .into_iter()
            .filter(|p| !p.is_empty())
        {
            out.push(event_text(None, &delta(json!({"content": piece}))));
        }
    }
    for (index, call) in calls(response).enumerate() {
        // The first fragment of a call names it; the rest carry only
        // argument text, keyed by `index`.
        out.push(event_text(
            None,
            &delta(
                json!({"tool_calls": [{"index": index, "id": call.id, "type": "function",
                                           "function": {"name": call.name, "arguments": ""}}]}),
            ),
        ));
        for piece in fragments(&arguments_text(call), PIECES) {
            out.push(event_text(
                None,
                &delta(json!({"tool_calls": [{"index": index,
                                               "function": {"arguments": piece}}]})),
            ));
        }
    }
    out.push(event_text(
        None,
        &chunk(json!([{"index": 0, "delta": {}, "logprobs": null,
                       "finish_reason": stop_reason(&response.stop_reason)}])),
    ));
    // The usage chunk (what `stream_options.include_usage` asks for): no choices.
    let mut usage_chunk = chunk(json!([]));
    usage_chunk["usage"] = usage(response);
    out.push(event_text(None, &usage_chunk));
    out.push("data: [DONE]\n\n".to_string());
    out
}
