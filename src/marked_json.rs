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
