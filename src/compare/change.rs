//! What differs between the two scenarios of a comparison, shown above its
//! columns: the task, a tool's description (word by word), its schema
//! (keyword by keyword), whether it needs approval, a limit, the model.
//!
//! Tools are matched by name. A built-in listed by its name alone stands for
//! its own description and schema (`harness::tools::builtin`), so overriding
//! one in B shows as the words and keywords that changed, not as "a string
//! became an object". The scenarios' names and lessons are left out: they
//! label a run, they do not change what it does.
//!
//! Invariant: pure, no signals or DOM; tested natively.

use harness::tools;
use serde_json::{Map, Value};
use similar::{ChangeTag, TextDiff};

/// The longest value a keyword change shows; the whole one is in the JSON.
const VALUE_CHARS: usize = 80;

/// One run of words in a word-level diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Words {
    Same(String),
    /// In A, not in B.
    Removed(String),
    /// In B, not in A.
    Added(String),
}

/// One keyword (or other value) that differs, at its path in the JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keyword {
    /// "properties.order_id.pattern", "max_turns", "responses[1].content".
    pub path: String,
    /// Compact JSON, clipped; `None` where that side does not have it.
    pub a: Option<String>,
    pub b: Option<String>,
}

impl Keyword {
    /// "added in B: …", "removed in B (A had …)", "A: … · B: …".
    pub fn words(&self) -> String {
        match (&self.a, &self.b) {
            (None, Some(b)) => format!("added in B: {b}"),
            (Some(a), None) => format!("removed in B (A had {a})"),
            (Some(a), Some(b)) => format!("A: {a} · B: {b}"),
            (None, None) => String::new(),
        }
    }
}

/// One thing that differs between A and B.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A text the model reads: the task, the system prompt, a description.
    Text { what: String, words: Vec<Words> },
    /// Keywords of a tool's input schema, or values of the limits, the model
    /// or another part of the scenario.
    Keywords {
        what: String,
        keywords: Vec<Keyword>,
    },
    /// A tool only one side has.
    Tool { name: String, only_in: &'static str },
}

impl Change {
    /// The heading of the change: "get_order's description", "the limits".
    pub fn what(&self) -> String {
        match self {
            Change::Text { what, .. } | Change::Keywords { what, .. } => what.clone(),
            Change::Tool { name, only_in } => format!("tool {name}: only in {only_in}"),
        }
    }
}

/// Everything that differs between scenario `a` and scenario `b` (their
/// JSON), in the order a reader meets it: task, system prompt, tools, limits,
/// model, then any other part.
pub fn between(a: &Value, b: &Value) -> Vec<Change> {
    let mut changes = Vec::new();
    for (key, what) in [("task", "the task"), ("system", "the system prompt")] {
        text_change(&mut changes, what, text_at(a, key), text_at(b, key));
    }
    tool_changes(&mut changes, &tools_of(a), &tools_of(b));
    let skipped = ["name", "description", "task", "system", "tools"];
    let mut keys: Vec<&String> = object(a).keys().collect();
    keys.extend(object(b).keys().filter(|k| !object(a).contains_key(*k)));
    for key in keys.into_iter().filter(|k| !skipped.contains(&k.as_str())) {
        let mut keywords = Vec::new();
        diff_values(&mut keywords, String::new(), a.get(key), b.get(key), false);
        if !keywords.is_empty() {
            let what = match key.as_str() {
                "limits" => "the limits".to_string(),
                "model" => "the model".to_string(),
                other => format!("“{other}”"),
            };
            changes.push(Change::Keywords { what, keywords });
        }
    }
    changes
}

/// The word-level diff of two texts: runs of words kept, removed, added.
pub fn word_diff(a: &str, b: &str) -> Vec<Words> {
    let diff = TextDiff::from_words(a, b);
    let mut runs: Vec<Words> = Vec::new();
    for change in diff.iter_all_changes() {
        let text = change.value().to_string();
        let tag = change.tag();
        // Joins neighbours of one kind, so a run reads as a phrase.
        match (runs.last_mut(), tag) {
            (Some(Words::Same(run)), ChangeTag::Equal)
            | (Some(Words::Removed(run)), ChangeTag::Delete)
            | (Some(Words::Added(run)), ChangeTag::Insert) => run.push_str(&text),
            _ => runs.push(match tag {
                ChangeTag::Equal => Words::Same(text),
                ChangeTag::Delete => Words::Removed(text),
                ChangeTag::Insert => Words::Added(text),
            }),
        }
    }
    runs
}

/// A rewritten text as two lines, not interleaved: before (A's words, with
/// those B dropped as `Removed`) and after (B's words, with those it added
/// as `Added`).
pub fn before_and_after(words: &[Words]) -> (Vec<Words>, Vec<Words>) {
    let before = words
        .iter()
        .filter(|w| !matches!(w, Words::Added(_)))
        .cloned()
        .collect();
    let after = words
        .iter()
        .filter(|w| !matches!(w, Words::Removed(_)))
        .cloned()
        .collect();
    (before, after)
}

fn text_change(changes: &mut Vec<Change>, what: &str, a: &str, b: &str) {
    if a != b {
        changes.push(Change::Text {
            what: what.to_string(),
            words: word_diff(a, b),
        });
    }
}

fn text_at<'v>(value: &'v Value, key: &str) -> &'v str {
    value.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn object(value: &Value) -> &Map<String, Value> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    value
        .as_object()
        .unwrap_or_else(|| EMPTY.get_or_init(Map::new))
}

/// A tool as the model and the loop see it, whichever way it is listed.
#[derive(Debug, PartialEq)]
pub(super) struct ToolSeen {
    pub(super) name: String,
    pub(super) description: String,
    pub(super) schema: Value,
    pub(super) needs_approval: bool,
    /// The rest of an inline entry (its handler, a delay): compared as keywords.
    pub(super) rest: Map<String, Value>,
}

pub(super) fn tools_of(scenario: &Value) -> Vec<ToolSeen> {
    let Some(entries) = scenario.get("tools").and_then(Value::as_array) else {
        return Vec::new();
    };
    entries
        .iter()
        .filter_map(|entry| match entry {
            Value::String(name) => {
                let builtin = tools::builtin(name)?;
                let mut rest = Map::new();
                rest.insert("builtin".into(), Value::from(name.as_str()));
                Some(ToolSeen {
                    name: name.clone(),
                    description: builtin.spec.description,
                    schema: builtin.spec.input_schema,
                    needs_approval: builtin.needs_approval,
                    rest,
                })
            }
            Value::Object(fields) => {
                let name = fields.get("name")?.as_str()?.to_string();
                // An inline entry says all it is told: the loop gives it no
                // built-in's words, even with a built-in handler.
                let description = fields.get("description").and_then(Value::as_str);
                let schema = fields.get("input_schema").cloned();
                let needs_approval = fields.get("needs_approval").and_then(Value::as_bool);
                let (description, schema, needs_approval) = (
                    description.unwrap_or_default().to_string(),
                    schema.unwrap_or_else(|| serde_json::json!({"type": "object"})),
                    needs_approval.unwrap_or(false),
                );
                let mut rest = fields.clone();
                for key in ["name", "description", "input_schema", "needs_approval"] {
                    rest.remove(key);
                }
                // A loaded scenario writes its unset handler fields as null.
                rest.retain(|_, value| !value.is_null());
                Some(ToolSeen {
                    name,
                    description,
                    schema,
                    needs_approval,
                    rest,
                })
            }
            _ => None,
        })
        .collect()
}

fn tool_changes(changes: &mut Vec<Change>, a: &[ToolSeen], b: &[ToolSeen]) {
    for tool in a {
        let Some(other) = b.iter().find(|t| t.name == tool.name) else {
            changes.push(Change::Tool {
                name: tool.name.clone(),
                only_in: "A",
            });
            continue;
        };
        let name = &tool.name;
        text_change(
            changes,
            &format!("{name}'s description"),
            &tool.description,
            &other.description,
        );
        let mut keywords = Vec::new();
        diff_values(
            &mut keywords,
            String::new(),
            Some(&tool.schema),
            Some(&other.schema),
            true,
        );
        if !keywords.is_empty() {
            changes.push(Change::Keywords {
                what: format!("{name}'s input schema"),
                keywords,
            });
        }
        let mut others = Vec::new();
        if tool.needs_approval != other.needs_approval {
            others.push(Keyword {
                path: "needs_approval".into(),
                a: Some(tool.needs_approval.to_string()),
                b: Some(other.needs_approval.to_string()),
            });
        }
        let (rest_a, rest_b) = (
            Value::Object(tool.rest.clone()),
            Value::Object(other.rest.clone()),
        );
        diff_values(
            &mut others,
            String::new(),
            Some(&rest_a),
            Some(&rest_b),
            false,
        );
        if !others.is_empty() {
            changes.push(Change::Keywords {
                what: format!("{name}'s handler and approval"),
                keywords: others,
            });
        }
    }
    for tool in b.iter().filter(|t| !a.iter().any(|o| o.name == t.name)) {
        changes.push(Change::Tool {
            name: tool.name.clone(),
            only_in: "B",
        });
    }
}

/// Walks two values side by side and records each leaf that differs. In a
/// schema (`schema`), an array is one keyword's value (`enum`, `required`),
/// compared whole; elsewhere arrays of equal length are walked item by item.
fn diff_values(
    out: &mut Vec<Keyword>,
    path: String,
    a: Option<&Value>,
    b: Option<&Value>,
    schema: bool,
) {
    match (a, b) {
        (Some(Value::Object(a)), Some(Value::Object(b))) => {
            let keys = a.keys().chain(b.keys().filter(|k| !a.contains_key(*k)));
            for key in keys {
                let path = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                diff_values(out, path, a.get(key), b.get(key), schema);
            }
        }
        (Some(Value::Array(a)), Some(Value::Array(b))) if !schema && a.len() == b.len() => {
            for (i, (a, b)) in a.iter().zip(b).enumerate() {
                diff_values(out, format!("{path}[{i}]"), Some(a), Some(b), schema);
            }
        }
        (a, b) if a != b => out.push(Keyword {
            path: if path.is_empty() {
                "(whole)".into()
            } else {
                path
            },
            a: a.map(shown),
            b: b.map(shown),
        }),
        _ => {}
    }
}

fn shown(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > VALUE_CHARS {
        let mut clipped: String = text.chars().take(VALUE_CHARS).collect();
        clipped.push('…');
        clipped
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn added(words: &[Words]) -> Vec<&str> {
        words
            .iter()
            .filter_map(|w| match w {
                Words::Added(t) => Some(t.as_str()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_description_edit_is_the_words_added_and_removed() {
        let a = json!({"tools": [{"name": "t", "description": "Refund an order.", "result": 1}]});
        let b = json!({"tools": [{"name": "t", "description": "Refund an order. Only after the policy check.", "result": 1}]});
        let changes = between(&a, &b);
        assert_eq!(changes.len(), 1, "{changes:?}");
        let Change::Text { what, words } = &changes[0] else {
            panic!("{changes:?}")
        };
        assert_eq!(what, "t's description");
        assert_eq!(added(words).concat().trim(), "Only after the policy check.");
        assert_eq!(words[0], Words::Same("Refund an order.".into()));
    }

    #[test]
    fn a_rewrite_reads_as_a_before_line_and_an_after_line() {
        let words = word_diff(
            "Search hotels with free rooms.",
            "Find hotels in a city with free rooms.",
        );
        let (before, after) = before_and_after(&words);
        let line = |words: &[Words]| {
            words
                .iter()
                .map(|w| match w {
                    Words::Same(t) => t.clone(),
                    Words::Removed(t) => format!("[-{t}]"),
                    Words::Added(t) => format!("[+{t}]"),
                })
                .collect::<String>()
        };
        assert_eq!(line(&before), "[-Search] hotels with free rooms.");
        assert_eq!(line(&after), "[+Find] hotels [+in a city ]with free rooms.");
    }

    #[test]
    fn a_schema_edit_is_named_by_keyword() {
        let a = json!({"tools": [{"name": "t", "result": 1, "input_schema": {"type": "object", "properties": {"place": {"type": "string"}}, "required": ["place"]}}]});
        let b = json!({"tools": [{"name": "t", "result": 1, "input_schema": {"type": "object", "properties": {"place": {"type": "string", "enum": ["Paris", "Rome"]}}, "required": []}}]});
        let Change::Keywords { what, keywords } = &between(&a, &b)[0] else {
            panic!()
        };
        assert_eq!(what, "t's input schema");
        assert_eq!(
            keywords,
            &vec![
                Keyword {
                    path: "properties.place.enum".into(),
                    a: None,
                    b: Some(r#"["Paris","Rome"]"#.into())
                },
                Keyword {
                    path: "required".into(),
                    a: Some(r#"["place"]"#.into()),
                    b: Some("[]".into())
                },
            ]
        );
        assert_eq!(keywords[0].words(), r#"added in B: ["Paris","Rome"]"#);
    }

    #[test]
    fn an_overridden_builtin_differs_only_where_it_was_edited() {
        let builtin = tools::builtin("get_order").unwrap();
        let a = json!({"tools": ["get_order"]});
        let b = json!({"tools": [{"name": "get_order", "builtin": "get_order", "description": "Look up an order by its id, e.g. A1001.", "input_schema": builtin.spec.input_schema, "needs_approval": builtin.needs_approval}]});
        let changes = between(&a, &b);
        assert_eq!(changes.len(), 1, "{changes:?}");
        assert_eq!(changes[0].what(), "get_order's description");
    }

    #[test]
    fn limits_tools_and_the_model_are_reported_and_labels_are_not() {
        let a = json!({"name": "A", "description": "x", "tools": ["get_time"], "limits": {"max_turns": 3}, "model": {"type": "rules"}});
        let b = json!({"name": "B", "description": "y", "tools": ["get_order"], "limits": {"max_turns": 5, "max_cost_usd": 0.01}, "model": {"type": "rules"}});
        let whats: Vec<String> = between(&a, &b).iter().map(Change::what).collect();
        assert_eq!(
            whats,
            [
                "tool get_time: only in A",
                "tool get_order: only in B",
                "the limits"
            ]
        );
        let Change::Keywords { keywords, .. } = &between(&a, &b)[2] else {
            panic!()
        };
        assert_eq!(keywords[0].words(), "A: 3 · B: 5");
        assert_eq!(keywords[1].words(), "added in B: 0.01");
    }

    #[test]
    fn the_same_scenario_has_no_changes() {
        let a = json!({"task": "t", "tools": ["get_time"], "model": {"responses": [{"content": "hi"}]}});
        assert!(between(&a, &a).is_empty());
    }

    #[test]
    fn every_schema_pair_shows_a_change() {
        for (a, b) in harness::library::SCHEMA_PAIRS {
            let json = |id: &str| -> Value {
                serde_json::from_str(harness::library::find(id).unwrap().json()).unwrap()
            };
            assert!(!between(&json(a), &json(b)).is_empty(), "{a} ⇄ {b}");
        }
    }
}
