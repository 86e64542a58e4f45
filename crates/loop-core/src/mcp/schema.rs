//! A server's input schema, compiled by our validator as far as it goes.
//!
//! Servers write any JSON Schema keyword (2020-12 in the 2026 generation;
//! most write draft-07, as zod-to-json-schema does). A keyword tool-schema
//! does not implement must not block the tool: it is taken out of the copy
//! we compile and named, with its path, as a check left to the server, which
//! validates the call again anyway. Draft-07's array-form `items` (a tuple)
//! and `dependencies` mean something 2020-12 spells differently; rather than
//! guess, they are left to the server too, and said so.

use serde_json::Value;
use tool_schema::{CompileErrorKind, Schema};

/// The compiled schema, and the checks left to the server (each a sentence
/// with its schema path).
pub fn compile(schema: &Value) -> (Schema, Vec<String>) {
    let (compiled, _, left) = compile_checked(schema);
    (compiled, left)
}

/// `compile`, also giving the schema as checked here: the server's, less
/// the keywords left to the server.
pub fn compile_checked(schema: &Value) -> (Schema, Value, Vec<String>) {
    let mut working = schema.clone();
    let mut left = Vec::new();
    // Each pass removes at least one keyword or stops, so this ends.
    for _ in 0..64 {
        let errors = match Schema::compile(&working) {
            Ok(compiled) => return (compiled, working, left),
            Err(errors) => errors,
        };
        let mut removed = false;
        for error in &errors {
            let keyword = match &error.kind {
                CompileErrorKind::UnsupportedKeyword(k)
                | CompileErrorKind::InvalidKeywordValue(k) => k.clone(),
                CompileErrorKind::UnresolvableRef(_) => "$ref".to_string(),
            };
            if remove_at(&mut working, &error.schema_path) {
                removed = true;
                let at = if error.schema_path.is_empty() {
                    "/".to_string()
                } else {
                    error.schema_path.clone()
                };
                left.push(format!("{at}: {}", reason(&keyword, &error.message)));
            }
        }
        if !removed {
            break;
        }
    }
    // Nothing left to take out, yet it does not compile: check nothing here.
    left.push(
        "/: the schema could not be compiled here; every check is left to the server".to_string(),
    );
    let anything = serde_json::json!({});
    (
        Schema::compile(&anything).expect("{} compiles"),
        anything,
        left,
    )
}

fn reason(keyword: &str, message: &str) -> String {
    match keyword {
        "items" => "draft-07 tuple \"items\" (an array of schemas) is not checked here".to_string(),
        "dependencies" => "draft-07 \"dependencies\" is not checked here".to_string(),
        _ => format!("not checked here ({message})"),
    }
}

/// Removes the member at JSON pointer `pointer`; false when there is none.
fn remove_at(root: &mut Value, pointer: &str) -> bool {
    let Some((parent, last)) = pointer.rsplit_once('/') else {
        return false;
    };
    let key = last.replace("~1", "/").replace("~0", "~");
    let target = if parent.is_empty() {
        Some(root)
    } else {
        root.pointer_mut(parent)
    };
    match target {
        Some(Value::Object(map)) => map.shift_remove(&key).is_some(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::compile;
    use serde_json::json;

    #[test]
    fn unknown_keywords_are_left_to_the_server_and_the_rest_is_checked() {
        let (schema, left) = compile(&json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {
                "pair": {"type": "array", "items": [{"type": "string"}, {"type": "number"}]},
                "n": {"type": "integer", "minimum": 1}
            },
            "unevaluatedProperties": false,
            "required": ["n"]
        }));
        assert_eq!(left.len(), 2, "{left:?}");
        assert!(left
            .iter()
            .any(|l| l.starts_with("/properties/pair/items: draft-07 tuple")));
        assert!(left
            .iter()
            .any(|l| l.starts_with("/unevaluatedProperties: not checked here")));
        assert!(schema.validate(&json!({"n": 0})).is_err());
        assert!(schema.validate(&json!({"n": 2, "pair": [1, 2]})).is_ok());
    }
}
