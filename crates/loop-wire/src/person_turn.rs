//! A turn a person writes in the model's place ("Answer as the model" in
//! step mode), checked before it is sent.
//!
//! Job: turn what was typed (text, optional thinking, tool calls with their
//! argument text, a stop reason) into the `ModelResponse` the run would take,
//! and say in one pass everything wrong with it: a call without an id, a tool
//! the scenario does not have, argument text that is not JSON or not an
//! object, arguments that break the tool's schema (each error with its
//! path), and every protocol rule a provider would refuse the next request
//! for, found by the offline checker (`wire::check`) on the history as it
//! would be with this turn and its results appended. The page only renders
//! this; the run itself takes a person's turn as it takes a model's (see
//! `driver::Resume`), problems and all, which is how a learner sees the
//! loop and the providers answer a broken turn.
//!
//! Also here, so the form starts from something the schema wants: a fresh
//! call id in the history's own style, the arguments' skeleton, and the
//! schema's descriptions as hints.

use std::collections::HashSet;

use loop_core::quote::quoted;
use serde_json::{Map, Value};

use crate::message::{tool_calls_of, ContentBlock, Message, Role, ToolCall, ToolResult};
use crate::model::{ModelResponse, ToolSpec, Usage};
use crate::wire::{check, Provider};

/// What the person typed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TypedTurn {
    pub text: String,
    /// Empty for none.
    pub thinking: String,
    pub calls: Vec<TypedCall>,
    pub stop_reason: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct TypedCall {
    pub id: String,
    /// The tool's name, picked from the scenario's tools.
    pub name: String,
    /// The arguments as typed, JSON expected.
    pub arguments: String,
}

/// Something wrong with a typed turn, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnProblem {
    /// `tool_calls[1].arguments/nights`, `tool_calls[0].id`, `stop_reason`.
    pub path: String,
    /// What is wrong, in plain words.
    pub message: String,
}

impl std::fmt::Display for TurnProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// A typed turn as the run would take it, and what is wrong with it.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedTurn {
    /// Built whatever the problems: a person may send a broken turn on
    /// purpose, to see what the loop and the providers do with it. Argument
    /// text that is not JSON is kept as typed (`input_raw`), as a model's
    /// would be. Its usage is left at zero: the run estimates it.
    pub response: ModelResponse,
    pub problems: Vec<TurnProblem>,
}

/// The stop reasons the form offers: the Anthropic words the scripted
/// model uses, one for each way the loop reads a stop (`StopKind`).
pub const STOP_REASONS: [&str; 5] = [
    "end_turn",
    "tool_use",
    "max_tokens",
    "refusal",
    "pause_turn",
];

/// Builds the turn and checks it against the scenario's `tools`, its
/// `system` prompt and the `history` the run holds now (every message sent
/// so far, which the turn is appended to).
pub fn check_turn(
    turn: &TypedTurn,
    system: &str,
    tools: &[ToolSpec],
    history: &[Message],
) -> CheckedTurn {
    let mut problems = Vec::new();
    let mut content = Vec::new();
    if !turn.thinking.trim().is_empty() {
        content.push(ContentBlock::Thinking {
            thinking: turn.thinking.clone(),
            signature: None,
        });
    }
    if !turn.text.is_empty() {
        content.push(ContentBlock::Text {
            text: turn.text.clone(),
        });
    }
    // Where each call lands in `content`, to place the checker's findings.
    let first_call_block = content.len();
    for (i, call) in turn.calls.iter().enumerate() {
        let (tool_call, call_problems) = typed_call(i, call, tools);
        problems.extend(call_problems);
        content.push(ContentBlock::ToolUse(tool_call));
    }
    if turn.stop_reason.trim().is_empty() {
        problems.push(TurnProblem {
            path: "stop_reason".into(),
            message: "choose a stop_reason: it tells the loop whether the turn is an answer (end_turn) or asks for tools (tool_use)".into(),
        });
    }
    problems.extend(stop_reason_problem(&turn.stop_reason, turn.calls.len()));
    let response = ModelResponse {
        content,
        stop_reason: turn.stop_reason.clone(),
        usage: Usage::default(),
    };
    problems.extend(protocol_problems(
        &response.content,
        first_call_block,
        system,
        tools,
        history,
    ));
    CheckedTurn { response, problems }
}

/// A stop reason that does not match the turn: a provider never ends a turn
/// with tool calls as a final answer, nor asks for tools without calling one.
/// (The loop runs calls whatever the stop reason, as it does for the
/// OpenAI-compatible servers that send "stop" with calls; sending it anyway
/// shows that.)
fn stop_reason_problem(stop_reason: &str, calls: usize) -> Option<TurnProblem> {
    use crate::model::StopKind;
    let kind = StopKind::classify(stop_reason.trim());
    let message = match kind {
        StopKind::EndTurn if calls > 0 => format!(
            "stop_reason {stop_reason} says the turn is a final answer, but it has {} tool call{}: a provider ends a turn that calls tools with tool_use (Anthropic), tool_calls (Chat Completions) or function_call items (Responses)",
            calls,
            if calls == 1 { "" } else { "s" }
        ),
        StopKind::ToolUse if calls == 0 => format!(
            "stop_reason {stop_reason} asks for tools, but the turn calls none: add a tool call, or end the turn with end_turn"
        ),
        _ => return None,
    };
    Some(TurnProblem {
        path: "stop_reason".into(),
        message,
    })
}

/// One call as the model would send it, and its own problems.
fn typed_call(i: usize, call: &TypedCall, tools: &[ToolSpec]) -> (ToolCall, Vec<TurnProblem>) {
    let at = format!("tool_calls[{i}]");
    let mut problems = Vec::new();
    if call.id.trim().is_empty() {
        problems.push(TurnProblem {
            path: format!("{at}.id"),
            message: "a tool call needs an id: its result names the call it answers by this id"
                .into(),
        });
    }
    let tool = tools.iter().find(|t| t.name == call.name);
    if tool.is_none() {
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        let message = if names.is_empty() {
            format!(
                "the scenario has no tool named {}: it has no tools",
                quoted(&call.name)
            )
        } else {
            format!(
                "the scenario has no tool named {}{}; its tools are: {}",
                quoted(&call.name),
                crate::suggest::did_you_mean(&call.name, names.iter().copied()),
                names.join(", ")
            )
        };
        problems.push(TurnProblem {
            path: format!("{at}.name"),
            message,
        });
    }
    let tool_call =
        ToolCall::from_raw_arguments(call.id.clone(), call.name.clone(), &call.arguments);
    let args_at = format!("{at}.arguments");
    match serde_json::from_str::<Value>(&call.arguments) {
        Err(error) => problems.push(TurnProblem {
            path: args_at,
            message: crate::scenario::syntax::describe(&error, &call.arguments),
        }),
        Ok(value) if !value.is_object() => problems.push(TurnProblem {
            path: args_at,
            message: format!(
                "the arguments must be a JSON object ({{…}}), not {}",
                kind_of(&value)
            ),
        }),
        Ok(value) => {
            if let Some(tool) = tool {
                problems.extend(schema_problems(&args_at, &tool.input_schema, &value));
            }
        }
    }
    (tool_call, problems)
}

fn schema_problems(at: &str, schema: &Value, args: &Value) -> Vec<TurnProblem> {
    let compiled = match tool_schema::Schema::compile(schema) {
        Ok(compiled) => compiled,
        // A loaded scenario's schemas compile; say so rather than guess.
        Err(errors) => {
            return errors
                .iter()
                .map(|e| TurnProblem {
                    path: at.to_string(),
                    message: format!("the tool's schema cannot be used: {e}"),
                })
                .collect()
        }
    };
    match compiled.validate(args) {
        Ok(()) => Vec::new(),
        Err(errors) => errors
            .iter()
            .map(|e| TurnProblem {
                path: format!("{at}{}", e.instance_path),
                message: e.message.clone(),
            })
            .collect(),
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// What each provider would refuse in the next request, with this turn in
/// the history and each of its calls answered as the run answers them.
/// Only findings at this turn or its results count: an earlier turn's
/// problem is not this turn's (the stop banner reports those).
fn protocol_problems(
    content: &[ContentBlock],
    first_call_block: usize,
    system: &str,
    tools: &[ToolSpec],
    history: &[Message],
) -> Vec<TurnProblem> {
    let mut messages = history.to_vec();
    let turn_at = messages.len();
    messages.push(Message {
        role: Role::Assistant,
        content: content.to_vec(),
    });
    let results: Vec<ContentBlock> = tool_calls_of(content)
        .map(|call| {
            ContentBlock::ToolResult(ToolResult {
                tool_use_id: call.id.clone(),
                content: "(the tool's result)".into(),
                is_error: false,
                media: Vec::new(),
            })
        })
        .collect();
    if !results.is_empty() {
        messages.push(Message {
            role: Role::User,
            content: results,
        });
    }
    let mut problems = Vec::new();
    for provider in Provider::ALL {
        for violation in check(provider, system, &messages, tools) {
            let Some(message) = violation.message_index.filter(|&m| m >= turn_at) else {
                continue;
            };
            let block = violation.block_index;
            let path = match (message == turn_at, block) {
                (true, Some(b)) if b >= first_call_block => {
                    format!("tool_calls[{}]", b - first_call_block)
                }
                (true, _) => "this turn".to_string(),
                (false, Some(b)) => format!("the result of tool_calls[{b}]"),
                (false, None) => "the results of this turn".to_string(),
            };
            problems.push(TurnProblem {
                path,
                message: format!(
                    "{} would refuse the next request: “{}”. {}",
                    provider.label(),
                    violation.message,
                    violation.explanation
                ),
            });
        }
    }
    problems
}

/// Every tool call id the history holds, in order.
fn ids_in(history: &[Message]) -> Vec<&str> {
    history
        .iter()
        .flat_map(|m| tool_calls_of(&m.content))
        .map(|c| c.id.as_str())
        .collect()
}

/// A call id no call in `history` or in `taken` (the form's other calls)
/// has, in the history's style: the prefix of its last id (`toolu_`,
/// `call_`), or `toolu_` as the scripted model writes them. The `by_you`
/// in it keeps it apart from the ids a script numbers itself, so a later
/// scripted turn cannot reuse it by accident; a learner may still edit it
/// into a duplicate, which the check then reports.
pub fn fresh_call_id(history: &[Message], taken: &[String]) -> String {
    let ids = ids_in(history);
    let prefix = ids
        .last()
        .and_then(|id| id.rfind('_').map(|at| &id[..=at]))
        .unwrap_or("toolu_");
    let used: HashSet<&str> = ids
        .iter()
        .copied()
        .chain(taken.iter().map(String::as_str))
        .collect();
    (1..)
        .map(|n| format!("{prefix}by_you_{n}"))
        .find(|id| !used.contains(id.as_str()))
        .unwrap_or_default()
}

/// Arguments to start from: each required property with a value the schema
/// suggests (its `default`, first `enum` or `examples` value, `const`), else
/// an empty value of its type, so the person sees the names it wants.
pub fn arguments_skeleton(schema: &Value) -> String {
    let mut args = Map::new();
    let properties = &schema["properties"];
    for name in schema["required"].as_array().into_iter().flatten() {
        let Some(name) = name.as_str() else { continue };
        args.insert(name.to_string(), placeholder(&properties[name]));
    }
    serde_json::to_string_pretty(&Value::Object(args)).unwrap_or_else(|_| "{}".into())
}

fn placeholder(property: &Value) -> Value {
    let suggested = property
        .get("default")
        .or_else(|| property.get("const"))
        .or_else(|| property["enum"].get(0))
        .or_else(|| property["examples"].get(0));
    if let Some(value) = suggested {
        return value.clone();
    }
    match property["type"].as_str() {
        Some("integer" | "number") => Value::from(0),
        Some("boolean") => Value::Bool(false),
        Some("array") => Value::Array(Vec::new()),
        Some("object") => Value::Object(Map::new()),
        _ => Value::from(""),
    }
}

/// One hint per property of the tool's schema: its name, type, whether it
/// is required, and its description.
pub fn argument_hints(schema: &Value) -> Vec<String> {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let Some(properties) = schema["properties"].as_object() else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|(name, property)| {
            let kind = match &property["type"] {
                Value::String(t) => t.clone(),
                Value::Array(types) => types
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(" or "),
                _ => "any".to_string(),
            };
            let need = if required.contains(&name.as_str()) {
                "required"
            } else {
                "optional"
            };
            let mut hint = format!("{name} ({kind}, {need})");
            if let Some(values) = property["enum"].as_array() {
                let listed: Vec<String> = values.iter().map(Value::to_string).collect();
                hint.push_str(&format!(", one of {}", listed.join(", ")));
            }
            if let Some(description) = property["description"].as_str() {
                hint.push_str(": ");
                hint.push_str(description);
            }
            hint
        })
        .collect()
}

/// The result a person typed in a tool's place, as the run takes it: an
/// error's text as the error, else JSON when it parses (an object, a
/// number) and the text as it is when not.
pub fn typed_tool_result(text: &str, is_error: bool) -> Result<Value, String> {
    if is_error {
        return Err(text.to_string());
    }
    Ok(serde_json::from_str::<Value>(text).unwrap_or_else(|_| Value::String(text.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_fresh_id_keeps_the_history_prefix_and_avoids_every_id_in_use() {
        let history = vec![Message {
            role: Role::Assistant,
            content: vec![ContentBlock::ToolUse(ToolCall {
                id: "call_0001".into(),
                name: "t".into(),
                input: json!({}),
                input_raw: None,
            })],
        }];
        assert_eq!(fresh_call_id(&history, &[]), "call_by_you_1");
        assert_eq!(
            fresh_call_id(&history, &["call_by_you_1".into()]),
            "call_by_you_2"
        );
        assert_eq!(fresh_call_id(&[], &[]), "toolu_by_you_1");
    }

    #[test]
    fn the_skeleton_fills_required_properties_with_what_the_schema_suggests() {
        let schema = json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "examples": ["Lisbon"]},
                "nights": {"type": "integer"},
                "sort": {"type": "string", "enum": ["price", "rating"]},
                "note": {"type": "string"}
            },
            "required": ["city", "nights", "sort"]
        });
        let args: Value = serde_json::from_str(&arguments_skeleton(&schema)).unwrap();
        assert_eq!(
            args,
            json!({"city": "Lisbon", "nights": 0, "sort": "price"})
        );
        let hints = argument_hints(&schema);
        assert!(
            hints.contains(&"nights (integer, required)".to_string()),
            "{hints:?}"
        );
        assert!(
            hints.contains(&"sort (string, required), one of \"price\", \"rating\"".to_string()),
            "{hints:?}"
        );
    }

    #[test]
    fn a_typed_tool_result_is_json_when_it_parses_and_text_when_not() {
        assert_eq!(
            typed_tool_result("{\"ok\":true}", false),
            Ok(json!({"ok": true}))
        );
        assert_eq!(typed_tool_result("sunny", false), Ok(json!("sunny")));
        assert_eq!(
            typed_tool_result("no such order", true),
            Err("no such order".into())
        );
    }
}
