//! A provider request body read as a run: the conversation someone had
//! elsewhere (an Anthropic Messages, OpenAI Chat Completions or OpenAI
//! Responses body) becomes a record, a scenario and its trace, so the page
//! and the CLI can show it as a loop, check it, replay it and continue it.
//!
//! - The scenario: the system prompt, the tools with their schemas, the
//!   first user message as the task, and the model's turns as a scripted
//!   model. Each tool answers with the results the conversation recorded
//!   for its calls (`recorded`), so a replay runs offline and passes.
//! - The trace: each assistant turn a model request and response, each call
//!   a tool call, each tool result that call's result, in the body's order.
//!   A body whose last message is the user's or the tools' is the request
//!   for the next turn: the trace ends on that `model_request`, with no
//!   `run_finished` (a replay checks that it gets there).
//! - Nothing is lost silently: what the scenario format cannot hold (images,
//!   server tools, a person's text in the middle of the run, sampling
//!   settings) is listed in `lost`, each with its path in the body.

use crate::error::TranscriptError;
use std::collections::HashMap;

use serde_json::{json, Map, Value};

use crate::event::writer::TraceWriter;
use crate::event::{EventKind, Outcome, RunEvent, Status, Validation};
use crate::message::{ContentBlock, Role};
use crate::replay::Record;
use crate::scenario::Scenario;
use crate::wire::Provider;

/// A request body read as a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Transcript {
    pub provider: Provider,
    /// Why the body was read as `provider`, in a few words.
    pub detected_by: String,
    pub record: Record,
    /// What the scenario format cannot hold, each "path: what".
    pub lost: Vec<String>,
    /// What the provider would answer this very body: its HTTP 400s, each
    /// at its path in the body (`wire::check_body`). Checked on the body, not
    /// on the record, because the record cannot hold everything (a user's
    /// text before the results, say) and that may be the very mistake.
    pub refused: Vec<crate::wire::Violation>,
    /// Tools the conversation calls that the body does not declare (the
    /// cookbook's last request sends no `tools`). The scenario answers
    /// their calls from the recorded results (`InlineTool::undeclared`)
    /// and, like the body, never offers them to the model.
    pub undeclared: Vec<String>,
}

/// Reads `body` as a run (see the module's doc).
pub fn import_request(body: &Value) -> Result<Transcript, TranscriptError> {
    let (provider, detected_by) = Provider::of_request_body(body)?;
    let history = provider.parse_request(body)?;
    let mut lost = lost_parts(provider, body);
    let Some(first) = history.messages.first() else {
        return Err(TranscriptError::NoMessages);
    };
    if first.role != Role::User {
        return Err(TranscriptError::StartsWithAssistant);
    }
    let task = texts(&first.content).join("\n");
    if task.trim().is_empty() {
        return Err(TranscriptError::NoTask);
    }
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("unknown model")
        .to_string();
    let label = provider.label();

    // Each call's name, and the results recorded for each tool.
    let mut names_by_id: HashMap<String, String> = HashMap::new();
    let mut args_by_id: HashMap<String, Value> = HashMap::new();
    let mut recorded: HashMap<String, Vec<Value>> = HashMap::new();
    let mut responses = Vec::new();
    // Every tool the model called, in the order first called.
    let mut called: Vec<String> = Vec::new();
    for (index, message) in history.messages.iter().enumerate().skip(1) {
        match message.role {
            Role::Assistant => {
                let calls: Vec<Value> = message
                    .content
                    .iter()
                    .filter_map(|b| match b {
                        ContentBlock::ToolUse(call) => {
                            names_by_id.insert(call.id.clone(), call.name.clone());
                            if !called.contains(&call.name) {
                                called.push(call.name.clone());
                            }
                            args_by_id.insert(call.id.clone(), call.input.clone());
                            Some(json!({"name": call.name, "args": call.input}))
                        }
                        _ => None,
                    })
                    .collect();
                let mut response = Map::new();
                let text = texts(&message.content).join("\n");
                if !text.is_empty() {
                    response.insert("text".into(), Value::from(text));
                }
                if let Some(thinking) = message.content.iter().find_map(|b| match b {
                    ContentBlock::Thinking { thinking, .. } => Some(thinking.clone()),
                    _ => None,
                }) {
                    response.insert("thinking".into(), Value::from(thinking));
                }
                if !calls.is_empty() {
                    response.insert("tool_calls".into(), Value::Array(calls));
                }
                responses.push(Value::Object(response));
            }
            Role::User => {
                for block in &message.content {
                    match block {
                        ContentBlock::ToolResult(result) => {
                            let name = names_by_id.get(&result.tool_use_id).cloned();
                            let args = args_by_id.get(&result.tool_use_id).cloned();
                            if let (Some(name), Some(args)) = (name, args) {
                                recorded.entry(name).or_default().push(json!({
                                    "args": args,
                                    "content": result.content,
                                    "is_error": result.is_error,
                                }));
                            }
                        }
                        ContentBlock::Text { .. } => lost.push(format!(
                            "message {}: a user's text in the middle of the run (the loop has no place for it; only the first user message, the task, is kept)",
                            index + 1
                        )),
                        _ => {}
                    }
                }
            }
        }
    }
    let mut tools: Vec<Value> = history
        .tools
        .iter()
        .filter(|spec| spec.input_schema.is_object())
        .map(|spec| {
            json!({
                "name": spec.name,
                "description": spec.description,
                "input_schema": spec.input_schema,
                "recorded": recorded.get(&spec.name).cloned().unwrap_or_default(),
            })
        })
        .collect();
    // Called but not declared: answered from what was recorded, never
    // offered to the model, and any arguments accepted (no schema is known).
    let undeclared: Vec<String> = called
        .into_iter()
        .filter(|name| !history.tools.iter().any(|spec| &spec.name == name))
        .collect();
    for name in &undeclared {
        tools.push(json!({
            "name": name,
            "description": "Called in the imported conversation, but its request does not declare it: answered from the recorded results.",
            "input_schema": {"type": "object"},
            "recorded": recorded.get(name).cloned().unwrap_or_default(),
            "undeclared": true,
        }));
    }
    let turns = responses.len() as u32;
    let mut scenario = json!({
        "name": format!("Imported {label} request"),
        "description": format!("A conversation read from a pasted {label} request body ({model}): its tools answer with the results it recorded, and the scripted model plays its {turns} assistant turns."),
        "task": task,
        "tools": tools,
        // Room for every imported turn and a few more, so a replay is not
        // cut short by the default limit and a fork can continue.
        "limits": {"max_turns": (turns + 5).max(10)},
        "model": {"type": "scripted", "responses": responses},
    });
    if !history.system.is_empty() {
        scenario["system"] = Value::from(history.system.clone());
    }
    if !history.tool_choice.is_auto() {
        scenario["tool_choice"] = json!(history.tool_choice);
    }
    let scenario_text = scenario.to_string();
    let scenario = Scenario::load(&scenario_text).map_err(TranscriptError::NotAScenario)?;
    // Labelled as a provider run is ("Anthropic Messages claude-…"), so a
    // view of it knows which format it spoke.
    let events = trace(&scenario, &format!("{label} {model}"), &history.messages);
    Ok(Transcript {
        provider,
        detected_by,
        record: Record {
            scenario: Some(scenario),
            events,
            forked_at: None,
        },
        lost,
        refused: crate::wire::check_body(provider, body),
        undeclared,
    })
}

/// The trace of the conversation as the loop would have written it.
fn trace(scenario: &Scenario, model: &str, messages: &[crate::message::Message]) -> Vec<RunEvent> {
    // A transcript has no clock: every event is at 0 ms.
    let mut trace = TraceWriter::new();
    let mut push = |kind: EventKind| trace.push(0, kind);
    let specs = scenario.tool_specs().unwrap_or_default();
    let tool_names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    // A call to a tool the body does not declare still ran: its result is
    // in the conversation, and the scenario answers it from that.
    let answerable: Vec<String> = tool_names
        .iter()
        .cloned()
        .chain(scenario.undeclared_tools())
        .collect();
    push(EventKind::RunStarted {
        scenario: scenario.name.clone(),
        model: model.to_string(),
        approval: scenario.approval,
        tools: tool_names.clone(),
        limits: scenario.limits.clone(),
        context: scenario.context.clone(),
        task: scenario.task.clone(),
    });
    let mut names_by_id: HashMap<String, String> = HashMap::new();
    let mut turn = 0u32;
    let mut calls = 0u32;
    let mut answer = None;
    // Each request's input, estimated as a run estimates its own (4
    // characters a token): the system prompt, the tools and the history.
    let fixed_chars = scenario.system.len()
        + specs
            .iter()
            .map(|s| s.name.len() + s.description.len() + s.input_schema.to_string().len())
            .sum::<usize>();
    let estimate =
        |history_chars: usize| crate::model::estimate_tokens(fixed_chars + history_chars);
    // The history's characters before the message in hand.
    let mut history_chars = 0;
    for (index, message) in messages.iter().enumerate() {
        let before = history_chars;
        history_chars += message.char_len();
        match message.role {
            Role::Assistant => {
                turn += 1;
                push(EventKind::ModelRequest {
                    turn,
                    attempt: 1,
                    messages: index,
                    estimated_input_tokens: estimate(before),
                    max_output_tokens: scenario.limits.max_output_tokens,
                });
                let uses: Vec<_> = message
                    .content
                    .iter()
                    .filter_map(|b| match b {
                        ContentBlock::ToolUse(call) => Some(call.clone()),
                        _ => None,
                    })
                    .collect();
                let text = texts(&message.content).join("\n");
                answer = uses.is_empty().then(|| text.clone());
                push(EventKind::ModelResponse {
                    turn,
                    text,
                    content: message.content.clone(),
                    stop_reason: if uses.is_empty() {
                        "end_turn"
                    } else {
                        "tool_use"
                    }
                    .to_string(),
                    usage: Default::default(),
                    cost_usd: 0.0,
                    latency_ms: 0,
                    by_person: false,
                });
                for call in uses {
                    calls += 1;
                    names_by_id.insert(call.id.clone(), call.name.clone());
                    let validation = if answerable.contains(&call.name) {
                        Validation::Valid
                    } else {
                        Validation::UnknownTool {
                            available: tool_names.clone(),
                        }
                    };
                    push(EventKind::ToolCall {
                        turn,
                        id: call.id,
                        name: call.name,
                        args: call.input,
                        args_raw: call.input_raw,
                        validation,
                        unchecked: Vec::new(),
                        needs_approval: false,
                    });
                }
            }
            Role::User => {
                for block in &message.content {
                    if let ContentBlock::ToolResult(result) = block {
                        push(EventKind::ToolResult {
                            id: result.tool_use_id.clone(),
                            name: names_by_id
                                .get(&result.tool_use_id)
                                .cloned()
                                .unwrap_or_default(),
                            content: result.content.clone(),
                            is_error: result.is_error,
                            latency_ms: 0,
                            state: None,
                            by_person: false,
                            fate: Some(crate::event::ResultFate::Ran),
                            media: result.media.clone(),
                        });
                    }
                }
            }
        }
    }
    // A conversation that ends with the user's or the tools' turn is the
    // request for the next turn: the body itself, which the trace ends on.
    if messages.last().map(|m| m.role) == Some(Role::User) {
        push(EventKind::ModelRequest {
            turn: turn + 1,
            attempt: 1,
            messages: messages.len(),
            estimated_input_tokens: estimate(history_chars),
            max_output_tokens: scenario.limits.max_output_tokens,
        });
    }
    // One that ends with the model's answer ended there.
    if let (Some(answer), Some(Role::Assistant)) = (answer, messages.last().map(|m| m.role)) {
        push(EventKind::RunFinished(Outcome {
            status: Status::Done,
            reason: "imported: the conversation ends with the model's answer".to_string(),
            cause: None,
            turns: turn,
            tool_calls: calls,
            calls: None,
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: 0.0,
            elapsed_ms: 0,
            answer: Some(answer),
        }));
    }
    let mut events = trace.into_events();
    crate::event::backfill(&mut events);
    events
}

fn texts(content: &[ContentBlock]) -> Vec<String> {
    content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// What the body holds that the scenario format cannot: parts of messages
/// the loop has no block for, server tools, and settings it does not keep.
fn lost_parts(provider: Provider, body: &Value) -> Vec<String> {
    let mut lost = Vec::new();
    let kept_keys = provider.kept_keys();
    if let Some(object) = body.as_object() {
        let dropped: Vec<&str> = object
            .keys()
            .map(String::as_str)
            .filter(|k| !kept_keys.contains(k))
            .collect();
        if !dropped.is_empty() {
            lost.push(format!("settings not kept: {}", dropped.join(", ")));
        }
    }
    for (i, tool) in body
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        if !provider.is_client_tool(tool) {
            let kind = tool
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("unknown");
            lost.push(format!("tools.{i}: a server tool ({kind}) runs at the provider; the playground cannot run it"));
        }
    }
    let (list_key, known) = provider.conversation();
    for (i, item) in body
        .get(list_key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let item_kind = item
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("message");
        if !provider.keeps_item(item_kind) {
            lost.push(format!("{list_key}.{i}: a {item_kind} item"));
            continue;
        }
        for (j, part) in item
            .get("content")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let kind = part
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("unknown");
            if !known.contains(&kind) {
                lost.push(format!("{list_key}.{i}.content.{j}: a {kind} block (only text, thinking and tool calls and results are kept)"));
            }
            // A tool result's own blocks: text is kept, an image is not.
            for (k, inner) in part
                .get("content")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let inner_kind = inner
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown");
                if inner_kind != "text" {
                    lost.push(format!("{list_key}.{i}.content.{j}.content.{k}: a {inner_kind} block in a tool result"));
                }
            }
        }
    }
    lost
}

/// A provider's answer read as the next turn of an imported conversation.
#[derive(Clone, Debug, PartialEq)]
pub struct Answered {
    /// The conversation with the answer as its last turn.
    pub record: Record,
    pub provider: Provider,
    /// "a response body" or "an SSE stream".
    pub read_as: &'static str,
    /// The turn the answer is.
    pub turn: u32,
}

/// A provider's response (a JSON body, or its SSE stream as saved) to the
/// request `record` ends on, added as that turn: the conversation is read
/// again with the answer after it (as `import_request` reads a body), so
/// its tool calls, the scripted model and a fork see it as any other turn.
pub fn import_response(record: &Record, text: &str) -> Result<Answered, TranscriptError> {
    let waiting = record.events.last().and_then(|e| match &e.kind {
        EventKind::ModelRequest { turn, .. } => Some(*turn),
        _ => None,
    });
    let Some(turn) = waiting else {
        return Err(TranscriptError::NotWaiting);
    };
    let scenario = record
        .scenario
        .as_ref()
        .ok_or(TranscriptError::NoScenario)?;
    let (provider, response, read_as) = read_response(text)?;
    let model = record
        .events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::RunStarted { model, .. } => Some(model.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let mut messages = crate::wire::history::history_from_trace(&record.events);
    messages.push(crate::message::Message {
        role: Role::Assistant,
        content: response.content.clone(),
    });
    let tools = scenario.tool_specs().unwrap_or_default();
    let body = provider.request_body(&crate::wire::WireRequest {
        model: &model,
        system: &scenario.system,
        messages: &messages,
        tools: &tools,
        tool_choice: &scenario.tool_choice,
        max_output_tokens: scenario.limits.max_output_tokens,
        stream: false,
    });
    let mut record = import_request(&body)?.record;
    // The answer's own stop reason and usage, which a request cannot carry.
    if let Some(EventKind::ModelResponse {
        stop_reason, usage, ..
    }) = record
        .events
        .iter_mut()
        .rev()
        .map(|e| &mut e.kind)
        .find(|k| matches!(k, EventKind::ModelResponse { .. }))
    {
        *stop_reason = response.stop_reason.clone();
        *usage = response.usage;
    }
    Ok(Answered {
        record,
        provider,
        read_as,
        turn,
    })
}

/// Which provider wrote `text`, and what it answered.
fn read_response(
    text: &str,
) -> Result<(Provider, crate::model::ModelResponse, &'static str), TranscriptError> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        let body: Value = serde_json::from_str(trimmed)
            .map_err(|e| TranscriptError::ResponseNotJson(e.to_string()))?;
        let Some(provider) = Provider::of_response_body(&body) else {
            return Err(TranscriptError::NotAResponse);
        };
        let response =
            provider
                .parse_response(&body)
                .map_err(|e| TranscriptError::ResponseUnreadable {
                    provider: provider.label(),
                    why: e.to_string(),
                })?;
        return Ok((provider, response, "a response body"));
    }
    let Some(provider) = Provider::of_stream(trimmed) else {
        return Err(TranscriptError::NeitherJsonNorStream);
    };
    let mut assembler = provider.assembler();
    assembler
        .push(trimmed.as_bytes())
        .map_err(|e| TranscriptError::StreamUnreadable {
            provider: provider.label(),
            why: e.to_string(),
        })?;
    let response = assembler
        .finish()
        .map_err(|e| TranscriptError::StreamUnreadable {
            provider: provider.label(),
            why: e.to_string(),
        })?;
    Ok((provider, response, "an SSE stream"))
}
