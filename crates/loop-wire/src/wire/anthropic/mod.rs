//! Anthropic Messages (`POST /v1/messages`).
//!
//! Job: the format's facts (name, path, base URL, headers), history →
//! request body, request body → history, response body → [`ModelResponse`].
//! Beside it: `stream.rs` (SSE stream → [`ModelResponse`]), `encode.rs` (the
//! server side) and `check.rs` (Anthropic's protocol rules).
//!
//! Mapping and its limits:
//! - The messages array is the history one to one, so `messages.N.content.M`
//!   in an Anthropic error is harness message N, block M. The system prompt is
//!   the separate `system` field (omitted when empty).
//! - Thinking blocks go back unchanged, signature included (seed 001).
//!   `redacted_thinking` and server-tool blocks in a response have no harness
//!   block and are dropped when parsed.
//! - `is_error` is sent only when true (it defaults to false).
//! - Tool `input` must be a JSON object. A call whose argument text did not
//!   parse (`input_raw`), or parsed to something other than an object, cannot
//!   be expressed: `{}` is sent, and the raw text
//!   survives only in the harness history and in the error result the model
//!   already got for it. A round trip therefore gives `input: {}` and no
//!   `input_raw`. Streamed argument text that does not parse is kept raw.
//! - A tool result with media (an MCP tool's images, audio, files) is an
//!   array: its text, then an `image` block per PNG/JPEG/GIF/WebP image and
//!   a `document` block per PDF, base64. Audio and other types cannot go in
//!   a tool_result; a text block in their place tells the model so. A result
//!   without media stays a string.
//! - Empty text blocks are sent as they are (the API rejects them; the checker
//!   says so before anything is sent).

pub(super) mod check;
pub(super) mod encode;
pub mod pairs;
mod stream;

use serde_json::{json, Map, Value};

use crate::message::{ContentBlock, Media, Message, Role, ToolCall, ToolResult};
use crate::model::{ModelError, ModelResponse, Usage};
use crate::wire::BodyError;
use crate::wire::{
    error_body, flat_tool_specs, invalid, str_at, tool_choice, u64_at, Provider, WireHistory,
    WireRequest,
};

pub use stream::StreamAssembler;

/// The format's name as people say it.
pub const LABEL: &str = "Anthropic Messages";
/// Where requests go, below the base URL.
pub const PATH: &str = "/v1/messages";
/// The official API's host, which refuses every call without a key.
pub const HOST: &str = "api.anthropic.com";
/// The official API's base URL.
pub const BASE_URL: &str = "https://api.anthropic.com";
/// The keys a request's cap on output tokens goes under.
pub const MAX_OUTPUT_KEYS: &[&str] = &["max_tokens"];

/// The top-level keys a record keeps of a request body; an import names
/// the others as not kept.
pub const KEPT_KEYS: &[&str] = &[
    "model",
    "messages",
    "system",
    "tools",
    "tool_choice",
    "max_tokens",
    "stream",
];

/// The key of a request body's conversation, and the content blocks in it
/// a record keeps.
pub const CONVERSATION: (&str, &[&str]) =
    ("messages", &["text", "thinking", "tool_use", "tool_result"]);

/// A tool the client runs (one with an `input_schema`), not a server tool.
pub fn is_client_tool(tool: &Value) -> bool {
    tool.get("input_schema").is_some()
}

/// A response body of this API: a message, or (as the API reference's
/// examples print it, without `type`) an assistant turn with its
/// `stop_reason`. A request body has `messages` instead.
pub fn is_response_body(body: &Value) -> bool {
    body["type"] == "message" || (body["role"] == "assistant" && body.get("stop_reason").is_some())
}

/// A saved SSE stream of this API: it opens with `message_start`.
pub fn is_stream(text: &str) -> bool {
    text.contains("message_start")
}

/// The field the Messages API refuses `body` without (HTTP 400), in its
/// own words; `None` when `model` and `max_tokens` are there.
pub fn missing_field(body: &Value) -> Option<&'static str> {
    if body.get("model").and_then(Value::as_str).is_none() {
        return Some("model: Field required");
    }
    if !body.get("max_tokens").is_some_and(Value::is_u64) {
        return Some("max_tokens: Field required");
    }
    None
}

/// The headers a request carries besides `content-type`; the key, when there
/// is one, goes in `x-api-key`.
pub fn headers(key: Option<&str>) -> Vec<(String, String)> {
    let mut headers = vec![
        ("anthropic-version".to_string(), "2023-06-01".to_string()),
        // Anthropic refuses calls from a browser page without it.
        (
            "anthropic-dangerous-direct-browser-access".to_string(),
            "true".to_string(),
        ),
    ];
    if let Some(key) = key {
        headers.push(("x-api-key".into(), key.to_string()));
    }
    headers
}

pub fn request_body(request: &WireRequest<'_>) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    body.insert("max_tokens".into(), json!(request.max_output_tokens));
    if !request.system.is_empty() {
        body.insert("system".into(), json!(request.system));
    }
    body.insert(
        "messages".into(),
        Value::Array(request.messages.iter().map(message_json).collect()),
    );
    if !request.tools.is_empty() {
        body.insert(
            "tools".into(),
            Value::Array(
                request
                    .tools
                    .iter()
                    .map(|t| {
                        json!({"name": t.name, "description": t.description, "input_schema": t.input_schema})
                    })
                    .collect(),
            ),
        );
    }
    if let Some(choice) = tool_choice::encode(
        Provider::Anthropic,
        request.tool_choice,
        !request.tools.is_empty(),
    ) {
        body.insert("tool_choice".into(), choice);
    }
    if request.stream {
        body.insert("stream".into(), json!(true));
    }
    Value::Object(body)
}

fn message_json(message: &Message) -> Value {
    let role = match message.role {
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    let content: Vec<Value> = message.content.iter().map(block_json).collect();
    json!({"role": role, "content": content})
}

/// A block as Anthropic carries it, in a request and in a response alike.
fn block_json(block: &ContentBlock) -> Value {
    match block {
        ContentBlock::Text { text } => json!({"type": "text", "text": text}),
        ContentBlock::Thinking {
            thinking,
            signature,
        } => {
            let mut b = json!({"type": "thinking", "thinking": thinking});
            if let Some(signature) = signature {
                b["signature"] = json!(signature);
            }
            b
        }
        ContentBlock::ToolUse(call) => {
            let input = if call.input_raw.is_none() && call.input.is_object() {
                call.input.clone()
            } else {
                json!({})
            };
            json!({"type": "tool_use", "id": call.id, "name": call.name, "input": input})
        }
        ContentBlock::ToolResult(result) => {
            let mut b = json!({"type": "tool_result", "tool_use_id": result.tool_use_id, "content": result_content(result)});
            if result.is_error {
                b["is_error"] = json!(true);
            }
            b
        }
    }
}

/// A result's `content`: its text alone as a string, as before; with media,
/// an array of the text block, then an `image` block per PNG, JPEG, GIF or
/// WebP image and a `document` block per PDF (what a tool_result may hold),
/// and for anything else a text block saying it was not sent.
fn result_content(result: &ToolResult) -> Value {
    if result.media.is_empty() {
        return json!(result.content);
    }
    let mut blocks = Vec::new();
    // The API refuses empty text blocks.
    if !result.content.is_empty() {
        blocks.push(json!({"type": "text", "text": result.content}));
    }
    for part in &result.media {
        let source = json!({"type": "base64", "media_type": part.mime_type(), "data": part.data()});
        blocks.push(if part.is_sendable_image() {
            json!({"type": "image", "source": source})
        } else if part.is_pdf() {
            json!({"type": "document", "source": source})
        } else {
            let why = match part {
                Media::Audio { .. } => "takes no audio in a tool_result",
                _ => "takes only PNG, JPEG, GIF and WebP images and PDF documents in a tool_result",
            };
            json!({"type": "text", "text": part.not_sent(LABEL, why)})
        });
    }
    Value::Array(blocks)
}

/// A tool_result's `content` read back: its text blocks as the text, its
/// base64 images and documents as media.
fn parse_result_content(content: Option<&Value>) -> (String, Vec<Media>) {
    let parts = match content {
        Some(Value::String(s)) => return (s.clone(), Vec::new()),
        Some(Value::Array(parts)) => parts,
        _ => return (String::new(), Vec::new()),
    };
    let texts: Vec<&str> = parts.iter().filter_map(|p| str_at(p, "text")).collect();
    let media = parts
        .iter()
        .filter_map(|p| {
            let source = p
                .get("source")
                .filter(|s| str_at(s, "type") == Some("base64"))?;
            let mime_type = str_at(source, "media_type")?.to_string();
            let data = str_at(source, "data")?.to_string();
            match str_at(p, "type")? {
                "image" => Some(Media::Image { mime_type, data }),
                "document" => Some(Media::Resource {
                    uri: String::new(),
                    mime_type,
                    data,
                }),
                _ => None,
            }
        })
        .collect();
    (texts.join("\n"), media)
}

pub fn parse_request(body: &Value) -> Result<WireHistory, BodyError> {
    let system = match body.get("system") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| str_at(p, "text"))
            .collect::<Vec<_>>()
            .join("\n"),
        Some(_) => {
            return Err(BodyError::shape(
                "system",
                "expected a string or an array of text blocks",
            ))
        }
    };
    let items = body
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(|| BodyError::shape("messages", "expected an array"))?;
    let mut messages = Vec::new();
    for (n, item) in items.iter().enumerate() {
        let role = match str_at(item, "role") {
            Some("user") => Role::User,
            Some("assistant") => Role::Assistant,
            _ => {
                return Err(BodyError::role(
                    format!("messages.{n}.role"),
                    item.get("role"),
                    &["user", "assistant"],
                ))
            }
        };
        let content = match item.get("content") {
            Some(Value::String(text)) => vec![ContentBlock::Text { text: text.clone() }],
            Some(Value::Array(blocks)) => blocks.iter().filter_map(parse_block).collect(),
            _ => {
                return Err(BodyError::shape(
                    format!("messages.{n}.content"),
                    "expected a string or an array",
                ))
            }
        };
        messages.push(Message { role, content });
    }
    let tools = flat_tool_specs(body, "input_schema");
    Ok(WireHistory {
        system,
        messages,
        tools,
        tool_choice: tool_choice::decode(Provider::Anthropic, body),
    })
}

/// One content block; `None` for block types the harness has no place for.
fn parse_block(block: &Value) -> Option<ContentBlock> {
    match str_at(block, "type")? {
        "text" => Some(ContentBlock::Text {
            text: str_at(block, "text")?.to_string(),
        }),
        "thinking" => Some(ContentBlock::Thinking {
            thinking: str_at(block, "thinking")?.to_string(),
            signature: str_at(block, "signature").map(str::to_string),
        }),
        "tool_use" => Some(ContentBlock::ToolUse(ToolCall {
            id: str_at(block, "id")?.to_string(),
            name: str_at(block, "name")?.to_string(),
            input: block.get("input").cloned().unwrap_or_else(|| json!({})),
            input_raw: None,
        })),
        "tool_result" => {
            let (content, media) = parse_result_content(block.get("content"));
            Some(ContentBlock::ToolResult(ToolResult {
                tool_use_id: str_at(block, "tool_use_id")?.to_string(),
                content,
                is_error: block
                    .get("is_error")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                media,
            }))
        }
        _ => None,
    }
}

pub fn parse_response(body: &Value) -> Result<ModelResponse, ModelError> {
    if let Some(error) = error_body(body) {
        return Err(error);
    }
    let content = body
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| invalid("the response has no `content` array"))?
        .iter()
        .filter_map(parse_block)
        .collect();
    let stop_reason = str_at(body, "stop_reason")
        .ok_or_else(|| invalid("the response has no `stop_reason`"))?
        .to_string();
    Ok(ModelResponse {
        content,
        stop_reason,
        usage: Usage {
            input_tokens: u64_at(body, "/usage/input_tokens"),
            output_tokens: u64_at(body, "/usage/output_tokens"),
        },
    })
}
