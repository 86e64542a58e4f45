//! OpenAI Responses (`POST /v1/responses`).
//!
//! Job: the format's facts (name, path), history → request body, request
//! body → history, response body → [`ModelResponse`]. Beside it:
//! `stream.rs` (SSE stream → [`ModelResponse`]), `encode.rs` (the server
//! side) and `check.rs` (Responses' protocol rules). What it shares with
//! Chat Completions (host, key header, error body) is in `wire/openai.rs`.
//!
//! Mapping and its limits:
//! - The system prompt is `instructions`; `input[N]` indexes items, not
//!   messages. A user's consecutive text blocks are one `{role: "user"}` item;
//!   each tool result is a `function_call_output` item; an assistant's
//!   consecutive text blocks are one `message` item (one `output_text` part
//!   each); each tool call is a `function_call` item; each thinking block is a
//!   `reasoning` item. Block order is kept. The checker maps items back.
//! - Thinking goes back as a `reasoning` item: the text as one `summary_text`
//!   part and the signature as `encrypted_content`. The item's `id` (`rs_…`)
//!   has no place in the harness and is not kept.
//! - There is no `is_error`: the `output` text carries the error (a denied
//!   call is still answered, with the denial as its output). A round trip
//!   gives `is_error: false`.
//! - A tool result with media (an MCP tool's images, audio, files) has an
//!   array `output`: `input_text`, an `input_image` (data URL) per
//!   PNG/JPEG/GIF/WebP image, an `input_file` per PDF; for audio and other
//!   types an `input_text` tells the model it was not sent. A result without
//!   media stays a string.
//! - `arguments` is a string: argument text that was not JSON goes out
//!   verbatim and round-trips exactly.
//! - `stop_reason` is the response `status` (`completed`, …) or, when it is
//!   `incomplete`, `incomplete_details.reason` (`max_output_tokens`,
//!   `content_filter`), the provider's own word either way. Responses has no
//!   `finish_reason`: a tool turn shows as `function_call` items.
//! - `store: false` is sent: the harness keeps the history itself and sends
//!   it whole, instead of chaining `previous_response_id`.

pub(super) mod check;
pub(super) mod encode;
mod stream;

use serde_json::{json, Map, Value};

use crate::message::{split_data_url, ContentBlock, Media, Message, Role, ToolCall, ToolResult};
use crate::model::{ModelError, ModelResponse, Usage};
use crate::wire::{
    arguments_text, error_body, flat_tool_specs, invalid, str_at, u64_at, Origin, WireHistory,
    WireRequest,
};
use crate::wire::{tool_choice, BodyError, Provider};

pub use stream::StreamAssembler;

/// The format's name as people say it.
pub const LABEL: &str = "OpenAI Responses";
/// Where requests go, below the base URL.
pub const PATH: &str = "/v1/responses";
/// The key a request's cap on output tokens goes under.
pub const MAX_OUTPUT_KEYS: &[&str] = &["max_output_tokens"];

/// The top-level keys a record keeps of a request body; an import names
/// the others as not kept.
pub const KEPT_KEYS: &[&str] = &[
    "model",
    "input",
    "instructions",
    "tools",
    "tool_choice",
    "max_output_tokens",
    "stream",
];

/// The key of a request body's conversation, and the content parts in it
/// a record keeps.
pub const CONVERSATION: (&str, &[&str]) = ("input", &["input_text", "output_text", "text"]);

/// The `input` items a record keeps; another (a web search call, say) is
/// named as not kept.
pub const KEPT_ITEMS: &[&str] = &[
    "message",
    "function_call",
    "function_call_output",
    "reasoning",
];

/// A response body of this API: a response, or anything with `output`.
pub fn is_response_body(body: &Value) -> bool {
    body["object"] == "response" || body.get("output").is_some()
}

/// A saved SSE stream of this API: typed `response.*` events.
pub fn is_stream(text: &str) -> bool {
    text.contains("response.created") || text.contains("\"response.")
}

pub fn request_body(request: &WireRequest<'_>) -> Value {
    request_body_and_origins(request).0
}

/// The request body, and where each of its wire input items came from in the
/// history: built together, so the checker builds the body only once.
pub(super) fn request_body_and_origins(request: &WireRequest<'_>) -> (Value, Vec<Option<Origin>>) {
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    if !request.system.is_empty() {
        body.insert("instructions".into(), json!(request.system));
    }
    let (input, origins): (Vec<Value>, Vec<Option<Origin>>) =
        input_items(request.messages).into_iter().unzip();
    body.insert("input".into(), Value::Array(input));
    if !request.tools.is_empty() {
        body.insert(
            "tools".into(),
            Value::Array(
                request
                    .tools
                    .iter()
                    .map(|t| {
                        json!({"type": "function", "name": t.name, "description": t.description,
                               "parameters": t.input_schema})
                    })
                    .collect(),
            ),
        );
    }
    if let Some(choice) = tool_choice::encode(
        Provider::OpenaiResponses,
        request.tool_choice,
        !request.tools.is_empty(),
    ) {
        body.insert("tool_choice".into(), choice);
    }
    body.insert("max_output_tokens".into(), json!(request.max_output_tokens));
    body.insert("store".into(), json!(false));
    if request.stream {
        body.insert("stream".into(), json!(true));
    }
    (Value::Object(body), origins)
}

/// The input items, each with the harness message and blocks it came from.
fn input_items(messages: &[Message]) -> Vec<(Value, Option<Origin>)> {
    let mut out = Vec::new();
    for (m, message) in messages.iter().enumerate() {
        let mut texts: Vec<(usize, &str)> = Vec::new();
        let role = message.role;
        let flush = |texts: &mut Vec<(usize, &str)>, out: &mut Vec<_>| {
            if texts.is_empty() {
                return;
            }
            let blocks = texts.iter().map(|(b, _)| *b).collect();
            let item = match role {
                Role::User if texts.len() == 1 => json!({"role": "user", "content": texts[0].1}),
                Role::User => json!({"role": "user", "content": texts
                    .iter()
                    .map(|(_, t)| json!({"type": "input_text", "text": t}))
                    .collect::<Vec<_>>()}),
                Role::Assistant => json!({"type": "message", "role": "assistant", "content": texts
                    .iter()
                    .map(|(_, t)| json!({"type": "output_text", "text": t}))
                    .collect::<Vec<_>>()}),
            };
            out.push((item, Some(Origin { message: m, blocks })));
            texts.clear();
        };
        for (b, block) in message.content.iter().enumerate() {
            let origin = Some(Origin {
                message: m,
                blocks: vec![b],
            });
            match block {
                ContentBlock::Text { text } => texts.push((b, text)),
                ContentBlock::Thinking {
                    thinking,
                    signature,
                } => {
                    flush(&mut texts, &mut out);
                    let mut item = json!({"type": "reasoning",
                        "summary": [{"type": "summary_text", "text": thinking}]});
                    if let Some(signature) = signature {
                        item["encrypted_content"] = json!(signature);
                    }
                    out.push((item, origin));
                }
                ContentBlock::ToolUse(call) => {
                    flush(&mut texts, &mut out);
                    out.push((
                        json!({"type": "function_call", "call_id": call.id, "name": call.name,
                               "arguments": arguments_text(call)}),
                        origin,
                    ));
                }
                ContentBlock::ToolResult(result) => {
                    flush(&mut texts, &mut out);
                    out.push((
                        json!({"type": "function_call_output", "call_id": result.tool_use_id,
                               "output": result_output(result)}),
                        origin,
                    ));
                }
            }
        }
        flush(&mut texts, &mut out);
    }
    out
}

/// A result's `output`: its text alone as a string; with media, an array of
/// `input_text`, an `input_image` (data URL) per PNG/JPEG/GIF/WebP image, an
/// `input_file` per PDF, and for anything else an `input_text` saying it was
/// not sent.
fn result_output(result: &ToolResult) -> Value {
    if result.media.is_empty() {
        return json!(result.content);
    }
    let mut parts = Vec::new();
    if !result.content.is_empty() {
        parts.push(json!({"type": "input_text", "text": result.content}));
    }
    for (n, part) in result.media.iter().enumerate() {
        parts.push(if part.is_sendable_image() {
            json!({"type": "input_image", "image_url": part.data_url()})
        } else if part.is_pdf() {
            let filename = match part {
                Media::Resource { uri, .. } => uri.rsplit('/').next().unwrap_or_default(),
                _ => "",
            };
            let filename = if filename.is_empty() {
                format!("file-{}.pdf", n + 1)
            } else {
                filename.to_string()
            };
            json!({"type": "input_file", "filename": filename, "file_data": part.data_url()})
        } else {
            let why = match part {
                Media::Audio { .. } => "takes no audio",
                _ => "takes only PNG, JPEG, GIF and WebP images and PDF files",
            };
            json!({"type": "input_text", "text": part.not_sent("a function_call_output", why)})
        });
    }
    Value::Array(parts)
}

/// The media of a `function_call_output`'s array: images and files given as
/// data URLs.
fn output_media(output: Option<&Value>) -> Vec<Media> {
    let Some(Value::Array(parts)) = output else {
        return Vec::new();
    };
    parts
        .iter()
        .filter_map(|p| match str_at(p, "type")? {
            "input_image" => {
                let (mime, data) = split_data_url(str_at(p, "image_url")?)?;
                Some(Media::Image {
                    mime_type: mime.to_string(),
                    data: data.to_string(),
                })
            }
            "input_file" => {
                let (mime, data) = split_data_url(str_at(p, "file_data")?)?;
                Some(Media::Resource {
                    uri: str_at(p, "filename").unwrap_or_default().to_string(),
                    mime_type: mime.to_string(),
                    data: data.to_string(),
                })
            }
            _ => None,
        })
        .collect()
}

fn parts_text(content: Option<&Value>) -> Vec<String> {
    match content {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| {
                str_at(p, "text")
                    .or_else(|| str_at(p, "refusal"))
                    .map(str::to_string)
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// One output or input item as harness blocks, with the role it belongs to.
fn item_blocks(item: &Value) -> Option<(Role, Vec<ContentBlock>)> {
    let kind = str_at(item, "type").unwrap_or("message");
    match kind {
        "message" => {
            let role = match str_at(item, "role") {
                Some("assistant") => Role::Assistant,
                Some("user") => Role::User,
                _ => return None, // system/developer items are not history
            };
            let blocks = parts_text(item.get("content"))
                .into_iter()
                .map(|text| ContentBlock::Text { text })
                .collect();
            Some((role, blocks))
        }
        "reasoning" => {
            let summary: Vec<String> = item
                .get("summary")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|p| str_at(p, "text").map(str::to_string))
                .collect();
            Some((
                Role::Assistant,
                vec![ContentBlock::Thinking {
                    thinking: summary.join("\n\n"),
                    signature: str_at(item, "encrypted_content").map(str::to_string),
                }],
            ))
        }
        "function_call" => Some((
            Role::Assistant,
            vec![ContentBlock::ToolUse(ToolCall::from_raw_arguments(
                str_at(item, "call_id").unwrap_or_default().to_string(),
                str_at(item, "name").unwrap_or_default().to_string(),
                str_at(item, "arguments").unwrap_or_default(),
            ))],
        )),
        "function_call_output" => Some((
            Role::User,
            vec![ContentBlock::ToolResult(ToolResult {
                tool_use_id: str_at(item, "call_id").unwrap_or_default().to_string(),
                content: parts_text(item.get("output")).join("\n"),
                is_error: false,
                media: output_media(item.get("output")),
            })],
        )),
        _ => None,
    }
}

pub fn parse_request(body: &Value) -> Result<WireHistory, BodyError> {
    let system = str_at(body, "instructions").unwrap_or_default().to_string();
    let mut messages: Vec<Message> = Vec::new();
    match body.get("input") {
        Some(Value::String(text)) => messages.push(Message::user_text(text.clone())),
        Some(Value::Array(items)) => {
            for item in items {
                let Some((role, blocks)) = item_blocks(item) else {
                    continue;
                };
                // Consecutive items of one role are one harness message.
                match messages.last_mut() {
                    Some(last) if last.role == role => last.content.extend(blocks),
                    _ => messages.push(Message {
                        role,
                        content: blocks,
                    }),
                }
            }
        }
        _ => return Err(BodyError::shape("input", "expected a string or an array")),
    }
    let tools = flat_tool_specs(body, "parameters");
    Ok(WireHistory {
        system,
        messages,
        tools,
        tool_choice: tool_choice::decode(Provider::OpenaiResponses, body),
    })
}

pub fn parse_response(body: &Value) -> Result<ModelResponse, ModelError> {
    // A streamed terminal event wraps the response; a plain body is one.
    let response = body
        .get("response")
        .filter(|r| r.is_object())
        .unwrap_or(body);
    let status = str_at(response, "status")
        .ok_or_else(|| {
            error_body(response).unwrap_or_else(|| invalid("the response has no `status`"))
        })?
        .to_string();
    if status == "failed" {
        return Err(error_body(response)
            .unwrap_or_else(|| invalid("the response failed and gave no error")));
    }
    let output = response
        .get("output")
        .and_then(Value::as_array)
        .ok_or_else(|| invalid("the response has no `output` array"))?;
    let mut content = Vec::new();
    for item in output {
        if let Some((Role::Assistant, blocks)) = item_blocks(item) {
            content.extend(blocks);
        }
    }
    let stop_reason = if status == "incomplete" {
        response
            .pointer("/incomplete_details/reason")
            .and_then(Value::as_str)
            .unwrap_or("incomplete")
            .to_string()
    } else {
        status
    };
    Ok(ModelResponse {
        content,
        stop_reason,
        usage: Usage {
            input_tokens: u64_at(response, "/usage/input_tokens"),
            output_tokens: u64_at(response, "/usage/output_tokens"),
        },
    })
}
