//! The protocol checker: every rule has a failing case (with the provider's
//! exact text, real indices and ids, and the harness position) and a passing
//! case. The scripted model breaks the protocol on purpose where it can.

mod common;

use harness::message::{ContentBlock, Message, Role, ToolCall, ToolResult};
use harness::model::ToolSpec;
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
    })
}

fn denied(id: &str) -> ContentBlock {
    ContentBlock::ToolResult(ToolResult {
        tool_use_id: id.into(),
        content: "denied by the user".into(),
        is_error: true,
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
        assert!(!v.explanation.is_empty() && !v.path.is_empty());
    }
    got
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
    assert!(v[0].explanation.contains("messages.[2].role"));
    // Without a system prompt the index shifts back.
    let v = check(Provider::OpenaiChat, "", &history, &[]);
    assert_eq!(v[0].path, "messages.[1].role");
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
    expect(
        Provider::OpenaiResponses,
        "",
        &turn(vec![call("call_a")], vec![result("call_a")]),
        &[],
        &[],
    );
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
