//! `tool_choice`: whether the model may, must, or must not call a tool.
//!
//! A scenario sets it once (top-level `tool_choice`); every model request
//! carries it, as the providers' requests do, so a model can honour it: the
//! rules model does (`rules.rs`), a provider is sent it in its own words
//! (`loop-wire`), and a scripted turn that breaks it is noted
//! (`scenario::notes`). In a file it is `"auto"` (the default: the model
//! decides), `"any"` (some tool must be called), `"none"` (no tool may be
//! called) or `{"tool": "<name>"}` (that tool must be called).
//!
//! It holds for every request of the run, as the providers apply it: under
//! `"any"` or a named tool the model never answers in words, so the loop
//! ends only when the harness stops it (a limit, the repeated-call check).

use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ToolChoice {
    /// The model decides whether to call a tool.
    #[default]
    Auto,
    /// The model must call one of the tools.
    Any,
    /// The model must not call a tool.
    None,
    /// The model must call this tool.
    Tool(String),
}

impl ToolChoice {
    pub fn is_auto(&self) -> bool {
        *self == ToolChoice::Auto
    }

    /// Why a turn that called the tools `called` (by name, in order) breaks
    /// this choice, or `None` when it honours it.
    pub fn broken_by(&self, called: &[&str]) -> Option<String> {
        match self {
            ToolChoice::Auto => None,
            ToolChoice::Any if called.is_empty() => {
                Some("calls no tool, but tool_choice \"any\" requires one".to_string())
            }
            ToolChoice::Any => None,
            ToolChoice::None if !called.is_empty() => Some(format!(
                "calls {}, but tool_choice \"none\" forbids tool calls",
                called.join(" and ")
            )),
            ToolChoice::None => None,
            ToolChoice::Tool(name) => {
                let others: Vec<&str> = called.iter().copied().filter(|c| c != name).collect();
                if called.is_empty() {
                    Some(format!(
                        "calls no tool, but tool_choice requires a call of {name}"
                    ))
                } else if !others.is_empty() {
                    Some(format!(
                        "calls {}, but tool_choice allows only {name}",
                        others.join(" and ")
                    ))
                } else {
                    None
                }
            }
        }
    }
}

/// As written in a scenario file: `"any"`, `{"tool": "get_time"}`.
impl fmt::Display for ToolChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolChoice::Auto => f.write_str("\"auto\""),
            ToolChoice::Any => f.write_str("\"any\""),
            ToolChoice::None => f.write_str("\"none\""),
            ToolChoice::Tool(name) => write!(f, "{{\"tool\": {name:?}}}"),
        }
    }
}

impl Serialize for ToolChoice {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ToolChoice::Auto => serializer.serialize_str("auto"),
            ToolChoice::Any => serializer.serialize_str("any"),
            ToolChoice::None => serializer.serialize_str("none"),
            ToolChoice::Tool(name) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("tool", name)?;
                map.end()
            }
        }
    }
}

/// Read by hand rather than as an untagged enum: serde's untagged enums
/// buffer the input, which costs the web bundle more than this visitor.
/// The published schema words a wrong value; this only has to refuse it.
impl<'de> Deserialize<'de> for ToolChoice {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Choice;
        impl<'de> Visitor<'de> for Choice {
            type Value = ToolChoice;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("\"auto\", \"any\", \"none\" or {\"tool\": \"<name>\"}")
            }

            fn visit_str<E: de::Error>(self, word: &str) -> Result<ToolChoice, E> {
                match word {
                    "auto" => Ok(ToolChoice::Auto),
                    "any" => Ok(ToolChoice::Any),
                    "none" => Ok(ToolChoice::None),
                    other => Err(E::unknown_variant(other, &["auto", "any", "none"])),
                }
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ToolChoice, A::Error> {
                let mut tool = None;
                while let Some(key) = map.next_key::<String>()? {
                    if key != "tool" || tool.is_some() {
                        return Err(de::Error::unknown_field(&key, &["tool"]));
                    }
                    tool = Some(map.next_value::<String>()?);
                }
                tool.map(ToolChoice::Tool)
                    .ok_or_else(|| de::Error::missing_field("tool"))
            }
        }
        deserializer.deserialize_any(Choice)
    }
}

#[cfg(test)]
mod tests {
    use super::ToolChoice;
    use serde_json::json;

    #[test]
    fn reads_and_writes_the_four_shapes() {
        for (written, choice) in [
            (json!("auto"), ToolChoice::Auto),
            (json!("any"), ToolChoice::Any),
            (json!("none"), ToolChoice::None),
            (
                json!({"tool": "get_time"}),
                ToolChoice::Tool("get_time".into()),
            ),
        ] {
            assert_eq!(
                serde_json::from_value::<ToolChoice>(written.clone()).unwrap(),
                choice
            );
            assert_eq!(serde_json::to_value(&choice).unwrap(), written);
        }
        for wrong in [json!("required"), json!({"name": "x"}), json!({}), json!(3)] {
            assert!(serde_json::from_value::<ToolChoice>(wrong).is_err());
        }
    }

    #[test]
    fn a_turn_that_breaks_the_choice_is_told_why() {
        assert_eq!(ToolChoice::Auto.broken_by(&[]), None);
        assert_eq!(ToolChoice::Any.broken_by(&["a"]), None);
        assert!(ToolChoice::Any.broken_by(&[]).is_some());
        assert!(ToolChoice::None.broken_by(&["a"]).is_some());
        let named = ToolChoice::Tool("a".into());
        assert_eq!(named.broken_by(&["a"]), None);
        assert!(named.broken_by(&[]).is_some());
        assert_eq!(
            named.broken_by(&["a", "b"]).as_deref(),
            Some("calls b, but tool_choice allows only a")
        );
    }
}
