//! A provider's request body read, checked and measured, on a worker
//! thread: a body of tens of thousands of messages takes a while to parse
//! and check, and on the serving thread (where the scripted model lives)
//! every other connection would wait for it.

use bytes::Bytes;
use harness::message::{Message, Role};
use harness::wire::{check_body, encode, Provider, WireHistory};
use hyper::StatusCode;
use serde_json::{json, Value};

use super::Answer;

/// What the model needs from a request body.
pub struct Prepared {
    pub history: WireHistory,
    /// The request's `model`, echoed back.
    pub model_name: String,
    pub stream: bool,
    pub max_output_tokens: u32,
    /// Assistant turns already in the history.
    pub assistant_turns: usize,
    /// Characters of system text, messages and tools, for the token estimate.
    pub input_chars: usize,
}

/// `bytes` read as `provider`'s request body, off the serving thread; else
/// the provider's 400 saying what is wrong with it.
pub async fn prepare(provider: Provider, bytes: Bytes) -> Result<Prepared, Box<Answer>> {
    match tokio::task::spawn_blocking(move || read_body(provider, &bytes)).await {
        Ok(prepared) => prepared,
        Err(_) => Err(Box::new(bad(
            provider,
            "the request body could not be read",
        ))),
    }
}

fn bad(provider: Provider, message: &str) -> Answer {
    Answer::error(
        provider,
        StatusCode::BAD_REQUEST,
        message,
        "invalid request",
    )
}

fn read_body(provider: Provider, bytes: &[u8]) -> Result<Prepared, Box<Answer>> {
    let bad = |message: &str| Box::new(bad(provider, message));
    let body: Value = match serde_json::from_slice(bytes) {
        Ok(body @ Value::Object(_)) => body,
        Ok(_) => return Err(bad("the request body must be a JSON object")),
        Err(err) => return Err(bad(&format!("the request body is not valid JSON: {err}"))),
    };
    if let Some(message) = provider.missing_field(&body) {
        return Err(bad(message));
    }
    let history = provider
        .parse_request(&body)
        .map_err(|error| bad(&error.to_string()))?;
    if let Some(violation) = check_body(provider, &body).into_iter().next() {
        let mut answer = Answer::error(
            provider,
            StatusCode::BAD_REQUEST,
            &violation.message,
            "protocol violation",
        );
        if provider != Provider::Anthropic {
            // OpenAI names the offending parameter.
            let mut error = encode::error_body(provider, 400, &violation.message);
            error["error"]["param"] = json!(violation.path);
            answer.body = Bytes::from(error.to_string());
        }
        return Err(Box::new(answer));
    }
    let assistant_turns = history
        .messages
        .iter()
        .filter(|m| m.role == Role::Assistant)
        .count();
    let input_chars = history.system.len()
        + history
            .messages
            .iter()
            .map(Message::char_len)
            .sum::<usize>()
        + history
            .tools
            .iter()
            .map(|t| t.name.len() + t.description.len() + t.input_schema.to_string().len())
            .sum::<usize>();
    Ok(Prepared {
        model_name: body
            .get("model")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        stream: body.get("stream").and_then(Value::as_bool) == Some(true),
        max_output_tokens: provider
            .max_output_tokens(&body)
            .map_or(4096, |n| u32::try_from(n).unwrap_or(u32::MAX)),
        history,
        assistant_turns,
        input_chars,
    })
}
