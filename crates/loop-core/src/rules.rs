//! The rules model: a deterministic teaching model that decides from what a
//! real model would see, so editing a tool's description or schema visibly
//! changes the calls, with no API key.
//!
//! It is not a language model. Every turn it reads exactly these things and
//! nothing else:
//! 1. the task (the first user message's text);
//! 2. the tools, in the order they are listed, with their descriptions and
//!    input schemas (`required`, `properties`, `enum`, `default`, `examples`,
//!    `format`, `minimum`, property descriptions);
//! 3. the tool calls already made and their results (from the history).
//!
//! It picks the first listed tool that has not yet succeeded, unless that
//! tool's description says it comes *after* another tool that has not
//! succeeded yet ("only after X", "X first"). A tool whose description
//! overlaps one that has already succeeded (most of their words shared, see
//! `same_job`) counts as done: the model takes it for the same job, as real
//! models confuse tools described alike, and its text says it skipped it.
//! It fills each required argument (and each one with a `default`) by the
//! first rule that applies:
//! 1. a field of that name in an earlier successful result (e.g. `hotel_id`);
//! 2. the schema's `enum` (the value the task names, case aside, else its
//!    first value), `default`, or `examples` (a task word of the same shape
//!    as the first example, else the example itself);
//! 3. an example in the property's or the tool's description ("e.g. A1001"):
//!    a word in the task of the same shape (letters, digits, punctuation in the
//!    same places), else the example itself;
//! 4. `format: date`: the first YYYY-MM-DD date in the task;
//! 5. integers and numbers: the first number in the task, raised to `minimum`;
//! 6. a string named `*_id` with no example: an invented id shaped like the
//!    name (`order_id` → `ORD-1001`), as seed 003's model did;
//! 7. other strings: the first capitalised word of the task that does not start
//!    a sentence; booleans false; arrays and objects empty.
//!
//! When every tool has succeeded it answers with the last result; when the
//! next tool's last call failed it stops and says so. Each turn's text says
//! which rule chose each value, so the trace explains the model.
//!
//! The request's `tool_choice` overrides the pick, as a provider enforces
//! it: `none` answers in words with what it has; `any` calls the tool the
//! rules pick, or the first listed tool when they pick none (so it never
//! answers in words: the harness must stop it); a named tool is called
//! every turn, its arguments filled by the rules above.

use futures::future::LocalBoxFuture;
use serde_json::{json, Map, Value};

use crate::message::{ContentBlock, Message, Role, ToolCall};
use crate::model::{
    estimate_tokens, ModelClient, ModelError, ModelRequest, ModelResponse, ToolSpec, Usage,
};
use crate::tool_choice::ToolChoice;

#[derive(Default)]
pub struct RulesModel;

impl ModelClient for RulesModel {
    fn label(&self) -> String {
        "rules (teaching model)".to_string()
    }

    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> {
        let response = decide(&request);
        Box::pin(async move { Ok(response) })
    }
}

/// A call the model made and what came back.
struct Outcome<'a> {
    tool: &'a str,
    result: Option<(&'a str, bool)>,
}

fn decide(request: &ModelRequest<'_>) -> ModelResponse {
    let task = task_text(request.messages);
    let outcomes = outcomes(request.messages);
    let succeeded = |name: &str| {
        outcomes
            .iter()
            .any(|o| o.tool == name && matches!(o.result, Some((_, false))))
    };
    // Tools taken for the same job as one that already succeeded, each with
    // that tool's name.
    let skipped: Vec<(&str, &str)> = request
        .tools
        .iter()
        .filter(|tool| !succeeded(&tool.name))
        .filter_map(|tool| {
            request
                .tools
                .iter()
                .find(|other| {
                    other.name != tool.name && succeeded(&other.name) && same_job(tool, other)
                })
                .map(|other| (tool.name.as_str(), other.name.as_str()))
        })
        .collect();
    let done = |name: &str| succeeded(name) || skipped.iter().any(|(s, _)| *s == name);
    let next = request.tools.iter().find(|tool| {
        !done(&tool.name)
            && !request.tools.iter().any(|other| {
                other.name != tool.name && !done(&other.name) && comes_after(tool, &other.name)
            })
    });
    let skip_note: String = skipped
        .iter()
        .map(|(tool, like)| {
            format!(
                " Skipped {tool}: its description overlaps that of {like}, which already ran, so it looks like the same job."
            )
        })
        .collect();
    let forced = forced_call(request, next);
    let (content, stop_reason) = match (forced, next) {
        (Forced::Answer, _) => {
            let what = match last_result(&outcomes) {
                Some((tool, result)) => {
                    format!("with what I have: {tool} returned: {}", clip(result, 300))
                }
                None => format!(
                    "without them, having looked nothing up for: {}",
                    clip(&task, 200)
                ),
            };
            let text = format!(
                "Tools are off for this request (tool_choice \"none\"), so I answer {what}"
            );
            (vec![ContentBlock::Text { text }], "end_turn")
        }
        (Forced::Call(tool, lead), _) => call(tool, &lead, &skip_note, request, &task, &outcomes),
        (Forced::Free, Some(tool)) => {
            let last_failure = outcomes
                .iter()
                .rev()
                .find(|o| o.tool == tool.name)
                .and_then(|o| o.result)
                .filter(|(_, is_error)| *is_error);
            match last_failure {
                Some((error, _)) => (
                    vec![ContentBlock::Text {
                        text: format!(
                            "I could not finish: {} failed ({}). Stopping rather than guessing.",
                            tool.name,
                            clip(error, 200)
                        ),
                    }],
                    "end_turn",
                ),
                None => call(
                    tool,
                    &format!(
                        "Next tool: {} (the first listed tool not yet done).",
                        tool.name
                    ),
                    &skip_note,
                    request,
                    &task,
                    &outcomes,
                ),
            }
        }
        (Forced::Free, None) => {
            let text = match last_result(&outcomes) {
                Some((tool, result)) => format!("Done. {tool} returned: {}", clip(result, 300)),
                None => format!("Done. No tool was needed for: {}", clip(&task, 200)),
            };
            let text = text + &skip_note;
            (vec![ContentBlock::Text { text }], "end_turn")
        }
    };
    let output_chars: usize = content
        .iter()
        .map(|b| match b {
            ContentBlock::Text { text } => text.len(),
            ContentBlock::ToolUse(call) => call.input.to_string().len(),
            _ => 0,
        })
        .sum();
    ModelResponse {
        content,
        stop_reason: stop_reason.to_string(),
        usage: Usage {
            input_tokens: request.estimated_input_tokens,
            output_tokens: estimate_tokens(output_chars),
        },
    }
}

/// What the request's `tool_choice` makes of the rules' pick.
enum Forced<'a> {
    /// The rules decide (`auto`, or a choice no listed tool can meet).
    Free,
    /// `none`: answer in words.
    Answer,
    /// Call this tool; the text says why.
    Call(&'a ToolSpec, String),
}

fn forced_call<'a>(request: &ModelRequest<'a>, next: Option<&'a ToolSpec>) -> Forced<'a> {
    match request.tool_choice {
        ToolChoice::Auto => Forced::Free,
        ToolChoice::None => Forced::Answer,
        ToolChoice::Any => match (next, request.tools.first()) {
            (Some(tool), _) => Forced::Call(
                tool,
                format!(
                    "Next tool: {} (the first listed tool not yet done; tool_choice \"any\" requires a call).",
                    tool.name
                ),
            ),
            (None, Some(first)) => Forced::Call(
                first,
                format!(
                    "Every tool is done, but tool_choice \"any\" requires a call: calling the first listed tool, {}.",
                    first.name
                ),
            ),
            (None, None) => Forced::Free,
        },
        ToolChoice::Tool(name) => match request.tools.iter().find(|t| &t.name == name) {
            Some(tool) => Forced::Call(
                tool,
                format!("Calling {name}: tool_choice names it, so every turn calls it."),
            ),
            None => Forced::Free,
        },
    }
}

/// A call of `tool` with its arguments filled by the rules; its text is
/// `lead`, the arguments' reasons, then `tail`.
fn call(
    tool: &ToolSpec,
    lead: &str,
    tail: &str,
    request: &ModelRequest<'_>,
    task: &str,
    outcomes: &[Outcome<'_>],
) -> (Vec<ContentBlock>, &'static str) {
    let (args, reasons) = fill_arguments(tool, task, outcomes, request.messages);
    let why = if reasons.is_empty() {
        String::new()
    } else {
        format!(" Arguments: {}.", reasons.join("; "))
    };
    let call = ToolCall {
        id: format!("toolu_rules_{:04}", request.turn),
        name: tool.name.clone(),
        input: Value::Object(args),
        input_raw: None,
    };
    (
        vec![
            ContentBlock::Text {
                text: format!("{lead}{why}{tail}"),
            },
            ContentBlock::ToolUse(call),
        ],
        "tool_use",
    )
}

/// The last successful call's tool and result text.
fn last_result<'a>(outcomes: &[Outcome<'a>]) -> Option<(&'a str, &'a str)> {
    outcomes
        .iter()
        .rev()
        .find_map(|o| o.result.filter(|(_, e)| !e).map(|(r, _)| (o.tool, r)))
}

fn task_text(messages: &[Message]) -> String {
    messages
        .iter()
        .find(|m| m.role == Role::User)
        .map(|m| crate::message::text_of(&m.content))
        .unwrap_or_default()
}

fn outcomes(messages: &[Message]) -> Vec<Outcome<'_>> {
    let mut outcomes = Vec::new();
    for message in messages {
        for block in &message.content {
            if let ContentBlock::ToolUse(call) = block {
                let result = messages
                    .iter()
                    .flat_map(|m| &m.content)
                    .find_map(|b| match b {
                        ContentBlock::ToolResult(r) if r.tool_use_id == call.id => {
                            Some((r.content.as_str(), r.is_error))
                        }
                        _ => None,
                    });
                outcomes.push(Outcome {
                    tool: &call.name,
                    result,
                });
            }
        }
    }
    outcomes
}

/// Whether two tools' descriptions say the same job: at least 60% of their
/// words (of three letters or more, case aside) are shared. Distinct
/// descriptions of related tools share far less (the seed tools: under 20%).
fn same_job(tool: &ToolSpec, other: &ToolSpec) -> bool {
    fn word_set(text: &str) -> std::collections::BTreeSet<String> {
        text.split(|c: char| !c.is_alphanumeric() && c != '_')
            .filter(|w| w.chars().count() >= 3)
            .map(str::to_lowercase)
            .collect()
    }
    let (a, b) = (word_set(&tool.description), word_set(&other.description));
    let union = a.union(&b).count();
    union > 0 && a.intersection(&b).count() * 10 >= union * 6
}

/// Whether `tool`'s description puts it after `other`: "after other" or "other first".
fn comes_after(tool: &ToolSpec, other: &str) -> bool {
    let description = tool.description.to_lowercase();
    let other = other.to_lowercase();
    description.match_indices(&other).any(|(at, _)| {
        let before = &description[..at];
        let window_start = before.char_indices().rev().nth(24).map_or(0, |(i, _)| i);
        let after = &description[at + other.len()..];
        before[window_start..].contains("after") || after.trim_start().starts_with("first")
    })
}

fn fill_arguments(
    tool: &ToolSpec,
    task: &str,
    outcomes: &[Outcome<'_>],
    messages: &[Message],
) -> (Map<String, Value>, Vec<String>) {
    let schema = &tool.input_schema;
    let properties = schema.get("properties").and_then(Value::as_object);
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut args = Map::new();
    let mut reasons = Vec::new();
    let Some(properties) = properties else {
        return (args, reasons);
    };
    for (name, property) in properties {
        if !required.contains(&name.as_str()) && property.get("default").is_none() {
            continue;
        }
        let (value, why) = fill_one(name, property, tool, task, outcomes, messages);
        reasons.push(format!("{name} = {value} ({why})"));
        args.insert(name.clone(), value);
    }
    (args, reasons)
}

fn fill_one(
    name: &str,
    property: &Value,
    tool: &ToolSpec,
    task: &str,
    outcomes: &[Outcome<'_>],
    messages: &[Message],
) -> (Value, String) {
    if let Some((value, source)) = from_results(name, outcomes, messages) {
        return (value, format!("from the result of {source}"));
    }
    if let Some(values) = property.get("enum").and_then(Value::as_array) {
        let named = values.iter().find(|v| {
            v.as_str()
                .is_some_and(|value| words(task).any(|w| w.eq_ignore_ascii_case(value)))
        });
        if let Some(named) = named {
            return (named.clone(), "the enum value the task names".to_string());
        }
        if let Some(first) = values.first() {
            return (first.clone(), "the first value of its enum".to_string());
        }
    }
    if let Some(default) = property.get("default") {
        return (default.clone(), "its schema default".to_string());
    }
    if let Some(example) = property
        .get("examples")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return match example.as_str().and_then(|ex| same_shape_word(task, ex)) {
            Some(word) => (
                json!(word),
                format!("the task's word shaped like the schema example {example}"),
            ),
            None => (example.clone(), "the schema's example".to_string()),
        };
    }
    let property_description = property
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or("");
    let example = description_example(property_description)
        .or_else(|| description_example(&tool.description));
    if let Some(example) = example {
        return match same_shape_word(task, &example) {
            Some(word) => (
                json!(word),
                format!("the task's word shaped like the description's example {example:?}"),
            ),
            None => (json!(example), "the description's example".to_string()),
        };
    }
    let kind = property
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("string");
    if property.get("format").and_then(Value::as_str) == Some("date") {
        if let Some(date) =
            words(task).find(|w| crate::tools::parse_utc(&format!("{w}T00:00:00Z")).is_some())
        {
            return (json!(date), "the first date in the task".to_string());
        }
    }
    match kind {
        "integer" | "number" => {
            let minimum = property
                .get("minimum")
                .and_then(Value::as_f64)
                .unwrap_or(f64::MIN);
            match words(task).find_map(crate::float_text::parse_f64) {
                Some(n) => (
                    number(n.max(minimum), kind),
                    "the first number in the task".to_string(),
                ),
                None => (
                    number(minimum.max(1.0), kind),
                    "the smallest allowed value".to_string(),
                ),
            }
        }
        "boolean" => (json!(false), "false by default".to_string()),
        "array" => (json!([]), "empty by default".to_string()),
        "object" => (json!({}), "empty by default".to_string()),
        _ if name.ends_with("_id") => {
            let prefix: String = name
                .trim_end_matches("_id")
                .chars()
                .filter(char::is_ascii_alphabetic)
                .take(3)
                .collect::<String>()
                .to_uppercase();
            (
                json!(format!("{prefix}-1001")),
                "invented: no example says what an id looks like".to_string(),
            )
        }
        _ => match proper_noun(task) {
            Some(word) => (json!(word), "the task's first proper noun".to_string()),
            None => (json!(clip(task, 40)), "the task itself".to_string()),
        },
    }
}

fn number(n: f64, kind: &str) -> Value {
    if kind == "integer" {
        json!(n.round() as i64)
    } else {
        json!(n)
    }
}

/// The most recent successful result that has a field `name`, anywhere inside.
fn from_results(
    name: &str,
    outcomes: &[Outcome<'_>],
    _messages: &[Message],
) -> Option<(Value, String)> {
    outcomes.iter().rev().find_map(|o| {
        let (text, false) = o.result? else {
            return None;
        };
        let value: Value = serde_json::from_str(text).ok()?;
        find_field(&value, name).map(|v| (v.clone(), o.tool.to_string()))
    })
}

fn find_field<'v>(value: &'v Value, name: &str) -> Option<&'v Value> {
    match value {
        Value::Object(map) => map
            .get(name)
            .filter(|v| !v.is_null())
            .or_else(|| map.values().find_map(|v| find_field(v, name))),
        Value::Array(items) => items.iter().find_map(|v| find_field(v, name)),
        _ => None,
    }
}

/// "e.g. A1001", "for example A1001", "such as A1001" → "A1001".
fn description_example(description: &str) -> Option<String> {
    let lower = description.to_lowercase();
    ["e.g.", "for example", "such as", "like "]
        .iter()
        .find_map(|marker| {
            let at = lower.find(marker)? + marker.len();
            let rest = description.get(at..)?.trim_start_matches([' ', ':', ',']);
            let word: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
                .collect();
            let word = word.trim_end_matches('.').to_string();
            (!word.is_empty()).then_some(word)
        })
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| {
        c.is_whitespace() || matches!(c, ',' | ';' | '?' | '!' | '(' | ')' | '"' | '\'')
    })
    .map(|w| w.trim_end_matches('.'))
    .filter(|w| !w.is_empty())
}

/// Letters, digits and punctuation in the same places: A1001 ~ A2002, not ORD-1.
fn shape(word: &str) -> String {
    word.chars()
        .map(|c| match c {
            c if c.is_ascii_digit() => '9',
            c if c.is_uppercase() => 'A',
            c if c.is_lowercase() => 'a',
            other => other,
        })
        .collect()
}

fn same_shape_word(task: &str, example: &str) -> Option<String> {
    let wanted = shape(example);
    words(task).find(|w| shape(w) == wanted).map(str::to_string)
}

/// The first capitalised word that does not start a sentence ("in Lisbon").
fn proper_noun(task: &str) -> Option<String> {
    let mut sentence_start = true;
    for raw in task.split_whitespace() {
        let word = raw.trim_matches(|c: char| !c.is_alphanumeric());
        let capitalised = word.chars().next().is_some_and(char::is_uppercase);
        if capitalised && !sentence_start && word.chars().all(char::is_alphabetic) {
            return Some(word.to_string());
        }
        sentence_start = raw.ends_with(['.', '?', '!']);
    }
    None
}

fn clip(text: &str, max: usize) -> String {
    crate::tool::clip(text, max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_and_examples() {
        assert_eq!(shape("A1001"), "A9999");
        assert_eq!(
            same_shape_word("Please refund my order A1001, it broke.", "A2002").as_deref(),
            Some("A1001")
        );
        assert_eq!(
            description_example("The order id, e.g. A1001").as_deref(),
            Some("A1001")
        );
        assert_eq!(
            description_example("Order id, for example: ord_f6g7h8i9j0.").as_deref(),
            Some("ord_f6g7h8i9j0")
        );
        assert_eq!(description_example("The order id").as_deref(), None);
        assert_eq!(
            proper_noun("Find me a hotel in Lisbon for 2 nights.").as_deref(),
            Some("Lisbon")
        );
    }

    #[test]
    fn descriptions_that_share_most_words_are_the_same_job() {
        let tool = |description: &str| ToolSpec {
            name: "t".into(),
            description: description.into(),
            input_schema: json!({}),
        };
        assert!(same_job(
            &tool("Find hotels in a city: names, prices and details."),
            &tool("Find a hotel in a city: names, prices and details.")
        ));
        // The seed's own pairs of related tools are distinct jobs.
        for (a, b) in [
            ("search_hotels", "get_hotel_detail"),
            ("get_order", "check_refund_policy"),
            ("check_refund_policy", "refund_order"),
            ("get_order_status", "issue_refund"),
        ] {
            let spec = |name| crate::tools::builtin(name).unwrap().spec;
            assert!(!same_job(&spec(a), &spec(b)), "{a} / {b}");
        }
        assert!(!same_job(&tool(""), &tool("")));
    }

    #[test]
    fn ordering_words_in_descriptions() {
        let tool = |description: &str| ToolSpec {
            name: "t".into(),
            description: description.into(),
            input_schema: json!({}),
        };
        assert!(comes_after(
            &tool("Only after check_refund_policy returned in_window=true."),
            "check_refund_policy"
        ));
        assert!(comes_after(
            &tool("Check the status with get_order_status first."),
            "get_order_status"
        ));
        assert!(!comes_after(
            &tool("Call it before refund_order."),
            "refund_order"
        ));
    }
}
