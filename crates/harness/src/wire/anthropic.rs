//! Anthropic Messages (`POST /v1/messages`).
//!
//! Job: history → request body, request body → history, response body →
//! [`ModelResponse`], SSE stream → [`ModelResponse`].
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
//! - Empty text blocks are sent as they are (the API rejects them; the checker
//!   says so before anything is sent).

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::sse::{SseEvent, SseParser};
use super::{
    error_body, flat_tool_specs, invalid, json_data, preview, str_at, truncated, u64_at,
    WireHistory, WireRequest,
};
use crate::message::{ContentBlock, Message, Role, ToolCall, ToolResult};
use crate::model::{ModelError, ModelResponse, Usage};

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

pub(crate) fn block_json(block: &ContentBlock) -> Value {
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
            let mut b = json!({"type": "tool_result", "tool_use_id": result.tool_use_id, "content": result.content});
            if result.is_error {
                b["is_error"] = json!(true);
            }
            b
        }
    }
}

pub fn parse_request(body: &Value) -> Result<WireHistory, String> {
    let system = match body.get("system") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| str_at(p, "text"))
            .collect::<Vec<_>>()
            .join("\n"),
        Some(_) => return Err("system: expected a string or an array of text blocks".into()),
    };
    let items = body
        .get("messages")
        .and_then(Value::as_array)
        .ok_or("messages: expected an array")?;
    let mut messages = Vec::new();
    for (n, item) in items.iter().enumerate() {
        let role = match str_at(item, "role") {
            Some("user") => Role::User,
            Some("assistant") => Role::Assistant,
            other => return Err(format!("messages.{n}.role: unexpected {other:?}")),
        };
        let content = match item.get("content") {
            Some(Value::String(text)) => vec![ContentBlock::Text { text: text.clone() }],
            Some(Value::Array(blocks)) => blocks.iter().filter_map(parse_block).collect(),
            _ => {
                return Err(format!(
                    "messages.{n}.content: expected a string or an array"
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
        "tool_result" => Some(ContentBlock::ToolResult(ToolResult {
            tool_use_id: str_at(block, "tool_use_id")?.to_string(),
            content: match block.get("content") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Array(parts)) => parts
                    .iter()
                    .filter_map(|p| str_at(p, "text"))
                    .collect::<Vec<_>>()
                    .join("\n"),
                _ => String::new(),
            },
            is_error: block
                .get("is_error")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        })),
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

/// A content block while it streams in.
#[derive(Debug)]
enum Partial {
    Text(String),
    Thinking {
        thinking: String,
        signature: Option<String>,
    },
    ToolUse {
        id: String,
        name: String,
        json: String,
        fragments: usize,
    },
    /// A block type the harness does not keep (e.g. `server_tool_use`).
    Other(String),
}

/// Assembles a streamed response: `message_start`, then per content block
/// `content_block_start` / `_delta`… / `_stop` keyed by `index`, then
/// `message_delta` (stop reason, cumulative usage) and `message_stop`.
#[derive(Debug, Default)]
pub struct StreamAssembler {
    sse: SseParser,
    events: usize,
    started: bool,
    blocks: BTreeMap<u64, Partial>,
    stop_reason: Option<String>,
    usage: Usage,
    stopped: bool,
    failed: Option<ModelError>,
}

impl StreamAssembler {
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), ModelError> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        for event in self.sse.push(chunk) {
            if let Err(error) = self.apply(&event) {
                self.failed = Some(error.clone());
                return Err(error);
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: &SseEvent) -> Result<(), ModelError> {
        self.events += 1;
        let data = json_data(&event.data)?;
        let kind = str_at(&data, "type")
            .or(event.event.as_deref())
            .unwrap_or_default();
        let index = data.get("index").and_then(Value::as_u64);
        match kind {
            "message_start" => {
                self.started = true;
                self.usage.input_tokens = u64_at(&data, "/message/usage/input_tokens");
                self.usage.output_tokens = u64_at(&data, "/message/usage/output_tokens");
            }
            "content_block_start" => {
                let index = index.ok_or_else(|| invalid("content_block_start without an index"))?;
                let block = data.get("content_block").cloned().unwrap_or(Value::Null);
                let partial = match str_at(&block, "type").unwrap_or_default() {
                    "text" => Partial::Text(str_at(&block, "text").unwrap_or_default().to_string()),
                    "thinking" => Partial::Thinking {
                        thinking: str_at(&block, "thinking").unwrap_or_default().to_string(),
                        signature: str_at(&block, "signature").map(str::to_string),
                    },
                    "tool_use" => Partial::ToolUse {
                        id: str_at(&block, "id").unwrap_or_default().to_string(),
                        name: str_at(&block, "name").unwrap_or_default().to_string(),
                        json: String::new(),
                        fragments: 0,
                    },
                    other => Partial::Other(other.to_string()),
                };
                self.blocks.insert(index, partial);
            }
            "content_block_delta" => {
                let index = index.ok_or_else(|| invalid("content_block_delta without an index"))?;
                let delta = data.get("delta").cloned().unwrap_or(Value::Null);
                let block = self.blocks.get_mut(&index).ok_or_else(|| {
                    invalid(format!(
                        "content_block_delta for block {index}, which never started"
                    ))
                })?;
                match (block, str_at(&delta, "type").unwrap_or_default()) {
                    (Partial::Text(text), "text_delta") => {
                        text.push_str(str_at(&delta, "text").unwrap_or_default())
                    }
                    (Partial::Thinking { thinking, .. }, "thinking_delta") => {
                        thinking.push_str(str_at(&delta, "thinking").unwrap_or_default())
                    }
                    (Partial::Thinking { signature, .. }, "signature_delta") => {
                        signature
                            .get_or_insert_with(String::new)
                            .push_str(str_at(&delta, "signature").unwrap_or_default());
                    }
                    (
                        Partial::ToolUse {
                            json, fragments, ..
                        },
                        "input_json_delta",
                    ) => {
                        json.push_str(str_at(&delta, "partial_json").unwrap_or_default());
                        *fragments += 1;
                    }
                    // Deltas of blocks the harness does not keep, and delta
                    // types added later (e.g. citations), are skipped.
                    _ => {}
                }
            }
            "message_delta" => {
                if let Some(reason) = data.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.stop_reason = Some(reason.to_string());
                }
                // message_delta usage is cumulative.
                if let Some(n) = data.pointer("/usage/output_tokens").and_then(Value::as_u64) {
                    self.usage.output_tokens = n;
                }
                if let Some(n) = data.pointer("/usage/input_tokens").and_then(Value::as_u64) {
                    self.usage.input_tokens = n;
                }
            }
            "message_stop" => self.stopped = true,
            "error" => {
                return Err(error_body(&data).unwrap_or_else(|| {
                    invalid(format!(
                        "the stream sent an error: {}",
                        preview(&event.data, 200)
                    ))
                }))
            }
            // ping, content_block_stop, and event types added later.
            _ => {}
        }
        Ok(())
    }

    pub fn finish(self) -> Result<ModelResponse, ModelError> {
        if let Some(error) = self.failed {
            return Err(error);
        }
        let complete = self.stopped && self.stop_reason.is_some();
        if !complete {
            return Err(truncated(self.truncation()));
        }
        let content = self
            .blocks
            .into_values()
            .filter_map(|block| match block {
                Partial::Text(text) => Some(ContentBlock::Text { text }),
                Partial::Thinking {
                    thinking,
                    signature,
                } => Some(ContentBlock::Thinking {
                    thinking,
                    signature,
                }),
                Partial::ToolUse { id, name, json, .. } => {
                    // A tool with no arguments streams no fragments (or "").
                    let raw = if json.trim().is_empty() { "{}" } else { &json };
                    Some(ContentBlock::ToolUse(ToolCall::from_raw_arguments(
                        id, name, raw,
                    )))
                }
                Partial::Other(_) => None,
            })
            .collect();
        Ok(ModelResponse {
            content,
            stop_reason: self.stop_reason.unwrap_or_default(),
            usage: self.usage,
        })
    }

    fn truncation(&self) -> String {
        let mut received = Vec::new();
        if !self.started {
            received.push("no message_start".to_string());
        }
        for (index, block) in &self.blocks {
            received.push(match block {
                Partial::Text(text) => format!("block {index}: text {}", preview(text, 80)),
                Partial::Thinking { thinking, .. } => {
                    format!("block {index}: thinking {}", preview(thinking, 80))
                }
                Partial::ToolUse {
                    id,
                    name,
                    json,
                    fragments,
                } => format!(
                    "block {index}: tool_use {name} ({id}) after {fragments} argument fragment{}: {}",
                    if *fragments == 1 { "" } else { "s" },
                    preview(json, 120)
                ),
                Partial::Other(kind) => format!("block {index}: {kind}"),
            });
        }
        if let Some(reason) = &self.stop_reason {
            received.push(format!("stop_reason {reason}"));
        }
        if let Some(pending) = self.sse.pending() {
            received.push(format!("an unfinished event with {pending}"));
        }
        let what = if self.stop_reason.is_none() {
            "before a stop_reason"
        } else {
            "before message_stop"
        };
        format!(
            "the stream ended {what} ({} event{} received); received: {}",
            self.events,
            if self.events == 1 { "" } else { "s" },
            if received.is_empty() {
                "nothing".to_string()
            } else {
                received.join("; ")
            }
        )
    }
}
