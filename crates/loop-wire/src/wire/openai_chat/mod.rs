//! OpenAI Chat Completions (`POST /v1/chat/completions`).
//!
//! Job: the format's facts (name, path), history → request body, request
//! body → history, response body → [`ModelResponse`]. Beside it:
//! `stream.rs` (SSE stream → [`ModelResponse`]), `encode.rs` (the server
//! side) and `check.rs` (Chat's protocol rules). What it shares with
//! Responses (host, key header, error body) is in `wire/openai.rs`.
//!
//! Mapping and its limits:
//! - The system prompt is `messages[0]` (role `system`) when not empty, so a
//!   wire index is the harness index shifted, and a harness user message that
//!   carries tool results becomes one `tool` message per result. The checker
//!   maps wire indices back to harness messages.
//! - Blocks keep their order: text blocks in a user message become `user`
//!   messages where they stand, so text placed before results stays before them
//!   on the wire (and the checker reports it).
//! - Thinking blocks are dropped: Chat Completions has no field to send
//!   reasoning back in. `reasoning_content`, which compatible servers add
//!   and OpenAI does not send (DeepSeek:
//!   <https://api-docs.deepseek.com/guides/reasoning_model>; vLLM), is read
//!   into a thinking block without a signature; it is never written.
//! - `is_error` does not exist here: the result text carries the error (a
//!   denial's text says it was denied). A round trip gives `is_error: false`.
//! - A tool message holds only text: a result's media (an MCP tool's images,
//!   audio, files) are not sent, and a line per part tells the model what it
//!   did not get. A round trip keeps those lines as text and no media.
//! - `arguments` is a string, so argument text that was not JSON (`input_raw`)
//!   goes out verbatim and round-trips exactly.
//! - An assistant's text blocks: one becomes `content: "…"`, several become an
//!   array of text parts, none becomes `content: null`. Text interleaved with
//!   tool calls loses its position (calls always follow the text).
//! - `max_completion_tokens` is sent (`max_tokens` is deprecated for this API).

pub(super) mod check;
pub(super) mod encode;
mod stream;

use serde_json::{json, Map, Value};

use crate::message::{ContentBlock, Message, Role, ToolCall, ToolResult};
use crate::model::{ModelError, ModelResponse, ToolSpec, Usage};
use crate::wire::{
    arguments_text, error_body, invalid, str_at, u64_at, Origin, WireHistory, WireRequest,
};
use crate::wire::{tool_choice, BodyError, Provider};

pub use stream::StreamAssembler;

/// The format's name as people say it.
pub const LABEL: &str = "OpenAI Chat Completions";
/// Where requests go, below the base URL.
pub const PATH: &str = "/v1/chat/completions";
/// The keys a request's cap on output tokens goes under: the current one,
/// then the one it deprecated, which the API still reads.
pub const MAX_OUTPUT_KEYS: &[&str] = &["max_completion_tokens", "max_tokens"];

/// The top-level keys a record keeps of a request body; an import names
/// the others as not kept.
pub const KEPT_KEYS: &[&str] = &[
    "model",
    "messages",
    "tools",
    "tool_choice",
    "max_tokens",
    "max_completion_tokens",
    "stream",
];

/// The key of a request body's conversation, and the content parts in it
/// a record keeps.
pub const CONVERSATION: (&str, &[&str]) = ("messages", &["text"]);

/// A response body of this API: a chat completion, or anything with
/// `choices`.
pub fn is_response_body(body: &Value) -> bool {
    body["object"] == "chat.completion" || body.get("choices").is_some()
}

/// A saved SSE stream of this API: chunks with `choices`.
pub fn is_stream(text: &str) -> bool {
    text.contains("chat.completion.chunk") || text.contains("\"choices\"")
}

pub fn request_body(request: &WireRequest<'_>) -> Value {
    request_body_and_origins(request).0
}

/// The request body, and where each of its wire messages came from in the
/// history: built together, so the checker builds the body only once.
pub(super) fn request_body_and_origins(request: &WireRequest<'_>) -> (Value, Vec<Option<Origin>>) {
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    let (messages, origins): (Vec<Value>, Vec<Option<Origin>>) =
        wire_messages(request.system, request.messages)
            .into_iter()
            .unzip();
    body.insert("messages".into(), Value::Array(messages));
    if !request.tools.is_empty() {
        body.insert(
            "tools".into(),
            Value::Array(
                request
                    .tools
                    .iter()
                    .map(|t| {
                        json!({"type": "function", "function": {
                            "name": t.name, "description": t.description, "parameters": t.input_schema}})
                    })
                    .collect(),
            ),
        );
    }
    if let Some(choice) = tool_choice::encode(
        Provider::OpenaiChat,
        request.tool_choice,
        !request.tools.is_empty(),
    ) {
        body.insert("tool_choice".into(), choice);
    }
    body.insert(
        "max_completion_tokens".into(),
        json!(request.max_output_tokens),
    );
    if request.stream {
        body.insert("stream".into(), json!(true));
        // Without this the stream carries no token counts.
        body.insert("stream_options".into(), json!({"include_usage": true}));
    }
    (Value::Object(body), origins)
}

/// The wire messages, each with the harness message and blocks it came from
/// (`None` for the system prompt).
fn wire_messages(system: &str, messages: &[Message]) -> Vec<(Value, Option<Origin>)> {
    let mut out = Vec::new();
    if !system.is_empty() {
        out.push((json!({"role": "system", "content": system}), None));
    }
    for (m, message) in messages.iter().enumerate() {
        match message.role {
            Role::User => {
                let mut texts: Vec<(usize, &str)> = Vec::new();
                let flush = |texts: &mut Vec<(usize, &str)>, out: &mut Vec<_>| {
                    if texts.is_empty() {
                        return;
                    }
                    let blocks = texts.iter().map(|(b, _)| *b).collect();
                    let content = if texts.len() == 1 {
                        json!(texts[0].1)
                    } else {
                        Value::Array(
                            texts
                                .iter()
                                .map(|(_, t)| json!({"type": "text", "text": t}))
                                .collect(),
                        )
                    };
                    out.push((
                        json!({"role": "user", "content": content}),
                        Some(Origin { message: m, blocks }),
                    ));
                    texts.clear();
                };
                for (b, block) in message.content.iter().enumerate() {
                    match block {
                        ContentBlock::Text { text } => texts.push((b, text)),
                        ContentBlock::ToolResult(result) => {
                            flush(&mut texts, &mut out);
                            out.push((
                                json!({"role": "tool", "tool_call_id": result.tool_use_id, "content": result_text(result)}),
                                Some(Origin {
                                    message: m,
                                    blocks: vec![b],
                                }),
                            ));
                        }
                        // A user message never holds these; nothing to send.
                        ContentBlock::Thinking { .. } | ContentBlock::ToolUse(_) => {}
                    }
                }
                flush(&mut texts, &mut out);
            }
            Role::Assistant => {
                let texts: Vec<&str> = message
                    .content
                    .iter()
                    .filter_map(|b| match b {
                        ContentBlock::Text { text } => Some(text.as_str()),
                        _ => None,
                    })
                    .collect();
                let mut blocks = Vec::new();
                let mut calls = Vec::new();
                for (b, block) in message.content.iter().enumerate() {
                    if let ContentBlock::ToolUse(call) = block {
                        blocks.push(b);
                        calls.push(json!({"id": call.id, "type": "function", "function": {
                            "name": call.name, "arguments": arguments_text(call)}}));
                    }
                }
                let content = match texts.len() {
                    0 => Value::Null,
                    1 => json!(texts[0]),
                    _ => Value::Array(
                        texts
                            .iter()
                            .map(|t| json!({"type": "text", "text": t}))
                            .collect(),
                    ),
                };
                let mut wire = json!({"role": "assistant", "content": content});
                if !calls.is_empty() {
                    wire["tool_calls"] = Value::Array(calls);
                }
                out.push((wire, Some(Origin { message: m, blocks })));
            }
        }
    }
    out
}

/// A tool message holds only text (a string or text parts), so a result's
/// media cannot go with it: each is named in a line saying it was not sent.
fn result_text(result: &ToolResult) -> String {
    let mut text = result.content.clone();
    for part in &result.media {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&part.not_sent("a Chat Completions tool message", "carries only text"));
    }
    text
}

fn text_parts(content: Option<&Value>) -> Vec<String> {
    match content {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| str_at(p, "text").map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

pub fn parse_request(body: &Value) -> Result<WireHistory, BodyError> {
    let items = body
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(|| BodyError::shape("messages", "expected an array"))?;
    let mut system = Vec::new();
    let mut messages: Vec<Message> = Vec::new();
    for (n, item) in items.iter().enumerate() {
        let (role, blocks) = match str_at(item, "role") {
            Some("system" | "developer") => {
                system.extend(text_parts(item.get("content")));
                continue;
            }
            Some("user") => (
                Role::User,
                text_parts(item.get("content"))
                    .into_iter()
                    .map(|text| ContentBlock::Text { text })
                    .collect::<Vec<_>>(),
            ),
            Some("tool") => (
                Role::User,
                vec![ContentBlock::ToolResult(ToolResult {
                    tool_use_id: str_at(item, "tool_call_id").unwrap_or_default().to_string(),
                    content: text_parts(item.get("content")).join("\n"),
                    is_error: false,
                    media: Vec::new(),
                })],
            ),
            Some("assistant") => (Role::Assistant, assistant_blocks(item)),
            _ => {
                return Err(BodyError::role(
                    format!("messages[{n}].role"),
                    item.get("role"),
                    &["system", "developer", "user", "assistant", "tool"],
                ))
            }
        };
        // Consecutive user and tool messages are one harness user message.
        match messages.last_mut() {
            Some(last) if last.role == Role::User && role == Role::User => {
                last.content.extend(blocks)
            }
            _ => messages.push(Message {
                role,
                content: blocks,
            }),
        }
    }
    let tools = body
        .get("tools")
        .and_then(Value::as_array)
        .map(|tools| {
            tools
                .iter()
                .map(|t| {
                    let f = t.get("function").unwrap_or(t);
                    ToolSpec {
                        name: str_at(f, "name").unwrap_or_default().to_string(),
                        description: str_at(f, "description").unwrap_or_default().to_string(),
                        input_schema: f.get("parameters").cloned().unwrap_or(Value::Null),
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(WireHistory {
        system: system.join("\n"),
        messages,
        tools,
        tool_choice: tool_choice::decode(Provider::OpenaiChat, body),
    })
}

/// An assistant message's blocks: reasoning, text, then tool calls.
fn assistant_blocks(message: &Value) -> Vec<ContentBlock> {
    let mut blocks = Vec::new();
    if let Some(reasoning) = str_at(message, "reasoning_content").filter(|r| !r.is_empty()) {
        blocks.push(ContentBlock::Thinking {
            thinking: reasoning.to_string(),
            signature: None,
        });
    }
    for text in text_parts(message.get("content")) {
        blocks.push(ContentBlock::Text { text });
    }
    if let Some(refusal) = str_at(message, "refusal") {
        blocks.push(ContentBlock::Text {
            text: refusal.to_string(),
        });
    }
    for call in message
        .get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let f = call.get("function").unwrap_or(&Value::Null);
        let arguments = match f.get("arguments") {
            Some(Value::String(s)) => s.clone(),
            // Some compatible servers send an object instead of a string.
            Some(other) => other.to_string(),
            None => String::new(),
        };
        blocks.push(ContentBlock::ToolUse(ToolCall::from_raw_arguments(
            str_at(call, "id").unwrap_or_default().to_string(),
            str_at(f, "name").unwrap_or_default().to_string(),
            &arguments,
        )));
    }
    blocks
}

pub fn parse_response(body: &Value) -> Result<ModelResponse, ModelError> {
    if let Some(error) = error_body(body) {
        return Err(error);
    }
    let choice = body
        .pointer("/choices/0")
        .ok_or_else(|| invalid("the response has no `choices[0]`"))?;
    let message = choice
        .get("message")
        .ok_or_else(|| invalid("`choices[0]` has no `message`"))?;
    let stop_reason = str_at(choice, "finish_reason")
        .ok_or_else(|| invalid("`choices[0]` has no `finish_reason`"))?
        .to_string();
    Ok(ModelResponse {
        content: assistant_blocks(message),
        stop_reason,
        usage: usage(body),
    })
}

fn usage(body: &Value) -> Usage {
    Usage {
        input_tokens: u64_at(body, "/usage/prompt_tokens"),
        output_tokens: u64_at(body, "/usage/completion_tokens"),
    }
}
