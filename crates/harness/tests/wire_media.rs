//! A tool result with media (an MCP tool's image, audio and PDF) as each wire
//! format sends it: the exact JSON of the result on the wire, what each
//! format tells the model in place of what it cannot carry, the checker's
//! verdict (every provider would accept it), and the round trip back.
//! A result without media stays a plain string in all three.

use harness::message::{ContentBlock, Media, Message, Role, ToolCall, ToolResult};
use harness::wire::{check, Provider, WireRequest};
use serde_json::{json, Value};

const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

fn history(media: Vec<Media>) -> Vec<Message> {
    vec![
        Message::user_text("Show me the chart."),
        Message {
            role: Role::Assistant,
            content: vec![ContentBlock::ToolUse(ToolCall {
                id: "toolu_1".into(),
                name: "chart".into(),
                input: json!({}),
                input_raw: None,
            })],
        },
        Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult(ToolResult {
                tool_use_id: "toolu_1".into(),
                content: "Here it is.\n[image: image/png, 70 bytes]".into(),
                is_error: false,
                media,
            })],
        },
    ]
}

fn all_media() -> Vec<Media> {
    vec![
        Media::Image {
            mime_type: "image/png".into(),
            data: PNG.into(),
        },
        Media::Audio {
            mime_type: "audio/wav".into(),
            data: "UklGRiQAAABXQVZF".into(),
        },
        Media::Resource {
            uri: "file:///reports/q3.pdf".into(),
            mime_type: "application/pdf".into(),
            data: "JVBERi0xLjQK".into(),
        },
    ]
}

fn body(provider: Provider, messages: &[Message]) -> Value {
    provider.request_body(&WireRequest {
        model: "m",
        system: "",
        messages,
        tools: &[],
        tool_choice: &Default::default(),
        max_output_tokens: 100,
        stream: false,
    })
}

/// The wire item that carries the result.
fn result_item(provider: Provider, body: &Value) -> Value {
    match provider {
        Provider::Anthropic => body["messages"][2]["content"][0].clone(),
        Provider::OpenaiChat => body["messages"][2].clone(),
        Provider::OpenaiResponses => body["input"][2].clone(),
    }
}

#[test]
fn anthropic_sends_the_image_and_the_pdf_as_blocks_and_says_the_audio_was_not_sent() {
    let messages = history(all_media());
    let body = body(Provider::Anthropic, &messages);
    assert_eq!(
        result_item(Provider::Anthropic, &body),
        json!({"type": "tool_result", "tool_use_id": "toolu_1", "content": [
            {"type": "text", "text": "Here it is.\n[image: image/png, 70 bytes]"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
            {"type": "text", "text": "[not sent to the model: the audio/wav audio, 12 bytes; Anthropic Messages takes no audio in a tool_result]"},
            {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0xLjQK"}}
        ]})
    );
    assert!(check(Provider::Anthropic, "", &messages, &[]).is_empty());
    // Read back: the text, the image and the document (the audio's line is text now).
    let back = Provider::Anthropic.parse_request(&body).unwrap();
    let ContentBlock::ToolResult(result) = &back.messages[2].content[0] else {
        panic!("{:?}", back.messages[2]);
    };
    assert_eq!(
        result.media,
        vec![
            all_media()[0].clone(),
            Media::Resource {
                uri: String::new(),
                mime_type: "application/pdf".into(),
                data: "JVBERi0xLjQK".into()
            }
        ]
    );
}

#[test]
fn chat_completions_carries_only_text_and_names_each_part_it_could_not_send() {
    let messages = history(all_media());
    let body = body(Provider::OpenaiChat, &messages);
    assert_eq!(
        result_item(Provider::OpenaiChat, &body),
        json!({"role": "tool", "tool_call_id": "toolu_1", "content": "Here it is.\n[image: image/png, 70 bytes]\n\
[not sent to the model: the image/png image, 70 bytes; a Chat Completions tool message carries only text]\n\
[not sent to the model: the audio/wav audio, 12 bytes; a Chat Completions tool message carries only text]\n\
[not sent to the model: the resource <file:///reports/q3.pdf>, application/pdf, 9 bytes; a Chat Completions tool message carries only text]"})
    );
    assert!(check(Provider::OpenaiChat, "", &messages, &[]).is_empty());
}

#[test]
fn responses_sends_input_image_and_input_file_and_says_the_audio_was_not_sent() {
    let messages = history(all_media());
    let body = body(Provider::OpenaiResponses, &messages);
    assert_eq!(
        result_item(Provider::OpenaiResponses, &body),
        json!({"type": "function_call_output", "call_id": "toolu_1", "output": [
            {"type": "input_text", "text": "Here it is.\n[image: image/png, 70 bytes]"},
            {"type": "input_image", "image_url": format!("data:image/png;base64,{PNG}")},
            {"type": "input_text", "text": "[not sent to the model: the audio/wav audio, 12 bytes; a function_call_output takes no audio]"},
            {"type": "input_file", "filename": "q3.pdf", "file_data": "data:application/pdf;base64,JVBERi0xLjQK"}
        ]})
    );
    assert!(check(Provider::OpenaiResponses, "", &messages, &[]).is_empty());
    let back = Provider::OpenaiResponses.parse_request(&body).unwrap();
    let ContentBlock::ToolResult(result) = &back.messages[2].content[0] else {
        panic!("{:?}", back.messages[2]);
    };
    assert_eq!(result.media[0], all_media()[0]);
    assert_eq!(result.media[1].mime_type(), "application/pdf");
}

#[test]
fn a_result_without_media_stays_a_string_everywhere() {
    let messages = history(Vec::new());
    for provider in [
        Provider::Anthropic,
        Provider::OpenaiChat,
        Provider::OpenaiResponses,
    ] {
        let item = result_item(provider, &body(provider, &messages));
        let text = item.get("content").or_else(|| item.get("output")).unwrap();
        assert_eq!(
            text,
            &json!("Here it is.\n[image: image/png, 70 bytes]"),
            "{provider:?}"
        );
    }
}
