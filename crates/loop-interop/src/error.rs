//! The interop layer's errors as values: why a provider's request or
//! response, or an OpenTelemetry trace, cannot be read as a run. Each
//! `Display` is the sentence the page and the CLI show; `fixed_by` says
//! whether the file is wrong or the order it was brought in.

use std::fmt;

use crate::provider::UrlProblem;
use crate::scenario::Problem;
use crate::wire::BodyError;

use loop_core::error::joined;
/// Who can put an error right: the core's answer, shared by every layer.
pub use loop_core::error::FixedBy;
use loop_core::quote::write_plain;

/// Why a request body, or a response to the run in view, is not a run.
#[derive(Clone, Debug, PartialEq)]
pub enum TranscriptError {
    Body(BodyError),
    NoMessages,
    StartsWithAssistant,
    /// The first user message holds no text, which would be the task.
    NoTask,
    /// The conversation read does not make a scenario (every problem).
    NotAScenario(Vec<Problem>),
    /// A response came with no run in view to answer (the CLI).
    NoRunInView,
    /// A response came for a run that waits for none.
    NotWaiting,
    NoScenario,
    ResponseNotJson(String),
    NotAResponse,
    /// A response body of `provider`'s format whose content cannot be read.
    ResponseUnreadable {
        provider: &'static str,
        why: String,
    },
    NeitherJsonNorStream,
    StreamUnreadable {
        provider: &'static str,
        why: String,
    },
}

impl TranscriptError {
    pub fn fixed_by(&self) -> FixedBy {
        match self {
            TranscriptError::NoRunInView
            | TranscriptError::NotWaiting
            | TranscriptError::NoScenario => FixedBy::TheCaller,
            _ => FixedBy::TheFile,
        }
    }
}

impl From<BodyError> for TranscriptError {
    fn from(error: BodyError) -> Self {
        TranscriptError::Body(error)
    }
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_plain(f, |f| self.words(f))
    }
}

impl TranscriptError {
    /// The sentence, before [`write_plain`] escapes and bounds what it
    /// quotes from the file.
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TranscriptError::Body(error) => fmt::Display::fmt(error, f),
            TranscriptError::NoMessages => {
                f.write_str("the body has no messages: there is no conversation to read")
            }
            TranscriptError::StartsWithAssistant => f.write_str(
                "the first message is the assistant's: a conversation starts with the user's task",
            ),
            TranscriptError::NoTask => f.write_str(
                "the first user message holds no text (a string, or text blocks), and its text is the scenario's task",
            ),
            TranscriptError::NotAScenario(problems) => write!(
                f,
                "the conversation does not make a scenario: {}",
                joined(problems)
            ),
            TranscriptError::NoRunInView => f.write_str(
                "a provider's response is read as the answer to a run that ends on its request: import the request body first, then the response in the playground",
            ),
            TranscriptError::NotWaiting => f.write_str(
                "the run in view does not end on a request waiting for its answer: import the request body first, then its response",
            ),
            TranscriptError::NoScenario => {
                f.write_str("the run in view has no scenario to continue")
            }
            TranscriptError::ResponseNotJson(why) => write!(f, "the response is not JSON: {why}"),
            TranscriptError::NotAResponse => f.write_str(
                "not a response body: an Anthropic message has \"type\": \"message\", an OpenAI chat completion \"choices\", an OpenAI response \"output\"",
            ),
            TranscriptError::ResponseUnreadable { provider, why } => {
                write!(f, "the {provider} response cannot be read: {why}")
            }
            TranscriptError::NeitherJsonNorStream => {
                f.write_str("neither a JSON response nor a provider's SSE stream (data: lines)")
            }
            TranscriptError::StreamUnreadable { provider, why } => {
                write!(f, "the {provider} stream cannot be read: {why}")
            }
        }
    }
}

impl std::error::Error for TranscriptError {}

/// Why an OTLP/JSON document is not a run.
#[derive(Clone, Debug, PartialEq)]
pub enum OtlpError {
    NoSpans,
    /// An `agent_loop.event` span event without its JSON attribute.
    EventWithoutJson,
    NotAnEvent(String),
    /// The scenario this harness exported does not load (its first problem).
    ScenarioDoesNotLoad(String),
    /// None of the `spans` spans is a model call, a tool call or an agent
    /// in the GenAI conventions or OpenInference's.
    NoGenaiSpans {
        spans: usize,
    },
}

impl OtlpError {
    pub fn fixed_by(&self) -> FixedBy {
        FixedBy::TheFile
    }
}

impl fmt::Display for OtlpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_plain(f, |f| self.words(f))
    }
}

impl OtlpError {
    /// The sentence, before [`write_plain`] escapes and bounds what it
    /// quotes from the file.
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OtlpError::NoSpans => f.write_str(
                "no spans found: an OTLP/JSON trace has resourceSpans[].scopeSpans[].spans[]",
            ),
            OtlpError::EventWithoutJson => {
                f.write_str("an agent_loop.event span event has no agent_loop.event.json")
            }
            OtlpError::NotAnEvent(why) => {
                write!(f, "an agent_loop.event is not a trace event: {why}")
            }
            OtlpError::ScenarioDoesNotLoad(first) => {
                write!(f, "the exported scenario does not load: {first}")
            }
            OtlpError::NoGenaiSpans { spans } => write!(
                f,
                "none of the {spans} spans is a model call, a tool call or an agent: the trace does not follow the OpenTelemetry GenAI conventions (no gen_ai.operation.name attribute), nor OpenInference's (no openinference.span.kind LLM, TOOL or AGENT)"
            ),
        }
    }
}

impl std::error::Error for OtlpError {}

/// Why a run was not sent to an OTLP/HTTP endpoint, or not all of it
/// (`otel::send`).
#[derive(Clone, Debug, PartialEq)]
pub enum SendError {
    /// What was typed is not a URL.
    NotAnEndpoint(UrlProblem),
    /// A 2xx answer whose body says some spans were rejected.
    PartlyRejected {
        endpoint: String,
        rejected: String,
        spans: usize,
        body: String,
    },
    /// Any other status; `body` is the answer's, clipped.
    Refused {
        endpoint: String,
        status: u16,
        body: String,
    },
}

impl SendError {
    pub fn fixed_by(&self) -> FixedBy {
        match self {
            SendError::NotAnEndpoint(_) => FixedBy::TheCaller,
            // The collector's answer: what it accepts is its own.
            SendError::PartlyRejected { .. } | SendError::Refused { .. } => FixedBy::TheFile,
        }
    }
}

impl fmt::Display for SendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_plain(f, |f| self.words(f))
    }
}

impl SendError {
    /// The sentence, before [`write_plain`] escapes and bounds what it
    /// quotes from the file.
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SendError::NotAnEndpoint(why) => write!(f, "the endpoint is not a URL: {why}"),
            SendError::PartlyRejected {
                endpoint,
                rejected,
                spans,
                body,
            } => write!(
                f,
                "{endpoint} took the trace but rejected {rejected} of its {spans} spans: {body}"
            ),
            SendError::Refused {
                endpoint,
                status,
                body,
            } if body.is_empty() => write!(f, "{endpoint} refused the trace: HTTP {status}"),
            SendError::Refused {
                endpoint,
                status,
                body,
            } => write!(f, "{endpoint} refused the trace: HTTP {status}: {body}"),
        }
    }
}

impl std::error::Error for SendError {}
