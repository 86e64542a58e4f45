//! Anthropic's protocol rules: what the Messages API rejects with HTTP 400,
//! checked on the request body (one rule per Anthropic bullet of
//! `PROTOCOL.md`), with Anthropic's own error texts.
//!
//! The messages array is the history one to one, so wire message N is
//! harness message N and block M is block M.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::message::Message;
use crate::wire::verdict::{Findings, Rule};
use crate::wire::{array, place, str_at, Origin};

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

/// A wire message: its role and its content blocks.
type WireMessage<'v> = (Option<&'v str>, Cow<'v, [Value]>);

/// A message's content blocks; a string content is one text block.
fn anthropic_blocks(message: &Value) -> Cow<'_, [Value]> {
    match message.get("content") {
        Some(Value::String(text)) => {
            Cow::Owned(vec![serde_json::json!({"type": "text", "text": text})])
        }
        Some(Value::Array(blocks)) => Cow::Borrowed(blocks),
        _ => Cow::Borrowed(&[]),
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

/// "the 2nd message (assistant)": wire message `n`, as the body shows it.
fn message_place(messages: &[WireMessage<'_>], n: usize) -> String {
    place::item("message", n, messages[n].0)
}

/// "its 2nd block, a tool_use": block `m` of wire message `n`.
fn block_place(messages: &[WireMessage<'_>], n: usize, m: usize) -> String {
    place::part("block", m, str_at(&messages[n].1[m], "type"))
}

/// "the 2nd message (assistant), its 2nd block, a tool_use".
fn wire_place(messages: &[WireMessage<'_>], n: usize, m: usize) -> String {
    place::joined(
        message_place(messages, n),
        Some(block_place(messages, n, m)),
    )
}

/// Anthropic's rules, run on a Messages request body. Every rule is one pass
/// (ids seen so far are a map, a message is compared only with its
/// neighbours), so the check grows linearly with the history.
pub(crate) fn rules(body: &Value, findings: &mut Findings<'_>) {
    duplicate_tool_names(body, findings);
    let messages: Vec<WireMessage<'_>> = array(body.get("messages"))
        .iter()
        .map(|m| (str_at(m, "role"), anthropic_blocks(m)))
        .collect();
    let mut seen: HashMap<&str, (usize, usize)> = HashMap::new();
    for n in 0..messages.len() {
        block_rules(&messages, n, &mut seen, findings);
        match messages[n].0 {
            Some("assistant") => unanswered_tool_use(&messages, n, findings),
            Some("user") => results_rules(&messages, n, findings),
            _ => {}
        }
    }
}

/// Tool names are unique: one finding naming every repeated name once, in
/// the order they first repeat.
fn duplicate_tool_names(body: &Value, findings: &mut Findings<'_>) {
    let mut names = HashSet::new();
    let mut named_twice = HashSet::new();
    let mut repeated = Vec::new();
    for tool in array(body.get("tools")) {
        let name = str_at(tool, "name").unwrap_or_default();
        if !names.insert(name) && named_twice.insert(name) {
            repeated.push(name);
        }
    }
    if repeated.is_empty() {
        return;
    }
    findings.add(
        Rule::AnthropicDuplicateToolName,
        None,
        "the tools list".into(),
        "tools".into(),
        "tools: Tool names must be unique.".into(),
        format!(
            "More than one tool is named {}. The model calls tools by name, so each name must be unique.",
            repeated.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
        ),
    );
}

/// The rules on single blocks of message `n`: no empty text, no `tool_use`
/// id used before (`seen` holds each id's first place).
fn block_rules<'v>(
    messages: &'v [WireMessage<'v>],
    n: usize,
    seen: &mut HashMap<&'v str, (usize, usize)>,
    findings: &mut Findings<'_>,
) {
    for (m, block) in messages[n].1.iter().enumerate() {
        match str_at(block, "type") {
            Some("text") if str_at(block, "text") == Some("") => {
                let at = wire_place(messages, n, m);
                findings.add(
                    Rule::AnthropicEmptyText,
                    Some((n, Some(m))),
                    at.clone(),
                    format!("messages.{n}.content.{m}"),
                    "messages: text content blocks must be non-empty".into(),
                    format!(
                        "{}, is empty. Anthropic rejects empty text blocks; drop the block (a turn with only tool calls needs no text).",
                        place::capitalized(&at)
                    ),
                );
            }
            Some("tool_use") => {
                let id = str_at(block, "id").unwrap_or_default();
                let Some(&(first_n, first_m)) = seen.get(id) else {
                    seen.insert(id, (n, m));
                    continue;
                };
                let at = wire_place(messages, n, m);
                findings.add(
                    Rule::AnthropicDuplicateToolUseId,
                    Some((n, Some(m))),
                    at.clone(),
                    format!("messages.{n}.content.{m}"),
                    format!("messages.{n}.content.{m}: `tool_use` ids must be unique"),
                    format!(
                        "{}, reuses the id {id}, already used by {}. Each result names the call it answers by id, so two calls with one id cannot both be answered.",
                        place::capitalized(&at),
                        wire_place(messages, first_n, first_m)
                    ),
                );
            }
            _ => {}
        }
    }
}

/// Every `tool_use` of assistant message `n` is answered in the next message.
fn unanswered_tool_use(messages: &[WireMessage<'_>], n: usize, findings: &mut Findings<'_>) {
    let calls = ids_of(&messages[n].1, "tool_use", "id");
    if calls.is_empty() {
        return;
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
    let Some(&(first_m, _)) = missing.first() else {
        return;
    };
    // Anthropic's separator between several ids is assumed to be ", ".
    let ids: Vec<&str> = missing.iter().map(|(_, id)| *id).collect();
    findings.add(
        Rule::AnthropicUnansweredToolUse,
        Some((n, Some(first_m))),
        wire_place(messages, n, first_m),
        format!("messages.{n}"),
        format!(
            "messages.{n}: `tool_use` ids were found without `tool_result` blocks immediately after: {}. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
            ids.join(", ")
        ),
        format!(
            "{} asks for {} the next message does not answer: {}. Every call needs a result (an error result if it failed or was denied) in the very next user message.",
            place::capitalized(&message_place(messages, n)),
            if ids.len() == 1 { "a tool call" } else { "tool calls" },
            ids.join(", ")
        ),
    );
}

/// A second `tool_result` for one `tool_use` in the same message. Anthropic
/// refuses it ("each tool_use must have a single result"), as public issue
/// threads report; its documentation does not list the error. Two calls
/// sharing an id are the duplicate-id rule's, so results are counted
/// against the calls with that id.
fn multiple_results(
    messages: &[WireMessage<'_>],
    n: usize,
    m: usize,
    id: &str,
    findings: &mut Findings<'_>,
) {
    let at = wire_place(messages, n, m);
    findings.add(
        Rule::AnthropicMultipleToolResults,
        Some((n, Some(m))),
        at.clone(),
        format!("messages.{n}.content.{m}"),
        format!(
            "messages.{n}.content.{m}: each tool_use must have a single result. Found multiple `tool_result` blocks with id: {id}"
        ),
        format!(
            "{}, answers {id} again: the call already has a result in this message. Each call gets exactly one result.",
            place::capitalized(&at)
        ),
    );
}

/// The rules on user message `n`'s results: each answers a call of the
/// message before it, once, and they come before any other block.
fn results_rules(messages: &[WireMessage<'_>], n: usize, findings: &mut Findings<'_>) {
    let blocks = &messages[n].1;
    let results = ids_of(blocks, "tool_result", "tool_use_id");
    let previous: Vec<(usize, &str)> = match n.checked_sub(1).map(|p| &messages[p]) {
        Some((Some("assistant"), prev)) => ids_of(prev, "tool_use", "id"),
        _ => Vec::new(),
    };
    // How many calls of the message before have each id, and how many
    // results this message has given each so far.
    let mut called: HashMap<&str, usize> = HashMap::new();
    for &(_, id) in &previous {
        *called.entry(id).or_default() += 1;
    }
    let mut answered: HashMap<&str, usize> = HashMap::new();
    for &(m, id) in &results {
        if let Some(&calls) = called.get(id) {
            let given = answered.entry(id).or_default();
            *given += 1;
            if *given > calls {
                multiple_results(messages, n, m, id, findings);
            }
            continue;
        }
        let at = wire_place(messages, n, m);
        findings.add(
            Rule::AnthropicUnexpectedToolResult,
            Some((n, Some(m))),
            at.clone(),
            format!("messages.{n}.content.{m}"),
            format!(
                "messages.{n}.content.{m}: unexpected `tool_use_id` found in `tool_result` blocks: {id}. Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
            ),
            format!(
                "{}, answers {id}, but the message before it has no tool call with that id. A result can only answer a call of the immediately preceding assistant message.",
                place::capitalized(&at)
            ),
        );
    }
    if previous.is_empty() {
        return;
    }
    let last_result = results.last().map(|(m, _)| *m);
    let first_other = blocks
        .iter()
        .position(|b| str_at(b, "type") != Some("tool_result"));
    let (Some(other), Some(last)) = (first_other, last_result) else {
        return;
    };
    if other > last {
        return;
    }
    findings.add(
        Rule::AnthropicToolResultNotFirst,
        Some((n, Some(other))),
        wire_place(messages, n, other),
        format!("messages.{n}"),
        format!(
            "messages.{n}: Did not find {} `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.",
            previous.len()
        ),
        format!(
            "{} answers tool calls, but {}, comes before a result. Tool results must come first in the message; any text goes after them.",
            place::capitalized(&message_place(messages, n)),
            block_place(messages, n, other)
        ),
    );
}
