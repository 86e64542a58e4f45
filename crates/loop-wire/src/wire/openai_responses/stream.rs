//! Responses' streamed response: SSE events → [`ModelResponse`].
//!
//! Job: follow the output items as they open and grow, parse the terminal
//! event's whole response, and when the stream ends before one, say what
//! had been received.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::{parse_response, parts_text};
use crate::model::{ModelError, ModelResponse};
use crate::wire::sse::SseParser;
use crate::wire::{invalid, json_data, preview, str_at, truncated};

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
