//! A lesson's explanation filled from the learner's own run: `{model_calls}`,
//! `{tools}`, `{value:limits.max_turns}` and the rest become the run's
//! numbers and the edited scenario's values, so "why it worked" speaks of
//! what the learner just did. The loader refuses a placeholder not listed
//! here; `{{` writes a brace. A `{` not followed by a name (JSON in the
//! text, `{"a":1}`) is text.

use serde_json::Value;

use super::patch::value_at;
use super::predict::Predict;
use crate::event::{Outcome, RunEvent};

/// The placeholders an explanation may hold, besides `{value:PATH}`.
pub const PLACEHOLDERS: &[&str] = &[
    "status",
    "reason",
    "model_calls",
    "tool_calls",
    "tools",
    "answer",
    "elapsed_ms",
    "total_tokens",
    "cost_usd",
    "prediction",
    "actual",
];

/// `{value:PATH}`: the edited scenario's value at the dotted PATH.
pub const VALUE_PREFIX: &str = "value:";

/// A piece of an explanation: text as written, or a placeholder's name.
#[derive(Debug, PartialEq, Eq)]
enum Chunk<'a> {
    Text(&'a str),
    Slot(&'a str),
}

/// A placeholder's name: lower-case letters and `_`, or `value:` and a path.
fn is_slot_name(name: &str) -> bool {
    let head = name.split_once(':').map_or(name, |(head, _)| head);
    !head.is_empty() && head.chars().all(|c| c.is_ascii_lowercase() || c == '_')
}

fn chunks(text: &str) -> Vec<Chunk<'_>> {
    let mut out = Vec::new();
    let mut from = 0;
    let mut at = 0;
    while let Some(found) = text[at..].find('{') {
        let open = at + found;
        if text[open + 1..].starts_with('{') {
            // `{{`: one brace, as text.
            if open > from {
                out.push(Chunk::Text(&text[from..open]));
            }
            out.push(Chunk::Text("{"));
            from = open + 2;
            at = from;
            continue;
        }
        let name_end = text[open + 1..].find('}').map(|c| open + 1 + c);
        match name_end {
            Some(close) if is_slot_name(&text[open + 1..close]) => {
                if open > from {
                    out.push(Chunk::Text(&text[from..open]));
                }
                out.push(Chunk::Slot(&text[open + 1..close]));
                from = close + 1;
                at = from;
            }
            _ => at = open + 1,
        }
    }
    if from < text.len() {
        out.push(Chunk::Text(&text[from..]));
    }
    out
}

/// The placeholders of `text` that are not known, each once, in order.
pub fn unknown_placeholders(text: &str) -> Vec<String> {
    let mut unknown: Vec<String> = Vec::new();
    for chunk in chunks(text) {
        if let Chunk::Slot(name) = chunk {
            let known = PLACEHOLDERS.contains(&name)
                || name
                    .strip_prefix(VALUE_PREFIX)
                    .is_some_and(|path| !path.trim().is_empty());
            if !known && !unknown.iter().any(|u| u == name) {
                unknown.push(name.to_string());
            }
        }
    }
    unknown
}

/// The paths of `text`'s `{value:PATH}` placeholders, in order.
pub fn value_paths(text: &str) -> Vec<&str> {
    chunks(text)
        .into_iter()
        .filter_map(|chunk| match chunk {
            Chunk::Slot(name) => name.strip_prefix(VALUE_PREFIX).map(str::trim),
            Chunk::Text(_) => None,
        })
        .collect()
}

/// What fills the placeholders: the run, the edited scenario, the prediction.
pub struct Facts<'a> {
    pub events: &'a [RunEvent],
    pub outcome: &'a Outcome,
    pub scenario: &'a Value,
    pub prediction: Option<&'a str>,
    pub predict: Option<&'a Predict>,
    /// The predicted quantity as the lesson's start did it, when the run
    /// explained is an edited one: what `{actual}` says.
    pub start_value: Option<&'a str>,
}

impl Facts<'_> {
    fn value(&self, name: &str) -> String {
        let outcome = self.outcome;
        if let Some(path) = name.strip_prefix(VALUE_PREFIX) {
            return match value_at(self.scenario, path.trim()) {
                Some(Value::String(text)) => text.clone(),
                Some(value) => value.to_string(),
                None => "(not set)".to_string(),
            };
        }
        match name {
            "status" => outcome.status.as_str().to_string(),
            "reason" => outcome.reason.clone(),
            "model_calls" => super::counts::model_calls(self.events).to_string(),
            "tool_calls" => super::counts::tool_calls_that_ran(self.events)
                .len()
                .to_string(),
            "tools" => match super::counts::tool_calls_that_ran(self.events) {
                names if names.is_empty() => "no tool".to_string(),
                names => names.join(" → "),
            },
            "answer" => outcome
                .answer
                .clone()
                .filter(|a| !a.trim().is_empty())
                .unwrap_or_else(|| "(no answer)".to_string()),
            "elapsed_ms" => outcome.elapsed_ms.to_string(),
            "total_tokens" => (outcome.input_tokens + outcome.output_tokens).to_string(),
            "cost_usd" => usd(outcome.cost_usd),
            "prediction" => self
                .prediction
                .filter(|p| !p.trim().is_empty())
                .unwrap_or("(no prediction)")
                .to_string(),
            "actual" => match self.start_value {
                Some(start) => start.to_string(),
                None => self
                    .predict
                    .map(|p| p.actual(self.events, self.outcome))
                    .unwrap_or_default(),
            },
            // Refused at load; kept as written if it ever gets here.
            other => format!("{{{other}}}"),
        }
    }
}

/// Dollars as the page shows small costs: `$0.000123`, no trailing zeros.
fn usd(cost: f64) -> String {
    let fixed = format!("{cost:.6}");
    let trimmed = fixed.trim_end_matches('0').trim_end_matches('.');
    format!("${trimmed}")
}

/// `text` with each placeholder filled from `facts`.
pub fn fill(text: &str, facts: &Facts<'_>) -> String {
    chunks(text)
        .into_iter()
        .map(|chunk| match chunk {
            Chunk::Text(text) => text.to_string(),
            Chunk::Slot(name) => facts.value(name),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_in_the_text_is_no_placeholder() {
        let text = r#"{"a":1,"b":2} and {"b":2,"a":1} differ; {{status} is a brace"#;
        assert!(unknown_placeholders(text).is_empty());
    }

    #[test]
    fn an_unknown_name_is_found_once() {
        let text = "{model_calls} calls, {modle_calls} and {modle_calls}, {value:limits.max_turns}";
        assert_eq!(unknown_placeholders(text), vec!["modle_calls".to_string()]);
    }
}
