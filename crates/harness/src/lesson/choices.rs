//! The values a scenario path may take when they are a closed set (an
//! `enum`, a `const`, a boolean), read from the published scenario JSON
//! Schema (`SCENARIO_SCHEMA`), so a lesson's editable field can show them
//! beside it: the schema is the one place they are written, so the list
//! cannot drift from what the loader accepts.

use std::sync::OnceLock;

use serde_json::Value;

use crate::scenario::SCENARIO_SCHEMA;

/// The values `path` (dotted, as a lesson's `editable`: `limits.stop_mode`,
/// `tools[0].input_schema`) may take, in the schema's order; `None` when
/// they are not a closed set (a number, a text, an object) or the schema
/// does not describe the path.
pub fn allowed_values(path: &str) -> Option<Vec<Value>> {
    let root = schema();
    let mut node = resolve(root, root)?;
    for step in steps(path)? {
        node = child(root, node, &step)?;
    }
    closed_set(root, node)
}

/// The scenario schema, parsed once.
fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| serde_json::from_str(SCENARIO_SCHEMA).unwrap_or(Value::Null))
}

/// One step down a path: an object's key, or any item of an array.
#[derive(Debug, PartialEq)]
enum Step {
    Key(String),
    Item,
}

/// `tools[0].input_schema` as steps (`tools`, an item, `input_schema`);
/// `None` for text that is not a dotted path.
fn steps(path: &str) -> Option<Vec<Step>> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (key, mut rest) = part.split_at(part.find('[').unwrap_or(part.len()));
        if key.is_empty() && (out.is_empty() || rest.is_empty()) {
            return None;
        }
        if !key.is_empty() {
            out.push(Step::Key(key.to_string()));
        }
        while let Some(inner) = rest.strip_prefix('[') {
            let close = inner.find(']')?;
            inner[..close].parse::<usize>().ok()?;
            out.push(Step::Item);
            rest = &inner[close + 1..];
        }
        if !rest.is_empty() {
            return None;
        }
    }
    Some(out)
}

/// `node` with its `$ref` (`#/$defs/limits`) followed.
fn resolve<'a>(root: &'a Value, node: &'a Value) -> Option<&'a Value> {
    let mut node = node;
    // A bound, so a schema that refers to itself in a ring cannot hang.
    for _ in 0..16 {
        match node.get("$ref").and_then(Value::as_str) {
            Some(reference) => node = root.pointer(reference.strip_prefix('#')?)?,
            None => return Some(node),
        }
    }
    None
}

/// The schema of `step` under `node`: a property (or what
/// `additionalProperties` allows), an array's items, or the first branch of
/// an `anyOf`/`oneOf` that has it.
fn child<'a>(root: &'a Value, node: &'a Value, step: &Step) -> Option<&'a Value> {
    let node = resolve(root, node)?;
    let direct = match step {
        Step::Key(key) => node
            .get("properties")
            .and_then(|p| p.get(key))
            .or_else(|| node.get("additionalProperties").filter(|a| a.is_object())),
        Step::Item => node.get("items"),
    };
    if let Some(found) = direct {
        return resolve(root, found);
    }
    branches(node).find_map(|branch| child(root, branch, step))
}

/// The branches of an `anyOf` or `oneOf`, if `node` has them.
fn branches(node: &Value) -> impl Iterator<Item = &Value> {
    ["anyOf", "oneOf"]
        .into_iter()
        .filter_map(|key| node.get(key).and_then(Value::as_array))
        .flatten()
}

/// The values `node` allows when they are a closed set: its `enum`, its
/// `const`, true and false for a boolean, or the union of its branches when
/// every branch is closed.
fn closed_set(root: &Value, node: &Value) -> Option<Vec<Value>> {
    let node = resolve(root, node)?;
    if let Some(values) = node.get("enum").and_then(Value::as_array) {
        return Some(values.clone());
    }
    if let Some(value) = node.get("const") {
        return Some(vec![value.clone()]);
    }
    if node.get("type").and_then(Value::as_str) == Some("boolean") {
        return Some(vec![Value::Bool(true), Value::Bool(false)]);
    }
    let mut any = false;
    let mut union: Vec<Value> = Vec::new();
    for branch in branches(node) {
        any = true;
        for value in closed_set(root, branch)? {
            if !union.contains(&value) {
                union.push(value);
            }
        }
    }
    any.then_some(union)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn words(path: &str) -> Option<Vec<Value>> {
        allowed_values(path)
    }

    #[test]
    fn the_limits_modes_are_closed_sets_in_the_schema_s_order() {
        assert_eq!(
            words("limits.stop_mode"),
            Some(vec![json!("strict"), json!("naive")])
        );
        assert_eq!(
            words("limits.deadline_mode"),
            Some(vec![json!("interrupt"), json!("between_steps")])
        );
        assert_eq!(
            words("limits.repeat_mode"),
            Some(vec![json!("canonical"), json!("naive")])
        );
        assert_eq!(
            words("limits.cost_mode"),
            Some(vec![json!("strict"), json!("naive")])
        );
    }

    #[test]
    fn the_approval_policy_is_a_closed_set() {
        assert_eq!(
            words("approval"),
            Some(vec![json!("ask"), json!("approve_all"), json!("deny_all")])
        );
    }

    #[test]
    fn a_free_value_has_no_list() {
        assert_eq!(words("limits.max_turns"), None);
        assert_eq!(words("limits.max_cost_usd"), None);
        assert_eq!(words("task"), None);
        assert_eq!(words("tools[0].input_schema"), None);
        assert_eq!(words("verify"), None);
    }

    #[test]
    fn a_path_the_schema_does_not_have_or_that_is_not_one_has_no_list() {
        assert_eq!(words("limits.stop_mood"), None);
        assert_eq!(words("limits..stop_mode"), None);
        assert_eq!(words("limits[x]"), None);
        assert_eq!(words(""), None);
    }

    #[test]
    fn a_path_reads_through_arrays_references_and_branches() {
        assert_eq!(
            steps("tools[0].input_schema"),
            Some(vec![
                Step::Key("tools".into()),
                Step::Item,
                Step::Key("input_schema".into())
            ])
        );
        // A tool's needs_approval is a boolean, inside an inline tool (an
        // `anyOf` branch of the tools' items, behind a `$ref`).
        assert_eq!(
            words("tools[0].needs_approval"),
            Some(vec![json!(true), json!(false)])
        );
    }
}
