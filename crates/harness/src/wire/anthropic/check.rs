//! Anthropic's protocol rules: what the Messages API rejects with HTTP 400,
//! checked on the request body (one rule per Anthropic bullet of
//! `PROTOCOL.md`), with Anthropic's own error texts.
//!
//! The messages array is the history one to one, so wire message N is
//! harness message N and block M is block M.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::message::Message;
use crate::wire::verdict::{Findings, Rule};
use crate::wire::{array, str_at, Origin};

/// Where each wire message came from: message N, all its blocks.
pub(crate) fn origins(messages: &[Message]) -> Vec<Option<Origin>> {
    messages
        .iter()
        .enumerate()
        .map(|(n, m)| {
            Some(Origin {
                message: n,
                blocks: (0..m.content.len()).collect(),
            })
        })
        .collect()
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

/// Anthropic's rules, run on a Messages request body.
pub(crate) fn rules(body: &Value, findings: &mut Findings<'_>) {
    let mut names = HashSet::new();
    let mut repeated = Vec::new();
    for tool in array(body.get("tools")) {
        let name = str_at(tool, "name").unwrap_or_default();
        if !names.insert(name) && !repeated.contains(&name) {
            repeated.push(name);
        }
    }
    if !repeated.is_empty() {
        findings.add(
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
                    let at = findings.harness_place(n, Some(m));
                    findings.add(
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
                        let at = findings.harness_place(n, Some(m));
                        findings.add(
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
                    let at = findings.harness_place(n, Some(first_m));
                    findings.add(
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
                        let at = findings.harness_place(n, Some(m));
                        findings.add(
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
                        let at = findings.harness_place(n, Some(other));
                        findings.add(
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
