//! JSON merge patches (RFC 7386) and the paths a learner may edit.
//!
//! A lesson's `solution` (and `start`) is a merge patch: an object names
//! the members it changes, `null` removes one, anything else replaces. It
//! is small enough to write here, with the RFC's own examples as tests,
//! rather than carry a crate's JSON Pointer and JSON Patch machinery into
//! the web bundle.
//!
//! `editable` paths are the dotted paths scenario problems are reported
//! with (`limits.max_turns`, `tools[0].description`): a path covers its
//! value and everything inside it. `changed_outside` says which paths an
//! edit changed that no editable path covers, which is how the page keeps
//! the rest read-only and how a lesson's own solution is held to it.

use serde_json::{Map, Value};

/// Applies `patch` to `target` as RFC 7386 says.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(members) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let Value::Object(object) = target else {
        return;
    };
    for (key, value) in members {
        if value.is_null() {
            object.remove(key);
        } else {
            merge_patch(object.entry(key.clone()).or_insert(Value::Null), value);
        }
    }
}

/// One step of a dotted path.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

/// Reads `limits.max_turns` or `tools[0].input_schema` into steps; `None`
/// for a path that is not one (empty, `a..b`, `a[x]`).
fn steps(path: &str) -> Option<Vec<Step>> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (key, mut rest) = match part.find('[') {
            Some(at) => part.split_at(at),
            None => (part, ""),
        };
        if key.is_empty() && out.is_empty() {
            return None;
        }
        if !key.is_empty() {
            out.push(Step::Key(key.to_string()));
        } else if rest.is_empty() {
            return None;
        }
        while let Some(inner) = rest.strip_prefix('[') {
            let close = inner.find(']')?;
            out.push(Step::Index(inner[..close].parse().ok()?));
            rest = &inner[close + 1..];
        }
        if !rest.is_empty() {
            return None;
        }
    }
    Some(out)
}

/// Why `path` is not a dotted path, or `None` when it is one.
pub fn path_problem(path: &str) -> Option<String> {
    steps(path).is_none().then(|| {
        format!("{path:?} is not a path: write fields with dots and array items in brackets, as in limits.max_turns or tools[0].description")
    })
}

fn shown(steps: &[Step]) -> String {
    let mut out = String::new();
    for step in steps {
        match step {
            Step::Key(key) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// The dotted paths at which `edited` differs from `start` and that no
/// path of `editable` covers, in document order. Empty: the edit kept to
/// the editable paths. A changed object or array is named at its deepest
/// differing member, so the message points at what was touched.
pub fn changed_outside(start: &Value, edited: &Value, editable: &[String]) -> Vec<String> {
    let editable: Vec<Vec<Step>> = editable.iter().filter_map(|p| steps(p)).collect();
    let mut out = Vec::new();
    walk(start, edited, &mut Vec::new(), &editable, &mut out);
    out
}

/// Whether a field at `path` may be edited under `editable`: a path of
/// `editable` is the field or holds it (`tools[1]` holds
/// `tools[1].description`), or the field holds one (the scripted responses
/// hold `model.responses[2]`, which may then be edited through them, and
/// whatever else changes there is refused by `changed_outside`). The page
/// makes every other field read-only.
pub fn covers(editable: &[String], path: &str) -> bool {
    let Some(field) = steps(path) else {
        return false;
    };
    editable
        .iter()
        .filter_map(|p| steps(p))
        .any(|e| field.starts_with(&e) || e.starts_with(&field))
}

/// The dotted paths a merge patch sets (arrays and scalars are leaves).
pub fn patch_paths(patch: &Value) -> Vec<String> {
    fn walk(value: &Value, at: &str, out: &mut Vec<String>) {
        match value {
            Value::Object(map) if !map.is_empty() => {
                for (key, inner) in map {
                    let path = if at.is_empty() {
                        key.clone()
                    } else {
                        format!("{at}.{key}")
                    };
                    walk(inner, &path, out);
                }
            }
            _ => out.push(at.to_string()),
        }
    }
    let mut out = Vec::new();
    walk(patch, "", &mut out);
    out
}

/// The value at `path` in `root`, if there is one.
pub fn value_at<'a>(root: &'a Value, path: &str) -> Option<&'a Value> {
    steps(path)?.iter().try_fold(root, |node, step| match step {
        Step::Key(key) => node.get(key),
        Step::Index(i) => node.get(i),
    })
}

/// Why a value cannot be set at a path. Each `Display` names the path up to
/// where it went wrong, as the lesson's box and the checker show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatchError {
    /// The text is not a path (`path_problem` says so in words).
    NotAPath { sentence: String },
    /// The path goes into a key of something that is not an object.
    NotAnObject { at: String },
    /// The path goes into an item of something that is not a list.
    NotAList { at: String },
    /// The path goes past the end of a list.
    NoItem { at: String, index: usize },
}

impl std::fmt::Display for PatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PatchError::NotAPath { sentence } => f.write_str(sentence),
            PatchError::NotAnObject { at } => write!(f, "{at}: what holds it is not an object"),
            PatchError::NotAList { at } => write!(f, "{at}: what holds it is not a list"),
            PatchError::NoItem { at, index } => write!(f, "{at}: the list has no item {index}"),
        }
    }
}

impl std::error::Error for PatchError {}

/// Sets the value at `path` in `root`, making the objects on the way that
/// are missing (a lesson may open `context` in a scenario that has none).
pub fn set_at(root: &mut Value, path: &str, value: Value) -> Result<(), PatchError> {
    let steps = steps(path).ok_or_else(|| PatchError::NotAPath {
        sentence: path_problem(path).unwrap_or_default(),
    })?;
    let mut node = root;
    for (i, step) in steps.iter().enumerate() {
        let at = || shown(&steps[..=i]);
        node = match step {
            Step::Key(key) => node
                .as_object_mut()
                .ok_or_else(|| PatchError::NotAnObject { at: at() })?
                .entry(key.clone())
                .or_insert(Value::Null),
            Step::Index(index) => node
                .as_array_mut()
                .ok_or_else(|| PatchError::NotAList { at: at() })?
                .get_mut(*index)
                .ok_or_else(|| PatchError::NoItem {
                    at: at(),
                    index: *index,
                })?,
        };
        if i + 1 < steps.len() && node.is_null() {
            *node = Value::Object(Map::new());
        }
    }
    *node = value;
    Ok(())
}

/// Equal as JSON: `3` and `3.0` are one number. An editor that rewrites
/// the text (the page's JSON box after a paste, a formatter) may write either,
/// and neither is a change the learner made.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn walk(a: &Value, b: &Value, at: &mut Vec<Step>, editable: &[Vec<Step>], out: &mut Vec<String>) {
    if editable.iter().any(|e| at.starts_with(e)) || same(a, b) {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys = x.keys().chain(y.keys().filter(|k| !x.contains_key(*k)));
            for key in keys {
                at.push(Step::Key(key.clone()));
                let missing = Value::Null;
                let (p, q) = (x.get(key), y.get(key));
                match (p, q) {
                    (Some(p), Some(q)) => walk(p, q, at, editable, out),
                    // Added or removed: that member is the change.
                    _ if editable.iter().any(|e| at.starts_with(e)) => {}
                    _ if p.unwrap_or(&missing) != q.unwrap_or(&missing) => out.push(shown(at)),
                    _ => {}
                }
                at.pop();
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                at.push(Step::Index(i));
                walk(p, q, at, editable, out);
                at.pop();
            }
        }
        _ => out.push(shown(at)),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_patch_names_its_paths() {
        let patch = serde_json::json!({"limits": {"max_turns": 3}, "tools": [1]});
        assert_eq!(
            super::patch_paths(&patch),
            vec!["limits.max_turns", "tools"]
        );
    }

    use super::*;
    use serde_json::json;

    fn patched(target: Value, patch: Value) -> Value {
        let mut target = target;
        merge_patch(&mut target, &patch);
        target
    }

    /// RFC 7386, Appendix A, every example.
    #[test]
    fn rfc_7386_examples() {
        let cases = [
            (json!({"a":"b"}), json!({"a":"c"}), json!({"a":"c"})),
            (json!({"a":"b"}), json!({"b":"c"}), json!({"a":"b","b":"c"})),
            (json!({"a":"b"}), json!({"a":null}), json!({})),
            (
                json!({"a":"b","b":"c"}),
                json!({"a":null}),
                json!({"b":"c"}),
            ),
            (json!({"a":["b"]}), json!({"a":"c"}), json!({"a":"c"})),
            (json!({"a":"c"}), json!({"a":["b"]}), json!({"a":["b"]})),
            (
                json!({"a":{"b":"c"}}),
                json!({"a":{"b":"d","c":null}}),
                json!({"a":{"b":"d"}}),
            ),
            (json!({"a":[{"b":"c"}]}), json!({"a":[1]}), json!({"a":[1]})),
            (json!(["a", "b"]), json!(["c", "d"]), json!(["c", "d"])),
            (json!({"a":"b"}), json!(["c"]), json!(["c"])),
            (json!({"a":"foo"}), json!(null), json!(null)),
            (json!({"a":"foo"}), json!("bar"), json!("bar")),
            (json!({"e":null}), json!({"a":1}), json!({"e":null,"a":1})),
            (json!([1, 2]), json!({"a":"b","c":null}), json!({"a":"b"})),
            (
                json!({}),
                json!({"a":{"bb":{"ccc":null}}}),
                json!({"a":{"bb":{}}}),
            ),
        ];
        for (target, patch, want) in cases {
            assert_eq!(
                patched(target.clone(), patch.clone()),
                want,
                "{target} + {patch}"
            );
        }
    }

    #[test]
    fn paths_read_as_scenario_problems_write_them() {
        assert_eq!(
            steps("tools[0].input_schema.properties"),
            Some(vec![
                Step::Key("tools".into()),
                Step::Index(0),
                Step::Key("input_schema".into()),
                Step::Key("properties".into()),
            ])
        );
        assert_eq!(
            steps("m[1][2]"),
            Some(vec![Step::Key("m".into()), Step::Index(1), Step::Index(2)])
        );
        for bad in ["", "a..b", "a[x]", "a[1", "[0]", "a[1]b"] {
            assert!(path_problem(bad).is_some(), "{bad}");
        }
        assert_eq!(path_problem("limits.max_turns"), None);
    }

    #[test]
    fn an_edit_inside_an_editable_path_is_allowed() {
        let start =
            json!({"limits": {"max_turns": 10}, "task": "t", "tools": [{"description": "a"}]});
        let editable = vec!["limits".to_string(), "tools[0].description".to_string()];
        let edited = json!({"limits": {"max_turns": 3, "max_tool_calls": 2}, "task": "t", "tools": [{"description": "b"}]});
        assert!(changed_outside(&start, &edited, &editable).is_empty());
    }

    #[test]
    fn an_edit_elsewhere_is_named_at_its_path() {
        let start = json!({"limits": {"max_turns": 10}, "task": "t", "tools": [{"description": "a", "name": "x"}]});
        let editable = vec!["limits.max_turns".to_string()];
        let edited = json!({"limits": {"max_turns": 3, "deadline_ms": 5}, "task": "u", "tools": [{"description": "a", "name": "y"}], "now": "x"});
        assert_eq!(
            changed_outside(&start, &edited, &editable),
            vec!["limits.deadline_ms", "task", "tools[0].name", "now"]
        );
        // A removed member and an array of another length are named too.
        let shorter = json!({"limits": {"max_turns": 10}, "tools": []});
        assert_eq!(
            changed_outside(&start, &shorter, &editable),
            vec!["task", "tools"]
        );
    }

    #[test]
    fn a_number_written_another_way_is_no_change() {
        let start =
            json!({"pricing": {"input_usd_per_mtok": 3.0}, "limits": {"cost_mode": "naive"}});
        let edited =
            json!({"pricing": {"input_usd_per_mtok": 3}, "limits": {"cost_mode": "strict"}});
        assert!(changed_outside(&start, &edited, &["limits.cost_mode".to_string()]).is_empty());
        let other =
            json!({"pricing": {"input_usd_per_mtok": 3.5}, "limits": {"cost_mode": "naive"}});
        assert_eq!(
            changed_outside(&start, &other, &["limits.cost_mode".to_string()]),
            vec!["pricing.input_usd_per_mtok"]
        );
    }
    #[test]
    fn a_field_is_editable_inside_or_around_an_editable_path() {
        let editable = ["tools[1]".to_string(), "limits.max_turns".to_string()];
        assert!(covers(&editable, "tools[1].description"));
        assert!(covers(&editable, "limits.max_turns"));
        // A field that holds an editable path is edited through it.
        assert!(covers(&editable, "limits"));
        assert!(!covers(&editable, "tools[0].description"));
        assert!(!covers(&editable, "limits.max_tool_calls"));
        assert!(!covers(&editable, "task"));
        assert!(!covers(&[], "task"));
    }

    #[test]
    fn a_value_is_read_and_set_at_its_path() {
        let mut root = json!({"tools": [{"name": "a"}, {"name": "b"}]});
        assert_eq!(value_at(&root, "tools[1].name"), Some(&json!("b")));
        assert_eq!(value_at(&root, "context.window_tokens"), None);
        set_at(&mut root, "tools[1].description", json!("Looks up b.")).unwrap();
        set_at(&mut root, "context.window_tokens", json!(8000)).unwrap();
        assert_eq!(root["tools"][1]["description"], "Looks up b.");
        assert_eq!(root["context"], json!({"window_tokens": 8000}));
        let said = |result: Result<(), PatchError>| result.unwrap_err().to_string();
        assert_eq!(
            said(set_at(&mut root, "tools[5].name", json!("c"))),
            "tools[5]: the list has no item 5"
        );
        assert_eq!(
            said(set_at(&mut root, "tools[0].name.first", json!("c"))),
            "tools[0].name.first: what holds it is not an object"
        );
        assert_eq!(
            said(set_at(&mut root, "tools.name[0]", json!("c"))),
            "tools.name: what holds it is not an object"
        );
        assert_eq!(
            said(set_at(&mut root, "tools[0].name[0]", json!("c"))),
            "tools[0].name[0]: what holds it is not a list"
        );
        assert!(matches!(
            set_at(&mut root, "a..b", json!(1)),
            Err(PatchError::NotAPath { sentence }) if sentence.starts_with("\"a..b\" is not a path")
        ));
    }
}
