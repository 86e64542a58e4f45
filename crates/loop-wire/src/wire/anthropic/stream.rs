//! Anthropic's streamed response: SSE events → [`ModelResponse`].
//!
//! Job: assemble `message_start`, then per content block
//! `content_block_start` / `_delta`… / `_stop` keyed by `index`, then
//! `message_delta` (stop reason, cumulative usage) and `message_stop`, and
//! when the stream ends before that, say what had been received.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::message::{ContentBlock, ToolCall};
use crate::model::{ModelError, ModelResponse, Usage};
use crate::wire::sse::{SseEvent, SseParser};
use crate::wire::{error_body, invalid, json_data, preview, str_at, truncated, u64_at};

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
