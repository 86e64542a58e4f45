//! Upper bounds on the numbers that feed the run's cost and time arithmetic.
//!
//! A price of `1e300` per million tokens times `1e15` tokens is infinite:
//! the run's cost became `inf`, serialized as `null`, and broke the page's
//! stored run index. Each number is bounded where it enters, far above any
//! real use and far below what overflows: the worst run the bounds allow
//! (1,000,000 turns of 100,000,000 tokens in and out at $10,000 per
//! million) costs $2,000,000,000,000, a finite number a float holds exactly
//! enough.
//!
//! A setting of `limits` or `context` carries its maximum and its words in
//! its table (`Limits::FIELDS`, `ContextConfig::FIELDS`, from which the
//! published schema's lines are written); the other numbers are listed
//! here. The schema's "maximum" and the check here say the same sentence
//! (`check::schema_finding`).

use serde_json::Value;

use super::numbers::Spellings;
use super::parts::Finding;
use crate::context::ContextConfig;
use crate::field::{count, ms, Field, Max, Unit, MAX_TOKENS_PER_TURN};
use crate::limits::Limits;

pub use crate::field::MAX_MS;

/// The most a price can be, in USD per million tokens (ten times the
/// dearest model ever listed).
pub const MAX_USD_PER_MTOK: f64 = 10_000.0;

/// One bounded number: where it is (`*` stands for any array index), and
/// its maximum with the words that name it.
struct Bound {
    pattern: String,
    max: Max,
}

const TOKENS_PER_TURN: f64 = MAX_TOKENS_PER_TURN as f64;
const A_TURNS_USAGE: Max = count(TOKENS_PER_TURN, "a turn's usage", "tokens");
const PRICE: Max = Max {
    value: MAX_USD_PER_MTOK,
    what: "a price",
    unit: Unit::UsdPerMtok,
};

/// The numbers outside `limits` and `context`, whose settings carry their
/// own maxima (`Limits::FIELDS`, `ContextConfig::FIELDS`).
const OTHER_BOUNDS: &[(&str, Max)] = &[
    ("/pricing/input_usd_per_mtok", PRICE),
    ("/pricing/output_usd_per_mtok", PRICE),
    ("/tools/*/delay_ms", ms("a delay")),
    ("/model/responses/*/usage/input_tokens", A_TURNS_USAGE),
    ("/model/responses/*/usage/output_tokens", A_TURNS_USAGE),
    ("/model/responses/*/delay_ms", ms("a delay")),
    (
        "/model/responses/*/error/retry_after_ms",
        ms("a retry wait"),
    ),
    (
        "/model/responses/*/branches/*/usage/input_tokens",
        A_TURNS_USAGE,
    ),
    (
        "/model/responses/*/branches/*/usage/output_tokens",
        A_TURNS_USAGE,
    ),
    ("/model/responses/*/branches/*/delay_ms", ms("a delay")),
    (
        "/model/responses/*/branches/*/error/retry_after_ms",
        ms("a retry wait"),
    ),
];

/// Every bound: the settings' maxima, then the others.
fn bounds() -> Vec<Bound> {
    let settings = |object: &str, fields: &[Field]| -> Vec<Bound> {
        fields
            .iter()
            .filter_map(|field| {
                let max = field.max().filter(|max| !max.what.is_empty());
                max.map(|max| Bound {
                    pattern: format!("/{object}/{}", field.key),
                    max: *max,
                })
            })
            .collect()
    };
    let mut all = settings("limits", Limits::FIELDS);
    all.extend(settings("context", ContextConfig::FIELDS));
    all.extend(OTHER_BOUNDS.iter().map(|(pattern, max)| Bound {
        pattern: pattern.to_string(),
        max: *max,
    }));
    all
}

/// Every number in `value` past its bound, at its pointer.
pub(super) fn check(value: &Value, spellings: &Spellings) -> Vec<Finding> {
    let mut findings = Vec::new();
    for bound in bounds() {
        for (pointer, number) in matches(value, &bound.pattern) {
            if number.as_f64().is_some_and(|n| n > bound.max.value) {
                findings.push(Finding {
                    message: sentence(&bound, &written(spellings, &pointer, number)),
                    pointer,
                });
            }
        }
    }
    findings
}
/// The sentence for a number at `pointer` past its bound, when it has one:
/// what the schema's "maximum" says in its place.
pub(super) fn too_large(pointer: &str, value: &Value, spellings: &Spellings) -> Option<String> {
    let bound = bounds()
        .into_iter()
        .find(|b| fits_pattern(pointer, &b.pattern))?;
    let number = value.pointer(pointer)?;
    Some(sentence(&bound, &written(spellings, pointer, number)))
}

/// "1e308 is too large: a cost budget must be at most $1,000,000".
fn sentence(bound: &Bound, written: &str) -> String {
    format!(
        "{written} is too large: {} must be at most {}",
        bound.max.what,
        bound.max.words()
    )
}

/// The number as the file wrote it (`1e400`, not the stand-in).
fn written(spellings: &Spellings, pointer: &str, number: &Value) -> String {
    match spellings.written_at(pointer) {
        Some(spelling) => spelling.text.clone(),
        None => number.to_string(),
    }
}

/// Whether `pointer` is one the pattern names.
fn fits_pattern(pointer: &str, pattern: &str) -> bool {
    let tokens: Vec<&str> = pointer.split('/').collect();
    let wanted: Vec<&str> = pattern.split('/').collect();
    tokens.len() == wanted.len()
        && tokens.iter().zip(&wanted).all(|(token, want)| {
            want == token || (*want == "*" && token.bytes().all(|b| b.is_ascii_digit()))
        })
}

/// The numbers at the pattern's places in `value`, with their pointers.
fn matches<'v>(value: &'v Value, pattern: &str) -> Vec<(String, &'v Value)> {
    let mut found = vec![(String::new(), value)];
    for token in pattern.split('/').skip(1) {
        found = found
            .into_iter()
            .flat_map(|(at, node)| -> Vec<(String, &'v Value)> {
                match (token, node) {
                    ("*", Value::Array(items)) => items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| (format!("{at}/{i}"), item))
                        .collect(),
                    (key, Value::Object(members)) => members
                        .get(key)
                        .map(|member| (format!("{at}/{key}"), member))
                        .into_iter()
                        .collect(),
                    _ => Vec::new(),
                }
            })
            .collect();
    }
    found.retain(|(_, node)| node.is_number());
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numbers::thousands;

    #[test]
    fn the_published_schema_has_the_same_maxima() {
        let schema: Value = serde_json::from_str(super::super::SCENARIO_SCHEMA).unwrap();
        let defs = &schema["$defs"];
        let at = |def: &str, field: &str| defs[def]["properties"][field]["maximum"].as_f64();
        for bound in bounds() {
            let field = bound.pattern.rsplit('/').next().unwrap();
            let in_schema = if bound.pattern.starts_with("/pricing/") {
                schema["properties"]["pricing"]["properties"][field]["maximum"].as_f64()
            } else if bound.pattern.starts_with("/limits/") {
                at("limits", field)
            } else if bound.pattern.starts_with("/context/") {
                at("context", field)
            } else if bound.pattern.starts_with("/tools/") {
                at("inline_tool", field)
            } else if bound.pattern.contains("/usage/") {
                defs["scripted_response"]["properties"]["usage"]["properties"][field]["maximum"]
                    .as_f64()
            } else if bound.pattern.contains("/error/") {
                defs["scripted_response"]["properties"]["error"]["properties"][field]["maximum"]
                    .as_f64()
            } else {
                at("scripted_response", field)
            };
            assert_eq!(in_schema, Some(bound.max.value), "{}", bound.pattern);
        }
    }

    #[test]
    fn numbers_read_with_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(86_400_000), "86,400,000");
    }
}
