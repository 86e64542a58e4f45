//! Chat Completions' protocol rules: what the API rejects with HTTP 400,
//! checked on the request body (one rule per Chat bullet of `PROTOCOL.md`),
//! with OpenAI's own error texts.
//!
//! Wire indices are not harness indices here (the system prompt is
//! `messages[0]`, and each tool result is its own `tool` message), so the
//! origins come from the request builder itself.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::message::Message;
use crate::wire::verdict::{Findings, Rule};
use crate::wire::{array, str_at, Origin};

/// Where each wire message came from (`None` for the system prompt).
pub(crate) fn origins(system: &str, messages: &[Message]) -> Vec<Option<Origin>> {
    super::wire_messages(system, messages)
        .into_iter()
        .map(|(_, origin)| origin)
        .collect()
}

/// Chat Completions' rules, run on a request body.
pub(crate) fn rules(body: &Value, findings: &mut Findings<'_>) {
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
                    let at = findings.harness_place(n, None);
                    findings.add(
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
                    let at = findings.harness_place(n, None);
                    findings.add(
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
                    let at = findings.harness_place(n, Some(first_k));
                    findings.add(
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
