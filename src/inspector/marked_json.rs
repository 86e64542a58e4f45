//! A request body pretty-printed for reading, cut into segments so a view can
//! mark one message or one block of it: each item of the body's `messages`
//! (or `input`) list is marked with its index (`"2"`), and each part of an
//! item (its `content` blocks, its `tool_calls`) with both (`"2.1"`).
//!
//! The text, joined, is exactly `serde_json::to_string_pretty`'s, so what is
//! copied is what is shown. Pure.

use serde_json::Value;

/// A stretch of the printed body, and the item or part it belongs to.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    /// `None` outside every item: the model, the system prompt, the tools.
    pub mark: Option<String>,
    pub text: String,
}

/// Where the printer is, which decides how the values below it are marked.
#[derive(Clone, Copy)]
enum Within {
    Body,
    /// The body's list of messages or input items.
    List,
    /// Item `n` of that list.
    Item(usize),
    /// The parts of item `n`.
    Parts(usize),
    Other,
}

/// `body`, printed and cut.
pub fn segments(body: &Value) -> Vec<Segment> {
    let mut printer = Printer::default();
    printer.value(body, 0, Within::Body);
    printer.out
}

/// The mark a provider's wire path points at: `messages.3.content.1` and
/// `messages[3].tool_calls[1]` are `"3.1"`, `input[4].output` is `"4"`;
/// `None` for a path outside the list (the tools).
pub fn mark_of(path: &str) -> Option<String> {
    let steps: Vec<&str> = path
        .split(['.', '[', ']'])
        .filter(|s| !s.is_empty())
        .collect();
    let (list, item) = (steps.first()?, steps.get(1)?.parse::<usize>().ok()?);
    if !matches!(*list, "messages" | "input") {
        return None;
    }
    let part = match (steps.get(2), steps.get(3)) {
        (Some(&("content" | "tool_calls")), Some(n)) => n.parse::<usize>().ok(),
        _ => None,
    };
    Some(match part {
        Some(part) => format!("{item}.{part}"),
        None => item.to_string(),
    })
}

/// A tool call or its result, as a block of a request body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolBlock {
    Call,
    Result,
}

/// The mark of the block in `body` that carries tool call `id` (or its
/// result), in any of the three formats: an Anthropic `tool_use` or
/// `tool_result` content block, an OpenAI Chat `tool_calls` entry or `tool`
/// message, an OpenAI Responses `function_call` or `function_call_output`
/// item. `None` when the body does not carry it.
pub fn mark_of_tool(body: &Value, id: &str, block: ToolBlock) -> Option<String> {
    let list = body
        .get("messages")
        .or_else(|| body.get("input"))?
        .as_array()?;
    let is = |value: &Value, key: &str| value.get(key).and_then(Value::as_str) == Some(id);
    let typed = |value: &Value, kind: &str| value.get("type").and_then(Value::as_str) == Some(kind);
    list.iter().enumerate().find_map(|(i, item)| {
        let whole = match block {
            ToolBlock::Call => typed(item, "function_call") && is(item, "call_id"),
            ToolBlock::Result => {
                (typed(item, "function_call_output") && is(item, "call_id"))
                    || (item.get("role").and_then(Value::as_str) == Some("tool")
                        && is(item, "tool_call_id"))
            }
        };
        if whole {
            return Some(i.to_string());
        }
        let parts = match block {
            ToolBlock::Call => item
                .get("tool_calls")
                .or_else(|| item.get("content"))?
                .as_array()?,
            ToolBlock::Result => item.get("content")?.as_array()?,
        };
        parts
            .iter()
            .position(|part| match block {
                ToolBlock::Call => {
                    is(part, "id") && (typed(part, "tool_use") || typed(part, "function"))
                }
                ToolBlock::Result => typed(part, "tool_result") && is(part, "tool_use_id"),
            })
            .map(|j| format!("{i}.{j}"))
    })
}

/// Whether a segment marked `mark` is part of what `target` points at: the
/// item itself and all its parts, or the one part.
pub fn is_within(mark: Option<&str>, target: &str) -> bool {
    mark.is_some_and(|m| m == target || m.strip_prefix(target).is_some_and(|r| r.starts_with('.')))
}

#[derive(Default)]
struct Printer {
    out: Vec<Segment>,
    mark: Option<String>,
}

impl Printer {
    fn push(&mut self, text: &str) {
        match self.out.last_mut() {
            Some(last) if last.mark == self.mark => last.text.push_str(text),
            _ => self.out.push(Segment {
                mark: self.mark.clone(),
                text: text.to_string(),
            }),
        }
    }

    fn indent(&mut self, depth: usize) {
        self.push(&"  ".repeat(depth));
    }

    fn value(&mut self, value: &Value, depth: usize, within: Within) {
        match value {
            Value::Object(map) if !map.is_empty() => {
                self.push("{\n");
                for (i, (key, child)) in map.iter().enumerate() {
                    self.indent(depth + 1);
                    self.push(&serde_json::to_string(key).unwrap_or_default());
                    self.push(": ");
                    let inner = match (within, key.as_str(), child) {
                        (Within::Body, "messages" | "input", Value::Array(_)) => Within::List,
                        (Within::Item(n), "content" | "tool_calls", Value::Array(_)) => {
                            Within::Parts(n)
                        }
                        _ => Within::Other,
                    };
                    self.value(child, depth + 1, inner);
                    self.push(if i + 1 < map.len() { ",\n" } else { "\n" });
                }
                self.indent(depth);
                self.push("}");
            }
            Value::Array(items) if !items.is_empty() => {
                self.push("[\n");
                for (i, item) in items.iter().enumerate() {
                    let (mark, inner) = match within {
                        Within::List => (Some(i.to_string()), Within::Item(i)),
                        Within::Parts(n) => (Some(format!("{n}.{i}")), Within::Other),
                        _ => (None, Within::Other),
                    };
                    let outer = match mark {
                        Some(mark) => self.mark.replace(mark),
                        None => self.mark.clone(),
                    };
                    self.indent(depth + 1);
                    self.value(item, depth + 1, inner);
                    self.mark = outer;
                    self.push(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                self.indent(depth);
                self.push("]");
            }
            scalar => self.push(&serde_json::to_string(scalar).unwrap_or_default()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn body() -> Value {
        json!({
            "model": "m",
            "messages": [
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": [
                    {"type": "text", "text": "ok"},
                    {"type": "tool_use", "id": "t1", "name": "x", "input": {}}
                ]},
            ],
            "tools": [],
            "empty": {}
        })
    }

    #[test]
    fn the_joined_text_is_serde_json_pretty() {
        let joined: String = segments(&body()).into_iter().map(|s| s.text).collect();
        assert_eq!(joined, serde_json::to_string_pretty(&body()).unwrap());
    }

    #[test]
    fn items_and_parts_are_marked() {
        let segments = segments(&body());
        let text_of = |mark: &str| -> String {
            segments
                .iter()
                .filter(|s| is_within(s.mark.as_deref(), mark))
                .map(|s| s.text.as_str())
                .collect()
        };
        assert!(text_of("0").contains("\"hi\""));
        assert!(!text_of("0").contains("tool_use"));
        assert!(text_of("1.1").contains("\"tool_use\""));
        assert!(!text_of("1.1").contains("\"ok\""));
        assert!(text_of("1").contains("\"ok\"") && text_of("1").contains("\"t1\""));
        assert!(segments
            .iter()
            .any(|s| s.mark.is_none() && s.text.contains("\"model\"")));
    }

    #[test]
    fn a_tool_call_and_its_result_are_found_by_id_in_each_format() {
        let anthropic = json!({"messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [
                {"type": "text", "text": "ok"},
                {"type": "tool_use", "id": "t1", "name": "x", "input": {}}
            ]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "1"}]}
        ]});
        assert_eq!(
            mark_of_tool(&anthropic, "t1", ToolBlock::Call).as_deref(),
            Some("1.1")
        );
        assert_eq!(
            mark_of_tool(&anthropic, "t1", ToolBlock::Result).as_deref(),
            Some("2.0")
        );
        assert_eq!(mark_of_tool(&anthropic, "t2", ToolBlock::Call), None);
        let chat = json!({"messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "c0", "type": "function", "function": {"name": "x", "arguments": "{}"}},
                {"id": "c1", "type": "function", "function": {"name": "y", "arguments": "{}"}}
            ]},
            {"role": "tool", "tool_call_id": "c0", "content": "a"},
            {"role": "tool", "tool_call_id": "c1", "content": "b"}
        ]});
        assert_eq!(
            mark_of_tool(&chat, "c1", ToolBlock::Call).as_deref(),
            Some("1.1")
        );
        assert_eq!(
            mark_of_tool(&chat, "c1", ToolBlock::Result).as_deref(),
            Some("3")
        );
        let responses = json!({"input": [
            {"role": "user", "content": "hi"},
            {"type": "function_call", "call_id": "r1", "name": "x", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "r1", "output": "a"}
        ]});
        assert_eq!(
            mark_of_tool(&responses, "r1", ToolBlock::Call).as_deref(),
            Some("1")
        );
        assert_eq!(
            mark_of_tool(&responses, "r1", ToolBlock::Result).as_deref(),
            Some("2")
        );
        // The mark is one the printer gives the block.
        let marks: Vec<_> = segments(&chat).into_iter().filter_map(|s| s.mark).collect();
        assert!(marks.iter().any(|m| m == "1.1") && marks.iter().any(|m| m == "3"));
    }

    #[test]
    fn wire_paths_name_their_mark() {
        assert_eq!(mark_of("messages.3.content.1").as_deref(), Some("3.1"));
        assert_eq!(mark_of("messages[3].tool_calls[1]").as_deref(), Some("3.1"));
        assert_eq!(mark_of("messages[2]").as_deref(), Some("2"));
        assert_eq!(mark_of("input[4].output").as_deref(), Some("4"));
        assert_eq!(mark_of("tools.1.name"), None);
        assert_eq!(mark_of(""), None);
        assert!(is_within(Some("3.10"), "3"));
        assert!(!is_within(Some("31"), "3"));
        assert!(!is_within(Some("3"), "3.1"));
    }
}
