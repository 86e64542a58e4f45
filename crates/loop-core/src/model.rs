//! What the loop needs from a model: one request in, one response (or error) out.
//!
//! `ModelClient` futures are not `Send`, so browser `fetch` futures fit. A request
//! borrows the run's history instead of copying it: a step costs the same at turn
//! 1,000 as at turn 1.

use futures::future::LocalBoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::message::{ContentBlock, Message};
use crate::tool_choice::ToolChoice;

/// A tool as the model sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
}

#[derive(Clone, Copy, Debug)]
pub struct ModelRequest<'a> {
    /// One-based index of the model call this request makes.
    pub turn: u32,
    pub system: &'a str,
    pub messages: &'a [Message],
    pub tools: &'a [ToolSpec],
    /// Whether the model may, must, or must not call a tool this turn.
    pub tool_choice: &'a ToolChoice,
    pub max_output_tokens: u32,
    /// The harness's estimate of this request's input tokens (see `Run`).
    pub estimated_input_tokens: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelResponse {
    pub content: Vec<ContentBlock>,
    /// The provider's own word (`end_turn`, `tool_calls`, `length`, ...), kept
    /// as sent so the trace shows it; `StopKind::classify` interprets it.
    pub stop_reason: String,
    pub usage: Usage,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl Usage {
    pub fn total(&self) -> u64 {
        // Saturating: a provider's counts are not ours to trust.
        self.input_tokens.saturating_add(self.output_tokens)
    }
}

/// What a provider's stop reason means for the loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopKind {
    /// A normal end of turn: the text is the final answer.
    EndTurn,
    /// The model wants tools run.
    ToolUse,
    /// Anthropic paused a long server-side turn: send the content back to continue.
    PauseTurn,
    /// Out of output tokens (`max_output_tokens`): the answer is truncated.
    MaxTokens,
    /// The request and its output no longer fit the model's context window
    /// (Anthropic's `model_context_window_exceeded`): a different limit from
    /// `MaxTokens`, lifted by making the history smaller, not the output cap larger.
    ContextWindowExceeded,
    /// The model refused, or a content filter stopped it.
    Refusal,
    /// A stop reason this harness does not know.
    Unknown,
}

/// Every stop reason the loop knows and what it means; any other word is
/// `StopKind::Unknown`. One table, so a scenario's note can list them all.
pub const STOP_REASONS: &[(&str, StopKind)] = &[
    ("end_turn", StopKind::EndTurn),
    ("stop", StopKind::EndTurn),
    ("stop_sequence", StopKind::EndTurn),
    ("completed", StopKind::EndTurn),
    ("tool_use", StopKind::ToolUse),
    ("tool_calls", StopKind::ToolUse),
    ("function_call", StopKind::ToolUse),
    // The OpenTelemetry GenAI conventions' word, which instrumentations
    // write in place of the provider's.
    ("tool_call", StopKind::ToolUse),
    ("pause_turn", StopKind::PauseTurn),
    ("max_tokens", StopKind::MaxTokens),
    ("length", StopKind::MaxTokens),
    ("max_output_tokens", StopKind::MaxTokens),
    (
        "model_context_window_exceeded",
        StopKind::ContextWindowExceeded,
    ),
    ("refusal", StopKind::Refusal),
    ("content_filter", StopKind::Refusal),
];

impl StopKind {
    pub fn classify(stop_reason: &str) -> StopKind {
        STOP_REASONS
            .iter()
            .find(|(word, _)| *word == stop_reason)
            .map_or(StopKind::Unknown, |(_, kind)| *kind)
    }
}

/// Prices per million tokens. Absent pricing costs nothing, so a budget never
/// fires: seed 000's adapter bug, reproducible on purpose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pricing {
    #[serde(default)]
    pub input_usd_per_mtok: f64,
    #[serde(default)]
    pub output_usd_per_mtok: f64,
}

impl Pricing {
    /// Never infinite or NaN, whatever the prices (see `finite_usd`).
    pub fn cost(&self, input_tokens: u64, output_tokens: u64) -> f64 {
        // No tokens cost nothing, even at an absurd price (inf × 0 is NaN).
        // Summed before dividing, as always: the recorded costs depend on it.
        let part = |tokens: u64, price: f64| {
            if tokens == 0 {
                0.0
            } else {
                tokens as f64 * price
            }
        };
        finite_usd(
            (part(input_tokens, self.input_usd_per_mtok)
                + part(output_tokens, self.output_usd_per_mtok))
                / 1_000_000.0,
        )
    }
}

/// The most a cost is counted as, in USD: a thousand times the worst run
/// that a valid scenario allows (`scenario::bounds`). Prices that entered
/// some other way (a provider's settings, a record) still cannot make a
/// cost infinite, which JSON cannot hold (serde_json writes `null`).
pub const COST_CEILING_USD: f64 = 1e16;

/// `amount` as a cost that JSON can hold: at most `COST_CEILING_USD`, never
/// negative; NaN (an undefined sum) counts as the ceiling, so a budget
/// still stops the run rather than never firing.
pub fn finite_usd(amount: f64) -> f64 {
    if amount.is_nan() {
        COST_CEILING_USD
    } else {
        amount.clamp(0.0, COST_CEILING_USD)
    }
}

/// Serializes a dollar amount through `finite_usd`, so a trace never says
/// `null` where a number belongs.
pub fn serialize_usd<S: serde::Serializer>(amount: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(finite_usd(*amount))
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelError {
    /// HTTP status when the provider answered with one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    pub kind: ModelErrorKind,
    pub message: String,
    /// The provider's `retry-after`, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelErrorKind {
    /// The provider answered with an HTTP error status.
    Http,
    /// The request did not finish within `model_timeout_ms`.
    Timeout,
    /// The request never reached the provider or the connection broke.
    Network,
    /// The provider answered with something that could not be parsed.
    InvalidResponse,
    /// A scripted model ran out of responses.
    ScriptExhausted,
}

impl ModelError {
    pub fn http(status: u16, message: impl Into<String>) -> Self {
        ModelError {
            status: Some(status),
            kind: ModelErrorKind::Http,
            message: message.into(),
            retry_after_ms: None,
        }
    }

    pub fn new(kind: ModelErrorKind, message: impl Into<String>) -> Self {
        ModelError {
            status: None,
            kind,
            message: message.into(),
            retry_after_ms: None,
        }
    }

    /// Rate limits, overload and server errors are worth retrying; auth errors,
    /// bad requests and quota exhaustion are not (retrying cannot fix them).
    pub fn is_retryable(&self) -> bool {
        match self.kind {
            // A 429 for an exhausted quota (OpenAI's `insufficient_quota`) looks
            // like a rate limit but waiting does not refill the account.
            ModelErrorKind::Http if self.is_quota_exhausted() => false,
            ModelErrorKind::Http => matches!(self.status, Some(429 | 500 | 502 | 503 | 529)),
            ModelErrorKind::Timeout | ModelErrorKind::Network => true,
            ModelErrorKind::InvalidResponse | ModelErrorKind::ScriptExhausted => false,
        }
    }
}

impl ModelError {
    fn is_quota_exhausted(&self) -> bool {
        let message = self.message.to_ascii_lowercase();
        message.contains("insufficient_quota") || message.contains("exceeded your current quota")
    }
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.status {
            Some(status) => write!(f, "HTTP {status}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

pub trait ModelClient {
    /// A short label for traces, e.g. "scripted" or "anthropic claude-…".
    fn label(&self) -> String;
    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>>;

    /// A person answered this turn in the model's place (step mode's
    /// "Answer as the model"), so `complete` was not called for it. A model
    /// that plays a list of answers moves past the one this turn would have
    /// had, so the next turn is the list's next, as a fork started after
    /// such a turn continues; a model that reads only the history, or a
    /// provider, has nothing to do.
    fn turn_answered_by_person(&self) {}
}

/// The harness's token estimate for text: about four characters a token.
/// Only used where the provider has not told us (pre-flight cost checks, and
/// scripted responses without `usage`).
pub fn estimate_tokens(chars: usize) -> u64 {
    (chars as u64).div_ceil(4).max(1)
}
