//! OpenAI Responses (`POST /v1/responses`).
//!
//! Job: history → request body, request body → history, response body →
//! [`ModelResponse`], SSE stream → [`ModelResponse`].
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
//! - `arguments` is a string: argument text that was not JSON goes out
//!   verbatim and round-trips exactly.
//! - `stop_reason` is the response `status` (`completed`, …) or, when it is
//!   `incomplete`, `incomplete_details.reason` (`max_output_tokens`,
//!   `content_filter`), the provider's own word either way. Responses has no
//!   `finish_reason`: a tool turn shows as `function_call` items.
//! - `store: false` is sent: the harness keeps the history itself and sends
//!   it whole, instead of chaining `previous_response_id`.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::check::Origin;
use super::openai_chat::arguments_text;
use super::sse::SseParser;
use super::{
    error_body, flat_tool_specs, invalid, json_data, preview, str_at, truncated, u64_at,
    WireHistory, WireRequest,
};
use crate::message::{ContentBlock, Message, Role, ToolCall, ToolResult};
use crate::model::{ModelError, ModelResponse, Usage};

pub fn request_body(request: &WireRequest<'_>) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    if !request.system.is_empty() {
        body.insert("instructions".into(), json!(request.system));
    }
    let input: Vec<Value> = input_items(request.messages)
        .into_iter()
        .map(|(item, _)| item)
        .collect();
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
    body.insert("max_output_tokens".into(), json!(request.max_output_tokens));
    body.insert("store".into(), json!(false));
    if request.stream {
        body.insert("stream".into(), json!(true));
    }
    Value::Object(body)
}

/// The input items, each with the harness message and blocks it came from.
pub(crate) fn input_items(messages: &[Message]) -> Vec<(Value, Option<Origin>)> {
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
                               "output": result.content}),
                        origin,
                    ));
                }
            }
        }
        flush(&mut texts, &mut out);
    }
    out
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
            })],
        )),
        _ => None,
    }
}

pub fn parse_request(body: &Value) -> Result<WireHistory, String> {
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
        _ => return Err("input: expected a string or an array".into()),
    }
    let tools = flat_tool_specs(body, "parameters");
    Ok(WireHistory {
        system,
        messages,
        tools,
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

/// Assembles a streamed response. `response.output_item.added` opens an item
/// at `output_index`; `response.output_text.delta` and
/// `response.function_call_arguments.delta` grow it;
/// `response.output_item.done` replaces it with the finished item; the
/// terminal `response.completed` / `response.incomplete` / `response.failed`
/// carries the whole response, which is what is parsed (the items assembled
/// here fill in when its `output` is empty, and describe a truncation).
#[derive(Debug, Default)]
pub struct StreamAssembler {
    sse: SseParser,
    events: usize,
    items: BTreeMap<u64, Value>,
    fragments: BTreeMap<u64, usize>,
    terminal: Option<Value>,
    failed: Option<ModelError>,
}

/// A content or summary part index, bounded: the parts are filled up to it,
/// so an absurd index from a broken server must not allocate without limit.
fn part_index(event: &Value, key: &str) -> Result<usize, ModelError> {
    const MAX_PARTS: u64 = 1024;
    match event.get(key).and_then(Value::as_u64).unwrap_or(0) {
        n if n < MAX_PARTS => Ok(n as usize),
        n => Err(invalid(format!(
            "a stream event's `{key}` is {n}; more than {MAX_PARTS} parts is not a real response"
        ))),
    }
}

impl StreamAssembler {
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), ModelError> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        for event in self.sse.push(chunk) {
            if let Err(error) = self.apply(&event.data, event.event.as_deref()) {
                self.failed = Some(error.clone());
                return Err(error);
            }
        }
        Ok(())
    }

    fn apply(&mut self, data: &str, name: Option<&str>) -> Result<(), ModelError> {
        if data.trim() == "[DONE]" {
            return Ok(());
        }
        self.events += 1;
        let event = json_data(data)?;
        let kind = str_at(&event, "type").or(name).unwrap_or_default();
        // Deltas name their item by `output_index`; some servers send only
        // `item_id`, which the item's `output_item.added` announced.
        let index = event
            .get("output_index")
            .and_then(Value::as_u64)
            .or_else(|| {
                let id = str_at(&event, "item_id")?;
                self.items
                    .iter()
                    .find(|(_, item)| str_at(item, "id") == Some(id))
                    .map(|(index, _)| *index)
            });
        match (kind, index) {
            ("response.output_item.added" | "response.output_item.done", Some(index)) => {
                if let Some(item) = event.get("item").filter(|i| i.is_object()) {
                    self.items.insert(index, item.clone());
                }
            }
            ("response.output_text.delta", Some(index)) => {
                let delta = str_at(&event, "delta").unwrap_or_default();
                let part = part_index(&event, "content_index")?;
                let item = self
                    .items
                    .entry(index)
                    .or_insert_with(|| json!({"type": "message", "role": "assistant"}));
                if !item.get("content").is_some_and(Value::is_array) {
                    item["content"] = json!([]);
                }
                if let Some(parts) = item.get_mut("content").and_then(Value::as_array_mut) {
                    while parts.len() <= part {
                        parts.push(json!({"type": "output_text", "text": ""}));
                    }
                    let text = str_at(&parts[part], "text").unwrap_or_default().to_string() + delta;
                    parts[part]["text"] = json!(text);
                }
            }
            ("response.reasoning_summary_text.delta", Some(index)) => {
                let delta = str_at(&event, "delta").unwrap_or_default();
                let part = part_index(&event, "summary_index")?;
                let item = self
                    .items
                    .entry(index)
                    .or_insert_with(|| json!({"type": "reasoning"}));
                if !item.get("summary").is_some_and(Value::is_array) {
                    item["summary"] = json!([]);
                }
                if let Some(parts) = item.get_mut("summary").and_then(Value::as_array_mut) {
                    while parts.len() <= part {
                        parts.push(json!({"type": "summary_text", "text": ""}));
                    }
                    let text = str_at(&parts[part], "text").unwrap_or_default().to_string() + delta;
                    parts[part]["text"] = json!(text);
                }
            }
            ("response.function_call_arguments.delta", Some(index)) => {
                let delta = str_at(&event, "delta").unwrap_or_default();
                let item = self
                    .items
                    .entry(index)
                    .or_insert_with(|| json!({"type": "function_call"}));
                let arguments = str_at(item, "arguments").unwrap_or_default().to_string() + delta;
                item["arguments"] = json!(arguments);
                *self.fragments.entry(index).or_default() += 1;
            }
            ("response.completed" | "response.incomplete" | "response.failed", _) => {
                let mut response = event
                    .get("response")
                    .filter(|r| r.is_object())
                    .cloned()
                    .unwrap_or_else(|| json!({}));
                // The event's name says the status when the body leaves it out.
                if str_at(&response, "status").is_none() {
                    response["status"] = json!(kind.trim_start_matches("response."));
                }
                self.terminal = Some(response);
            }
            ("error", _) => {
                let error = event
                    .get("error")
                    .filter(|e| e.is_object())
                    .unwrap_or(&event);
                let message = str_at(error, "message").unwrap_or("(no message)");
                return Err(invalid(match str_at(error, "code") {
                    Some(code) => format!("{code}: {message}"),
                    None => message.to_string(),
                }));
            }
            _ => {}
        }
        Ok(())
    }

    pub fn finish(self) -> Result<ModelResponse, ModelError> {
        if let Some(error) = self.failed {
            return Err(error);
        }
        let Some(mut response) = self.terminal.clone() else {
            return Err(truncated(self.truncation()));
        };
        let empty = response
            .get("output")
            .and_then(Value::as_array)
            .is_none_or(Vec::is_empty);
        if empty && !self.items.is_empty() {
            response["output"] = Value::Array(self.items.into_values().collect());
        }
        parse_response(&response)
    }

    fn truncation(&self) -> String {
        let mut received = Vec::new();
        for (index, item) in &self.items {
            received.push(match str_at(item, "type").unwrap_or_default() {
                "function_call" => {
                    let fragments = self.fragments.get(index).copied().unwrap_or(0);
                    format!(
                        "output {index}: function_call {} ({}) after {fragments} argument fragment{}: {}",
                        str_at(item, "name").unwrap_or_default(),
                        str_at(item, "call_id").unwrap_or_default(),
                        if fragments == 1 { "" } else { "s" },
                        preview(str_at(item, "arguments").unwrap_or_default(), 120)
                    )
                }
                "message" => format!(
                    "output {index}: message {}",
                    preview(&parts_text(item.get("content")).join(""), 80)
                ),
                other => format!("output {index}: {other}"),
            });
        }
        if let Some(pending) = self.sse.pending() {
            received.push(format!("an unfinished event with {pending}"));
        }
        format!(
            "the stream ended before response.completed ({} event{} received); received: {}",
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
