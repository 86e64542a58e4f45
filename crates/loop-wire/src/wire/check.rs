//! The protocol checker: what each provider would reject (HTTP 400) in a
//! history, found offline, before anything is sent.
//!
//! Job: build the request body the history would become (the same code that
//! sends it) and run the provider's rules on it (`<format>/check.rs`, one
//! function per rule, each with its sources). Each [`Violation`] carries the
//! provider's error text with the real wire indices and ids
//! (`messages.N.content.M`, `messages[N]`, `input[N]`), a plain-language
//! explanation, the place in plain words as the wire has it ("the 5th
//! message (tool)", counted from 1), and the harness message and block it
//! comes from, so a view can point at it.
//!
//! Invariants:
//! - The checker reads the wire body, not the history, so it sees exactly what
//!   would be sent, including where a format moves things (OpenAI Chat puts the
//!   system prompt at `messages[0]` and splits results into `tool` messages;
//!   Responses indexes `input` items, with the system prompt in
//!   `instructions`). [`check_body`] checks any body, e.g. one typed by hand.
//! - Violations come in wire order; an empty list means no rule fired.
//! - Every rule is one pass over the body (ids seen so far are kept in maps),
//!   so a 10,000-turn history is checked in a fraction of a second.
//! - The texts are as providers and their users have reported them (each
//!   rule cites its sources: the provider's docs, or public issue threads
//!   quoting the error); where the provider's exact wording for a detail is not
//!   known (the separator between several ids), it is marked in the code.

use serde_json::Value;

use super::verdict::Findings;
use super::{anthropic, openai_chat, openai_responses, Origin, Provider, WireRequest};
use crate::message::Message;
use crate::model::ToolSpec;

pub use super::verdict::{Rule, Violation};

/// Whether the requests asked for extended thinking. Only Anthropic has a
/// rule that reads it: with `thinking: {"type": "enabled"}`, the assistant
/// message that opened an unfinished tool loop must start with its thinking
/// block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Thinking {
    #[default]
    Off,
    Enabled,
}

/// Checks `messages` as `provider` would receive them, without extended
/// thinking.
pub fn check(
    provider: Provider,
    system: &str,
    messages: &[Message],
    tools: &[ToolSpec],
) -> Vec<Violation> {
    check_with_thinking(provider, system, messages, tools, Thinking::Off)
}

/// Checks `messages` as `provider` would receive them from a harness that
/// asked for extended thinking or did not (Anthropic's body then carries
/// `thinking: {"type": "enabled"}`; the OpenAI formats have no rule on it).
pub fn check_with_thinking(
    provider: Provider,
    system: &str,
    messages: &[Message],
    tools: &[ToolSpec],
    thinking: Thinking,
) -> Vec<Violation> {
    let request = WireRequest {
        model: "",
        system,
        messages,
        tools,
        tool_choice: &crate::tool_choice::ToolChoice::Auto,
        max_output_tokens: 0,
        stream: false,
    };
    check_request(provider, &request, thinking)
}

/// Checks `request` as `provider` would receive it, its `tool_choice`
/// included (Anthropic refuses a forced tool with thinking on), from a
/// harness that asked for extended thinking or did not.
pub fn check_request(
    provider: Provider,
    request: &WireRequest<'_>,
    thinking: Thinking,
) -> Vec<Violation> {
    let messages = request.messages;
    let request = *request;
    // The OpenAI formats move things (the system prompt, results, items),
    // so their builders say where each wire entry came from as they build.
    let (mut body, origins) = match provider {
        Provider::Anthropic => (
            anthropic::request_body(&request),
            anthropic::check::origins(messages),
        ),
        Provider::OpenaiChat => openai_chat::request_body_and_origins(&request),
        Provider::OpenaiResponses => openai_responses::request_body_and_origins(&request),
    };
    if provider == Provider::Anthropic && thinking == Thinking::Enabled {
        anthropic::check::ask_for_thinking(&mut body);
    }
    let mut violations = check_wire(provider, &body, &origins);
    // The bodies a view shows are built without the setting (its budget is
    // not known), so the reader is told it was there.
    for v in &mut violations {
        if matches!(
            v.rule,
            Rule::AnthropicThinkingNotFirst | Rule::AnthropicThinkingWithForcedTool
        ) {
            v.explanation.push_str(
                " These requests asked for thinking (the model wrote thinking blocks); the body shown here leaves the `thinking` setting out.",
            );
        }
    }
    violations
}

/// Checks a request body as it stands (no harness positions are known).
pub fn check_body(provider: Provider, body: &Value) -> Vec<Violation> {
    check_wire(provider, body, &[])
}

fn check_wire(provider: Provider, body: &Value, origins: &[Option<Origin>]) -> Vec<Violation> {
    let mut findings = Findings::new(provider, origins);
    match provider {
        Provider::Anthropic => anthropic::check::rules(body, &mut findings),
        Provider::OpenaiChat => openai_chat::check::rules(body, &mut findings),
        Provider::OpenaiResponses => openai_responses::check::rules(body, &mut findings),
    }
    findings.into_list()
}
