//! Round trips: history → request body → history, for each wire format.
//!
//! The history exercises parallel tool calls, an error result, a denied call,
//! an empty text block, a thinking block, argument text that is not JSON and
//! non-ASCII text. Each format's expectation says exactly what it cannot carry
//! (see each module's docs): Anthropic has no place for unparseable arguments;
//! OpenAI Chat has none for thinking; neither OpenAI format has `is_error`.

mod common;

use harness::message::{ContentBlock, Message, Role, ToolCall, ToolResult};
use harness::model::ToolSpec;
use harness::wire::{check, history_from_trace, Provider, Rule, WireRequest};
use serde_json::{json, Value};

const SYSTEM: &str = "You are a support agent.";

fn call(id: &str, name: &str, input: Value) -> ContentBlock {
    ContentBlock::ToolUse(ToolCall {
        id: id.into(),
        name: name.into(),
        input,
        input_raw: None,
    })
}

fn result(id: &str, content: &str, is_error: bool) -> ContentBlock {
    ContentBlock::ToolResult(ToolResult {
        tool_use_id: id.into(),
        content: content.into(),
        is_error,
        media: Vec::new(),
    })
}

fn text(text: &str) -> ContentBlock {
    ContentBlock::Text { text: text.into() }
}

fn msg(role: Role, content: Vec<ContentBlock>) -> Message {
    Message { role, content }
}

fn tools() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "get_order_status".into(),
            description: "Look up an order.".into(),
            input_schema: json!({"type": "object", "properties": {"order_id": {"type": "string"}},
                                 "required": ["order_id"]}),
        },
        ToolSpec {
            name: "issue_refund".into(),
            description: "Refund an order. Needs approval.".into(),
            input_schema: json!({"type": "object"}),
        },
    ]
}

const RAW: &str = "{\"order_id\": ord_1";

fn history() -> Vec<Message> {
    vec![
        msg(
            Role::User,
            vec![text("Refund order ord_1 — the café order, 日本 🎉")],
        ),
        msg(
            Role::Assistant,
            vec![
                ContentBlock::Thinking {
                    thinking: "Check the order, and the time.".into(),
                    signature: Some("sig-1".into()),
                },
                text("Checking two things."),
                call(
                    "call_1",
                    "get_order_status",
                    json!({"order_id": "ord_1", "n": 1.5, "nested": {"b": [1, 2], "a": null}}),
                ),
                call("call_2", "get_time", json!({})),
            ],
        ),
        msg(
            Role::User,
            vec![
                result("call_1", "{\"status\":\"processing\"}", false),
                result(
                    "call_2",
                    "unknown tool get_time; tools that exist: get_order_status, issue_refund",
                    true,
                ),
            ],
        ),
        msg(
            Role::Assistant,
            vec![call("call_3", "issue_refund", json!({"order_id": "ord_1"}))],
        ),
        msg(
            Role::User,
            vec![result("call_3", "denied by the user: not approved", true)],
        ),
        msg(
            Role::Assistant,
            vec![
                text(""),
                ContentBlock::ToolUse(ToolCall::from_raw_arguments(
                    "call_4".into(),
                    "get_order_status".into(),
                    RAW,
                )),
            ],
        ),
        msg(
            Role::User,
            vec![result("call_4", "arguments are not JSON", true)],
        ),
        msg(Role::Assistant, vec![text("Refund issued for ord_1.")]),
    ]
}

fn round_trip(provider: Provider, messages: &[Message]) -> Vec<Message> {
    let tools = tools();
    let body = provider.request_body(&WireRequest {
        model: "m",
        system: SYSTEM,
        messages,
        tools: &tools,
        tool_choice: &Default::default(),
        max_output_tokens: 100,
        stream: false,
    });
    // Through text, as it travels.
    let body: Value = serde_json::from_str(&body.to_string()).unwrap();
    let back = provider.parse_request(&body).unwrap();
    assert_eq!(back.system, SYSTEM, "{provider:?}");
    assert_eq!(back.tools, tools, "{provider:?}");
    back.messages
}

/// The history with `f` applied to every block (`None` drops it).
fn map_blocks(f: impl Fn(&ContentBlock) -> Option<ContentBlock>) -> Vec<Message> {
    history()
        .into_iter()
        .map(|m| Message {
            role: m.role,
            content: m.content.iter().filter_map(&f).collect(),
        })
        .collect()
}

fn without_is_error(block: &ContentBlock) -> ContentBlock {
    match block {
        ContentBlock::ToolResult(r) => ContentBlock::ToolResult(ToolResult {
            is_error: false,
            ..r.clone()
        }),
        other => other.clone(),
    }
}

#[test]
fn anthropic_round_trip_keeps_everything_but_unparseable_arguments() {
    let expected = map_blocks(|b| match b {
        // Anthropic's `input` must be an object: `{}` goes out, the raw text
        // stays only in the harness history.
        ContentBlock::ToolUse(c) if c.input_raw.is_some() => Some(call(&c.id, &c.name, json!({}))),
        other => Some(other.clone()),
    });
    assert_eq!(round_trip(Provider::Anthropic, &history()), expected);
}

#[test]
fn openai_chat_round_trip_drops_thinking_and_is_error() {
    let expected = map_blocks(|b| match b {
        ContentBlock::Thinking { .. } => None,
        other => Some(without_is_error(other)),
    });
    let back = round_trip(Provider::OpenaiChat, &history());
    assert_eq!(back, expected);
    // The raw argument text went out verbatim and came back verbatim.
    let ContentBlock::ToolUse(raw) = &back[5].content[1] else {
        panic!("{:?}", back[5]);
    };
    assert_eq!(raw.input_raw.as_deref(), Some(RAW));
}

#[test]
fn openai_responses_round_trip_keeps_thinking_and_drops_is_error() {
    let expected = map_blocks(|b| Some(without_is_error(b)));
    assert_eq!(round_trip(Provider::OpenaiResponses, &history()), expected);
}

#[test]
fn the_denial_text_carries_the_error_where_is_error_does_not_exist() {
    for provider in [Provider::OpenaiChat, Provider::OpenaiResponses] {
        let body = provider.request_body(&WireRequest {
            model: "m",
            system: SYSTEM,
            messages: &history(),
            tools: &tools(),
            tool_choice: &Default::default(),
            max_output_tokens: 100,
            stream: false,
        });
        let text = body.to_string();
        assert!(
            text.contains("denied by the user: not approved"),
            "{provider:?}"
        );
        assert!(!text.contains("is_error"), "{provider:?}");
    }
}

#[test]
fn the_history_breaks_no_rule_but_anthropics_empty_text() {
    for provider in Provider::ALL {
        let violations = check(provider, SYSTEM, &history(), &tools());
        let rules: Vec<Rule> = violations.iter().map(|v| v.rule).collect();
        match provider {
            Provider::Anthropic => {
                assert_eq!(rules, vec![Rule::AnthropicEmptyText]);
                assert_eq!(violations[0].message_index, Some(5));
                assert_eq!(violations[0].block_index, Some(0));
            }
            _ => assert_eq!(rules, vec![], "{provider:?}"),
        }
    }
}

#[test]
fn the_wire_shapes_of_one_turn() {
    let messages = &history()[..3];
    let body = |provider: Provider| {
        provider.request_body(&WireRequest {
            model: "m",
            system: SYSTEM,
            messages,
            tools: &tools(),
            tool_choice: &Default::default(),
            max_output_tokens: 100,
            stream: true,
        })
    };
    let anthropic = body(Provider::Anthropic);
    assert_eq!(anthropic["system"], SYSTEM);
    assert_eq!(anthropic["max_tokens"], 100);
    assert_eq!(anthropic["stream"], true);
    assert_eq!(
        anthropic["messages"][2]["content"][1],
        json!({"type": "tool_result", "tool_use_id": "call_2",
               "content": "unknown tool get_time; tools that exist: get_order_status, issue_refund",
               "is_error": true})
    );
    assert_eq!(
        anthropic["tools"][0],
        json!({"name": "get_order_status", "description": "Look up an order.",
               "input_schema": tools()[0].input_schema})
    );

    let chat = body(Provider::OpenaiChat);
    assert_eq!(
        chat["messages"][0],
        json!({"role": "system", "content": SYSTEM})
    );
    assert_eq!(chat["messages"][2]["content"], "Checking two things.");
    assert_eq!(
        chat["messages"][2]["tool_calls"][1],
        json!({"id": "call_2", "type": "function",
               "function": {"name": "get_time", "arguments": "{}"}})
    );
    assert_eq!(
        chat["messages"][3],
        json!({"role": "tool", "tool_call_id": "call_1", "content": "{\"status\":\"processing\"}"})
    );
    assert_eq!(chat["stream_options"], json!({"include_usage": true}));

    let responses = body(Provider::OpenaiResponses);
    assert_eq!(responses["instructions"], SYSTEM);
    assert_eq!(
        responses["input"][1],
        json!({"type": "reasoning", "summary": [{"type": "summary_text",
               "text": "Check the order, and the time."}], "encrypted_content": "sig-1"})
    );
    assert_eq!(
        responses["input"][2],
        json!({"type": "message", "role": "assistant",
               "content": [{"type": "output_text", "text": "Checking two things."}]})
    );
    assert_eq!(responses["store"], false);
    assert_eq!(responses["max_output_tokens"], 100);
}

#[tokio::test(start_paused = true)]
async fn a_history_rebuilt_from_a_trace_equals_the_runs_history() {
    let (_, events) = common::run_json(
        &json!({
            "name": "trace",
            "task": "Look up ord_1 twice, in parallel.",
            "tools": [{"name": "lookup", "description": "d", "input_schema": {"type": "object"},
                       "result": {"ok": true}}],
            "model": {"type": "scripted", "responses": [
                {"thinking": "two lookups", "text": "Looking.",
                 "tool_calls": [{"name": "lookup", "args": {"q": 1}}, {"name": "nope", "args": {}}]},
                {"text": "Done."}
            ]}
        })
        .to_string(),
    )
    .await;
    let history = history_from_trace(&events);
    assert_eq!(history.len(), 4);
    assert_eq!(
        history[0],
        Message::user_text("Look up ord_1 twice, in parallel.")
    );
    assert_eq!(history[2].content.len(), 2);
    assert!(matches!(
        &history[2].content[1],
        ContentBlock::ToolResult(r) if r.is_error
    ));
    for provider in Provider::ALL {
        assert_eq!(check(provider, "", &history, &[]), vec![], "{provider:?}");
    }
}
