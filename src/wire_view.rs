//! The Wire panel's logic: for a chosen turn of a run, the exact request body
//! each provider would receive for that turn's model call, pretty-printed, and
//! the protocol checker's verdict on that history per provider.
//!
//! Pure: it reads the run log (the controller's events) and the scenario's
//! request shape, and never touches the browser. The request itself is
//! rebuilt by `harness::wire::request_at_turn`, the same code the CLI's
//! `wire` and `check` use, so the page and the CLI show the same bodies.

use harness::event::{EventKind, RunEvent};
use harness::wire::{check, request_at_turn, Provider, RequestShape};

/// One line of a provider's verdict: the provider's error text (its HTTP 400
/// message), what it means, and where on the wire it points.
#[derive(Clone, Debug, PartialEq)]
pub struct VerdictLine {
    pub message: String,
    pub explanation: String,
    pub path: String,
}

/// One provider's view of a turn's request.
#[derive(Clone, Debug, PartialEq)]
pub struct ProviderWire {
    pub provider: Provider,
    pub label: &'static str,
    /// The request body, pretty-printed JSON.
    pub body: String,
    /// Empty when the provider would accept the history.
    pub violations: Vec<VerdictLine>,
}

impl ProviderWire {
    pub fn accepted(&self) -> bool {
        self.violations.is_empty()
    }
}

/// The turns that sent a model request, in order, each once (retries share a turn).
pub fn request_turns(events: &[RunEvent]) -> Vec<u32> {
    let mut turns: Vec<u32> = Vec::new();
    for event in events {
        if let EventKind::ModelRequest { turn, .. } = event.kind {
            if !turns.contains(&turn) {
                turns.push(turn);
            }
        }
    }
    turns
}

/// `selected` when that turn sent a request, else the latest turn that did.
pub fn effective_turn(events: &[RunEvent], selected: Option<u32>) -> Option<u32> {
    let turns = request_turns(events);
    selected
        .filter(|t| turns.contains(t))
        .or_else(|| turns.last().copied())
}

/// Each provider's request body and verdict for turn `turn`'s model request,
/// with the history as it stood when that request was sent. `None` when the
/// turn sent no request.
pub fn wire_for_turn(
    events: &[RunEvent],
    shape: &RequestShape,
    turn: u32,
) -> Option<Vec<ProviderWire>> {
    let request = request_at_turn(events, turn)?;
    Some(
        Provider::ALL
            .iter()
            .map(|&provider| {
                let body = request.body(provider, shape);
                let body = serde_json::to_string_pretty(&body).unwrap_or_else(|e| e.to_string());
                let violations = check(provider, &shape.system, &request.messages, &shape.tools)
                    .into_iter()
                    .map(|v| VerdictLine {
                        message: v.message,
                        explanation: v.explanation,
                        path: v.path,
                    })
                    .collect();
                ProviderWire {
                    provider,
                    label: provider.label(),
                    body,
                    violations,
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use harness::limits::Limits;
    use harness::message::{ContentBlock, ToolCall};
    use harness::model::{ToolSpec, Usage};
    use serde_json::json;

    fn ev(seq: u64, kind: EventKind) -> RunEvent {
        RunEvent { seq, t_ms: 0, kind }
    }

    fn request(turn: u32, attempt: u32) -> EventKind {
        EventKind::ModelRequest {
            turn,
            attempt,
            messages: 1,
            estimated_input_tokens: 10,
            max_output_tokens: 512,
        }
    }

    fn response(turn: u32, content: Vec<ContentBlock>) -> EventKind {
        EventKind::ModelResponse {
            by_person: false,
            turn,
            text: String::new(),
            content,
            stop_reason: "tool_use".into(),
            usage: Usage {
                input_tokens: 1,
                output_tokens: 1,
            },
            cost_usd: 0.0,
            latency_ms: 1,
        }
    }

    fn call(id: &str) -> ContentBlock {
        ContentBlock::ToolUse(ToolCall {
            id: id.into(),
            name: "get_time".into(),
            input: json!({}),
            input_raw: None,
        })
    }

    fn result(id: &str) -> EventKind {
        EventKind::ToolResult {
            by_person: false,
            id: id.into(),
            name: "get_time".into(),
            content: "12:00".into(),
            is_error: false,
            latency_ms: 1,
            state: None,
        }
    }

    fn run(ids: &[&str]) -> Vec<RunEvent> {
        let started = EventKind::RunStarted {
            scenario: "t".into(),
            model: "scripted".into(),
            approval: Default::default(),
            tools: vec!["get_time".into()],
            limits: Limits::default(),
            task: "What time is it?".into(),
        };
        let mut events = vec![
            ev(0, started),
            ev(1, request(1, 1)),
            ev(2, request(1, 2)),
            ev(3, response(1, ids.iter().map(|id| call(id)).collect())),
        ];
        for id in ids {
            events.push(ev(events.len() as u64, result(id)));
        }
        events.push(ev(events.len() as u64, request(2, 1)));
        events
    }

    fn shape() -> RequestShape {
        RequestShape {
            system: "Be brief.".into(),
            tools: vec![ToolSpec {
                name: "get_time".into(),
                description: "The time".into(),
                input_schema: json!({"type": "object"}),
            }],
        }
    }

    #[test]
    fn turns_are_listed_once_and_the_latest_is_the_default() {
        let events = run(&["toolu_1"]);
        assert_eq!(request_turns(&events), vec![1, 2]);
        assert_eq!(effective_turn(&events, None), Some(2));
        assert_eq!(effective_turn(&events, Some(1)), Some(1));
        assert_eq!(effective_turn(&events, Some(9)), Some(2));
        assert_eq!(effective_turn(&[], None), None);
        assert_eq!(wire_for_turn(&events, &shape(), 7), None);
    }

    #[test]
    fn turn_two_carries_the_result_and_every_provider_accepts() {
        let events = run(&["toolu_1"]);
        let wires = wire_for_turn(&events, &shape(), 2).unwrap();
        assert_eq!(wires.len(), 3);
        let anthropic = &wires[0];
        assert_eq!(anthropic.label, "Anthropic Messages");
        assert!(
            anthropic.body.contains("\"tool_result\""),
            "{}",
            anthropic.body
        );
        assert!(
            anthropic.body.contains("\"tool_use_id\": \"toolu_1\""),
            "{}",
            anthropic.body
        );
        assert!(anthropic.body.contains("\"model\": \"scripted\""));
        assert!(anthropic.body.contains("512"));
        assert!(
            wires[1].body.contains("\"role\": \"tool\""),
            "{}",
            wires[1].body
        );
        assert!(wires.iter().all(ProviderWire::accepted), "{wires:?}");
    }

    #[test]
    fn turn_one_is_only_the_task() {
        let events = run(&["toolu_1"]);
        let wires = wire_for_turn(&events, &shape(), 1).unwrap();
        assert!(wires[0].body.contains("What time is it?"));
        assert!(!wires[0].body.contains("tool_result"));
    }

    #[test]
    fn duplicate_ids_are_refused_with_the_provider_text() {
        let events = run(&["toolu_1", "toolu_1"]);
        let wires = wire_for_turn(&events, &shape(), 2).unwrap();
        let anthropic = &wires[0];
        assert!(!anthropic.accepted());
        assert!(
            anthropic
                .violations
                .iter()
                .any(|v| v.message.contains("`tool_use` ids must be unique")
                    && !v.explanation.is_empty()),
            "{:?}",
            anthropic.violations
        );
    }
}
