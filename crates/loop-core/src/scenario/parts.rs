//! Reading a scenario's parts into their Rust types, staying as close to the
//! file as they allow, so that one load reports everything.
//!
//! The schema has judged the shapes by now, but two things are left. Numbers
//! the schema allows can still miss the Rust type (`"max_turns":
//! 99999999999999999999` is a whole number, and more than a `u32` holds):
//! those are found here and worded as plain limits, taken from the type
//! itself. And the checks the schema cannot express (unknown built-ins, tool
//! schemas, regexes, `loop_from`) need typed parts even where some other
//! part of the same file is wrong. So each part (a top-level field, one tool,
//! one verify check, one scripted response) is read on its own. A part that
//! does not fit its type is read again without its members the schema
//! already reported, and with numbers that do not fit set aside, and those
//! members come back as a neutral value of a type that fits, so a field that
//! is there stays there (a `js` handler of the wrong type still counts as a
//! handler). Only a part that still does not fit is replaced by a stand-in,
//! and nothing is reported from inside a stand-in. The scenario that loads
//! is read from the file as it is; the only change reading makes to it is
//! a whole number written as a float (`10.0`) becoming that integer.
//!
//! Whether something fits is asked of serde alone (does it deserialize?),
//! never read from its error messages, so the limits quoted are exactly the
//! types' own.

use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use super::numbers::Spellings;
use super::{InlineTool, ModelConfig, Scenario, ToolEntry};
use crate::scripted::ScriptedResponse;
use crate::verify::Check;

/// A problem found here, at a JSON pointer.
pub(super) struct Finding {
    pub pointer: String,
    pub message: String,
}

/// What reading found, and the scenario as far as it could be read.
pub(super) struct Reading {
    /// Each part as read; stand-ins where a part does not fit its type.
    pub scenario: Scenario,
    /// Numbers that do not fit their field's type.
    pub findings: Vec<Finding>,
    /// Pointers of the parts replaced by stand-ins.
    pub replaced: Vec<String>,
}

/// Reads every part of `value`, which may be changed in one way only: a
/// whole number written as a float (`10.0`, `1e3`) where an integer type is
/// expected becomes that integer, as the schema's "integer" allows.
/// `reported` holds the pointers of the values the schema found wrong.
pub(super) fn read(value: &mut Value, reported: &[String], spellings: &Spellings) -> Reading {
    let mut reader = Reader {
        root: value,
        reported,
        spellings,
        findings: Vec::new(),
        replaced: Vec::new(),
    };
    let scenario = Scenario {
        schema: reader.part("/$schema"),
        name: reader.part("/name").unwrap_or_default(),
        description: reader.part("/description").unwrap_or_default(),
        task: reader.part("/task").unwrap_or_default(),
        system: reader.part("/system").unwrap_or_default(),
        tools: reader.elements("/tools", tool_stand_in),
        tool_choice: reader.part("/tool_choice").unwrap_or_default(),
        mcp_servers: reader.elements("/mcp_servers", |_, _| None),
        limits: reader.part("/limits").unwrap_or_default(),
        context: reader.part("/context").unwrap_or_default(),
        pricing: reader.part("/pricing").unwrap_or_default(),
        approval: reader.part("/approval").unwrap_or_default(),
        verify: reader.elements("/verify", |_, _| Some(Check::Contains(String::new()))),
        now: reader.part("/now"),
        model: reader.model(),
        mcp: None,
    };
    Reading {
        scenario,
        findings: reader.findings,
        replaced: reader.replaced,
    }
}

/// An inline tool with a fixed result and no schema problems, under the
/// entry's own name when it has one (other tools' duplicate-name checks and
/// the script's tool names still see it).
fn tool_stand_in(entry: &Value, index: usize) -> Option<ToolEntry> {
    let name = match entry.get("name").and_then(Value::as_str) {
        Some(name) => name.to_string(),
        // Read where messages list the tools' names, so it must say what it
        // is; no tool the schema allows has parentheses or spaces in its name.
        None => format!("(tools[{index}] has no name)"),
    };
    Some(ToolEntry::Inline(Box::new(InlineTool {
        name,
        description: String::new(),
        input_schema: json!({"type": "object"}),
        output_schema: None,
        needs_approval: false,
        result: Some(Value::Null),
        builtin: None,
        js: None,
        delay_ms: None,
        recorded: None,
        undeclared: false,
    })))
}

/// The neutral values a reported member comes back as, one of each JSON type.
fn neutral_values() -> [Value; 6] {
    [
        json!(""),
        json!(0),
        json!(false),
        json!({}),
        json!([]),
        Value::Null,
    ]
}

/// The neutral value of `written`'s own JSON type: it fits whenever only the
/// value was wrong (a bound, a pattern, a date), not its type.
fn neutral_like(written: &Value) -> Value {
    match written {
        Value::String(_) => json!(""),
        Value::Number(_) => json!(0),
        Value::Bool(_) => json!(false),
        Value::Object(_) => json!({}),
        Value::Array(_) => json!([]),
        Value::Null => Value::Null,
    }
}

/// Brings the set-aside members back into `part` (from which they were
/// removed) so that it fits `T`: each as a neutral value where one fits,
/// else left out (an unknown field never fits). Tries, in order: every
/// member as a neutral of the type written; every member left out; then
/// one member at a time changed, which is enough when one member's type is
/// wrong. False when none fits.
fn settle<T: DeserializeOwned>(part: &mut Value, members: &[(String, Value)]) -> bool {
    let with = |choices: &[Option<Value>]| {
        let mut trial = part.clone();
        for ((inner, _), choice) in members.iter().zip(choices) {
            if let Some(value) = choice {
                // A member inside a member left out has nowhere to go.
                let _ = set(&mut trial, inner, value.clone());
            }
        }
        trial
    };
    let alike: Vec<Option<Value>> = members.iter().map(|(_, w)| Some(neutral_like(w))).collect();
    let left_out: Vec<Option<Value>> = vec![None; members.len()];
    let mut choices = if fits::<T>(&with(&alike)) {
        alike
    } else if fits::<T>(&with(&left_out)) {
        left_out
    } else {
        let alternatives: Vec<Option<Value>> = neutral_values()
            .into_iter()
            .map(Some)
            .chain([None])
            .collect();
        let one_changed = (0..members.len()).find_map(|m| {
            alternatives.iter().find_map(|alternative| {
                let mut trial = alike.clone();
                trial[m] = alternative.clone();
                fits::<T>(&with(&trial)).then_some(trial)
            })
        });
        match one_changed {
            Some(choices) => choices,
            None => return false,
        }
    };
    // A member that is there stays there where it can: a `js` handler of
    // the wrong type still counts as a handler.
    for m in 0..members.len() {
        if choices[m].is_none() {
            for neutral in neutral_values() {
                let mut trial = choices.clone();
                trial[m] = Some(neutral);
                if fits::<T>(&with(&trial)) {
                    choices = trial;
                    break;
                }
            }
        }
    }
    *part = with(&choices);
    true
}

struct Reader<'a> {
    root: &'a mut Value,
    reported: &'a [String],
    spellings: &'a Spellings,
    findings: Vec<Finding>,
    replaced: Vec<String>,
}

impl Reader<'_> {
    /// The part at `pointer` as a `T`; `None` when it is absent or does not fit.
    fn part<T: DeserializeOwned>(&mut self, pointer: &str) -> Option<T> {
        let written = self.root.pointer(pointer)?;
        if let Ok(part) = T::deserialize(written) {
            return Some(part);
        }
        if self.reported.iter().any(|r| r == pointer) {
            // The part as a whole is wrong, and the schema said how.
            self.replaced.push(pointer.to_string());
            return None;
        }
        let mut part = written.clone();
        let set_aside = self.set_aside_reported_members(pointer, &mut part);
        let numbers = zero_doubtful_numbers(&mut part);
        if !settle::<T>(&mut part, &set_aside) {
            self.replaced.push(pointer.to_string());
            return None;
        }
        self.put_numbers_back::<T>(pointer, &mut part, &numbers);
        T::deserialize(&part).ok()
    }

    /// Each element of the array at `pointer`; an element that does not fit
    /// is replaced by `stand_in(element, index)`.
    fn elements<T: DeserializeOwned>(
        &mut self,
        pointer: &str,
        stand_in: impl Fn(&Value, usize) -> Option<T>,
    ) -> Vec<T> {
        let Some(Value::Array(items)) = self.root.pointer(pointer) else {
            if self.root.pointer(pointer).is_some() {
                self.replaced.push(pointer.to_string());
            }
            return Vec::new();
        };
        let count = items.len();
        let mut out = Vec::with_capacity(count);
        for index in 0..count {
            let at = format!("{pointer}/{index}");
            match self.part(&at) {
                Some(item) => out.push(item),
                None => {
                    let written = self.root.pointer(&at).cloned().unwrap_or_default();
                    match stand_in(&written, index) {
                        Some(item) => out.push(item),
                        // Without an element the indices after it would
                        // shift: the whole list is a stand-in then.
                        None => {
                            self.replaced.push(pointer.to_string());
                            return Vec::new();
                        }
                    }
                }
            }
        }
        out
    }

    /// The model. Its parts are read one by one (the type tag makes serde
    /// read `ModelConfig` as a whole), so one bad response does not hide the
    /// others or `loop_from`.
    fn model(&mut self) -> ModelConfig {
        if self.root.pointer("/model/type") == Some(&json!("rules")) {
            return ModelConfig::Rules {};
        }
        // A scripted model, or a type the schema rejected: the responses are
        // checked either way.
        if !matches!(self.root.pointer("/model/responses"), Some(Value::Array(_))) {
            self.replaced.push("/model".to_string());
            return ModelConfig::Rules {};
        }
        let empty = serde_json::from_value::<ScriptedResponse>(json!({})).ok();
        let responses = self.elements("/model/responses", |_, _| empty.clone());
        let written = self
            .root
            .pointer("/model/responses")
            .and_then(Value::as_array);
        if written.map(Vec::len) != Some(responses.len()) {
            // `loop_from` is judged against the script's length.
            self.replaced.push("/model".to_string());
            return ModelConfig::Rules {};
        }
        ModelConfig::Scripted {
            responses,
            loop_from: self.part("/model/loop_from"),
        }
    }

    /// Removes the part's members that the schema reported (an unknown
    /// field, a value of the wrong type, out of its enum or its bounds),
    /// returning their pointers within the part and what was written.
    fn set_aside_reported_members(&self, pointer: &str, part: &mut Value) -> Vec<(String, Value)> {
        let mut set_aside = Vec::new();
        for reported in self.reported {
            let Some(inner) = reported.strip_prefix(pointer) else {
                continue;
            };
            if inner.starts_with('/') {
                if let Some(written) = remove(part, inner) {
                    set_aside.push((inner.to_string(), written));
                }
            }
        }
        set_aside
    }

    /// Puts the set-aside numbers back, each one that fits; the ones that do
    /// not are reported. Halving the list finds them in a few tries even in
    /// a tool result with thousands of numbers.
    fn put_numbers_back<T: DeserializeOwned>(
        &mut self,
        pointer: &str,
        part: &mut Value,
        numbers: &[(String, Value)],
    ) {
        let mut trial = part.clone();
        for (inner, number) in numbers {
            let _ = set(&mut trial, inner, number.clone());
        }
        if fits::<T>(&trial) {
            *part = trial;
            return;
        }
        match numbers {
            [] => {}
            [(inner, number)] => self.number_that_does_not_fit::<T>(pointer, part, inner, number),
            _ => {
                let (first, second) = numbers.split_at(numbers.len() / 2);
                self.put_numbers_back::<T>(pointer, part, first);
                self.put_numbers_back::<T>(pointer, part, second);
            }
        }
    }

    /// A number its field's type does not take. A whole number written as a
    /// float is taken as the integer; anything else is reported with the
    /// type's own limit.
    fn number_that_does_not_fit<T: DeserializeOwned>(
        &mut self,
        pointer: &str,
        part: &mut Value,
        inner: &str,
        number: &Value,
    ) {
        let at = format!("{pointer}{inner}");
        let value = number.as_f64().unwrap_or(f64::NAN);
        if let Some(integer) = integer_of(value) {
            if fits_with::<T>(part, inner, integer.clone()) {
                let _ = set(part, inner, integer.clone());
                let _ = set(self.root, &at, integer);
                return;
            }
        }
        let written = match self.spellings.written_at(&at) {
            Some(spelling) => spelling.text.clone(),
            None => number.to_string(),
        };
        let message = if value.fract() != 0.0 {
            format!("{written} is not a whole number")
        } else if value < 0.0 {
            match smallest_fitting::<T>(part, inner) {
                Some(min) => format!("{written} is less than the smallest allowed, {min}"),
                None => format!("{written} is not a number this field takes"),
            }
        } else {
            match largest_fitting::<T>(part, inner) {
                Some(max) => format!("{written} is more than the largest allowed, {max}"),
                None => format!("{written} is not a number this field takes"),
            }
        };
        self.findings.push(Finding {
            pointer: at,
            message,
        });
    }
}

fn fits<T: DeserializeOwned>(value: &Value) -> bool {
    T::deserialize(value).is_ok()
}

fn fits_with<T: DeserializeOwned>(part: &Value, inner: &str, value: Value) -> bool {
    let mut trial = part.clone();
    set(&mut trial, inner, value) && fits::<T>(&trial)
}

/// The integer a whole float stands for, when a JSON integer can hold it.
fn integer_of(value: f64) -> Option<Value> {
    const TWO_TO_63: f64 = 9_223_372_036_854_775_808.0;
    if value.fract() != 0.0 || !value.is_finite() {
        None
    } else if (0.0..2.0 * TWO_TO_63).contains(&value) {
        Some(json!(value as u64))
    } else if (-TWO_TO_63..0.0).contains(&value) {
        Some(json!(value as i64))
    } else {
        None
    }
}

/// The largest integer type limit the field takes (255, 65535, …), found by
/// trying each, so it is the Rust type's own (a `usize` differs in wasm).
fn largest_fitting<T: DeserializeOwned>(part: &Value, inner: &str) -> Option<u64> {
    [
        u64::from(u8::MAX),
        u64::from(u16::MAX),
        u64::from(u32::MAX),
        u64::MAX,
    ]
    .into_iter()
    .take_while(|&max| fits_with::<T>(part, inner, json!(max)))
    .last()
}

/// Like `largest_fitting`, below zero: 0 for unsigned types.
fn smallest_fitting<T: DeserializeOwned>(part: &Value, inner: &str) -> Option<i64> {
    [
        0,
        i64::from(i8::MIN),
        i64::from(i16::MIN),
        i64::from(i32::MIN),
        i64::MIN,
    ]
    .into_iter()
    .take_while(|&min| fits_with::<T>(part, inner, json!(min)))
    .last()
}

/// Sets every number that some numeric type might not take (negative,
/// fractional, written as a float, or past 65535) to 0, which every numeric
/// type takes, returning their pointers and values.
fn zero_doubtful_numbers(part: &mut Value) -> Vec<(String, Value)> {
    fn walk(value: &mut Value, at: &mut String, out: &mut Vec<(String, Value)>) {
        match value {
            Value::Number(n) if n.as_u64().is_none_or(|u| u > u64::from(u16::MAX)) => {
                out.push((at.clone(), value.clone()));
                *value = json!(0);
            }
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    let len = at.len();
                    at.push_str(&format!("/{i}"));
                    walk(item, at, out);
                    at.truncate(len);
                }
            }
            Value::Object(members) => {
                for (key, item) in members.iter_mut() {
                    let len = at.len();
                    at.push('/');
                    at.push_str(&key.replace('~', "~0").replace('/', "~1"));
                    walk(item, at, out);
                    at.truncate(len);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(part, &mut String::new(), &mut out);
    out
}

/// `pointer`'s parent and last token (unescaped).
fn split(pointer: &str) -> Option<(&str, String)> {
    let (parent, last) = pointer.rsplit_once('/')?;
    Some((parent, last.replace("~1", "/").replace("~0", "~")))
}

/// Removes the object member at `pointer`, returning it.
fn remove(root: &mut Value, pointer: &str) -> Option<Value> {
    let (parent, key) = split(pointer)?;
    match root.pointer_mut(parent) {
        Some(Value::Object(members)) => members.shift_remove(&key),
        _ => None,
    }
}

/// Sets the value at `pointer` (the whole of `root` for ""); false when its
/// parent is missing.
fn set(root: &mut Value, pointer: &str, value: Value) -> bool {
    if pointer.is_empty() {
        *root = value;
        return true;
    }
    let Some((parent, key)) = split(pointer) else {
        return false;
    };
    match root.pointer_mut(parent) {
        Some(Value::Object(members)) => {
            members.insert(key, value);
            true
        }
        Some(Value::Array(items)) => match key.parse::<usize>().ok().and_then(|i| items.get_mut(i))
        {
            Some(slot) => {
                *slot = value;
                true
            }
            None => false,
        },
        _ => false,
    }
}
