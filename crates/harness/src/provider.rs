//! Real providers over HTTP: a `ModelClient` that speaks Anthropic Messages,
//! OpenAI Chat Completions or OpenAI Responses through a small `Transport`
//! trait, so the same adapter runs on the browser's `fetch` (in the app) and
//! on a native HTTP client (tests against `agent-loop serve`).
//!
//! Invariants:
//! - The API key goes only into the request headers. It is never part of a
//!   trace, an error message, a label or a `Debug` rendering (`ApiKey` prints
//!   as `ApiKey(…)`).
//! - Every HTTP failure becomes a `ModelError` with the provider's own
//!   message and what to do about it; `retry-after` is honoured by the run's
//!   retry policy. A body that cannot be parsed, or a stream that breaks off,
//!   is a `model_error` naming what was received.

use futures::future::LocalBoxFuture;
use futures::stream::LocalBoxStream;
use futures::StreamExt;
use serde::{Deserialize, Serialize};

use crate::model::{ModelClient, ModelError, ModelErrorKind, ModelRequest, ModelResponse};
use crate::wire::{Provider, WireRequest};

/// An API key. Kept out of every rendering but the request headers.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        ApiKey(key.into())
    }

    pub fn is_empty(&self) -> bool {
        self.0.trim().is_empty()
    }

    /// The key itself, for the one place that needs it: the request headers.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiKey(…)")
    }
}

/// Which API, where, which model. The key is separate: settings may be saved
/// or shared, the key only when the user opts in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProviderSettings {
    pub provider: Provider,
    /// e.g. `https://api.anthropic.com`, or a local OpenAI-compatible server.
    pub base_url: String,
    pub model: String,
    #[serde(default = "default_stream")]
    pub stream: bool,
}

fn default_stream() -> bool {
    true
}

impl ProviderSettings {
    /// The provider's public endpoint.
    pub fn default_base_url(provider: Provider) -> &'static str {
        match provider {
            Provider::Anthropic => "https://api.anthropic.com",
            Provider::OpenaiChat | Provider::OpenaiResponses => "https://api.openai.com",
        }
    }

    pub fn endpoint(&self) -> String {
        let path = match self.provider {
            Provider::Anthropic => "/v1/messages",
            Provider::OpenaiChat => "/v1/chat/completions",
            Provider::OpenaiResponses => "/v1/responses",
        };
        let base = self.base_url.trim_end_matches('/');
        // Accept a base URL given with or without its `/v1`.
        let base = base.strip_suffix("/v1").unwrap_or(base);
        format!("{base}{path}")
    }
}

pub struct HttpRequest {
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

pub struct HttpResponse {
    pub status: u16,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body as it arrives, chunk by chunk.
    pub body: LocalBoxStream<'static, Result<Vec<u8>, String>>,
}

impl HttpResponse {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Sends one HTTP request. Dropping the future aborts it, which is how Stop
/// and the deadline cancel an in-flight request.
pub trait Transport {
    fn send(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, String>>;
}

/// A model behind an HTTP API.
pub struct HttpModel<T: Transport> {
    pub settings: ProviderSettings,
    api_key: ApiKey,
    transport: T,
}

impl<T: Transport> HttpModel<T> {
    pub fn new(settings: ProviderSettings, api_key: ApiKey, transport: T) -> Self {
        HttpModel {
            settings,
            api_key,
            transport,
        }
    }

    fn headers(&self) -> Vec<(String, String)> {
        let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
        match self.settings.provider {
            Provider::Anthropic => {
                headers.push(("anthropic-version".into(), "2023-06-01".into()));
                // Anthropic refuses calls from a browser page without it.
                headers.push((
                    "anthropic-dangerous-direct-browser-access".into(),
                    "true".into(),
                ));
                if !self.api_key.is_empty() {
                    headers.push(("x-api-key".into(), self.api_key.expose().to_string()));
                }
            }
            Provider::OpenaiChat | Provider::OpenaiResponses => {
                if !self.api_key.is_empty() {
                    headers.push((
                        "authorization".into(),
                        format!("Bearer {}", self.api_key.expose()),
                    ));
                }
            }
        }
        headers
    }

    async fn call(&self, request: ModelRequest<'_>) -> Result<ModelResponse, ModelError> {
        let settings = &self.settings;
        let wire = WireRequest::from_model_request(&settings.model, &request, settings.stream);
        let body = settings.provider.request_body(&wire);
        let url = settings.endpoint();
        let http = HttpRequest {
            url: url.clone(),
            headers: self.headers(),
            body: body.to_string(),
        };
        let mut response = self.transport.send(http).await.map_err(|e| {
            ModelError::new(
                ModelErrorKind::Network,
                format!(
                    "could not reach {url}: {e}. Check the base URL; in a browser this is often CORS: the server must allow this page's origin"
                ),
            )
        })?;
        if !(200..300).contains(&response.status) {
            let text = read_all(&mut response).await.unwrap_or_default();
            return Err(http_error(settings, &response, &text));
        }
        if settings.stream {
            let mut assembler = settings.provider.assembler();
            while let Some(chunk) = response.body.next().await {
                let chunk = chunk.map_err(|e| {
                    ModelError::new(
                        ModelErrorKind::Network,
                        format!("the stream broke off: {e}"),
                    )
                })?;
                assembler.push(&chunk)?;
            }
            assembler.finish()
        } else {
            let text = read_all(&mut response).await.map_err(|e| {
                ModelError::new(
                    ModelErrorKind::Network,
                    format!("the response broke off: {e}"),
                )
            })?;
            let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
                ModelError::new(
                    ModelErrorKind::InvalidResponse,
                    format!(
                        "the response is not JSON ({e}): {}",
                        crate::tool::clip(&text, 200)
                    ),
                )
            })?;
            settings.provider.parse_response(&value)
        }
    }
}

impl<T: Transport> ModelClient for HttpModel<T> {
    fn label(&self) -> String {
        format!("{} {}", self.settings.provider.label(), self.settings.model)
    }

    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> {
        Box::pin(self.call(request))
    }
}

async fn read_all(response: &mut HttpResponse) -> Result<String, String> {
    let mut bytes = Vec::new();
    while let Some(chunk) = response.body.next().await {
        bytes.extend_from_slice(&chunk?);
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// An HTTP error as the user should read it: the provider's own message and
/// what to do about it.
fn http_error(settings: &ProviderSettings, response: &HttpResponse, body: &str) -> ModelError {
    let status = response.status;
    let provider_message = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| {
            let error = v.get("error")?;
            let message = error.get("message").and_then(|m| m.as_str())?;
            let kind = error
                .get("type")
                .or_else(|| error.get("code"))
                .and_then(|k| k.as_str());
            Some(match kind {
                Some(kind) => format!("{kind}: {message}"),
                None => message.to_string(),
            })
        })
        .unwrap_or_else(|| crate::tool::clip(body.trim(), 200));
    let advice = match status {
        401 => "the API key was refused: check it in the model settings".to_string(),
        403 => "the key may not use this model or endpoint".to_string(),
        404 => format!(
            "check the model name ({}) and the base URL ({})",
            settings.model, settings.base_url
        ),
        400 | 422 => {
            "the provider rejected the request; the protocol checker may say why".to_string()
        }
        429 => "rate limited: the run waits and retries".to_string(),
        500..=599 => "the provider failed or is overloaded: the run waits and retries".to_string(),
        _ => String::new(),
    };
    let message = if advice.is_empty() {
        provider_message
    } else {
        format!("{provider_message} ({advice})")
    };
    let retry_after_ms = response
        .header("retry-after-ms")
        .and_then(|v| v.trim().parse::<f64>().ok())
        .or_else(|| {
            response
                .header("retry-after")
                .and_then(|v| v.trim().parse::<f64>().ok())
                .map(|s| s * 1000.0)
        })
        .map(|ms| ms.max(0.0) as u64);
    ModelError {
        status: Some(status),
        kind: ModelErrorKind::Http,
        message,
        retry_after_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_never_render_and_endpoints_accept_v1_or_not() {
        let key = ApiKey::new("sk-secret-123");
        assert_eq!(format!("{key:?}"), "ApiKey(…)");
        let settings = ProviderSettings {
            provider: Provider::OpenaiChat,
            base_url: "http://127.0.0.1:8787/v1/".into(),
            model: "m".into(),
            stream: true,
        };
        assert_eq!(
            settings.endpoint(),
            "http://127.0.0.1:8787/v1/chat/completions"
        );
        let model = HttpModel::new(settings, key, NoTransport);
        assert!(!model.label().contains("secret"));
    }

    struct NoTransport;

    impl Transport for NoTransport {
        fn send(&self, _request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, String>> {
            Box::pin(async { Err("offline".to_string()) })
        }
    }
}
