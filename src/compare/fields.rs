//! Where B differs from A, as the paths of the fields of B's form
//! (`editor::view::scenario_form` names its fields so): "task", "system",
//! "tools[1].description", "tools[1].input_schema",
//! "tools[1].needs_approval", "tool_choice", "limits.max_turns",
//! "context.window_tokens", "model.responses". The Compare panel marks
//! those fields in B's form "differs from A", so a pair's one edit is found
//! at a glance.
//!
//! A tool is matched by name, and its index is B's (the form lists B's
//! tools); a built-in listed by name stands for its own description and
//! schema, as in `change`. A tool only B has is marked whole (its
//! description, schema and approval), as every part of it is new.
//!
//! Invariant: pure, no signals or DOM; tested natively.

use serde_json::Value;

use super::change::tools_of;

/// The sections of a scenario whose keys are each a field of the form.
const KEYED_SECTIONS: [&str; 2] = ["limits", "context"];

/// The paths of B's form fields whose values differ from A's, in the
/// form's order.
pub fn differing_fields(a: &Value, b: &Value) -> Vec<String> {
    let mut paths = Vec::new();
    for key in ["task", "system"] {
        if a.get(key) != b.get(key) {
            paths.push(key.to_string());
        }
    }
    let (tools_a, tools_b) = (tools_of(a), tools_of(b));
    for (i, tool) in tools_b.iter().enumerate() {
        let other = tools_a.iter().find(|t| t.name == tool.name);
        let parts = [
            (
                "description",
                other.is_none_or(|o| o.description != tool.description),
            ),
            (
                "input_schema",
                other.is_none_or(|o| o.schema != tool.schema),
            ),
            (
                "needs_approval",
                other.is_none_or(|o| o.needs_approval != tool.needs_approval),
            ),
        ];
        for (part, differs) in parts {
            if differs {
                paths.push(format!("tools[{i}].{part}"));
            }
        }
    }
    if a.get("tool_choice") != b.get("tool_choice") {
        paths.push("tool_choice".to_string());
    }
    for section in KEYED_SECTIONS {
        let (in_a, in_b) = (a.get(section), b.get(section));
        let mut keys: Vec<&str> = keys_of(in_a).collect();
        keys.extend(keys_of(in_b).filter(|k| !keys_of(in_a).any(|known| known == *k)));
        for key in keys {
            if present(in_a, key) != present(in_b, key) {
                paths.push(format!("{section}.{key}"));
            }
        }
    }
    let responses = |side: &Value| side.get("model").and_then(|m| m.get("responses")).cloned();
    if responses(a) != responses(b) {
        paths.push("model.responses".to_string());
    }
    paths
}

/// `section`'s value at `key`; a loaded scenario writes an unset one as null.
fn present<'v>(section: Option<&'v Value>, key: &str) -> Option<&'v Value> {
    section.and_then(|s| s.get(key)).filter(|v| !v.is_null())
}

/// The top-level parts of the scenario the form has fields for (the model
/// only by its responses); the scenario's name and description label it.
const IN_THE_FORM: [&str; 9] = [
    "name",
    "description",
    "task",
    "system",
    "tools",
    "tool_choice",
    "limits",
    "context",
    "model",
];

/// Where B differs from A in parts its form has no field for (the
/// verifier, a tool's handler, the model's kind), as words for a note:
/// "“verify”", "get_order's handler", "the model (not its responses)".
pub fn differing_outside_form(a: &Value, b: &Value) -> Vec<String> {
    let mut parts = Vec::new();
    let (tools_a, tools_b) = (tools_of(a), tools_of(b));
    for tool in &tools_b {
        if let Some(other) = tools_a.iter().find(|t| t.name == tool.name) {
            if other.rest != tool.rest {
                parts.push(format!("{}'s handler", tool.name));
            }
        }
    }
    let model_but_responses = |side: &Value| {
        let mut model = side.get("model").cloned().unwrap_or(Value::Null);
        if let Some(fields) = model.as_object_mut() {
            fields.remove("responses");
        }
        model
    };
    if model_but_responses(a) != model_but_responses(b) {
        parts.push("the model (not its responses)".to_string());
    }
    let mut keys: Vec<&str> = keys_of(Some(a)).collect();
    keys.extend(keys_of(Some(b)).filter(|k| !keys_of(Some(a)).any(|known| known == *k)));
    for key in keys.into_iter().filter(|k| !IN_THE_FORM.contains(k)) {
        if present(Some(a), key) != present(Some(b), key) {
            parts.push(format!("“{key}”"));
        }
    }
    parts
}

fn keys_of(section: Option<&Value>) -> impl Iterator<Item = &str> {
    section
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|fields| fields.keys().map(String::as_str))
}

/// Whether the form section `section` ("tools", "limits") holds one of
/// `paths`: that section opens, so the field marked is in view.
pub fn holds(paths: &[String], section: &str) -> bool {
    paths.iter().any(|p| {
        p == section
            || p.strip_prefix(section)
                .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_copy_differs_nowhere() {
        let a = json!({"task": "t", "tools": ["get_order"], "limits": {"max_turns": 3}});
        assert!(differing_fields(&a, &a).is_empty());
        assert!(differing_outside_form(&a, &a).is_empty());
    }

    #[test]
    fn parts_the_form_has_no_field_for_are_named_apart() {
        let a = json!({"name": "a", "tools": [{"name": "t", "result": 1}], "verify": [{"contains": "x"}],
            "model": {"type": "scripted", "responses": []}});
        let b = json!({"name": "b", "tools": [{"name": "t", "result": 2}], "verify": [{"contains": "y"}],
            "model": {"type": "rules", "responses": []}});
        assert!(differing_fields(&a, &b).is_empty());
        assert_eq!(
            differing_outside_form(&a, &b),
            ["t's handler", "the model (not its responses)", "“verify”"]
        );
    }

    #[test]
    fn an_edited_description_of_an_overridden_builtin_is_its_one_field() {
        let builtin = harness::tools::builtin("get_order").unwrap();
        let a = json!({"task": "t", "tools": ["get_time", "get_order"]});
        let b = json!({"task": "t", "tools": ["get_time", {"name": "get_order", "builtin": "get_order",
            "description": "Look up an order, e.g. A1001.", "input_schema": builtin.spec.input_schema,
            "needs_approval": builtin.needs_approval}]});
        assert_eq!(differing_fields(&a, &b), ["tools[1].description"]);
    }

    #[test]
    fn limits_responses_and_a_new_tool_are_named_by_their_fields() {
        let a = json!({"task": "t", "tools": [], "limits": {"max_turns": 3, "max_cost_usd": null},
            "model": {"responses": [{"content": "hi"}]}});
        let b = json!({"task": "t", "system": "Be brief.", "tools": [{"name": "x", "description": "d"}],
            "limits": {"max_turns": 5}, "context": {"window_tokens": 900},
            "model": {"responses": [{"content": "bye"}]}});
        assert_eq!(
            differing_fields(&a, &b),
            [
                "system",
                "tools[0].description",
                "tools[0].input_schema",
                "tools[0].needs_approval",
                "limits.max_turns",
                "context.window_tokens",
                "model.responses"
            ]
        );
        let paths = differing_fields(&a, &b);
        assert!(holds(&paths, "tools") && holds(&paths, "limits") && holds(&paths, "model"));
        assert!(!holds(&paths, "task") && !holds(&paths, "tool"));
    }
}
