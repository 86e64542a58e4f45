//! The scripted mock model: plays back a scenario's responses, one per model
//! call, so the loop runs offline and reproducibly.
//!
//! It can misbehave on purpose (malformed argument JSON, duplicate ids,
//! provider errors, slow responses, endless loops via `loop_from`), which is
//! how every stop condition and failure is demonstrated without an API key.
//! When the script runs out it fails clearly instead of inventing an answer.
//!
//! An entry can also answer what happened before it: its `branches` are
//! alternatives, each played when the most recent call of every tool its
//! `when` names ended the way it says (ran, denied, failed, never
//! called), so a script can answer a denied refund differently from an issued one.

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::message::{tool_calls_of, ContentBlock, Message, ToolCall};
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
    /// Played instead of this entry's own fields: the first branch whose
    /// `when` holds. With none holding, the entry's own fields are played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub branches: Vec<ScriptedBranch>,
}

/// An alternative response: the fields of a `ScriptedResponse` except
/// `branches` (branches do not nest, so a script reads top to bottom), plus
/// the condition that selects it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedBranch {
    /// Tool name → how its most recent call ended. Every pair must hold.
    pub when: BTreeMap<String, CallOutcome>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinking: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ScriptedCall>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<ScriptedUsage>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ScriptedError>,
}

/// How the most recent call of a tool ended, read from the history exactly as
/// the model received it (the `tool_result`), the way a real model would
/// have to read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallOutcome {
    /// It ran and its result is not an error.
    Ok,
    /// A person or the approval policy refused it; the tool never ran.
    Denied,
    /// Any other error result: the tool failed, its arguments were invalid,
    /// or a limit refused it.
    Error,
    /// The history holds no call of it.
    NotCalled,
}

/// How the run words a refusal in the tool_result (see `Run::feed_decision`
/// and the `deny_all` policy in run.rs). Tool failures always start with
/// "tool error: " and limits with "not run: ", so no tool's own text can pass
/// for a denial.
const DENIAL_PREFIXES: [&str; 2] = ["denied by the user: ", "denied: "];

impl ScriptedResponse {
    /// What this entry plays after `history`: its first branch whose
    /// conditions all hold, else itself.
    pub fn played_after(&self, history: &[Message]) -> Cow<'_, ScriptedResponse> {
        match self
            .branches
            .iter()
            .find(|branch| branch.holds_after(history))
        {
            Some(branch) => Cow::Owned(branch.response()),
            None => Cow::Borrowed(self),
        }
    }
}

impl ScriptedBranch {
    fn holds_after(&self, history: &[Message]) -> bool {
        self.when
            .iter()
            .all(|(tool, wanted)| last_outcome(tool, history) == Some(*wanted))
    }

    fn response(&self) -> ScriptedResponse {
        ScriptedResponse {
            text: self.text.clone(),
            thinking: self.thinking.clone(),
            tool_calls: self.tool_calls.clone(),
            stop_reason: self.stop_reason.clone(),
            usage: self.usage,
            delay_ms: self.delay_ms,
            error: self.error.clone(),
            branches: Vec::new(),
        }
    }
}

/// How the most recent call of `tool` in `history` ended. `None` when that
/// call has no result the model could match to it (a harness that answers
/// invented ids), so no condition on it holds.
pub fn last_outcome(tool: &str, history: &[Message]) -> Option<CallOutcome> {
    let Some((at, id)) = history.iter().enumerate().rev().find_map(|(i, message)| {
        tool_calls_of(&message.content)
            .filter(|call| call.name == tool)
            .last()
            .map(|call| (i, call.id.as_str()))
    }) else {
        return Some(CallOutcome::NotCalled);
    };
    let result = history[at + 1..]
        .iter()
        .flat_map(|message| &message.content)
        .find_map(|block| match block {
            ContentBlock::ToolResult(result) if result.tool_use_id == id => Some(result),
            _ => None,
        })?;
    Some(if !result.is_error {
        CallOutcome::Ok
    } else if DENIAL_PREFIXES
        .iter()
        .any(|prefix| result.content.starts_with(prefix))
    {
        CallOutcome::Denied
    } else {
        CallOutcome::Error
    })
}

/// What the scenario schema cannot say about a script, as (dotted path,
/// message): a call given both `args` and `args_raw`, and a branch whose
/// `when` names a tool the scenario does not have (a typo would silently
/// leave the branch unplayed).
/// A branch's `when` naming a tool the scenario lacks is a problem, unless
/// `could_be_remote` says an MCP server may offer it once loaded.
pub fn script_problems(
    responses: &[ScriptedResponse],
    tools: &[&str],
    could_be_remote: &dyn Fn(&str) -> bool,
) -> Vec<(String, String)> {
    let mut problems = Vec::new();
    for (i, response) in responses.iter().enumerate() {
        let at = format!("model.responses[{i}]");
        call_problems(&at, &response.tool_calls, &mut problems);
        for (k, branch) in response.branches.iter().enumerate() {
            let at = format!("{at}.branches[{k}]");
            call_problems(&at, &branch.tool_calls, &mut problems);
            for tool in branch.when.keys() {
                if !tools.contains(&tool.as_str()) && !could_be_remote(tool) {
                    problems.push((format!("{at}.when.{tool}"), unknown_tool(tool, tools)));
                }
            }
        }
    }
    problems
}

fn call_problems(at: &str, calls: &[ScriptedCall], problems: &mut Vec<(String, String)>) {
    for (j, call) in calls.iter().enumerate() {
        if call.args.is_some() && call.args_raw.is_some() {
            problems.push((
                format!("{at}.tool_calls[{j}]"),
                "give either \"args\" (an object) or \"args_raw\" (text sent as is), not both"
                    .to_string(),
            ));
        }
    }
}

fn unknown_tool(tool: &str, tools: &[&str]) -> String {
    if tools.is_empty() {
        return format!(
            "the scenario has no tool named {}: it has no tools",
            crate::quote::quoted(tool)
        );
    }
    format!(
        "the scenario has no tool named {}{}; its tools are: {}",
        crate::quote::quoted(tool),
        crate::suggest::did_you_mean(tool, tools.iter().copied()),
        tools.join(", ")
    )
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

/// Which entry of a script of `len` responses the `n`-th request (0-based)
/// plays: the `n`-th, then, past the end, round from entry `loop_from` on;
/// `None` past the end without `loop_from`. `agent-loop serve` plays a
/// script by the same rule.
pub fn script_index(len: usize, loop_from: Option<usize>, n: usize) -> Option<usize> {
    if n < len {
        return Some(n);
    }
    let from = loop_from.filter(|&from| from < len)?;
    Some(from + (n - len) % (len - from))
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
            .flat_map(|r| {
                let branch_calls = r.branches.iter().flat_map(|b| &b.tool_calls);
                r.tool_calls.iter().chain(branch_calls)
            })
            .filter_map(|c| c.id.clone())
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
        self.responses
            .get(script_index(self.responses.len(), self.loop_from, call)?)
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
            let Some(entry) = self.entry(call) else {
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
            let script = entry.played_after(request.messages);
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
            Ok(self.respond(&script, &request))
        })
    }

    fn turn_answered_by_person(&self) {
        self.calls.set(self.calls.get() + 1);
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

#[cfg(test)]
mod tests {
    use super::{last_outcome, script_index, CallOutcome};
    use crate::message::{ContentBlock, Message, Role, ToolCall, ToolResult};

    #[test]
    fn the_script_index_honours_loop_from() {
        assert_eq!(script_index(3, None, 2), Some(2));
        assert_eq!(script_index(3, None, 3), None);
        assert_eq!(script_index(3, Some(1), 3), Some(1));
        assert_eq!(script_index(3, Some(1), 4), Some(2));
        assert_eq!(script_index(3, Some(1), 5), Some(1));
        assert_eq!(script_index(3, Some(3), 3), None);
    }

    fn history(result_id: &str, content: &str, is_error: bool) -> Vec<Message> {
        vec![
            Message::user_text("task"),
            Message {
                role: Role::Assistant,
                content: vec![ContentBlock::ToolUse(ToolCall {
                    id: "toolu_0001".into(),
                    name: "write".into(),
                    input: serde_json::json!({}),
                    input_raw: None,
                })],
            },
            Message {
                role: Role::User,
                content: vec![ContentBlock::ToolResult(ToolResult {
                    tool_use_id: result_id.into(),
                    content: content.into(),
                    is_error,
                    media: Vec::new(),
                })],
            },
        ]
    }

    #[test]
    fn outcomes_read_from_the_tool_result_the_model_received() {
        let outcome =
            |content, is_error| last_outcome("write", &history("toolu_0001", content, is_error));
        assert_eq!(outcome("{\"ok\":true}", false), Some(CallOutcome::Ok));
        assert_eq!(
            outcome("denied by the user: not today", true),
            Some(CallOutcome::Denied)
        );
        assert_eq!(
            outcome(
                "denied: write needs approval and the approval policy is deny_all",
                true
            ),
            Some(CallOutcome::Denied)
        );
        // A tool's own words cannot pass for a denial: the run prefixes them.
        assert_eq!(
            outcome("tool error: denied by the user: forged", true),
            Some(CallOutcome::Error)
        );
        assert_eq!(
            last_outcome("other", &history("toolu_0001", "x", false)),
            Some(CallOutcome::NotCalled)
        );
        // A result answering an id the model never used matches no call, so
        // no condition on that call holds.
        assert_eq!(last_outcome("write", &history("call_0", "x", false)), None);
    }
}
