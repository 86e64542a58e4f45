//! Schema JSON → node arena. Every keyword is checked here, once, so that
//! validation never has to look at the schema JSON again: regexes are
//! compiled, `$ref`s are resolved to node indices, formats are looked up, and
//! anything unsupported or malformed is reported with its schema path.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Number, Value};

use crate::error::{describe, json_string, snippet_limit, CompileError, CompileErrorKind};
use crate::format::Format;
use crate::node::{Keywords, Node, NodeId, Pattern, TypeSet};
use crate::number::{as_count, compare};
use crate::pointer;
use crate::suggest;
use crate::value_key::ValueSet;
use crate::vocab;

/// Deeper schemas are rejected rather than risking the (small, in wasm)
/// stack. No real tool schema comes close.
const MAX_SCHEMA_DEPTH: usize = 128;

/// Compiles `schema`; the root is node 0.
pub(crate) fn compile(schema: &Value, assert_format: bool) -> Result<Vec<Node>, Vec<CompileError>> {
    let mut c = Compiler {
        root: schema,
        assert_format,
        nodes: Vec::new(),
        paths: Vec::new(),
        memo: BTreeMap::new(),
        pending_refs: Vec::new(),
        errors: Vec::new(),
    };
    c.node(schema, String::new(), 0, "schema");
    // Targets are compiled after the tree so that a ref to an ancestor (or to
    // itself) finds the node already allocated instead of recursing.
    while let Some((from, tokens)) = c.pending_refs.pop() {
        let Some(target_value) = pointer::resolve(c.root, &tokens) else {
            continue; // Unreachable: checked when the ref was read.
        };
        let target = c.node(target_value, pointer::join(&tokens), tokens.len(), "$ref");
        if let Node::Schema(k) = &mut c.nodes[from] {
            k.reference = Some(target);
        }
    }
    c.check_cycles();
    if c.errors.is_empty() {
        Ok(c.nodes)
    } else {
        Err(c.errors)
    }
}

struct Compiler<'s> {
    root: &'s Value,
    assert_format: bool,
    nodes: Vec<Node>,
    /// Schema pointer of each node, for cycle messages.
    paths: Vec<String>,
    /// Canonical schema pointer → node, so a location reached both directly
    /// and through `$ref` is compiled (and reported) once.
    memo: BTreeMap<String, NodeId>,
    /// (node holding the `$ref`, target pointer tokens)
    pending_refs: Vec<(NodeId, Vec<String>)>,
    errors: Vec<CompileError>,
}

impl<'s> Compiler<'s> {
    fn error(&mut self, path: &str, kind: CompileErrorKind, message: String) {
        self.errors.push(CompileError {
            schema_path: path.to_owned(),
            kind,
            message,
        });
    }

    fn invalid(&mut self, path: &str, keyword: &str, message: String) {
        self.error(
            path,
            CompileErrorKind::InvalidKeywordValue(keyword.to_owned()),
            message,
        );
    }

    fn unresolvable(&mut self, path: &str, reference: &str, message: String) {
        self.error(
            path,
            CompileErrorKind::UnresolvableRef(reference.to_owned()),
            message,
        );
    }

    /// Compiles the schema at `path`; `keyword` names what holds it, for
    /// the error when it is not a schema at all.
    fn node(&mut self, value: &'s Value, path: String, depth: usize, keyword: &str) -> NodeId {
        if let Some(&id) = self.memo.get(&path) {
            return id;
        }
        let id = self.nodes.len();
        self.nodes.push(Node::Bool(true));
        self.paths.push(path.clone());
        self.memo.insert(path.clone(), id);
        if depth > MAX_SCHEMA_DEPTH {
            self.invalid(
                &path,
                keyword,
                format!("schema is nested more than {MAX_SCHEMA_DEPTH} levels deep"),
            );
            return id;
        }
        let node = match value {
            Value::Bool(b) => Node::Bool(*b),
            Value::Object(map) => Node::Schema(self.keywords(id, map, &path, depth)),
            other => {
                let message = format!(
                    "expected a schema (an object or a boolean), found {}",
                    describe(other)
                );
                self.invalid(&path, keyword, message);
                Node::Bool(true)
            }
        };
        self.nodes[id] = node;
        id
    }

    /// Reads one schema object. Split in two so that the recursive path
    /// (this function and `applicator`) keeps small stack frames: the
    /// message-formatting arms live in `assertion`, which is never inlined.
    fn keywords(
        &mut self,
        id: NodeId,
        map: &'s Map<String, Value>,
        path: &str,
        depth: usize,
    ) -> Box<Keywords> {
        let mut k = Box::<Keywords>::default();
        for (key, value) in map {
            let kp = pointer::push(path, key);
            if !self.applicator(&mut k, id, key, value, &kp, depth + 1) {
                self.assertion(&mut k, key, value, &kp, path.is_empty());
            }
        }
        k
    }

    /// Keywords holding subschemas. Returns false for any other keyword.
    fn applicator(
        &mut self,
        k: &mut Keywords,
        id: NodeId,
        kw: &str,
        value: &'s Value,
        kp: &str,
        d: usize,
    ) -> bool {
        match kw {
            "properties" => {
                if let Some(members) = self.object(value, kp, kw) {
                    for (name, v) in members {
                        let child = self.node(v, pointer::push(kp, name), d, kw);
                        k.properties.push((name.clone(), child));
                    }
                    // Keys of one JSON object are distinct, so an unstable sort gives the
                    // same order, with less code in the web bundle than a stable one.
                    k.properties.sort_unstable_by(|a, b| a.0.cmp(&b.0));
                    k.declared_names = k.properties.iter().map(|(n, _)| n.clone()).collect();
                }
            }
            "patternProperties" => {
                if let Some(members) = self.object(value, kp, kw) {
                    for (source, v) in members {
                        let member_path = pointer::push(kp, source);
                        let regex = self.regex(source, &member_path, kw);
                        let child = self.node(v, member_path, d, kw);
                        if let Some(p) = regex {
                            k.pattern_properties.push((p, child));
                        }
                    }
                }
            }
            "dependentSchemas" => {
                if let Some(members) = self.object(value, kp, kw) {
                    for (name, v) in members {
                        let child = self.node(v, pointer::push(kp, name), d, kw);
                        k.dependent_schemas.push((name.clone(), child));
                    }
                }
            }
            "$defs" | "definitions" => {
                // Compiled even when unreferenced, so their mistakes surface.
                if let Some(members) = self.object(value, kp, kw) {
                    for (name, v) in members {
                        self.node(v, pointer::push(kp, name), d, kw);
                    }
                }
            }
            "additionalProperties" => {
                k.additional_properties = Some(self.node(value, kp.to_owned(), d, kw))
            }
            "propertyNames" => k.property_names = Some(self.node(value, kp.to_owned(), d, kw)),
            "contains" => k.contains = Some(self.node(value, kp.to_owned(), d, kw)),
            "if" => k.if_ = Some(self.node(value, kp.to_owned(), d, kw)),
            "then" => k.then_ = Some(self.node(value, kp.to_owned(), d, kw)),
            "else" => k.else_ = Some(self.node(value, kp.to_owned(), d, kw)),
            "not" => {
                let rendering = snippet_limit(value, 80);
                k.not = Some((self.node(value, kp.to_owned(), d, kw), rendering));
            }
            "items" if !value.is_array() => k.items = Some(self.node(value, kp.to_owned(), d, kw)),
            "prefixItems" => k.prefix_items = self.schema_list(value, kp, d, kw),
            "allOf" => k.all_of = self.schema_list(value, kp, d, kw),
            "anyOf" => k.any_of = self.schema_list(value, kp, d, kw),
            "oneOf" => k.one_of = self.schema_list(value, kp, d, kw),
            "$ref" => self.reference(id, value, kp),
            _ => return false,
        }
        true
    }

    /// Every keyword that holds no subschema, and the unsupported ones.
    #[inline(never)]
    fn assertion(&mut self, k: &mut Keywords, kw: &str, value: &'s Value, kp: &str, at_root: bool) {
        match kw {
            "type" => k.types = self.types(value, kp),
            "enum" => match value {
                Value::Array(items) => k.enumeration = Some(ValueSet::new(items.clone())),
                other => self.invalid(
                    kp,
                    kw,
                    format!("\"enum\" must be an array of allowed values, found {}", describe(other)),
                ),
            },
            "const" => k.constant = Some(value.clone()),
            "minimum" => k.minimum = self.number(value, kp, kw),
            "maximum" => k.maximum = self.number(value, kp, kw),
            "exclusiveMinimum" => k.exclusive_minimum = self.number(value, kp, kw),
            "exclusiveMaximum" => k.exclusive_maximum = self.number(value, kp, kw),
            "multipleOf" => {
                let n = self.number(value, kp, kw);
                let zero = Number::from(0);
                if n.as_ref().is_some_and(|n| compare(n, &zero) != Some(std::cmp::Ordering::Greater)) {
                    self.invalid(kp, kw, format!("\"multipleOf\" must be greater than 0, found {value}"));
                } else {
                    k.multiple_of = n;
                }
            }
            "minLength" => k.min_length = self.count(value, kp, kw),
            "maxLength" => k.max_length = self.count(value, kp, kw),
            "minProperties" => k.min_properties = self.count(value, kp, kw),
            "maxProperties" => k.max_properties = self.count(value, kp, kw),
            "minItems" => k.min_items = self.count(value, kp, kw),
            "maxItems" => k.max_items = self.count(value, kp, kw),
            "minContains" => k.min_contains = self.count(value, kp, kw),
            "maxContains" => k.max_contains = self.count(value, kp, kw),
            "uniqueItems" => match value {
                Value::Bool(b) => k.unique_items = *b,
                other => self.invalid(
                    kp,
                    kw,
                    format!("\"uniqueItems\" must be true or false, found {}", describe(other)),
                ),
            },
            "pattern" => k.pattern = self.pattern(value, kp, kw),
            "format" => match value {
                // Unknown formats are ignored, as 2020-12 specifies.
                Value::String(name) if self.assert_format => k.format = Format::from_name(name),
                Value::String(_) => {}
                other => self.invalid(
                    kp,
                    kw,
                    format!("\"format\" must be a string, found {}", describe(other)),
                ),
            },
            "required" => k.required = self.names(value, kp, kw),
            "dependentRequired" => {
                if let Some(members) = self.object(value, kp, kw) {
                    for (name, v) in members {
                        let names = self.names(v, &pointer::push(kp, name), kw);
                        k.dependent_required.push((name.clone(), names));
                    }
                }
            }
            "items" => self.invalid(
                kp,
                kw,
                "\"items\" must be a single schema in draft 2020-12; for a tuple use \"prefixItems\"".to_owned(),
            ),
            "$id" if at_root => {
                if !value.is_string() {
                    self.invalid(kp, kw, format!("\"$id\" must be a string, found {}", describe(value)));
                }
            }
            _ if vocab::ANNOTATIONS.contains(&kw) => {}
            _ => self.unsupported(kp, kw),
        }
    }

    fn unsupported(&mut self, path: &str, keyword: &str) {
        let quoted = json_string(keyword);
        let message = if let Some(why) = vocab::known_unsupported(keyword) {
            format!("keyword {quoted} {why}")
        } else if let Some(close) = vocab::suggest(keyword) {
            format!("unknown keyword {quoted} (did you mean \"{close}\"?)")
        } else {
            format!(
                "unknown keyword {quoted}; tool-schema reports keywords it does not implement instead of ignoring them"
            )
        };
        self.error(
            path,
            CompileErrorKind::UnsupportedKeyword(keyword.to_owned()),
            message,
        );
    }

    fn types(&mut self, value: &Value, path: &str) -> Option<TypeSet> {
        let bad = |v: &Value| {
            let close = v
                .as_str()
                .and_then(|name| suggest::nearest(name, TypeSet::names()));
            match close {
                Some(name) => format!(
                    "{} is not a type name (did you mean \"{name}\"?)",
                    snippet_limit(v, 40)
                ),
                None => format!("{} is not a type name (use \"string\", \"integer\", \"number\", \"boolean\", \"object\", \"array\" or \"null\")", snippet_limit(v, 40)),
            }
        };
        match value {
            Value::String(name) => match TypeSet::from_name(name) {
                Some(t) => Some(t),
                None => {
                    self.invalid(path, "type", bad(value));
                    None
                }
            },
            Value::Array(names) => {
                let mut set = TypeSet::default();
                let mut ok = true;
                for (i, v) in names.iter().enumerate() {
                    match v.as_str().and_then(TypeSet::from_name) {
                        Some(t) if set.union(t) == set => {
                            self.invalid(
                                &format!("{path}/{i}"),
                                "type",
                                format!("type {v} is listed twice"),
                            );
                            ok = false;
                        }
                        Some(t) => set = set.union(t),
                        None => {
                            self.invalid(&format!("{path}/{i}"), "type", bad(v));
                            ok = false;
                        }
                    }
                }
                ok.then_some(set)
            }
            other => {
                let message = format!(
                    "\"type\" must be a type name or an array of them, found {}",
                    describe(other)
                );
                self.invalid(path, "type", message);
                None
            }
        }
    }

    fn number(&mut self, value: &Value, path: &str, keyword: &str) -> Option<Number> {
        match value {
            Value::Number(n) => Some(n.clone()),
            other => {
                self.invalid(
                    path,
                    keyword,
                    format!("\"{keyword}\" must be a number, found {}", describe(other)),
                );
                None
            }
        }
    }

    fn count(&mut self, value: &Value, path: &str, keyword: &str) -> Option<u64> {
        let n = as_count(value);
        if n.is_none() {
            let message = format!(
                "\"{keyword}\" must be a non-negative integer, found {}",
                describe(value)
            );
            self.invalid(path, keyword, message);
        }
        n
    }

    fn object(
        &mut self,
        value: &'s Value,
        path: &str,
        keyword: &str,
    ) -> Option<&'s Map<String, Value>> {
        match value {
            Value::Object(map) => Some(map),
            other => {
                self.invalid(
                    path,
                    keyword,
                    format!("\"{keyword}\" must be an object, found {}", describe(other)),
                );
                None
            }
        }
    }

    /// An array of distinct strings (`required`, `dependentRequired` members).
    fn names(&mut self, value: &Value, path: &str, keyword: &str) -> Vec<String> {
        let Value::Array(items) = value else {
            let message = format!(
                "\"{keyword}\" must be an array of property names, found {}",
                describe(value)
            );
            self.invalid(path, keyword, message);
            return Vec::new();
        };
        let mut names: Vec<String> = Vec::with_capacity(items.len());
        // A set, not a search of `names`: schemas with thousands of required
        // names must compile in time proportional to their length.
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        for (i, item) in items.iter().enumerate() {
            match item {
                Value::String(s) if !seen.insert(s) => {
                    let message = format!("property name {} is listed twice", json_string(s));
                    self.invalid(&format!("{path}/{i}"), keyword, message);
                }
                Value::String(s) => names.push(s.clone()),
                other => {
                    let message = format!(
                        "expected a property name (a string), found {}",
                        describe(other)
                    );
                    self.invalid(&format!("{path}/{i}"), keyword, message);
                }
            }
        }
        names
    }

    fn schema_list(
        &mut self,
        value: &'s Value,
        path: &str,
        depth: usize,
        keyword: &str,
    ) -> Vec<NodeId> {
        match value {
            Value::Array(items) if !items.is_empty() => items
                .iter()
                .enumerate()
                .map(|(i, v)| self.node(v, format!("{path}/{i}"), depth, keyword))
                .collect(),
            other => {
                let message = format!(
                    "\"{keyword}\" must be a non-empty array of schemas, found {}",
                    describe(other)
                );
                self.invalid(path, keyword, message);
                Vec::new()
            }
        }
    }

    fn pattern(&mut self, value: &Value, path: &str, keyword: &str) -> Option<Pattern> {
        match value {
            Value::String(source) => self.regex(source, path, keyword),
            other => {
                self.invalid(
                    path,
                    keyword,
                    format!("\"{keyword}\" must be a string, found {}", describe(other)),
                );
                None
            }
        }
    }

    fn regex(&mut self, source: &str, path: &str, keyword: &str) -> Option<Pattern> {
        match regex_lite::Regex::new(source) {
            Ok(regex) => Some(Pattern {
                source: source.to_owned(),
                regex,
            }),
            Err(e) => {
                let quoted = json_string(source);
                if let Some(feature) = unsupported_regex_feature(source) {
                    // Valid ECMA-262, but beyond regex-lite: a gap in this
                    // crate, not a mistake in the schema.
                    let message = format!(
                        "{keyword} {quoted} uses {feature}, which tool-schema's regex engine (regex-lite) does not support"
                    );
                    self.error(
                        path,
                        CompileErrorKind::UnsupportedKeyword(keyword.to_owned()),
                        message,
                    );
                } else {
                    self.invalid(
                        path,
                        keyword,
                        format!("{keyword} {quoted} is not a valid regular expression: {e}"),
                    );
                }
                None
            }
        }
    }

    /// Checks a `$ref` and queues its target. Only same-document JSON
    /// pointers are resolvable: anything else would need fetching or `$id`
    /// bookkeeping, which this crate leaves out.
    fn reference(&mut self, from: NodeId, value: &Value, path: &str) {
        let Value::String(r) = value else {
            self.invalid(
                path,
                "$ref",
                format!("\"$ref\" must be a string, found {}", describe(value)),
            );
            return;
        };
        let quoted = json_string(r);
        let Some(fragment) = r.strip_prefix('#') else {
            let message = format!(
                "$ref {quoted} is not local; only references within this schema (\"#\", \"#/$defs/name\") are supported, not remote or $id-based ones"
            );
            self.unresolvable(path, r, message);
            return;
        };
        let Some(decoded) = pointer::percent_decode(fragment) else {
            self.unresolvable(path, r, format!("$ref {quoted} has a malformed %-escape"));
            return;
        };
        if !decoded.is_empty() && !decoded.starts_with('/') {
            let message = format!(
                "$ref {quoted} names an anchor, which is not supported; use a JSON pointer such as \"#/$defs/name\""
            );
            self.unresolvable(path, r, message);
            return;
        }
        let Some(tokens) = pointer::parse(&decoded) else {
            self.unresolvable(
                path,
                r,
                format!("$ref {quoted} is not a well-formed JSON pointer"),
            );
            return;
        };
        if pointer::resolve(self.root, &tokens).is_none() {
            self.unresolvable(
                path,
                r,
                format!("$ref {quoted} does not point at anything in this schema"),
            );
            return;
        }
        self.pending_refs.push((from, tokens));
    }

    /// `"#/a" → "#/b" → "#/a"`; a long cycle shows its first and last
    /// steps and says how many are left out, so that a schema with many
    /// long cycles gets messages of bounded length.
    fn cycle_path(&self, nodes: &[NodeId]) -> String {
        const HEAD: usize = 3;
        const TAIL: usize = 2;
        let quoted = |n: &NodeId| format!("\"#{}\"", self.paths[*n]);
        if nodes.len() <= HEAD + TAIL + 1 {
            return nodes.iter().map(quoted).collect::<Vec<_>>().join(" → ");
        }
        let left_out = nodes.len() - HEAD - TAIL;
        let mut parts: Vec<String> = nodes[..HEAD].iter().map(quoted).collect();
        parts.push(format!("… ({left_out} more) …"));
        parts.extend(nodes[nodes.len() - TAIL..].iter().map(quoted));
        parts.join(" → ")
    }

    /// Rejects schemas that would apply themselves to the same value forever
    /// (e.g. `{"$ref": "#"}`), which would otherwise overflow the stack at
    /// validation time.
    fn check_cycles(&mut self) {
        let children: Vec<Vec<NodeId>> = self
            .nodes
            .iter()
            .map(|n| match n {
                Node::Schema(k) => k.in_place_children(),
                Node::Bool(_) => Vec::new(),
            })
            .collect();
        // 0 = unvisited, 1 = on the current path, 2 = done.
        let mut state = vec![0u8; children.len()];
        // Where each node on the current path is in `stack`, so that a
        // cycle is found without searching the path (which may be long).
        let mut depth_of = vec![0usize; children.len()];
        for start in 0..children.len() {
            if state[start] != 0 {
                continue;
            }
            let mut stack: Vec<(NodeId, usize)> = vec![(start, 0)];
            state[start] = 1;
            while let Some(top) = stack.last_mut() {
                let (node, next) = *top;
                let Some(&child) = children[node].get(next) else {
                    state[node] = 2;
                    stack.pop();
                    continue;
                };
                top.1 += 1;
                match state[child] {
                    0 => {
                        state[child] = 1;
                        depth_of[child] = stack.len();
                        stack.push((child, 0));
                    }
                    1 => {
                        let on_cycle: Vec<NodeId> = stack[depth_of[child]..]
                            .iter()
                            .map(|(n, _)| *n)
                            .chain([child])
                            .collect();
                        let message = format!(
                            "infinite recursion: {} applies a schema to the same value again without descending into a property or item",
                            self.cycle_path(&on_cycle)
                        );
                        let path = self.paths[node].clone();
                        self.invalid(&path, "$ref", message);
                    }
                    _ => {}
                }
            }
        }
    }
}

/// Names the ECMA-262 regex feature regex-lite lacks that `source` uses, if
/// any: Unicode property classes, lookaround, backreferences.
fn unsupported_regex_feature(source: &str) -> Option<&'static str> {
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('p' | 'P') => return Some("Unicode property classes (\\p{…})"),
                Some('1'..='9' | 'k') => return Some("backreferences"),
                _ => {}
            },
            '(' if chars.peek() == Some(&'?') => {
                let rest: String = chars.clone().take(4).collect();
                if ["?=", "?!", "?<=", "?<!"]
                    .iter()
                    .any(|p| rest.starts_with(p))
                {
                    return Some("lookaround assertions");
                }
            }
            _ => {}
        }
    }
    None
}
