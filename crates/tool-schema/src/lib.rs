//! A lean JSON Schema (draft 2020-12) validator for LLM tool-call arguments.
//!
//! # Why it exists
//!
//! The playground checks every tool call a model makes against the tool's
//! parameter schema, in the browser. The maintained Rust validators are
//! complete but cost 341–509 KB (brotli) of WebAssembly, mostly for features
//! tool schemas never use (remote refs, dynamic scopes, vocabularies). This
//! crate implements the subset tool schemas do use, with only `serde_json`
//! and `regex-lite` as dependencies, and spends its effort on error messages
//! a model (or a person learning tool calling) can act on:
//! `/nights: expected an integer, found a string ("3")`.
//!
//! # What it supports
//!
//! - Assertions: `type`, `enum`, `const`, `minimum`, `maximum`,
//!   `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `minLength`,
//!   `maxLength`, `pattern`, `format`, `required`, `minProperties`,
//!   `maxProperties`, `dependentRequired`, `minItems`, `maxItems`,
//!   `uniqueItems`, `minContains`, `maxContains`.
//! - Applicators: `properties`, `patternProperties`, `additionalProperties`,
//!   `propertyNames`, `dependentSchemas`, `prefixItems`, `items`, `contains`,
//!   `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, and `$ref` to any
//!   JSON pointer in the same document (`#`, `#/$defs/x`, `#/definitions/x`),
//!   recursive refs included. Boolean schemas anywhere.
//! - Formats, asserted by default ([`Options::assert_format`]): `date`,
//!   `date-time`, `time`, `email`, `uuid`, `uri`, `ipv4`, `ipv6`,
//!   `hostname`. Unknown formats are ignored, as the spec says.
//! - Annotations, accepted and ignored: `title`, `description`, `default`,
//!   `examples`, `$schema`, `$comment`, `deprecated`, `readOnly`,
//!   `writeOnly`, `content*`, and `$id` at the root.
//!
//! Everything else — `unevaluated*`, `$dynamicRef`, `$anchor`, nested `$id`,
//! remote refs, and any unknown keyword such as a misspelt `"requried"` — is
//! a [`CompileError`], never silently ignored: a validator that skips a
//! keyword it does not know accepts arguments the tool author meant to
//! reject.
//!
//! Schemas are compiled once (regexes built, refs resolved to indices into a
//! node arena) and then validate any number of instances.
//!
//! ```
//! use serde_json::json;
//! use tool_schema::Schema;
//!
//! let schema = Schema::compile(&json!({
//!     "type": "object",
//!     "properties": {"nights": {"type": "integer", "minimum": 1}},
//!     "required": ["nights"]
//! }))
//! .unwrap();
//! let errors = schema.validate(&json!({"nights": "3"})).unwrap_err();
//! assert_eq!(errors[0].to_string(), "/nights: expected an integer, found a string (\"3\")");
//! ```

mod compile;
mod error;
mod format;
mod node;
mod number;
mod pointer;
pub mod suggest;
mod validate;
mod value_key;
mod vocab;

use std::sync::Arc;

use serde_json::Value;

pub use error::{CompileError, CompileErrorKind, UnexpectedProperty, ValidationError};

use node::Node;
use validate::Validator;

/// Compilation options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Whether `format` is asserted. On by default: a tool that declares
    /// `"format": "date"` wants a date, and 2020-12's annotation-only default
    /// would let `"next Tuesday"` through.
    pub assert_format: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            assert_format: true,
        }
    }
}

/// A compiled schema: immutable, cheap to clone, and reusable for any
/// number of validations.
#[derive(Clone, Debug)]
pub struct Schema {
    nodes: Arc<[Node]>,
}

impl Schema {
    /// Compiles a schema with default [`Options`] (formats asserted).
    ///
    /// Every keyword it does not implement is reported, never silently
    /// ignored: the error list names every problem found (unsupported
    /// keyword, malformed keyword value, invalid regex, unresolvable `$ref`).
    pub fn compile(schema: &Value) -> Result<Schema, Vec<CompileError>> {
        Schema::compile_with(schema, Options::default())
    }

    /// Compiles a schema with explicit [`Options`].
    pub fn compile_with(schema: &Value, options: Options) -> Result<Schema, Vec<CompileError>> {
        let nodes = compile::compile(schema, options.assert_format)?;
        Ok(Schema {
            nodes: nodes.into(),
        })
    }

    /// Checks `instance`, returning every violation (not just the first),
    /// in document order.
    pub fn validate(&self, instance: &Value) -> Result<(), Vec<ValidationError>> {
        let errors = Validator { nodes: &self.nodes }.errors(instance);
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors
                .into_iter()
                .map(|e| ValidationError {
                    allowed: match e.hint {
                        validate::Hint::Values(values) => Some(values),
                        _ => None,
                    },
                    instance_path: e.path,
                    keyword: e.keyword,
                    message: e.message,
                    unexpected: e.unexpected,
                    missing: e.missing,
                })
                .collect())
        }
    }

    /// Whether `instance` is valid; faster than [`Schema::validate`] as it
    /// stops at the first failure and formats no message.
    pub fn is_valid(&self, instance: &Value) -> bool {
        Validator { nodes: &self.nodes }.is_valid(instance)
    }
}
