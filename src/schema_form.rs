//! The form built from a tool's schema, as the MCP Inspector does: from its
//! `input_schema` for "Call a tool by hand", from its `output_schema` for
//! "Answer as the tool". Which fields a schema gives (text, number, choice,
//! checkbox, list, group), how a field's edit rewrites the JSON, whether a
//! JSON is one the form can show, and under which field each of the schema
//! validator's problems belongs.
//!
//! The JSON stays the one source of truth, as in the scenario form
//! (`crate::editor::form`): a field reads its value at its place in the JSON and an
//! edit writes it back there, so the form and the JSON box never disagree.
//! A number is written with the digits typed, as the scenario form keeps
//! them (`crate::editor::form::json_number`). Pure and tested natively.

use std::collections::BTreeMap;

use serde_json::{Map, Value};
use tool_schema::{Schema, ValidationError};

use harness::scenario::number_spellings;

use crate::editor::form::json_number::{self, JsonNumber};

/// What a form fills in: a call's arguments or a tool's result. Only the
/// words differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Part {
    #[default]
    Arguments,
    Result,
}

impl Part {
    /// "arguments", "result": the whole the form fills in.
    pub fn whole(self) -> &'static str {
        match self {
            Part::Arguments => "arguments",
            Part::Result => "result",
        }
    }

    /// How a message names the value at `place` ("the argument \"city\"").
    fn one(self, place: &str) -> String {
        match self {
            Part::Arguments => format!("the argument \"{place}\""),
            Part::Result => format!("the result's field \"{place}\""),
        }
    }

    /// "its arguments are", "its result is".
    fn its(self) -> &'static str {
        match self {
            Part::Arguments => "its arguments are",
            Part::Result => "its result is",
        }
    }
}

/// One field of the form: a property of an object, or the items of a list.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The property's name ("item" for a list's items).
    pub name: String,
    /// The schema's `description`, shown as help ("" when it has none).
    pub description: String,
    /// Whether the object holding it lists it in `required`.
    pub required: bool,
    pub kind: Kind,
}

/// What a field takes, and so which control shows it.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A string: a text input (`format`, `pattern` and lengths are checked
    /// by the validator as it is typed).
    Text,
    /// A number or an integer: a number input with the schema's bounds.
    Number {
        integer: bool,
        minimum: Option<f64>,
        maximum: Option<f64>,
    },
    /// An `enum` (or a `const`): one of these values, picked from a list.
    Choice(Vec<Value>),
    /// A boolean: a checkbox.
    Toggle,
    /// An array: items added and removed one by one, each this field.
    List(Box<Field>),
    /// A nested object: its own fields, in a fieldset.
    Group(Vec<Field>),
}

/// Keywords whose meaning a field cannot show (a choice between schemas, a
/// condition, a reference): a schema using one keeps the JSON box alone.
const BEYOND_A_FORM: &[&str] = &[
    "$ref",
    "oneOf",
    "anyOf",
    "allOf",
    "not",
    "if",
    "patternProperties",
    "dependentSchemas",
    "prefixItems",
    "contains",
];

/// The form's fields for a tool's `input_schema`, in the order the schema
/// names them; `Err` says in a few words why the form cannot express it.
pub fn fields(schema: &Value) -> Result<Vec<Field>, String> {
    fields_of(schema, Part::Arguments)
}

/// The form's fields for a schema of `part` (a tool's `input_schema` or
/// `output_schema`), in the order the schema names them; `Err` says in a
/// few words why the form cannot express it.
pub fn fields_of(schema: &Value, part: Part) -> Result<Vec<Field>, String> {
    let is_object = schema["type"] == "object"
        || (schema.get("type").is_none() && schema.get("properties").is_some());
    if !is_object {
        return Err(format!("{} not described as an object", part.its()));
    }
    beyond(schema, "the schema")?;
    group(schema, "", part)
}

/// The fields of an object schema; `at` names it in messages ("" for the root).
fn group(schema: &Value, at: &str, part: Part) -> Result<Vec<Field>, String> {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let Some(properties) = schema["properties"].as_object() else {
        return Ok(Vec::new());
    };
    properties
        .iter()
        .map(|(name, property)| {
            let place = if at.is_empty() {
                name.clone()
            } else {
                format!("{at}.{name}")
            };
            field(
                name,
                property,
                required.contains(&name.as_str()),
                &place,
                part,
            )
        })
        .collect()
}

/// One property's field; `place` names it in messages ("address.city").
fn field(
    name: &str,
    schema: &Value,
    required: bool,
    place: &str,
    part: Part,
) -> Result<Field, String> {
    let about = part.one(place);
    beyond(schema, &about)?;
    let kind = if let Some(values) = schema["enum"].as_array() {
        Kind::Choice(values.clone())
    } else if let Some(value) = schema.get("const") {
        Kind::Choice(vec![value.clone()])
    } else {
        match &schema["type"] {
            Value::String(t) => match t.as_str() {
                "string" => Kind::Text,
                "integer" | "number" => Kind::Number {
                    integer: t == "integer",
                    minimum: schema["minimum"].as_f64(),
                    maximum: schema["maximum"].as_f64(),
                },
                "boolean" => Kind::Toggle,
                "array" => {
                    let items = &schema["items"];
                    if !items.is_object() {
                        return Err(format!("{about} is a list of any values"));
                    }
                    Kind::List(Box::new(field("item", items, true, place, part)?))
                }
                "object" => {
                    if schema.get("properties").is_none() {
                        return Err(format!("{about} is an object of any properties"));
                    }
                    Kind::Group(group(schema, place, part)?)
                }
                other => return Err(format!("{about} is of type {other}")),
            },
            Value::Array(_) => return Err(format!("{about} may be of several types")),
            _ if schema.get("properties").is_some() => Kind::Group(group(schema, place, part)?),
            _ => return Err(format!("{about} may be any JSON value")),
        }
    };
    Ok(Field {
        name: name.to_string(),
        description: schema["description"].as_str().unwrap_or("").to_string(),
        required,
        kind,
    })
}

/// `Err` names the first keyword of `schema` a form cannot show.
fn beyond(schema: &Value, about: &str) -> Result<(), String> {
    match BEYOND_A_FORM.iter().find(|k| schema.get(**k).is_some()) {
        Some(keyword) => Err(format!("{about} uses {keyword}")),
        None => Ok(()),
    }
}

/// The value at `path` (property names and list indices) in `root`.
pub fn value_at<'v>(root: &'v Value, path: &[String]) -> Option<&'v Value> {
    path.iter().try_fold(root, |at, step| match at {
        Value::Object(map) => map.get(step),
        Value::Array(items) => items.get(step.parse::<usize>().ok()?),
        _ => None,
    })
}

/// `root` with the value at `path` set (`Some`) or removed (`None`); the
/// objects on the way are made when missing, as typing into a field of an
/// absent nested object means to give it.
pub fn written(root: &Value, path: &[String], value: Option<Value>) -> Value {
    let mut root = root.clone();
    write(&mut root, path, value);
    root
}

fn write(at: &mut Value, path: &[String], value: Option<Value>) {
    let Some((step, rest)) = path.split_first() else {
        if let Some(value) = value {
            *at = value;
        }
        return;
    };
    if let Value::Array(items) = at {
        if let Some(item) = step.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
            write(item, rest, value);
        }
        return;
    }
    if !at.is_object() {
        *at = Value::Object(Map::new());
    }
    let Value::Object(map) = at else { return };
    match (rest.is_empty(), value) {
        (true, None) => {
            map.remove(step);
        }
        (_, value) => write(map.entry(step.clone()).or_insert(Value::Null), rest, value),
    }
}

/// `root` with a new item, empty for its field, at the end of the list at `path`.
pub fn with_item(root: &Value, path: &[String], item: &Field) -> Value {
    let mut items = value_at(root, path)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    items.push(empty(item));
    written(root, path, Some(Value::Array(items)))
}

/// `root` without item `index` of the list at `path`.
pub fn without_item(root: &Value, path: &[String], index: usize) -> Value {
    let mut items = value_at(root, path)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if index < items.len() {
        items.remove(index);
    }
    written(root, path, Some(Value::Array(items)))
}

/// A field's starting value: empty text, the lowest number allowed (or 0),
/// the first choice, unticked, no items, an object of its required fields.
pub fn empty(field: &Field) -> Value {
    match &field.kind {
        Kind::Text => Value::from(""),
        Kind::Number {
            integer, minimum, ..
        } => match minimum.filter(|m| *m > 0.0) {
            Some(m) if *integer => Value::from(m.ceil() as i64),
            Some(m) => serde_json::Number::from_f64(m).map_or(Value::from(0), Value::Number),
            None => Value::from(0),
        },
        Kind::Choice(values) => values.first().cloned().unwrap_or(Value::Null),
        Kind::Toggle => Value::Bool(false),
        Kind::List(_) => Value::Array(Vec::new()),
        Kind::Group(fields) => starting(fields),
    }
}

/// The arguments a form starts from: each required field, empty of its
/// kind, so the person sees what the schema asks for.
pub fn starting(fields: &[Field]) -> Value {
    Value::Object(
        fields
            .iter()
            .filter(|f| f.required)
            .map(|f| (f.name.clone(), empty(f)))
            .collect(),
    )
}

/// `Err` says why the form cannot show `args` (a value its field cannot
/// hold); the JSON box still takes it, and the validator says what is
/// wrong with it.
pub fn fits(fields: &[Field], args: &Value) -> Result<(), String> {
    fits_as(fields, args, Part::Arguments)
}

/// `fits`, for a form of `part`.
pub fn fits_as(fields: &[Field], value: &Value, part: Part) -> Result<(), String> {
    let Value::Object(map) = value else {
        let whole = match part {
            Part::Arguments => "the arguments are",
            Part::Result => "the result is",
        };
        return Err(format!("{whole} {}, not an object", found(value)));
    };
    group_fits(fields, map, "")
}

/// What a number field's text writes into the JSON: the number as typed
/// (`Some`), so its digits stay as typed (`99999999999999999999` is not
/// rewritten as `1e20`); `None` for an empty box or a text JSON does not
/// read as a number (the value is left out), or a number past what JSON
/// readers hold at all (`1e400`).
pub fn typed_number(typed: &str) -> Option<&str> {
    let typed = typed.trim();
    let finite = harness::float_text::parse_f64(typed).is_some_and(f64::is_finite);
    (json_number::read(typed) != JsonNumber::NotANumber && finite).then_some(typed)
}

/// `value` pretty-printed as the new text of a form edited from `before`:
/// each number the edit left as it was keeps the spelling it had there
/// (`99999999999999999999`, which the JSON reader holds as 1e20; `1e3`;
/// `3.50`), and `typed`, a number field's path and text, is written as
/// typed.
pub fn respelled(before: &str, value: &Value, typed: Option<(&[String], &str)>) -> String {
    let mut literals: Vec<(String, String)> = number_spellings(before)
        .into_iter()
        .filter(|(at, text)| serde_json::from_str::<Value>(text).ok().as_ref() == value.pointer(at))
        .collect();
    if let Some((path, literal)) = typed {
        let at = pointer(path);
        literals.retain(|(other, _)| *other != at);
        literals.push((at, literal.to_string()));
    }
    printed_with(value, &literals)
}

/// `value` pretty-printed with the number at each pointer written as the
/// text given for it.
fn printed_with(value: &Value, literals: &[(String, String)]) -> String {
    if literals.is_empty() {
        return serde_json::to_string_pretty(value).unwrap_or_default();
    }
    // A stand-in string no JSON string already holds takes each number's
    // place; its quoted form in the printed text is then swapped for the
    // number's text.
    let quote = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let printed = serde_json::to_string(value).unwrap_or_default();
    let mut mark = "\u{1}".to_string();
    while printed.contains(quote(&mark).trim_matches('"')) {
        mark.push('\u{1}');
    }
    let mut marked = value.clone();
    let mut swaps = Vec::new();
    for (i, (at, literal)) in literals.iter().enumerate() {
        if let Some(slot) = marked.pointer_mut(at) {
            let stand_in = format!("{mark}{i}{mark}");
            swaps.push((quote(&stand_in), literal));
            *slot = Value::String(stand_in);
        }
    }
    let mut text = serde_json::to_string_pretty(&marked).unwrap_or_default();
    for (quoted, literal) in swaps {
        text = text.replacen(&quoted, literal, 1);
    }
    text
}

/// What a number field at `path` shows: the number as `text` (the JSON the
/// form shows) spells it, or nothing when it holds no number there.
pub fn number_shown(text: &str, value: Option<&Value>, path: &[String]) -> String {
    let Some(value) = value.filter(|v| v.is_number()) else {
        return String::new();
    };
    let at = pointer(path);
    number_spellings(text)
        .into_iter()
        .find(|(other, _)| *other == at)
        .map_or_else(|| value.to_string(), |(_, spelled)| spelled)
}

fn group_fits(fields: &[Field], map: &Map<String, Value>, at: &str) -> Result<(), String> {
    for field in fields {
        let Some(value) = map.get(&field.name) else {
            continue;
        };
        let place = if at.is_empty() {
            field.name.clone()
        } else {
            format!("{at}.{}", field.name)
        };
        field_fits(field, value, &place)?;
    }
    Ok(())
}

fn field_fits(field: &Field, value: &Value, place: &str) -> Result<(), String> {
    let takes = match (&field.kind, value) {
        (Kind::Text, Value::String(_))
        | (Kind::Number { .. }, Value::Number(_))
        | (Kind::Toggle, Value::Bool(_)) => return Ok(()),
        (Kind::Choice(values), _) if values.contains(value) => return Ok(()),
        (Kind::List(item), Value::Array(items)) => {
            for (i, value) in items.iter().enumerate() {
                field_fits(item, value, &format!("{place} item {}", i + 1))?;
            }
            return Ok(());
        }
        (Kind::Group(fields), Value::Object(map)) => return group_fits(fields, map, place),
        (Kind::Text, _) => "text".to_string(),
        (Kind::Number { .. }, _) => "a number".to_string(),
        (Kind::Toggle, _) => "true or false".to_string(),
        (Kind::Choice(values), _) => format!("one of {}", choices(values)),
        (Kind::List(_), _) => "a list".to_string(),
        (Kind::Group(_), _) => "an object".to_string(),
    };
    Err(format!(
        "{place} is {}; its field takes {takes}",
        found(value)
    ))
}

/// "a number (5)", "null": what a value is, in a few words.
fn found(value: &Value) -> String {
    let kind = match value {
        Value::Null => return "null".to_string(),
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    };
    let text = value.to_string();
    if text.chars().count() > 30 {
        format!("{kind} ({}…)", text.chars().take(30).collect::<String>())
    } else {
        format!("{kind} ({text})")
    }
}

/// A choice's label in the list: a string as written, anything else as JSON.
pub fn choice_label(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn choices(values: &[Value]) -> String {
    let labels: Vec<String> = values.iter().map(choice_label).collect();
    labels.join(", ")
}

/// A field's place as a JSON pointer ("/address/city"), the validator's
/// spelling of a path.
pub fn pointer(path: &[String]) -> String {
    path.iter()
        .map(|step| format!("/{}", step.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// The validator's problems, each under the field it is about, or with the
/// form's as a whole when no field shows its place.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Placed {
    /// By field pointer ("/address/city"): the messages shown under it.
    pub by_field: BTreeMap<String, Vec<String>>,
    /// Problems of no one field (a property the schema does not name, a
    /// bound on the whole object), each with its path.
    pub elsewhere: Vec<String>,
}

/// Checks `args` against `schema` and places every problem: under its
/// field, in the validator's words without the path (the field shows it);
/// a missing required value under the field that would hold it.
pub fn check(schema: &Schema, fields: &[Field], args: &Value) -> Placed {
    let mut placed = Placed::default();
    for problem in schema.validate(args).err().unwrap_or_default() {
        let (path, message) = place(&problem);
        if shows(fields, &path) {
            placed
                .by_field
                .entry(pointer(&path))
                .or_default()
                .push(message);
        } else {
            placed.elsewhere.push(problem.to_string());
        }
    }
    placed
}

/// Where a problem belongs, as path steps, and its words for that place.
fn place(problem: &ValidationError) -> (Vec<String>, String) {
    let mut path = steps(&problem.instance_path);
    match &problem.missing {
        Some(name) if problem.keyword == "required" => {
            path.push(name.clone());
            (path, "required, and not given".to_string())
        }
        _ => (path, problem.message.clone()),
    }
}

/// A JSON pointer's steps, unescaped.
fn steps(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Whether a field of the form shows the value at `path` (the root, the
/// form itself, is no one field).
fn shows(fields: &[Field], path: &[String]) -> bool {
    let Some((step, rest)) = path.split_first() else {
        return false;
    };
    let Some(field) = fields.iter().find(|f| f.name == *step) else {
        return false;
    };
    shown_in(field, rest)
}

fn shown_in(field: &Field, path: &[String]) -> bool {
    let Some((step, rest)) = path.split_first() else {
        return true;
    };
    match &field.kind {
        Kind::List(item) => step.parse::<usize>().is_ok() && shown_in(item, rest),
        Kind::Group(fields) => shows(fields, path),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn booking() -> Value {
        json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "Where to stay.", "minLength": 2},
                "nights": {"type": "integer", "minimum": 1, "maximum": 30},
                "room": {"enum": ["single", "double"]},
                "breakfast": {"type": "boolean"},
                "guests": {"type": "array", "items": {"type": "string", "pattern": "^[A-Z]"}},
                "address": {
                    "type": "object",
                    "properties": {"street": {"type": "string"}, "zip": {"type": "string", "pattern": "^[0-9]{5}$"}},
                    "required": ["zip"]
                }
            },
            "required": ["city", "nights", "address"],
            "additionalProperties": false
        })
    }

    fn path(steps: &[&str]) -> Vec<String> {
        steps.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_schema_gives_a_field_of_its_kind_for_each_property_in_order() {
        let fields = fields(&booking()).unwrap();
        let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            ["city", "nights", "room", "breakfast", "guests", "address"]
        );
        assert_eq!(fields[0].kind, Kind::Text);
        assert_eq!(fields[0].description, "Where to stay.");
        assert!(fields[0].required && !fields[2].required);
        assert_eq!(
            fields[1].kind,
            Kind::Number {
                integer: true,
                minimum: Some(1.0),
                maximum: Some(30.0)
            }
        );
        assert_eq!(
            fields[2].kind,
            Kind::Choice(vec![json!("single"), json!("double")])
        );
        assert_eq!(fields[3].kind, Kind::Toggle);
        let Kind::List(item) = &fields[4].kind else {
            panic!("guests is not a list: {:?}", fields[4].kind)
        };
        assert_eq!(item.kind, Kind::Text);
        let Kind::Group(inner) = &fields[5].kind else {
            panic!("address is not a group: {:?}", fields[5].kind)
        };
        assert_eq!(inner[1].name, "zip");
        assert!(inner[1].required && !inner[0].required);
    }

    #[test]
    fn a_schema_beyond_a_form_says_where_and_why_in_a_few_words() {
        let choice = json!({"type": "object", "properties": {"when": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}});
        assert_eq!(
            fields(&choice).unwrap_err(),
            "the argument \"when\" uses oneOf"
        );
        let cycle = json!({"type": "object", "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}},
            "properties": {"head": {"$ref": "#/$defs/node"}}});
        assert_eq!(
            fields(&cycle).unwrap_err(),
            "the argument \"head\" uses $ref"
        );
        let deep = json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": ["string", "null"]}}}}});
        assert_eq!(
            fields(&deep).unwrap_err(),
            "the argument \"a.b\" may be of several types"
        );
        assert_eq!(
            fields(&json!({"type": "string"})).unwrap_err(),
            "its arguments are not described as an object"
        );
        assert_eq!(fields(&json!({"type": "object"})).unwrap(), Vec::new());
    }

    #[test]
    fn an_edit_writes_its_value_at_its_place_making_the_objects_on_the_way() {
        let args = json!({"city": "Oslo"});
        let args = written(&args, &path(&["address", "zip"]), Some(json!("01234")));
        assert_eq!(args, json!({"city": "Oslo", "address": {"zip": "01234"}}));
        let args = written(&args, &path(&["city"]), None);
        assert_eq!(args, json!({"address": {"zip": "01234"}}));
        let fields = fields(&booking()).unwrap();
        let guest = Field {
            name: "item".into(),
            description: String::new(),
            required: true,
            kind: Kind::Text,
        };
        let args = with_item(&args, &path(&["guests"]), &guest);
        let args = written(&args, &path(&["guests", "0"]), Some(json!("Ada")));
        let args = with_item(&args, &path(&["guests"]), &guest);
        assert_eq!(args["guests"], json!(["Ada", ""]));
        let args = without_item(&args, &path(&["guests"]), 0);
        assert_eq!(args["guests"], json!([""]));
        assert_eq!(value_at(&args, &path(&["guests", "0"])), Some(&json!("")));
        // A fresh group holds its required fields, each empty of its kind.
        assert_eq!(
            empty(&Field {
                name: String::new(),
                description: String::new(),
                required: true,
                kind: Kind::Group(fields)
            }),
            json!({"city": "", "nights": 1, "address": {"zip": ""}})
        );
    }

    #[test]
    fn a_json_the_form_cannot_show_is_named_with_what_the_field_takes() {
        let fields = fields(&booking()).unwrap();
        assert_eq!(
            fits(&fields, &json!({"city": "Oslo", "extra": [1]})),
            Ok(())
        );
        assert_eq!(
            fits(&fields, &json!({"nights": "3"})).unwrap_err(),
            "nights is a string (\"3\"); its field takes a number"
        );
        assert_eq!(
            fits(&fields, &json!({"room": "suite"})).unwrap_err(),
            "room is a string (\"suite\"); its field takes one of single, double"
        );
        assert_eq!(
            fits(&fields, &json!({"guests": ["Ada", 7]})).unwrap_err(),
            "guests item 2 is a number (7); its field takes text"
        );
        assert_eq!(
            fits(&fields, &json!({"address": {"zip": null}})).unwrap_err(),
            "address.zip is null; its field takes text"
        );
        assert_eq!(
            fits(&fields, &json!([1])).unwrap_err(),
            "the arguments are a list ([1]), not an object"
        );
    }

    #[test]
    fn each_problem_lands_under_its_field_and_the_others_with_the_form() {
        let schema_json = booking();
        let schema = Schema::compile(&schema_json).unwrap();
        let fields = fields(&schema_json).unwrap();
        let args =
            json!({"city": "Oslo", "nights": 0, "guests": ["ada"], "address": {}, "pets": true});
        let placed = check(&schema, &fields, &args);
        assert_eq!(
            placed.by_field,
            BTreeMap::from([
                (
                    "/nights".to_string(),
                    vec!["0 is too small: it must be at least 1".to_string()]
                ),
                (
                    "/guests/0".to_string(),
                    vec!["\"ada\" does not match pattern \"^[A-Z]\"".to_string()]
                ),
                (
                    "/address/zip".to_string(),
                    vec!["required, and not given".to_string()]
                ),
            ])
        );
        assert_eq!(placed.elsewhere.len(), 1, "{:?}", placed.elsewhere);
        assert!(
            placed.elsewhere[0].contains("\"pets\""),
            "{:?}",
            placed.elsewhere
        );
        let right = json!({"city": "Oslo", "nights": 2, "address": {"zip": "01234"}});
        assert_eq!(check(&schema, &fields, &right), Placed::default());
    }

    #[test]
    fn a_typed_number_keeps_its_digits_in_the_json_and_in_its_box() {
        let before = "{\n  \"city\": \"Oslo\",\n  \"nights\": 2\n}";
        let nights = path(&["nights"]);
        let typed = "99999999999999999999";
        let literal = typed_number(typed).unwrap();
        let value: Value = serde_json::from_str(before).unwrap();
        let edited = written(&value, &nights, serde_json::from_str(literal).ok());
        let text = respelled(before, &edited, Some((&nights, literal)));
        assert_eq!(
            text,
            "{\n  \"city\": \"Oslo\",\n  \"nights\": 99999999999999999999\n}"
        );
        // The box shows the digits the JSON holds, not the float read from them.
        let parsed: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            number_shown(&text, value_at(&parsed, &nights), &nights),
            typed
        );
        assert_eq!(number_shown(&text, None, &nights), "");
        // Editing another field keeps them, and every spelling JSON has for
        // a number, as typed.
        let text = text.replace(
            "\"nights\": 9",
            "\"rate\": 3.50,\n  \"per\": 1e3,\n  \"nights\": 9",
        );
        let value: Value = serde_json::from_str(&text).unwrap();
        let edited = written(&value, &path(&["city"]), Some(json!("Bergen")));
        assert_eq!(
            respelled(&text, &edited, None),
            "{\n  \"city\": \"Bergen\",\n  \"rate\": 3.50,\n  \"per\": 1e3,\n  \"nights\": 99999999999999999999\n}"
        );
        // A number the edit changed is written as the JSON writes it.
        let changed = written(&value, &path(&["per"]), Some(json!(7)));
        assert!(respelled(&text, &changed, None).contains("\"per\": 7,"));
        for typed in ["1e3", "-0", "3.50", "12345678901234567890123", "-7"] {
            assert_eq!(typed_number(typed), Some(typed));
        }
        for refused in ["", "ten", "1,000", "+1", "1e400", "NaN"] {
            assert_eq!(typed_number(refused), None, "{refused:?}");
        }
        // A string already holding a stand-in's spelling is left as it is.
        let tricky = json!({"note": "\u{1}0\u{1}", "n": 1});
        let text = respelled("{}", &tricky, Some((&path(&["n"]), "1.0")));
        assert_eq!(text, "{\n  \"note\": \"\\u00010\\u0001\",\n  \"n\": 1.0\n}");
    }

    #[test]
    fn a_result_form_speaks_of_the_result() {
        assert_eq!(
            fields_of(&json!({"type": "array"}), Part::Result).unwrap_err(),
            "its result is not described as an object"
        );
        let any = json!({"type": "object", "properties": {"data": {}}});
        assert_eq!(
            fields_of(&any, Part::Result).unwrap_err(),
            "the result's field \"data\" may be any JSON value"
        );
        assert_eq!(
            fits_as(&[], &json!("sunny"), Part::Result).unwrap_err(),
            "the result is a string (\"sunny\"), not an object"
        );
    }

    #[test]
    fn a_pointer_escapes_slashes_and_tildes_as_the_validator_writes_them() {
        assert_eq!(pointer(&path(&["a/b", "c~d", "0"])), "/a~1b/c~0d/0");
        assert_eq!(steps("/a~1b/c~0d/0"), path(&["a/b", "c~d", "0"]));
    }
}
