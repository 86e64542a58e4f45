//! The response encoders (`wire::encode`) against the harness's own parsers:
//! a response encoded whole and parsed with `parse_response`, or encoded as
//! SSE events and fed to the `StreamAssembler` in pieces of any size, comes
//! back as it went in, less only what each format cannot carry (see the
//! `encode` module docs). Also the exact shapes a client relies on.

use harness::message::{ContentBlock, ToolCall};
use harness::model::{ModelResponse, Usage};
use harness::wire::encode::{self, fragments, Meta};
use harness::wire::Provider;
use proptest::prelude::*;
use serde_json::{json, Value};

const META: Meta<'static> = Meta {
    model: "scripted-model",
    id_seed: 7,
    created: 1_700_000_000,
};

/// What `provider` gives back for `response` after a round trip.
fn expected(provider: Provider, response: &ModelResponse, streamed: bool) -> ModelResponse {
    let stop_reason = encode::stop_reason(provider, &response.stop_reason);
    let content = match provider {
        Provider::Anthropic => response
            .content
            .iter()
            .map(|block| match block {
                ContentBlock::ToolUse(call) if !streamed && call.input_raw.is_some() => {
                    ContentBlock::ToolUse(ToolCall {
                        input: json!({}),
                        input_raw: None,
                        ..call.clone()
                    })
                }
                other => other.clone(),
            })
            .collect(),
        Provider::OpenaiChat => {
            // OpenAI sends no thinking, so none comes back.
            let mut out = Vec::new();
            let texts: Vec<&str> = response
                .content
                .iter()
                .filter_map(|b| match b {
                    ContentBlock::Text { text } => Some(text.as_str()),
                    _ => None,
                })
                .collect();
            if !texts.is_empty() {
                out.push(ContentBlock::Text {
                    text: texts.join("\n"),
                });
            }
            out.extend(
                response
                    .content
                    .iter()
                    .filter(|b| matches!(b, ContentBlock::ToolUse(_)))
                    .cloned(),
            );
            out
        }
        Provider::OpenaiResponses => response.content.clone(),
    };
    ModelResponse {
        content,
        stop_reason,
        usage: response.usage,
    }
}

fn parse_whole(provider: Provider, response: &ModelResponse) -> ModelResponse {
    let body = encode::response_body(provider, response, &META);
    // Through text, as a client gets it.
    let body: Value = serde_json::from_str(&body.to_string()).expect("the body is JSON");
    provider
        .parse_response(&body)
        .unwrap_or_else(|e| panic!("{provider:?} parses its own body: {e}\n{body:#}"))
}

fn stream_bytes(provider: Provider, response: &ModelResponse) -> Vec<u8> {
    encode::stream_events(provider, response, &META)
        .concat()
        .into_bytes()
}

fn assemble(provider: Provider, chunks: &[&[u8]]) -> ModelResponse {
    let mut assembler = provider.assembler();
    for chunk in chunks {
        assembler
            .push(chunk)
            .unwrap_or_else(|e| panic!("{provider:?} push: {e}"));
    }
    assembler
        .finish()
        .unwrap_or_else(|e| panic!("{provider:?} finish: {e}"))
}

fn call(id: &str, name: &str, input: Value) -> ContentBlock {
    ContentBlock::ToolUse(ToolCall {
        id: id.into(),
        name: name.into(),
        input,
        input_raw: None,
    })
}

fn raw_call(id: &str, name: &str, raw: &str) -> ContentBlock {
    ContentBlock::ToolUse(ToolCall::from_raw_arguments(id.into(), name.into(), raw))
}

/// Parallel tool calls, thinking with a signature, non-ASCII text, and a
/// malformed argument text.
fn rich_response() -> ModelResponse {
    ModelResponse {
        content: vec![
            ContentBlock::Thinking {
                thinking: "Zwei Städte: 東京 und Zürich 🙂".into(),
                signature: Some("sig-Ωmega".into()),
            },
            ContentBlock::Text {
                text: "Je vérifie les deux hôtels…".into(),
            },
            call(
                "toolu_0001",
                "get_hotel_detail",
                json!({"hotel_id": "H-東京-1", "nights": 2}),
            ),
            call(
                "toolu_0002",
                "get_hotel_detail",
                json!({"hotel_id": "H-Zü-2"}),
            ),
            raw_call("toolu_0003", "get_time", "{\"tz\": \"Europe/Par"),
        ],
        stop_reason: "tool_use".into(),
        usage: Usage {
            input_tokens: 321,
            output_tokens: 54,
        },
    }
}

#[test]
fn a_rich_response_round_trips_whole_and_streamed_for_every_provider() {
    let response = rich_response();
    for provider in Provider::ALL {
        assert_eq!(
            parse_whole(provider, &response),
            expected(provider, &response, false),
            "{provider:?} whole"
        );
        let bytes = stream_bytes(provider, &response);
        let want = expected(provider, &response, true);
        assert_eq!(assemble(provider, &[&bytes]), want, "{provider:?} streamed");
        // One byte at a time splits every multi-byte character.
        let bytewise: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(assemble(provider, &bytewise), want, "{provider:?} bytewise");
    }
}

#[test]
fn malformed_arguments_survive_where_the_format_carries_text() {
    let response = rich_response();
    let raw = |r: &ModelResponse| {
        r.content
            .iter()
            .find_map(|b| match b {
                ContentBlock::ToolUse(c) if c.id == "toolu_0003" => Some(c.input_raw.clone()),
                _ => None,
            })
            .flatten()
    };
    let want = Some("{\"tz\": \"Europe/Par".to_string());
    assert_eq!(raw(&parse_whole(Provider::OpenaiChat, &response)), want);
    assert_eq!(
        raw(&parse_whole(Provider::OpenaiResponses, &response)),
        want
    );
    assert_eq!(raw(&parse_whole(Provider::Anthropic, &response)), None);
    for provider in Provider::ALL {
        let bytes = stream_bytes(provider, &response);
        assert_eq!(raw(&assemble(provider, &[&bytes])), want, "{provider:?}");
    }
}

#[test]
fn stop_reasons_are_each_providers_own_word() {
    let cases = [
        ("end_turn", "end_turn", "stop", "completed"),
        ("tool_use", "tool_use", "tool_calls", "completed"),
        ("max_tokens", "max_tokens", "length", "max_output_tokens"),
        ("refusal", "refusal", "content_filter", "content_filter"),
        ("length", "max_tokens", "length", "max_output_tokens"),
        ("pause_turn", "pause_turn", "pause_turn", "pause_turn"),
        ("mystery", "mystery", "mystery", "mystery"),
    ];
    for (harness, anthropic, chat, responses) in cases {
        assert_eq!(encode::stop_reason(Provider::Anthropic, harness), anthropic);
        assert_eq!(encode::stop_reason(Provider::OpenaiChat, harness), chat);
        assert_eq!(
            encode::stop_reason(Provider::OpenaiResponses, harness),
            responses
        );
    }
    let response = ModelResponse {
        content: vec![ContentBlock::Text {
            text: "cut off".into(),
        }],
        stop_reason: "max_tokens".into(),
        usage: Usage::default(),
    };
    let body = encode::response_body(Provider::OpenaiResponses, &response, &META);
    assert_eq!(body["status"], "incomplete");
    assert_eq!(body["incomplete_details"]["reason"], "max_output_tokens");
}

#[test]
fn whole_bodies_have_each_providers_shape() {
    let response = rich_response();
    let a = encode::response_body(Provider::Anthropic, &response, &META);
    assert_eq!(a["type"], "message");
    assert_eq!(a["role"], "assistant");
    assert_eq!(a["model"], "scripted-model");
    assert_eq!(a["stop_reason"], "tool_use");
    assert_eq!(a["content"][2]["type"], "tool_use");
    assert_eq!(a["content"][2]["input"]["nights"], 2);
    assert_eq!(
        a["usage"],
        json!({"input_tokens": 321, "output_tokens": 54})
    );

    let c = encode::response_body(Provider::OpenaiChat, &response, &META);
    assert_eq!(c["object"], "chat.completion");
    assert_eq!(c["created"], 1_700_000_000);
    assert_eq!(c["choices"][0]["finish_reason"], "tool_calls");
    let calls = c["choices"][0]["message"]["tool_calls"].as_array().unwrap();
    assert_eq!(calls.len(), 3);
    assert_eq!(calls[0]["type"], "function");
    // Arguments are a JSON string; malformed ones verbatim.
    let args: Value = serde_json::from_str(calls[0]["function"]["arguments"].as_str().unwrap())
        .expect("arguments are JSON text");
    assert_eq!(args["hotel_id"], "H-東京-1");
    assert_eq!(calls[2]["function"]["arguments"], "{\"tz\": \"Europe/Par");
    assert_eq!(c["usage"]["total_tokens"], 375);

    let r = encode::response_body(Provider::OpenaiResponses, &response, &META);
    assert_eq!(r["object"], "response");
    assert_eq!(r["status"], "completed");
    let kinds: Vec<&str> = r["output"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "reasoning",
            "message",
            "function_call",
            "function_call",
            "function_call"
        ]
    );
    assert_eq!(r["output"][2]["call_id"], "toolu_0001");
}

/// A Chat Completions answer carries only the fields OpenAI defines for its
/// message (<https://platform.openai.com/docs/api-reference/chat/object>),
/// whole and streamed, even when the model thought: `reasoning_content` is
/// DeepSeek's and vLLM's addition, not OpenAI's.
#[test]
fn chat_answers_carry_only_openais_own_fields() {
    const OPENAI_MESSAGE: [&str; 7] = [
        "role",
        "content",
        "refusal",
        "tool_calls",
        "annotations",
        "audio",
        "function_call",
    ];
    let response = rich_response();
    let whole = encode::response_body(Provider::OpenaiChat, &response, &META);
    let message = whole["choices"][0]["message"].as_object().unwrap();
    for key in message.keys() {
        assert!(
            OPENAI_MESSAGE.contains(&key.as_str()),
            "{key} in {message:?}"
        );
    }
    for event in encode::stream_events(Provider::OpenaiChat, &response, &META) {
        let Some(data) = event.lines().find_map(|l| l.strip_prefix("data: ")) else {
            continue;
        };
        let Ok(chunk) = serde_json::from_str::<Value>(data) else {
            continue;
        };
        for choice in chunk["choices"].as_array().into_iter().flatten() {
            for key in choice["delta"].as_object().unwrap().keys() {
                assert!(OPENAI_MESSAGE.contains(&key.as_str()), "{key} in {event}");
            }
        }
    }
}

/// The event names of a stream, in order.
fn names(provider: Provider, response: &ModelResponse) -> Vec<String> {
    encode::stream_events(provider, response, &META)
        .iter()
        .map(|e| {
            let data = e
                .lines()
                .find_map(|l| l.strip_prefix("data: "))
                .expect("each event has data");
            if data == "[DONE]" {
                return "[DONE]".to_string();
            }
            let v: Value = serde_json::from_str(data).expect("data is JSON");
            match v["type"].as_str() {
                Some(kind) => {
                    assert!(e.starts_with(&format!("event: {kind}\n")), "{e}");
                    kind.to_string()
                }
                None => "chunk".to_string(),
            }
        })
        .collect()
}

#[test]
fn streams_follow_each_providers_event_sequence() {
    let response = ModelResponse {
        content: vec![
            ContentBlock::Text { text: "ok".into() },
            call("toolu_1", "get_time", json!({"timezone": "Europe/Paris"})),
        ],
        stop_reason: "tool_use".into(),
        usage: Usage::default(),
    };
    let anthropic = names(Provider::Anthropic, &response);
    assert_eq!(anthropic[0], "message_start");
    assert_eq!(anthropic[1], "ping");
    assert_eq!(anthropic.last().unwrap(), "message_stop");
    assert_eq!(anthropic[anthropic.len() - 2], "message_delta");
    assert_eq!(
        anthropic
            .iter()
            .filter(|n| *n == "content_block_start")
            .count(),
        2
    );
    // The arguments come in several input_json_delta fragments.
    let events = encode::stream_events(Provider::Anthropic, &response, &META);
    let fragments_sent = events
        .iter()
        .filter(|e| e.contains("input_json_delta"))
        .count();
    assert!(fragments_sent >= 3, "{fragments_sent} fragments");

    let chat = names(Provider::OpenaiChat, &response);
    assert!(chat[..chat.len() - 1].iter().all(|n| n == "chunk"));
    assert_eq!(chat.last().unwrap(), "[DONE]");
    let chat_events = encode::stream_events(Provider::OpenaiChat, &response, &META);
    let arg_fragments = chat_events
        .iter()
        .filter(|e| e.contains("\"arguments\"") && !e.contains("\"id\":\"toolu_1\""))
        .count();
    assert!(arg_fragments >= 3, "{arg_fragments}");

    let responses = names(Provider::OpenaiResponses, &response);
    assert_eq!(responses[0], "response.created");
    assert_eq!(responses.last().unwrap(), "response.completed");
    for name in [
        "response.output_item.added",
        "response.output_text.delta",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "response.output_item.done",
    ] {
        assert!(
            responses.iter().any(|n| n == name),
            "{name} in {responses:?}"
        );
    }
}

#[test]
fn error_bodies_are_each_providers_shape_and_parse_back() {
    let a = encode::error_body(Provider::Anthropic, 429, "slow down");
    assert_eq!(
        a,
        json!({"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}})
    );
    assert_eq!(
        encode::error_body(Provider::Anthropic, 529, "busy")["error"]["type"],
        "overloaded_error"
    );
    let o = encode::error_body(Provider::OpenaiChat, 401, "bad key");
    assert_eq!(o["error"]["message"], "bad key");
    assert_eq!(o["error"]["code"], "invalid_api_key");
    assert!(o["error"].get("param").is_some());
    for provider in Provider::ALL {
        let body = encode::error_body(provider, 400, "nope");
        let error = provider.parse_response(&body).expect_err("an error body");
        assert!(error.message.ends_with("nope"), "{provider:?}: {error}");
    }
}

#[test]
fn fragments_cut_at_character_boundaries() {
    assert_eq!(fragments("", 3), [""]);
    assert_eq!(fragments("ab", 3), ["a", "b"]);
    assert_eq!(fragments("東京都庁前", 3), ["東京", "都庁", "前"]);
    assert_eq!(fragments("abcdefg", 3).concat(), "abcdefg");
}

// ------------------------------------------------------------------ properties

fn arb_text() -> impl Strategy<Value = String> {
    // ASCII, accents, CJK, emoji, quotes and newlines (escaped in JSON).
    proptest::string::string_regex("[a-z \"\\\\\n\u{e9}\u{fc}\u{6771}\u{4eac}\u{1F642}]{0,24}")
        .expect("a valid regex")
}

fn arb_input() -> impl Strategy<Value = Value> {
    proptest::collection::btree_map(
        "[a-z_]{1,8}",
        prop_oneof![
            arb_text().prop_map(Value::from),
            any::<i32>().prop_map(Value::from),
            any::<bool>().prop_map(Value::from),
        ],
        0..4,
    )
    .prop_map(|m| Value::Object(m.into_iter().collect()))
}

fn arb_call() -> impl Strategy<Value = (String, Value, Option<String>)> {
    (
        "[a-z_]{1,12}",
        arb_input(),
        // Argument text that is not JSON: a cut-off object.
        proptest::option::weighted(0.25, "\\{\"[a-z]{0,6}(\": \"[a-z\u{e9}]{0,4})?"),
    )
}

prop_compose! {
    fn arb_response()(
        thinking in proptest::option::of((arb_text(), proptest::option::of("[a-zA-Z0-9+/=]{1,20}"))),
        texts in proptest::collection::vec(arb_text(), 0..3),
        calls in proptest::collection::vec(arb_call(), 0..4),
        stop in prop_oneof![Just("end_turn"), Just("tool_use"), Just("max_tokens"), Just("refusal")],
        input_tokens in 0u64..100_000,
        output_tokens in 0u64..10_000,
    ) -> ModelResponse {
        let mut content = Vec::new();
        if let Some((thinking, signature)) = thinking {
            content.push(ContentBlock::Thinking { thinking, signature });
        }
        content.extend(texts.into_iter().map(|text| ContentBlock::Text { text }));
        for (n, (name, input, raw)) in calls.into_iter().enumerate() {
            let id = format!("call_{n:03}");
            content.push(match raw {
                Some(raw) => raw_call(&id, &name, &raw),
                None => call(&id, &name, input),
            });
        }
        ModelResponse {
            content,
            stop_reason: stop.to_string(),
            usage: Usage { input_tokens, output_tokens },
        }
    }
}

/// `bytes` cut at the given sizes (cycled), the last piece whatever is left.
fn cut<'a>(bytes: &'a [u8], sizes: &[usize]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut rest = bytes;
    let mut n = 0;
    while !rest.is_empty() {
        let size = sizes
            .get(n % sizes.len().max(1))
            .copied()
            .unwrap_or(rest.len());
        let (piece, tail) = rest.split_at(size.clamp(1, rest.len()));
        out.push(piece);
        rest = tail;
        n += 1;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_response_round_trips_whole(response in arb_response()) {
        for provider in Provider::ALL {
            prop_assert_eq!(
                parse_whole(provider, &response),
                expected(provider, &response, false),
                "{:?}", provider
            );
        }
    }

    #[test]
    fn any_response_round_trips_streamed_in_any_chunks(
        response in arb_response(),
        sizes in proptest::collection::vec(1usize..17, 1..6),
    ) {
        for provider in Provider::ALL {
            let bytes = stream_bytes(provider, &response);
            let chunks = cut(&bytes, &sizes);
            prop_assert_eq!(
                assemble(provider, &chunks),
                expected(provider, &response, true),
                "{:?}", provider
            );
        }
    }
}
