//! The settings' tables (`Limits::FIELDS`, `ContextConfig::FIELDS`) agree
//! with the fields serde reads and writes, the words each mode takes, and
//! the defaults; and the published schema's `limits` and `context`
//! properties are the lines the tables write. The page's form reads the
//! same tables.
//!
//! Adding a field to `Limits` breaks the build of `every_limit_set` below
//! (a struct literal names every field), and adding a variant to a mode
//! breaks the `match` in `mode_words`, so neither can be forgotten here.

use harness::context::ContextConfig;
use harness::field::{schema_lines, Field, FieldKind};
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
        Limits::keys(),
        "Limits::FIELDS and the fields of Limits differ"
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
        Limits::keys(),
        "scenario.schema.json's limits and Limits::FIELDS differ"
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

/// Each mode's words in the table are the Rust variants' words, in order,
/// the first being the default.
#[test]
fn each_mode_offers_the_rust_variants_words_default_first() {
    for (key, words) in mode_words() {
        let field = Limits::FIELDS.iter().find(|f| f.key == key).unwrap();
        let FieldKind::Choice(offered) = field.kind else {
            panic!("{key} is a mode but not a choice in Limits::FIELDS");
        };
        let offered: Vec<Value> = offered.iter().map(|w| json!(w)).collect();
        assert_eq!(
            offered, words,
            "{key}: the table's words differ from Rust's"
        );
    }
}

/// What an empty form field says applies is what really applies: the
/// default for a mode or a limit that always applies, a word (never a
/// number) for one that can be off.
#[test]
fn an_empty_field_names_what_really_applies() {
    // `numbers`: whether an empty number field is checked too. A context
    // field's absence can be a number that applies (no `keep_tool_results`
    // keeps 0), which its words say.
    fn check<T>(fields: &[Field], read: impl Fn(Value) -> T, default: T, numbers: bool)
    where
        T: serde::Serialize + PartialEq + std::fmt::Debug,
    {
        let defaults = serde_json::to_value(&default).unwrap();
        for field in fields {
            let key = field.key;
            match field.kind {
                FieldKind::Choice(words) => {
                    assert_eq!(field.absent, words[0], "{key}: the default is not first");
                    assert_eq!(
                        read(json!({ key: field.absent })),
                        default,
                        "{key}: an empty choice says {}, which is not the default",
                        field.absent
                    );
                }
                FieldKind::Integer { .. } | FieldKind::Number { .. } if numbers => {
                    assert!(!field.unit.is_empty(), "{key} has no unit");
                    match defaults.get(key) {
                        Some(default) => assert_eq!(
                            field.absent,
                            default.to_string(),
                            "{key}: an empty field says {}, but {default} applies",
                            field.absent
                        ),
                        None => assert!(
                            field.absent.parse::<f64>().is_err(),
                            "{key}: absent means off, not {}",
                            field.absent
                        ),
                    }
                }
                // A flag's absence is read by the code (`keeps_pairs`), not as
                // its value: `context_window.rs` runs both ways.
                FieldKind::Integer { .. }
                | FieldKind::Number { .. }
                | FieldKind::Bool
                | FieldKind::Names => {}
            }
        }
    }
    check(
        Limits::FIELDS,
        |v| serde_json::from_value::<Limits>(v).unwrap(),
        Limits::default(),
        true,
    );
    check(
        ContextConfig::FIELDS,
        |v| serde_json::from_value::<ContextConfig>(v).unwrap(),
        ContextConfig::default(),
        false,
    );
}

/// `scenario.schema.json`'s `limits` and `context` properties are written
/// from the tables. When they differ, this test writes them and fails, as
/// rust-analyzer's generated files do: run the tests again and commit the
/// file. A new setting is added to its table, never to the schema by hand.
#[test]
fn the_schema_s_settings_are_the_lines_the_tables_write() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../loop-core/scenario.schema.json"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut written = text.clone();
    for (name, fields) in [
        ("limits", Limits::FIELDS),
        ("context", ContextConfig::FIELDS),
    ] {
        written = with_properties(&written, name, &schema_lines(fields, "        "));
    }
    if written != text {
        std::fs::write(path, &written).unwrap();
        panic!(
            "scenario.schema.json's limits or context properties differed from Limits::FIELDS \
             and ContextConfig::FIELDS; the file is now rewritten from them: run the tests again"
        );
    }
    assert_eq!(
        SCENARIO_SCHEMA, text,
        "the harness embeds the file as it is"
    );
}

/// `schema` with the properties of `$defs.<name>` replaced by `lines`.
fn with_properties(schema: &str, name: &str, lines: &str) -> String {
    let def = format!("\n    \"{name}\": {{\n      \"type\": \"object\",");
    let at = schema
        .find(&def)
        .unwrap_or_else(|| panic!("no $defs.{name} in the schema"));
    let open = "\"properties\": {\n";
    let start = at + schema[at..].find(open).expect("its properties") + open.len();
    let end = start + schema[start..].find("\n      }").expect("their end");
    format!("{}{lines}{}", &schema[..start], &schema[end..])
}
