//! Chat Completions' protocol rules: what the API rejects with HTTP 400,
//! checked on the request body (one function per rule, each with its sources),
//! with OpenAI's own error texts.
//!
//! Wire indices are not harness indices here (the system prompt is
//! `messages[0]`, and each tool result is its own `tool` message), so the
//! origins come from the request builder itself
//! (`request_body_and_origins`).

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::wire::verdict::{Findings, Rule};
use crate::wire::{array, place, str_at};

/// "the 3rd message (assistant)": wire message `n`, as the body shows it.
fn message_place(messages: &[Value], n: usize) -> String {
    place::item("message", n, str_at(&messages[n], "role"))
}

/// "the 3rd message (assistant), its 1st tool call": wire message `n`, and
/// entry `call` of its `tool_calls` when there is one.
fn wire_place(messages: &[Value], n: usize, call: Option<usize>) -> String {
    place::joined(
        message_place(messages, n),
        call.map(|k| place::part("tool call", k, None)),
    )
}

/// The ids of a message's `tool_calls`, in order (a call without one counts
/// as the empty id).
fn call_ids(message: &Value) -> Vec<&str> {
    array(message.get("tool_calls"))
        .iter()
        .map(|c| str_at(c, "id").unwrap_or_default())
        .collect()
}

/// Chat Completions' rules, run on a request body, in one pass: the calls a
/// group of tool messages may answer are kept from the last message that
/// was not a tool message, and the ids answered so far are a map, so the
/// check grows linearly with the history.
pub(crate) fn rules(body: &Value, findings: &mut Findings<'_>) {
    let messages = array(body.get("messages"));
    // The ids the current group of tool messages may answer: those of the
    // last message that is not a tool message, when it is an assistant
    // message with `tool_calls`.
    let mut owner: Option<HashSet<&str>> = None;
    let mut answered_at: HashMap<&str, usize> = HashMap::new();
    for (n, message) in messages.iter().enumerate() {
        match str_at(message, "role") {
            Some("tool") => {
                tool_without_tool_calls(messages, n, owner.as_ref(), findings);
                duplicate_tool_call_id(messages, n, &mut answered_at, findings);
            }
            role => {
                let ids = call_ids(message);
                owner = (role == Some("assistant") && !ids.is_empty())
                    .then(|| ids.iter().copied().collect());
                if role == Some("assistant") {
                    unanswered_tool_calls(messages, n, &ids, findings);
                }
            }
        }
    }
}

/// Tool message `n` answers a call of the assistant message before its group
/// (`owner`: that message's call ids, `None` when there is none).
fn tool_without_tool_calls(
    messages: &[Value],
    n: usize,
    owner: Option<&HashSet<&str>>,
    findings: &mut Findings<'_>,
) {
    let id = str_at(&messages[n], "tool_call_id").unwrap_or_default();
    let problem = match owner {
        None => "follows no assistant message with `tool_calls`".to_string(),
        Some(ids) if !ids.contains(id) => {
            format!("answers {id}, which the assistant message before it did not call")
        }
        Some(_) => return,
    };
    let at = wire_place(messages, n, None);
    findings.add(
        Rule::ChatToolWithoutToolCalls,
        Some((n, None)),
        at.clone(),
        format!("messages.[{n}].role"),
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.".into(),
        format!(
            "{} {problem}. A tool message must answer a call of the assistant message right before its group of tool messages.",
            place::capitalized(&at)
        ),
    );
}

/// No two tool messages answer one id (`answered_at`: each id's first answer).
fn duplicate_tool_call_id<'v>(
    messages: &'v [Value],
    n: usize,
    answered_at: &mut HashMap<&'v str, usize>,
    findings: &mut Findings<'_>,
) {
    let id = str_at(&messages[n], "tool_call_id").unwrap_or_default();
    let Some(&first) = answered_at.get(id) else {
        answered_at.insert(id, n);
        return;
    };
    let at = wire_place(messages, n, None);
    findings.add(
        Rule::ChatDuplicateToolCallId,
        Some((n, None)),
        at.clone(),
        format!("messages[{n}]"),
        format!(
            "Invalid parameter: Duplicate value for 'tool_call_id' of '{id}' in messages[{first}] and messages[{n}]."
        ),
        format!(
            "{} answers the call id {id}, which {} already answers. This happens when a model returns two calls with one id; each call needs its own id and exactly one answer.",
            place::capitalized(&at),
            wire_place(messages, first, None)
        ),
    );
}

/// Each call of assistant message `n` (its ids: `ids`) is answered by the
/// tool messages right after it.
fn unanswered_tool_calls(messages: &[Value], n: usize, ids: &[&str], findings: &mut Findings<'_>) {
    if ids.is_empty() {
        return;
    }
    let answered: HashSet<&str> = messages[n + 1..]
        .iter()
        .take_while(|m| str_at(m, "role") == Some("tool"))
        .filter_map(|m| str_at(m, "tool_call_id"))
        .collect();
    let missing: Vec<(usize, &str)> = ids
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, id)| !answered.contains(id))
        .collect();
    let Some(&(first_k, _)) = missing.first() else {
        return;
    };
    // OpenAI's separator between several ids is assumed to be ", ".
    let list: Vec<&str> = missing.iter().map(|(_, id)| *id).collect();
    findings.add(
        Rule::ChatUnansweredToolCalls,
        Some((n, Some(first_k))),
        wire_place(messages, n, Some(first_k)),
        format!("messages[{n}]"),
        format!(
            "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: {}",
            list.join(", ")
        ),
        format!(
            "{} calls {} with no tool message right after it answering {}. Every call needs a tool message (an error text if it failed or was denied), before any other message.",
            place::capitalized(&message_place(messages, n)),
            list.join(", "),
            if list.len() == 1 { "it" } else { "them" }
        ),
    );
}
