//! `agent-loop wire` and `agent-loop check`: a run's requests as each
//! provider would receive them, and the protocol checker's verdict on them.

use harness::event::{EventKind, RunEvent};
use harness::message::Message;
use harness::model::ToolSpec;
use harness::wire::{self, Provider, WireRequest};
use serde_json::{json, Value};

/// What a request needs beyond the history.
pub struct RunShape<'a> {
    pub system: &'a str,
    pub tools: &'a [ToolSpec],
    pub max_output_tokens: u32,
}

/// The request body of every model request the run made, in order, each with
/// the history as it stood when that request was sent.
pub fn request_bodies(provider: Provider, shape: &RunShape<'_>, events: &[RunEvent]) -> Value {
    let requests: Vec<Value> = events
        .iter()
        .enumerate()
        .filter_map(|(i, event)| match event.kind {
            EventKind::ModelRequest { turn, attempt, .. } => {
                let history: Vec<Message> = wire::history_from_trace(&events[..i]);
                let body = provider.request_body(&WireRequest {
                    model: "scripted",
                    system: shape.system,
                    messages: &history,
                    tools: shape.tools,
                    max_output_tokens: shape.max_output_tokens,
                    stream: false,
                });
                Some(json!({"turn": turn, "attempt": attempt, "body": body}))
            }
            _ => None,
        })
        .collect();
    json!({"provider": provider, "requests": requests})
}

/// The checker's verdict on the run's final history, per provider, as text.
/// Returns the report and the number of violations.
pub fn check_report(shape: &RunShape<'_>, events: &[RunEvent]) -> (String, usize) {
    let history = wire::history_from_trace(events);
    let mut report = String::new();
    let mut total = 0;
    for provider in Provider::ALL {
        let violations = wire::check(provider, shape.system, &history, shape.tools);
        total += violations.len();
        if violations.is_empty() {
            report.push_str(&format!("✓ {}: no violations\n", provider.label()));
            continue;
        }
        report.push_str(&format!(
            "✗ {}: {} violation{}\n",
            provider.label(),
            violations.len(),
            if violations.len() == 1 { "" } else { "s" }
        ));
        for v in violations {
            report.push_str(&format!("  at {}: HTTP 400 {}\n", v.path, v.message));
            report.push_str(&format!("    why: {}\n", v.explanation));
        }
    }
    (report, total)
}
