//! Streaming: SSE splitting, UTF-8 across chunk boundaries, tool-call
//! fragments assembled by index, and truncated streams reported with what
//! was received. Every stream is also fed split at every byte boundary and
//! byte by byte, and must give the same result as in one piece.

use harness::message::{ContentBlock, ToolCall};
use harness::model::{ModelError, ModelErrorKind, ModelResponse};
use harness::wire::sse::{SseEvent, SseParser};
use harness::wire::Provider;
use proptest::prelude::*;
use serde_json::{json, Value};

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/wire/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn feed(provider: Provider, chunks: &[&[u8]]) -> Result<ModelResponse, ModelError> {
    let mut assembler = provider.assembler();
    for chunk in chunks {
        assembler.push(chunk)?;
    }
    assembler.finish()
}

/// The result for `bytes` in one piece, asserted equal for every two-piece
/// split and for one byte at a time.
fn every_split(provider: Provider, bytes: &[u8]) -> Result<ModelResponse, ModelError> {
    let whole = feed(provider, &[bytes]);
    for at in 0..=bytes.len() {
        let (a, b) = bytes.split_at(at);
        assert_eq!(
            feed(provider, &[a, b]),
            whole,
            "{provider:?} split at byte {at}"
        );
    }
    let bytewise: Vec<&[u8]> = bytes.chunks(1).collect();
    assert_eq!(
        feed(provider, &bytewise),
        whole,
        "{provider:?} byte by byte"
    );
    whole
}

fn call(id: &str, name: &str, input: Value) -> ContentBlock {
    ContentBlock::ToolUse(ToolCall {
        id: id.into(),
        name: name.into(),
        input,
        input_raw: None,
    })
}

fn sse(events: &[Value]) -> String {
    events
        .iter()
        .map(|e| match e["type"].as_str() {
            Some(kind) => format!("event: {kind}\ndata: {e}\n\n"),
            None => format!("data: {e}\n\n"),
        })
        .collect()
}

// --- the SSE splitter ------------------------------------------------------

fn events(chunks: &[&[u8]]) -> Vec<SseEvent> {
    let mut parser = SseParser::new();
    chunks.iter().flat_map(|c| parser.push(c)).collect()
}

#[test]
fn sse_joins_data_lines_and_skips_comments_and_unknown_fields() {
    let text =
        b": keep-alive\nevent: a\ndata: one\ndata:two\nid: 7\nretry: 10\nfoo: bar\n\ndata\n\n";
    assert_eq!(
        events(&[text]),
        vec![
            SseEvent {
                event: Some("a".into()),
                data: "one\ntwo".into()
            },
            SseEvent {
                event: None,
                data: "".into()
            },
        ]
    );
}

#[test]
fn sse_accepts_every_line_ending_even_split_across_chunks() {
    let expected = vec![
        SseEvent {
            event: Some("x".into()),
            data: "1".into(),
        },
        SseEvent {
            event: None,
            data: "2".into(),
        },
    ];
    for ending in ["\n", "\r\n", "\r"] {
        let text = format!("event: x{e}data: 1{e}{e}data: 2{e}{e}", e = ending);
        let bytes = text.as_bytes();
        for at in 0..=bytes.len() {
            let (a, b) = bytes.split_at(at);
            assert_eq!(events(&[a, b]), expected, "{ending:?} split at {at}");
        }
    }
}

#[test]
fn sse_never_decodes_half_a_character() {
    let text = "data: café 日本 🎉\n\n";
    let bytes = text.as_bytes();
    for at in 0..=bytes.len() {
        let (a, b) = bytes.split_at(at);
        let got = events(&[a, b]);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].data, "café 日本 🎉", "split at {at}");
    }
}

#[test]
fn sse_strips_a_leading_bom_and_replaces_invalid_utf8() {
    let mut bytes = "\u{feff}data: a".as_bytes().to_vec();
    bytes.extend_from_slice(&[0xff, b'\n', b'\n']);
    assert_eq!(events(&[&bytes])[0].data, "a\u{fffd}");
}

#[test]
fn sse_reports_an_unfinished_event_and_never_dispatches_it() {
    let mut parser = SseParser::new();
    assert!(parser.push(b"data: {\"a\":1}\ndata: {\"b\"").is_empty());
    let pending = parser.pending().unwrap();
    assert!(
        pending.contains("{\\\"a\\\":1}") && pending.contains("{\\\"b\\\""),
        "{pending}"
    );
    assert_eq!(SseParser::new().pending(), None);
}

// --- the documentation streams, split everywhere --------------------------

#[test]
fn doc_streams_give_the_same_response_however_they_are_split() {
    for (provider, name) in [
        (Provider::Anthropic, "anthropic_stream_tool_use.txt"),
        (Provider::Anthropic, "anthropic_stream_thinking.txt"),
        (Provider::OpenaiChat, "openai_chat_stream_tool_call.txt"),
    ] {
        let text = fixture(name);
        let response = every_split(provider, text.as_bytes());
        assert!(response.is_ok(), "{name}: {response:?}");
        // The same stream with CRLF line endings.
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(
            every_split(provider, crlf.as_bytes()),
            response,
            "{name} CRLF"
        );
    }
}

// --- UTF-8 across chunk boundaries ----------------------------------------

const UNICODE: &str = "é, 日本, and 🎉";

#[test]
fn anthropic_text_survives_every_split() {
    let stream = sse(&[
        json!({"type": "message_start", "message": {"usage": {"input_tokens": 5, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "é, 日"}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "本, and 🎉"}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 9}}),
        json!({"type": "message_stop"}),
    ]);
    let response = every_split(Provider::Anthropic, stream.as_bytes()).unwrap();
    assert_eq!(
        response.content,
        vec![ContentBlock::Text {
            text: UNICODE.into()
        }]
    );
    assert_eq!(response.usage.output_tokens, 9);
    assert_eq!(response.usage.input_tokens, 5);
}

#[test]
fn openai_chat_text_survives_every_split() {
    let chunk = |delta: Value, finish: Value| json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
    let mut stream = sse(&[
        chunk(
            json!({"role": "assistant", "content": "é, 日"}),
            Value::Null,
        ),
        chunk(json!({"content": "本, and 🎉"}), Value::Null),
        chunk(json!({}), json!("stop")),
        json!({"object": "chat.completion.chunk", "choices": [],
               "usage": {"prompt_tokens": 3, "completion_tokens": 4}}),
    ]);
    stream.push_str("data: [DONE]\n\n");
    let response = every_split(Provider::OpenaiChat, stream.as_bytes()).unwrap();
    assert_eq!(
        response.content,
        vec![ContentBlock::Text {
            text: UNICODE.into()
        }]
    );
    assert_eq!(response.stop_reason, "stop");
    assert_eq!(
        (response.usage.input_tokens, response.usage.output_tokens),
        (3, 4)
    );
}

#[test]
fn openai_responses_text_and_reasoning_survive_every_split() {
    let stream = sse(&[
        json!({"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}}),
        json!({"type": "response.output_item.added", "output_index": 0,
               "item": {"type": "reasoning", "id": "rs_1", "summary": []}}),
        json!({"type": "response.reasoning_summary_text.delta", "item_id": "rs_1", "output_index": 0,
               "summary_index": 0, "delta": "think é"}),
        json!({"type": "response.output_item.added", "output_index": 1,
               "item": {"type": "message", "id": "msg_1", "role": "assistant", "content": []}}),
        // No output_index: found through item_id.
        json!({"type": "response.output_text.delta", "item_id": "msg_1", "content_index": 0, "delta": "é, 日"}),
        json!({"type": "response.output_text.delta", "item_id": "msg_1", "content_index": 0, "delta": "本, and 🎉"}),
        json!({"type": "response.completed", "response": {"id": "resp_1", "status": "completed", "output": [],
               "usage": {"input_tokens": 7, "output_tokens": 8}}}),
    ]);
    let response = every_split(Provider::OpenaiResponses, stream.as_bytes()).unwrap();
    assert_eq!(
        response.content,
        vec![
            ContentBlock::Thinking {
                thinking: "think é".into(),
                signature: None
            },
            ContentBlock::Text {
                text: UNICODE.into()
            }
        ]
    );
    assert_eq!(
        (response.usage.input_tokens, response.usage.output_tokens),
        (7, 8)
    );
}

// --- tool-call fragments by index -------------------------------------------

#[test]
fn openai_chat_assembles_only_the_first_choice() {
    let chunk = |index: u64, content: &str, finish: Value| json!({"choices": [{"index": index, "delta": {"content": content}, "finish_reason": finish}]});
    let stream = sse(&[
        chunk(0, "mine", Value::Null),
        chunk(1, "another choice's text", Value::Null),
        chunk(1, "", json!("length")),
        chunk(0, "", json!("stop")),
    ]);
    let response = feed(Provider::OpenaiChat, &[stream.as_bytes()]).unwrap();
    assert_eq!(
        response.content,
        vec![ContentBlock::Text {
            text: "mine".into()
        }]
    );
    assert_eq!(response.stop_reason, "stop");
}

#[test]
fn openai_chat_parallel_calls_interleaved_by_index() {
    let tc = |calls: Value| json!({"choices": [{"index": 0, "delta": {"tool_calls": calls}, "finish_reason": null}]});
    let mut stream = sse(&[
        tc(
            json!([{"index": 0, "id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]),
        ),
        tc(
            json!([{"index": 1, "id": "call_b", "type": "function", "function": {"name": "get_time", "arguments": "{\"tz\":"}}]),
        ),
        tc(json!([{"index": 0, "function": {"arguments": "{\"city\": \"Zürich"}}])),
        tc(json!([{"index": 1, "function": {"arguments": " \"Asia/東京\"}"}}])),
        tc(json!([{"index": 0, "function": {"arguments": "\"}"}}])),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    ]);
    stream.push_str("data: [DONE]\n\n");
    let response = every_split(Provider::OpenaiChat, stream.as_bytes()).unwrap();
    assert_eq!(
        response.content,
        vec![
            call("call_a", "get_weather", json!({"city": "Zürich"})),
            call("call_b", "get_time", json!({"tz": "Asia/東京"})),
        ]
    );
}

#[test]
fn anthropic_parallel_calls_and_a_call_without_arguments() {
    let stream = sse(&[
        json!({"type": "message_start", "message": {"usage": {"input_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_a", "name": "get_time", "input": {}}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_b", "name": "lookup", "input": {}}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"q\": "}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "[1, 2]}"}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 3}}),
        json!({"type": "message_stop"}),
    ]);
    let response = every_split(Provider::Anthropic, stream.as_bytes()).unwrap();
    assert_eq!(
        response.content,
        vec![
            call("toolu_a", "get_time", json!({})),
            call("toolu_b", "lookup", json!({"q": [1, 2]})),
        ]
    );
}

#[test]
fn streamed_arguments_that_are_not_json_are_kept_raw() {
    let mut stream = sse(&[
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_x", "function": {"name": "f", "arguments": "{\"a\": tru"}}]}, "finish_reason": null}]}),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    ]);
    stream.push_str("data: [DONE]\n\n");
    let response = feed(Provider::OpenaiChat, &[stream.as_bytes()]).unwrap();
    let ContentBlock::ToolUse(call) = &response.content[0] else {
        panic!("{response:?}");
    };
    assert_eq!(call.input, Value::Null);
    assert_eq!(call.input_raw.as_deref(), Some("{\"a\": tru"));
}

// --- truncated streams --------------------------------------------------------

/// The fixture cut right after its `n`-th event.
fn first_events(text: &str, n: usize) -> String {
    text.split_inclusive("\n\n").take(n).collect()
}

#[test]
fn a_truncated_anthropic_stream_says_what_arrived() {
    let doc = fixture("anthropic_stream_tool_use.txt");
    // message_start, the text block's 17 events (ping included), the
    // tool_use start and 4 input_json_deltas (the first one empty).
    let cut = first_events(&doc, 22);
    let error = feed(Provider::Anthropic, &[cut.as_bytes()]).unwrap_err();
    // The connection broke: a network error, worth a retry.
    assert_eq!(error.kind, ModelErrorKind::Network);
    assert!(error.is_retryable());
    assert_eq!(
        error.message,
        "the stream ended before a stop_reason (22 events received); received: \
         block 0: text \"Okay, let's check the weather for San Francisco, CA:\"; \
         block 1: tool_use get_weather (toolu_01T1x1fJ34qAmk2tNTrN7Up6) after 4 argument fragments: \
         \"{\\\"location\\\": \\\"San Francisc\""
    );

    // Cut in the middle of a data line: the unfinished event is named too.
    let mid = &doc[..cut.len() + 40];
    let error = feed(Provider::Anthropic, &[mid.as_bytes()]).unwrap_err();
    assert!(
        error.message.contains("an unfinished event with")
            && error.message.contains("after 4 argument fragments"),
        "{}",
        error.message
    );

    // Everything but message_stop.
    let almost = first_events(&doc, 29);
    let error = feed(Provider::Anthropic, &[almost.as_bytes()]).unwrap_err();
    assert!(
        error
            .message
            .starts_with("the stream ended before message_stop")
            && error.message.contains("stop_reason tool_use"),
        "{}",
        error.message
    );

    assert_eq!(
        feed(Provider::Anthropic, &[]).unwrap_err().message,
        "the stream ended before a stop_reason (0 events received); received: no message_start"
    );
}

#[test]
fn a_truncated_openai_chat_stream_says_what_arrived() {
    let doc = fixture("openai_chat_stream_tool_call.txt");
    let cut = first_events(&doc, 4);
    let error = feed(Provider::OpenaiChat, &[cut.as_bytes()]).unwrap_err();
    assert_eq!(
        error.message,
        "the stream ended before a finish_reason (4 chunks received); received: \
         tool call 0 get_weather (call_DdmO9pD3xa9XTPNJ32zg2hcA) after 4 argument fragments: \
         \"{\\\"location\\\":\\\"\""
    );
}

// --- errors inside a stream ---------------------------------------------------

#[test]
fn an_error_event_ends_the_stream_with_the_providers_text() {
    let stream = sse(&[
        json!({"type": "message_start", "message": {}}),
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
    ]);
    let mut assembler = Provider::Anthropic.assembler();
    let error = assembler.push(stream.as_bytes()).unwrap_err();
    assert_eq!(error.message, "overloaded_error: Overloaded");
    // Later pushes and the finish repeat it.
    assert_eq!(assembler.push(b"data: {}\n\n").unwrap_err(), error);
    assert_eq!(assembler.finish().unwrap_err(), error);

    let error = feed(
        Provider::OpenaiResponses,
        &[sse(&[json!({"type": "error", "code": "rate_limit_exceeded",
                       "message": "Rate limit exceeded. Please try again later."})])
        .as_bytes()],
    )
    .unwrap_err();
    assert_eq!(
        error.message,
        "rate_limit_exceeded: Rate limit exceeded. Please try again later."
    );

    let error = feed(
        Provider::OpenaiResponses,
        &[sse(&[json!({"type": "response.failed", "response": {"status": "failed",
                       "error": {"code": "server_error", "message": "The model failed."}, "output": []}})])
        .as_bytes()],
    )
    .unwrap_err();
    assert_eq!(error.message, "server_error: The model failed.");
}

#[test]
fn data_that_is_not_json_is_an_invalid_response() {
    for provider in Provider::ALL {
        let error = feed(provider, &[b"data: {not json\n\n"]).unwrap_err();
        assert_eq!(error.kind, ModelErrorKind::InvalidResponse, "{provider:?}");
        assert!(error.message.contains("not JSON"), "{}", error.message);
    }
}

#[test]
fn an_absurd_part_index_is_an_error_not_an_allocation() {
    let stream = sse(&[
        json!({"type": "response.output_text.delta", "output_index": 0,
                              "content_index": 1_000_000_000_000u64, "delta": "x"}),
    ]);
    let error = feed(Provider::OpenaiResponses, &[stream.as_bytes()]).unwrap_err();
    assert_eq!(error.kind, ModelErrorKind::InvalidResponse);
    assert!(error.message.contains("content_index"), "{}", error.message);
}

#[test]
fn an_incomplete_responses_stream_reports_the_reason() {
    let stream = sse(&[
        json!({"type": "response.output_item.added", "output_index": 0,
               "item": {"type": "message", "role": "assistant", "content": []}}),
        json!({"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": "cut sh"}),
        json!({"type": "response.incomplete", "response": {"status": "incomplete",
               "incomplete_details": {"reason": "max_output_tokens"}, "output": []}}),
    ]);
    let response = feed(Provider::OpenaiResponses, &[stream.as_bytes()]).unwrap();
    assert_eq!(response.stop_reason, "max_output_tokens");
    assert_eq!(
        response.content,
        vec![ContentBlock::Text {
            text: "cut sh".into()
        }]
    );
}

proptest! {
    /// Provider bytes are untrusted: nothing a server sends makes a parser panic.
    #[test]
    fn arbitrary_bytes_never_panic(chunks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..64), 0..8)) {
        for provider in Provider::ALL {
            let mut assembler = provider.assembler();
            for chunk in &chunks {
                let _ = assembler.push(chunk);
            }
            let _ = assembler.finish();
        }
    }

    /// SSE lines with arbitrary JSON-ish payloads never panic either.
    #[test]
    fn arbitrary_events_never_panic(kinds in proptest::collection::vec(0usize..12, 0..20), index in 0u64..3, text in ".{0,8}") {
        let names = ["message_start", "content_block_start", "content_block_delta", "message_delta",
                     "message_stop", "response.output_item.added", "response.output_text.delta",
                     "response.function_call_arguments.delta", "response.completed", "error", "ping", "x"];
        let mut body = String::new();
        for k in kinds {
            let event = json!({"type": names[k], "index": index, "output_index": index,
                "content_block": {"type": "tool_use"}, "delta": {"type": "input_json_delta", "partial_json": text, "stop_reason": text},
                "item": {"type": "function_call"}, "response": {"status": text},
                "choices": [{"delta": {"content": text, "tool_calls": [{"index": index, "function": {"arguments": text}}]}, "finish_reason": null}]});
            body.push_str(&format!("data: {event}\n\n"));
        }
        for provider in Provider::ALL {
            let _ = feed(provider, &[body.as_bytes()]);
        }
    }
}

#[test]
fn the_sse_parser_keeps_the_last_event_id_and_retry_for_reconnecting() {
    let mut parser = SseParser::new();
    assert_eq!(parser.last_event_id(), None);
    assert_eq!(parser.retry_ms(), None);
    let events = parser.push(b"id: e1\nretry: 10\ndata:\n\n");
    assert_eq!(events.len(), 1);
    assert_eq!(parser.last_event_id(), Some("e1"));
    assert_eq!(parser.retry_ms(), Some(10));
    // A retry that is not all digits is ignored; an empty id clears it.
    parser.push(b"retry: 5s\nid\ndata: x\n\n");
    assert_eq!(parser.retry_ms(), Some(10));
    assert_eq!(parser.last_event_id(), None);
}
