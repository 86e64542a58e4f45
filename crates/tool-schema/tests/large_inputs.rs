//! Large schemas and arguments are answered in time proportional to their
//! size: a schema or a model's arguments come from outside, and a check that
//! compares every pair would hold the page (or a server) for seconds.
//!
//! Each test times one large case and prints the figure. The bound is loose
//! enough for a slow, busy machine and a debug build (each case takes well
//! under a tenth of it there), yet a check that compares every pair takes
//! ten times the bound or more.

use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};
use tool_schema::Schema;

/// Time allowed for each case, in any build profile.
const BOUND: Duration = Duration::from_millis(2500);

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("name_{i:06}")).collect()
}

fn object_with(names: &[String]) -> Value {
    Value::Object(
        names
            .iter()
            .map(|n| (n.clone(), json!(1)))
            .collect::<Map<_, _>>(),
    )
}

/// Runs `case`, prints how long it took, and fails past [`BOUND`].
fn timed<T>(what: &str, case: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = case();
    let took = start.elapsed();
    println!("{what}: {took:?}");
    assert!(took < BOUND, "{what} took {took:?}, more than {BOUND:?}");
    out
}

#[test]
fn sixty_four_thousand_required_names_compile_and_validate_in_time() {
    let names = names(64_000);
    let schema = json!({"type": "object", "required": names});
    let complete = object_with(&names);
    let errors = timed("64,000 required names", || {
        let schema = Schema::compile(&schema).unwrap();
        assert!(schema.validate(&complete).is_ok());
        schema.validate(&json!({})).unwrap_err()
    });
    assert_eq!(errors.len(), 64_000, "every missing name is reported");
    assert_eq!(
        errors[0].to_string(),
        "missing required property \"name_000000\""
    );
}

#[test]
fn a_name_listed_twice_among_thousands_is_reported_in_time() {
    let mut names = names(64_000);
    names.push("name_000007".to_owned());
    let schema = json!({"required": names});
    let errors = timed("64,001 required names, one twice", || {
        Schema::compile(&schema).unwrap_err()
    });
    let messages: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0].contains("property name \"name_000007\" is listed twice"),
        "{messages:?}"
    );
}

#[test]
fn sixty_four_thousand_unique_items_are_checked_in_time() {
    let schema = Schema::compile(&json!({"type": "array", "uniqueItems": true})).unwrap();
    let mut items: Vec<Value> = (0..64_000).map(|i| json!({"id": i})).collect();
    assert!(timed("64,000 distinct items", || schema
        .is_valid(&Value::Array(items.clone()))));
    items.push(json!({"id": 31_000.0}));
    let errors = timed("64,001 items, one repeated", || {
        schema.validate(&Value::Array(items.clone())).unwrap_err()
    });
    assert_eq!(
        errors[0].to_string(),
        "expected unique items, but items 31000 and 64000 are equal ({\"id\":31000})"
    );
}

#[test]
fn each_of_sixty_four_thousand_items_is_found_in_a_long_enum_in_time() {
    let allowed = names(64_000);
    let schema = Schema::compile(&json!({"type": "array", "items": {"enum": allowed}})).unwrap();
    let mut items: Vec<Value> = allowed.iter().rev().map(|n| json!(n)).collect();
    assert!(timed("64,000 items in a 64,000-value enum", || schema
        .is_valid(&Value::Array(items.clone()))));
    items.push(json!("nome_000001"));
    let errors = timed("one item outside a 64,000-value enum", || {
        schema.validate(&Value::Array(items.clone())).unwrap_err()
    });
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0]
            .to_string()
            .starts_with("/64000: expected one of [\"name_000000\",\"name_000001\","),
        "{}",
        errors[0]
    );
}

#[test]
fn thousands_of_unexpected_properties_are_reported_in_time() {
    let declared = names(4_000);
    let properties: Map<String, Value> = declared.iter().map(|n| (n.clone(), json!({}))).collect();
    let schema = Schema::compile(&json!({
        "type": "object",
        "properties": properties,
        "additionalProperties": false
    }))
    .unwrap();
    // Each one letter from a declared name: a plausible typo of it.
    let invented: Vec<String> = declared.iter().map(|n| n.replace("name", "nam")).collect();
    let errors = timed("4,000 unexpected of 4,000 declared", || {
        schema.validate(&object_with(&invented)).unwrap_err()
    });
    assert_eq!(errors.len(), 4_000, "every unexpected property is reported");
    assert_eq!(
        errors[0].to_string(),
        "unexpected property \"nam_000000\" (did you mean \"name_000000\"?)"
    );
    let last = errors[3_999].to_string();
    assert!(
        last.starts_with(
            "unexpected property \"nam_003999\"; the allowed properties are \"name_000000\", "
        ),
        "{last}"
    );
    assert!(last.ends_with("and 3980 more"), "{last}");
    assert_eq!(
        errors[3_999].unexpected.as_ref().unwrap().declared.len(),
        4_000
    );
}

#[test]
fn thousands_of_schemas_that_loop_back_are_reported_in_time() {
    // a0 → a1 → … → a(n-1) in place, and each also back to a0: n cycles,
    // each as long as the chain so far.
    let n = 8_000;
    let defs: Map<String, Value> = (0..n)
        .map(|i| {
            let next = format!("#/$defs/a{}", (i + 1) % n);
            (
                format!("a{i}"),
                json!({"allOf": [{"$ref": next}, {"$ref": "#/$defs/a0"}]}),
            )
        })
        .collect();
    let schema = json!({"$defs": defs, "$ref": "#/$defs/a0"});
    let errors = timed("8,000 schemas looping back", || {
        Schema::compile(&schema).unwrap_err()
    });
    let longest = errors.iter().map(|e| e.to_string().len()).max().unwrap();
    println!("{} errors, the longest {longest} bytes", errors.len());
    assert!(longest < 2_000, "a message of {longest} bytes");
    // The longest cycle, through every schema, shows its ends and a count.
    let long = errors
        .iter()
        .map(|e| e.to_string())
        .find(|m| m.contains(" more) … → "))
        .expect("a long cycle cut short");
    assert!(
        long.contains(
            "infinite recursion: \"#/$defs/a0\" → \"#/$defs/a0/allOf/0\" → \"#/$defs/a1\" → … ("
        ),
        "{long}"
    );
    assert!(
        errors[0].to_string().contains("infinite recursion: "),
        "{}",
        errors[0]
    );
}
