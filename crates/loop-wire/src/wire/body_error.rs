//! Why a request body cannot be read as a conversation, as a value. The
//! `Display` is the sentence the page and the CLI show; the variants keep
//! where in the body it went wrong. The body's author fixes each.

use std::fmt;

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

impl fmt::Display for BodyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
                expected: "unexpected Some(\"system\")".into()
            }
        );
        assert_eq!(
            error.to_string(),
            "messages.0.role: unexpected Some(\"system\")"
        );
        // Chat Completions names its paths with brackets, as its API does.
        let error = Provider::OpenaiChat
            .parse_request(&json!({"messages": [{"role": "robot"}]}))
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "messages[0].role: unexpected Some(\"robot\")"
        );
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
