//! `Deserialize` for the scenario's two enums, written out so that serde
//! reads them in one pass.
//!
//! Derived, `ToolEntry` is untagged and `ModelConfig` internally tagged
//! (`"type"`), and serde reads both by first copying the value into its own
//! buffer (`Content`) and then reading the copy again, with a second copy of
//! every nested type's reading code (every scripted response, call and
//! inline tool) compiled for that buffer. That was the largest single piece
//! of the web page's engine after the loader's problem reader.
//! These read the same files into the same values and refuse the same ones.

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use super::{InlineTool, ModelConfig, ToolEntry};
use crate::scripted::ScriptedResponse;

/// A field that was written (even as `null`) or not: `Option` cannot tell
/// `"loop_from": null` from no `loop_from`, and a rules model refuses both
/// fields whatever they hold.
#[derive(Default)]
enum Given<T> {
    #[default]
    No,
    Yes(T),
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Given<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(deserializer).map(Given::Yes)
    }
}

impl<'de> Deserialize<'de> for ModelConfig {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename_all = "snake_case")]
        enum Kind {
            Scripted,
            Rules,
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Fields {
            #[serde(rename = "type")]
            kind: Kind,
            #[serde(default)]
            responses: Given<Vec<ScriptedResponse>>,
            #[serde(default)]
            loop_from: Given<Option<usize>>,
        }
        let fields = Fields::deserialize(deserializer)?;
        match fields.kind {
            Kind::Scripted => match fields.responses {
                Given::Yes(responses) => Ok(ModelConfig::Scripted {
                    responses,
                    loop_from: match fields.loop_from {
                        Given::Yes(loop_from) => loop_from,
                        Given::No => None,
                    },
                }),
                Given::No => Err(de::Error::missing_field("responses")),
            },
            Kind::Rules => {
                if let Given::Yes(_) = fields.responses {
                    return Err(de::Error::unknown_field("responses", &["type"]));
                }
                if let Given::Yes(_) = fields.loop_from {
                    return Err(de::Error::unknown_field("loop_from", &["type"]));
                }
                Ok(ModelConfig::Rules {})
            }
        }
    }
}

impl<'de> Deserialize<'de> for ToolEntry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(EntryVisitor)
    }
}

/// A built-in's name (a string) or an inline tool (an object; serde also
/// reads a struct from an array of its fields, as the derived untagged enum
/// did).
struct EntryVisitor;

impl<'de> Visitor<'de> for EntryVisitor {
    type Value = ToolEntry;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a built-in tool's name or an inline tool")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<ToolEntry, E> {
        Ok(ToolEntry::Builtin(name.to_string()))
    }

    fn visit_string<E: de::Error>(self, name: String) -> Result<ToolEntry, E> {
        Ok(ToolEntry::Builtin(name))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ToolEntry, A::Error> {
        InlineTool::deserialize(de::value::MapAccessDeserializer::new(map))
            .map(|tool| ToolEntry::Inline(Box::new(tool)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<ToolEntry, A::Error> {
        InlineTool::deserialize(de::value::SeqAccessDeserializer::new(seq))
            .map(|tool| ToolEntry::Inline(Box::new(tool)))
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::{json, Value};

    use super::super::{InlineTool, ModelConfig, ToolEntry};
    use crate::scripted::ScriptedResponse;

    /// The derived readers these replace, to compare with.
    #[derive(Deserialize)]
    #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
    enum DerivedModel {
        Scripted {
            responses: Vec<ScriptedResponse>,
            #[serde(default)]
            loop_from: Option<usize>,
        },
        Rules {},
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum DerivedEntry {
        Builtin(String),
        Inline(Box<InlineTool>),
    }

    fn derived_model(value: &Value) -> Option<ModelConfig> {
        Some(match DerivedModel::deserialize(value).ok()? {
            DerivedModel::Scripted {
                responses,
                loop_from,
            } => ModelConfig::Scripted {
                responses,
                loop_from,
            },
            DerivedModel::Rules {} => ModelConfig::Rules {},
        })
    }

    fn derived_entry(value: &Value) -> Option<ToolEntry> {
        Some(match DerivedEntry::deserialize(value).ok()? {
            DerivedEntry::Builtin(name) => ToolEntry::Builtin(name),
            DerivedEntry::Inline(tool) => ToolEntry::Inline(tool),
        })
    }

    /// Each case read from a `Value` and from its text gives what the
    /// derived reader gives (`None` for a refusal).
    fn agree<T>(cases: &[Value], derived: fn(&Value) -> Option<T>)
    where
        T: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        for case in cases {
            assert_eq!(T::deserialize(case).ok(), derived(case), "{case}");
            let text = case.to_string();
            assert_eq!(
                serde_json::from_str::<T>(&text).ok(),
                derived(case),
                "{text} from text"
            );
        }
    }

    #[test]
    fn the_model_reads_and_refuses_what_the_derived_tagged_enum_did() {
        let response = json!({"text": "hi", "tool_calls": [{"name": "get_time", "args": {}}]});
        let cases = [
            json!({"type": "scripted", "responses": [response]}),
            json!({"responses": [response], "loop_from": 0, "type": "scripted"}),
            json!({"type": "scripted", "responses": [], "loop_from": null}),
            json!({"type": "scripted", "responses": [], "loop_from": -1}),
            json!({"type": "scripted", "responses": null}),
            json!({"type": "scripted"}),
            json!({"type": "scripted", "responses": [], "extra": 1}),
            json!({"type": "scripted", "responses": [{"text": 5}]}),
            json!({"type": "rules"}),
            json!({"type": "rules", "responses": []}),
            json!({"type": "rules", "loop_from": null}),
            json!({"type": "rules", "x": 1}),
            json!({"type": "other"}),
            json!({"type": 1}),
            json!({}),
            json!([]),
            json!("scripted"),
            json!(null),
        ];
        agree(&cases, derived_model);
    }

    #[test]
    fn a_tool_entry_reads_and_refuses_what_the_derived_untagged_enum_did() {
        let cases = [
            json!("get_time"),
            json!(""),
            json!({"name": "t"}),
            json!({"name": "t", "description": "d", "input_schema": {"type": "object"}, "result": {"ok": true}}),
            json!({"name": "t", "js": "return 1;", "delay_ms": 5, "needs_approval": true}),
            json!({"name": "t", "unknown": 1}),
            json!({"description": "no name"}),
            json!({"name": 5}),
            json!(["t"]),
            json!(5),
            json!(null),
            json!(true),
        ];
        agree(&cases, derived_entry);
    }
}
