//! The protocol checker: every rule has a failing case (with the provider's
//! exact text, real indices and ids, and the harness position) and a passing
//! case; each provider's explanations and places are said in plain words,
//! counted from 1 on the wire. The scripted model breaks the protocol on
//! purpose where it can.

mod common;

use harness::message::{ContentBlock, Message, Role, ToolCall, ToolResult};
use harness::model::ToolSpec;
use harness::tool_choice::ToolChoice;
use harness::wire::{check, check_body, history_from_trace, Provider, Rule, Violation};
use serde_json::{json, Value};

fn call(id: &str) -> ContentBlock {
    ContentBlock::ToolUse(ToolCall {
        id: id.into(),
        name: "lookup".into(),
        input: json!({}),
        input_raw: None,
    })
}

fn result(id: &str) -> ContentBlock {
    ContentBlock::ToolResult(ToolResult {
        tool_use_id: id.into(),
        content: "ok".into(),
        is_error: false,
        media: Vec::new(),
    })
}

fn denied(id: &str) -> ContentBlock {
    ContentBlock::ToolResult(ToolResult {
        tool_use_id: id.into(),
        content: "denied by the user".into(),
        is_error: true,
        media: Vec::new(),
    })
}

fn text(text: &str) -> ContentBlock {
    ContentBlock::Text { text: text.into() }
}

fn user(content: Vec<ContentBlock>) -> Message {
    Message {
        role: Role::User,
        content,
    }
}

fn assistant(content: Vec<ContentBlock>) -> Message {
    Message {
        role: Role::Assistant,
        content,
    }
}

fn tool(name: &str) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        description: "d".into(),
        input_schema: json!({"type": "object"}),
    }
}

/// A task, one assistant turn, and the user message after it.
fn turn(calls: Vec<ContentBlock>, answer: Vec<ContentBlock>) -> Vec<Message> {
    vec![user(vec![text("task")]), assistant(calls), user(answer)]
}

/// What a violation says, where: (rule, provider text, harness message, block).
type Expected<'a> = (Rule, &'a str, Option<usize>, Option<usize>);

/// The one helper every case goes through.
fn expect(
    provider: Provider,
    system: &str,
    messages: &[Message],
    tools: &[ToolSpec],
    expected: &[Expected<'_>],
) -> Vec<Violation> {
    let got = check(provider, system, messages, tools);
    let summary: Vec<Expected<'_>> = got
        .iter()
        .map(|v| (v.rule, v.message.as_str(), v.message_index, v.block_index))
        .collect();
    assert_eq!(summary, expected, "{provider:?}");
    for v in &got {
        assert_eq!(v.provider, provider);
        assert_eq!(v.rule.provider(), provider);
        assert!(!v.explanation.is_empty() && !v.path.is_empty() && !v.place.is_empty());
        // Pointers are plain words: no zero-based index, no harness aside.
        assert!(
            !v.explanation.contains("harness message"),
            "{}",
            v.explanation
        );
        let indexed = v.path.contains(|c: char| c.is_ascii_digit());
        assert!(
            !(indexed && v.explanation.contains(&v.path)),
            "{}",
            v.explanation
        );
    }
    got
}

/// The one violation `provider` finds in `messages`: its explanation and place.
fn said(provider: Provider, system: &str, messages: &[Message]) -> (String, String) {
    let got = check(provider, system, messages, &[]);
    assert_eq!(got.len(), 1, "{got:?}");
    (got[0].explanation.clone(), got[0].place.clone())
}

// --- Anthropic ------------------------------------------------------------

#[test]
fn anthropic_unanswered_tool_use() {
    let history = turn(
        vec![call("toolu_a"), call("toolu_b")],
        vec![result("toolu_a")],
    );
    let v = expect(Provider::Anthropic, "sys", &history, &[], &[(
        Rule::AnthropicUnansweredToolUse,
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_b. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
        Some(1),
        Some(1),
    )]);
    assert_eq!(v[0].path, "messages.1");
    // Passing: both answered.
    let history = turn(
        vec![call("toolu_a"), call("toolu_b")],
        vec![result("toolu_a"), result("toolu_b")],
    );
    expect(Provider::Anthropic, "sys", &history, &[], &[]);
}

#[test]
fn anthropic_unexpected_tool_use_id() {
    let history = turn(
        vec![call("toolu_a")],
        vec![result("toolu_a"), result("toolu_ghost")],
    );
    expect(Provider::Anthropic, "", &history, &[], &[(
        Rule::AnthropicUnexpectedToolResult,
        "messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_ghost. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
        Some(2),
        Some(1),
    )]);
    assert_eq!(
        said(Provider::Anthropic, "", &history),
        (
            "The 3rd message (user), its 2nd block, a tool_result, answers toolu_ghost, but the message before it has no tool call with that id. A result can only answer a call of the immediately preceding assistant message.".to_string(),
            "the 3rd message (user), its 2nd block, a tool_result".to_string()
        )
    );
    // A result after a message with no calls at all is unexpected too.
    let history = vec![
        user(vec![text("task")]),
        assistant(vec![text("hi")]),
        user(vec![result("toolu_a")]),
    ];
    let v = check(Provider::Anthropic, "", &history, &[]);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].rule, Rule::AnthropicUnexpectedToolResult);
    // Passing.
    expect(
        Provider::Anthropic,
        "",
        &turn(vec![call("toolu_a")], vec![result("toolu_a")]),
        &[],
        &[],
    );
}

#[test]
fn anthropic_tool_result_not_first() {
    let history = turn(
        vec![call("toolu_a")],
        vec![text("here you go"), result("toolu_a")],
    );
    expect(Provider::Anthropic, "", &history, &[], &[(
        Rule::AnthropicToolResultNotFirst,
        "messages.2: Did not find 1 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.",
        Some(2),
        Some(0),
    )]);
    let (explanation, place) = said(Provider::Anthropic, "", &history);
    assert!(
        explanation.starts_with(
            "The 3rd message (user) answers tool calls, but its 1st block, a text, comes before a result."
        ),
        "{explanation}"
    );
    assert_eq!(place, "the 3rd message (user), its 1st block, a text");
    // Passing: the text after the results.
    let history = turn(
        vec![call("toolu_a")],
        vec![result("toolu_a"), text("here you go")],
    );
    expect(Provider::Anthropic, "", &history, &[], &[]);
}

#[test]
fn anthropic_duplicate_tool_use_ids() {
    let history = turn(
        vec![call("toolu_dup"), call("toolu_dup")],
        vec![result("toolu_dup"), result("toolu_dup")],
    );
    expect(
        Provider::Anthropic,
        "",
        &history,
        &[],
        &[(
            Rule::AnthropicDuplicateToolUseId,
            "messages.1.content.1: `tool_use` ids must be unique",
            Some(1),
            Some(1),
        )],
    );
    let (explanation, _) = said(Provider::Anthropic, "", &history);
    assert!(
        explanation.starts_with("The 2nd message (assistant), its 2nd block, a tool_use, reuses the id toolu_dup, already used by the 2nd message (assistant), its 1st block, a tool_use."),
        "{explanation}"
    );
    // Across turns too.
    let mut history = turn(vec![call("toolu_a")], vec![result("toolu_a")]);
    history.push(assistant(vec![call("toolu_a")]));
    history.push(user(vec![result("toolu_a")]));
    let v = check(Provider::Anthropic, "", &history, &[]);
    assert_eq!(
        v.iter().map(|v| v.message.as_str()).collect::<Vec<_>>(),
        vec!["messages.3.content.0: `tool_use` ids must be unique"]
    );
    // Passing.
    let history = turn(
        vec![call("toolu_a"), call("toolu_b")],
        vec![result("toolu_a"), result("toolu_b")],
    );
    expect(Provider::Anthropic, "", &history, &[], &[]);
}

#[test]
fn anthropic_multiple_tool_results_for_one_call() {
    let history = turn(
        vec![call("toolu_a")],
        vec![result("toolu_a"), denied("toolu_a")],
    );
    let v = expect(Provider::Anthropic, "", &history, &[], &[(
        Rule::AnthropicMultipleToolResults,
        "messages.2.content.1: each tool_use must have a single result. Found multiple `tool_result` blocks with id: toolu_a",
        Some(2),
        Some(1),
    )]);
    assert_eq!(
        v[0].explanation,
        "The 3rd message (user), its 2nd block, a tool_result, answers toolu_a again: the call already has a result in this message. Each call gets exactly one result."
    );
    // Known from issue threads, not Anthropic's documentation: it says so.
    assert!(!Rule::AnthropicMultipleToolResults.documented());
    assert!(Rule::AnthropicMultipleToolResults.evidence().is_some());
    // Two calls sharing an id, each answered once, are the duplicate id's
    // fault alone (see `anthropic_duplicate_tool_use_ids`). Passing: one
    // result per call.
    expect(
        Provider::Anthropic,
        "",
        &turn(
            vec![call("toolu_a"), call("toolu_b")],
            vec![result("toolu_a"), result("toolu_b")],
        ),
        &[],
        &[],
    );
}

#[test]
fn anthropic_duplicate_tool_names() {
    let history = vec![user(vec![text("task")])];
    let v = expect(
        Provider::Anthropic,
        "",
        &history,
        &[tool("lookup"), tool("other"), tool("lookup")],
        &[(
            Rule::AnthropicDuplicateToolName,
            "tools: Tool names must be unique.",
            None,
            None,
        )],
    );
    assert!(
        v[0].explanation.contains("`lookup`"),
        "{}",
        v[0].explanation
    );
    assert_eq!(v[0].place, "the tools list");
    expect(
        Provider::Anthropic,
        "",
        &history,
        &[tool("lookup"), tool("other")],
        &[],
    );
}

#[test]
fn anthropic_empty_text_blocks() {
    let history = turn(vec![text(""), call("toolu_a")], vec![result("toolu_a")]);
    expect(
        Provider::Anthropic,
        "",
        &history,
        &[],
        &[(
            Rule::AnthropicEmptyText,
            "messages: text content blocks must be non-empty",
            Some(1),
            Some(0),
        )],
    );
    let history = turn(
        vec![text("Looking it up."), call("toolu_a")],
        vec![result("toolu_a")],
    );
    expect(Provider::Anthropic, "", &history, &[], &[]);
}

/// Anthropic's 400 when the turn's opener lacks its thinking block, as
/// framework trackers quote it (the sources are in the rule's table).
fn thinking_refusal(n: usize, found: &str) -> String {
    format!(
        "messages.{n}.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{found}`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
    )
}

#[test]
fn anthropic_thinking_dropped_from_the_open_tool_loop() {
    let mut body = json!({
        "model": "claude-sonnet-4-5", "max_tokens": 2048,
        "thinking": {"type": "enabled", "budget_tokens": 1024},
        "messages": [
            {"role": "user", "content": "What time is it?"},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_a", "name": "get_time", "input": {}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_a", "content": "12:00"}]}]
    });
    let v = check_body(Provider::Anthropic, &body);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, Rule::AnthropicThinkingNotFirst);
    assert_eq!(v[0].message, thinking_refusal(1, "tool_use"));
    assert_eq!(v[0].path, "messages.1.content.0.type");
    assert_eq!(
        v[0].place,
        "the 2nd message (assistant), its 1st block, a tool_use"
    );
    assert!(
        v[0].explanation.starts_with(
            "The 2nd message (assistant) opens the tool loop this request continues, but its 1st block, a tool_use, comes first"
        ),
        "{}",
        v[0].explanation
    );

    // Passing: its thinking (or redacted thinking) first, as the model wrote it.
    for opener in [
        json!({"type": "thinking", "thinking": "I have get_time.", "signature": "sig"}),
        json!({"type": "redacted_thinking", "data": "opaque"}),
    ] {
        let mut sent = body.clone();
        sent["messages"][1]["content"]
            .as_array_mut()
            .unwrap()
            .insert(0, opener);
        assert_eq!(check_body(Provider::Anthropic, &sent), vec![]);
    }
    // Passing: thinking not enabled, or adaptive (the model may skip it).
    let mut off = body.clone();
    off.as_object_mut().unwrap().remove("thinking");
    assert_eq!(check_body(Provider::Anthropic, &off), vec![]);
    let mut adaptive = body.clone();
    adaptive["thinking"] = json!({"type": "adaptive"});
    assert_eq!(check_body(Provider::Anthropic, &adaptive), vec![]);
    // Passing: the loop has ended (an answer, then the person's next
    // message); thinking of an earlier turn may be left out.
    let messages = body["messages"].as_array_mut().unwrap();
    messages.push(json!({"role": "assistant", "content": "It is 12:00."}));
    assert_eq!(check_body(Provider::Anthropic, &body), vec![]);
    body["messages"]
        .as_array_mut()
        .unwrap()
        .push(json!({"role": "user", "content": "And in Tokyo?"}));
    assert_eq!(check_body(Provider::Anthropic, &body), vec![]);
    // Failing again: the new turn's loop opens without its thinking; the
    // 400 names that turn's opener, after text.
    body["messages"].as_array_mut().unwrap().extend([
        json!({"role": "assistant", "content": [
            {"type": "text", "text": "Let me check."},
            {"type": "tool_use", "id": "toolu_b", "name": "get_time", "input": {"tz": "Asia/Tokyo"}}]}),
        json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_b", "content": "21:00"}]}),
    ]);
    let v = check_body(Provider::Anthropic, &body);
    assert_eq!(
        v.iter().map(|v| v.message.clone()).collect::<Vec<_>>(),
        vec![thinking_refusal(5, "text")]
    );
}

#[test]
fn anthropic_thinking_is_needed_only_where_the_loop_opened() {
    // Claude thinks once, at the start of the loop; the later steps of the
    // same loop carry no thinking, and that is accepted.
    let body = json!({
        "model": "claude-sonnet-4-5", "max_tokens": 2048,
        "thinking": {"type": "enabled", "budget_tokens": 1024},
        "messages": [
            {"role": "user", "content": "Look twice."},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Two lookups.", "signature": "sig"},
                {"type": "tool_use", "id": "toolu_a", "name": "lookup", "input": {}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_a", "content": "ok"}]},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_b", "name": "lookup", "input": {}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_b", "content": "ok"}]}]
    });
    assert_eq!(check_body(Provider::Anthropic, &body), vec![]);
    // The harness's own history, checked as a thinking run's requests:
    // message 1 lost its thinking.
    let history = turn(
        vec![text("Looking."), call("toolu_a")],
        vec![result("toolu_a")],
    );
    let v = harness::wire::check_with_thinking(
        Provider::Anthropic,
        "",
        &history,
        &[],
        harness::wire::Thinking::Enabled,
    );
    assert_eq!(
        v.iter()
            .map(|v| (v.rule, v.message_index, v.block_index))
            .collect::<Vec<_>>(),
        vec![(Rule::AnthropicThinkingNotFirst, Some(1), Some(0))]
    );
    assert_eq!(check(Provider::Anthropic, "", &history, &[]), vec![]);
}

// --- OpenAI Chat ------------------------------------------------------------

#[test]
fn chat_tool_message_without_preceding_tool_calls() {
    // The system prompt is messages[0], so harness message 1 is messages[2].
    let history = vec![user(vec![text("task")]), user(vec![result("call_x")])];
    let v = expect(Provider::OpenaiChat, "sys", &history, &[], &[(
        Rule::ChatToolWithoutToolCalls,
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        Some(1),
        Some(0),
    )]);
    assert_eq!(v[0].path, "messages.[2].role");
    // Said where the wire has it: the 3rd message, though the harness
    // history holds it 2nd.
    assert_eq!(v[0].place, "the 3rd message (tool)");
    assert!(
        v[0].explanation
            .starts_with("The 3rd message (tool) follows no assistant message with `tool_calls`."),
        "{}",
        v[0].explanation
    );
    // Without a system prompt the index shifts back.
    let v = check(Provider::OpenaiChat, "", &history, &[]);
    assert_eq!(v[0].path, "messages.[1].role");
    assert_eq!(v[0].place, "the 2nd message (tool)");
    // A tool message answering an id the assistant did not call.
    let history = turn(
        vec![call("call_a")],
        vec![result("call_a"), result("call_ghost")],
    );
    let v = check(Provider::OpenaiChat, "sys", &history, &[]);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].rule, Rule::ChatToolWithoutToolCalls);
    assert_eq!(v[0].path, "messages.[4].role");
    assert_eq!((v[0].message_index, v[0].block_index), (Some(2), Some(1)));
    assert!(
        v[0].explanation.starts_with("The 5th message (tool) answers call_ghost, which the assistant message before it did not call."),
        "{}",
        v[0].explanation
    );
    // Text before the results puts a user message between the calls and
    // the tool messages.
    let history = turn(vec![call("call_a")], vec![text("note"), result("call_a")]);
    let rules: Vec<Rule> = check(Provider::OpenaiChat, "sys", &history, &[])
        .iter()
        .map(|v| v.rule)
        .collect();
    assert_eq!(
        rules,
        vec![
            Rule::ChatUnansweredToolCalls,
            Rule::ChatToolWithoutToolCalls
        ]
    );
    // Passing.
    expect(
        Provider::OpenaiChat,
        "sys",
        &turn(vec![call("call_a")], vec![result("call_a")]),
        &[],
        &[],
    );
}

#[test]
fn chat_unanswered_tool_call_ids() {
    let history = turn(
        vec![call("call_a"), call("call_b"), call("call_c")],
        vec![result("call_b")],
    );
    expect(Provider::OpenaiChat, "sys", &history, &[], &[(
        Rule::ChatUnansweredToolCalls,
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_a, call_c",
        Some(1),
        Some(0),
    )]);
    let (explanation, place) = said(Provider::OpenaiChat, "sys", &history);
    assert!(
        explanation.starts_with("The 3rd message (assistant) calls call_a, call_c with no tool message right after it answering them."),
        "{explanation}"
    );
    assert_eq!(place, "the 3rd message (assistant), its 1st tool call");
    // The last turn unanswered (a history cut off mid-turn).
    let history = vec![
        user(vec![text("task")]),
        assistant(vec![text("hm"), call("call_a")]),
    ];
    let v = check(Provider::OpenaiChat, "", &history, &[]);
    assert_eq!(
        (v[0].rule, v[0].message_index, v[0].block_index),
        (Rule::ChatUnansweredToolCalls, Some(1), Some(1))
    );
    // Passing.
    let history = turn(
        vec![call("call_a"), call("call_b")],
        vec![result("call_b"), result("call_a")],
    );
    expect(Provider::OpenaiChat, "sys", &history, &[], &[]);
}

#[test]
fn chat_duplicate_tool_call_id() {
    let history = turn(
        vec![call("call_dup"), call("call_dup")],
        vec![result("call_dup"), result("call_dup")],
    );
    expect(Provider::OpenaiChat, "sys", &history, &[], &[(
        Rule::ChatDuplicateToolCallId,
        "Invalid parameter: Duplicate value for 'tool_call_id' of 'call_dup' in messages[3] and messages[4].",
        Some(2),
        Some(1),
    )]);
    // Wire messages 4 and 5 (system prompt first, one tool message per
    // result) are harness message 3, blocks 1 and 2.
    let (explanation, place) = said(Provider::OpenaiChat, "sys", &history);
    assert!(
        explanation.starts_with("The 5th message (tool) answers the call id call_dup, which the 4th message (tool) already answers."),
        "{explanation}"
    );
    assert_eq!(place, "the 5th message (tool)");
    expect(
        Provider::OpenaiChat,
        "sys",
        &turn(
            vec![call("call_a"), call("call_b")],
            vec![result("call_a"), result("call_b")],
        ),
        &[],
        &[],
    );
}

// --- OpenAI Responses ---------------------------------------------------------

#[test]
fn responses_unanswered_call() {
    let history = turn(vec![call("call_a"), call("call_b")], vec![result("call_a")]);
    let v = expect(
        Provider::OpenaiResponses,
        "sys",
        &history,
        &[],
        &[(
            Rule::ResponsesUnansweredCall,
            "No tool output found for function call call_b.",
            Some(1),
            Some(1),
        )],
    );
    // instructions hold the system prompt: input[0] is the task.
    assert_eq!(v[0].path, "input[2]");
    assert_eq!(v[0].place, "the 3rd input item (function_call)");
    assert!(
        v[0].explanation.starts_with("The 3rd input item (function_call), call_id call_b, has no function_call_output after it."),
        "{}",
        v[0].explanation
    );
    expect(
        Provider::OpenaiResponses,
        "sys",
        &turn(vec![call("call_a")], vec![result("call_a")]),
        &[],
        &[],
    );
}

#[test]
fn responses_orphan_output() {
    let history = turn(
        vec![call("call_a")],
        vec![result("call_a"), result("call_ghost")],
    );
    let v = expect(
        Provider::OpenaiResponses,
        "",
        &history,
        &[],
        &[(
            Rule::ResponsesOrphanOutput,
            "No tool call found for function call output with call_id call_ghost.",
            Some(2),
            Some(1),
        )],
    );
    assert_eq!(v[0].path, "input[3]");
    assert_eq!(v[0].place, "the 4th input item (function_call_output)");
    assert!(
        v[0].explanation.starts_with("The 4th input item (function_call_output) answers call_ghost, but no earlier function_call has that call_id."),
        "{}",
        v[0].explanation
    );
    expect(
        Provider::OpenaiResponses,
        "",
        &turn(vec![call("call_a")], vec![result("call_a")]),
        &[],
        &[],
    );
}

#[test]
fn responses_duplicates_are_reported_refusals_not_documented_ones() {
    // A call_id used by two calls, and one call answered twice: public issue
    // threads report Responses refusing both; its docs do not say so.
    let history = turn(
        vec![call("call_a"), call("call_a")],
        vec![result("call_a"), result("call_a")],
    );
    let v = check(Provider::OpenaiResponses, "", &history, &[]);
    let rules: Vec<Rule> = v.iter().map(|v| v.rule).collect();
    assert_eq!(
        rules,
        [
            Rule::ResponsesDuplicateCallId,
            Rule::ResponsesDuplicateOutput
        ]
    );
    assert_eq!(
        (v[0].path.as_str(), v[1].path.as_str()),
        ("input[2]", "input[4]")
    );
    assert_eq!(v[0].message, "Duplicate 'call_id': call_a");
    assert!(v[1]
        .message
        .starts_with("Duplicate function_call_output for call_id call_a."));
    assert!(!Rule::ResponsesDuplicateCallId.documented());
    assert!(!Rule::ResponsesDuplicateOutput.documented());
}

#[test]
fn responses_missing_output() {
    // A denial sent without an output, as a hand-written body would.
    let body = json!({"model": "m", "input": [
        {"role": "user", "content": "refund ord_1"},
        {"type": "function_call", "call_id": "call_a", "name": "issue_refund", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_a"}
    ]});
    let v = check_body(Provider::OpenaiResponses, &body);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].rule, Rule::ResponsesMissingOutput);
    assert_eq!(
        v[0].message,
        "Missing required parameter: 'input[2].output'."
    );
    assert_eq!((v[0].message_index, v[0].block_index), (None, None));
    assert_eq!(v[0].place, "the 3rd input item (function_call_output)");
    assert!(
        v[0].explanation
            .starts_with("The 3rd input item (function_call_output), for call_a, has no output."),
        "{}",
        v[0].explanation
    );
    // Passing: the harness answers a denied call with the denial as output.
    let history = turn(vec![call("call_a")], vec![denied("call_a")]);
    expect(Provider::OpenaiResponses, "", &history, &[], &[]);
    let mut body: Value = body;
    body["input"][2]["output"] = json!("denied by the user");
    assert_eq!(check_body(Provider::OpenaiResponses, &body), vec![]);
}

#[test]
fn every_rule_has_a_case_here() {
    // Keeps this file honest when a rule is added.
    let source = include_str!("wire_check.rs");
    for rule in Rule::ALL {
        let name = format!("Rule::{rule:?}");
        assert!(source.contains(&name), "{name} has no case");
    }
}

// --- the scripted model breaking the protocol on purpose --------------------

#[tokio::test(start_paused = true)]
async fn scripted_duplicate_ids_are_caught_in_every_format_that_forbids_them() {
    let (_, events) = common::run_json(
        &json!({
            "name": "dup",
            "task": "look twice",
            "tools": [{"name": "lookup", "description": "d", "input_schema": {"type": "object"},
                       "result": {"ok": true}}],
            "model": {"type": "scripted", "responses": [
                {"tool_calls": [{"id": "toolu_dup", "name": "lookup", "args": {"n": 1}},
                                {"id": "toolu_dup", "name": "lookup", "args": {"n": 2}}]},
                {"text": "done"}
            ]}
        })
        .to_string(),
    )
    .await;
    let history = history_from_trace(&events);
    let messages = |provider| {
        check(provider, "", &history, &[])
            .into_iter()
            .map(|v| v.message)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        messages(Provider::Anthropic),
        vec!["messages.1.content.1: `tool_use` ids must be unique".to_string()]
    );
    assert_eq!(messages(Provider::OpenaiChat), vec![
        "Invalid parameter: Duplicate value for 'tool_call_id' of 'toolu_dup' in messages[2] and messages[3].".to_string()
    ]);
}

#[tokio::test(start_paused = true)]
async fn a_well_behaved_scripted_run_passes_every_format() {
    let (_, events) = common::run_json(
        &json!({
            "name": "ok",
            "task": "look",
            "tools": [{"name": "lookup", "description": "d", "input_schema": {"type": "object"},
                       "result": {"ok": true}}],
            "model": {"type": "scripted", "responses": [
                {"thinking": "hmm", "tool_calls": [{"name": "lookup", "args": {}}, {"name": "lookup", "args": {"x": 1}}]},
                {"tool_calls": [{"name": "lookup", "args_raw": "{oops"}]},
                {"text": "done"}
            ]}
        })
        .to_string(),
    )
    .await;
    let history = history_from_trace(&events);
    assert_eq!(history.len(), 6);
    for provider in Provider::ALL {
        assert_eq!(
            check(provider, "sys", &history, &[tool("lookup")]),
            vec![],
            "{provider:?}"
        );
    }
}

// --- the checker against a straightforward reference -------------------------

/// The rules as first written: each block compared with every block before
/// it, by plain scans of the wire body. Slow (quadratic) but obviously
/// right; the checker must find the same (rule, path) list in the same order.
mod reference {
    use harness::wire::Rule;
    use serde_json::Value;

    fn list(value: Option<&Value>) -> &[Value] {
        value.and_then(Value::as_array).map_or(&[], Vec::as_slice)
    }

    fn text<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
        value.get(key).and_then(Value::as_str)
    }

    fn blocks(message: &Value) -> Vec<Value> {
        match message.get("content") {
            Some(Value::String(t)) => vec![serde_json::json!({"type": "text", "text": t})],
            Some(Value::Array(b)) => b.clone(),
            _ => vec![],
        }
    }

    fn ids(blocks: &[Value], kind: &str, key: &str) -> Vec<(usize, String)> {
        let mut out = vec![];
        for (m, b) in blocks.iter().enumerate() {
            if text(b, "type") == Some(kind) {
                if let Some(id) = text(b, key) {
                    out.push((m, id.to_string()));
                }
            }
        }
        out
    }

    pub fn anthropic(body: &Value) -> Vec<(Rule, String)> {
        let mut out = vec![];
        let names: Vec<&str> = list(body.get("tools"))
            .iter()
            .map(|t| text(t, "name").unwrap_or_default())
            .collect();
        if (0..names.len()).any(|i| names[..i].contains(&names[i])) {
            out.push((Rule::AnthropicDuplicateToolName, "tools".to_string()));
        }
        let messages: Vec<(Option<&str>, Vec<Value>)> = list(body.get("messages"))
            .iter()
            .map(|m| (text(m, "role"), blocks(m)))
            .collect();
        for (n, (role, bs)) in messages.iter().enumerate() {
            for (m, b) in bs.iter().enumerate() {
                let at = format!("messages.{n}.content.{m}");
                if text(b, "type") == Some("text") && text(b, "text") == Some("") {
                    out.push((Rule::AnthropicEmptyText, at.clone()));
                }
                if text(b, "type") == Some("tool_use") {
                    let id = text(b, "id").unwrap_or_default();
                    let before = messages[..n]
                        .iter()
                        .flat_map(|(_, bs)| bs.iter())
                        .chain(bs[..m].iter());
                    let reused = before.into_iter().any(|e| {
                        text(e, "type") == Some("tool_use")
                            && text(e, "id").unwrap_or_default() == id
                    });
                    if reused {
                        out.push((Rule::AnthropicDuplicateToolUseId, at));
                    }
                }
            }
            if *role == Some("assistant") {
                let calls = ids(bs, "tool_use", "id");
                let answers = match messages.get(n + 1) {
                    Some((Some("user"), next)) => ids(next, "tool_result", "tool_use_id"),
                    _ => vec![],
                };
                if calls
                    .iter()
                    .any(|(_, c)| !answers.iter().any(|(_, a)| a == c))
                {
                    out.push((Rule::AnthropicUnansweredToolUse, format!("messages.{n}")));
                }
            }
            if *role == Some("user") {
                let results = ids(bs, "tool_result", "tool_use_id");
                let previous = match n.checked_sub(1).map(|p| &messages[p]) {
                    Some((Some("assistant"), prev)) => ids(prev, "tool_use", "id"),
                    _ => vec![],
                };
                for (i, (m, id)) in results.iter().enumerate() {
                    let calls = previous.iter().filter(|(_, c)| c == id).count();
                    let given = results[..=i].iter().filter(|(_, r)| r == id).count();
                    if calls == 0 {
                        out.push((
                            Rule::AnthropicUnexpectedToolResult,
                            format!("messages.{n}.content.{m}"),
                        ));
                    } else if given > calls {
                        out.push((
                            Rule::AnthropicMultipleToolResults,
                            format!("messages.{n}.content.{m}"),
                        ));
                    }
                }
                let other_before_a_result = results.iter().any(|&(last, _)| {
                    bs[..last]
                        .iter()
                        .any(|b| text(b, "type") != Some("tool_result"))
                });
                if !previous.is_empty() && other_before_a_result {
                    out.push((Rule::AnthropicToolResultNotFirst, format!("messages.{n}")));
                }
            }
        }
        out
    }

    pub fn chat(body: &Value) -> Vec<(Rule, String)> {
        let mut out = vec![];
        let messages = list(body.get("messages"));
        let call_ids = |m: &Value| -> Vec<String> {
            list(m.get("tool_calls"))
                .iter()
                .map(|c| text(c, "id").unwrap_or_default().to_string())
                .collect()
        };
        for (n, message) in messages.iter().enumerate() {
            match text(message, "role") {
                Some("tool") => {
                    let id = text(message, "tool_call_id").unwrap_or_default();
                    let owner = messages[..n]
                        .iter()
                        .rev()
                        .find(|m| text(m, "role") != Some("tool"));
                    let calls = owner
                        .filter(|m| text(m, "role") == Some("assistant"))
                        .map(call_ids)
                        .unwrap_or_default();
                    if !calls.iter().any(|c| c == id) {
                        out.push((
                            Rule::ChatToolWithoutToolCalls,
                            format!("messages.[{n}].role"),
                        ));
                    }
                    let earlier = messages[..n].iter().any(|m| {
                        text(m, "role") == Some("tool")
                            && text(m, "tool_call_id").unwrap_or_default() == id
                    });
                    if earlier {
                        out.push((Rule::ChatDuplicateToolCallId, format!("messages[{n}]")));
                    }
                }
                Some("assistant") => {
                    let group: Vec<&str> = messages[n + 1..]
                        .iter()
                        .take_while(|m| text(m, "role") == Some("tool"))
                        .filter_map(|m| text(m, "tool_call_id"))
                        .collect();
                    if call_ids(message)
                        .iter()
                        .any(|c| !group.contains(&c.as_str()))
                    {
                        out.push((Rule::ChatUnansweredToolCalls, format!("messages[{n}]")));
                    }
                }
                _ => {}
            }
        }
        out
    }

    pub fn responses(body: &Value) -> Vec<(Rule, String)> {
        let mut out = vec![];
        let items = list(body.get("input"));
        let is = |item: &Value, kind: &str, id: &str| {
            text(item, "type") == Some(kind) && text(item, "call_id") == Some(id)
        };
        for (n, item) in items.iter().enumerate() {
            let id = text(item, "call_id").unwrap_or_default();
            match text(item, "type") {
                Some("function_call")
                    if !items[n + 1..]
                        .iter()
                        .any(|l| is(l, "function_call_output", id)) =>
                {
                    out.push((Rule::ResponsesUnansweredCall, format!("input[{n}]")));
                    if items[..n].iter().any(|e| is(e, "function_call", id)) {
                        out.push((Rule::ResponsesDuplicateCallId, format!("input[{n}]")));
                    }
                }
                Some("function_call") if items[..n].iter().any(|e| is(e, "function_call", id)) => {
                    out.push((Rule::ResponsesDuplicateCallId, format!("input[{n}]")));
                }
                Some("function_call_output") => {
                    if item.get("output").is_none_or(Value::is_null) {
                        out.push((Rule::ResponsesMissingOutput, format!("input[{n}].output")));
                    }
                    if !items[..n].iter().any(|e| is(e, "function_call", id)) {
                        out.push((Rule::ResponsesOrphanOutput, format!("input[{n}]")));
                    }
                    if items[..n].iter().any(|e| is(e, "function_call_output", id)) {
                        out.push((Rule::ResponsesDuplicateOutput, format!("input[{n}]")));
                    }
                }
                _ => {}
            }
        }
        out
    }
}

/// Any block, from a small alphabet so ids collide and texts are empty often.
fn any_block() -> impl proptest::strategy::Strategy<Value = ContentBlock> {
    use proptest::prelude::*;
    let id = prop_oneof![Just("a"), Just("b"), Just("c")];
    prop_oneof![
        prop_oneof![Just(""), Just("x")].prop_map(text),
        Just(ContentBlock::Thinking {
            thinking: "hm".into(),
            signature: None
        }),
        id.clone().prop_map(call),
        id.prop_map(result),
    ]
}

fn any_history() -> impl proptest::strategy::Strategy<Value = Vec<Message>> {
    use proptest::prelude::*;
    let message = (any::<bool>(), proptest::collection::vec(any_block(), 0..4)).prop_map(
        |(from_user, content)| {
            if from_user {
                user(content)
            } else {
                assistant(content)
            }
        },
    );
    proptest::collection::vec(message, 0..8)
}

proptest::proptest! {
    #[test]
    fn the_checker_finds_what_the_reference_finds(
        history in any_history(),
        system in proptest::prop_oneof![proptest::strategy::Just(""), proptest::strategy::Just("sys")],
        names in proptest::collection::vec(proptest::prop_oneof![proptest::strategy::Just("x"), proptest::strategy::Just("y")], 0..4),
    ) {
        let tools: Vec<ToolSpec> = names.into_iter().map(tool).collect();
        for provider in Provider::ALL {
            let request = harness::wire::WireRequest {
                model: "m",
                system,
                messages: &history,
                tools: &tools,
                tool_choice: &Default::default(),
                max_output_tokens: 1,
                stream: false,
            };
            let body = provider.request_body(&request);
            let expected = match provider {
                Provider::Anthropic => reference::anthropic(&body),
                Provider::OpenaiChat => reference::chat(&body),
                Provider::OpenaiResponses => reference::responses(&body),
            };
            let got: Vec<(Rule, String)> = check(provider, system, &history, &tools)
                .into_iter()
                .map(|v| (v.rule, v.path))
                .collect();
            proptest::prop_assert_eq!(got, expected, "{:?} on {}", provider, body);
        }
    }
}

/// Any history in which calls come from the assistant and results from the
/// user, as a harness writes them, with ids from a small alphabet so they
/// collide, go unanswered and are answered twice.
fn any_harness_history() -> impl proptest::strategy::Strategy<Value = Vec<Message>> {
    use proptest::prelude::*;
    let id = || prop_oneof![Just("a"), Just("b"), Just("c")];
    let user_block = prop_oneof![Just(text("x")), id().prop_map(result)];
    let assistant_block = prop_oneof![Just(text("x")), id().prop_map(call)];
    let message = prop_oneof![
        proptest::collection::vec(user_block, 0..4).prop_map(user),
        proptest::collection::vec(assistant_block, 0..4).prop_map(assistant),
    ];
    proptest::collection::vec(message, 0..8)
}

proptest::proptest! {
    /// The pairing the page draws and the checker agree: a history has a
    /// broken link (a call unanswered, answered late or twice, a result
    /// with no call, an id used twice) exactly when Anthropic's checker
    /// finds one of its pairing rules.
    #[test]
    fn the_pairing_drawn_and_the_checker_agree_on_what_is_broken(history in any_harness_history()) {
        const PAIRING_RULES: [Rule; 4] = [
            Rule::AnthropicUnansweredToolUse,
            Rule::AnthropicUnexpectedToolResult,
            Rule::AnthropicDuplicateToolUseId,
            Rule::AnthropicMultipleToolResults,
        ];
        let drawn = harness::pairing::conversation(&history);
        let broken: Vec<_> = drawn.broken().map(|l| (l.id.clone(), l.state)).collect();
        let found: Vec<Rule> = check(Provider::Anthropic, "", &history, &[])
            .into_iter()
            .map(|v| v.rule)
            .filter(|rule| PAIRING_RULES.contains(rule))
            .collect();
        proptest::prop_assert_eq!(
            broken.is_empty(),
            found.is_empty(),
            "pairing {:?}, checker {:?}, history {:?}",
            broken,
            found,
            history
        );
    }
}

#[test]
fn a_forced_tool_choice_with_thinking_is_refused_by_anthropic_only() {
    let tools = [ToolSpec {
        name: "lookup".into(),
        description: "d".into(),
        input_schema: json!({"type": "object"}),
    }];
    let messages = [Message::user_text("go")];
    for (choice, forced) in [
        (ToolChoice::Any, true),
        (ToolChoice::Tool("lookup".into()), true),
        (ToolChoice::None, false),
        (ToolChoice::Auto, false),
    ] {
        let request = harness::wire::WireRequest {
            model: "m",
            system: "",
            messages: &messages,
            tools: &tools,
            tool_choice: &choice,
            max_output_tokens: 1,
            stream: false,
        };
        for provider in Provider::ALL {
            let rules: Vec<Rule> =
                harness::wire::check_request(provider, &request, harness::wire::Thinking::Enabled)
                    .into_iter()
                    .map(|v| v.rule)
                    .collect();
            let expected = if forced && provider == Provider::Anthropic {
                vec![Rule::AnthropicThinkingWithForcedTool]
            } else {
                vec![]
            };
            assert_eq!(rules, expected, "{choice:?} {provider:?}");
            // Without thinking, forcing a tool is allowed.
            let off =
                harness::wire::check_request(provider, &request, harness::wire::Thinking::Off);
            assert_eq!(off, vec![], "{choice:?} {provider:?}");
        }
    }
    // A pasted body is checked as it stands, in Anthropic's words.
    let body = json!({"model": "m", "max_tokens": 2000,
        "thinking": {"type": "enabled", "budget_tokens": 1024},
        "tools": [{"name": "lookup", "description": "d", "input_schema": {"type": "object"}}],
        "tool_choice": {"type": "tool", "name": "lookup"},
        "messages": [{"role": "user", "content": "go"}]});
    let v = check_body(Provider::Anthropic, &body);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(
        v[0].message,
        "Thinking may not be enabled when tool_choice forces tool use."
    );
    assert_eq!(
        (v[0].path.as_str(), v[0].place.as_str()),
        ("tool_choice", "the tool_choice setting")
    );
    assert!(
        v[0].explanation.starts_with(
            "The request turns on extended thinking, and tool_choice names `lookup`, which forces its call."
        ),
        "{}",
        v[0].explanation
    );
}
