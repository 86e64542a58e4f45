//! `agent-loop serve` end to end: the binary on a free port, real HTTP
//! requests over a plain `TcpStream`, and the answers read back with the
//! harness's own parsers and stream assemblers, so what a browser adapter or
//! an SDK receives is what the harness understands.
//!
//! Every test starts its own server; the guard kills it on drop, even when
//! an assertion fails.

mod common;

use std::time::{Duration, Instant};

use common::{serve, serve_with};

use harness::message::{ContentBlock, Message, Role, ToolCall, ToolResult};
use harness::model::{ModelResponse, ToolSpec};
use harness::wire::{Provider, WireRequest};
use serde_json::{json, Value};

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "body is not JSON ({e}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }
}

/// One HTTP/1.1 request on a fresh connection (`Connection: close`, so the
/// body ends where the connection does).
fn request(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Reply {
    let raw = common::exchange(port, method, path, headers, body, Duration::from_secs(20));
    let (status, headers, mut body) = common::split_reply(&raw);
    if headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"))
    {
        body = dechunk(&body);
    }
    Reply {
        status,
        headers,
        body,
    }
}

fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let end = raw
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("a size line");
        let size = usize::from_str_radix(std::str::from_utf8(&raw[..end]).unwrap().trim(), 16)
            .expect("a hex size");
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&raw[end + 2..end + 2 + size]);
        raw = &raw[end + 2 + size + 2..];
    }
}

fn post(port: u16, path: &str, body: &Value) -> Reply {
    request(
        port,
        "POST",
        path,
        &[("content-type", "application/json")],
        &body.to_string(),
    )
}

fn path(provider: Provider) -> &'static str {
    match provider {
        Provider::Anthropic => "/v1/messages",
        Provider::OpenaiChat => "/v1/chat/completions",
        Provider::OpenaiResponses => "/v1/responses",
    }
}

fn tools() -> Vec<ToolSpec> {
    vec![ToolSpec {
        name: "get_time".into(),
        description: "The current time in a time zone.".into(),
        input_schema: json!({"type": "object", "properties": {"timezone": {"type": "string"}}}),
    }]
}

/// The body the harness itself would send for `messages`.
fn body(provider: Provider, messages: &[Message], stream: bool) -> Value {
    provider.request_body(&WireRequest {
        model: "scripted-model",
        system: "You tell the time.",
        messages,
        tools: &tools(),
        tool_choice: &Default::default(),
        max_output_tokens: 1024,
        stream,
    })
}

fn two_turns() -> Value {
    json!({
        "name": "Two turns",
        "task": "What time is it in Paris?",
        "tools": ["get_time"],
        "model": {"type": "scripted", "responses": [
            {"thinking": "Paris: Europe/Paris.", "text": "Je regarde l'heure à Paris…",
             "tool_calls": [{"name": "get_time", "args": {"timezone": "Europe/Paris"}}]},
            {"text": "Il est 10 h 00 à Paris. 🙂", "usage": {"input_tokens": 120, "output_tokens": 9}}
        ]}
    })
}

fn text_of(response: &ModelResponse) -> String {
    harness::message::text_of(&response.content)
}

fn calls(response: &ModelResponse) -> Vec<ToolCall> {
    harness::message::tool_calls_of(&response.content)
        .cloned()
        .collect()
}

#[test]
fn a_tool_turn_then_a_final_answer_in_each_format() {
    let server = serve("two-turns", &two_turns());
    for provider in Provider::ALL {
        let mut history = vec![Message::user_text("What time is it in Paris?")];
        // A first request (no assistant message) starts the script over.
        let reply = post(
            server.port,
            path(provider),
            &body(provider, &history, false),
        );
        assert_eq!(
            reply.status,
            200,
            "{provider:?}: {}",
            String::from_utf8_lossy(&reply.body)
        );
        assert!(reply
            .header("content-type")
            .unwrap()
            .starts_with("application/json"));
        let first = provider.parse_response(&reply.json()).unwrap();
        assert_eq!(
            text_of(&first),
            "Je regarde l'heure à Paris…",
            "{provider:?}"
        );
        let calls = calls(&first);
        assert_eq!(calls.len(), 1, "{provider:?}");
        assert_eq!(calls[0].name, "get_time");
        assert_eq!(calls[0].input, json!({"timezone": "Europe/Paris"}));
        assert_eq!(calls[0].id, "toolu_0001");
        let expected_stop = match provider {
            Provider::Anthropic => "tool_use",
            Provider::OpenaiChat => "tool_calls",
            Provider::OpenaiResponses => "completed",
        };
        assert_eq!(first.stop_reason, expected_stop);

        history.push(Message {
            role: Role::Assistant,
            content: first.content.clone(),
        });
        history.push(Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult(ToolResult {
                tool_use_id: calls[0].id.clone(),
                content: "{\"time\": \"10:00\"}".into(),
                is_error: false,
                media: Vec::new(),
            })],
        });
        let reply = post(
            server.port,
            path(provider),
            &body(provider, &history, false),
        );
        assert_eq!(reply.status, 200, "{provider:?}");
        let second = provider.parse_response(&reply.json()).unwrap();
        assert_eq!(text_of(&second), "Il est 10 h 00 à Paris. 🙂");
        assert!(harness::message::tool_calls_of(&second.content)
            .next()
            .is_none());
        assert_eq!(second.usage.input_tokens, 120);
        assert_eq!(second.usage.output_tokens, 9);
        let expected_stop = match provider {
            Provider::Anthropic => "end_turn",
            Provider::OpenaiChat => "stop",
            Provider::OpenaiResponses => "completed",
        };
        assert_eq!(second.stop_reason, expected_stop);
    }
    // After the second response the script has run out for this conversation.
    let history = [
        Message::user_text("What time is it in Paris?"),
        Message {
            role: Role::Assistant,
            content: vec![ContentBlock::Text {
                text: "Il est 10 h.".into(),
            }],
        },
        Message::user_text("And now?"),
    ];
    let reply = post(
        server.port,
        "/v1/messages",
        &body(Provider::Anthropic, &history, false),
    );
    assert_eq!(reply.status, 500);
    let error = reply.json();
    assert_eq!(error["type"], "error");
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.contains("no response for request 3"), "{message}");
}

#[test]
fn a_streamed_turn_assembles_into_the_same_response() {
    let server = serve("stream", &two_turns());
    let history = vec![Message::user_text("What time is it in Paris?")];
    for provider in Provider::ALL {
        let whole = post(
            server.port,
            path(provider),
            &body(provider, &history, false),
        );
        let whole = provider.parse_response(&whole.json()).unwrap();
        // A new conversation again: the script starts over.
        let reply = post(server.port, path(provider), &body(provider, &history, true));
        assert_eq!(reply.status, 200, "{provider:?}");
        assert!(reply
            .header("content-type")
            .unwrap()
            .starts_with("text/event-stream"));
        // Small chunks: the multi-byte characters get cut in half.
        let mut assembler = provider.assembler();
        for chunk in reply.body.chunks(5) {
            assembler.push(chunk).unwrap();
        }
        let streamed = assembler.finish().unwrap();
        assert_eq!(streamed, whole, "{provider:?}");
        assert_eq!(calls(&streamed)[0].name, "get_time");
    }
}

#[test]
fn a_scripted_429_carries_retry_after_then_the_next_request_succeeds() {
    let scenario = json!({
        "name": "Rate limited",
        "task": "Hi",
        "model": {"type": "scripted", "responses": [
            {"error": {"status": 429, "retry_after_ms": 1500}},
            {"text": "Hello after the wait."}
        ]}
    });
    let server = serve("rate-limit", &scenario);
    let history = vec![Message::user_text("Hi")];
    for provider in [Provider::Anthropic, Provider::OpenaiChat] {
        assert_eq!(request(server.port, "POST", "/reset", &[], "").status, 200);
        let reply = post(
            server.port,
            path(provider),
            &body(provider, &history, false),
        );
        assert_eq!(reply.status, 429, "{provider:?}");
        assert_eq!(reply.header("retry-after"), Some("2"), "rounded up");
        assert_eq!(reply.header("retry-after-ms"), Some("1500"));
        let error = reply.json();
        match provider {
            Provider::Anthropic => {
                assert_eq!(error["type"], "error");
                assert_eq!(error["error"]["type"], "rate_limit_error");
                assert_eq!(
                    error["error"]["message"],
                    "number of requests has exceeded your rate limit"
                );
            }
            _ => {
                assert_eq!(error["error"]["code"], "rate_limit_exceeded");
                assert!(error["error"]["message"].is_string());
            }
        }
        assert!(provider.parse_response(&error).is_err());
        // The retry has no assistant message either, but it is a retry: it
        // gets the next response, not the 429 again.
        let reply = post(
            server.port,
            path(provider),
            &body(provider, &history, false),
        );
        assert_eq!(reply.status, 200, "{provider:?}");
        let response = provider.parse_response(&reply.json()).unwrap();
        assert_eq!(text_of(&response), "Hello after the wait.");
    }
}

#[test]
fn a_scripted_401_is_returned_as_scripted_and_keys_never_reach_the_log() {
    let scenario = json!({
        "name": "Bad key",
        "task": "Hi",
        "model": {"type": "scripted", "responses": [{"error": {"status": 401}}]}
    });
    let server = serve("unauthorised", &scenario);
    let history = vec![Message::user_text("Hi")];
    let body = body(Provider::Anthropic, &history, false).to_string();
    let reply = request(
        server.port,
        "POST",
        "/v1/messages",
        &[
            ("content-type", "application/json"),
            ("x-api-key", "sk-ant-secret-123"),
            ("authorization", "Bearer sk-secret-456"),
        ],
        &body,
    );
    assert_eq!(reply.status, 401);
    let error = reply.json();
    assert_eq!(error["error"]["type"], "authentication_error");
    assert_eq!(error["error"]["message"], "invalid x-api-key");
    assert_eq!(reply.header("retry-after"), None);
    // The log line is written before the answer goes out.
    let deadline = Instant::now() + Duration::from_secs(2);
    while !server.log.lock().unwrap().contains("POST /v1/messages 401") {
        assert!(Instant::now() < deadline, "{}", server.log.lock().unwrap());
        std::thread::sleep(Duration::from_millis(20));
    }
    let log = server.log.lock().unwrap().clone();
    assert!(log.contains("scripted response 1 of 1"), "{log}");
    assert!(!log.contains("secret"), "{log}");
}

#[test]
fn a_preflight_from_the_playground_is_allowed() {
    let server = serve("cors", &two_turns());
    let reply = request(
        server.port,
        "OPTIONS",
        "/v1/messages",
        &[
            ("origin", "http://127.0.0.1:8080"),
            ("access-control-request-method", "POST"),
            (
                "access-control-request-headers",
                "content-type, x-api-key, anthropic-version, x-stainless-os",
            ),
        ],
        "",
    );
    assert_eq!(reply.status, 204);
    assert_eq!(
        reply.header("access-control-allow-origin"),
        Some("http://127.0.0.1:8080")
    );
    assert!(reply
        .header("access-control-allow-methods")
        .unwrap()
        .contains("POST"));
    let allowed = reply.header("access-control-allow-headers").unwrap();
    for name in [
        "content-type",
        "authorization",
        "x-api-key",
        "anthropic-version",
        "anthropic-dangerous-direct-browser-access",
        "x-stainless-os",
    ] {
        assert!(allowed.contains(name), "{name} in {allowed}");
    }
    // The answer itself carries CORS headers too; other origins get `*`.
    let history = vec![Message::user_text("Hi")];
    let reply = request(
        server.port,
        "POST",
        "/v1/chat/completions",
        &[("origin", "https://example.com")],
        &body(Provider::OpenaiChat, &history, false).to_string(),
    );
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    assert!(reply
        .header("access-control-expose-headers")
        .unwrap()
        .contains("retry-after"));
}

#[test]
fn protocol_violations_and_bad_bodies_get_the_providers_400() {
    let server = serve("violations", &two_turns());
    let unanswered = json!({
        "model": "scripted-model",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "What time is it?"},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_abc", "name": "get_time", "input": {}}]},
            {"role": "user", "content": "Well?"}
        ]
    });
    let reply = post(server.port, "/v1/messages", &unanswered);
    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.json(),
        json!({"type": "error", "error": {"type": "invalid_request_error", "message":
            "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_abc. Each `tool_use` block must have a corresponding `tool_result` block in the next message."}})
    );

    let unanswered_chat = json!({
        "model": "scripted-model",
        "messages": [
            {"role": "user", "content": "What time is it?"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}]},
            {"role": "user", "content": "Well?"}
        ]
    });
    let reply = post(server.port, "/v1/chat/completions", &unanswered_chat);
    assert_eq!(reply.status, 400);
    let error = reply.json();
    assert_eq!(error["error"]["type"], "invalid_request_error");
    assert!(error["error"]["message"]
        .as_str()
        .unwrap()
        .ends_with("did not have response messages: call_1"));

    let reply = request(
        server.port,
        "POST",
        "/v1/responses",
        &[("content-type", "application/json")],
        "{not json",
    );
    assert_eq!(reply.status, 400);
    assert!(reply.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("not valid JSON"));

    let no_max_tokens = json!({"model": "m", "messages": [{"role": "user", "content": "Hi"}]});
    let reply = post(server.port, "/v1/messages", &no_max_tokens);
    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.json()["error"]["message"],
        "max_tokens: Field required"
    );

    let reply = post(server.port, "/v1/nothing", &json!({}));
    assert_eq!(reply.status, 404);
}

#[test]
fn a_scripted_delay_is_honoured() {
    let scenario = json!({
        "name": "Slow",
        "task": "Hi",
        "model": {"type": "scripted", "responses": [{"text": "Finally.", "delay_ms": 300}]}
    });
    let server = serve("slow", &scenario);
    let history = vec![Message::user_text("Hi")];
    let started = Instant::now();
    let reply = post(
        server.port,
        "/v1/responses",
        &body(Provider::OpenaiResponses, &history, true),
    );
    let elapsed = started.elapsed();
    assert_eq!(reply.status, 200);
    assert!(elapsed >= Duration::from_millis(300), "took {elapsed:?}");
    let mut assembler = Provider::OpenaiResponses.assembler();
    assembler.push(&reply.body).unwrap();
    assert_eq!(text_of(&assembler.finish().unwrap()), "Finally.");
}

#[test]
fn the_rules_model_answers_from_the_requests_history_and_tools() {
    let scenario = json!({
        "name": "Rules",
        "task": "What time is it?",
        "tools": ["get_time"],
        "model": {"type": "rules"}
    });
    let server = serve("rules", &scenario);
    let mut history = vec![Message::user_text("What time is it?")];
    let reply = post(
        server.port,
        "/v1/messages",
        &body(Provider::Anthropic, &history, false),
    );
    assert_eq!(reply.status, 200);
    let first = Provider::Anthropic.parse_response(&reply.json()).unwrap();
    let call = calls(&first).remove(0);
    assert_eq!(call.name, "get_time", "the request's tool");
    history.push(Message {
        role: Role::Assistant,
        content: first.content,
    });
    history.push(Message {
        role: Role::User,
        content: vec![ContentBlock::ToolResult(ToolResult {
            tool_use_id: call.id,
            content: "{\"utc\": \"2026-01-01T10:00:00Z\"}".into(),
            is_error: false,
            media: Vec::new(),
        })],
    });
    let reply = post(
        server.port,
        "/v1/messages",
        &body(Provider::Anthropic, &history, false),
    );
    let second = Provider::Anthropic.parse_response(&reply.json()).unwrap();
    assert_eq!(second.stop_reason, "end_turn");
    assert!(
        text_of(&second).contains("2026-01-01T10:00:00Z"),
        "{}",
        text_of(&second)
    );
}

#[test]
fn paced_streams_send_their_events_apart_and_still_assemble() {
    let server = serve_with("paced", &two_turns(), &["--pace-ms", "40"]);
    let history = vec![Message::user_text("What time is it in Paris?")];
    let started = Instant::now();
    let reply = post(
        server.port,
        "/v1/chat/completions",
        &body(Provider::OpenaiChat, &history, true),
    );
    let elapsed = started.elapsed();
    assert_eq!(reply.status, 200);
    let events = String::from_utf8_lossy(&reply.body)
        .matches("data: ")
        .count();
    assert!(events > 5, "{events} events");
    let least = Duration::from_millis(40 * (events as u64 - 1));
    assert!(elapsed >= least, "{events} events in {elapsed:?}");
    let mut assembler = Provider::OpenaiChat.assembler();
    assembler.push(&reply.body).unwrap();
    let response = assembler.finish().unwrap();
    assert_eq!(text_of(&response), "Je regarde l'heure à Paris…");
}

#[test]
fn a_body_past_32_mib_gets_the_providers_413_and_the_client_reads_it() {
    let server = serve("too-large", &two_turns());
    let body = format!("[\"{}\"]", "x".repeat(64 * 1024 * 1024));
    let reply = request(
        server.port,
        "POST",
        "/v1/chat/completions",
        &[("content-type", "application/json")],
        &body,
    );
    assert_eq!(reply.status, 413);
    assert_eq!(
        reply.json()["error"]["message"],
        "the request body is larger than 33554432 bytes"
    );
}

#[test]
fn the_rules_model_behind_serve_honours_the_requests_tool_choice() {
    let scenario = json!({
        "name": "Rules",
        "task": "What time is it?",
        "tools": ["get_time"],
        "model": {"type": "rules"}
    });
    let server = serve("rules", &scenario);
    let asked = |provider: Provider, choice: harness::tool_choice::ToolChoice| {
        let body = provider.request_body(&WireRequest {
            model: "scripted-model",
            system: "",
            messages: &[Message::user_text("What time is it?")],
            tools: &tools(),
            tool_choice: &choice,
            max_output_tokens: 1024,
            stream: false,
        });
        let reply = post(server.port, path(provider), &body);
        assert_eq!(reply.status, 200, "{provider:?}");
        provider.parse_response(&reply.json()).unwrap()
    };
    // "none" (Chat's word): the answer is words, though get_time is there.
    let none = asked(Provider::OpenaiChat, harness::tool_choice::ToolChoice::None);
    assert!(calls(&none).is_empty(), "{none:?}");
    assert!(
        text_of(&none).starts_with("Tools are off for this request"),
        "{}",
        text_of(&none)
    );
    // "required" (Responses' word for any) and Anthropic's named tool: a call.
    for (provider, choice) in [
        (
            Provider::OpenaiResponses,
            harness::tool_choice::ToolChoice::Any,
        ),
        (
            Provider::Anthropic,
            harness::tool_choice::ToolChoice::Tool("get_time".into()),
        ),
    ] {
        let forced = asked(provider, choice);
        assert_eq!(
            calls(&forced)
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>(),
            ["get_time"],
            "{provider:?}"
        );
    }
}

#[test]
fn get_v1_models_lists_the_scenarios_model_in_openais_shape() {
    let server = serve("models", &two_turns());
    let reply = request(
        server.port,
        "GET",
        "/v1/models",
        &[("origin", "http://localhost:4000")],
        "",
    );
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    assert_eq!(
        reply.header("access-control-allow-origin"),
        Some("http://localhost:4000")
    );
    let list = reply.json();
    assert_eq!(list["object"], "list");
    let models = list["data"].as_array().expect("a data array");
    assert_eq!(models.len(), 1, "{list}");
    assert_eq!(models[0]["id"], "two-turns");
    assert_eq!(models[0]["object"], "model");
    assert_eq!(models[0]["owned_by"], "agent-loop");
    assert!(
        models[0]["created"].as_u64().unwrap() > 1_600_000_000,
        "{list}"
    );
    // By name too, whatever the name: serve answers any model a request names.
    for id in ["two-turns", "gpt-4.1"] {
        let reply = request(server.port, "GET", &format!("/v1/models/{id}"), &[], "");
        assert_eq!(reply.status, 200);
        assert_eq!(reply.json()["id"], id);
        assert_eq!(reply.json()["object"], "model");
    }
}

#[test]
fn a_scripted_call_to_an_undeclared_tool_is_sent_with_a_warning_in_the_log() {
    let scenario = json!({
        "name": "Wrong tool",
        "task": "What time is it?",
        "model": {"type": "scripted", "responses": [
            {"tool_calls": [{"name": "get_weather", "args": {"city": "Paris"}}]}
        ]}
    });
    let server = serve("undeclared-tool", &scenario);
    let history = vec![Message::user_text("What time is it?")];
    let reply = post(
        server.port,
        "/v1/chat/completions",
        &body(Provider::OpenaiChat, &history, false),
    );
    // The script is the truth: the call is sent as scripted.
    assert_eq!(reply.status, 200);
    let response = Provider::OpenaiChat.parse_response(&reply.json()).unwrap();
    assert_eq!(calls(&response)[0].name, "get_weather");
    let deadline = Instant::now() + Duration::from_secs(2);
    while !server
        .log
        .lock()
        .unwrap()
        .contains("POST /v1/chat/completions 200")
    {
        assert!(Instant::now() < deadline, "{}", server.log.lock().unwrap());
        std::thread::sleep(Duration::from_millis(20));
    }
    let log = server.log.lock().unwrap().clone();
    let line = log
        .lines()
        .find(|l| l.starts_with("POST /v1/chat/completions 200"))
        .unwrap();
    assert!(
        line.ends_with(
            "warning: the script answers with tool \"get_weather\", which the request did not declare (it declared: get_time)"
        ),
        "{log}"
    );
}
