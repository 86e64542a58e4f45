//! Which API a body was written for, from the keys only one format has:
//! the cross-format decision for a request body (a response body's and a
//! stream's marks are each format's own, in its folder).

use serde_json::Value;

use super::body_error::BodyError;
use super::Provider;

/// Which API's request `body` is, and why; or why it is none. A body
/// says it by a key only one format has (Responses' `input`, Chat's
/// system or tool messages and function tools, Anthropic's top-level
/// `system`, its blocks and `input_schema`); one with none of them reads
/// the same in both message formats and is taken as Chat's.
pub fn request_body(body: &Value) -> Result<(Provider, String), BodyError> {
    let Some(object) = body.as_object() else {
        return Err(BodyError::NotAnObject);
    };
    if object.contains_key("input") && !object.contains_key("messages") {
        return Ok((
            Provider::OpenaiResponses,
            "it has \"input\" and no \"messages\"".to_string(),
        ));
    }
    let Some(messages) = object.get("messages").and_then(Value::as_array) else {
        return Err(BodyError::NoConversation);
    };
    let role_is = |roles: &[&str]| {
        messages.iter().any(|m| {
            m.get("role")
                .and_then(Value::as_str)
                .is_some_and(|r| roles.contains(&r))
        })
    };
    let block_is = |kinds: &[&str]| {
        messages.iter().any(|m| {
            m.get("content")
                .and_then(Value::as_array)
                .is_some_and(|blocks| {
                    blocks.iter().any(|b| {
                        b.get("type")
                            .and_then(Value::as_str)
                            .is_some_and(|t| kinds.contains(&t))
                    })
                })
        })
    };
    let tools = object.get("tools").and_then(Value::as_array);
    if role_is(&["system", "developer", "tool"])
        || messages.iter().any(|m| m.get("tool_calls").is_some())
    {
        return Ok((
            Provider::OpenaiChat,
            "it has a system, developer or tool message, or tool_calls".to_string(),
        ));
    }
    if tools.is_some_and(|t| t.iter().any(|t| t.get("function").is_some())) {
        return Ok((
            Provider::OpenaiChat,
            "its tools are {\"type\": \"function\", \"function\": …}".to_string(),
        ));
    }
    if object.contains_key("system") || block_is(&["tool_use", "tool_result", "thinking"]) {
        return Ok((
            Provider::Anthropic,
            "it has a top-level system, or tool_use, tool_result or thinking blocks".to_string(),
        ));
    }
    if tools.is_some_and(|t| t.iter().any(|t| t.get("input_schema").is_some())) {
        return Ok((
            Provider::Anthropic,
            "its tools have input_schema".to_string(),
        ));
    }
    Ok((
        Provider::OpenaiChat,
        "nothing in it is only Anthropic's; the body would read the same as Anthropic Messages"
            .to_string(),
    ))
}
