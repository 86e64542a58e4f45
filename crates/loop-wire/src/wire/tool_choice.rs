//! `tool_choice` in each format's request body, both ways: the harness's
//! choice (`auto`, `any`, `none`, a named tool) in the provider's words,
//! and read back from a body (a mock provider's request, an import, a
//! pasted body), so a round trip keeps it.
//!
//! | choice | Anthropic Messages | OpenAI Chat Completions | OpenAI Responses |
//! |---|---|---|---|
//! | auto | `{"type": "auto"}` | `"auto"` | `"auto"` |
//! | any | `{"type": "any"}` | `"required"` | `"required"` |
//! | none | `{"type": "none"}` | `"none"` | `"none"` |
//! | tool | `{"type": "tool", "name": n}` | `{"type": "function", "function": {"name": n}}` | `{"type": "function", "name": n}` |
//!
//! Each row is backed by [`SOURCES`]. The field is left out for `auto`, as
//! the encoders leave out every other setting at its documented default
//! (an empty `system`, no `tools`): all three APIs default to `auto` when
//! tools are sent. It is also left out when no tool is sent: every API then
//! defaults to `none`, and OpenAI refuses a `tool_choice` without `tools`.
//! Read back, a choice this harness has no word for (OpenAI's
//! `allowed_tools`, a hosted tool, a malformed value) reads as `auto`.

use serde_json::{json, Value};

use super::{str_at, Provider};
use crate::tool_choice::ToolChoice;

/// Where each encoding above is documented, in the provider's own words.
pub const SOURCES: &[(Provider, &str, &str)] = &[
    (
        Provider::Anthropic,
        "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#forcing-tool-use",
        "`auto` allows Claude to decide whether to call any provided tools or not. This is the default value when `tools` are provided. `any` tells Claude that it must use one of the provided tools, but doesn't force a particular tool. `tool` allows us to force Claude to always use a particular tool. `none` prevents Claude from using any tools. This is the default value when no `tools` are provided.",
    ),
    (
        Provider::OpenaiChat,
        "https://platform.openai.com/docs/api-reference/chat/create",
        "`none` means the model will not call any tool and instead generates a message. `auto` means the model can pick between generating a message or calling one or more tools. `required` means the model must call one or more tools. Specifying a particular tool via `{\"type\": \"function\", \"function\": {\"name\": \"my_function\"}}` forces the model to call that tool. `none` is the default when no tools are present. `auto` is the default if tools are present.",
    ),
    (
        Provider::OpenaiResponses,
        "https://platform.openai.com/docs/api-reference/responses/create",
        "`none` means the model will not call any tool and instead generates a message. `auto` means the model can pick between generating a message or calling one or more tools. `required` means the model must call one or more tools.",
    ),
    (
        Provider::OpenaiResponses,
        "https://platform.openai.com/docs/guides/function-calling",
        "Forced Function: Call exactly one specific function. tool_choice: {\"type\": \"function\", \"name\": \"get_weather\"}",
    ),
];

/// The body's `tool_choice` for `choice`, or `None` when it is left out
/// (see the module docs): `auto`, or no tools sent.
pub(crate) fn encode(provider: Provider, choice: &ToolChoice, has_tools: bool) -> Option<Value> {
    if !has_tools || choice.is_auto() {
        return None;
    }
    Some(match (provider, choice) {
        (Provider::Anthropic, ToolChoice::Tool(name)) => json!({"type": "tool", "name": name}),
        (Provider::Anthropic, other) => json!({"type": word(other, "any")}),
        (Provider::OpenaiChat, ToolChoice::Tool(name)) => {
            json!({"type": "function", "function": {"name": name}})
        }
        (Provider::OpenaiResponses, ToolChoice::Tool(name)) => {
            json!({"type": "function", "name": name})
        }
        (Provider::OpenaiChat | Provider::OpenaiResponses, other) => {
            json!(word(other, "required"))
        }
    })
}

/// The word for a choice that is not a named tool; `any` is `any_word`.
fn word(choice: &ToolChoice, any_word: &'static str) -> &'static str {
    match choice {
        ToolChoice::Any => any_word,
        ToolChoice::None => "none",
        ToolChoice::Auto | ToolChoice::Tool(_) => "auto",
    }
}

/// The choice a request body makes (`auto` when it has none).
pub(crate) fn decode(provider: Provider, body: &Value) -> ToolChoice {
    let Some(choice) = body.get("tool_choice") else {
        return ToolChoice::Auto;
    };
    let named = |name: Option<&str>| name.map(|n| ToolChoice::Tool(n.to_string()));
    let decoded = match provider {
        Provider::Anthropic => match str_at(choice, "type") {
            Some("any") => Some(ToolChoice::Any),
            Some("none") => Some(ToolChoice::None),
            Some("tool") => named(str_at(choice, "name")),
            _ => None,
        },
        Provider::OpenaiChat | Provider::OpenaiResponses => match choice {
            Value::String(word) if word == "required" => Some(ToolChoice::Any),
            Value::String(word) if word == "none" => Some(ToolChoice::None),
            Value::Object(_) if str_at(choice, "type") == Some("function") => {
                let name = match provider {
                    Provider::OpenaiChat => choice.get("function").and_then(|f| str_at(f, "name")),
                    _ => str_at(choice, "name"),
                };
                named(name)
            }
            _ => None,
        },
    };
    decoded.unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_reads_back_as_written_in_every_format() {
        let choices = [
            ToolChoice::Any,
            ToolChoice::None,
            ToolChoice::Tool("get_time".into()),
        ];
        for provider in Provider::ALL {
            for choice in &choices {
                let value = encode(provider, choice, true).expect("sent");
                let body = json!({ "tool_choice": value });
                assert_eq!(&decode(provider, &body), choice, "{provider:?}");
            }
            assert_eq!(encode(provider, &ToolChoice::Auto, true), None);
            assert_eq!(encode(provider, &ToolChoice::Any, false), None);
            assert_eq!(decode(provider, &json!({})), ToolChoice::Auto);
        }
    }

    #[test]
    fn a_choice_the_harness_has_no_word_for_reads_as_auto() {
        let allowed =
            json!({"tool_choice": {"type": "allowed_tools", "mode": "auto", "tools": []}});
        assert_eq!(
            decode(Provider::OpenaiResponses, &allowed),
            ToolChoice::Auto
        );
        let nameless = json!({"tool_choice": {"type": "tool"}});
        assert_eq!(decode(Provider::Anthropic, &nameless), ToolChoice::Auto);
    }
}
