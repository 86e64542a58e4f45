//! Message content as older GenAI instrumentations recorded it, read into
//! the attributes the current conventions use (`gen_ai.input.messages`,
//! `gen_ai.output.messages`, as JSON text in the "parts" shape), so the
//! import reads one shape. Each form is on the chat span itself:
//! - span events `gen_ai.system.message`, `gen_ai.user.message`,
//!   `gen_ai.assistant.message`, `gen_ai.tool.message` (the input, in
//!   order) and `gen_ai.choice` (the output), their fields as attributes
//!   (`content`, `tool_calls`, `id`, `message`, `finish_reason`);
//! - span events `gen_ai.content.prompt` / `gen_ai.content.completion`
//!   holding `gen_ai.prompt` / `gen_ai.completion` as JSON text;
//! - indexed attributes `gen_ai.prompt.N.role|content|tool_call_id` and
//!   `gen_ai.completion.N.role|content|finish_reason|tool_calls.M.id|name|arguments`
//!   (OpenLLMetry and the tools that read it).
//!
//! Messages in these forms are OpenAI-chat shaped (`role`, `content`,
//! `tool_calls[].function`, `tool_call_id`). The same events written as log
//! records (`resourceLogs` in the same file) are first put on their spans
//! (`attach_log_events`).

use serde_json::{json, Map, Value};

use super::attributes::{any_value, attribute};

/// The GenAI event log records of `document` (`resourceLogs`), each put on
/// the span it names (`spanId`) as a span event: its name from `eventName`
/// or the `event.name` attribute, its fields from the body (a key-value
/// list), as instrumentations that write events as logs record them.
pub fn attach_log_events(document: &Value, spans: &mut [Value]) {
    let list = |v: &Value, key: &str| {
        v.get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    for resource in list(document, "resourceLogs") {
        for scope in list(&resource, "scopeLogs") {
            for log in list(&scope, "logRecords") {
                let name = log
                    .get("eventName")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .or_else(|| {
                        attribute(&log, "event.name").and_then(|v| v.as_str().map(str::to_string))
                    });
                let Some(name) = name.filter(|n| n.starts_with("gen_ai.")) else {
                    continue;
                };
                let Some(span) = spans
                    .iter_mut()
                    .find(|s| s["spanId"] == log["spanId"] && s["traceId"] == log["traceId"])
                else {
                    continue;
                };
                let attributes = log["body"]["kvlistValue"]["values"].clone();
                let event = json!({
                    "name": name,
                    "timeUnixNano": log.get("timeUnixNano").cloned().unwrap_or(Value::Null),
                    "attributes": if attributes.is_array() { attributes } else { json!([]) },
                });
                if let Some(events) = span
                    .as_object_mut()
                    .map(|o| o.entry("events").or_insert_with(|| json!([])))
                    .and_then(Value::as_array_mut)
                {
                    events.push(event);
                }
            }
        }
    }
}

/// The span with `gen_ai.input.messages` / `gen_ai.output.messages` added
/// from an older form, when it lacks them and has one; and whether it did.
pub fn upgrade(span: &Value) -> Option<Value> {
    let has = |key: &str| attribute(span, key).is_some();
    let (input, output) = (
        (!has("gen_ai.input.messages"))
            .then(|| {
                from_events_input(span)
                    .or_else(|| from_prompt_event(span))
                    .or_else(|| from_indexed(span, "gen_ai.prompt"))
            })
            .flatten(),
        (!has("gen_ai.output.messages"))
            .then(|| {
                from_events_output(span)
                    .or_else(|| from_completion_event(span))
                    .or_else(|| from_indexed(span, "gen_ai.completion"))
            })
            .flatten(),
    );
    if input.is_none() && output.is_none() {
        return None;
    }
    let mut upgraded = span.clone();
    let attributes = upgraded
        .as_object_mut()?
        .entry("attributes")
        .or_insert_with(|| json!([]));
    let list = attributes.as_array_mut()?;
    for (key, messages) in [
        ("gen_ai.input.messages", input),
        ("gen_ai.output.messages", output),
    ] {
        if let Some(messages) = messages {
            list.push(
                json!({"key": key, "value": {"stringValue": Value::Array(messages).to_string()}}),
            );
        }
    }
    Some(upgraded)
}

fn events(span: &Value) -> impl Iterator<Item = &Value> {
    span.get("events")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// An event's attributes as one JSON object (values plain; JSON text kept as text).
fn fields(event: &Value) -> Map<String, Value> {
    let mut out = Map::new();
    for a in event
        .get("attributes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let (Some(key), Some(value)) = (a["key"].as_str(), any_value(&a["value"])) {
            out.insert(key.to_string(), value);
        }
    }
    out
}

/// A value that may be JSON written as text.
pub(super) fn parsed(value: &Value) -> Value {
    match value {
        Value::String(text) => serde_json::from_str(text).unwrap_or_else(|_| value.clone()),
        other => other.clone(),
    }
}

fn from_events_input(span: &Value) -> Option<Vec<Value>> {
    let messages: Vec<Value> = events(span)
        .filter_map(|event| {
            let role = match event["name"].as_str()? {
                "gen_ai.system.message" => "system",
                "gen_ai.user.message" => "user",
                "gen_ai.assistant.message" => "assistant",
                "gen_ai.tool.message" => "tool",
                _ => return None,
            };
            let f = fields(event);
            let mut message = json!({"role": role});
            for key in ["content", "tool_calls"] {
                if let Some(v) = f.get(key) {
                    message[key] = parsed(v);
                }
            }
            if let Some(id) = f.get("id").or_else(|| f.get("tool_call_id")) {
                message["tool_call_id"] = id.clone();
            }
            Some(parts_message(&message))
        })
        .collect();
    (!messages.is_empty()).then_some(messages)
}

fn from_events_output(span: &Value) -> Option<Vec<Value>> {
    let messages: Vec<Value> = events(span)
        .filter(|event| event["name"] == "gen_ai.choice")
        .map(|event| {
            let f = fields(event);
            let mut message = f.get("message").map(parsed).unwrap_or_else(|| json!({}));
            for key in ["content", "tool_calls"] {
                if let (Some(v), true) = (f.get(key), message.get(key).is_none()) {
                    message[key] = parsed(v);
                }
            }
            message["role"] = json!("assistant");
            let mut out = parts_message(&message);
            if let Some(reason) = f.get("finish_reason") {
                out["finish_reason"] = reason.clone();
            }
            out
        })
        .collect();
    (!messages.is_empty()).then_some(messages)
}

fn json_event_attribute(span: &Value, event_name: &str, key: &str) -> Option<Vec<Value>> {
    let event = events(span).find(|e| e["name"] == event_name)?;
    let value = parsed(fields(event).get(key)?);
    let list = value.as_array()?;
    Some(list.iter().map(parts_message).collect())
}

fn from_prompt_event(span: &Value) -> Option<Vec<Value>> {
    json_event_attribute(span, "gen_ai.content.prompt", "gen_ai.prompt")
}

fn from_completion_event(span: &Value) -> Option<Vec<Value>> {
    // Completions are choices ({message, finish_reason}) or bare messages.
    let event = events(span).find(|e| e["name"] == "gen_ai.content.completion")?;
    let value = parsed(fields(event).get("gen_ai.completion")?);
    let list = value.as_array()?;
    Some(
        list.iter()
            .map(|choice| {
                let message = choice
                    .get("message")
                    .cloned()
                    .unwrap_or_else(|| choice.clone());
                let mut out = parts_message(&json!({
                    "role": "assistant",
                    "content": message.get("content").cloned().unwrap_or(Value::Null),
                    "tool_calls": message.get("tool_calls").cloned().unwrap_or(Value::Null),
                }));
                if let Some(reason) = choice.get("finish_reason") {
                    out["finish_reason"] = reason.clone();
                }
                out
            })
            .collect(),
    )
}

/// `prefix.N.field` attributes (and `prefix.N.tool_calls.M.field`) as messages.
fn from_indexed(span: &Value, prefix: &str) -> Option<Vec<Value>> {
    let mut messages: Vec<Value> = Vec::new();
    for a in span
        .get("attributes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(rest) = a["key"]
            .as_str()
            .and_then(|k| k.strip_prefix(prefix))
            .and_then(|k| k.strip_prefix('.'))
        else {
            continue;
        };
        let mut path = rest.split('.');
        let Some(n) = path.next().and_then(|n| n.parse::<usize>().ok()) else {
            continue;
        };
        let Some(value) = any_value(&a["value"]) else {
            continue;
        };
        if messages.len() <= n {
            messages.resize(n + 1, json!({}));
        }
        let message = &mut messages[n];
        match (path.next(), path.next(), path.next()) {
            (Some(field), None, None) => message[field] = value,
            (Some("tool_calls"), Some(m), Some(field)) => {
                let Ok(m) = m.parse::<usize>() else { continue };
                if !message["tool_calls"].is_array() {
                    message["tool_calls"] = json!([]);
                }
                let calls = message["tool_calls"].as_array_mut()?;
                if calls.len() <= m {
                    calls.resize(m + 1, json!({"function": {}}));
                }
                match field {
                    "id" => calls[m]["id"] = value,
                    other => calls[m]["function"][other] = value,
                }
            }
            _ => {}
        }
    }
    if messages.is_empty() {
        return None;
    }
    let completion = prefix.ends_with("completion");
    Some(
        messages
            .iter()
            .map(|m| {
                let mut m = m.clone();
                if completion && m.get("role").is_none() {
                    m["role"] = json!("assistant");
                }
                let mut out = parts_message(&m);
                if let Some(reason) = m.get("finish_reason") {
                    out["finish_reason"] = reason.clone();
                }
                out
            })
            .collect(),
    )
}

/// An OpenAI-chat shaped message in the conventions' "parts" shape.
pub(super) fn parts_message(message: &Value) -> Value {
    let role = message["role"].as_str().unwrap_or("user");
    let mut parts = Vec::new();
    if role == "tool" {
        parts.push(json!({
            "type": "tool_call_response",
            "id": message.get("tool_call_id").or_else(|| message.get("id")).cloned().unwrap_or(Value::Null),
            "response": message.get("content").cloned().unwrap_or(Value::Null),
        }));
        return json!({"role": role, "parts": parts});
    }
    match &message["content"] {
        Value::String(text) if !text.is_empty() => {
            parts.push(json!({"type": "text", "content": text}))
        }
        Value::Array(blocks) => {
            for block in blocks {
                if let Some(text) = block.get("text").and_then(Value::as_str) {
                    parts.push(json!({"type": "text", "content": text}));
                }
            }
        }
        _ => {}
    }
    for call in message["tool_calls"].as_array().into_iter().flatten() {
        let function = call.get("function").unwrap_or(call);
        parts.push(json!({
            "type": "tool_call",
            "id": call.get("id").cloned().unwrap_or(Value::Null),
            "name": function.get("name").cloned().unwrap_or(Value::Null),
            "arguments": function.get("arguments").map(parsed).unwrap_or_else(|| json!({})),
        }));
    }
    json!({"role": role, "parts": parts})
}
