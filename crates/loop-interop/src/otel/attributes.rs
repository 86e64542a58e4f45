//! OTLP/JSON attribute values read as plain JSON, for the import and the
//! older-forms reader alike.

use serde_json::Value;

/// An attribute's value as plain JSON: a string, a number, a bool, an
/// array, an object (a key-value list).
pub fn attribute(holder: &Value, key: &str) -> Option<Value> {
    let found = holder
        .get("attributes")?
        .as_array()?
        .iter()
        .find(|a| a["key"] == key)?;
    any_value(&found["value"])
}

pub fn any_value(value: &Value) -> Option<Value> {
    let object = value.as_object()?;
    let (kind, inner) = object.iter().next()?;
    Some(match kind.as_str() {
        "stringValue" | "boolValue" | "doubleValue" => inner.clone(),
        // 64-bit integers are strings in OTLP/JSON, numbers from some writers.
        "intValue" => match inner {
            Value::String(text) => text.parse::<i64>().map(Value::from).unwrap_or(Value::Null),
            other => other.clone(),
        },
        "arrayValue" => Value::Array(
            inner["values"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(any_value)
                .collect(),
        ),
        "kvlistValue" => Value::Object(
            inner["values"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|kv| Some((kv["key"].as_str()?.to_string(), any_value(&kv["value"])?)))
                .collect(),
        ),
        _ => return None,
    })
}
