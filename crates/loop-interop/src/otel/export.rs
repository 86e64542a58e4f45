//! A run as OTLP/JSON spans under the OpenTelemetry GenAI semantic
//! conventions: one `invoke_agent` root, a `chat` span per model call (each
//! attempt), an `execute_tool` span per tool call. Approvals and validation
//! outcomes are span events on the call's span.
//!
//! Message content (`gen_ai.input.messages`, `gen_ai.output.messages`,
//! `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`) is opt-in in
//! the conventions because it can be sensitive; a playground run is the
//! learner's own, so it is always included here.
//!
//! So that an import of this export gives back the same run, every trace
//! event also rides on the span it belongs to as a span event named
//! `agent_loop.event` carrying the event's JSON, and the root carries the
//! scenario. Collectors keep span events and attributes as they are.

use serde_json::{json, Value};

use super::{ids, AGENT_LOOP_EVENT, AGENT_LOOP_SCENARIO, EVENT_JSON};
use crate::event::{EventKind, Outcome, RunEvent, Status};
use crate::message::{ContentBlock, Message, Role};
use crate::model::Usage;
use crate::replay::Record;
use crate::wire::history::TraceHistory;

/// OTLP span kinds and status codes (opentelemetry-proto `trace.proto`).
const KIND_INTERNAL: u8 = 1;
const KIND_CLIENT: u8 = 3;
const STATUS_OK: u8 = 1;
const STATUS_ERROR: u8 = 2;

/// The run `record` as one OTLP/JSON `TracesData` document (what an
/// OTLP/HTTP collector accepts at `/v1/traces` with `application/json`).
/// `started_unix_ms` places the run in time: the trace keeps only times
/// relative to the run's start.
pub fn to_otlp(record: &Record, started_unix_ms: u64) -> Value {
    let mut export = Export::new(record, started_unix_ms);
    for event in &record.events {
        export.event(event);
    }
    export.finish(record)
}

/// The spans being written, and what an event needs of the ones before it:
/// the conversation so far, the chat span waiting for its response, each
/// call's span by id, and the model's name.
struct Export {
    spans: Spans,
    root: usize,
    history: TraceHistory,
    chat: Option<usize>,
    tools: Vec<(String, usize)>,
    model_label: String,
}

impl Export {
    fn new(record: &Record, started_unix_ms: u64) -> Export {
        let mut spans = Spans {
            ids: ids::Ids::for_record(record),
            started_unix_ms,
            list: Vec::new(),
        };
        let root = spans.open(
            "invoke_agent",
            KIND_INTERNAL,
            None,
            0,
            vec![kv("gen_ai.operation.name", "invoke_agent")],
        );
        Export {
            spans,
            root,
            history: TraceHistory::default(),
            chat: None,
            tools: Vec::new(),
            model_label: String::new(),
        }
    }

    /// One event: the span it opens, fills or closes; every event also
    /// rides on its span (`Spans::attach`).
    fn event(&mut self, event: &RunEvent) {
        match &event.kind {
            EventKind::RunStarted {
                scenario, model, ..
            } => self.run_started(event, scenario, model),
            EventKind::ModelRequest {
                turn,
                attempt,
                max_output_tokens,
                ..
            } => self.model_request(event, *turn, *attempt, *max_output_tokens),
            EventKind::ModelResponse {
                content,
                stop_reason,
                usage,
                ..
            } => self.model_response(event, content, stop_reason, usage),
            EventKind::ModelError {
                status, message, ..
            } => self.model_error(event, *status, message),
            EventKind::ToolCall { .. } => self.tool_call(event),
            EventKind::ApprovalRequested { id, .. } | EventKind::ApprovalDecided { id, .. } => {
                self.approval(event, id)
            }
            EventKind::ToolResult { .. } => self.tool_result(event),
            EventKind::ContextEdited { .. } => self.context_edited(event),
            EventKind::RunFinished(outcome) => self.run_finished(event, outcome),
        }
        self.history.push(event);
    }

    fn run_started(&mut self, event: &RunEvent, scenario: &str, model: &str) {
        let root = self.root;
        self.model_label = model.to_string();
        let span = &mut self.spans.list[root];
        span.name = format!("invoke_agent {scenario}");
        span.attributes.push(kv("gen_ai.agent.name", scenario));
        span.attributes.push(kv("gen_ai.request.model", model));
        self.spans.attach(root, event);
    }

    fn model_request(&mut self, event: &RunEvent, turn: u32, attempt: u32, max_output_tokens: u32) {
        let input = genai_messages(self.history.messages());
        let span = self.spans.open(
            &format!("chat {}", self.model_label),
            KIND_CLIENT,
            Some(self.root),
            event.t_ms,
            vec![
                kv("gen_ai.operation.name", "chat"),
                kv("gen_ai.request.model", &self.model_label),
                kv_int("gen_ai.request.max_tokens", u64::from(max_output_tokens)),
                kv_int("agent_loop.turn", u64::from(turn)),
                kv_int("agent_loop.attempt", u64::from(attempt)),
                kv("gen_ai.input.messages", &input.to_string()),
            ],
        );
        self.spans.attach(span, event);
        self.chat = Some(span);
    }

    fn model_response(
        &mut self,
        event: &RunEvent,
        content: &[ContentBlock],
        stop_reason: &String,
        usage: &Usage,
    ) {
        let Some(span) = self.chat.take() else {
            return;
        };
        let output = json!([{
            "role": "assistant",
            "parts": parts(content),
            "finish_reason": stop_reason,
        }]);
        self.spans.list[span].attributes.extend([
            kv_strings("gen_ai.response.finish_reasons", &[stop_reason]),
            kv_int("gen_ai.usage.input_tokens", usage.input_tokens),
            kv_int("gen_ai.usage.output_tokens", usage.output_tokens),
            kv("gen_ai.output.messages", &output.to_string()),
        ]);
        self.spans.close(span, event.t_ms, STATUS_OK, "");
        self.spans.attach(span, event);
    }

    fn model_error(&mut self, event: &RunEvent, status: Option<u16>, message: &str) {
        let Some(span) = self.chat.take() else {
            return;
        };
        let error_type = status.map_or("model_error".to_string(), |s| s.to_string());
        self.spans.list[span]
            .attributes
            .push(kv("error.type", &error_type));
        self.spans.close(span, event.t_ms, STATUS_ERROR, message);
        self.spans.attach(span, event);
    }

    fn tool_call(&mut self, event: &RunEvent) {
        let EventKind::ToolCall {
            id,
            name,
            args,
            args_raw,
            validation,
            ..
        } = &event.kind
        else {
            return;
        };
        let arguments = args_raw.clone().unwrap_or_else(|| args.to_string());
        let span = self.spans.open(
            &format!("execute_tool {name}"),
            KIND_INTERNAL,
            Some(self.root),
            event.t_ms,
            vec![
                kv("gen_ai.operation.name", "execute_tool"),
                kv("gen_ai.tool.name", name),
                kv("gen_ai.tool.call.id", id),
                kv("gen_ai.tool.type", "function"),
                kv("gen_ai.tool.call.arguments", &arguments),
            ],
        );
        let time = self.spans.unix_nanos(event.t_ms);
        self.spans.list[span].events.push(span_event(
            time,
            "agent_loop.validation",
            vec![kv("agent_loop.validation", validation.as_str())],
        ));
        self.spans.attach(span, event);
        self.tools.push((id.clone(), span));
    }

    /// An approval asked or decided: an event on its call's span.
    fn approval(&mut self, event: &RunEvent, id: &str) {
        let span = tool_span(&self.tools, id).unwrap_or(self.root);
        let (name, attributes) = match &event.kind {
            EventKind::ApprovalDecided {
                decision,
                by,
                reason,
                ..
            } => (
                "agent_loop.approval.decided",
                vec![
                    kv("agent_loop.approval.decision", decision.as_str()),
                    kv("agent_loop.approval.by", by.as_str()),
                    kv(
                        "agent_loop.approval.reason",
                        reason.as_deref().unwrap_or(""),
                    ),
                ],
            ),
            _ => ("agent_loop.approval.requested", Vec::new()),
        };
        let time = self.spans.unix_nanos(event.t_ms);
        self.spans.list[span]
            .events
            .push(span_event(time, name, attributes));
        self.spans.attach(span, event);
    }

    fn tool_result(&mut self, event: &RunEvent) {
        let EventKind::ToolResult {
            id,
            content,
            is_error,
            fate,
            ..
        } = &event.kind
        else {
            return;
        };
        let span = tool_span(&self.tools, id).unwrap_or(self.root);
        if span != self.root {
            let attributes = &mut self.spans.list[span].attributes;
            attributes.push(kv("gen_ai.tool.call.result", content));
            if let Some(fate) = fate {
                attributes.push(kv("agent_loop.tool_call.fate", fate.as_str()));
            }
            let (code, message) = if *is_error {
                attributes.push(kv("error.type", "tool_error"));
                (STATUS_ERROR, content.as_str())
            } else {
                (STATUS_OK, "")
            };
            self.spans.close(span, event.t_ms, code, message);
        }
        self.spans.attach(span, event);
    }

    /// A strategy's work is a span of its own beside the chats, so a trace
    /// viewer shows where the history was edited.
    fn context_edited(&mut self, event: &RunEvent) {
        let EventKind::ContextEdited {
            strategy,
            tokens_before,
            tokens_after,
            description,
            ..
        } = &event.kind
        else {
            return;
        };
        let span = self.spans.open(
            &format!("context_edit {}", strategy.as_str()),
            KIND_INTERNAL,
            Some(self.root),
            event.t_ms,
            vec![
                kv("agent_loop.context.strategy", strategy.as_str()),
                kv_int("agent_loop.context.tokens_before", *tokens_before),
                kv_int("agent_loop.context.tokens_after", *tokens_after),
                kv("agent_loop.context.description", description),
            ],
        );
        self.spans.close(span, event.t_ms, STATUS_OK, "");
        self.spans.attach(span, event);
    }

    fn run_finished(&mut self, event: &RunEvent, outcome: &Outcome) {
        let root = self.root;
        let attributes = &mut self.spans.list[root].attributes;
        attributes.extend([
            kv("agent_loop.status", outcome.status.as_str()),
            kv("agent_loop.reason", &outcome.reason),
            kv_int("agent_loop.turns", u64::from(outcome.turns)),
            kv_int("agent_loop.tool_calls", u64::from(outcome.tool_calls)),
            kv_int("gen_ai.usage.input_tokens", outcome.input_tokens),
            kv_int("gen_ai.usage.output_tokens", outcome.output_tokens),
        ]);
        // The counts by the names the page and the CLI use
        // (`harness::tally`); `agent_loop.tool_calls` is `checked`.
        if let Some(calls) = outcome.calls {
            attributes.extend(
                calls.by_name().map(|(name, n)| {
                    kv_int(&format!("agent_loop.tool_calls.{name}"), u64::from(n))
                }),
            );
        }
        let code = if outcome.status == Status::Done {
            STATUS_OK
        } else {
            STATUS_ERROR
        };
        self.spans.close(root, event.t_ms, code, &outcome.reason);
        self.spans.attach(root, event);
    }

    /// Closes what a run left open (it stopped mid-call) at its last event,
    /// puts the scenario on the root, and writes the document.
    fn finish(mut self, record: &Record) -> Value {
        let last = record.events.last().map_or(0, |e| e.t_ms);
        for index in 0..self.spans.list.len() {
            if self.spans.list[index].end_ms.is_none() {
                self.spans.close(index, last, 0, "");
            }
        }
        if let Some(scenario) = &record.scenario {
            let text = serde_json::to_string(scenario).unwrap_or_default();
            self.spans.list[self.root]
                .attributes
                .push(kv(AGENT_LOOP_SCENARIO, &text));
        }
        let spans = &self.spans;
        json!({
            "resourceSpans": [{
                "resource": {"attributes": [kv("service.name", "agent-loop")]},
                "scopeSpans": [{
                    "scope": {"name": "agent-loop", "version": env!("CARGO_PKG_VERSION")},
                    "spans": spans.list.iter().map(|s| s.to_json(spans)).collect::<Vec<_>>(),
                }],
            }],
        })
    }
}

fn tool_span(tools: &[(String, usize)], id: &str) -> Option<usize> {
    tools
        .iter()
        .rev()
        .find(|(call, _)| call == id)
        .map(|(_, span)| *span)
}

/// The conventions' message parts for our content blocks.
fn parts(content: &[ContentBlock]) -> Vec<Value> {
    content
        .iter()
        .map(|block| match block {
            ContentBlock::Text { text } => json!({"type": "text", "content": text}),
            ContentBlock::Thinking { thinking, .. } => {
                json!({"type": "reasoning", "content": thinking})
            }
            ContentBlock::ToolUse(call) => json!({
                "type": "tool_call",
                "id": call.id,
                "name": call.name,
                "arguments": call.input,
            }),
            ContentBlock::ToolResult(result) => json!({
                "type": "tool_call_response",
                "id": result.tool_use_id,
                "response": result.content,
            }),
        })
        .collect()
}

/// A history as the conventions' input messages: a user message that holds
/// only tool results is the `tool` role's.
fn genai_messages(messages: &[Message]) -> Value {
    Value::Array(
        messages
            .iter()
            .map(|message| {
                let only_results = !message.content.is_empty()
                    && message
                        .content
                        .iter()
                        .all(|b| matches!(b, ContentBlock::ToolResult(_)));
                let role = match message.role {
                    Role::Assistant => "assistant",
                    Role::User if only_results => "tool",
                    Role::User => "user",
                };
                json!({"role": role, "parts": parts(&message.content)})
            })
            .collect(),
    )
}

struct Span {
    id: String,
    parent: Option<usize>,
    name: String,
    kind: u8,
    start_ms: u64,
    end_ms: Option<u64>,
    status: (u8, String),
    attributes: Vec<Value>,
    events: Vec<Value>,
}

impl Span {
    fn to_json(&self, spans: &Spans) -> Value {
        let mut status = json!({"code": self.status.0});
        if !self.status.1.is_empty() {
            status["message"] = Value::from(self.status.1.as_str());
        }
        json!({
            "traceId": spans.ids.trace_id(),
            "spanId": self.id,
            "parentSpanId": self.parent.map_or(String::new(), |p| spans.list[p].id.clone()),
            "name": self.name,
            "kind": self.kind,
            "startTimeUnixNano": spans.unix_nanos(self.start_ms),
            "endTimeUnixNano": spans.unix_nanos(self.end_ms.unwrap_or(self.start_ms)),
            "attributes": self.attributes,
            "events": self.events,
            "status": status,
        })
    }
}

struct Spans {
    ids: ids::Ids,
    started_unix_ms: u64,
    list: Vec<Span>,
}

impl Spans {
    fn open(
        &mut self,
        name: &str,
        kind: u8,
        parent: Option<usize>,
        t_ms: u64,
        attributes: Vec<Value>,
    ) -> usize {
        self.list.push(Span {
            id: self.ids.span_id(self.list.len()),
            parent,
            name: name.to_string(),
            kind,
            start_ms: t_ms,
            end_ms: None,
            status: (0, String::new()),
            attributes,
            events: Vec::new(),
        });
        self.list.len() - 1
    }

    fn close(&mut self, index: usize, t_ms: u64, code: u8, message: &str) {
        let span = &mut self.list[index];
        span.end_ms = Some(t_ms.max(span.start_ms));
        span.status = (code, message.to_string());
    }

    /// The event's JSON on `span`, for a lossless import.
    fn attach(&mut self, span: usize, event: &RunEvent) {
        let json = serde_json::to_string(event).unwrap_or_default();
        let time = self.unix_nanos(event.t_ms);
        self.list[span].events.push(span_event(
            time,
            AGENT_LOOP_EVENT,
            vec![kv(EVENT_JSON, &json)],
        ));
    }

    /// OTLP/JSON writes 64-bit integers as decimal strings.
    fn unix_nanos(&self, t_ms: u64) -> String {
        ((u128::from(self.started_unix_ms) + u128::from(t_ms)) * 1_000_000).to_string()
    }
}

fn span_event(time: String, name: &str, attributes: Vec<Value>) -> Value {
    json!({"timeUnixNano": time, "name": name, "attributes": attributes})
}

fn kv(key: &str, value: &str) -> Value {
    json!({"key": key, "value": {"stringValue": value}})
}

fn kv_int(key: &str, value: u64) -> Value {
    json!({"key": key, "value": {"intValue": value.to_string()}})
}

fn kv_strings(key: &str, values: &[&String]) -> Value {
    let values: Vec<Value> = values.iter().map(|v| json!({"stringValue": v})).collect();
    json!({"key": key, "value": {"arrayValue": {"values": values}}})
}
