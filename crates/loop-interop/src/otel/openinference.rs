//! Spans in the OpenInference conventions (Arize Phoenix's, written by the
//! `openinference-instrumentation-*` packages), read into the GenAI
//! attributes the import reads, as `legacy` does for older GenAI forms.
//! The conventions: <https://github.com/Arize-ai/openinference/blob/main/spec/semantic_conventions.md>.
//!
//! A span says its kind in `openinference.span.kind`:
//! - `LLM`, a model call, becomes a `chat` span: its messages from
//!   `llm.input_messages.N.message.*` / `llm.output_messages.N.message.*`
//!   (role, content, contents, tool_call_id, tool_calls), else from the
//!   request and response bodies in `input.value` / `output.value` (when
//!   their mime type is JSON: a Chat Completions body); its tools from
//!   `llm.tools.N.tool.json_schema`, else the body's `tools`; the model from
//!   `llm.model_name`; tokens from `llm.token_count.prompt|completion`; the
//!   finish reason from `llm.finish_reason` or the response body;
//! - `TOOL` becomes an `execute_tool` span: `tool.name`, its arguments
//!   `input.value`, its result `output.value`, its call id `tool_call.id`
//!   when the instrumentation writes one;
//! - `AGENT` becomes an `invoke_agent` span named by `agent.name`, else by
//!   the span's name.
//!
//! Spans of the other kinds (CHAIN, RETRIEVER, EMBEDDING, …) are left out,
//! and the notes count them by kind and name every attribute family of the
//! spans read that the import does not read.

use serde_json::{json, Value};

use super::attributes::{any_value, attribute};
use super::legacy::{parsed, parts_message};

const KIND: &str = "openinference.span.kind";

/// What reading a trace's OpenInference spans did: how many spans were
/// read, and the notes that say what was not.
pub struct Read {
    pub spans: usize,
    pub notes: Vec<String>,
}

/// `spans` with each OpenInference model call, tool call and agent given
/// the GenAI attributes it lacks; spans that already carry
/// `gen_ai.operation.name` are left as they are.
pub fn read(spans: &mut [Value]) -> Read {
    let mut tally = Tally::default();
    let the_agent = the_agent(spans);
    // Model calls that list no tools (the OpenAI Agents SDK's
    // instrumentation writes none) offer those their TOOL spans define.
    let defined_by_tool_spans = (!spans
        .iter()
        .any(|s| kind(s).as_deref() == Some("LLM") && offers_tools(s)))
    .then(|| tool_span_definitions(spans))
    .flatten();
    for (index, span) in spans.iter_mut().enumerate() {
        let Some(kind) = kind(span) else { continue };
        if attribute(span, "gen_ai.operation.name").is_some() {
            continue;
        }
        let added = match kind.as_str() {
            "LLM" => {
                let mut added = model_call(span);
                if let Some(tools) = &defined_by_tool_spans {
                    added.push(("gen_ai.tool.definitions", tools.to_string().into()));
                }
                added
            }
            "TOOL" => tool_call(span),
            "AGENT" if Some(index) == the_agent => agent(span),
            "AGENT" => {
                tally.leave_out("AGENT (beyond the one read)".to_string());
                continue;
            }
            _ => {
                tally.leave_out(kind);
                continue;
            }
        };
        tally.unread_of(span, defined_by_tool_spans.is_some());
        add_attributes(span, added);
        tally.read += 1;
    }
    let mut notes = tally.notes();
    if let Some(tools) = &defined_by_tool_spans {
        let names: Vec<&str> = tools
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t["name"].as_str())
            .collect();
        notes.push(format!(
            "The model calls list no tools (no llm.tools): the tools' definitions ({}) were read from their TOOL spans (tool.description, tool.parameters), so a tool the run offered but never called is not among them.",
            names.join(", ")
        ));
    }
    Read {
        spans: tally.read,
        notes,
    }
}

/// What reading the spans counted, for the notes.
#[derive(Default)]
struct Tally {
    read: usize,
    /// Spans not read, by kind.
    left_out: Vec<(String, usize)>,
    /// Attribute families not read, in words.
    unread: Vec<&'static str>,
    /// Attributes of no known family, not read.
    unread_keys: Vec<String>,
    /// Keys of `llm.invocation_parameters` not read.
    unread_parameters: Vec<String>,
}

impl Tally {
    fn leave_out(&mut self, kind: String) {
        match self.left_out.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => self.left_out.push((kind, 1)),
        }
    }

    /// Counts what of `span` the import does not read.
    fn unread_of(&mut self, span: &Value, tool_spans_define_tools: bool) {
        for parameter in unread_parameters(span) {
            if !self.unread_parameters.contains(&parameter) {
                self.unread_parameters.push(parameter);
            }
        }
        for key in attribute_keys(span) {
            match family(&key, tool_spans_define_tools) {
                Family::Read => {}
                Family::Named(words) if !self.unread.contains(&words) => self.unread.push(words),
                Family::Named(_) => {}
                Family::Other if !self.unread_keys.contains(&key) => self.unread_keys.push(key),
                Family::Other => {}
            }
        }
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        let read = self.read;
        if read > 0 {
            notes.push(format!(
                "{read} span{} read from the OpenInference conventions (Arize Phoenix's openinference.span.kind LLM, TOOL and AGENT spans) as model calls, tool calls and the agent.",
                if read == 1 { " was" } else { "s were" }
            ));
        }
        let mut families: Vec<String> = self.unread.iter().map(|w| w.to_string()).collect();
        if !self.unread_parameters.is_empty() {
            families.push(format!(
                "request parameters other than the model and max tokens (llm.invocation_parameters: {})",
                self.unread_parameters.join(", ")
            ));
        }
        if !self.unread_keys.is_empty() {
            families.push(format!(
                "other attributes ({})",
                self.unread_keys.join(", ")
            ));
        }
        if !families.is_empty() {
            notes.push(format!(
                "Not read from the OpenInference spans: {}.",
                families.join("; ")
            ));
        }
        let total: usize = self.left_out.iter().map(|(_, n)| n).sum();
        if total > 0 {
            let listed: Vec<String> = self
                .left_out
                .iter()
                .map(|(k, n)| format!("{n} {k}"))
                .collect();
            notes.push(format!(
                "{total} OpenInference span{} neither a model call, a tool call nor the agent, so {} left out (by openinference.span.kind: {}).",
                if total == 1 { " is" } else { "s are" },
                if total == 1 { "it was" } else { "they were" },
                listed.join(", ")
            ));
        }
        notes
    }
}

/// The AGENT span read as the run's agent: the first that names its agent
/// (`agent.name`; an SDK's workflow span around it may not), else the
/// first. The others are left out, as the import reads one agent.
fn the_agent(spans: &[Value]) -> Option<usize> {
    let agents: Vec<usize> = (0..spans.len())
        .filter(|&i| {
            kind(&spans[i]).as_deref() == Some("AGENT")
                && attribute(&spans[i], "gen_ai.operation.name").is_none()
        })
        .collect();
    agents
        .iter()
        .copied()
        .find(|&i| text(&spans[i], "agent.name").is_some())
        .or(agents.first().copied())
}

/// The tools the TOOL spans define (`tool.name`, `tool.description`,
/// `tool.parameters`), each once, as Chat Completions declares a tool.
fn tool_span_definitions(spans: &[Value]) -> Option<Value> {
    let mut tools: Vec<Value> = Vec::new();
    for span in spans.iter().filter(|s| kind(s).as_deref() == Some("TOOL")) {
        let Some(name) = text(span, "tool.name") else {
            continue;
        };
        if tools.iter().any(|t| t["name"] == name.as_str()) {
            continue;
        }
        let mut tool = json!({"name": name});
        if let Some(description) = text(span, "tool.description") {
            tool["description"] = Value::from(description);
        }
        if let Some(parameters) = attribute(span, "tool.parameters") {
            tool["parameters"] = parsed(&parameters);
        }
        tools.push(tool);
    }
    (!tools.is_empty()).then_some(Value::Array(tools))
}

/// The keys of `llm.invocation_parameters` the import does not read (it
/// reads the model and the max tokens).
fn unread_parameters(span: &Value) -> Vec<String> {
    text(span, "llm.invocation_parameters")
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|p| p.as_object().cloned())
        .into_iter()
        .flatten()
        .map(|(key, _)| key)
        .filter(|key| !MAX_TOKENS.contains(&key.as_str()) && key != "model")
        .collect()
}

/// Where a request's max output tokens are, by API.
const MAX_TOKENS: [&str; 3] = ["max_tokens", "max_completion_tokens", "max_output_tokens"];

fn kind(span: &Value) -> Option<String> {
    attribute(span, KIND)
        .and_then(|v| v.as_str().map(str::to_ascii_uppercase))
        .filter(|k| !k.is_empty())
}

fn text(span: &Value, key: &str) -> Option<String> {
    attribute(span, key).and_then(|v| v.as_str().map(str::to_string))
}

/// `input.value` or `output.value` as JSON, when its mime type says it is.
fn json_body(span: &Value, side: &str) -> Option<Value> {
    if text(span, &format!("{side}.mime_type")).as_deref() != Some("application/json") {
        return None;
    }
    serde_json::from_str(&text(span, &format!("{side}.value"))?).ok()
}

/// Whether a model call lists the tools it offered (`llm.tools`, or the
/// request body's `tools`).
fn offers_tools(span: &Value) -> bool {
    attribute_keys(span)
        .iter()
        .any(|k| k.starts_with("llm.tools."))
        || json_body(span, "input").is_some_and(|b| b.get("tools").is_some_and(Value::is_array))
}

fn attribute_keys(span: &Value) -> Vec<String> {
    span.get("attributes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|a| a["key"].as_str().map(str::to_string))
        .collect()
}

fn add_attributes(span: &mut Value, added: Vec<(&str, Value)>) {
    let Some(object) = span.as_object_mut() else {
        return;
    };
    let attributes = object.entry("attributes").or_insert_with(|| json!([]));
    let Some(list) = attributes.as_array_mut() else {
        return;
    };
    for (key, value) in added {
        let value = match value {
            Value::String(text) => json!({"stringValue": text}),
            Value::Number(n) if n.is_u64() || n.is_i64() => json!({"intValue": n.to_string()}),
            // The finish reasons: an array of strings, as the conventions write them.
            Value::Array(items) => json!({"arrayValue": {"values": items
                .iter()
                .map(|item| json!({"stringValue": item.as_str().unwrap_or_default()}))
                .collect::<Vec<_>>()}}),
            other => json!({"stringValue": other.to_string()}),
        };
        list.push(json!({"key": key, "value": value}));
    }
}

/// An LLM span's GenAI attributes.
fn model_call(span: &Value) -> Vec<(&'static str, Value)> {
    let request = json_body(span, "input");
    let response = json_body(span, "output");
    let mut added = vec![("gen_ai.operation.name", json!("chat"))];
    let model = text(span, "llm.model_name")
        .or_else(|| request.as_ref()?["model"].as_str().map(str::to_string));
    if let Some(model) = model {
        added.push(("gen_ai.request.model", Value::from(model)));
    }
    for (from, to) in [
        ("llm.token_count.prompt", "gen_ai.usage.input_tokens"),
        ("llm.token_count.completion", "gen_ai.usage.output_tokens"),
    ] {
        if let Some(n) = attribute(span, from).filter(Value::is_number) {
            added.push((to, n));
        }
    }
    let parameters = text(span, "llm.invocation_parameters")
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .or_else(|| request.clone());
    if let Some(max) = parameters
        .as_ref()
        .and_then(|p| MAX_TOKENS.iter().find_map(|k| p[*k].as_u64()))
    {
        added.push(("gen_ai.request.max_tokens", Value::from(max)));
    }
    let input = indexed_messages(span, "llm.input_messages")
        .or_else(|| request.as_ref().and_then(request_messages));
    if let Some(input) = input {
        let parts: Vec<Value> = input.iter().map(parts_message).collect();
        added.push((
            "gen_ai.input.messages",
            Value::Array(parts).to_string().into(),
        ));
    }
    let choice = response.as_ref().and_then(|r| r["choices"].get(0).cloned());
    let finish = text(span, "llm.finish_reason")
        .or_else(|| {
            choice.as_ref()?["finish_reason"]
                .as_str()
                .map(str::to_string)
        })
        .filter(|f| !f.is_empty());
    let output = indexed_messages(span, "llm.output_messages")
        .or_else(|| Some(vec![choice.as_ref()?.get("message")?.clone()]))
        // The output messages themselves, as the OpenAI Agents SDK's
        // instrumentation writes them.
        .or_else(|| response.as_ref()?.as_array().cloned());
    if let Some(output) = output {
        let parts: Vec<Value> = output
            .iter()
            .map(|m| {
                let mut m = m.clone();
                if m.get("role").is_none() {
                    m["role"] = json!("assistant");
                }
                parts_message(&m)
            })
            .collect();
        added.push((
            "gen_ai.output.messages",
            Value::Array(parts).to_string().into(),
        ));
    }
    if let Some(finish) = finish {
        added.push(("gen_ai.response.finish_reasons", json!([finish])));
    }
    // The response's id lets the import see this call and another
    // instrumentation's span of it as one call.
    if let Some(id) = response.as_ref().and_then(|r| r["id"].as_str()) {
        added.push(("gen_ai.response.id", Value::from(id)));
    }
    let tools = indexed_tools(span).or_else(|| {
        request
            .as_ref()?
            .get("tools")
            .and_then(Value::as_array)
            .cloned()
    });
    if let Some(tools) = tools {
        added.push((
            "gen_ai.tool.definitions",
            Value::Array(tools).to_string().into(),
        ));
    }
    added
}

/// A TOOL span's GenAI attributes.
fn tool_call(span: &Value) -> Vec<(&'static str, Value)> {
    let name = text(span, "tool.name")
        .or_else(|| span["name"].as_str().map(str::to_string))
        .unwrap_or_default();
    let mut added = vec![
        ("gen_ai.operation.name", json!("execute_tool")),
        ("gen_ai.tool.name", Value::from(name)),
    ];
    if let Some(id) = text(span, "tool_call.id") {
        added.push(("gen_ai.tool.call.id", Value::from(id)));
    }
    let arguments =
        text(span, "input.value").or_else(|| text(span, "tool_call.function.arguments"));
    if let Some(arguments) = arguments {
        added.push(("gen_ai.tool.call.arguments", Value::from(arguments)));
    }
    if let Some(result) = text(span, "output.value") {
        added.push(("gen_ai.tool.call.result", Value::from(result)));
    }
    added
}

/// An AGENT span's GenAI attributes.
fn agent(span: &Value) -> Vec<(&'static str, Value)> {
    let mut added = vec![("gen_ai.operation.name", json!("invoke_agent"))];
    if let Some(name) =
        text(span, "agent.name").or_else(|| span["name"].as_str().map(str::to_string))
    {
        added.push(("gen_ai.agent.name", Value::from(name)));
    }
    added
}

/// `prefix.N.message.*` attributes as OpenAI-chat shaped messages (`role`,
/// `content` as text or text blocks, `tool_call_id`, `tool_calls`).
fn indexed_messages(span: &Value, prefix: &str) -> Option<Vec<Value>> {
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
        let Some((n, field)) = rest.split_once(".message.") else {
            continue;
        };
        let (Ok(n), Some(value)) = (n.parse::<usize>(), any_value(&a["value"])) else {
            continue;
        };
        if messages.len() <= n {
            messages.resize(n + 1, json!({}));
        }
        let message = &mut messages[n];
        let path: Vec<&str> = field.split('.').collect();
        match path.as_slice() {
            ["role"] | ["content"] | ["tool_call_id"] => message[path[0]] = value,
            ["tool_calls", m, "tool_call", rest @ ..] => {
                let Ok(m) = m.parse::<usize>() else { continue };
                let call = nth(message, "tool_calls", m, json!({"function": {}}));
                match rest {
                    ["id"] => call["id"] = value,
                    ["function", "name"] => call["function"]["name"] = value,
                    ["function", "arguments"] => call["function"]["arguments"] = value,
                    _ => {}
                }
            }
            ["contents", m, "message_content", "text"] => {
                let Ok(m) = m.parse::<usize>() else { continue };
                nth(message, "contents", m, json!({}))["text"] = value;
            }
            _ => {}
        }
    }
    if messages.is_empty() {
        return None;
    }
    for message in &mut messages {
        // Text given as content parts, when there is no plain content.
        if let Some(contents) = message.as_object_mut().and_then(|m| m.remove("contents")) {
            if message.get("content").is_none() {
                message["content"] = contents;
            }
        }
    }
    Some(messages)
}

/// The `m`th item of the array at `message[key]`, made as `empty` if absent.
fn nth<'a>(message: &'a mut Value, key: &str, m: usize, empty: Value) -> &'a mut Value {
    if !message[key].is_array() {
        message[key] = json!([]);
    }
    let list = message[key].as_array_mut().expect("just made an array");
    if list.len() <= m {
        list.resize(m + 1, empty);
    }
    &mut list[m]
}

/// The messages of a Chat Completions request body (with an Anthropic-style
/// top-level `system` put first), or the messages themselves (the OpenAI
/// Agents SDK's instrumentation writes the input so).
fn request_messages(body: &Value) -> Option<Vec<Value>> {
    if let Some(messages) = body.as_array() {
        return Some(messages.clone());
    }
    let mut messages = body.get("messages")?.as_array()?.clone();
    if let Some(system) = body.get("system").and_then(Value::as_str) {
        messages.insert(0, json!({"role": "system", "content": system}));
    }
    Some(messages)
}

/// `llm.tools.N.tool.json_schema` (each a tool as the request declared it,
/// as JSON text), in order.
fn indexed_tools(span: &Value) -> Option<Vec<Value>> {
    let mut tools = Vec::new();
    for n in 0.. {
        let Some(schema) = attribute(span, &format!("llm.tools.{n}.tool.json_schema")) else {
            break;
        };
        tools.push(parsed(&schema));
    }
    (!tools.is_empty()).then_some(tools)
}

/// Whether the import reads an attribute, and if not, its family in words.
enum Family {
    Read,
    Named(&'static str),
    Other,
}

fn family(key: &str, tool_spans_define_tools: bool) -> Family {
    const READ: [&str; 15] = [
        KIND,
        // Its unread keys are named one by one (`unread_parameters`).
        "llm.invocation_parameters",
        "input.value",
        "input.mime_type",
        "output.value",
        "output.mime_type",
        "llm.model_name",
        "llm.token_count.prompt",
        "llm.token_count.completion",
        "llm.token_count.total",
        "llm.finish_reason",
        "tool.name",
        "tool_call.id",
        "tool_call.function.arguments",
        "agent.name",
    ];
    if READ.contains(&key) || key.starts_with("gen_ai.") || key.starts_with("llm.tools.") {
        return Family::Read;
    }
    if let Some(field) = key
        .strip_prefix("llm.input_messages.")
        .or_else(|| key.strip_prefix("llm.output_messages."))
        .and_then(|rest| rest.split_once(".message.").map(|(_, f)| f))
    {
        let read = ["role", "content", "tool_call_id"].contains(&field)
            || (field.starts_with("tool_calls.") && field.contains(".tool_call."))
            || (field.starts_with("contents.")
                && (field.ends_with(".message_content.text")
                    || field.ends_with(".message_content.type")));
        return if read {
            Family::Read
        } else if field.contains("image") {
            Family::Named("images in messages (message_content.image)")
        } else {
            Family::Named("other message fields (such as a message's name)")
        };
    }
    const NAMED: [(&str, &str); 12] = [
        (
            "llm.token_count.prompt_details.",
            "cached and audio input token counts (llm.token_count.prompt_details)",
        ),
        (
            "llm.token_count.completion_details.",
            "reasoning and audio output token counts (llm.token_count.completion_details)",
        ),
        ("llm.cost.", "costs (llm.cost)"),
        (
            "llm.prompt_template.",
            "prompt templates (llm.prompt_template)",
        ),
        ("llm.system", "the provider (llm.system)"),
        ("llm.provider", "the provider (llm.provider)"),
        ("session.id", "session and user ids (session.id, user.id)"),
        ("user.id", "session and user ids (session.id, user.id)"),
        ("metadata", "metadata"),
        ("tag.tags", "tags (tag.tags)"),
        ("graph.node.", "agent graph nodes (graph.node)"),
        (
            "llm.function_call",
            "function calls in the older form (llm.function_call)",
        ),
    ];
    if let Some((_, words)) = NAMED.iter().find(|(prefix, _)| key.starts_with(prefix)) {
        return Family::Named(words);
    }
    if key == "tool.description" || key == "tool.parameters" {
        return if tool_spans_define_tools {
            Family::Read
        } else {
            Family::Named("the tools' definitions on their TOOL spans (tool.description, tool.parameters), as the model calls' own list of tools (llm.tools) was read")
        };
    }
    Family::Other
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(kind: &str, attributes: &[(&str, Value)]) -> Value {
        let mut list: Vec<Value> = vec![json!({"key": KIND, "value": {"stringValue": kind}})];
        list.extend(attributes.iter().map(|(k, v)| {
            let value = match v {
                Value::String(s) => json!({"stringValue": s}),
                other => json!({"intValue": other.to_string()}),
            };
            json!({"key": k, "value": value})
        }));
        json!({"name": "span", "attributes": list})
    }

    #[test]
    fn indexed_messages_are_read_in_the_parts_shape() {
        let mut spans = [span(
            "LLM",
            &[
                ("llm.input_messages.0.message.role", json!("user")),
                (
                    "llm.input_messages.0.message.contents.0.message_content.type",
                    json!("text"),
                ),
                (
                    "llm.input_messages.0.message.contents.0.message_content.text",
                    json!("Hi"),
                ),
                ("llm.output_messages.0.message.role", json!("assistant")),
                (
                    "llm.output_messages.0.message.tool_calls.0.tool_call.id",
                    json!("c1"),
                ),
                (
                    "llm.output_messages.0.message.tool_calls.0.tool_call.function.name",
                    json!("f"),
                ),
                (
                    "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments",
                    json!("{\"a\":1}"),
                ),
                ("llm.token_count.prompt", json!(7)),
                ("session.id", json!("s")),
                ("llm.something_new", json!("x")),
            ],
        )];
        let read = read(&mut spans);
        assert_eq!(read.spans, 1);
        let input: Value =
            serde_json::from_str(&text(&spans[0], "gen_ai.input.messages").unwrap()).unwrap();
        assert_eq!(
            input,
            json!([{"role": "user", "parts": [{"type": "text", "content": "Hi"}]}])
        );
        let output: Value =
            serde_json::from_str(&text(&spans[0], "gen_ai.output.messages").unwrap()).unwrap();
        assert_eq!(
            output[0]["parts"][0],
            json!({"type": "tool_call", "id": "c1", "name": "f", "arguments": {"a": 1}})
        );
        assert_eq!(
            attribute(&spans[0], "gen_ai.usage.input_tokens"),
            Some(json!(7))
        );
        assert!(
            read.notes.iter().any(|n| n
                == "Not read from the OpenInference spans: session and user ids (session.id, user.id); other attributes (llm.something_new)."),
            "{:?}",
            read.notes
        );
    }

    #[test]
    fn spans_of_other_kinds_are_counted_as_left_out() {
        let mut spans = [
            span("CHAIN", &[]),
            span("CHAIN", &[]),
            span("RETRIEVER", &[]),
        ];
        let read = read(&mut spans);
        assert_eq!(read.spans, 0);
        assert_eq!(
            read.notes,
            ["3 OpenInference spans are neither a model call, a tool call nor the agent, so they were left out (by openinference.span.kind: 2 CHAIN, 1 RETRIEVER)."]
        );
    }
}
