//! One test per class of failure harnesses meet with real providers:
//! the harness survives each one and says clearly what happened, to the model
//! (an is_error tool result) or to the user (the stop reason).

mod common;

use common::{run_json, tool_results};
use harness::event::{EventKind, Status};
use serde_json::json;

fn scenario(
    tools: serde_json::Value,
    limits: serde_json::Value,
    responses: serde_json::Value,
) -> String {
    json!({"name": "wild", "task": "t", "tools": tools, "limits": limits,
        "model": {"type": "scripted", "responses": responses}})
    .to_string()
}

fn typed_tool() -> serde_json::Value {
    json!({"name": "book", "input_schema": {"type": "object", "properties": {
        "nights": {"type": "integer"}, "guests": {"type": "array", "items": {"type": "string"}},
        "filters": {"type": "object"}}, "required": ["nights"]}, "result": "booked"})
}

#[tokio::test(start_paused = true)]
async fn malformed_or_truncated_argument_json() {
    let (outcome, events) = run_json(&scenario(
        json!([typed_tool()]),
        json!({}),
        json!([
            {"tool_calls": [{"name": "book", "args_raw": "{\"nights\": 2, \"guests\": [\"Ana\""}]},
            {"tool_calls": [{"name": "book", "args_raw": "nights=2"}]},
            {"text": "gave up"}
        ]),
    ))
    .await;
    assert_eq!(outcome.status, Status::Done);
    let results = tool_results(&events);
    assert!(
        results[0].1
            && results[0]
                .2
                .contains("are not valid JSON: EOF while parsing a list at line 1 column 30"),
        "{:?}",
        results[0]
    );
    assert!(
        results[1].1
            && results[1]
                .2
                .contains("expected ident at line 1 column 2. Received: nights=2"),
        "{:?}",
        results[1]
    );
}

#[tokio::test(start_paused = true)]
async fn unknown_tool_names_get_the_list_of_real_ones() {
    let (_, events) = run_json(&scenario(
        json!([typed_tool(), "get_time"]),
        json!({}),
        json!([
            {"tool_calls": [{"name": "functions.book", "args": {"nights": 1}}]}, {"text": "ok"}
        ]),
    ))
    .await;
    assert_eq!(
        tool_results(&events)[0].2,
        "unknown tool \"functions.book\". Available tools: book, get_time."
    );
}

#[tokio::test(start_paused = true)]
async fn numbers_arrays_and_objects_sent_as_strings() {
    let (_, events) = run_json(&scenario(json!([typed_tool()]), json!({}), json!([
        {"tool_calls": [{"name": "book", "args": {"nights": "2", "guests": "[\"Ana\"]", "filters": "{}"}}]},
        {"text": "ok"}
    ])))
    .await;
    let (_, is_error, text) = &tool_results(&events)[0];
    assert!(is_error);
    for expected in [
        "/nights: expected an integer, found a string (\"2\")",
        "/guests: expected an array, found a string",
        "/filters: expected an object, found a string",
    ] {
        assert!(text.contains(expected), "{text} should contain {expected}");
    }
}

#[tokio::test(start_paused = true)]
async fn duplicate_call_ids_are_each_answered_and_the_checker_names_them() {
    let (outcome, events) = run_json(&scenario(json!([typed_tool()]), json!({}), json!([
        {"tool_calls": [{"id": "call_1", "name": "book", "args": {"nights": 1}}, {"id": "call_1", "name": "book", "args": {"nights": 2}}]},
        {"text": "ok"}
    ])))
    .await;
    assert_eq!(outcome.status, Status::Done);
    assert_eq!(tool_results(&events).len(), 2);
    let history = harness::wire::history_from_trace(&events);
    let violations = harness::wire::check(harness::wire::Provider::OpenaiChat, "", &history, &[]);
    assert!(
        violations.iter().any(|v| v
            .message
            .contains("Duplicate value for 'tool_call_id' of 'call_1'")),
        "{violations:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn empty_text_content() {
    // An empty final turn is not an answer.
    let (outcome, _) = run_json(&scenario(json!([]), json!({}), json!([{"text": ""}]))).await;
    assert_eq!(outcome.status, Status::ModelError);
    assert!(outcome.reason.contains("without any answer text"));
    // An empty text block beside a call is kept as sent, and the checker says
    // Anthropic would refuse the history.
    let (_, events) = run_json(&scenario(
        json!([typed_tool()]),
        json!({}),
        json!([
            {"text": "", "tool_calls": [{"name": "book", "args": {"nights": 1}}]}, {"text": "ok"}
        ]),
    ))
    .await;
    let history = harness::wire::history_from_trace(&events);
    let violations = harness::wire::check(harness::wire::Provider::Anthropic, "", &history, &[]);
    assert!(
        violations
            .iter()
            .any(|v| v.message.contains("text content blocks must be non-empty")),
        "{violations:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn utf8_split_across_stream_chunks() {
    // Every split point of a streamed "日本 🎉" answer decodes to the same text.
    let stream = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":5,\"output_tokens\":0}}}\n\n\
event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n\
event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"日本 🎉\"}}\n\n\
event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n\
event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":4}}\n\n\
event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    let bytes = stream.as_bytes();
    for split in 1..bytes.len() {
        let mut assembler = harness::wire::Provider::Anthropic.assembler();
        assembler.push(&bytes[..split]).unwrap();
        assembler.push(&bytes[split..]).unwrap();
        let response = assembler.finish().unwrap();
        assert_eq!(
            harness::message::text_of(&response.content),
            "日本 🎉",
            "split at {split}"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn a_model_repeating_one_call_hundreds_of_times() {
    let looping = json!({"name": "wild", "task": "t", "tools": [typed_tool()], "limits": {"max_turns": 500, "repeat_threshold": 3},
        "model": {"type": "scripted", "loop_from": 0, "responses": [{"tool_calls": [{"name": "book", "args": {"nights": 1}}]}]}});
    let (outcome, _) = run_json(&looping.to_string()).await;
    assert_eq!(outcome.status, Status::RepeatedCall);
    assert_eq!(
        outcome.turns, 3,
        "stopped at the third identical call, not the 500th turn"
    );
    assert!(outcome.reason.contains("called 3 times in a row"));
}

#[tokio::test(start_paused = true)]
async fn rate_limits_and_overload_are_retried_but_auth_and_quota_are_not() {
    let (outcome, events) = run_json(&scenario(json!([]), json!({"max_retries": 3}), json!([
        {"error": {"status": 429, "retry_after_ms": 2000}}, {"error": {"status": 529}}, {"error": {"status": 503}}, {"text": "ok"}
    ])))
    .await;
    assert_eq!(outcome.status, Status::Done);
    let waits: Vec<u64> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ModelError { retry_in_ms, .. } => *retry_in_ms,
            _ => None,
        })
        .collect();
    assert_eq!(
        waits,
        vec![2000, 1000, 2000],
        "retry-after honoured, then exponential backoff"
    );

    for (status, message) in [
        (401, "authentication_error: invalid x-api-key"),
        (403, "permission_error"),
        (429, "insufficient_quota: You exceeded your current quota, please check your plan and billing details."),
    ] {
        let (outcome, events) = run_json(&scenario(json!([]), json!({"max_retries": 3}), json!([
            {"error": {"status": status, "message": message}}, {"text": "never"}
        ])))
        .await;
        assert_eq!(outcome.status, Status::ModelError, "{status}");
        assert!(outcome.reason.contains("not retried: retrying cannot fix it"), "{}", outcome.reason);
        assert_eq!(events.iter().filter(|e| matches!(e.kind, EventKind::ModelRequest { .. })).count(), 1);
    }
}

#[tokio::test(start_paused = true)]
async fn results_too_large_for_the_context_are_capped_and_say_so() {
    let huge =
        json!({"name": "dump", "input_schema": {"type": "object"}, "result": "é".repeat(20_000)});
    let (_, events) = run_json(&scenario(
        json!([huge]),
        json!({"max_result_chars": 8000}),
        json!([
            {"tool_calls": [{"name": "dump"}]}, {"text": "ok"}
        ]),
    ))
    .await;
    let (_, is_error, text) = &tool_results(&events)[0];
    assert!(is_error);
    assert_eq!(
        text.chars().filter(|c| *c == 'é').count(),
        8000,
        "cut on a character boundary"
    );
    assert!(text.ends_with("[truncated: the result was 20000 characters; only the first 8000 are shown (max_result_chars 8000)]"));
}
