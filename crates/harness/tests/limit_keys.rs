//! The limit keys agree everywhere the harness keeps them (issue 13):
//! `Limits::KEYS`, the fields serde reads and writes, and the published
//! schema's `limits` properties, including the words each mode takes. The
//! page's form is checked against `Limits::KEYS` in `src/form.rs`.
//!
//! Adding a field to `Limits` breaks the build of `every_limit_set` below
//! (a struct literal names every field), and adding a variant to a mode
//! breaks the `match` in `mode_words`, so neither can be forgotten here.

use harness::limits::{
    CostMode, DeadlineMode, DeadlineScope, HistoryMode, Limits, RepeatMode, ResultsMode, StopMode,
};
use harness::scenario::SCENARIO_SCHEMA;
use serde_json::{json, Map, Value};

/// A `Limits` with no field at its default, so serde writes every key.
fn every_limit_set() -> Limits {
    Limits {
        max_turns: 3,
        max_cost_usd: Some(0.5),
        cost_mode: CostMode::Naive,
        deadline_ms: Some(1000),
        model_timeout_ms: Some(200),
        tool_timeout_ms: Some(300),
        repeat_threshold: Some(2),
        repeat_mode: RepeatMode::Naive,
        max_tool_calls: Some(4),
        max_total_tokens: Some(5000),
        max_output_tokens: 64,
        max_result_chars: Some(100),
        max_retries: 1,
        deadline_scope: DeadlineScope::Shared,
        deadline_mode: DeadlineMode::BetweenSteps,
        stop_mode: StopMode::Naive,
        history_mode: HistoryMode::TextOnly,
        results_mode: ResultsMode::TextFirst,
    }
}

/// The words serde gives every variant of each mode.
fn mode_words() -> Vec<(&'static str, Vec<Value>)> {
    fn words<T: serde::Serialize>(variants: &[T]) -> Vec<Value> {
        variants
            .iter()
            .map(|v| serde_json::to_value(v).unwrap())
            .collect()
    }
    // Each `match` lists every variant, so a new one fails to compile here.
    let cost = |m: CostMode| match m {
        CostMode::Strict | CostMode::Naive => m,
    };
    let repeat = |m: RepeatMode| match m {
        RepeatMode::Canonical | RepeatMode::Naive => m,
    };
    let scope = |m: DeadlineScope| match m {
        DeadlineScope::Run | DeadlineScope::Shared => m,
    };
    let deadline = |m: DeadlineMode| match m {
        DeadlineMode::Interrupt | DeadlineMode::BetweenSteps => m,
    };
    let stop = |m: StopMode| match m {
        StopMode::Strict | StopMode::Naive => m,
    };
    let history = |m: HistoryMode| match m {
        HistoryMode::Whole | HistoryMode::TextOnly => m,
    };
    let results = |m: ResultsMode| match m {
        ResultsMode::Correct | ResultsMode::TextFirst | ResultsMode::InventedIds => m,
    };
    vec![
        (
            "cost_mode",
            words(&[cost(CostMode::Strict), cost(CostMode::Naive)]),
        ),
        (
            "repeat_mode",
            words(&[repeat(RepeatMode::Canonical), repeat(RepeatMode::Naive)]),
        ),
        (
            "deadline_scope",
            words(&[scope(DeadlineScope::Run), scope(DeadlineScope::Shared)]),
        ),
        (
            "deadline_mode",
            words(&[
                deadline(DeadlineMode::Interrupt),
                deadline(DeadlineMode::BetweenSteps),
            ]),
        ),
        (
            "stop_mode",
            words(&[stop(StopMode::Strict), stop(StopMode::Naive)]),
        ),
        (
            "history_mode",
            words(&[history(HistoryMode::Whole), history(HistoryMode::TextOnly)]),
        ),
        (
            "results_mode",
            words(&[
                results(ResultsMode::Correct),
                results(ResultsMode::TextFirst),
                results(ResultsMode::InventedIds),
            ]),
        ),
    ]
}

fn schema_limits() -> Map<String, Value> {
    let schema: Value = serde_json::from_str(SCENARIO_SCHEMA).unwrap();
    schema["$defs"]["limits"]["properties"]
        .as_object()
        .expect("the schema defines limits.properties")
        .clone()
}

#[test]
fn serde_reads_and_writes_exactly_the_listed_keys_in_order() {
    let written = serde_json::to_value(every_limit_set()).unwrap();
    let keys: Vec<&str> = written
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        Limits::KEYS,
        "Limits::KEYS and the fields of Limits differ"
    );
    let read: Limits = serde_json::from_value(written).expect("every key written is read back");
    assert_eq!(read, every_limit_set());
    let unknown = serde_json::from_value::<Limits>(json!({"max_turn": 3}));
    assert!(unknown.is_err(), "an unknown limit key must be refused");
}

#[test]
fn the_schema_lists_exactly_the_listed_keys_in_order() {
    let schema = schema_limits();
    let keys: Vec<&str> = schema.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        Limits::KEYS,
        "scenario.schema.json's limits and Limits::KEYS differ"
    );
}

#[test]
fn each_mode_takes_the_same_words_in_the_schema_and_in_rust() {
    let schema = schema_limits();
    let modes = mode_words();
    for (key, words) in &modes {
        assert_eq!(
            schema[*key]["enum"].as_array(),
            Some(words),
            "{key}: the schema's enum differs from the Rust variants"
        );
    }
    // Every key with an `enum` is a mode above: none is left unchecked.
    let with_enum: Vec<&str> = schema
        .iter()
        .filter(|(_, property)| property.get("enum").is_some())
        .map(|(key, _)| key.as_str())
        .collect();
    let checked: Vec<&str> = modes.iter().map(|(key, _)| *key).collect();
    assert_eq!(with_enum, checked);
}
