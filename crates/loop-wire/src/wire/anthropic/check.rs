//! Anthropic's protocol rules: what the Messages API rejects with HTTP 400,
//! checked on the request body (one function per rule,
//! each with its sources), with Anthropic's own error texts.
//!
//! The messages array is the history one to one, so wire message N is
//! harness message N and block M is block M.

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::Value;

use super::pairs::{self, Answers, Judged, Said, Speaker};
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
/// neighbours), so the check grows linearly with the history. The pairing
/// rules report the verdicts of `pairs::judge`, which the conversation
/// drawing sums per id, so the two never disagree on what is broken.
pub(crate) fn rules(body: &Value, findings: &mut Findings<'_>) {
    duplicate_tool_names(body, findings);
    forced_tool_with_thinking(body, findings);
    let messages: Vec<WireMessage<'_>> = array(body.get("messages"))
        .iter()
        .map(|m| (str_at(m, "role"), anthropic_blocks(m)))
        .collect();
    let said: Vec<Said<'_>> = messages
        .iter()
        .map(|(role, blocks)| Said {
            speaker: speaker(*role),
            calls: ids_of(blocks, "tool_use", "id"),
            results: ids_of(blocks, "tool_result", "tool_use_id"),
        })
        .collect();
    let judged = pairs::judge(&said);
    let thinking_opener = thinking_asked(body)
        .then(|| open_loop_opener(&messages))
        .flatten();
    for n in 0..messages.len() {
        if thinking_opener == Some(n) {
            thinking_not_first(&messages, n, findings);
        }
        block_rules(&messages, n, &judged[n], findings);
        match said[n].speaker {
            Speaker::Assistant => unanswered_tool_use(&messages, n, &judged[n], findings),
            Speaker::User => results_rules(&messages, n, &said, &judged[n], findings),
            Speaker::Other => {}
        }
    }
}

/// A wire message's role, as the pairing reads it.
fn speaker(role: Option<&str>) -> Speaker {
    match role {
        Some("assistant") => Speaker::Assistant,
        Some("user") => Speaker::User,
        _ => Speaker::Other,
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

/// With `thinking` enabled, a `tool_choice` that forces a tool (`any`, or
/// a named `tool`) is refused. Anthropic documents it under "Forcing tool
/// use"
/// (<https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#forcing-tool-use>):
/// "When using extended thinking with tool use, `tool_choice: {"type":
/// "any"}` and `tool_choice: {"type": "tool", "name": "..."}` are not
/// supported and will result in an error. Only `tool_choice: {"type":
/// "auto"}` (the default) and `tool_choice: {"type": "none"}` are
/// compatible with extended thinking." The 400's text is as users quote
/// it: <https://github.com/mastra-ai/mastra/issues/7507>,
/// <https://github.com/can1357/oh-my-pi/issues/341>.
fn forced_tool_with_thinking(body: &Value, findings: &mut Findings<'_>) {
    let forced = body
        .get("tool_choice")
        .and_then(|choice| str_at(choice, "type"))
        .filter(|kind| matches!(*kind, "any" | "tool"));
    let (Some(kind), true) = (forced, thinking_asked(body)) else {
        return;
    };
    let what = match kind {
        "any" => "tool_choice \"any\" forces a call of some tool".to_string(),
        _ => format!(
            "tool_choice names {}, which forces its call",
            str_at(&body["tool_choice"], "name").map_or("a tool".to_string(), |n| format!("`{n}`"))
        ),
    };
    findings.add(
        Rule::AnthropicThinkingWithForcedTool,
        None,
        "the tool_choice setting".into(),
        "tool_choice".into(),
        "Thinking may not be enabled when tool_choice forces tool use.".into(),
        format!(
            "The request turns on extended thinking, and {what}. Anthropic refuses the two together: with thinking, tool_choice may only be auto or none."
        ),
    );
}

/// Makes `body` ask for extended thinking, as a harness that turned it on
/// sends every request; the checker reads only the `type`.
pub(crate) fn ask_for_thinking(body: &mut Value) {
    body["thinking"] = serde_json::json!({"type": "enabled"});
}

/// Whether the body turns on extended thinking (`"type": "enabled"`). With
/// adaptive thinking the model may skip thinking, so a turn without a
/// thinking block proves nothing there and is not flagged.
fn thinking_asked(body: &Value) -> bool {
    body.get("thinking")
        .is_some_and(|t| str_at(t, "type") == Some("enabled"))
}

/// The assistant message that opened the tool loop the request continues,
/// when it does continue one (it ends with a user message carrying
/// results): the first assistant message after the last user message
/// without results. Claude writes its thinking only there; it writes no
/// more "until after the next non-tool_result user turn"
/// (<https://platform.claude.com/cookbook/extended-thinking-extended-thinking-with-tool-use>).
fn open_loop_opener(messages: &[WireMessage<'_>]) -> Option<usize> {
    let carries_results = |blocks: &[Value]| {
        blocks
            .iter()
            .any(|b| str_at(b, "type") == Some("tool_result"))
    };
    let (last_role, last_blocks) = messages.last()?;
    if *last_role != Some("user") || !carries_results(last_blocks) {
        return None;
    }
    let start = messages
        .iter()
        .rposition(|(role, blocks)| *role == Some("user") && !carries_results(blocks))
        .map_or(0, |n| n + 1);
    (start..messages.len()).find(|&n| messages[n].0 == Some("assistant"))
}

/// With `thinking` enabled, the assistant message `n` that opened the open
/// tool loop must start with its `thinking` or `redacted_thinking` block.
/// Anthropic documents the rule under "Preserving thinking blocks"
/// (<https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks>:
/// during tool use, thinking blocks must be passed back, complete and
/// unmodified; those of turns before the loop may be left out). Its 400 is
/// quoted word for word in framework trackers:
/// <https://github.com/anomalyco/opencode/issues/3077>,
/// <https://github.com/mastra-ai/mastra/issues/7799>,
/// <https://github.com/deepset-ai/haystack-core-integrations/issues/2146>,
/// <https://github.com/OpenRouterTeam/ai-sdk-provider/issues/162>,
/// <https://github.com/Kilo-Org/kilocode/issues/5219>.
/// "preceeding" is Anthropic's spelling.
fn thinking_not_first(messages: &[WireMessage<'_>], n: usize, findings: &mut Findings<'_>) {
    let Some(first) = messages[n].1.first() else {
        return;
    };
    let found = str_at(first, "type").unwrap_or("unknown");
    if matches!(found, "thinking" | "redacted_thinking") {
        return;
    }
    let at = wire_place(messages, n, 0);
    findings.add(
        Rule::AnthropicThinkingNotFirst,
        Some((n, Some(0))),
        at.clone(),
        format!("messages.{n}.content.0.type"),
        format!(
            "messages.{n}.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{found}`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
        ),
        format!(
            "{} opens the tool loop this request continues, but {}, comes first where its thinking block should be. With extended thinking on, Anthropic needs the thinking the model wrote sent back first and unchanged until the loop ends; a history rebuilt from text and tool calls loses it.",
            place::capitalized(&message_place(messages, n)),
            block_place(messages, n, 0)
        ),
    );
}

/// The rules on single blocks of message `n`, in block order: no empty text,
/// no `tool_use` reusing an earlier call's id.
fn block_rules(
    messages: &[WireMessage<'_>],
    n: usize,
    judged: &Judged<'_>,
    findings: &mut Findings<'_>,
) {
    let reused = judged
        .calls
        .iter()
        .filter_map(|call| Some((call.block, call.id, call.reuses?)));
    let mut reused = reused.peekable();
    for (m, block) in messages[n].1.iter().enumerate() {
        if str_at(block, "type") == Some("text") && str_at(block, "text") == Some("") {
            empty_text(messages, n, m, findings);
        }
        if let Some((_, id, first)) = reused.next_if(|&(call, ..)| call == m) {
            reused_id(messages, (n, m), id, first, findings);
        }
    }
}

fn empty_text(messages: &[WireMessage<'_>], n: usize, m: usize, findings: &mut Findings<'_>) {
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

/// The `tool_use` at (`n`, `m`) reuses `id`, first used at `first`.
fn reused_id(
    messages: &[WireMessage<'_>],
    (n, m): (usize, usize),
    id: &str,
    (first_n, first_m): (usize, usize),
    findings: &mut Findings<'_>,
) {
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

/// Every `tool_use` of assistant message `n` is answered in the next message.
fn unanswered_tool_use(
    messages: &[WireMessage<'_>],
    n: usize,
    judged: &Judged<'_>,
    findings: &mut Findings<'_>,
) {
    let missing: Vec<(usize, &str)> = judged
        .calls
        .iter()
        .filter(|call| !call.answered)
        .map(|call| (call.block, call.id))
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
fn results_rules(
    messages: &[WireMessage<'_>],
    n: usize,
    said: &[Said<'_>],
    judged: &Judged<'_>,
    findings: &mut Findings<'_>,
) {
    let blocks = &messages[n].1;
    for result in &judged.results {
        let (m, id) = (result.block, result.id);
        match result.answers {
            Answers::TheCallBefore => {}
            Answers::Again => multiple_results(messages, n, m, id, findings),
            Answers::NoCallBefore => {
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
        }
    }
    let previous: &[(usize, &str)] = match n.checked_sub(1).map(|p| &said[p]) {
        Some(before) if before.speaker == Speaker::Assistant => &before.calls,
        _ => &[],
    };
    if previous.is_empty() {
        return;
    }
    let last_result = judged.results.last().map(|r| r.block);
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
