//! The model requests of a run that already happened, rebuilt from its trace:
//! the one place the CLI's `wire` and `check` and the page's Wire panel get a
//! request body from.
//!
//! Job: find each `model_request` event, rebuild the history as it stood when
//! that request was sent ([`history_from_trace`] on the events before it), and
//! put it into a provider's request body with the request's own output cap.
//!
//! The trace names the tools but carries neither the system prompt, the
//! tools' specs nor the tool choice, so the caller passes them as a [`RequestShape`], read from the
//! scenario that ran ([`RequestShape::of`]). The model name in the bodies is
//! [`MODEL`]: these runs talked to a scripted model, not to a provider.

use serde_json::Value;

use super::{history_from_trace, Provider, WireRequest};
use crate::event::{EventKind, RunEvent};
use crate::message::Message;
use crate::model::ToolSpec;
use crate::scenario::{Problem, Scenario};
use crate::tool_choice::ToolChoice;

/// The model name a rebuilt request body carries.
pub const MODEL: &str = "scripted";

/// What every request of a run carries besides its history and output cap:
/// the system prompt, the tools' specs and the tool choice, which the trace
/// does not hold.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RequestShape {
    pub system: String,
    pub tools: Vec<ToolSpec>,
    pub tool_choice: ToolChoice,
}

impl RequestShape {
    /// The shape of `scenario`'s requests: its system prompt, and its tools'
    /// specs as a run sends them (no run is built to read them).
    pub fn of(scenario: &Scenario) -> Result<RequestShape, Vec<Problem>> {
        Ok(RequestShape {
            system: scenario.system.clone(),
            tools: scenario.tool_specs()?,
            tool_choice: scenario.tool_choice.clone(),
        })
    }
}

/// One model request of a trace, rebuilt.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayedRequest {
    pub turn: u32,
    /// 1 for the first try, 2 for the first retry, ...
    pub attempt: u32,
    /// The output cap the request was sent with, as its event records it.
    pub max_output_tokens: u32,
    /// The history as it stood when the request was sent.
    pub messages: Vec<Message>,
}

impl ReplayedRequest {
    /// The request as the wire formats take it.
    pub fn wire_request<'a>(&'a self, shape: &'a RequestShape) -> WireRequest<'a> {
        WireRequest {
            model: MODEL,
            system: &shape.system,
            messages: &self.messages,
            tools: &shape.tools,
            tool_choice: &shape.tool_choice,
            max_output_tokens: self.max_output_tokens,
            stream: false,
        }
    }

    /// The body `provider` would have received for this request.
    pub fn body(&self, provider: Provider, shape: &RequestShape) -> Value {
        provider.request_body(&self.wire_request(shape))
    }
}

/// Every model request of the trace, in order, retries included.
pub fn replayed_requests(events: &[RunEvent]) -> Vec<ReplayedRequest> {
    events
        .iter()
        .enumerate()
        .filter_map(|(at, event)| replayed_at(events, at, event))
        .collect()
}

/// Turn `turn`'s request (its first attempt: a retry resends the same
/// history), or `None` when that turn sent no request.
pub fn request_at_turn(events: &[RunEvent], turn: u32) -> Option<ReplayedRequest> {
    events
        .iter()
        .enumerate()
        .find_map(|(at, event)| match event.kind {
            EventKind::ModelRequest { turn: t, .. } if t == turn => replayed_at(events, at, event),
            _ => None,
        })
}

/// The request `event` (at index `at`) made, when it is a `model_request`.
fn replayed_at(events: &[RunEvent], at: usize, event: &RunEvent) -> Option<ReplayedRequest> {
    match event.kind {
        EventKind::ModelRequest {
            turn,
            attempt,
            max_output_tokens,
            ..
        } => Some(ReplayedRequest {
            turn,
            attempt,
            max_output_tokens,
            messages: history_from_trace(&events[..at]),
        }),
        _ => None,
    }
}
