//! Confirmed facts: the ids that tool results have actually returned, in the
//! order they first appeared (seed 002 keeps "confirmed facts such as the
//! chosen hotel_id" beside the messages). Anything the model names that is
//! not here was not confirmed by a tool.
//!
//! It also finds the ids a text names (`id_like_words`), so a replay can ask
//! of each id in an answer whether anything the model received contained it.

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

/// The words of `text` that look like identifiers, each once, in order of
/// first appearance. A word is a run of ASCII letters, digits, `_` and `-`
/// (anything else separates words, so `re_0001.` and `(A1001)` are found),
/// with leading and trailing `_`/`-` dropped. It is id-like when it is:
/// - a prefixed id: it starts with a letter, has a `_` or `-`, and a part
///   after the first one holds at least two digits (`re_0001`,
///   `ord_f6g7h8i9j0`, `h_lis_01`, `ORD-1001`);
/// - a code: one to four letters then at least three digits (`A1001`);
/// - a UUID (8-4-4-4-12 hexadecimal digits).
///
/// Not ids: ordinary and snake_case words (`issue_refund`: no digits),
/// numbers, prices and amounts (`42.00`, `4200`), dates and times
/// (`2027-03-14`, `2026-11-29T12:00:00Z`: they start with a digit), and
/// short version-like names (`gpt-4o`, `claude-3-5-sonnet`, `MP3`: fewer
/// than two digits together). Technical names shaped like ids
/// (`COVID-19`, `SHA-256`, `H264`) are counted: the shape cannot tell them
/// apart from `ORD-19`.
pub fn id_like_words(text: &str) -> Vec<&str> {
    let mut ids: Vec<&str> = Vec::new();
    for word in words(text) {
        if is_id_like(word) && !ids.contains(&word) {
            ids.push(word);
        }
    }
    ids
}

/// Whether `text` holds `id` as a whole word (so `re_000` is not found in
/// `re_0001`).
pub fn names(text: &str, id: &str) -> bool {
    text.contains(id) && words(text).any(|word| word == id)
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .map(|word| word.trim_matches(['_', '-']))
        .filter(|word| !word.is_empty())
}

fn is_id_like(word: &str) -> bool {
    is_uuid(word) || is_prefixed_id(word) || is_code(word)
}

fn is_prefixed_id(word: &str) -> bool {
    let starts_with_letter = word.starts_with(|c: char| c.is_ascii_alphabetic());
    let mut parts = word.split(['_', '-']);
    parts.next();
    starts_with_letter && parts.any(|part| part.chars().filter(char::is_ascii_digit).count() >= 2)
}

fn is_code(word: &str) -> bool {
    let letters = word.chars().take_while(char::is_ascii_alphabetic).count();
    let digits = &word[letters..];
    (1..=4).contains(&letters) && digits.len() >= 3 && digits.chars().all(|c| c.is_ascii_digit())
}

fn is_uuid(word: &str) -> bool {
    let groups: Vec<&str> = word.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(group, len)| group.len() == len && group.chars().all(|c| c.is_ascii_hexdigit()))
}
