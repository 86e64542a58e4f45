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
//! The published schema carries the same maxima (for editors); this table
//! is the source of the words, so the schema's "maximum" and the check here
//! say the same sentence (`check::schema_finding`).

use serde_json::Value;

use super::numbers::Spellings;
use super::parts::Finding;
use crate::numbers::thousands;

/// The most a price can be, in USD per million tokens (ten times the
/// dearest model ever listed).
pub const MAX_USD_PER_MTOK: f64 = 10_000.0;
/// The largest cost budget, in USD.
pub const MAX_BUDGET_USD: f64 = 1_000_000.0;
/// The most tokens one turn can report, input or output.
pub const MAX_TOKENS_PER_TURN: u64 = 100_000_000;
/// The longest any wait can be: a day, in milliseconds.
pub const MAX_MS: u64 = 86_400_000;

/// How a bound's number is written in its sentence.
#[derive(Clone, Copy)]
enum Unit {
    Usd,
    UsdPerMtok,
    Count(&'static str),
    Ms,
}

/// One bounded number: where it is (`*` stands for any array index), what
/// it is in words, and its maximum.
struct Bound {
    pattern: &'static str,
    what: &'static str,
    max: f64,
    unit: Unit,
}

const fn bound(pattern: &'static str, what: &'static str, max: f64, unit: Unit) -> Bound {
    Bound {
        pattern,
        what,
        max,
        unit,
    }
}

const TOKENS: Unit = Unit::Count("tokens");
const TOKENS_PER_TURN: f64 = MAX_TOKENS_PER_TURN as f64;
const DAY: f64 = MAX_MS as f64;

const BOUNDS: &[Bound] = &[
    bound(
        "/pricing/input_usd_per_mtok",
        "a price",
        MAX_USD_PER_MTOK,
        Unit::UsdPerMtok,
    ),
    bound(
        "/pricing/output_usd_per_mtok",
        "a price",
        MAX_USD_PER_MTOK,
        Unit::UsdPerMtok,
    ),
    bound(
        "/limits/max_cost_usd",
        "a cost budget",
        MAX_BUDGET_USD,
        Unit::Usd,
    ),
    bound(
        "/limits/max_turns",
        "the turn limit",
        // An "endless" demo is run to be stopped: room for one.
        1_000_000.0,
        Unit::Count("turns"),
    ),
    bound(
        "/limits/max_tool_calls",
        "the tool call limit",
        10_000_000.0,
        Unit::Count("calls"),
    ),
    bound(
        "/limits/max_total_tokens",
        "the token limit",
        10_000_000_000.0,
        TOKENS,
    ),
    bound(
        "/limits/max_output_tokens",
        "a turn's output",
        TOKENS_PER_TURN,
        TOKENS,
    ),
    bound(
        "/limits/max_result_chars",
        "a result's length",
        100_000_000.0,
        Unit::Count("characters"),
    ),
    bound(
        "/limits/repeat_threshold",
        "the repeat threshold",
        10_000.0,
        Unit::Count("calls"),
    ),
    bound(
        "/context/window_tokens",
        "a context window",
        TOKENS_PER_TURN,
        TOKENS,
    ),
    bound(
        "/context/trigger_tokens",
        "a context trigger",
        TOKENS_PER_TURN,
        TOKENS,
    ),
    bound(
        "/context/keep_tool_results",
        "the results kept",
        10_000.0,
        Unit::Count("results"),
    ),
    bound("/limits/deadline_ms", "a deadline", DAY, Unit::Ms),
    bound("/limits/model_timeout_ms", "a timeout", DAY, Unit::Ms),
    bound("/limits/tool_timeout_ms", "a timeout", DAY, Unit::Ms),
    bound("/tools/*/delay_ms", "a delay", DAY, Unit::Ms),
    bound(
        "/model/responses/*/usage/input_tokens",
        "a turn's usage",
        TOKENS_PER_TURN,
        TOKENS,
    ),
    bound(
        "/model/responses/*/usage/output_tokens",
        "a turn's usage",
        TOKENS_PER_TURN,
        TOKENS,
    ),
    bound("/model/responses/*/delay_ms", "a delay", DAY, Unit::Ms),
    bound(
        "/model/responses/*/error/retry_after_ms",
        "a retry wait",
        DAY,
        Unit::Ms,
    ),
    bound(
        "/model/responses/*/branches/*/usage/input_tokens",
        "a turn's usage",
        TOKENS_PER_TURN,
        TOKENS,
    ),
    bound(
        "/model/responses/*/branches/*/usage/output_tokens",
        "a turn's usage",
        TOKENS_PER_TURN,
        TOKENS,
    ),
    bound(
        "/model/responses/*/branches/*/delay_ms",
        "a delay",
        DAY,
        Unit::Ms,
    ),
    bound(
        "/model/responses/*/branches/*/error/retry_after_ms",
        "a retry wait",
        DAY,
        Unit::Ms,
    ),
];

/// Every number in `value` past its bound, at its pointer.
pub(super) fn check(value: &Value, spellings: &Spellings) -> Vec<Finding> {
    let mut findings = Vec::new();
    for bound in BOUNDS {
        for (pointer, number) in matches(value, bound.pattern) {
            if number.as_f64().is_some_and(|n| n > bound.max) {
                findings.push(Finding {
                    message: sentence(bound, &written(spellings, &pointer, number)),
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
    let bound = BOUNDS.iter().find(|b| fits_pattern(pointer, b.pattern))?;
    let number = value.pointer(pointer)?;
    Some(sentence(bound, &written(spellings, pointer, number)))
}

/// "1e308 is too large: a cost budget must be at most $1,000,000".
fn sentence(bound: &Bound, written: &str) -> String {
    format!(
        "{written} is too large: {} must be at most {}",
        bound.what,
        with_unit(bound.max, bound.unit)
    )
}

/// The number as the file wrote it (`1e400`, not the stand-in).
fn written(spellings: &Spellings, pointer: &str, number: &Value) -> String {
    match spellings.written_at(pointer) {
        Some(spelling) => spelling.text.clone(),
        None => number.to_string(),
    }
}

fn with_unit(max: f64, unit: Unit) -> String {
    let n = thousands(max as u64);
    match unit {
        Unit::Usd => format!("${n}"),
        Unit::UsdPerMtok => format!("${n} per million tokens"),
        Unit::Count(noun) => format!("{n} {noun}"),
        Unit::Ms => format!("{n} ms (24 hours)"),
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

    #[test]
    fn the_published_schema_has_the_same_maxima() {
        let schema: Value = serde_json::from_str(super::super::SCENARIO_SCHEMA).unwrap();
        let defs = &schema["$defs"];
        let at = |def: &str, field: &str| defs[def]["properties"][field]["maximum"].as_f64();
        for bound in BOUNDS {
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
            assert_eq!(in_schema, Some(bound.max), "{}", bound.pattern);
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
