//! One setting of a scenario's `limits` or `context` object, written once:
//! how the page's form asks for it, the largest number it takes and the
//! words that say so, and what the published schema says of it.
//!
//! `Limits::FIELDS` and `ContextConfig::FIELDS` are the tables. The form
//! (`src/editor/form.rs`) draws its fields from them, `scenario::bounds` checks
//! their maxima, and `scenario.schema.json`'s `limits` and `context`
//! properties are written from them: `crates/harness/tests/limit_keys.rs`
//! rewrites those lines when they differ and fails, as rust-analyzer's
//! generated files do, so the schema never says another thing.

use serde_json::{json, Map, Value};

use crate::numbers::thousands;

/// One setting: its key, its form field, and its schema.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Field {
    pub key: &'static str,
    /// The form field's label, e.g. "Max turns".
    pub label: &'static str,
    /// What the number counts, shown after the field ("model calls").
    pub unit: &'static str,
    pub kind: FieldKind,
    /// What applies when the field is empty: the default, for a mode or a
    /// limit that always applies; a word such as "none" or "off", for one
    /// that can be off.
    pub absent: &'static str,
    /// The schema's description; empty for none.
    pub about: &'static str,
}

/// How a setting is entered, and the schema's type for it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FieldKind {
    /// A whole number from `min` to `max`.
    Integer { min: u64, max: Max },
    /// A number above `above`, at most `max`.
    Number { above: f64, max: Max },
    /// One of these words; the first is the default.
    Choice(&'static [&'static str]),
    /// `true` or `false`.
    Bool,
    /// Names, separated by commas (a JSON array of strings).
    Names,
}

/// The largest number a setting takes, and how the sentence refusing a
/// larger one names it: "1e308 is too large: a cost budget must be at most
/// $1,000,000".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Max {
    pub value: f64,
    /// What the number is, in its sentence; empty to leave the sentence to
    /// the schema check ("it must be at most 10").
    pub what: &'static str,
    pub unit: Unit,
}

/// How a maximum's number is written in its sentence.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Unit {
    Usd,
    UsdPerMtok,
    /// A count of these ("turns", "tokens").
    Count(&'static str),
    Ms,
}

impl Max {
    /// The maximum with its unit: "$1,000,000", "86,400,000 ms (24 hours)".
    pub fn words(&self) -> String {
        let n = thousands(self.value as u64);
        match self.unit {
            Unit::Usd => format!("${n}"),
            Unit::UsdPerMtok => format!("${n} per million tokens"),
            Unit::Count(noun) => format!("{n} {noun}"),
            Unit::Ms => format!("{n} ms (24 hours)"),
        }
    }
}

/// The longest any wait can be: a day, in milliseconds.
pub const MAX_MS: u64 = 86_400_000;
/// The most tokens one turn can report, input or output.
pub const MAX_TOKENS_PER_TURN: u64 = 100_000_000;

/// A wait of at most a day, named `what` in its sentence.
pub const fn ms(what: &'static str) -> Max {
    Max {
        value: MAX_MS as f64,
        what,
        unit: Unit::Ms,
    }
}

/// A count of `noun` of at most `value`.
pub const fn count(value: f64, what: &'static str, noun: &'static str) -> Max {
    Max {
        value,
        what,
        unit: Unit::Count(noun),
    }
}

impl Field {
    /// The largest number this setting takes, if it is a number.
    pub fn max(&self) -> Option<&Max> {
        match &self.kind {
            FieldKind::Integer { max, .. } | FieldKind::Number { max, .. } => Some(max),
            _ => None,
        }
    }

    /// This setting's property in the published schema.
    pub fn schema(&self) -> Value {
        let mut out = Map::new();
        match self.kind {
            FieldKind::Integer { min, max } => {
                out.insert("type".into(), json!("integer"));
                out.insert("minimum".into(), json!(min));
                out.insert("maximum".into(), whole(max.value));
            }
            FieldKind::Number { above, max } => {
                out.insert("type".into(), json!("number"));
                out.insert("exclusiveMinimum".into(), whole(above));
                out.insert("maximum".into(), whole(max.value));
            }
            FieldKind::Choice(words) => {
                out.insert("enum".into(), json!(words));
            }
            FieldKind::Bool => {
                out.insert("type".into(), json!("boolean"));
            }
            FieldKind::Names => {
                out.insert("type".into(), json!("array"));
                out.insert("items".into(), json!({"type": "string", "minLength": 1}));
            }
        }
        if !self.about.is_empty() {
            out.insert("description".into(), json!(self.about));
        }
        Value::Object(out)
    }
}

/// A number the schema writes without a fraction when it has none.
fn whole(n: f64) -> Value {
    if n.fract() == 0.0 && n >= 0.0 && n < u64::MAX as f64 {
        json!(n as u64)
    } else {
        json!(n)
    }
}

/// The schema's lines for `fields`, one property a line, as the published
/// file writes them: `"max_turns": {"type": "integer", "minimum": 1, ...}`.
pub fn schema_lines(fields: &[Field], indent: &str) -> String {
    let lines: Vec<String> = fields
        .iter()
        .map(|field| {
            format!(
                "{indent}{}: {}",
                json!(field.key),
                one_line(&field.schema())
            )
        })
        .collect();
    lines.join(",\n")
}

/// JSON on one line with a space after each `:` and `,`.
fn one_line(value: &Value) -> String {
    match value {
        Value::Object(members) => {
            let parts: Vec<String> = members
                .iter()
                .map(|(key, value)| format!("{}: {}", json!(key), one_line(value)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(one_line).collect();
            format!("[{}]", parts.join(", "))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_written_as_the_schema_file_writes_it() {
        let field = Field {
            key: "n",
            label: "N",
            unit: "calls",
            kind: FieldKind::Integer {
                min: 1,
                max: count(10.0, "n", "calls"),
            },
            absent: "none",
            about: "Calls.",
        };
        assert_eq!(
            schema_lines(&[field], "  "),
            r#"  "n": {"type": "integer", "minimum": 1, "maximum": 10, "description": "Calls."}"#
        );
        assert_eq!(ms("a wait").words(), "86,400,000 ms (24 hours)");
    }
}
