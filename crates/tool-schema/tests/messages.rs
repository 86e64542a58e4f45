//! The exact wording of errors. These strings are read by a model deciding
//! how to fix its tool call, and by a person learning tool calling, so they
//! are pinned here rather than left to drift.

use serde_json::{json, Value};
use tool_schema::{CompileErrorKind, Options, Schema, ValidationError};

fn schema(s: Value) -> Schema {
    match Schema::compile(&s) {
        Ok(schema) => schema,
        Err(errors) => panic!("schema should compile: {errors:?}"),
    }
}

/// The Display form of every error, in order.
fn errors(s: &Schema, instance: Value) -> Vec<String> {
    match s.validate(&instance) {
        Ok(()) => Vec::new(),
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
    }
}

fn booking() -> Schema {
    schema(json!({
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "pattern": "^A[0-9]+$"},
            "nights": {"type": "integer", "minimum": 1, "maximum": 14},
            "check_in": {"type": "string", "format": "date"},
            "sort": {"enum": ["asc", "desc"]},
            "tags": {"type": "array", "maxItems": 3, "items": {"type": "string"}}
        },
        "required": ["order_id", "nights"],
        "additionalProperties": false
    }))
}

#[test]
fn booking_errors_name_expected_and_found() {
    let s = booking();
    assert_eq!(
        errors(&s, json!({"order_id": "A1", "nights": "3"})),
        ["/nights: expected an integer, found a string (\"3\")"]
    );
    assert_eq!(
        errors(
            &s,
            json!({"order_id": "A1", "nights": 2, "check_in": "2024-13-01"})
        ),
        ["/check_in: \"2024-13-01\" is not a valid date (format \"date\", YYYY-MM-DD)"]
    );
    assert_eq!(
        errors(&s, json!({"nights": 2})),
        ["missing required property \"order_id\""]
    );
    assert_eq!(
        errors(&s, json!({"order_id": "A1", "nights": 2, "foo": 1})),
        ["unexpected property \"foo\"; the allowed properties are \"check_in\", \"nights\", \"order_id\", \"sort\" and \"tags\""]
    );
    assert_eq!(
        errors(&s, json!({"order_id": "A1", "nigths": 2})),
        [
            "missing required property \"nights\"",
            "unexpected property \"nigths\" (did you mean \"nights\"?)"
        ]
    );
    assert_eq!(
        errors(&s, json!({"order_id": "A1", "nights": 2, "sort": "up"})),
        ["/sort: expected one of [\"asc\",\"desc\"], found \"up\""]
    );
    assert_eq!(
        errors(&s, json!({"order_id": "A1", "nights": 0})),
        ["/nights: 0 is too small: it must be at least 1"]
    );
    assert_eq!(
        errors(&s, json!({"order_id": "A1", "nights": 30})),
        ["/nights: 30 is too large: it must be at most 14"]
    );
    assert_eq!(
        errors(&s, json!({"order_id": "abc", "nights": 1})),
        ["/order_id: \"abc\" does not match pattern \"^A[0-9]+$\""]
    );
    assert_eq!(
        errors(
            &s,
            json!({"order_id": "A1", "nights": 1, "tags": ["a", "b", "c", "d", "e"]})
        ),
        ["/tags: expected at most 3 items, found 5"]
    );
}

#[test]
fn every_violation_is_reported_with_its_path_and_keyword() {
    let s = booking();
    let result = s.validate(&json!({"nights": 0, "tags": ["x", 7], "zzz": true}));
    let errors: Vec<ValidationError> = result.unwrap_err();
    let summary: Vec<(&str, &str)> = errors
        .iter()
        .map(|e| (e.instance_path.as_str(), e.keyword))
        .collect();
    assert_eq!(
        summary,
        [
            ("", "required"),
            ("/nights", "minimum"),
            ("/tags/1", "type"),
            ("", "additionalProperties"),
        ]
    );
    assert_eq!(errors[2].message, "expected a string, found a number (7)");
    let unexpected = errors[3].unexpected.as_ref().expect("names the property");
    assert_eq!(unexpected.name, "zzz");
    let mut declared = unexpected.declared.to_vec();
    declared.sort();
    assert_eq!(declared, ["check_in", "nights", "order_id", "sort", "tags"]);
    assert!(errors[..3].iter().all(|e| e.unexpected.is_none()));
    assert_eq!(errors[0].missing.as_deref(), Some("order_id"));
    assert!(errors[1..].iter().all(|e| e.missing.is_none()));
    assert!(!s.is_valid(&json!({"nights": 0})));
    assert!(s.is_valid(&json!({"order_id": "A7", "nights": 3, "check_in": "2024-02-29"})));
}

#[test]
fn number_and_string_limits() {
    let s = schema(json!({"exclusiveMinimum": 0, "exclusiveMaximum": 10, "multipleOf": 0.5}));
    assert_eq!(
        errors(&s, json!(0)),
        ["0 is too small: it must be greater than 0"]
    );
    assert_eq!(
        errors(&s, json!(10)),
        ["10 is too large: it must be less than 10"]
    );
    assert_eq!(errors(&s, json!(0.3)), ["0.3 is not a multiple of 0.5"]);
    // A negative whole number is still a whole number: the message says
    // which bound it breaks, not what kind of number it should be.
    let turns = schema(json!({"type": "integer", "minimum": 1, "maximum": 10}));
    assert_eq!(
        errors(&turns, json!(-5)),
        ["-5 is too small: it must be at least 1"]
    );
    assert_eq!(
        errors(&turns, json!(11)),
        ["11 is too large: it must be at most 10"]
    );
    assert_eq!(
        errors(&turns, json!(2.5)),
        ["2.5 is not a whole number; expected an integer"]
    );
    assert!(turns.is_valid(&json!(2.0)), "2.0 is a whole number");
    assert_eq!(
        errors(&turns, json!("3")),
        ["expected an integer, found a string (\"3\")"]
    );
    let maybe = schema(json!({"type": ["integer", "null"]}));
    assert_eq!(
        errors(&maybe, json!(0.5)),
        ["0.5 is not a whole number; expected an integer or null"]
    );
    let money = schema(json!({"multipleOf": 0.0001}));
    assert!(money.is_valid(&json!(0.0075)));
    assert!(!money.is_valid(&json!(0.00751)));

    let s = schema(json!({"minLength": 2, "maxLength": 3}));
    assert_eq!(
        errors(&s, json!("a")),
        ["must be at least 2 characters long, found 1 (\"a\")"]
    );
    assert_eq!(
        errors(&s, json!("abcd")),
        ["must be at most 3 characters long, found 4 (\"abcd\")"]
    );
    // Code points, not bytes: "日本語" is 9 bytes but 3 characters.
    assert!(s.is_valid(&json!("日本語")));
    assert!(s.is_valid(&json!("💩💩")));
}

#[test]
fn long_values_are_truncated_in_messages() {
    let s = schema(json!({"type": "integer"}));
    let long = "x".repeat(500);
    let message = &errors(&s, json!(long))[0];
    assert!(message.len() < 120, "{message}");
    assert!(message.ends_with("…\")"), "{message}");
}

#[test]
fn object_and_array_keywords() {
    let s = schema(json!({
        "minProperties": 2,
        "dependentRequired": {"card": ["cvv"]},
        "propertyNames": {"pattern": "^[a-z]+$"}
    }));
    assert_eq!(
        errors(&s, json!({"card": "4111"})),
        [
            "missing property \"cvv\", which is required when \"card\" is present",
            "expected at least 2 properties, found 1"
        ]
    );
    assert_eq!(
        errors(&s, json!({"Card": 1, "cvv": 2})),
        ["property name \"Card\" is invalid: \"Card\" does not match pattern \"^[a-z]+$\""]
    );

    let s = schema(
        json!({"prefixItems": [{"type": "string"}], "items": false, "uniqueItems": true, "minItems": 1}),
    );
    assert_eq!(errors(&s, json!([])), ["expected at least 1 item, found 0"]);
    assert_eq!(
        errors(&s, json!(["a", "b"])),
        ["expected at most 1 item (items is false after prefixItems), found 2"]
    );
    let s = schema(json!({"uniqueItems": true}));
    assert_eq!(
        errors(&s, json!([1, 2, 1.0])),
        ["expected unique items, but items 0 and 2 are equal (1)"]
    );
    let s = schema(json!({"contains": {"type": "integer"}, "maxContains": 1}));
    assert_eq!(
        errors(&s, json!(["a"])),
        ["expected at least 1 item matching the \"contains\" schema, found 0"]
    );
    assert_eq!(
        errors(&s, json!([1, 2, 3])),
        ["expected at most 1 item matching the \"contains\" schema, found 3"]
    );
    let s = schema(json!({"properties": {"legacy": false}}));
    assert_eq!(
        errors(&s, json!({"legacy": 1})),
        ["/legacy: no value is allowed here (the schema is false), found a number (1)"]
    );
    let s = schema(json!({"not": {"required": ["debug"]}}));
    assert_eq!(
        errors(&s, json!({"debug": true})),
        ["must not match the \"not\" schema {\"required\":[\"debug\"]}"]
    );
}

#[test]
fn any_of_and_one_of_explain_themselves() {
    let s = schema(json!({"anyOf": [{"type": "string"}, {"type": "object"}]}));
    assert_eq!(
        errors(&s, json!(5)),
        ["expected a string or an object, found a number (5)"]
    );
    assert_eq!(s.validate(&json!(5)).unwrap_err()[0].keyword, "anyOf");

    let s = schema(json!({"oneOf": [{"type": "integer"}, {"minimum": 2}]}));
    assert_eq!(
        errors(&s, json!(3)),
        ["matches 2 of the oneOf schemas (0 and 1); exactly one must match"]
    );
    assert!(s.is_valid(&json!(2.5)));
    assert!(s.is_valid(&json!(1)));

    // The branch whose type fits is the one explained.
    let s = schema(json!({
        "anyOf": [
            {"type": "null"},
            {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}
        ]
    }));
    assert_eq!(errors(&s, json!({})), ["missing required property \"id\""]);
    assert_eq!(
        errors(&s, json!({"id": "7"})),
        ["/id: expected an integer, found a string (\"7\")"]
    );

    // Alternatives of constants read as one list.
    let s =
        schema(json!({"oneOf": [{"const": "asc"}, {"const": "desc"}, {"enum": ["up", "down"]}]}));
    assert_eq!(
        errors(&s, json!("sideways")),
        ["expected one of [\"asc\",\"desc\",\"up\",\"down\"], found \"sideways\""]
    );

    // Nullable date: the date branch is the one that fits a string.
    let s = schema(json!({"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]}));
    assert_eq!(
        errors(&s, json!("2024-02-30")),
        ["\"2024-02-30\" is not a valid date (format \"date\", YYYY-MM-DD)"]
    );
}

#[test]
fn if_then_else_and_refs() {
    let s = schema(json!({
        "$defs": {"positive": {"type": "number", "exclusiveMinimum": 0}},
        "properties": {"amount": {"$ref": "#/$defs/positive"}},
        "if": {"properties": {"kind": {"const": "refund"}}, "required": ["kind"]},
        "then": {"required": ["reason"]},
        "else": {"required": ["amount"]}
    }));
    assert_eq!(
        errors(&s, json!({"kind": "refund"})),
        ["missing required property \"reason\""]
    );
    assert_eq!(
        errors(&s, json!({})),
        ["missing required property \"amount\""]
    );
    assert_eq!(
        errors(&s, json!({"amount": -1})),
        ["/amount: -1 is too small: it must be greater than 0"]
    );
}

#[test]
fn formats_are_asserted_by_default_and_optional() {
    let date = schema(json!({"format": "date"}));
    assert!(!date.is_valid(&json!("2024-02-30")));
    assert!(date.is_valid(&json!("2024-02-29")));
    assert!(!date.is_valid(&json!("2023-02-29")));
    assert!(
        date.is_valid(&json!(20240229)),
        "formats only constrain strings"
    );

    let dt = schema(json!({"format": "date-time"}));
    assert!(dt.is_valid(&json!("2024-01-31T09:30:00+05:30")));
    assert!(dt.is_valid(&json!("2024-01-31T09:30:00.250Z")));
    assert!(
        !dt.is_valid(&json!("2024-01-31T09:30:00")),
        "an offset is required"
    );
    assert_eq!(
        errors(&dt, json!("2024-01-31 09:30")),
        ["\"2024-01-31 09:30\" is not a valid date-time (format \"date-time\", RFC 3339 with a UTC offset, e.g. 2024-01-31T09:30:00Z)"]
    );

    for (format, good, bad) in [
        ("time", "23:59:60Z", "25:00:00Z"),
        ("email", "a.b@example.com", "a.b@"),
        ("uuid", "123e4567-e89b-12d3-a456-426614174000", "123e4567"),
        ("uri", "https://example.com/x?y#z", "example.com"),
        ("ipv4", "10.0.0.255", "10.0.0.256"),
        ("ipv6", "fe80::1", "fe80:::1"),
        ("hostname", "example.com", "exa_mple.com"),
    ] {
        let s = schema(json!({"format": format}));
        assert!(s.is_valid(&json!(good)), "{format}: {good}");
        assert!(!s.is_valid(&json!(bad)), "{format}: {bad}");
    }

    // Unknown formats are ignored, even when asserting.
    assert!(schema(json!({"format": "credit-card"})).is_valid(&json!("x")));

    let lenient = Schema::compile_with(
        &json!({"format": "date"}),
        Options {
            assert_format: false,
        },
    )
    .unwrap();
    assert!(lenient.is_valid(&json!("next tuesday")));
    assert!(Options::default().assert_format);
}

#[test]
fn unsupported_and_misspelt_keywords_are_reported() {
    let errors = Schema::compile(&json!({
        "type": "object",
        "requried": ["a"],
        "properties": {"a": {"type": "string", "minLenght": 2}},
        "unevaluatedProperties": false
    }))
    .unwrap_err();
    // Keyword order follows the map's iteration order, which depends on
    // serde_json's preserve_order feature; compare sorted.
    let mut errors = errors;
    errors.sort_by(|a, b| a.schema_path.cmp(&b.schema_path));
    let found: Vec<(&str, &CompileErrorKind)> = errors
        .iter()
        .map(|e| (e.schema_path.as_str(), &e.kind))
        .collect();
    assert_eq!(
        found,
        [
            (
                "/properties/a/minLenght",
                &CompileErrorKind::UnsupportedKeyword("minLenght".into())
            ),
            (
                "/requried",
                &CompileErrorKind::UnsupportedKeyword("requried".into())
            ),
            (
                "/unevaluatedProperties",
                &CompileErrorKind::UnsupportedKeyword("unevaluatedProperties".into())
            ),
        ]
    );
    assert_eq!(
        errors[1].to_string(),
        "/requried: unknown keyword \"requried\" (did you mean \"required\"?)"
    );
    assert_eq!(
        errors[2].message,
        "keyword \"unevaluatedProperties\" is not supported by tool-schema; use \"additionalProperties\": false to reject unknown properties"
    );

    for keyword in [
        "$dynamicRef",
        "$dynamicAnchor",
        "$anchor",
        "$vocabulary",
        "$recursiveRef",
        "unevaluatedItems",
    ] {
        let errors = Schema::compile(&json!({ keyword: "x" })).unwrap_err();
        assert_eq!(
            errors[0].kind,
            CompileErrorKind::UnsupportedKeyword(keyword.into())
        );
    }
    // $id is fine at the root, not nested.
    assert!(Schema::compile(&json!({"$id": "https://example.com/tool.json"})).is_ok());
    let nested = Schema::compile(&json!({"properties": {"a": {"$id": "a.json"}}})).unwrap_err();
    assert_eq!(nested[0].schema_path, "/properties/a/$id");
    assert_eq!(
        nested[0].kind,
        CompileErrorKind::UnsupportedKeyword("$id".into())
    );
}

#[test]
fn names_and_data_are_not_mistaken_for_keywords() {
    let s = Schema::compile(&json!({
        "properties": {"requried": {"type": "string"}, "$ref": {"type": "string"}},
        "patternProperties": {"^x-": true},
        "$defs": {"minLenght": {"type": "integer"}},
        "dependentSchemas": {"foo": {"required": ["bar"]}},
        "enum": [{"nonsense": 1}],
        "const": {"nonsense": 1},
        "default": {"whatever": true},
        "examples": [{"nope": 1}],
        "title": "t", "description": "d", "$comment": "c", "deprecated": false,
        "readOnly": false, "writeOnly": false, "$schema": "https://json-schema.org/draft/2020-12/schema",
        "contentMediaType": "application/json", "contentEncoding": "base64", "contentSchema": {"bogus": 1}
    }));
    assert!(s.is_ok(), "{:?}", s.err());
}

#[test]
fn bad_keyword_values_are_all_reported() {
    let errors = Schema::compile(&json!({
        "required": "a",
        "minLength": -1,
        "pattern": "([a-z]",
        "type": "text",
        "items": [{"type": "string"}],
        "multipleOf": 0,
        "properties": {"a": 5}
    }))
    .unwrap_err();
    let mut errors = errors;
    errors.sort_by(|a, b| a.schema_path.cmp(&b.schema_path));
    let paths: Vec<&str> = errors.iter().map(|e| e.schema_path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/items",
            "/minLength",
            "/multipleOf",
            "/pattern",
            "/properties/a",
            "/required",
            "/type"
        ]
    );
    assert!(errors
        .iter()
        .all(|e| matches!(e.kind, CompileErrorKind::InvalidKeywordValue(_))));
    assert_eq!(
        errors[5].to_string(),
        "/required: \"required\" must be an array of property names, found a string (\"a\")"
    );
    assert_eq!(
        errors[6].to_string(),
        "/type: \"text\" is not a type name (use \"string\", \"integer\", \"number\", \"boolean\", \"object\", \"array\" or \"null\")"
    );
    // A misspelt type name gets the name it is nearest to.
    let e = Schema::compile(&json!({"properties": {"a": {"type": "objekt"}}})).unwrap_err();
    assert_eq!(
        e[0].to_string(),
        "/properties/a/type: \"objekt\" is not a type name (did you mean \"object\"?)"
    );
    // Lookaround is valid ECMA-262 that regex-lite lacks: unsupported, not invalid.
    let e = Schema::compile(&json!({"pattern": "^(?!admin)"})).unwrap_err();
    assert_eq!(
        e[0].kind,
        CompileErrorKind::UnsupportedKeyword("pattern".into())
    );
}

#[test]
fn refs_resolve_locally_or_are_reported() {
    let s = schema(json!({
        "$defs": {"a~b": {"type": "integer"}, "c/d": {"type": "string"}, "e%f": {"type": "boolean"}},
        "definitions": {"old": {"type": "null"}},
        "prefixItems": [
            {"$ref": "#/$defs/a~0b"},
            {"$ref": "#/$defs/c~1d"},
            {"$ref": "#/$defs/e%25f"},
            {"$ref": "#/definitions/old"},
            {"$ref": "#/prefixItems/0"}
        ]
    }));
    assert!(s.is_valid(&json!([1, "x", true, null, 2])));
    assert!(!s.is_valid(&json!([1, "x", true, null, "2"])));

    for (reference, kind) in [
        ("https://example.com/s.json", "remote"),
        ("other.json#/$defs/a", "relative"),
        ("#/$defs/missing", "missing"),
        ("#anchor", "anchor"),
        ("#/$defs/%zz", "bad escape"),
    ] {
        let errors = Schema::compile(&json!({"$defs": {}, "$ref": reference})).unwrap_err();
        assert_eq!(
            errors[0].kind,
            CompileErrorKind::UnresolvableRef(reference.into()),
            "{kind}"
        );
        assert_eq!(errors[0].schema_path, "/$ref");
    }
    // A ref that only an $id could resolve is reported, not guessed at.
    let errors = Schema::compile(&json!({
        "$id": "urn:example:root",
        "$defs": {"a": {"type": "string"}},
        "$ref": "urn:example:root#/$defs/a"
    }))
    .unwrap_err();
    assert!(matches!(
        errors[0].kind,
        CompileErrorKind::UnresolvableRef(_)
    ));
}
