//! The scenario of a run read from another tool's GenAI spans, so the
//! import replays and forks as a recorded run does: the system prompt
//! (`gen_ai.system_instructions`, else a system message in the input), the
//! tools with their schemas (`gen_ai.tool.definitions`, or OpenLLMetry's
//! older `llm.request.functions.N.*`), the task, the model's turns as a
//! scripted model, and each tool answering with the results the trace
//! recorded (as an imported request body's tools do, see `transcript`).
//! What the spans lack is said in the notes: no content means no scenario,
//! no definitions means tools that accept any arguments.

use serde_json::{json, Map, Value};

use super::attributes::attribute;
use crate::event::{EventKind, RunEvent};
use crate::message::ContentBlock;
use crate::scenario::Scenario;

/// A tool as a trace defines it.
struct Definition {
    name: String,
    description: String,
    schema: Value,
}

/// The scenario for `events` (already rebuilt from `chats`, the model-call
/// spans in order), or `None` with a note saying why.
pub fn rebuild(
    chats: &[&Value],
    events: &[RunEvent],
    name: &str,
    model: &str,
    notes: &mut Vec<String>,
) -> Option<Scenario> {
    let has_content = chats
        .iter()
        .any(|c| attribute(c, "gen_ai.output.messages").is_some());
    if !has_content {
        notes.push("No scenario: without the model's output messages its turns cannot be scripted, so the record shows the run but cannot be replayed or forked.".to_string());
        return None;
    }
    let task = events.iter().find_map(|e| match &e.kind {
        EventKind::RunStarted { task, .. } => Some(task.clone()),
        _ => None,
    })?;
    let system = chats.iter().find_map(|c| system_prompt(c));
    if system.is_none() {
        notes.push("The trace holds no system prompt (no gen_ai.system_instructions, no system message in the input): the scenario has none.".to_string());
    }
    let definitions = chats.iter().find_map(|c| definitions(c));

    // The model's turns, and each tool's recorded results with their arguments.
    let mut responses = Vec::new();
    let mut called: Vec<String> = Vec::new();
    let mut recorded: Map<String, Value> = Map::new();
    let mut args_by_id: std::collections::HashMap<&str, &Value> = Default::default();
    for event in events {
        match &event.kind {
            EventKind::ModelResponse {
                content,
                stop_reason,
                ..
            } => responses.push(scripted(content, stop_reason)),
            EventKind::ModelError {
                status, message, ..
            } => responses.push(json!({"error": {
                "status": status.unwrap_or(500),
                "message": message,
            }})),
            EventKind::ToolCall { id, name, args, .. } => {
                args_by_id.insert(id, args);
                if !called.contains(name) {
                    called.push(name.clone());
                }
            }
            EventKind::ToolResult {
                id,
                name,
                content,
                is_error,
                ..
            } => {
                let entry = recorded.entry(name.clone()).or_insert_with(|| json!([]));
                if let Some(list) = entry.as_array_mut() {
                    list.push(json!({
                        "args": args_by_id.get(id.as_str()).copied().cloned().unwrap_or(json!({})),
                        "content": content,
                        "is_error": is_error,
                    }));
                }
            }
            _ => {}
        }
    }
    let results_of = |name: &str| recorded.get(name).cloned().unwrap_or(json!([]));
    let mut tools: Vec<Value> = Vec::new();
    match &definitions {
        Some(defined) => {
            for tool in defined {
                tools.push(json!({
                    "name": tool.name,
                    "description": tool.description,
                    "input_schema": tool.schema,
                    "recorded": results_of(&tool.name),
                }));
            }
            let undeclared: Vec<&String> = called
                .iter()
                .filter(|n| !defined.iter().any(|d| &d.name == *n))
                .collect();
            for name in &undeclared {
                tools.push(json!({
                    "name": name,
                    "description": "Called in the trace, but no model call's tool definitions declare it: answered from the recorded results.",
                    "input_schema": {"type": "object"},
                    "recorded": results_of(name),
                    "undeclared": true,
                }));
            }
            if !undeclared.is_empty() {
                notes.push(format!(
                    "Called but defined in no span's gen_ai.tool.definitions: {}. The scenario answers these calls from the recorded results and does not offer the tools to the model.",
                    undeclared.iter().map(|n| n.as_str()).collect::<Vec<_>>().join(", ")
                ));
            }
        }
        None => {
            for name in &called {
                tools.push(json!({
                    "name": name,
                    "description": "",
                    "input_schema": {"type": "object"},
                    "recorded": results_of(name),
                }));
            }
            if !called.is_empty() {
                notes.push(format!(
                    "The trace holds no tool definitions (gen_ai.tool.definitions or llm.request.functions): the scenario's tools ({}) have no description and accept any arguments.",
                    called.join(", ")
                ));
            }
        }
    }
    let turns = responses.len();
    let mut scenario = json!({
        "name": name,
        "description": format!("A run read from OpenTelemetry spans ({model}): its tools answer with the results the trace recorded, and the scripted model plays its {turns} turns."),
        "task": task,
        "tools": tools,
        // Room for every imported turn and a few more, so a replay is not
        // cut short by the default limit and a fork can continue.
        "limits": {"max_turns": (turns + 5).max(10)},
        "model": {"type": "scripted", "responses": responses},
    });
    if let Some(system) = system {
        scenario["system"] = Value::from(system);
    }
    match Scenario::load(&scenario.to_string()) {
        Ok(scenario) => Some(scenario),
        Err(problems) => {
            let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
            notes.push(format!(
                "No scenario: what the trace holds does not make one ({}), so the record cannot be replayed or forked.",
                lines.join("; ")
            ));
            None
        }
    }
}

/// One recorded turn as a scripted response, ids kept so a fork's history
/// matches the record's.
fn scripted(content: &[ContentBlock], stop_reason: &str) -> Value {
    let mut response = Map::new();
    let text: Vec<&str> = content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    if !text.is_empty() {
        response.insert("text".into(), Value::from(text.join("\n")));
    }
    if let Some(thinking) = content.iter().find_map(|b| match b {
        ContentBlock::Thinking { thinking, .. } => Some(thinking.clone()),
        _ => None,
    }) {
        response.insert("thinking".into(), Value::from(thinking));
    }
    let calls: Vec<Value> = content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::ToolUse(call) => Some(json!({
                "id": call.id,
                "name": call.name,
                "args": call.input,
            })),
            _ => None,
        })
        .collect();
    if !calls.is_empty() {
        response.insert("tool_calls".into(), Value::Array(calls));
    }
    response.insert("stop_reason".into(), Value::from(stop_reason));
    Value::Object(response)
}

fn text_attr(span: &Value, key: &str) -> Option<String> {
    attribute(span, key).and_then(|v| v.as_str().map(str::to_string))
}

/// `gen_ai.system_instructions` (parts as JSON text, or plain text), else
/// the input's system (or developer) message.
fn system_prompt(span: &Value) -> Option<String> {
    if let Some(text) = text_attr(span, "gen_ai.system_instructions") {
        return Some(match serde_json::from_str::<Value>(&text) {
            Ok(Value::Array(parts)) => parts_text(&parts),
            Ok(Value::String(inner)) => inner,
            _ => text,
        })
        .filter(|s| !s.is_empty());
    }
    let input: Value = serde_json::from_str(&text_attr(span, "gen_ai.input.messages")?).ok()?;
    input
        .as_array()?
        .iter()
        .filter(|m| m["role"] == "system" || m["role"] == "developer")
        .map(|m| parts_text(m["parts"].as_array().map_or(&[], Vec::as_slice)))
        .find(|s| !s.is_empty())
}

fn parts_text(parts: &[Value]) -> String {
    parts
        .iter()
        .filter_map(|p| {
            p.get("content")
                .or_else(|| p.get("text"))
                .and_then(Value::as_str)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The tools one model call offered: `gen_ai.tool.definitions` (each
/// `{type, name, description, parameters}`, Anthropic's `input_schema`, or
/// OpenAI's `{function: {…}}`), else `llm.request.functions.N.*`.
fn definitions(span: &Value) -> Option<Vec<Definition>> {
    if let Some(list) = text_attr(span, "gen_ai.tool.definitions")
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .or_else(|| attribute(span, "gen_ai.tool.definitions").filter(Value::is_array))
    {
        let tools: Vec<Definition> = list
            .as_array()?
            .iter()
            .filter_map(|tool| {
                let tool = tool.get("function").unwrap_or(tool);
                Some(Definition {
                    name: tool.get("name")?.as_str()?.to_string(),
                    description: tool
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string(),
                    schema: schema(
                        tool.get("parameters")
                            .or_else(|| tool.get("input_schema"))
                            .or_else(|| tool.get("inputSchema")),
                    ),
                })
            })
            .collect();
        return Some(tools);
    }
    let mut tools: Vec<Definition> = Vec::new();
    for n in 0.. {
        let key = |field: &str| format!("llm.request.functions.{n}.{field}");
        let Some(name) = text_attr(span, &key("name")) else {
            break;
        };
        tools.push(Definition {
            name,
            description: text_attr(span, &key("description")).unwrap_or_default(),
            schema: schema(attribute(span, &key("parameters")).as_ref()),
        });
    }
    (!tools.is_empty()).then_some(tools)
}

/// A schema as written (an object, or JSON text); absent or unreadable, any object.
fn schema(value: Option<&Value>) -> Value {
    let parsed = match value {
        Some(Value::String(text)) => serde_json::from_str(text).ok(),
        Some(other) => Some(other.clone()),
        None => None,
    };
    parsed
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({"type": "object"}))
}
