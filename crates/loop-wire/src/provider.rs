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

use crate::model::{ModelClient, ModelError, ModelErrorKind, ModelRequest, ModelResponse, Pricing};
use crate::scenario::Scenario;
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
    /// The provider's public endpoint ([`Provider::default_base_url`]).
    pub fn default_base_url(provider: Provider) -> &'static str {
        provider.default_base_url()
    }

    pub fn endpoint(&self) -> String {
        let base = self.base_url.trim_end_matches('/');
        // Accept a base URL given with or without its `/v1`.
        let base = base.strip_suffix("/v1").unwrap_or(base);
        format!("{base}{}", self.provider.path())
    }
}

/// The hosts of the official APIs, which refuse every call without a key.
pub const OFFICIAL_HOSTS: [&str; 2] = [crate::wire::anthropic::HOST, crate::wire::openai::HOST];

/// A base URL taken apart as far as the settings need: where requests go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseUrl {
    /// `http` or `https`.
    pub scheme: String,
    /// Lower case, without brackets for IPv6.
    pub host: String,
    pub port: Option<u16>,
}

impl BaseUrl {
    /// `scheme://host[:port]`, as a browser's origin reads.
    pub fn origin(&self) -> String {
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        match self.port {
            Some(port) => format!("{}://{host}:{port}", self.scheme),
            None => format!("{}://{host}", self.scheme),
        }
    }
}

/// What is wrong with a URL typed as a base URL or an endpoint. `Display`
/// says it without naming the field, so each place prefixes its own
/// ("Base URL: …", "the endpoint is not a URL: …").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UrlProblem {
    Empty,
    /// No `scheme://`: the text as typed.
    NotAUrl(String),
    /// A scheme other than http or https.
    Scheme(String),
    Spaces,
    /// `user:key@` in the URL.
    Credentials,
    /// An IPv6 literal that does not close.
    NotAHost(String),
    /// Nothing between `://` and the path: the text as typed.
    NoHost(String),
    NotAPort(String),
}

impl std::fmt::Display for UrlProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UrlProblem::Empty => {
                f.write_str("enter the API's address, e.g. https://api.openai.com")
            }
            UrlProblem::NotAUrl(text) => write!(
                f,
                "\"{text}\" is not a URL; it must start with http:// or https://"
            ),
            UrlProblem::Scheme(scheme) => {
                write!(f, "{scheme}:// is not supported; use http:// or https://")
            }
            UrlProblem::Spaces => f.write_str("a URL cannot contain spaces"),
            UrlProblem::Credentials => {
                f.write_str("put the key in the API key field, not in the URL")
            }
            UrlProblem::NotAHost(authority) => write!(f, "\"{authority}\" is not a host"),
            UrlProblem::NoHost(text) => write!(f, "\"{text}\" has no host name"),
            UrlProblem::NotAPort(port) => write!(f, "\"{port}\" is not a port number"),
        }
    }
}

impl std::error::Error for UrlProblem {}

/// Reads a base URL, or says what is wrong with it.
pub fn parse_base_url(text: &str) -> Result<BaseUrl, UrlProblem> {
    let text = text.trim();
    if text.is_empty() {
        return Err(UrlProblem::Empty);
    }
    let Some((scheme, rest)) = text.split_once("://") else {
        return Err(UrlProblem::NotAUrl(text.to_string()));
    };
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Err(UrlProblem::Scheme(scheme));
    }
    if text.chars().any(char::is_whitespace) {
        return Err(UrlProblem::Spaces);
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.contains('@') {
        return Err(UrlProblem::Credentials);
    }
    let (host, port) = match authority.strip_prefix('[') {
        // An IPv6 literal: `[::1]:8080`.
        Some(v6) => match v6.split_once(']') {
            Some((host, tail)) => (host, tail.strip_prefix(':')),
            None => return Err(UrlProblem::NotAHost(authority.to_string())),
        },
        None => match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        },
    };
    if host.is_empty() {
        return Err(UrlProblem::NoHost(text.to_string()));
    }
    let port = match port {
        None | Some("") => None,
        Some(port) => Some(
            port.parse::<u16>()
                .map_err(|_| UrlProblem::NotAPort(port.to_string()))?,
        ),
    };
    Ok(BaseUrl {
        scheme,
        host: host.to_ascii_lowercase(),
        port,
    })
}

/// Which Model settings field a problem belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingField {
    BaseUrl,
    Model,
    Key,
    MaxOutputTokens,
    InputPrice,
    OutputPrice,
}

impl SettingField {
    /// Every field, in the order the Model settings form shows them.
    pub const IN_FORM_ORDER: [SettingField; 6] = [
        SettingField::BaseUrl,
        SettingField::Model,
        SettingField::Key,
        SettingField::MaxOutputTokens,
        SettingField::InputPrice,
        SettingField::OutputPrice,
    ];
}

/// Why these settings cannot run, per field: a base URL that is not
/// http(s), no model name, or no key for an official API (which would only
/// answer 401).
pub fn check_settings(settings: &ProviderSettings, key: &ApiKey) -> Vec<(SettingField, String)> {
    let mut problems = Vec::new();
    match parse_base_url(&settings.base_url) {
        Ok(url) => {
            if key.is_empty() && OFFICIAL_HOSTS.contains(&url.host.as_str()) {
                problems.push((
                    SettingField::Key,
                    format!("API key: {} needs a key; paste yours", url.host),
                ));
            }
        }
        Err(problem) => problems.push((SettingField::BaseUrl, format!("Base URL: {problem}"))),
    }
    if settings.model.trim().is_empty() {
        problems.push((
            SettingField::Model,
            "Model: enter the model's name, e.g. claude-sonnet-4-20250514 or gpt-4o".into(),
        ));
    }
    problems
}

/// The output cap the user typed. Empty means the scenario's own
/// `limits.max_output_tokens`.
pub fn parse_max_output_tokens(text: &str) -> Result<Option<u32>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    match text.replace('_', "").parse::<u32>() {
        Ok(0) => Err("Max output tokens: must be at least 1".into()),
        Ok(n) => Ok(Some(n)),
        Err(_) if text.starts_with('-') => {
            Err(format!("Max output tokens: cannot be negative ({text})"))
        }
        Err(_) => Err(format!(
            "Max output tokens: \"{text}\" is not a whole number of tokens, e.g. 1024"
        )),
    }
}

/// Everything a provider run takes from the Model settings: where to send
/// requests, the key, the output cap the requests carry, and the price its
/// cost is counted at.
#[derive(Clone, Debug, PartialEq)]
pub struct ProviderRun {
    pub settings: ProviderSettings,
    pub key: ApiKey,
    /// `None`: the scenario's `limits.max_output_tokens`.
    pub max_output_tokens: Option<u32>,
    pub pricing: Pricing,
}

impl ProviderRun {
    /// The scenario as this provider runs it: requests carry the settings'
    /// output cap, and the cost counter, the cost budget and the strict cost
    /// estimate use the settings' price, not the scenario's `pricing` (which
    /// describes its scripted model).
    pub fn apply(&self, mut scenario: Scenario) -> Scenario {
        if let Some(max) = self.max_output_tokens {
            scenario.limits.max_output_tokens = max;
        }
        scenario.pricing = self.pricing;
        scenario
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

    /// What to check when a server cannot be reached, after "could not
    /// reach URL: why.": each transport knows its own usual causes (a
    /// browser's is CORS, which a native client never meets).
    fn unreachable_advice(&self) -> &'static str {
        "Check the base URL, and that the server is running and reachable from here"
    }
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
        let key = (!self.api_key.is_empty()).then(|| self.api_key.expose());
        headers.extend(self.settings.provider.headers(key));
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
                    "could not reach {url}: {e}. {}",
                    self.transport.unreachable_advice()
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
        // The inspector reads the format and the streaming back from it.
        let streamed = if self.settings.stream {
            " (streamed)"
        } else {
            ""
        };
        format!(
            "{}{streamed} {}",
            self.settings.provider.label(),
            self.settings.model
        )
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

    fn settings(base_url: &str, model: &str) -> ProviderSettings {
        ProviderSettings {
            provider: Provider::Anthropic,
            base_url: base_url.into(),
            model: model.into(),
            stream: true,
        }
    }

    #[test]
    fn base_urls_must_be_http_and_their_origin_is_what_a_browser_sees() {
        let url = parse_base_url(" HTTP://LocalHost:8787/v1 ").unwrap();
        assert_eq!(url.origin(), "http://localhost:8787");
        assert_eq!(
            parse_base_url("https://api.anthropic.com")
                .unwrap()
                .origin(),
            "https://api.anthropic.com"
        );
        assert_eq!(
            parse_base_url("http://[::1]:9/").unwrap().origin(),
            "http://[::1]:9"
        );
        for (bad, says) in [
            ("", "enter the API's address"),
            ("api.openai.com", "must start with http:// or https://"),
            ("ftp://example.com", "ftp:// is not supported"),
            ("https://", "has no host name"),
            ("http://localhost:80a", "\"80a\" is not a port number"),
            ("http://local host", "cannot contain spaces"),
            ("https://user:sk-1@api.openai.com", "not in the URL"),
        ] {
            let error = parse_base_url(bad).unwrap_err().to_string();
            assert!(error.contains(says), "{bad}: {error}");
        }
    }

    #[test]
    fn settings_need_a_model_an_http_url_and_a_key_for_the_official_apis() {
        let no_key = ApiKey::new("  ");
        let fine = settings("http://127.0.0.1:8787", "scripted");
        assert_eq!(check_settings(&fine, &no_key), vec![]);
        let official = settings("https://api.anthropic.com", "claude-sonnet-4-0");
        assert_eq!(
            check_settings(&official, &no_key),
            vec![(
                SettingField::Key,
                "API key: api.anthropic.com needs a key; paste yours".to_string()
            )]
        );
        assert_eq!(check_settings(&official, &ApiKey::new("sk-1")), vec![]);
        let fields: Vec<SettingField> = check_settings(&settings("localhost:1", " "), &no_key)
            .into_iter()
            .map(|(field, _)| field)
            .collect();
        assert_eq!(fields, vec![SettingField::BaseUrl, SettingField::Model]);
    }

    #[test]
    fn max_output_tokens_is_a_positive_whole_number_or_the_scenarios() {
        assert_eq!(parse_max_output_tokens(""), Ok(None));
        assert_eq!(parse_max_output_tokens(" 4096 "), Ok(Some(4096)));
        assert_eq!(
            parse_max_output_tokens("0"),
            Err("Max output tokens: must be at least 1".to_string())
        );
        assert_eq!(
            parse_max_output_tokens("-5"),
            Err("Max output tokens: cannot be negative (-5)".to_string())
        );
        assert!(parse_max_output_tokens("1.5")
            .unwrap_err()
            .contains("is not a whole number"));
    }

    #[test]
    fn a_provider_run_is_costed_at_its_own_price_and_sends_its_own_cap() {
        let json = crate::library::find("refund-with-approval").unwrap().json();
        let scenario = Scenario::load(json).unwrap();
        assert_ne!(scenario.limits.max_output_tokens, 300);
        let run = ProviderRun {
            settings: settings("http://127.0.0.1:1", "m"),
            key: ApiKey::default(),
            max_output_tokens: Some(300),
            pricing: Pricing {
                input_usd_per_mtok: 3.0,
                output_usd_per_mtok: 15.0,
            },
        };
        let applied = run.apply(scenario.clone());
        assert_eq!(applied.limits.max_output_tokens, 300);
        assert_eq!(applied.pricing, run.pricing);
        // No cap typed: the scenario's own stays.
        let uncapped = ProviderRun {
            max_output_tokens: None,
            ..run
        }
        .apply(scenario.clone());
        assert_eq!(
            uncapped.limits.max_output_tokens,
            scenario.limits.max_output_tokens
        );
    }

    struct NoTransport;

    impl Transport for NoTransport {
        fn send(&self, _request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, String>> {
            Box::pin(async { Err("offline".to_string()) })
        }
    }
}
