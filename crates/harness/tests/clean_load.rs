//! `Scenario::load_if_clean`, the loader's short way for a file with no
//! problem (the page's first run takes it, and fetches the full loader only
//! when it declines): whenever it loads a file, `Scenario::load` loads the
//! same scenario; it loads every built-in; and it declines every file that
//! has something to say.

use harness::library::{self, BUILTIN, WITH_SERVER};
use harness::scenario::Scenario;
use proptest::prelude::*;
use serde_json::{json, Value};

fn builtin_texts() -> Vec<&'static str> {
    BUILTIN
        .iter()
        .chain(WITH_SERVER.iter().map(|w| &w.scenario))
        .map(|b| b.json())
        .collect()
}

#[test]
fn every_builtin_loads_the_short_way_as_load_loads_it() {
    for (text, builtin) in builtin_texts().into_iter().zip(
        BUILTIN
            .iter()
            .chain(WITH_SERVER.iter().map(|w| &w.scenario)),
    ) {
        let short = Scenario::load_if_clean(text)
            .unwrap_or_else(|| panic!("{} was declined by the short way", builtin.id));
        assert_eq!(Scenario::load(text), Ok(short), "{}", builtin.id);
    }
    assert!(Scenario::load_if_clean(library::OPENING_JSON).is_some());
}

/// The opening built-in with `field` set to `value`.
fn opening_with(pointer: &str, value: Value) -> String {
    let mut scenario: Value = serde_json::from_str(library::OPENING_JSON).unwrap();
    *scenario.pointer_mut(pointer).unwrap() = value;
    scenario.to_string()
}

#[test]
fn files_with_something_to_say_are_declined() {
    let unknown_field = opening_with("/limits", json!({"max_turn": 3}));
    let too_many_turns = opening_with("/limits", json!({"max_turns": 99999999999u64}));
    let unknown_tool = opening_with("/tools", json!(["no_such_tool"]));
    let cases = [
        ("not JSON", "{".to_string()),
        ("an unknown field", unknown_field),
        ("a number its type cannot hold", too_many_turns),
        ("an unknown built-in", unknown_tool),
        (
            "a number past a float's range",
            library::OPENING_JSON.replacen('{', "{\"x\": 1e400, ", 1),
        ),
    ];
    for (what, text) in cases {
        assert!(
            Scenario::load_if_clean(&text).is_none(),
            "{what} was loaded the short way"
        );
        assert!(Scenario::load(&text).is_err(), "{what} loaded");
    }
}

#[test]
fn a_whole_float_in_an_integer_field_is_left_to_load() {
    let text = opening_with("/limits", json!({"max_turns": 3.0}));
    assert_eq!(Scenario::load_if_clean(&text), None);
    let loaded = Scenario::load(&text).expect("load takes 3.0 as 3");
    assert_eq!(loaded.limits.max_turns, 3);
}

/// One change to a built-in: a value somewhere in it replaced, or a field
/// removed. `steps` picks the place, one member or element per step.
#[derive(Debug, Clone)]
struct Change {
    builtin: usize,
    steps: Vec<usize>,
    replacement: Option<Value>,
}

fn change() -> impl Strategy<Value = Change> {
    let replacement = prop_oneof![
        Just(None),
        Just(Some(json!(null))),
        Just(Some(json!(0))),
        Just(Some(json!(-1))),
        Just(Some(json!(3.0))),
        Just(Some(json!(2.5))),
        Just(Some(json!(1e300))),
        Just(Some(json!(4_294_967_296u64))),
        Just(Some(json!(""))),
        Just(Some(json!("get_time"))),
        Just(Some(json!([]))),
        Just(Some(json!({}))),
        Just(Some(json!(true))),
    ];
    (
        0..builtin_texts().len(),
        prop::collection::vec(0usize..64, 0..6),
        replacement,
    )
        .prop_map(|(builtin, steps, replacement)| Change {
            builtin,
            steps,
            replacement,
        })
}

fn apply(change: &Change) -> String {
    let mut root: Value = serde_json::from_str(builtin_texts()[change.builtin]).unwrap();
    // The place, as a parent's pointer and a member of it.
    let mut parent = String::new();
    let mut member: Option<String> = None;
    for &step in &change.steps {
        let here = match &member {
            Some(m) => format!("{parent}/{m}"),
            None => parent.clone(),
        };
        let next = match root.pointer(&here) {
            Some(Value::Object(map)) if !map.is_empty() => map
                .keys()
                .nth(step % map.len())
                .unwrap()
                .replace('~', "~0")
                .replace('/', "~1"),
            Some(Value::Array(items)) if !items.is_empty() => (step % items.len()).to_string(),
            _ => break,
        };
        parent = here;
        member = Some(next);
    }
    let Some(member) = member else {
        if let Some(value) = &change.replacement {
            root = value.clone();
        }
        return root.to_string();
    };
    match (&change.replacement, root.pointer_mut(&parent).unwrap()) {
        (Some(value), owner) => *owner.pointer_mut(&format!("/{member}")).unwrap() = value.clone(),
        (None, Value::Object(map)) => {
            let key = member.replace("~1", "/").replace("~0", "~");
            map.shift_remove(&key);
        }
        (None, Value::Array(items)) => {
            items.remove(member.parse::<usize>().unwrap());
        }
        (None, _) => unreachable!("a member's owner is an object or an array"),
    }
    root.to_string()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(512),
        ..ProptestConfig::default()
    })]

    /// Whatever the change, the short way never loads something `load`
    /// would not load as the same scenario.
    #[test]
    fn the_short_way_agrees_with_load(change in change()) {
        let text = apply(&change);
        if let Some(short) = Scenario::load_if_clean(&text) {
            prop_assert_eq!(Scenario::load(&text), Ok(short));
        }
    }
}
