//! Chat Completions' streamed response: SSE chunks → [`ModelResponse`].
//!
//! Job: assemble `chat.completion.chunk` objects (text, reasoning and
//! tool-call fragments), and when the stream ends before a `finish_reason`,
//! say what had been received.

use std::collections::BTreeMap;

use serde_json::Value;

use super::usage;
use crate::message::{ContentBlock, ToolCall};
use crate::model::{ModelError, ModelResponse, Usage};
use crate::wire::sse::SseParser;
use crate::wire::{error_body, json_data, preview, str_at, truncated};

#[derive(Debug, Default)]
struct PartialCall {
    id: String,
    name: String,
    arguments: String,
    fragments: usize,
}

/// Assembles a streamed completion: `chat.completion.chunk` objects whose
/// `choices[0].delta` carries text and tool-call fragments keyed by `index`,
/// a chunk with `finish_reason`, a usage chunk, then `data: [DONE]`.
#[derive(Debug, Default)]
pub struct StreamAssembler {
    sse: SseParser,
    chunks: usize,
    reasoning: String,
    text: Option<String>,
    refusal: Option<String>,
    calls: BTreeMap<u64, PartialCall>,
    finish_reason: Option<String>,
    usage: Usage,
    done: bool,
    failed: Option<ModelError>,
}

impl StreamAssembler {
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), ModelError> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        for event in self.sse.push(chunk) {
            if let Err(error) = self.apply(&event.data) {
                self.failed = Some(error.clone());
                return Err(error);
            }
        }
        Ok(())
    }

    fn apply(&mut self, data: &str) -> Result<(), ModelError> {
        if data.trim() == "[DONE]" {
            self.done = true;
            return Ok(());
        }
        self.chunks += 1;
        let chunk = json_data(data)?;
        if let Some(error) = error_body(&chunk) {
            return Err(error);
        }
        if chunk.get("usage").is_some_and(Value::is_object) {
            self.usage = usage(&chunk);
        }
        // Only the first choice is assembled: with `n > 1` a chunk's
        // `choices[0]` may belong to another choice, so go by its `index`.
        let Some(choice) = chunk
            .get("choices")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .find(|c| c.get("index").and_then(Value::as_u64).unwrap_or(0) == 0)
        else {
            return Ok(()); // the usage chunk has no choices
        };
        let delta = choice.get("delta").unwrap_or(&Value::Null);
        if let Some(text) = str_at(delta, "content") {
            self.text.get_or_insert_with(String::new).push_str(text);
        }
        if let Some(text) = str_at(delta, "refusal") {
            self.refusal.get_or_insert_with(String::new).push_str(text);
        }
        if let Some(text) = str_at(delta, "reasoning_content") {
            self.reasoning.push_str(text);
        }
        for (position, fragment) in delta
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            // `index` says which call a fragment belongs to; a server that
            // leaves it out sends whole calls, so the position stands in.
            let index = fragment
                .get("index")
                .and_then(Value::as_u64)
                .unwrap_or(position as u64);
            let call = self.calls.entry(index).or_default();
            if let Some(id) = str_at(fragment, "id").filter(|id| !id.is_empty()) {
                call.id = id.to_string();
            }
            if let Some(name) = fragment.pointer("/function/name").and_then(Value::as_str) {
                // OpenAI sends the name once; some servers resend it whole.
                if call.name.is_empty() || name.starts_with(call.name.as_str()) {
                    call.name = name.to_string();
                } else {
                    call.name.push_str(name);
                }
            }
            if let Some(arguments) = fragment.pointer("/function/arguments") {
                match arguments {
                    Value::String(s) => call.arguments.push_str(s),
                    Value::Null => {}
                    other => call.arguments.push_str(&other.to_string()),
                }
                call.fragments += 1;
            }
        }
        if let Some(reason) = str_at(choice, "finish_reason").filter(|r| !r.is_empty()) {
            self.finish_reason = Some(reason.to_string());
        }
        Ok(())
    }

    /// Complete once a `finish_reason` arrived: some compatible servers never
    /// send `[DONE]` or a usage chunk, and nothing of the message is missing.
    pub fn finish(self) -> Result<ModelResponse, ModelError> {
        if let Some(error) = self.failed {
            return Err(error);
        }
        let Some(stop_reason) = self.finish_reason.clone() else {
            return Err(truncated(self.truncation()));
        };
        let mut content = Vec::new();
        if !self.reasoning.is_empty() {
            content.push(ContentBlock::Thinking {
                thinking: self.reasoning,
                signature: None,
            });
        }
        if let Some(text) = self.text {
            content.push(ContentBlock::Text { text });
        }
        if let Some(text) = self.refusal {
            content.push(ContentBlock::Text { text });
        }
        for call in self.calls.into_values() {
            content.push(ContentBlock::ToolUse(ToolCall::from_raw_arguments(
                call.id,
                call.name,
                &call.arguments,
            )));
        }
        Ok(ModelResponse {
            content,
            stop_reason,
            usage: self.usage,
        })
    }

    fn truncation(&self) -> String {
        let mut received = Vec::new();
        if let Some(text) = &self.text {
            received.push(format!("text {}", preview(text, 80)));
        }
        for (index, call) in &self.calls {
            received.push(format!(
                "tool call {index} {} ({}) after {} argument fragment{}: {}",
                call.name,
                call.id,
                call.fragments,
                if call.fragments == 1 { "" } else { "s" },
                preview(&call.arguments, 120)
            ));
        }
        if let Some(pending) = self.sse.pending() {
            received.push(format!("an unfinished event with {pending}"));
        }
        format!(
            "the stream ended before a finish_reason ({} chunk{} received); received: {}",
            self.chunks,
            if self.chunks == 1 { "" } else { "s" },
            if received.is_empty() {
                "nothing".to_string()
            } else {
                received.join("; ")
            }
        )
    }
}
