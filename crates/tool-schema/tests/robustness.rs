//! No input may panic or overflow the stack: schemas and arguments both come
//! from outside (a tool author, a model), and a panic in wasm aborts the app.

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use tool_schema::Schema;

/// Arbitrary JSON, biased towards keyword names so that generated schemas
/// exercise the compiler rather than only its "unknown keyword" path.
fn arb_json() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        3 => prop::sample::select(vec![
            "type", "properties", "required", "items", "prefixItems", "enum", "const",
            "minimum", "maximum", "multipleOf", "pattern", "format", "anyOf", "oneOf",
            "allOf", "not", "if", "then", "else", "$ref", "$defs", "additionalProperties",
            "patternProperties", "propertyNames", "contains", "minContains", "maxContains",
            "uniqueItems", "minLength", "maxLength", "dependentRequired", "dependentSchemas",
            "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems", "a", "b", "",
        ])
        .prop_map(str::to_owned),
        1 => "[a-z$/~%#0-9]{0,8}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        prop::sample::select(vec![0.0001, 1e308, -0.0, 1.5, 1e-8]).prop_map(|f| json!(f)),
        prop::sample::select(vec![
            "string",
            "integer",
            "object",
            "#",
            "#/$defs/a",
            "#/properties/a",
            "date",
            "date-time",
            "email",
            "^a+$",
            "([",
            "\\p{L}",
            "2024-02-29",
            "",
            "日本",
        ])
        .prop_map(|s| json!(s)),
        ".{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..5)
                .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn sample_schemas() -> Vec<Schema> {
    [
        json!({
            "type": "object",
            "properties": {
                "q": {"type": "string", "minLength": 1, "pattern": "^[a-z]"},
                "n": {"type": "integer", "minimum": 0, "multipleOf": 0.5},
                "when": {"type": "string", "format": "date-time"}
            },
            "required": ["q"],
            "additionalProperties": false
        }),
        json!({
            "$defs": {"tree": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/tree"}}}}},
            "anyOf": [{"$ref": "#/$defs/tree"}, {"type": "array", "uniqueItems": true, "contains": {"const": 1}}]
        }),
        json!({
            "oneOf": [{"type": "string"}, {"enum": [1, "a", null]}, {"not": {"type": "number"}}],
            "if": {"type": "array"}, "then": {"prefixItems": [true, false], "items": {"$ref": "#"}}
        }),
        json!({"items": {"$ref": "#"}, "propertyNames": {"maxLength": 3}, "additionalProperties": {"$ref": "#"}}),
    ]
    .iter()
    .map(|s| Schema::compile(s).expect("sample schema compiles"))
    .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn compile_never_panics(schema in arb_json()) {
        if let Ok(compiled) = Schema::compile(&schema) {
            // Whatever compiles must also evaluate without panicking.
            let _ = compiled.validate(&schema);
            let _ = compiled.is_valid(&json!({"a": [1, "x", null]}));
        }
    }

    #[test]
    fn validate_never_panics_and_agrees_with_is_valid(instance in arb_json()) {
        for schema in sample_schemas() {
            let report = schema.validate(&instance);
            prop_assert_eq!(report.is_ok(), schema.is_valid(&instance));
            if let Err(errors) = report {
                prop_assert!(!errors.is_empty());
                prop_assert!(errors.iter().all(|e| !e.message.is_empty()));
            }
        }
    }
}

#[test]
fn self_referencing_schemas_compile_and_validate_finite_input() {
    let schema = Schema::compile(&json!({
        "type": "object",
        "properties": {"next": {"$ref": "#"}, "value": {"type": "integer"}}
    }))
    .unwrap();
    let mut list = json!({"value": 0});
    for i in 1..60 {
        list = json!({"value": i, "next": list});
    }
    assert!(schema.is_valid(&list));
    let mut bad = json!({"value": "x"});
    for _ in 0..10 {
        bad = json!({"next": bad});
    }
    let errors = schema.validate(&bad).unwrap_err();
    assert_eq!(
        errors[0].instance_path,
        format!("{}/value", "/next".repeat(10))
    );
}

#[test]
fn mutual_recursion_through_defs_is_fine() {
    let schema = Schema::compile(&json!({
        "$defs": {
            "a": {"type": "array", "items": {"$ref": "#/$defs/b"}},
            "b": {"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/a"}]}
        },
        "$ref": "#/$defs/a"
    }))
    .unwrap();
    assert!(schema.is_valid(&json!([1, [2, [3, []]]])));
    assert!(!schema.is_valid(&json!([1, [2, ["3"]]])));
}

#[test]
fn cycles_that_never_consume_the_instance_are_rejected() {
    for schema in [
        json!({"$ref": "#"}),
        json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}),
        json!({"anyOf": [{"type": "string"}, {"$ref": "#"}]}),
        json!({"not": {"$ref": "#"}}),
    ] {
        let errors = Schema::compile(&schema).unwrap_err();
        assert!(
            errors
                .iter()
                .any(|e| e.message.starts_with("infinite recursion")),
            "{schema}: {errors:?}"
        );
    }
}

#[test]
fn deeply_nested_instances_stop_instead_of_overflowing() {
    let schema =
        Schema::compile(&json!({"items": {"$ref": "#"}, "additionalProperties": {"$ref": "#"}}))
            .unwrap();
    let mut deep = json!(1);
    for _ in 0..5000 {
        deep = Value::Array(vec![deep]);
    }
    assert!(!schema.is_valid(&deep));
    let errors = schema.validate(&deep).unwrap_err();
    assert!(
        errors[0].message.contains("nested too deeply"),
        "{}",
        errors[0]
    );
    // serde_json's Drop recurses too; unwind the value iteratively.
    let mut v = deep;
    while let Value::Array(mut items) = v {
        v = items.pop().unwrap_or(Value::Null);
    }
}

#[test]
fn deeply_nested_schemas_are_rejected_not_overflowed() {
    // Built by hand: json!'s interpolation serialises recursively.
    let mut schema = json!({"type": "integer"});
    for _ in 0..5000 {
        let mut wrapper = Map::new();
        wrapper.insert("items".to_owned(), schema);
        schema = Value::Object(wrapper);
    }
    let errors = Schema::compile(&schema).unwrap_err();
    assert!(
        errors[0].message.contains("nested more than"),
        "{}",
        errors[0]
    );
    let mut v = schema;
    while let Value::Object(mut map) = v {
        v = map.remove("items").unwrap_or(Value::Null);
    }
}
