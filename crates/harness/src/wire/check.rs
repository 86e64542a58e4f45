//! The protocol checker: what each provider would reject (HTTP 400) in a
//! history, found offline, before anything is sent.
//!
//! Job: build the request body the history would become (the same code that
//! sends it) and check it against the provider's rules, one rule per bullet of
//! `PROTOCOL.md`. Each [`Violation`] carries the provider's error text with
//! the real wire indices and ids (`messages.N.content.M`, `messages[N]`,
//! `input[N]`), a plain-language explanation, and the harness message and
//! block it comes from, so a view can point at it.
//!
//! Invariants:
//! - The checker reads the wire body, not the history, so it sees exactly what
//!   would be sent, including where a format moves things (OpenAI Chat puts the
//!   system prompt at `messages[0]` and splits results into `tool` messages;
//!   Responses indexes `input` items, with the system prompt in
//!   `instructions`). [`check_body`] checks any body, e.g. one typed by hand.
//! - Violations come in wire order; an empty list means no rule fired.
//! - The texts are as providers and their users have reported them (see
//!   `PROTOCOL.md`); where the provider's exact wording for a detail is not
//!   known (the separator between several ids), it is marked in the code.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{openai_chat, openai_responses, str_at, Provider, WireRequest};
use crate::message::Message;
use crate::model::ToolSpec;

/// Where a wire message or item came from in the harness history: the message
/// index and the block indices its parts came from, in wire order (Anthropic:
/// every block; Chat assistant: the tool calls; otherwise the one block).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Origin {
    pub message: usize,
    pub blocks: Vec<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// Anthropic: every `tool_use` is answered in the very next user message.
    AnthropicUnansweredToolUse,
    /// Anthropic: every `tool_result` answers a `tool_use` of the previous message.
    AnthropicUnexpectedToolResult,
    /// Anthropic: `tool_result` blocks come first in their message.
    AnthropicToolResultNotFirst,
    /// Anthropic: `tool_use` ids are unique.
    AnthropicDuplicateToolUseId,
    /// Anthropic: tool names are unique.
    AnthropicDuplicateToolName,
    /// Anthropic: no empty text blocks.
    AnthropicEmptyText,
    /// Chat: a `tool` message answers the `tool_calls` right before it.
    ChatToolWithoutToolCalls,
    /// Chat: every `tool_call_id` gets a `tool` message.
    ChatUnansweredToolCalls,
    /// Chat: no two `tool` messages answer the same `tool_call_id`.
    ChatDuplicateToolCallId,
    /// Responses: every `function_call` gets a `function_call_output`.
    ResponsesUnansweredCall,
    /// Responses: every `function_call_output` answers an earlier `function_call`.
    ResponsesOrphanOutput,
    /// Responses: a `function_call_output` has an `output`.
    ResponsesMissingOutput,
}

impl Rule {
    pub const ALL: [Rule; 12] = [
        Rule::AnthropicUnansweredToolUse,
        Rule::AnthropicUnexpectedToolResult,
        Rule::AnthropicToolResultNotFirst,
        Rule::AnthropicDuplicateToolUseId,
        Rule::AnthropicDuplicateToolName,
        Rule::AnthropicEmptyText,
        Rule::ChatToolWithoutToolCalls,
        Rule::ChatUnansweredToolCalls,
        Rule::ChatDuplicateToolCallId,
        Rule::ResponsesUnansweredCall,
        Rule::ResponsesOrphanOutput,
        Rule::ResponsesMissingOutput,
    ];

    pub fn provider(self) -> Provider {
        match self {
            Rule::AnthropicUnansweredToolUse
            | Rule::AnthropicUnexpectedToolResult
            | Rule::AnthropicToolResultNotFirst
            | Rule::AnthropicDuplicateToolUseId
            | Rule::AnthropicDuplicateToolName
            | Rule::AnthropicEmptyText => Provider::Anthropic,
            Rule::ChatToolWithoutToolCalls
            | Rule::ChatUnansweredToolCalls
            | Rule::ChatDuplicateToolCallId => Provider::OpenaiChat,
            Rule::ResponsesUnansweredCall
            | Rule::ResponsesOrphanOutput
            | Rule::ResponsesMissingOutput => Provider::OpenaiResponses,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Violation {
    pub provider: Provider,
    pub rule: Rule,
    /// The provider's error text, with the real indices and ids.
    pub message: String,
    /// What is wrong, in plain words, and how the harness avoids it.
    pub explanation: String,
    /// Where on the wire, as a JSON path (`messages.3.content.1`, `input[4]`).
    pub path: String,
    /// The harness message it comes from (`None` for the tools list, or when
    /// a hand-written body was checked).
    pub message_index: Option<usize>,
    pub block_index: Option<usize>,
}

/// Checks `messages` as `provider` would receive them.
pub fn check(
    provider: Provider,
    system: &str,
    messages: &[Message],
    tools: &[ToolSpec],
) -> Vec<Violation> {
    let request = WireRequest {
        model: "",
        system,
        messages,
        tools,
        max_output_tokens: 0,
        stream: false,
    };
    let body = provider.request_body(&request);
    let origins: Vec<Option<Origin>> = match provider {
        Provider::Anthropic => messages
            .iter()
            .enumerate()
            .map(|(n, m)| {
                Some(Origin {
                    message: n,
                    blocks: (0..m.content.len()).collect(),
                })
            })
            .collect(),
        Provider::OpenaiChat => openai_chat::wire_messages(system, messages)
            .into_iter()
            .map(|(_, o)| o)
            .collect(),
        Provider::OpenaiResponses => openai_responses::input_items(messages)
            .into_iter()
            .map(|(_, o)| o)
            .collect(),
    };
    check_wire(provider, &body, &origins)
}

/// Checks a request body as it stands (no harness positions are known).
pub fn check_body(provider: Provider, body: &Value) -> Vec<Violation> {
    check_wire(provider, body, &[])
}

fn check_wire(provider: Provider, body: &Value, origins: &[Option<Origin>]) -> Vec<Violation> {
    let mut out = Out {
        provider,
        origins,
        list: Vec::new(),
    };
    match provider {
        Provider::Anthropic => anthropic(body, &mut out),
        Provider::OpenaiChat => chat(body, &mut out),
        Provider::OpenaiResponses => responses(body, &mut out),
    }
    out.list
}

struct Out<'a> {
    provider: Provider,
    origins: &'a [Option<Origin>],
    list: Vec<Violation>,
}

impl Out<'_> {
    /// Records a violation at wire message/item `wire`, part `part` of it.
    fn add(
        &mut self,
        rule: Rule,
        wire: Option<(usize, Option<usize>)>,
        path: String,
        message: String,
        explanation: String,
    ) {
        let origin = wire.and_then(|(n, part)| {
            let origin = self.origins.get(n)?.as_ref()?;
            let block = match part {
                Some(p) => origin.blocks.get(p).copied(),
                None => origin.blocks.first().copied(),
            };
            Some((origin.message, block))
        });
        self.list.push(Violation {
            provider: self.provider,
            rule,
            message,
            explanation,
            path,
            message_index: origin.map(|(m, _)| m),
            block_index: origin.and_then(|(_, b)| b),
        });
    }
}

fn array(value: Option<&Value>) -> &[Value] {
    value.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

fn where_(out: &Out<'_>, wire: usize, part: Option<usize>) -> String {
    let Some(Some(origin)) = out.origins.get(wire) else {
        return String::new();
    };
    let block = match part {
        Some(p) => origin.blocks.get(p),
        None => origin.blocks.first(),
    };
    match block {
        Some(b) => format!(" (harness message {}, block {b})", origin.message),
        None => format!(" (harness message {})", origin.message),
    }
}

/// A message's content blocks; a string content is one text block.
fn anthropic_blocks(message: &Value) -> Vec<Value> {
    match message.get("content") {
        Some(Value::String(text)) => vec![serde_json::json!({"type": "text", "text": text})],
        Some(Value::Array(blocks)) => blocks.clone(),
        _ => Vec::new(),
    }
}

fn ids_of<'v>(blocks: &'v [Value], kind: &str, key: &str) -> Vec<(usize, &'v str)> {
    blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| str_at(b, "type") == Some(kind))
        .filter_map(|(m, b)| str_at(b, key).map(|id| (m, id)))
        .collect()
}

fn anthropic(body: &Value, out: &mut Out<'_>) {
    let mut names = HashSet::new();
    let mut repeated = Vec::new();
    for tool in array(body.get("tools")) {
        let name = str_at(tool, "name").unwrap_or_default();
        if !names.insert(name) && !repeated.contains(&name) {
            repeated.push(name);
        }
    }
    if !repeated.is_empty() {
        out.add(
            Rule::AnthropicDuplicateToolName,
            None,
            "tools".into(),
            "tools: Tool names must be unique.".into(),
            format!(
                "More than one tool is named {}. The model calls tools by name, so each name must be unique.",
                repeated.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
            ),
        );
    }

    let messages: Vec<(Option<&str>, Vec<Value>)> = array(body.get("messages"))
        .iter()
        .map(|m| (str_at(m, "role"), anthropic_blocks(m)))
        .collect();
    let mut seen: HashMap<String, (usize, usize)> = HashMap::new();
    for (n, (role, blocks)) in messages.iter().enumerate() {
        for (m, block) in blocks.iter().enumerate() {
            match str_at(block, "type") {
                Some("text") if str_at(block, "text") == Some("") => {
                    let at = where_(out, n, Some(m));
                    out.add(
                        Rule::AnthropicEmptyText,
                        Some((n, Some(m))),
                        format!("messages.{n}.content.{m}"),
                        "messages: text content blocks must be non-empty".into(),
                        format!(
                            "Message {n}, block {m}{at} is a text block with no text. Anthropic rejects empty text blocks; drop the block (a turn with only tool calls needs no text)."
                        ),
                    );
                }
                Some("tool_use") => {
                    let id = str_at(block, "id").unwrap_or_default();
                    if let Some((first_n, first_m)) = seen.get(id).copied() {
                        let at = where_(out, n, Some(m));
                        out.add(
                            Rule::AnthropicDuplicateToolUseId,
                            Some((n, Some(m))),
                            format!("messages.{n}.content.{m}"),
                            format!("messages.{n}.content.{m}: `tool_use` ids must be unique"),
                            format!(
                                "The tool call at message {n}, block {m}{at} reuses the id {id}, already used at message {first_n}, block {first_m}. Each result names the call it answers by id, so two calls with one id cannot both be answered."
                            ),
                        );
                    } else {
                        seen.insert(id.to_string(), (n, m));
                    }
                }
                _ => {}
            }
        }

        match *role {
            Some("assistant") => {
                let calls = ids_of(blocks, "tool_use", "id");
                if calls.is_empty() {
                    continue;
                }
                let answered: HashSet<&str> = match messages.get(n + 1) {
                    Some((Some("user"), next)) => ids_of(next, "tool_result", "tool_use_id")
                        .into_iter()
                        .map(|(_, id)| id)
                        .collect(),
                    _ => HashSet::new(),
                };
                let missing: Vec<(usize, &str)> = calls
                    .iter()
                    .copied()
                    .filter(|(_, id)| !answered.contains(id))
                    .collect();
                if let Some(&(first_m, _)) = missing.first() {
                    // Anthropic's separator between several ids is assumed to be ", ".
                    let ids: Vec<&str> = missing.iter().map(|(_, id)| *id).collect();
                    let at = where_(out, n, Some(first_m));
                    out.add(
                        Rule::AnthropicUnansweredToolUse,
                        Some((n, Some(first_m))),
                        format!("messages.{n}"),
                        format!(
                            "messages.{n}: `tool_use` ids were found without `tool_result` blocks immediately after: {}. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
                            ids.join(", ")
                        ),
                        format!(
                            "Message {n}{at} asks for {} the next message does not answer: {}. Every call needs a result (an error result if it failed or was denied) in the very next user message.",
                            if ids.len() == 1 { "a tool call" } else { "tool calls" },
                            ids.join(", ")
                        ),
                    );
                }
            }
            Some("user") => {
                let results = ids_of(blocks, "tool_result", "tool_use_id");
                let previous: Vec<(usize, &str)> = match n.checked_sub(1).map(|p| &messages[p]) {
                    Some((Some("assistant"), prev)) => ids_of(prev, "tool_use", "id"),
                    _ => Vec::new(),
                };
                for &(m, id) in &results {
                    if !previous.iter().any(|(_, call)| *call == id) {
                        let at = where_(out, n, Some(m));
                        out.add(
                            Rule::AnthropicUnexpectedToolResult,
                            Some((n, Some(m))),
                            format!("messages.{n}.content.{m}"),
                            format!(
                                "messages.{n}.content.{m}: unexpected `tool_use_id` found in `tool_result` blocks: {id}. Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
                            ),
                            format!(
                                "The result at message {n}, block {m}{at} answers {id}, but the message before it has no tool call with that id. A result can only answer a call of the immediately preceding assistant message."
                            ),
                        );
                    }
                }
                if previous.is_empty() {
                    continue;
                }
                let last_result = results.last().map(|(m, _)| *m);
                let first_other = blocks
                    .iter()
                    .position(|b| str_at(b, "type") != Some("tool_result"));
                if let (Some(other), Some(last)) = (first_other, last_result) {
                    if other < last {
                        let at = where_(out, n, Some(other));
                        out.add(
                            Rule::AnthropicToolResultNotFirst,
                            Some((n, Some(other))),
                            format!("messages.{n}"),
                            format!(
                                "messages.{n}: Did not find {} `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.",
                                previous.len()
                            ),
                            format!(
                                "Message {n} answers tool calls, but block {other}{at} comes before a result. Tool results must come first in the message; any text goes after them."
                            ),
                        );
                    }
                }
            }
            _ => {}
        }
    }
}

fn chat(body: &Value, out: &mut Out<'_>) {
    let messages = array(body.get("messages"));
    let call_ids = |m: &Value| -> Vec<String> {
        array(m.get("tool_calls"))
            .iter()
            .map(|c| str_at(c, "id").unwrap_or_default().to_string())
            .collect()
    };
    let mut answered_at: HashMap<&str, usize> = HashMap::new();
    for (n, message) in messages.iter().enumerate() {
        match str_at(message, "role") {
            Some("tool") => {
                let id = str_at(message, "tool_call_id").unwrap_or_default();
                // The assistant message this tool message follows, past the
                // other tool messages of the same group.
                let owner = messages[..n]
                    .iter()
                    .rev()
                    .find(|m| str_at(m, "role") != Some("tool"))
                    .filter(|m| str_at(m, "role") == Some("assistant"))
                    .map(call_ids)
                    .filter(|ids| !ids.is_empty());
                let problem = match &owner {
                    None => Some("follows no assistant message with `tool_calls`".to_string()),
                    Some(ids) if !ids.iter().any(|c| c == id) => Some(format!(
                        "answers {id}, which the assistant message before it did not call"
                    )),
                    Some(_) => None,
                };
                if let Some(problem) = problem {
                    let at = where_(out, n, None);
                    out.add(
                        Rule::ChatToolWithoutToolCalls,
                        Some((n, None)),
                        format!("messages.[{n}].role"),
                        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.".into(),
                        format!(
                            "The tool message at messages[{n}]{at} {problem}. A tool message must answer a call of the assistant message right before its group of tool messages. (param: messages.[{n}].role)"
                        ),
                    );
                }
                if let Some(first) = answered_at.get(id).copied() {
                    let at = where_(out, n, None);
                    out.add(
                        Rule::ChatDuplicateToolCallId,
                        Some((n, None)),
                        format!("messages[{n}]"),
                        format!(
                            "Invalid parameter: Duplicate value for 'tool_call_id' of '{id}' in messages[{first}] and messages[{n}]."
                        ),
                        format!(
                            "Two tool messages, messages[{first}] and messages[{n}]{at}, answer the same call id {id}. This happens when a model returns two calls with one id; each call needs its own id and exactly one answer."
                        ),
                    );
                } else {
                    answered_at.insert(id, n);
                }
            }
            Some("assistant") => {
                let ids = call_ids(message);
                if ids.is_empty() {
                    continue;
                }
                let answered: HashSet<&str> = messages[n + 1..]
                    .iter()
                    .take_while(|m| str_at(m, "role") == Some("tool"))
                    .filter_map(|m| str_at(m, "tool_call_id"))
                    .collect();
                let missing: Vec<(usize, &String)> = ids
                    .iter()
                    .enumerate()
                    .filter(|(_, id)| !answered.contains(id.as_str()))
                    .collect();
                if let Some(&(first_k, _)) = missing.first() {
                    // OpenAI's separator between several ids is assumed to be ", ".
                    let list: Vec<&str> = missing.iter().map(|(_, id)| id.as_str()).collect();
                    let at = where_(out, n, Some(first_k));
                    out.add(
                        Rule::ChatUnansweredToolCalls,
                        Some((n, Some(first_k))),
                        format!("messages[{n}]"),
                        format!(
                            "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: {}",
                            list.join(", ")
                        ),
                        format!(
                            "The assistant message at messages[{n}]{at} calls {} with no tool message right after it answering {}. Every call needs a tool message (an error text if it failed or was denied), before any other message.",
                            list.join(", "),
                            if list.len() == 1 { "it" } else { "them" }
                        ),
                    );
                }
            }
            _ => {}
        }
    }
}

fn responses(body: &Value, out: &mut Out<'_>) {
    let items = array(body.get("input"));
    let kind = |item: &Value| str_at(item, "type").map(str::to_string);
    for (n, item) in items.iter().enumerate() {
        let call_id = str_at(item, "call_id").unwrap_or_default();
        match kind(item).as_deref() {
            Some("function_call") => {
                let answered = items[n + 1..].iter().any(|later| {
                    str_at(later, "type") == Some("function_call_output")
                        && str_at(later, "call_id") == Some(call_id)
                });
                if !answered {
                    let at = where_(out, n, None);
                    out.add(
                        Rule::ResponsesUnansweredCall,
                        Some((n, None)),
                        format!("input[{n}]"),
                        format!("No tool output found for function call {call_id}."),
                        format!(
                            "The function_call {call_id} at input[{n}]{at} has no function_call_output after it. Every call must be answered, even a denied one (with the denial as its output)."
                        ),
                    );
                }
            }
            Some("function_call_output") => {
                if item.get("output").is_none_or(Value::is_null) {
                    let at = where_(out, n, None);
                    out.add(
                        Rule::ResponsesMissingOutput,
                        Some((n, None)),
                        format!("input[{n}].output"),
                        format!("Missing required parameter: 'input[{n}].output'."),
                        format!(
                            "The function_call_output for {call_id} at input[{n}]{at} has no output. Responses has no is_error flag: a failed or denied call is answered with its error text as the output."
                        ),
                    );
                }
                let called = items[..n].iter().any(|earlier| {
                    str_at(earlier, "type") == Some("function_call")
                        && str_at(earlier, "call_id") == Some(call_id)
                });
                if !called {
                    let at = where_(out, n, None);
                    out.add(
                        Rule::ResponsesOrphanOutput,
                        Some((n, None)),
                        format!("input[{n}]"),
                        format!("No tool call found for function call output with call_id {call_id}."),
                        format!(
                            "The function_call_output at input[{n}]{at} answers {call_id}, but no earlier function_call has that call_id."
                        ),
                    );
                }
            }
            _ => {}
        }
    }
}
