//! Evaluates an instance against the node arena.
//!
//! One evaluator serves both `validate` (collect every error, with paths and
//! messages) and `is_valid` / sub-checks such as `not` and `contains` (stop at
//! the first failure and format nothing): the `Sink` decides.

use std::sync::Arc;

use serde_json::{Map, Number, Value};

use crate::error::{describe, join_and, json_string, plural, snippet, snippet_limit};
use crate::node::{Keywords, Node, NodeId, TypeSet};
use crate::number::{compare, is_multiple_of, json_eq};
use crate::suggest;
use crate::value_key::{distinct, first_duplicate};
use crate::UnexpectedProperty;

/// Nested evaluations allowed before giving up. Schema cycles that do not
/// consume the instance are rejected at compile time, so only a deeply
/// nested instance gets here; stopping keeps the wasm stack safe.
const MAX_EVAL_DEPTH: usize = 256;

/// An error before it is made public, with what anyOf/oneOf need to merge
/// the failures of their branches into one message.
pub(crate) struct Error {
    pub path: String,
    pub keyword: &'static str,
    pub message: String,
    pub hint: Hint,
    pub unexpected: Option<UnexpectedProperty>,
    pub missing: Option<String>,
}

pub(crate) enum Hint {
    None,
    /// The value had the wrong type; these types were acceptable.
    Type(TypeSet),
    /// The value was not one of these (`const`/`enum`).
    Values(Arc<[Value]>),
}

struct Sink {
    /// Stop at the first failure and build no messages.
    fast: bool,
    failed: bool,
    errors: Vec<Error>,
}

impl Sink {
    fn new(fast: bool) -> Sink {
        Sink {
            fast,
            failed: false,
            errors: Vec::new(),
        }
    }

    /// Records a failure; `make` runs only when messages are wanted.
    fn fail(&mut self, make: impl FnOnce() -> Error) {
        self.failed = true;
        if !self.fast {
            self.errors.push(make());
        }
    }

    fn done(&self) -> bool {
        self.fast && self.failed
    }
}

#[derive(Clone, Copy)]
enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// The instance location being evaluated, rendered only when an error needs it.
type Path<'a> = Vec<Seg<'a>>;

fn render(path: &[Seg<'_>]) -> String {
    let mut out = String::new();
    for seg in path {
        out.push('/');
        match seg {
            Seg::Key(k) => out.push_str(&crate::pointer::escape(k)),
            Seg::Index(i) => out.push_str(&i.to_string()),
        }
    }
    out
}

fn err(path: &[Seg<'_>], keyword: &'static str, message: String) -> Error {
    Error {
        path: render(path),
        keyword,
        message,
        hint: Hint::None,
        unexpected: None,
        missing: None,
    }
}

pub(crate) struct Validator<'s> {
    pub nodes: &'s [Node],
}

impl Validator<'_> {
    pub(crate) fn errors(&self, instance: &Value) -> Vec<Error> {
        let mut sink = Sink::new(false);
        self.eval(0, instance, &mut Vec::new(), &mut sink, 0);
        sink.errors
    }

    pub(crate) fn is_valid(&self, instance: &Value) -> bool {
        self.check(0, instance, 0)
    }

    fn check(&self, id: NodeId, instance: &Value, depth: usize) -> bool {
        let mut sink = Sink::new(true);
        self.eval(id, instance, &mut Vec::new(), &mut sink, depth);
        !sink.failed
    }

    fn eval<'a>(
        &self,
        id: NodeId,
        inst: &'a Value,
        path: &mut Path<'a>,
        sink: &mut Sink,
        depth: usize,
    ) {
        if depth > MAX_EVAL_DEPTH {
            sink.fail(|| {
                let message = format!(
                    "value is nested too deeply to validate (more than {MAX_EVAL_DEPTH} levels)"
                );
                err(path, "$ref", message)
            });
            return;
        }
        match self.nodes.get(id) {
            Some(Node::Schema(k)) => self.keywords(k, inst, path, sink, depth),
            Some(Node::Bool(false)) => sink.fail(|| {
                let message = format!(
                    "no value is allowed here (the schema is false), found {}",
                    describe(inst)
                );
                err(path, "false", message)
            }),
            _ => {}
        }
    }

    fn keywords<'a>(
        &self,
        k: &Keywords,
        inst: &'a Value,
        path: &mut Path<'a>,
        sink: &mut Sink,
        depth: usize,
    ) {
        if let Some(types) = k.types {
            if !types.matches(inst) {
                // The other keywords' complaints would only restate this one.
                sink.fail(|| Error {
                    hint: Hint::Type(types),
                    ..err(path, "type", type_message(types, inst))
                });
                return;
            }
        }
        if let Some(c) = &k.constant {
            if !json_eq(c, inst) {
                sink.fail(|| Error {
                    hint: Hint::Values(Arc::from([c.clone()])),
                    ..err(
                        path,
                        "const",
                        format!(
                            "expected {}, found {}",
                            snippet_limit(c, 200),
                            snippet(inst)
                        ),
                    )
                });
            }
        }
        if let Some(allowed) = &k.enumeration {
            if !allowed.contains(inst) {
                sink.fail(|| Error {
                    hint: Hint::Values(allowed.values.clone()),
                    ..err(path, "enum", one_of_message(&allowed.values, inst))
                });
            }
        }
        if sink.done() {
            return;
        }
        match inst {
            Value::Number(n) => self.number(k, n, path, sink),
            Value::String(s) => self.string(k, s, path, sink),
            Value::Object(map) => self.object(k, map, inst, path, sink, depth),
            Value::Array(items) => self.array(k, items, path, sink, depth),
            _ => {}
        }
        if sink.done() {
            return;
        }
        self.applicators(k, inst, path, sink, depth);
    }

    fn number(&self, k: &Keywords, n: &Number, path: &[Seg<'_>], sink: &mut Sink) {
        use std::cmp::Ordering::{Equal, Greater, Less};
        // Each check: the bound, its keyword, the orderings that pass, and
        // how a failure reads ("-5 is too small: it must be at least 1").
        type Check<'k> = (
            &'k Option<Number>,
            &'static str,
            &'static [std::cmp::Ordering],
            &'static str,
            &'static str,
        );
        let checks: [Check<'_>; 4] = [
            (
                &k.minimum,
                "minimum",
                &[Greater, Equal],
                "too small",
                "at least",
            ),
            (
                &k.maximum,
                "maximum",
                &[Less, Equal],
                "too large",
                "at most",
            ),
            (
                &k.exclusive_minimum,
                "exclusiveMinimum",
                &[Greater],
                "too small",
                "greater than",
            ),
            (
                &k.exclusive_maximum,
                "exclusiveMaximum",
                &[Less],
                "too large",
                "less than",
            ),
        ];
        for (limit, keyword, ok, verdict, relation) in checks {
            if let Some(limit) = limit {
                if !compare(n, limit).is_some_and(|o| ok.contains(&o)) {
                    sink.fail(|| {
                        err(
                            path,
                            keyword,
                            format!("{n} is {verdict}: it must be {relation} {limit}"),
                        )
                    });
                }
            }
        }
        if let Some(divisor) = &k.multiple_of {
            if !is_multiple_of(n, divisor) {
                sink.fail(|| {
                    err(
                        path,
                        "multipleOf",
                        format!("{n} is not a multiple of {divisor}"),
                    )
                });
            }
        }
    }

    fn string(&self, k: &Keywords, s: &str, path: &[Seg<'_>], sink: &mut Sink) {
        if k.min_length.is_some() || k.max_length.is_some() {
            // Code points, not bytes or UTF-16 units, as the spec requires.
            let len = s.chars().count() as u64;
            if let Some(min) = k.min_length.filter(|&min| len < min) {
                sink.fail(|| {
                    let message = format!(
                        "must be at least {} long, found {len} ({})",
                        plural(min, "character"),
                        snippet(&Value::String(s.to_owned()))
                    );
                    err(path, "minLength", message)
                });
            }
            if let Some(max) = k.max_length.filter(|&max| len > max) {
                sink.fail(|| {
                    let message = format!(
                        "must be at most {} long, found {len} ({})",
                        plural(max, "character"),
                        snippet(&Value::String(s.to_owned()))
                    );
                    err(path, "maxLength", message)
                });
            }
        }
        if let Some(p) = &k.pattern {
            if !p.regex.is_match(s) {
                sink.fail(|| {
                    let message = format!(
                        "{} does not match pattern \"{}\"",
                        snippet(&Value::String(s.to_owned())),
                        p.source
                    );
                    err(path, "pattern", message)
                });
            }
        }
        if let Some(f) = k.format {
            if !f.is_valid(s) {
                sink.fail(|| {
                    let message = format!(
                        "{} is not a valid {} (format \"{}\", {})",
                        snippet(&Value::String(s.to_owned())),
                        f.noun(),
                        f.name(),
                        f.hint()
                    );
                    err(path, "format", message)
                });
            }
        }
    }

    fn object<'a>(
        &self,
        k: &Keywords,
        map: &'a Map<String, Value>,
        inst: &'a Value,
        path: &mut Path<'a>,
        sink: &mut Sink,
        depth: usize,
    ) {
        for name in &k.required {
            if !map.contains_key(name) {
                sink.fail(|| Error {
                    missing: Some(name.clone()),
                    ..err(
                        path,
                        "required",
                        format!("missing required property {}", json_string(name)),
                    )
                });
                if sink.done() {
                    return;
                }
            }
        }
        for (trigger, names) in &k.dependent_required {
            if map.contains_key(trigger) {
                for name in names.iter().filter(|n| !map.contains_key(*n)) {
                    sink.fail(|| {
                        let message = format!(
                            "missing property {}, which is required when {} is present",
                            json_string(name),
                            json_string(trigger)
                        );
                        Error {
                            missing: Some(name.clone()),
                            ..err(path, "dependentRequired", message)
                        }
                    });
                }
            }
        }
        let count = map.len() as u64;
        if let Some(min) = k.min_properties.filter(|&min| count < min) {
            sink.fail(|| {
                let message = format!(
                    "expected at least {}, found {count}",
                    plural(min, "property")
                );
                err(path, "minProperties", message)
            });
        }
        if let Some(max) = k.max_properties.filter(|&max| count > max) {
            sink.fail(|| {
                let message = format!(
                    "expected at most {}, found {count}",
                    plural(max, "property")
                );
                err(path, "maxProperties", message)
            });
        }
        if sink.done() {
            return;
        }

        let checks_members = !k.properties.is_empty()
            || !k.pattern_properties.is_empty()
            || k.additional_properties.is_some()
            || k.property_names.is_some();
        if checks_members {
            let mut unexpected = 0;
            for (name, value) in map {
                if self.member(k, name, value, path, sink, depth) {
                    // Suggestions cost a comparison with every declared
                    // name, so only the first few unexpected names get one.
                    let suggest = unexpected < SUGGESTED_NAMES;
                    unexpected += 1;
                    sink.fail(|| unexpected_property(k, name, path, suggest));
                }
                if sink.done() {
                    return;
                }
            }
        }
        for (trigger, schema) in &k.dependent_schemas {
            if map.contains_key(trigger) {
                self.eval(*schema, inst, path, sink, depth + 1);
            }
        }
    }

    /// Applies properties / patternProperties / additionalProperties /
    /// propertyNames to one member of an object. True when
    /// `"additionalProperties": false` rejects it, for the caller to report.
    fn member<'a>(
        &self,
        k: &Keywords,
        name: &'a str,
        value: &'a Value,
        path: &mut Path<'a>,
        sink: &mut Sink,
        depth: usize,
    ) -> bool {
        if let Some(names_schema) = k.property_names {
            self.property_name(names_schema, name, path, sink, depth);
        }
        let mut matched = false;
        path.push(Seg::Key(name));
        if let Some(schema) = k.property(name) {
            matched = true;
            self.eval(schema, value, path, sink, depth + 1);
        }
        for (pattern, schema) in &k.pattern_properties {
            if pattern.regex.is_match(name) {
                matched = true;
                self.eval(*schema, value, path, sink, depth + 1);
            }
        }
        path.pop();
        match k.additional_properties {
            Some(schema) if !matched => {
                if let Some(Node::Bool(false)) = self.nodes.get(schema) {
                    // Reported at the object, naming the alternatives: the
                    // usual cause is a misspelt or invented argument name.
                    return true;
                }
                path.push(Seg::Key(name));
                self.eval(schema, value, path, sink, depth + 1);
                path.pop();
            }
            _ => {}
        }
        false
    }

    fn property_name(
        &self,
        schema: NodeId,
        name: &str,
        path: &[Seg<'_>],
        sink: &mut Sink,
        depth: usize,
    ) {
        let key = Value::String(name.to_owned());
        if sink.fast {
            if !self.check(schema, &key, depth + 1) {
                sink.fail(|| err(path, "propertyNames", String::new()));
            }
            return;
        }
        let mut inner = Sink::new(false);
        self.eval(schema, &key, &mut Vec::new(), &mut inner, depth + 1);
        for e in inner.errors {
            sink.fail(|| {
                let message = format!(
                    "property name {} is invalid: {}",
                    json_string(name),
                    e.message
                );
                err(path, "propertyNames", message)
            });
        }
    }

    fn array<'a>(
        &self,
        k: &Keywords,
        items: &'a [Value],
        path: &mut Path<'a>,
        sink: &mut Sink,
        depth: usize,
    ) {
        let len = items.len() as u64;
        if let Some(min) = k.min_items.filter(|&min| len < min) {
            sink.fail(|| {
                err(
                    path,
                    "minItems",
                    format!("expected at least {}, found {len}", plural(min, "item")),
                )
            });
        }
        if let Some(max) = k.max_items.filter(|&max| len > max) {
            sink.fail(|| {
                err(
                    path,
                    "maxItems",
                    format!("expected at most {}, found {len}", plural(max, "item")),
                )
            });
        }
        if k.unique_items {
            if let Some((i, j)) = first_duplicate(items) {
                sink.fail(|| {
                    let message = format!(
                        "expected unique items, but items {i} and {j} are equal ({})",
                        snippet(&items[i])
                    );
                    err(path, "uniqueItems", message)
                });
            }
        }
        if sink.done() {
            return;
        }

        for (i, (item, schema)) in items.iter().zip(&k.prefix_items).enumerate() {
            path.push(Seg::Index(i));
            self.eval(*schema, item, path, sink, depth + 1);
            path.pop();
            if sink.done() {
                return;
            }
        }
        let prefix = k.prefix_items.len();
        if let Some(schema) = k.items {
            if let Some(Node::Bool(false)) = self.nodes.get(schema) {
                if items.len() > prefix {
                    sink.fail(|| {
                        let message = if prefix == 0 {
                            format!("expected an empty array (items is false), found {}", plural(len, "item"))
                        } else {
                            format!(
                                "expected at most {} (items is false after prefixItems), found {len}",
                                plural(prefix as u64, "item")
                            )
                        };
                        err(path, "items", message)
                    });
                }
            } else {
                for (i, item) in items.iter().enumerate().skip(prefix) {
                    path.push(Seg::Index(i));
                    self.eval(schema, item, path, sink, depth + 1);
                    path.pop();
                    if sink.done() {
                        return;
                    }
                }
            }
        }

        if let Some(schema) = k.contains {
            let min = k.min_contains.unwrap_or(1);
            let max = k.max_contains;
            // A bare validity check stops counting once the answer is known.
            let cap = max.map_or(min, |m| m.saturating_add(1)).max(min);
            let mut found: u64 = 0;
            for item in items {
                if sink.fast && found >= cap {
                    break;
                }
                if self.check(schema, item, depth + 1) {
                    found += 1;
                }
            }
            if found < min {
                sink.fail(|| {
                    let message = format!(
                        "expected at least {} matching the \"contains\" schema, found {found}",
                        plural(min, "item")
                    );
                    err(path, "contains", message)
                });
            }
            if let Some(max) = max.filter(|&max| found > max) {
                sink.fail(|| {
                    let message = format!(
                        "expected at most {} matching the \"contains\" schema, found {found}",
                        plural(max, "item")
                    );
                    err(path, "maxContains", message)
                });
            }
        }
    }

    fn applicators<'a>(
        &self,
        k: &Keywords,
        inst: &'a Value,
        path: &mut Path<'a>,
        sink: &mut Sink,
        depth: usize,
    ) {
        if let Some(target) = k.reference {
            self.eval(target, inst, path, sink, depth + 1);
        }
        for schema in &k.all_of {
            if sink.done() {
                return;
            }
            self.eval(*schema, inst, path, sink, depth + 1);
        }
        if !k.any_of.is_empty() {
            self.alternatives(&k.any_of, "anyOf", inst, path, sink, depth);
        }
        if !k.one_of.is_empty() {
            self.alternatives(&k.one_of, "oneOf", inst, path, sink, depth);
        }
        if let Some((schema, rendering)) = &k.not {
            if self.check(*schema, inst, depth + 1) {
                sink.fail(|| {
                    err(
                        path,
                        "not",
                        format!("must not match the \"not\" schema {rendering}"),
                    )
                });
            }
        }
        if let Some(condition) = k.if_ {
            let branch = if self.check(condition, inst, depth + 1) {
                k.then_
            } else {
                k.else_
            };
            if let Some(branch) = branch {
                self.eval(branch, inst, path, sink, depth + 1);
            }
        }
    }

    /// anyOf / oneOf. Validity is decided with cheap checks; branch errors are
    /// only collected when every branch failed, to explain the failure.
    fn alternatives<'a>(
        &self,
        branches: &[NodeId],
        keyword: &'static str,
        inst: &'a Value,
        path: &mut Path<'a>,
        sink: &mut Sink,
        depth: usize,
    ) {
        let exactly_one = keyword == "oneOf";
        let mut matched: Vec<usize> = Vec::new();
        for (i, schema) in branches.iter().enumerate() {
            if self.check(*schema, inst, depth + 1) {
                matched.push(i);
                if !exactly_one || (sink.fast && matched.len() > 1) {
                    break;
                }
            }
        }
        match matched.len() {
            0 => {}
            1 => return,
            _ if !exactly_one => return,
            n => {
                sink.fail(|| {
                    let which: Vec<String> = matched.iter().map(|i| i.to_string()).collect();
                    let message = format!(
                        "matches {n} of the oneOf schemas ({}); exactly one must match",
                        join_and(&which)
                    );
                    err(path, keyword, message)
                });
                return;
            }
        }
        if sink.fast {
            sink.fail(|| err(path, keyword, String::new()));
            return;
        }
        let here = render(path);
        let results: Vec<Vec<Error>> = branches
            .iter()
            .map(|schema| {
                let mut branch_sink = Sink::new(false);
                self.eval(*schema, inst, path, &mut branch_sink, depth + 1);
                branch_sink.errors
            })
            .collect();
        let merged = merge_branches(results, &here, keyword, inst);
        if merged.is_empty() {
            // Defensive: a failed branch always explains itself, but an
            // invalid verdict must never come back without an error.
            sink.fail(|| {
                err(
                    path,
                    keyword,
                    format!("does not match any of the {keyword} schemas"),
                )
            });
        }
        for e in merged {
            sink.fail(|| e);
        }
    }
}

/// Explains why no branch of an anyOf/oneOf matched, as briefly as the
/// failures allow: one type message when every branch wanted another type,
/// one "expected one of" when every branch was a const/enum, else the errors
/// of the branch that came closest.
fn merge_branches(
    results: Vec<Vec<Error>>,
    here: &str,
    keyword: &'static str,
    inst: &Value,
) -> Vec<Error> {
    let type_failure = |errors: &[Error]| {
        errors.iter().find_map(|e| match e.hint {
            Hint::Type(t) if e.path == here => Some(t),
            _ => None,
        })
    };
    let wanted: Vec<Option<TypeSet>> = results.iter().map(|r| type_failure(r)).collect();
    if wanted.iter().all(Option::is_some) {
        let union = wanted
            .iter()
            .flatten()
            .fold(TypeSet::default(), |acc, t| acc.union(*t));
        return vec![Error {
            path: here.to_owned(),
            keyword,
            message: type_message(union, inst),
            hint: Hint::Type(union),
            unexpected: None,
            missing: None,
        }];
    }
    let all_values = results.iter().all(
        |r| matches!(r.as_slice(), [e] if e.path == here && matches!(e.hint, Hint::Values(_))),
    );
    if all_values {
        let listed = results.iter().flat_map(|r| match r.as_slice() {
            [Error {
                hint: Hint::Values(vs),
                ..
            }] => vs.iter().cloned(),
            _ => [].iter().cloned(),
        });
        let values = distinct(listed);
        return vec![Error {
            path: here.to_owned(),
            keyword,
            message: one_of_message(&values, inst),
            hint: Hint::Values(values.into()),
            unexpected: None,
            missing: None,
        }];
    }
    // Closest: among branches whose type fits, the one with fewest errors.
    let closest = results
        .into_iter()
        .zip(&wanted)
        .filter(|(_, w)| w.is_none())
        .map(|(r, _)| r)
        .min_by_key(Vec::len);
    closest.unwrap_or_default()
}

fn one_of_message(allowed: &[Value], found: &Value) -> String {
    format!(
        "expected one of {}, found {}",
        list_snippet(allowed, 200),
        snippet(found)
    )
}

/// `snippet_limit` of the array of `values`, without writing out more of a
/// long list than is shown.
fn list_snippet(values: &[Value], limit: usize) -> String {
    let mut shown: Vec<Value> = Vec::new();
    let mut chars = 1;
    for value in values {
        if chars > limit {
            // What follows would be cut off; the "…" says it is there.
            break;
        }
        chars += snippet_limit(value, limit).chars().count() + 1;
        shown.push(value.clone());
    }
    snippet_limit(&Value::Array(shown), limit)
}

/// "expected an integer, found a string (\"3\")"; a fraction where a whole
/// number belongs says so, since "found a number" would read as no mistake.
fn type_message(types: TypeSet, inst: &Value) -> String {
    match inst {
        Value::Number(n) if types.has(TypeSet::INTEGER) => {
            format!("{n} is not a whole number; expected {}", types.phrase())
        }
        _ => format!("expected {}, found {}", types.phrase(), describe(inst)),
    }
}

/// Longest list of allowed names an "unexpected property" message shows:
/// enough for any tool's arguments, short enough for a model's context.
const LISTED_NAMES: usize = 20;

/// Unexpected properties of one object that get a "did you mean": a model
/// that invents more names than this is not making typos.
const SUGGESTED_NAMES: usize = 20;

/// An unexpected property, with the nearest declared name when one is a
/// plausible typo (looked for only when `suggest`), else the names that
/// are allowed.
fn unexpected_property(k: &Keywords, name: &str, path: &[Seg<'_>], suggest: bool) -> Error {
    let declared = k.declared_names.clone();
    let quoted = json_string(name);
    let close = suggest
        .then(|| suggest::nearest(name, declared.iter().map(String::as_str)))
        .flatten();
    let message = if let Some(close) = close {
        format!(
            "unexpected property {quoted} (did you mean {}?)",
            json_string(close)
        )
    } else {
        let total = declared.len() + k.pattern_properties.len();
        let mut allowed: Vec<String> = declared
            .iter()
            .map(|n| json_string(n))
            .chain(
                k.pattern_properties
                    .iter()
                    .map(|(p, _)| format!("names matching \"{}\"", p.source)),
            )
            .take(LISTED_NAMES)
            .collect();
        if allowed.is_empty() {
            format!("unexpected property {quoted}; no properties are allowed here")
        } else {
            let more = total - allowed.len();
            if more > 0 {
                allowed.push(format!("{more} more"));
            }
            format!(
                "unexpected property {quoted}; the allowed properties are {}",
                join_and(&allowed)
            )
        }
    };
    Error {
        unexpected: Some(UnexpectedProperty {
            name: name.to_owned(),
            declared,
        }),
        ..err(path, "additionalProperties", message)
    }
}
