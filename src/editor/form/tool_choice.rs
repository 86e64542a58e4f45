//! The form's `tool_choice` picker: its options (auto, any, none, then one
//! per listed tool), which one the scenario's JSON holds, and what picking
//! one writes. Pure and tested natively.

use serde_json::{json, Value};

/// The option of a named tool is this prefix and the tool's name.
const TOOL: &str = "tool:";

/// The picker's options as (value, label): the three words, then "must
/// call NAME" for each tool the scenario lists, and for a named tool it
/// does not list (so the picker shows what the file says; loading says
/// what is wrong with it).
pub fn options(scenario: &Value) -> Vec<(String, String)> {
    let mut options: Vec<(String, String)> = [
        ("auto", "auto: the model decides (default)"),
        ("any", "any: it must call some tool"),
        ("none", "none: it must not call tools"),
    ]
    .iter()
    .map(|(value, label)| (value.to_string(), label.to_string()))
    .collect();
    let mut names: Vec<String> = scenario
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|tool| match tool {
            Value::String(name) => Some(name.clone()),
            other => other
                .get("name")
                .and_then(Value::as_str)
                .map(str::to_string),
        })
        .collect();
    if let Some(named) = named(scenario) {
        if !names.contains(&named) {
            names.push(named);
        }
    }
    options.extend(
        names
            .into_iter()
            .map(|name| (format!("{TOOL}{name}"), format!("must call {name}"))),
    );
    options
}

/// The option the scenario's `tool_choice` is ("auto" when it has none).
pub fn current(scenario: &Value) -> String {
    match scenario.get("tool_choice") {
        None => "auto".to_string(),
        Some(Value::String(word)) => word.clone(),
        Some(_) => named(scenario).map_or_else(String::new, |name| format!("{TOOL}{name}")),
    }
}

/// What picking `option` writes at `tool_choice`: nothing for auto (the
/// default), the word, or `{"tool": name}`.
pub fn value_of(option: &str) -> Option<Value> {
    match option.strip_prefix(TOOL) {
        Some(name) => Some(json!({ "tool": name })),
        None if option == "auto" => None,
        None => Some(json!(option)),
    }
}

fn named(scenario: &Value) -> Option<String> {
    scenario
        .get("tool_choice")?
        .get("tool")?
        .as_str()
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_listed_tool_can_be_named_and_the_files_choice_is_shown() {
        let scenario =
            json!({"tools": ["get_time", {"name": "lookup"}], "tool_choice": {"tool": "notfy"}});
        let values: Vec<String> = options(&scenario).into_iter().map(|(v, _)| v).collect();
        assert_eq!(
            values,
            [
                "auto",
                "any",
                "none",
                "tool:get_time",
                "tool:lookup",
                "tool:notfy"
            ]
        );
        assert_eq!(current(&scenario), "tool:notfy");
        assert_eq!(current(&json!({})), "auto");
        assert_eq!(current(&json!({"tool_choice": "none"})), "none");
    }

    #[test]
    fn picking_writes_the_scenario_format() {
        assert_eq!(value_of("auto"), None);
        assert_eq!(value_of("any"), Some(json!("any")));
        assert_eq!(value_of("tool:lookup"), Some(json!({"tool": "lookup"})));
    }
}
