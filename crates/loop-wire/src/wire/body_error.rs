//! Why a request body cannot be read as a conversation, as a value. The
//! `Display` is the sentence the page and the CLI show; the variants keep
//! where in the body it went wrong. The body's author fixes each.

use std::fmt;

use loop_core::quote::{quoted, write_plain};
use serde_json::Value;

#[derive(Clone, Debug, PartialEq)]
pub enum BodyError {
    /// The body is not a JSON object.
    NotAnObject,
    /// No key holds a conversation: neither `messages` nor `input`.
    NoConversation,
    /// A part of the body has another shape than its format's: where (as
    /// the format's own error paths name it, e.g. `messages.2.role`), and
    /// what was expected there.
    Shape { at: String, expected: String },
}

impl BodyError {
    pub(crate) fn shape(at: impl Into<String>, expected: impl Into<String>) -> BodyError {
        BodyError::Shape {
            at: at.into(),
            expected: expected.into(),
        }
    }
}

impl BodyError {
    /// A message whose role is missing, not text, or none of `roles` (the
    /// format's own, as its messages spell them), said in words with the
    /// role found quoted (escaped and cut, since it comes from the file).
    pub(crate) fn role(at: String, found: Option<&Value>, roles: &[&str]) -> BodyError {
        let listed = roles
            .iter()
            .map(|role| format!("\"{role}\""))
            .collect::<Vec<_>>()
            .join(", ");
        let what = match found {
            None => "the message has no role".to_string(),
            Some(Value::String(role)) => {
                format!("the role {} is not one of this format's", quoted(role))
            }
            Some(other) => format!("the role is {}, not text", json_kind(other)),
        };
        BodyError::shape(at, format!("{what}; a message's role is one of {listed}"))
    }
}

/// A JSON value's kind in words: "a number", "null".
fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl fmt::Display for BodyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_plain(f, |f| self.words(f))
    }
}

impl BodyError {
    /// The sentence, before [`write_plain`] escapes and bounds what it
    /// quotes from the file.
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BodyError::NotAnObject => f.write_str("a request body is a JSON object"),
            BodyError::NoConversation => f.write_str(
                "neither \"messages\" (Anthropic Messages, OpenAI Chat Completions) nor \"input\" (OpenAI Responses) is there",
            ),
            BodyError::Shape { at, expected } => write!(f, "{at}: {expected}"),
        }
    }
}

impl std::error::Error for BodyError {}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::BodyError;
    use crate::wire::Provider;

    #[test]
    fn each_error_keeps_where_and_reads_as_a_sentence() {
        let error = Provider::Anthropic
            .parse_request(&json!({"messages": [{"role": "system", "content": "hi"}]}))
            .unwrap_err();
        assert_eq!(
            error,
            BodyError::Shape {
                at: "messages.0.role".into(),
                expected: "the role \"system\" is not one of this format's; a message's role is one of \"user\", \"assistant\"".into()
            }
        );
        // Chat Completions names its paths with brackets, as its API does.
        let error = Provider::OpenaiChat
            .parse_request(&json!({"messages": [{"role": "robot"}]}))
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "messages[0].role: the role \"robot\" is not one of this format's; a message's role is one of \"system\", \"developer\", \"user\", \"assistant\", \"tool\""
        );
        // A missing role, or one that is not text, is said in words; a
        // role from the file is quoted with its control characters escaped.
        let said = |body| {
            Provider::OpenaiChat
                .parse_request(&body)
                .unwrap_err()
                .to_string()
        };
        assert!(said(json!({"messages": [{"content": "x"}]}))
            .starts_with("messages[0].role: the message has no role; "));
        assert!(said(json!({"messages": [{"role": 5}]}))
            .starts_with("messages[0].role: the role is a number, not text; "));
        assert!(said(json!({"messages": [{"role": "\u{1b}[31m"}]}))
            .starts_with("messages[0].role: the role \"\\u001b[31m\" is not"));
        assert_eq!(
            Provider::of_request_body(&json!([1])).unwrap_err(),
            BodyError::NotAnObject
        );
        assert_eq!(
            Provider::of_request_body(&json!({"model": "m"})).unwrap_err(),
            BodyError::NoConversation
        );
    }
}
