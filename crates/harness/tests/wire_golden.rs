//! Golden tests against request and response examples from the providers'
//! own documentation (`fixtures/wire/`, sources in `SOURCES.md`).

use harness::message::{ContentBlock, Message, Role, ToolCall};
use harness::model::{ModelResponse, ToolSpec, Usage};
use harness::wire::{check, Provider, WireRequest};
use serde_json::{json, Value};

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/wire/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn fixture_json(name: &str) -> Value {
    serde_json::from_str(&fixture(name)).unwrap()
}

fn stream(provider: Provider, bytes: &[u8]) -> Result<ModelResponse, harness::model::ModelError> {
    let mut assembler = provider.assembler();
    assembler.push(bytes)?;
    assembler.finish()
}

fn call(id: &str, name: &str, input: Value) -> ContentBlock {
    ContentBlock::ToolUse(ToolCall {
        id: id.into(),
        name: name.into(),
        input,
        input_raw: None,
    })
}

fn text(text: &str) -> ContentBlock {
    ContentBlock::Text { text: text.into() }
}

#[test]
fn anthropic_tool_use_response_from_the_docs() {
    let response = Provider::Anthropic
        .parse_response(&fixture_json("anthropic_response_tool_use.json"))
        .unwrap();
    assert_eq!(
        response,
        ModelResponse {
            content: vec![
                text("I'll check the current weather in San Francisco for you."),
                call(
                    "toolu_01A09q90qw90lq917835lq9",
                    "get_weather",
                    json!({"location": "San Francisco, CA", "unit": "celsius"})
                ),
            ],
            stop_reason: "tool_use".into(),
            // The docs' example has no `usage`.
            usage: Usage::default(),
        }
    );
}

#[test]
fn anthropic_request_rebuilt_from_its_history_matches_the_docs() {
    let doc = fixture_json("anthropic_request_tool_result.json");
    let history = Provider::Anthropic.parse_request(&doc).unwrap();
    assert_eq!(history.messages.len(), 3);
    assert_eq!(history.messages[1].role, Role::Assistant);
    assert!(check(
        Provider::Anthropic,
        &history.system,
        &history.messages,
        &history.tools
    )
    .is_empty());

    let body = Provider::Anthropic.request_body(&WireRequest {
        model: "claude-sonnet-4-5",
        system: &history.system,
        messages: &history.messages,
        tools: &history.tools,
        tool_choice: &Default::default(),
        max_output_tokens: 1024,
        stream: false,
    });
    // The harness always sends content as blocks; the docs used the string
    // shorthand for the first user message. Everything else is identical.
    let mut expected = doc.clone();
    expected["messages"][0]["content"] =
        json!([{"type": "text", "text": "What is the weather like in San Francisco?"}]);
    assert_eq!(body, expected);
}

#[test]
fn anthropic_tool_use_stream_from_the_docs() {
    let response = stream(
        Provider::Anthropic,
        fixture("anthropic_stream_tool_use.txt").as_bytes(),
    )
    .unwrap();
    assert_eq!(
        response,
        ModelResponse {
            content: vec![
                text("Okay, let's check the weather for San Francisco, CA:"),
                call(
                    "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
                    "get_weather",
                    json!({"location": "San Francisco, CA", "unit": "fahrenheit"})
                ),
            ],
            stop_reason: "tool_use".into(),
            usage: Usage {
                input_tokens: 472,
                output_tokens: 89
            },
        }
    );
}

#[test]
fn anthropic_thinking_stream_is_kept_and_sent_back_unchanged() {
    let response = stream(
        Provider::Anthropic,
        fixture("anthropic_stream_thinking.txt").as_bytes(),
    )
    .unwrap();
    let thinking = "Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3\n3. 27 * 400 = 10,800\n4. 27 * 50 = 1,350\n5. 27 * 3 = 81\n6. 10,800 + 1,350 + 81 = 12,231";
    let signature = "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds...";
    assert_eq!(
        response.content,
        vec![
            ContentBlock::Thinking {
                thinking: thinking.into(),
                signature: Some(signature.into())
            },
            text("27 * 453 = 12,231"),
        ]
    );
    assert_eq!(response.stop_reason, "end_turn");

    // Seed 001: the whole assistant content goes back as it came.
    let messages = vec![
        Message::user_text("What is 27 * 453?"),
        Message {
            role: Role::Assistant,
            content: response.content,
        },
    ];
    let body = Provider::Anthropic.request_body(&WireRequest {
        model: "claude-opus-4-1-20250805",
        system: "",
        messages: &messages,
        tools: &[],
        tool_choice: &Default::default(),
        max_output_tokens: 20000,
        stream: true,
    });
    assert_eq!(
        body["messages"][1]["content"][0],
        json!({"type": "thinking", "thinking": thinking, "signature": signature})
    );
    assert_eq!(body["stream"], json!(true));
}

#[test]
fn openai_chat_tool_calls_response_from_the_docs() {
    let response = Provider::OpenaiChat
        .parse_response(&fixture_json("openai_chat_response_tool_calls.json"))
        .unwrap();
    assert_eq!(
        response,
        ModelResponse {
            // `content: null` is no text block, not an empty one.
            content: vec![call(
                "call_abc123",
                "get_current_weather",
                json!({"location": "Boston, MA"})
            )],
            stop_reason: "tool_calls".into(),
            usage: Usage {
                input_tokens: 82,
                output_tokens: 17
            },
        }
    );
}

#[test]
fn openai_chat_request_matches_the_docs_shape() {
    let doc = fixture_json("openai_chat_request_tools.json");
    let tools = vec![ToolSpec {
        name: "get_current_weather".into(),
        description: "Get the current weather in a given location".into(),
        input_schema: doc["tools"][0]["function"]["parameters"].clone(),
    }];
    let messages = vec![Message::user_text(
        "What is the weather like in Boston today?",
    )];
    let body = Provider::OpenaiChat.request_body(&WireRequest {
        model: "gpt-4.1",
        system: "",
        messages: &messages,
        tools: &tools,
        tool_choice: &Default::default(),
        max_output_tokens: 1024,
        stream: false,
    });
    assert_eq!(body["model"], doc["model"]);
    assert_eq!(body["messages"], doc["messages"]);
    assert_eq!(body["tools"], doc["tools"]);
    assert_eq!(body["max_completion_tokens"], json!(1024));
    // And the docs' body reads back as the same history.
    let history = Provider::OpenaiChat.parse_request(&doc).unwrap();
    assert_eq!(history.messages, messages);
    assert_eq!(history.tools, tools);
}

#[test]
fn openai_chat_tool_call_stream_from_the_docs() {
    let response = stream(
        Provider::OpenaiChat,
        fixture("openai_chat_stream_tool_call.txt").as_bytes(),
    )
    .unwrap();
    assert_eq!(
        response,
        ModelResponse {
            content: vec![call(
                "call_DdmO9pD3xa9XTPNJ32zg2hcA",
                "get_weather",
                json!({"location": "Paris, France"})
            )],
            stop_reason: "tool_calls".into(),
            usage: Usage::default(),
        }
    );
}

#[test]
fn openai_responses_parallel_function_calls_from_the_docs() {
    let output = fixture_json("openai_responses_output_function_calls.json");
    let response = Provider::OpenaiResponses
        .parse_response(&json!({"status": "completed", "output": output}))
        .unwrap();
    assert_eq!(
        response.content,
        vec![
            call(
                "call_12345xyz",
                "get_weather",
                json!({"location": "Paris, France"})
            ),
            call(
                "call_67890abc",
                "get_weather",
                json!({"location": "Bogotá, Colombia"})
            ),
            call(
                "call_99999def",
                "send_email",
                json!({"to": "bob@email.com", "body": "Hi bob"})
            ),
        ]
    );
    assert_eq!(response.stop_reason, "completed");

    // Sent back, each call becomes a function_call item with the same
    // call_id, name and arguments text, as the guide's input list shows.
    let messages = vec![
        Message::user_text("What's the weather like in Paris and Bogotá? Email Bob."),
        Message {
            role: Role::Assistant,
            content: response.content,
        },
    ];
    let body = Provider::OpenaiResponses.request_body(&WireRequest {
        model: "gpt-4.1",
        system: "",
        messages: &messages,
        tools: &[],
        tool_choice: &Default::default(),
        max_output_tokens: 1024,
        stream: false,
    });
    for (k, item) in output.as_array().unwrap().iter().enumerate() {
        let sent = &body["input"][k + 1];
        assert_eq!(sent["type"], "function_call");
        assert_eq!(sent["call_id"], item["call_id"]);
        assert_eq!(sent["name"], item["name"]);
        assert_eq!(sent["arguments"], item["arguments"]);
    }
}

#[test]
fn openai_responses_request_matches_the_docs_shape() {
    // The guide's get_weather definition, and its input list shapes.
    let doc_tool = json!({
        "type": "function",
        "name": "get_weather",
        "description": "Retrieves current weather for the given location.",
        "parameters": {
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "City and country e.g. Bogotá, Colombia"},
                "units": {"type": "string", "enum": ["celsius", "fahrenheit"],
                          "description": "Units the temperature will be returned in."}
            },
            "required": ["location", "units"],
            "additionalProperties": false
        },
        "strict": true
    });
    let tools = vec![ToolSpec {
        name: "get_weather".into(),
        description: "Retrieves current weather for the given location.".into(),
        input_schema: doc_tool["parameters"].clone(),
    }];
    let messages = vec![
        Message::user_text("What is my horoscope? I am an Aquarius."),
        Message {
            role: Role::Assistant,
            content: vec![call("call_1", "get_horoscope", json!({"sign": "Aquarius"}))],
        },
        Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult(harness::message::ToolResult {
                tool_use_id: "call_1".into(),
                content:
                    "{\"horoscope\": \"Aquarius: Next Tuesday you will befriend a baby otter.\"}"
                        .into(),
                is_error: false,
                media: Vec::new(),
            })],
        },
    ];
    let body = Provider::OpenaiResponses.request_body(&WireRequest {
        model: "gpt-5",
        system: "Respond only with a horoscope generated by a tool.",
        messages: &messages,
        tools: &tools,
        tool_choice: &Default::default(),
        max_output_tokens: 1024,
        stream: false,
    });
    let mut expected_tool = doc_tool.clone();
    expected_tool.as_object_mut().unwrap().remove("strict"); // the harness does not send strict mode
    assert_eq!(body["tools"], json!([expected_tool]));
    assert_eq!(
        body["instructions"],
        "Respond only with a horoscope generated by a tool."
    );
    assert_eq!(
        body["input"],
        json!([
            {"role": "user", "content": "What is my horoscope? I am an Aquarius."},
            {"type": "function_call", "call_id": "call_1", "name": "get_horoscope",
             "arguments": "{\"sign\":\"Aquarius\"}"},
            {"type": "function_call_output", "call_id": "call_1",
             "output": "{\"horoscope\": \"Aquarius: Next Tuesday you will befriend a baby otter.\"}"}
        ])
    );
}

const COMPLETED: &str = "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1234xyz\",\"status\":\"completed\",\"output\":[],\"usage\":{\"input_tokens\":0,\"output_tokens\":0}}}\n\n";

#[test]
fn openai_responses_function_call_stream_from_the_docs() {
    let doc = fixture("openai_responses_stream_function_call_doc.txt");
    // The guide's excerpt stops before response.completed: that is a
    // truncated stream, and the error says what had arrived.
    let error = stream(Provider::OpenaiResponses, doc.as_bytes()).unwrap_err();
    assert!(
        error.message.contains("before response.completed")
            && error
                .message
                .contains("function_call get_weather (call_2345abc)")
            && error.message.contains("7 argument fragments"),
        "{}",
        error.message
    );

    let full = format!("{doc}{COMPLETED}");
    let response = stream(Provider::OpenaiResponses, full.as_bytes()).unwrap();
    assert_eq!(
        response.content,
        // The finished item (`output_item.done`) is authoritative; the guide
        // itself changes the call_id between `added` and `done`.
        vec![call(
            "call_2345abc",
            "get_weather",
            json!({"location": "Paris, France"})
        )]
    );
    assert_eq!(response.stop_reason, "completed");
}
