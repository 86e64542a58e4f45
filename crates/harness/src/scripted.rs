//! The scripted mock model: plays back a scenario's responses, one per model
//! call, so the loop runs offline and reproducibly.
//!
//! It can misbehave on purpose (malformed argument JSON, duplicate ids,
//! provider errors, slow responses, endless loops via `loop_from`), which is
//! how every stop condition and failure is demonstrated without an API key.
//! When the script runs out it fails clearly instead of inventing an answer.

use std::cell::Cell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::message::{ContentBlock, ToolCall};
use crate::model::{
    estimate_tokens, ModelClient, ModelError, ModelErrorKind, ModelRequest, ModelResponse, Usage,
};
use crate::runtime::Runtime;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedResponse {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// A thinking block placed before the text, kept and sent back unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinking: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ScriptedCall>,
    /// Inferred when absent: `tool_use` with tool calls, `end_turn` without.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// Estimated from the request and the text when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<ScriptedUsage>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ScriptedError>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedCall {
    /// Generated when absent; scripting it allows duplicate ids on purpose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Value>,
    /// Argument text sent as is, to model malformed JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args_raw: Option<String>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedUsage {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
}

/// A simulated provider failure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedError {
    pub status: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
}

pub struct ScriptedModel {
    responses: Vec<ScriptedResponse>,
    loop_from: Option<usize>,
    runtime: Rc<dyn Runtime>,
    calls: Cell<usize>,
    next_id: Cell<u64>,
    /// Ids the script sets itself; generated ids avoid them, so a duplicate id
    /// only ever happens when the script asks for one.
    scripted_ids: Vec<String>,
}

impl ScriptedModel {
    pub fn new(
        responses: Vec<ScriptedResponse>,
        loop_from: Option<usize>,
        runtime: Rc<dyn Runtime>,
    ) -> Self {
        let scripted_ids = responses
            .iter()
            .flat_map(|r| r.tool_calls.iter().filter_map(|c| c.id.clone()))
            .collect();
        ScriptedModel {
            responses,
            loop_from,
            runtime,
            calls: Cell::new(0),
            next_id: Cell::new(1),
            scripted_ids,
        }
    }

    fn generate_id(&self) -> String {
        loop {
            let n = self.next_id.get();
            self.next_id.set(n + 1);
            let id = format!("toolu_{n:04}");
            if !self.scripted_ids.contains(&id) {
                return id;
            }
        }
    }

    /// Skips the first `calls` responses, as if they had been answered (a fork
    /// continues the script where its parent stopped).
    pub fn starting_at(self, calls: usize) -> Self {
        self.calls.set(calls);
        self
    }

    /// The script entry for the `call`-th request (0-based), honouring `loop_from`.
    fn entry(&self, call: usize) -> Option<&ScriptedResponse> {
        let len = self.responses.len();
        if call < len {
            return self.responses.get(call);
        }
        let from = self.loop_from.filter(|&from| from < len)?;
        self.responses.get(from + (call - len) % (len - from))
    }

    fn respond(&self, script: &ScriptedResponse, request: &ModelRequest<'_>) -> ModelResponse {
        let mut content = Vec::new();
        if let Some(thinking) = &script.thinking {
            content.push(ContentBlock::Thinking {
                thinking: thinking.clone(),
                signature: Some(format!("scripted-signature-{}", request.turn)),
            });
        }
        if let Some(text) = &script.text {
            content.push(ContentBlock::Text { text: text.clone() });
        }
        for call in &script.tool_calls {
            let id = call.id.clone().unwrap_or_else(|| self.generate_id());
            let tool_call = match &call.args_raw {
                Some(raw) => ToolCall::from_raw_arguments(id, call.name.clone(), raw),
                None => ToolCall {
                    id,
                    name: call.name.clone(),
                    input: call
                        .args
                        .clone()
                        .unwrap_or_else(|| Value::Object(Default::default())),
                    input_raw: None,
                },
            };
            content.push(ContentBlock::ToolUse(tool_call));
        }
        let stop_reason = script.stop_reason.clone().unwrap_or_else(|| {
            if script.tool_calls.is_empty() {
                "end_turn".to_string()
            } else {
                "tool_use".to_string()
            }
        });
        let given = script.usage.unwrap_or_default();
        let output_chars: usize = content.iter().map(ContentBlock::char_len).sum();
        let usage = Usage {
            input_tokens: given.input_tokens.unwrap_or(request.estimated_input_tokens),
            output_tokens: given
                .output_tokens
                .unwrap_or_else(|| estimate_tokens(output_chars)),
        };
        ModelResponse {
            content,
            stop_reason,
            usage,
        }
    }
}

impl ModelClient for ScriptedModel {
    fn label(&self) -> String {
        "scripted".to_string()
    }

    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> {
        let call = self.calls.get();
        self.calls.set(call + 1);
        Box::pin(async move {
            let Some(script) = self.entry(call) else {
                return Err(ModelError::new(
                    ModelErrorKind::ScriptExhausted,
                    format!(
                        "the scripted model has no response for request {}: the script has {} response{} and no loop_from",
                        call + 1,
                        self.responses.len(),
                        if self.responses.len() == 1 { "" } else { "s" }
                    ),
                ));
            };
            if let Some(ms) = script.delay_ms.filter(|&ms| ms > 0) {
                self.runtime.sleep(ms).await;
            }
            if let Some(error) = &script.error {
                return Err(ModelError {
                    status: Some(error.status),
                    kind: ModelErrorKind::Http,
                    message: error
                        .message
                        .clone()
                        .unwrap_or_else(|| default_error_message(error.status).to_string()),
                    retry_after_ms: error.retry_after_ms,
                });
            }
            Ok(self.respond(script, &request))
        })
    }
}

/// What providers typically say for each status, so scripted errors read real.
fn default_error_message(status: u16) -> &'static str {
    match status {
        400 => "invalid_request_error: the request was malformed",
        401 => "authentication_error: invalid x-api-key",
        403 => "permission_error: your API key does not have permission to use this resource",
        404 => "not_found_error: the requested resource was not found",
        413 => "request_too_large: the request exceeds the maximum size",
        429 => "rate_limit_error: number of requests has exceeded your rate limit",
        500 => "api_error: an unexpected error occurred inside the provider",
        502 => "bad gateway",
        503 => "service unavailable",
        529 => "overloaded_error: the API is temporarily overloaded",
        _ => "scripted provider error",
    }
}
