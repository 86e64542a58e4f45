//! The few HTTP exchanges authorization needs (metadata documents, client
//! registration, the token endpoint), on the same client as the MCP
//! requests themselves.

use std::rc::Rc;

use futures::StreamExt;
use harness::mcp::transport::{HttpRequest, McpTransport};
use serde_json::Value;

/// A JSON document's answer: its status and the body read as JSON (or
/// `Value::Null` when it is not JSON).
pub struct Answer {
    pub status: u16,
    pub json: Value,
    pub text: String,
}

impl Answer {
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The authorization server's own words for a refusal (RFC 6749 §5.2),
    /// else the start of the body.
    pub fn refusal(&self) -> String {
        let code = self.json.get("error").and_then(Value::as_str);
        let description = self.json.get("error_description").and_then(Value::as_str);
        match (code, description) {
            (Some(code), Some(description)) => format!("{code} ({description})"),
            (Some(code), None) => code.to_string(),
            _ if self.text.trim().is_empty() => format!("HTTP {}", self.status),
            _ => format!(
                "HTTP {}: {}",
                self.status,
                harness::tool::clip(self.text.trim(), 200)
            ),
        }
    }
}

pub async fn get(transport: &Rc<dyn McpTransport>, url: &str) -> Result<Answer, String> {
    let request = HttpRequest {
        url: url.to_string(),
        headers: vec![("accept".into(), "application/json".into())],
        body: String::new(),
    };
    let response = transport.get(request).await?;
    read(response).await
}

/// POSTs `fields` as a form, or `json` when it is given.
pub async fn post(
    transport: &Rc<dyn McpTransport>,
    url: &str,
    body: Body,
    extra_headers: Vec<(String, String)>,
) -> Result<Answer, String> {
    let (content_type, text) = match body {
        Body::Form(fields) => {
            let mut form = form_urlencoded::Serializer::new(String::new());
            for (name, value) in &fields {
                form.append_pair(name, value);
            }
            ("application/x-www-form-urlencoded", form.finish())
        }
        Body::Json(value) => ("application/json", value.to_string()),
    };
    let mut headers = vec![
        ("content-type".to_string(), content_type.to_string()),
        ("accept".to_string(), "application/json".to_string()),
    ];
    headers.extend(extra_headers);
    let request = HttpRequest {
        url: url.to_string(),
        headers,
        body: text,
    };
    let response = transport.post(request).await?;
    read(response).await
}

pub enum Body {
    Form(Vec<(&'static str, String)>),
    Json(Value),
}

async fn read(mut response: harness::mcp::transport::HttpResponse) -> Result<Answer, String> {
    let mut bytes = Vec::new();
    while let Some(chunk) = response.body.next().await {
        bytes.extend(chunk?);
        // Metadata and token answers are small; a server that streams on
        // is not one of them.
        if bytes.len() > 1 << 20 {
            break;
        }
    }
    let text = String::from_utf8_lossy(&bytes).into_owned();
    Ok(Answer {
        status: response.status,
        json: serde_json::from_str(&text).unwrap_or(Value::Null),
        text,
    })
}
