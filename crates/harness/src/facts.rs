//! Confirmed facts: the ids that tool results have actually returned, in the
//! order they first appeared (seed 002 keeps "confirmed facts such as the
//! chosen hotel_id" beside the messages). Anything the model names that is
//! not here was not confirmed by a tool.

use serde_json::Value;

use crate::event::{EventKind, RunEvent};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// The field's name, e.g. `hotel_id`.
    pub name: String,
    pub value: String,
    /// The tool whose result confirmed it, and the `seq` of that result.
    pub tool: String,
    pub seq: u64,
}

/// Ids (fields named `id` or `*_id`) in successful tool results, first
/// sighting only.
pub fn confirmed(events: &[RunEvent]) -> Vec<Fact> {
    let mut facts = Vec::new();
    for event in events {
        observe(&mut facts, event);
    }
    facts
}

/// Adds the ids `event` confirms to `facts`, first sighting only, and says
/// whether any was new. A live view follows a run one event at a time with
/// it, instead of parsing every earlier result again on each event.
pub fn observe(facts: &mut Vec<Fact>, event: &RunEvent) -> bool {
    let EventKind::ToolResult {
        name,
        content,
        is_error: false,
        ..
    } = &event.kind
    else {
        return false;
    };
    let Ok(value) = serde_json::from_str::<Value>(content) else {
        return false;
    };
    let mut found = Vec::new();
    collect_ids(&value, &mut found);
    let before = facts.len();
    for (field, id) in found {
        if !facts.iter().any(|f| f.name == field && f.value == id) {
            facts.push(Fact {
                name: field,
                value: id,
                tool: name.clone(),
                seq: event.seq,
            });
        }
    }
    facts.len() > before
}

fn collect_ids(value: &Value, found: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                let is_id = key == "id" || key.ends_with("_id");
                match item {
                    Value::String(s) if is_id && !s.is_empty() => {
                        found.push((key.clone(), s.clone()))
                    }
                    Value::Number(n) if is_id => found.push((key.clone(), n.to_string())),
                    other => collect_ids(other, found),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_ids(item, found)),
        _ => {}
    }
}
