//! What the protocol checker reports: the [`Rule`]s it knows, one
//! [`Violation`] per rule that fired, and `Findings`, the list a
//! provider's rules (`<format>/check.rs`) add to.
//!
//! Job: give every finding the same shape whichever provider's rule found it:
//! the provider's error text, a plain-language explanation, the wire path,
//! the same place in plain words ("the 4th message (user), its 1st block, a
//! tool_result", counted on the wire, as the reader of the body sees it),
//! and the harness message and block it comes from (mapped back through the
//! `Origin`s the request builder made), so a view can point at it.

use serde::{Deserialize, Serialize};

use super::{Origin, Provider};

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
    /// Anthropic: a `tool_use` gets one `tool_result`, not several in its
    /// answer (reported).
    AnthropicMultipleToolResults,
    /// Anthropic: tool names are unique.
    AnthropicDuplicateToolName,
    /// Anthropic: no empty text blocks.
    AnthropicEmptyText,
    /// Anthropic, with `thinking: {"type": "enabled"}`: the assistant
    /// message that opens the tool loop a request continues starts with
    /// its `thinking` or `redacted_thinking` block. Documented in "Preserving
    /// thinking blocks",
    /// <https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks>;
    /// the 400's wording as framework trackers quote it is in
    /// `anthropic/check.rs`.
    AnthropicThinkingNotFirst,
    /// Anthropic, with `thinking: {"type": "enabled"}`: `tool_choice` does
    /// not force a tool (`any` or a named `tool`). Documented under
    /// "Forcing tool use",
    /// <https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#forcing-tool-use>;
    /// the 400's wording is in `anthropic/check.rs`.
    AnthropicThinkingWithForcedTool,
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
    /// Responses: one `function_call_output` per call_id (reported).
    ResponsesDuplicateOutput,
    /// Responses: no two `function_call` items share a call_id (reported
    /// from OpenAI-compatible servers).
    ResponsesDuplicateCallId,
}

impl Rule {
    pub const ALL: [Rule; 17] = [
        Rule::AnthropicUnansweredToolUse,
        Rule::AnthropicUnexpectedToolResult,
        Rule::AnthropicToolResultNotFirst,
        Rule::AnthropicDuplicateToolUseId,
        Rule::AnthropicMultipleToolResults,
        Rule::AnthropicDuplicateToolName,
        Rule::AnthropicEmptyText,
        Rule::AnthropicThinkingNotFirst,
        Rule::AnthropicThinkingWithForcedTool,
        Rule::ChatToolWithoutToolCalls,
        Rule::ChatUnansweredToolCalls,
        Rule::ChatDuplicateToolCallId,
        Rule::ResponsesUnansweredCall,
        Rule::ResponsesOrphanOutput,
        Rule::ResponsesMissingOutput,
        Rule::ResponsesDuplicateOutput,
        Rule::ResponsesDuplicateCallId,
    ];

    pub fn provider(self) -> Provider {
        match self {
            Rule::AnthropicUnansweredToolUse
            | Rule::AnthropicUnexpectedToolResult
            | Rule::AnthropicToolResultNotFirst
            | Rule::AnthropicDuplicateToolUseId
            | Rule::AnthropicMultipleToolResults
            | Rule::AnthropicDuplicateToolName
            | Rule::AnthropicEmptyText
            | Rule::AnthropicThinkingNotFirst
            | Rule::AnthropicThinkingWithForcedTool => Provider::Anthropic,
            Rule::ChatToolWithoutToolCalls
            | Rule::ChatUnansweredToolCalls
            | Rule::ChatDuplicateToolCallId => Provider::OpenaiChat,
            Rule::ResponsesUnansweredCall
            | Rule::ResponsesOrphanOutput
            | Rule::ResponsesMissingOutput
            | Rule::ResponsesDuplicateOutput
            | Rule::ResponsesDuplicateCallId => Provider::OpenaiResponses,
        }
    }

    /// Whether the provider documents this refusal. The others are known
    /// from public issue threads (each rule's sources say which), and every verdict
    /// that rests on one says so rather than state it as the provider's
    /// documented behaviour.
    pub fn documented(self) -> bool {
        !matches!(
            self,
            Rule::AnthropicMultipleToolResults
                | Rule::ResponsesDuplicateOutput
                | Rule::ResponsesDuplicateCallId
        )
    }

    /// Where the rule is known from, for a verdict resting on it.
    pub fn evidence(self) -> Option<&'static str> {
        match self {
            Rule::AnthropicMultipleToolResults => Some(
                "reported from the API in public issue threads (Claude Code, agent frameworks, Anthropic-compatible APIs); Anthropic's documentation does not list this error",
            ),
            Rule::ResponsesDuplicateOutput => Some(
                "reported from the API in public issue threads; OpenAI's documentation does not list this error",
            ),
            Rule::ResponsesDuplicateCallId => Some(
                "reported from OpenAI-compatible Responses servers; what OpenAI's own API does is not documented",
            ),
            _ => None,
        }
    }

    /// Why the rule exists, without pointing anywhere: a view says where
    /// in its own numbering (the run's history, or the provider's body).
    pub fn why(self) -> &'static str {
        match self {
            Rule::AnthropicUnansweredToolUse => "Every tool_use needs a tool_result (an error result if it failed or was denied) in the very next user message.",
            Rule::AnthropicUnexpectedToolResult => "A tool_result can only answer a tool_use of the immediately preceding assistant message.",
            Rule::AnthropicToolResultNotFirst => "Tool results must come first in their message; any text goes after them.",
            Rule::AnthropicDuplicateToolUseId => "Each result names the call it answers by id, so two calls with one id cannot both be answered.",
            Rule::AnthropicMultipleToolResults => "Each tool_use gets exactly one tool_result; a second result for the same id is refused.",
            Rule::AnthropicDuplicateToolName => "The model calls tools by name, so each tool's name must be unique.",
            Rule::AnthropicEmptyText => "Anthropic rejects empty text blocks; a turn with only tool calls needs no text block.",
            Rule::AnthropicThinkingNotFirst => "With extended thinking on, the assistant message that opened the tool loop must be sent back starting with the thinking block the model wrote, unchanged, until the loop ends; a history rebuilt from text and tool calls drops it.",
            Rule::AnthropicThinkingWithForcedTool => "With extended thinking on, tool_choice may only be auto or none: forcing a tool (any, or a named tool) is refused.",
            Rule::ChatToolWithoutToolCalls => "A tool message must answer a tool call of the assistant message right before it.",
            Rule::ChatUnansweredToolCalls => "Every tool call of an assistant message needs its own tool message after it.",
            Rule::ChatDuplicateToolCallId => "Each tool call id may be answered by one tool message only.",
            Rule::ResponsesUnansweredCall => "Every function_call needs a function_call_output after it, even a denied one (with the denial as its output).",
            Rule::ResponsesOrphanOutput => "A function_call_output must answer an earlier function_call with the same call_id.",
            Rule::ResponsesMissingOutput => "Responses has no is_error flag: a failed or denied call is answered with its error text as the output.",
            Rule::ResponsesDuplicateOutput => "Each function_call must have exactly one matching function_call_output.",
            Rule::ResponsesDuplicateCallId => "A call_id pairs one function_call with its output, so two calls cannot share one.",
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
    /// The same place in plain words, counted from 1 on the wire, with the
    /// role or type the body shows there: "the 4th message (user), its 2nd
    /// block, a tool_result"; "the tools list".
    #[serde(default)]
    pub place: String,
    /// The harness message it comes from (`None` for the tools list, or when
    /// a hand-written body was checked).
    pub message_index: Option<usize>,
    pub block_index: Option<usize>,
}

/// The violations found in one request body, in wire order.
pub(crate) struct Findings<'a> {
    provider: Provider,
    /// Per wire message or item, where it came from; empty for a body
    /// checked as it stands.
    origins: &'a [Option<Origin>],
    list: Vec<Violation>,
}

impl<'a> Findings<'a> {
    pub(crate) fn new(provider: Provider, origins: &'a [Option<Origin>]) -> Self {
        Findings {
            provider,
            origins,
            list: Vec::new(),
        }
    }

    pub(crate) fn into_list(self) -> Vec<Violation> {
        self.list
    }

    /// Records a violation at wire message/item `wire`, part `part` of it,
    /// said in plain words by `place`.
    pub(crate) fn add(
        &mut self,
        rule: Rule,
        wire: Option<(usize, Option<usize>)>,
        place: String,
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
            place,
            message_index: origin.map(|(m, _)| m),
            block_index: origin.and_then(|(_, b)| b),
        });
    }
}
