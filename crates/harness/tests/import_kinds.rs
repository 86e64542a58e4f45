//! Each provider's own documented bodies and streams (tests/fixtures/wire,
//! sources in SOURCES.md) are told apart by `harness::import` and by the
//! marks in each format's folder, as the page's "Import run…" and
//! `agent-loop import` both read them. The API reference's Anthropic
//! example has no `"type": "message"`: it is still a response.

use harness::import::{kind_of, read, Import, Kind};
use harness::wire::Provider;
use serde_json::Value;

fn text(name: &str) -> String {
    let path = format!("{}/tests/fixtures/wire/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn each_request_body_is_a_request_of_its_own_format() {
    for (name, provider) in [
        ("anthropic_request_tool_result.json", Provider::Anthropic),
        ("openai_chat_request_tools.json", Provider::OpenaiChat),
        (
            "openai_chat_request_undeclared_tool.json",
            Provider::OpenaiChat,
        ),
        (
            "openai_responses_request_function_call_output.json",
            Provider::OpenaiResponses,
        ),
    ] {
        let body = text(name);
        assert_eq!(kind_of(&body), Some(Kind::Request), "{name}");
        let value: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            Provider::of_request_body(&value).unwrap().0,
            provider,
            "{name}"
        );
        assert_eq!(Provider::of_response_body(&value), None, "{name}");
        match read(&body, None) {
            Ok(Import::Request(transcript)) => assert_eq!(transcript.provider, provider),
            other => panic!("{name}: read as {other:?}"),
        }
    }
}

#[test]
fn each_response_body_and_stream_is_a_response_of_its_own_format() {
    // The Responses guide shows only the `output` array; wrapped as
    // `wire_golden.rs` wraps it.
    let responses = format!(
        r#"{{"status": "completed", "output": {}}}"#,
        text("openai_responses_output_function_calls.json")
    );
    for (name, body, provider) in [
        (
            "anthropic_response_tool_use.json",
            text("anthropic_response_tool_use.json"),
            Provider::Anthropic,
        ),
        (
            "openai_chat_response_tool_calls.json",
            text("openai_chat_response_tool_calls.json"),
            Provider::OpenaiChat,
        ),
        (
            "openai_responses_output_function_calls.json",
            responses,
            Provider::OpenaiResponses,
        ),
    ] {
        assert_eq!(kind_of(&body), Some(Kind::Response), "{name}");
        let value: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(Provider::of_response_body(&value), Some(provider), "{name}");
    }
    for (name, provider) in [
        ("anthropic_stream_thinking.txt", Provider::Anthropic),
        ("anthropic_stream_tool_use.txt", Provider::Anthropic),
        ("openai_chat_stream_tool_call.txt", Provider::OpenaiChat),
        (
            "openai_responses_stream_function_call_doc.txt",
            Provider::OpenaiResponses,
        ),
    ] {
        let stream = text(name);
        assert_eq!(kind_of(&stream), Some(Kind::Response), "{name}");
        assert_eq!(Provider::of_stream(&stream), Some(provider), "{name}");
    }
}

#[test]
fn the_reference_anthropic_response_answers_the_request_it_follows() {
    let request = match read(&text("anthropic_request_tool_result.json"), None) {
        Ok(Import::Request(transcript)) => transcript.record,
        other => panic!("the request was read as {other:?}"),
    };
    match read(&text("anthropic_response_tool_use.json"), Some(&request)) {
        Ok(Import::Response(answered)) => {
            assert_eq!(answered.provider, Provider::Anthropic);
            assert_eq!(answered.read_as, "a response body");
        }
        other => panic!("the response was read as {other:?}"),
    }
}
