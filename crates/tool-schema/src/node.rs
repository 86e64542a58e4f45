//! The compiled form of a schema: a flat arena of nodes that refer to each
//! other by index. Indices (not boxes or `Rc`s) let `$ref` cycles exist
//! without reference-counting loops, and keep the structure `Clone`.

use std::sync::Arc;

use regex_lite::Regex;
use serde_json::{Number, Value};

use crate::error::join_or;
use crate::format::Format;
use crate::number::is_integer;
use crate::value_key::ValueSet;

/// Index of a node in [`Compiled::nodes`](crate::Compiled).
pub(crate) type NodeId = usize;

/// The set of JSON types a `type` keyword allows, as bit flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TypeSet(u8);

impl TypeSet {
    pub(crate) const OBJECT: TypeSet = TypeSet(1);
    pub(crate) const ARRAY: TypeSet = TypeSet(2);
    pub(crate) const STRING: TypeSet = TypeSet(4);
    pub(crate) const INTEGER: TypeSet = TypeSet(8);
    pub(crate) const NUMBER: TypeSet = TypeSet(16);
    pub(crate) const BOOLEAN: TypeSet = TypeSet(32);
    pub(crate) const NULL: TypeSet = TypeSet(64);

    /// Names in message order, with the phrase each is shown as.
    const NAMES: [(TypeSet, &'static str, &'static str); 7] = [
        (TypeSet::STRING, "string", "a string"),
        (TypeSet::INTEGER, "integer", "an integer"),
        (TypeSet::NUMBER, "number", "a number"),
        (TypeSet::BOOLEAN, "boolean", "a boolean"),
        (TypeSet::OBJECT, "object", "an object"),
        (TypeSet::ARRAY, "array", "an array"),
        (TypeSet::NULL, "null", "null"),
    ];

    pub(crate) fn from_name(name: &str) -> Option<TypeSet> {
        TypeSet::NAMES
            .iter()
            .find(|(_, n, _)| *n == name)
            .map(|(t, _, _)| *t)
    }

    /// The type names `"type"` accepts, for suggestions.
    pub(crate) fn names() -> impl Iterator<Item = &'static str> {
        TypeSet::NAMES.iter().map(|(_, name, _)| *name)
    }

    pub(crate) fn union(self, other: TypeSet) -> TypeSet {
        TypeSet(self.0 | other.0)
    }

    pub(crate) fn has(self, t: TypeSet) -> bool {
        self.0 & t.0 != 0
    }

    pub(crate) fn matches(self, v: &Value) -> bool {
        match v {
            Value::Null => self.has(TypeSet::NULL),
            Value::Bool(_) => self.has(TypeSet::BOOLEAN),
            Value::String(_) => self.has(TypeSet::STRING),
            Value::Array(_) => self.has(TypeSet::ARRAY),
            Value::Object(_) => self.has(TypeSet::OBJECT),
            Value::Number(n) => {
                self.has(TypeSet::NUMBER) || (self.has(TypeSet::INTEGER) && is_integer(n))
            }
        }
    }

    /// "a string or an object". "integer" is left out when "number" is
    /// present: it adds nothing a reader needs.
    pub(crate) fn phrase(self) -> String {
        let phrases: Vec<String> = TypeSet::NAMES
            .iter()
            .filter(|(t, _, _)| self.has(*t))
            .filter(|(t, _, _)| !(*t == TypeSet::INTEGER && self.has(TypeSet::NUMBER)))
            .map(|(_, _, p)| (*p).to_owned())
            .collect();
        if phrases.is_empty() {
            "no type at all (\"type\" is an empty list)".to_owned()
        } else {
            join_or(&phrases)
        }
    }
}

/// A regex with the source it was compiled from, for messages.
#[derive(Clone, Debug)]
pub(crate) struct Pattern {
    pub source: String,
    pub regex: Regex,
}

#[derive(Clone, Debug)]
pub(crate) enum Node {
    Bool(bool),
    Schema(Box<Keywords>),
}

/// Every supported keyword of one schema object, already checked and
/// converted. Absent keywords are `None`/empty and cost nothing to validate.
#[derive(Clone, Debug, Default)]
pub(crate) struct Keywords {
    pub types: Option<TypeSet>,
    pub constant: Option<Value>,
    pub enumeration: Option<ValueSet>,

    pub minimum: Option<Number>,
    pub maximum: Option<Number>,
    pub exclusive_minimum: Option<Number>,
    pub exclusive_maximum: Option<Number>,
    pub multiple_of: Option<Number>,

    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<Pattern>,
    pub format: Option<Format>,

    pub required: Vec<String>,
    pub dependent_required: Vec<(String, Vec<String>)>,
    pub min_properties: Option<u64>,
    pub max_properties: Option<u64>,
    /// Sorted by name, for binary search.
    pub properties: Vec<(String, NodeId)>,
    /// The names in `properties`, in the same order, shared with every
    /// "unexpected property" error that lists them.
    pub declared_names: Arc<[String]>,
    pub pattern_properties: Vec<(Pattern, NodeId)>,
    pub additional_properties: Option<NodeId>,
    pub property_names: Option<NodeId>,
    pub dependent_schemas: Vec<(String, NodeId)>,

    pub prefix_items: Vec<NodeId>,
    pub items: Option<NodeId>,
    pub contains: Option<NodeId>,
    pub min_contains: Option<u64>,
    pub max_contains: Option<u64>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub unique_items: bool,

    pub reference: Option<NodeId>,
    pub all_of: Vec<NodeId>,
    pub any_of: Vec<NodeId>,
    pub one_of: Vec<NodeId>,
    /// The subschema, and its JSON text for the failure message.
    pub not: Option<(NodeId, String)>,
    pub if_: Option<NodeId>,
    pub then_: Option<NodeId>,
    pub else_: Option<NodeId>,
}

impl Keywords {
    /// Subschemas applied to the very same instance (not to a child of it).
    /// A cycle through these edges alone would never terminate.
    pub(crate) fn in_place_children(&self) -> Vec<NodeId> {
        let mut out: Vec<NodeId> = Vec::new();
        out.extend(self.reference);
        out.extend(&self.all_of);
        out.extend(&self.any_of);
        out.extend(&self.one_of);
        out.extend(self.not.as_ref().map(|(id, _)| *id));
        if let Some(cond) = self.if_ {
            out.push(cond);
            out.extend(self.then_);
            out.extend(self.else_);
        }
        out.extend(self.dependent_schemas.iter().map(|(_, id)| *id));
        out
    }

    pub(crate) fn property(&self, name: &str) -> Option<NodeId> {
        self.properties
            .binary_search_by(|(n, _)| n.as_str().cmp(name))
            .ok()
            .map(|i| self.properties[i].1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn type_sets_match_and_read_well() {
        let t = TypeSet::STRING.union(TypeSet::OBJECT);
        assert_eq!(t.phrase(), "a string or an object");
        assert!(TypeSet::INTEGER.matches(&json!(1.0)));
        assert!(!TypeSet::INTEGER.matches(&json!(1.5)));
        assert_eq!(TypeSet::INTEGER.union(TypeSet::NUMBER).phrase(), "a number");
        assert_eq!(
            TypeSet::STRING.union(TypeSet::NULL).phrase(),
            "a string or null"
        );
    }
}
