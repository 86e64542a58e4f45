//! The structured scenario editor's logic: which limits exist and in what
//! units, how a field edit rewrites the scenario JSON, and which load
//! problems belong under which part of the form.
//!
//! The JSON text stays the one source of truth: every field edit parses it,
//! changes one value and writes it back, so the raw JSON box and the fields
//! never disagree. Pure and tested natively.

use harness::context::ContextConfig;
pub use harness::field::{Field, FieldKind};
use harness::limits::Limits;
use harness::scenario::syntax::describe;
use serde_json::{Map, Value};

pub(crate) mod json_number;
pub mod tool_choice;
use json_number::JsonNumber;

/// Every limit a scenario can set, in the order of `Limits`'s fields, with
/// its label, unit and what an empty field means: the core's table, which
/// the schema and the bounds check are written from too.
pub const LIMITS: &[Field] = Limits::FIELDS;

/// Every field of a scenario's `context` object, from the same
/// kind of table.
pub const CONTEXT_FIELDS: &[Field] = ContextConfig::FIELDS;

/// One step of a path into the scenario JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    Field(&'static str),
    Index(usize),
}

/// The scenario text with the value at `path` replaced (`None` removes it),
/// pretty-printed. Objects on the way are created; `Err` when the text is not
/// JSON or the path runs through something that is not an object or array.
pub fn set_path(text: &str, path: &[Key], value: Option<Value>) -> Result<String, String> {
    let mut root: Value = serde_json::from_str(text)
        .map_err(|e| format!("the scenario is {}", describe(&e, text)))?;
    let Some((last, parents)) = path.split_last() else {
        return Err("empty path".to_string());
    };
    let mut node = &mut root;
    for key in parents {
        node = match key {
            Key::Field(name) => {
                let object = node
                    .as_object_mut()
                    .ok_or_else(|| format!("{name}: the parent is not an object"))?;
                object
                    .entry(name.to_string())
                    .or_insert_with(|| Value::Object(Map::new()))
            }
            Key::Index(i) => node
                .get_mut(*i)
                .ok_or_else(|| format!("[{i}]: no such entry"))?,
        };
    }
    match (last, value) {
        (Key::Field(name), Some(value)) => {
            node.as_object_mut()
                .ok_or_else(|| format!("{name}: the parent is not an object"))?
                .insert(name.to_string(), value);
        }
        (Key::Field(name), None) => {
            if let Some(object) = node.as_object_mut() {
                object.remove(*name);
            }
        }
        (Key::Index(i), Some(value)) => {
            *node
                .get_mut(*i)
                .ok_or_else(|| format!("[{i}]: no such entry"))? = value;
        }
        (Key::Index(_), None) => return Err("cannot remove an array entry".to_string()),
    }
    Ok(serde_json::to_string_pretty(&root).unwrap_or_default())
}

/// A limit's input text as a JSON value: empty removes the limit; `Err`,
/// with the range and the text as typed, when the text is not a number the
/// limit takes. A whole number is read as JSON writes it (`1e3`, `1000.0`).
pub fn parse_limit(field: &Field, input: &str) -> Result<Option<Value>, String> {
    let input = input.trim();
    if input.is_empty() {
        return Ok(None);
    }
    let label = field.label;
    match field.kind {
        FieldKind::Integer { min, max } => {
            let range = format!("a whole number from {min} to {}", max.words());
            let why = match json_number::read(input) {
                JsonNumber::Whole(n) if n < min => format!("{input} is too small"),
                JsonNumber::Whole(n) if n as f64 > max.value => format!("{input} is too large"),
                JsonNumber::Whole(n) => return Ok(Some(Value::from(n))),
                JsonNumber::Negative => format!("{input} is too small"),
                JsonNumber::Huge => format!("{input} is too large"),
                JsonNumber::Fraction => format!("{input} is not whole"),
                JsonNumber::NotANumber => format!("“{input}” is not a number"),
            };
            Err(format!("{label}: {range}; {why}"))
        }
        FieldKind::Number { above, max } => {
            let range = format!("a number above {above} and at most {}", max.words());
            // Rust also reads "inf" and "NaN", which JSON does not write.
            let spelled = input.contains(|c: char| c.is_ascii_alphabetic() && !"eE".contains(c));
            let why = match harness::float_text::parse_f64(input) {
                Some(_) if spelled => format!("“{input}” is not a number"),
                Some(n) if n <= above => format!("{input} is too small"),
                Some(n) if n > max.value => format!("{input} is too large"),
                Some(n) => match serde_json::Number::from_f64(n) {
                    Some(n) => return Ok(Some(Value::Number(n))),
                    None => format!("“{input}” is not a number"),
                },
                None => format!("“{input}” is not a number"),
            };
            Err(format!("{label}: {range}; {why}"))
        }
        FieldKind::Choice(words) => words
            .iter()
            .find(|w| **w == input)
            .map(|w| Some(Value::from(*w)))
            .ok_or_else(|| format!("{}: one of {}", field.label, words.join(", "))),
        FieldKind::Bool => match input {
            "true" => Ok(Some(Value::Bool(true))),
            "false" => Ok(Some(Value::Bool(false))),
            _ => Err(format!("{}: true or false", field.label)),
        },
        FieldKind::Names => Ok(Some(Value::Array(
            input
                .split(',')
                .map(str::trim)
                .filter(|name| !name.is_empty())
                .map(Value::from)
                .collect(),
        ))),
    }
}

/// A refused field's error, with what the JSON holds meanwhile: the form
/// shows the text as typed, so it must say that the JSON did not take it.
/// `kept` is the field's value in the JSON (`field_text`), empty for none.
pub fn not_written(why: &str, kept: &str) -> String {
    if kept.is_empty() {
        format!("{why}. Not written: the JSON has no value here.")
    } else {
        format!("{why}. Not written: the JSON keeps {kept}.")
    }
}

/// A limit's current value as its input shows it.
pub fn limit_text(scenario: &Value, key: &str) -> String {
    field_text(scenario, "limits", key)
}

/// The current value of `section.key` (`limits.max_turns`,
/// `context.strategy`) as its input shows it.
pub fn field_text(scenario: &Value, section: &str, key: &str) -> String {
    match scenario.get(section).and_then(|l| l.get(key)) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(", "),
        _ => String::new(),
    }
}

/// `path: message` lines under `prefix` (`tools[1]`, `model.responses`),
/// with the prefix shortened away, for showing under that part of the form.
pub fn problems_under(lines: &[String], prefix: &str) -> Vec<String> {
    lines
        .iter()
        .filter_map(|line| {
            let rest = line.strip_prefix(prefix)?;
            // `tools[1]` must not claim `tools[10]`.
            match rest.chars().next() {
                Some('.') | Some('[') | Some(':') => Some(line.clone()),
                _ => None,
            }
        })
        .collect()
}

/// Why Run is disabled, or `None` when the scenario can run.
pub fn run_blocker(problems: &[String], field_errors: &[String]) -> Option<String> {
    let count = problems.len() + field_errors.len();
    let first = field_errors.first().or(problems.first())?;
    Some(if count == 1 {
        format!("Run is disabled: {first}")
    } else {
        let more = count - 1;
        let noun = if more == 1 { "problem" } else { "problems" };
        format!("Run is disabled: {first} (and {more} more {noun})")
    })
}

/// Where a text stops being JSON, for the text box's gutter and its
/// "Go to line" button. Line and column count from 1, in characters, as the
/// problem list says them (`harness::scenario::syntax`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub line: usize,
    pub column: usize,
}

impl SyntaxError {
    /// The caret position for a text box, which counts UTF-16 code units.
    pub fn utf16_offset(&self, text: &str) -> u32 {
        let mut offset = 0usize;
        for (i, line) in text.split('\n').enumerate() {
            if i + 1 == self.line {
                let before = line.chars().take(self.column.saturating_sub(1));
                offset += before.map(char::len_utf16).sum::<usize>();
                return offset as u32;
            }
            offset += line.encode_utf16().count() + 1;
        }
        offset.saturating_sub(1) as u32
    }
}

/// The first syntax error in `text`, or `None` when it is valid JSON.
pub fn syntax_error(text: &str) -> Option<SyntaxError> {
    let error = serde_json::from_str::<Value>(text).err()?;
    // serde_json's column 0 means it stopped at a line break: the end of the
    // line before, as the problem list says it.
    let (line, byte_column) = match (error.line().max(1), error.column()) {
        (line, 0) if line > 1 => {
            let before = text.split('\n').nth(line - 2).unwrap_or_default();
            (line - 1, before.len() + 1)
        }
        (line, column) => (line, column),
    };
    // serde_json counts bytes; people (and the problem list) count characters.
    let bytes_before = byte_column.saturating_sub(1);
    let column = text.split('\n').nth(line - 1).map_or(1, |l| {
        let mut end = bytes_before.min(l.len());
        while !l.is_char_boundary(end) {
            end -= 1;
        }
        l[..end].chars().count() + 1
    });
    Some(SyntaxError { line, column })
}

/// A tool entry as the form shows it.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolForm {
    /// A built-in tool listed by its name: the description, schema and
    /// approval it comes with (`None` for a name the harness does not have).
    Builtin {
        name: String,
        spec: Option<InlineFields>,
    },
    Inline(InlineFields),
}

/// What the form edits of a tool: what the model is told, and approval.
#[derive(Clone, Debug, PartialEq)]
pub struct InlineFields {
    pub name: String,
    pub description: String,
    /// Pretty-printed JSON.
    pub schema: String,
    pub needs_approval: bool,
}

pub fn tool_forms(scenario: &Value) -> Vec<ToolForm> {
    let Some(tools) = scenario.get("tools").and_then(Value::as_array) else {
        return Vec::new();
    };
    let pretty = |schema: &Value| serde_json::to_string_pretty(schema).unwrap_or_default();
    tools
        .iter()
        .map(|tool| match tool {
            Value::String(name) => ToolForm::Builtin {
                name: name.clone(),
                spec: harness::tools::builtin(name).map(|b| InlineFields {
                    name: name.clone(),
                    description: b.spec.description,
                    schema: pretty(&b.spec.input_schema),
                    needs_approval: b.needs_approval,
                }),
            },
            other => ToolForm::Inline(InlineFields {
                name: other["name"].as_str().unwrap_or_default().to_string(),
                description: other["description"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                schema: other
                    .get("input_schema")
                    .map(pretty)
                    .unwrap_or_else(|| "{\"type\": \"object\"}".to_string()),
                needs_approval: other["needs_approval"].as_bool().unwrap_or(false),
            }),
        })
        .collect()
}

/// Where a form edit of tool `index`'s `field` goes, and what it writes. A
/// built-in listed by its name becomes an inline entry with the built-in as
/// its handler and the built-in's description, schema and approval, with
/// `field` replaced: the scenario format's way to override what the model
/// is told about a built-in. Any other entry gets just `field` set.
pub fn tool_field_edit(
    scenario_text: &str,
    index: usize,
    field: &'static str,
    value: Value,
) -> (Vec<Key>, Value) {
    let entry = serde_json::from_str::<Value>(scenario_text)
        .ok()
        .and_then(|s| s.get("tools")?.get(index).cloned());
    let builtin = match &entry {
        Some(Value::String(name)) => harness::tools::builtin(name).map(|b| (name.clone(), b)),
        _ => None,
    };
    match builtin {
        Some((name, builtin)) => {
            let mut object = Map::new();
            object.insert("name".into(), Value::from(name.as_str()));
            object.insert("builtin".into(), Value::from(name.as_str()));
            object.insert("description".into(), Value::from(builtin.spec.description));
            object.insert("input_schema".into(), builtin.spec.input_schema);
            object.insert("needs_approval".into(), Value::from(builtin.needs_approval));
            object.insert(field.to_string(), value);
            (
                vec![Key::Field("tools"), Key::Index(index)],
                Value::Object(object),
            )
        }
        None => (
            vec![Key::Field("tools"), Key::Index(index), Key::Field(field)],
            value,
        ),
    }
}

/// The scripted responses as the script editor starts.
pub fn responses_text(scenario: &Value) -> String {
    scenario
        .get("model")
        .and_then(|m| m.get("responses"))
        .map(|r| serde_json::to_string_pretty(r).unwrap_or_default())
        .unwrap_or_else(|| "[]".to_string())
}

/// Parses an edited JSON field; the error names the field and the position.
pub fn parse_json_field(label: &str, text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| format!("{label}: {}", describe(&e, text)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_builtin_shows_what_it_comes_with() {
        let forms = tool_forms(&json!({"tools": ["get_order", "no_such_tool"]}));
        let ToolForm::Builtin {
            name,
            spec: Some(spec),
        } = &forms[0]
        else {
            panic!("{forms:?}")
        };
        assert_eq!(name, "get_order");
        let builtin = harness::tools::builtin("get_order").unwrap();
        assert_eq!(spec.description, builtin.spec.description);
        assert!(spec.schema.contains("\"properties\""), "{}", spec.schema);
        assert_eq!(
            forms[1],
            ToolForm::Builtin {
                name: "no_such_tool".into(),
                spec: None
            }
        );
    }

    #[test]
    fn editing_a_builtin_overrides_it_then_edits_the_override() {
        let text =
            r#"{"name": "n", "task": "t", "tools": ["get_order"], "model": {"type": "rules"}}"#;
        let (path, value) = tool_field_edit(text, 0, "description", json!("Look up an order."));
        let once = set_path(text, &path, Some(value)).unwrap();
        let entry = &serde_json::from_str::<Value>(&once).unwrap()["tools"][0];
        let builtin = harness::tools::builtin("get_order").unwrap();
        assert_eq!(entry["builtin"], "get_order");
        assert_eq!(entry["description"], "Look up an order.");
        assert_eq!(entry["input_schema"], builtin.spec.input_schema);
        // The scenario loads: a built-in handler under an edited description.
        let loaded = harness::scenario::Scenario::load(&once).unwrap();
        assert_eq!(
            loaded.tool_specs().unwrap()[0].description,
            "Look up an order."
        );
        // A second edit changes its field only, keeping the first.
        let (path, value) = tool_field_edit(&once, 0, "needs_approval", json!(true));
        assert_eq!(path.len(), 3);
        let twice = set_path(&once, &path, Some(value)).unwrap();
        let entry = &serde_json::from_str::<Value>(&twice).unwrap()["tools"][0];
        assert_eq!(entry["description"], "Look up an order.");
        assert_eq!(entry["needs_approval"], true);
    }

    #[test]
    fn set_path_replaces_creates_and_removes() {
        let text = r#"{"name": "x", "tools": [{"name": "t", "description": "old"}]}"#;
        let out = set_path(
            text,
            &[
                Key::Field("tools"),
                Key::Index(0),
                Key::Field("description"),
            ],
            Some(json!("new")),
        )
        .unwrap();
        let value: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(value["tools"][0]["description"], "new");
        // Key order is kept: `name` still comes first.
        assert!(out.find("\"name\"").unwrap() < out.find("\"tools\"").unwrap());
        let out = set_path(
            &out,
            &[Key::Field("limits"), Key::Field("max_turns")],
            Some(json!(3)),
        )
        .unwrap();
        assert!(out.contains("\"max_turns\": 3"));
        let out = set_path(&out, &[Key::Field("limits"), Key::Field("max_turns")], None).unwrap();
        assert!(!out.contains("max_turns"));
        assert!(set_path("{", &[Key::Field("a")], None).is_err());
        assert!(set_path(
            text,
            &[Key::Field("tools"), Key::Index(5), Key::Field("x")],
            None
        )
        .is_err());
    }

    #[test]
    fn limits_parse_by_kind_and_empty_removes() {
        let find = |key| LIMITS.iter().find(|l| l.key == key).unwrap();
        assert_eq!(parse_limit(find("max_turns"), " 12 "), Ok(Some(json!(12))));
        assert_eq!(
            parse_limit(find("max_turns"), "1.5"),
            Err("Max turns: a whole number from 1 to 1,000,000 turns; 1.5 is not whole".into())
        );
        assert_eq!(
            parse_limit(find("max_turns"), "ten"),
            Err(
                "Max turns: a whole number from 1 to 1,000,000 turns; “ten” is not a number".into()
            )
        );
        assert_eq!(
            parse_limit(find("max_cost_usd"), "0.25"),
            Ok(Some(json!(0.25)))
        );
        assert_eq!(
            parse_limit(find("max_cost_usd"), "lots"),
            Err("Budget: a number above 0 and at most $1,000,000; “lots” is not a number".into())
        );
        assert_eq!(
            parse_limit(find("max_cost_usd"), "0"),
            Err("Budget: a number above 0 and at most $1,000,000; 0 is too small".into())
        );
        assert_eq!(
            parse_limit(find("max_cost_usd"), "1e400"),
            Err("Budget: a number above 0 and at most $1,000,000; 1e400 is too large".into())
        );
        assert!(parse_limit(find("max_cost_usd"), "inf").is_err());
        assert_eq!(
            parse_limit(find("cost_mode"), "naive"),
            Ok(Some(json!("naive")))
        );
        assert!(parse_limit(find("cost_mode"), "lazy").is_err());
        assert_eq!(parse_limit(find("deadline_ms"), ""), Ok(None));
        let scenario = json!({"limits": {"max_cost_usd": 0.5, "cost_mode": "naive"}});
        assert_eq!(limit_text(&scenario, "max_cost_usd"), "0.5");
        assert_eq!(limit_text(&scenario, "cost_mode"), "naive");
        assert_eq!(limit_text(&scenario, "deadline_ms"), "");
    }

    /// Every spelling JSON has for a whole number is one: "1e3" is a
    /// thousand turns, written to the JSON as 1000.
    #[test]
    fn a_whole_number_is_read_as_json_writes_it() {
        let turns = LIMITS.iter().find(|l| l.key == "max_turns").unwrap();
        for (typed, value) in [
            ("1e3", 1000),
            ("1E3", 1000),
            ("1000.0", 1000),
            ("10e-1", 1),
            ("2.5e1", 25),
        ] {
            assert_eq!(parse_limit(turns, typed), Ok(Some(json!(value))), "{typed}");
        }
        let retries = LIMITS.iter().find(|l| l.key == "max_retries").unwrap();
        assert_eq!(parse_limit(retries, "-0"), Ok(Some(json!(0))));
    }

    /// A number outside a field's range is refused with the range and the
    /// text as typed, never written as something else or read as 0.
    #[test]
    fn out_of_range_says_the_range_and_what_was_typed() {
        let turns = LIMITS.iter().find(|l| l.key == "max_turns").unwrap();
        let window = CONTEXT_FIELDS
            .iter()
            .find(|f| f.key == "window_tokens")
            .unwrap();
        assert_eq!(
            parse_limit(window, "12345678901234567890123"),
            Err("Context window: a whole number from 1 to 100,000,000 tokens; 12345678901234567890123 is too large".into())
        );
        assert_eq!(
            parse_limit(turns, "-0"),
            Err("Max turns: a whole number from 1 to 1,000,000 turns; -0 is too small".into())
        );
        assert_eq!(
            parse_limit(turns, "0"),
            Err("Max turns: a whole number from 1 to 1,000,000 turns; 0 is too small".into())
        );
        assert_eq!(
            parse_limit(turns, "-1"),
            Err("Max turns: a whole number from 1 to 1,000,000 turns; -1 is too small".into())
        );
        assert_eq!(
            parse_limit(turns, "1000001"),
            Err("Max turns: a whole number from 1 to 1,000,000 turns; 1000001 is too large".into())
        );
        assert_eq!(
            parse_limit(turns, "1e300"),
            Err("Max turns: a whole number from 1 to 1,000,000 turns; 1e300 is too large".into())
        );
        let deadline = LIMITS.iter().find(|l| l.key == "deadline_ms").unwrap();
        assert_eq!(
            parse_limit(deadline, "9e7"),
            Err(
                "Deadline: a whole number from 1 to 86,400,000 ms (24 hours); 9e7 is too large"
                    .into()
            )
        );
        // What the JSON holds meanwhile is said with the refusal.
        assert_eq!(
            not_written("Max turns: a whole number from 1 to 1,000,000 turns; 0 is too small", "10"),
            "Max turns: a whole number from 1 to 1,000,000 turns; 0 is too small. Not written: the JSON keeps 10."
        );
        assert_eq!(
            not_written("Deadline: x", ""),
            "Deadline: x. Not written: the JSON has no value here."
        );
    }

    /// The form's context section offers every field the harness
    /// reads, with the schema's words and types, and the value each writes
    /// is one the harness reads back as typed.
    #[test]
    fn the_context_section_has_every_field_the_harness_reads() {
        use harness::context::ContextConfig;
        let full = ContextConfig {
            window_tokens: Some(1),
            trigger_tokens: Some(1),
            keep_tool_results: Some(1),
            exclude_tools: vec!["a".into()],
            keep_pairs: Some(false),
            ..ContextConfig::default()
        };
        let serialized = serde_json::to_value(&full).unwrap();
        let mut keys: Vec<&str> = serialized
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        let mut ours: Vec<&str> = CONTEXT_FIELDS.iter().map(|f| f.key).collect();
        ours.sort_unstable();
        assert_eq!(ours, keys);

        let schema: Value = serde_json::from_str(harness::scenario::SCENARIO_SCHEMA).unwrap();
        let properties = &schema["$defs"]["context"]["properties"];
        for field in CONTEXT_FIELDS {
            let key = field.key;
            let typed = match field.kind {
                FieldKind::Choice(words) => {
                    let words: Vec<Value> = words.iter().map(|w| json!(w)).collect();
                    assert_eq!(Some(&words), properties[key]["enum"].as_array(), "{key}");
                    assert_eq!(
                        serde_json::from_value::<ContextConfig>(json!({ key: field.absent }))
                            .unwrap(),
                        ContextConfig::default(),
                        "{key}: the empty choice is not the default"
                    );
                    parse_limit(field, words[0].as_str().unwrap())
                }
                FieldKind::Integer { .. } => {
                    assert_eq!(properties[key]["type"], "integer", "{key}");
                    parse_limit(field, "7")
                }
                FieldKind::Bool => {
                    assert_eq!(properties[key]["type"], "boolean", "{key}");
                    assert!(parse_limit(field, "maybe").is_err());
                    parse_limit(field, "false")
                }
                FieldKind::Names => {
                    assert_eq!(properties[key]["type"], "array", "{key}");
                    assert_eq!(
                        parse_limit(field, " get_policy , ,get_logs"),
                        Ok(Some(json!(["get_policy", "get_logs"])))
                    );
                    parse_limit(field, "get_policy")
                }
                FieldKind::Number { .. } => panic!("{key}: no context field is a decimal"),
            };
            let value = typed.unwrap().unwrap();
            let scenario = json!({ "context": { key: value.clone() } });
            serde_json::from_value::<ContextConfig>(scenario["context"].clone())
                .unwrap_or_else(|e| panic!("{key}: {e}"));
            assert!(!field_text(&scenario, "context", key).is_empty(), "{key}");
        }
        let scenario = json!({"context": {"exclude_tools": ["a", "b"], "keep_pairs": false}});
        assert_eq!(field_text(&scenario, "context", "exclude_tools"), "a, b");
        assert_eq!(field_text(&scenario, "context", "keep_pairs"), "false");
    }

    #[test]
    fn problems_go_under_their_part_of_the_form() {
        let lines = vec![
            "tools[1].input_schema.type: unknown type".to_string(),
            "tools[10].name: empty".to_string(),
            "model.responses[2].tool_calls[0].args: expected an object".to_string(),
            "task: empty".to_string(),
        ];
        assert_eq!(problems_under(&lines, "tools[1]"), [lines[0].clone()]);
        assert_eq!(
            problems_under(&lines, "model.responses"),
            [lines[2].clone()]
        );
        assert_eq!(run_blocker(&[], &[]), None);
        assert_eq!(
            run_blocker(&lines[3..], &[]),
            Some("Run is disabled: task: empty".to_string())
        );
        assert_eq!(
            run_blocker(
                &lines,
                &["tools[0].input_schema: not valid JSON".to_string()]
            ),
            Some(
                "Run is disabled: tools[0].input_schema: not valid JSON (and 4 more problems)"
                    .to_string()
            )
        );
    }

    #[test]
    fn tools_and_responses_show_as_the_form_edits_them() {
        let scenario = json!({
            "tools": ["get_time", {"name": "t", "description": "d", "input_schema": {"type": "object"}, "needs_approval": true}],
            "model": {"type": "scripted", "responses": [{"text": "hi"}]}
        });
        let forms = tool_forms(&scenario);
        assert!(
            matches!(&forms[0], ToolForm::Builtin { name, spec: Some(_) } if name == "get_time")
        );
        assert_eq!(
            forms[1],
            ToolForm::Inline(InlineFields {
                name: "t".into(),
                description: "d".into(),
                schema: "{\n  \"type\": \"object\"\n}".into(),
                needs_approval: true
            })
        );
        assert_eq!(
            responses_text(&scenario),
            "[\n  {\n    \"text\": \"hi\"\n  }\n]"
        );
        assert!(parse_json_field("Responses", "[")
            .unwrap_err()
            .starts_with("Responses: not valid JSON"));
    }

    #[test]
    fn one_more_problem_is_singular() {
        let two = ["a: x".to_string(), "b: y".to_string()];
        assert_eq!(
            run_blocker(&two, &[]).as_deref(),
            Some("Run is disabled: a: x (and 1 more problem)")
        );
        assert_eq!(
            run_blocker(&two[..1], &two[1..]).as_deref(),
            Some("Run is disabled: b: y (and 1 more problem)")
        );
    }

    #[test]
    fn a_syntax_error_is_found_by_line_and_column() {
        let text = "{\n  \"name\": \"é\",\n  \"task\" \"x\"\n}";
        let error = syntax_error(text).unwrap();
        assert_eq!((error.line, error.column), (3, 10));
        // Line 3 starts after "{\n" (2 units) and `  "name": "é",\n` (15 units).
        assert_eq!(error.utf16_offset(text), 2 + 15 + 9);
        // Columns count characters, not bytes: "é" is two bytes, one column.
        let wide = "{\"é\": 1 2}";
        assert_eq!(syntax_error(wide).unwrap().column, 9);
        assert!(parse_json_field("Responses", wide)
            .unwrap_err()
            .starts_with("Responses: not valid JSON at line 1, column 9: "));
        assert_eq!(syntax_error("{\"task\": \"x\"}"), None);
        let cut = syntax_error("{\"task\":").unwrap();
        assert_eq!(cut.line, 1);
        assert!(cut.utf16_offset("{\"task\":") <= 8);
    }
}
