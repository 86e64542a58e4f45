//! What OpenAI's two formats, Chat Completions (`openai_chat/`) and
//! Responses (`openai_responses/`), share: one platform, so one host, one
//! way to send the key, and one error body.

use serde_json::{json, Value};

/// The official API's host, which refuses every call without a key.
pub const HOST: &str = "api.openai.com";
/// The official API's base URL.
pub const BASE_URL: &str = "https://api.openai.com";

/// A tool the client runs (a function tool, the only kind without a
/// `type` or with `"type": "function"`), not one the provider runs.
pub fn is_client_tool(tool: &Value) -> bool {
    tool.get("type")
        .and_then(Value::as_str)
        .is_none_or(|t| t == "function")
}

/// The field both APIs refuse `body` without (HTTP 400), in their own
/// words; `None` when `model` is there.
pub fn missing_field(body: &Value) -> Option<&'static str> {
    body.get("model")
        .and_then(Value::as_str)
        .is_none()
        .then_some("you must provide a model parameter")
}

/// The headers a request carries besides `content-type`: only the key, as a
/// bearer token, when there is one.
pub fn headers(key: Option<&str>) -> Vec<(String, String)> {
    match key {
        Some(key) => vec![("authorization".into(), format!("Bearer {key}"))],
        None => Vec::new(),
    }
}

/// The error body for an HTTP `status` (both APIs):
/// `{"error":{"message","type","param","code"}}`.
pub(crate) fn error_body(status: u16, message: &str) -> Value {
    let (kind, code) = error_type(status);
    json!({"error": {"message": message, "type": kind, "param": null, "code": code}})
}

/// OpenAI's `error.type` and `error.code` for a status.
pub fn error_type(status: u16) -> (&'static str, Value) {
    match status {
        401 => ("invalid_request_error", json!("invalid_api_key")),
        403 => (
            "invalid_request_error",
            json!("unsupported_country_region_territory"),
        ),
        404 => ("invalid_request_error", json!("model_not_found")),
        429 => ("requests", json!("rate_limit_exceeded")),
        400..=499 => ("invalid_request_error", Value::Null),
        _ => ("server_error", Value::Null),
    }
}
