//! The conversation as the harness keeps it: provider-neutral messages made of
//! content blocks. Wire formats (Anthropic, OpenAI) are translations of this.
//!
//! Invariant: assistant content is stored exactly as the model produced it,
//! thinking blocks included, so it can be sent back unchanged.

mod media;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use media::{base64_bytes, split_data_url, Media};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    User,
    Assistant,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub content: Vec<ContentBlock>,
}

impl Message {
    pub fn user_text(text: impl Into<String>) -> Self {
        Message {
            role: Role::User,
            content: vec![ContentBlock::Text { text: text.into() }],
        }
    }

    /// Characters that count towards the input-token estimate.
    pub fn char_len(&self) -> usize {
        self.content.iter().map(ContentBlock::char_len).sum()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentBlock {
    Text {
        text: String,
    },
    Thinking {
        thinking: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        signature: Option<String>,
    },
    ToolUse(ToolCall),
    ToolResult(ToolResult),
}

impl ContentBlock {
    /// Characters that count towards a token estimate.
    pub fn char_len(&self) -> usize {
        match self {
            ContentBlock::Text { text } => text.len(),
            ContentBlock::Thinking { thinking, .. } => thinking.len(),
            ContentBlock::ToolUse(call) => {
                call.name.len()
                    + call
                        .input_raw
                        .as_ref()
                        .map_or_else(|| json_len(&call.input), String::len)
            }
            ContentBlock::ToolResult(result) => result.content.len(),
        }
    }
}

fn json_len(value: &Value) -> usize {
    serde_json::to_string(value).map_or(0, |s| s.len())
}

/// A tool call as the model asked for it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// The parsed arguments; `null` when the model's argument text was not JSON.
    pub input: Value,
    /// The argument text exactly as the model sent it, kept only when it did not
    /// parse as JSON, so the error can point into it and the wire can echo it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_raw: Option<String>,
}

impl ToolCall {
    /// Builds a call from argument text as a provider sends it (OpenAI sends a
    /// JSON string). Text that does not parse is kept raw, never dropped.
    pub fn from_raw_arguments(id: String, name: String, raw: &str) -> Self {
        match serde_json::from_str::<Value>(raw) {
            Ok(input) => ToolCall {
                id,
                name,
                input,
                input_raw: None,
            },
            Err(_) => ToolCall {
                id,
                name,
                input: Value::Null,
                input_raw: Some(raw.to_string()),
            },
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    pub tool_use_id: String,
    /// The result as text; a line in it names each part of `media`.
    pub content: String,
    #[serde(default)]
    pub is_error: bool,
    /// Images, audio and binary resources an MCP tool returned, sent as each
    /// wire format allows. Not counted in the input-token estimate, whose
    /// size a part's bytes do not tell (an image costs by its pixels).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub media: Vec<Media>,
}

/// The text of an assistant turn: its text blocks joined by newlines.
pub fn text_of(content: &[ContentBlock]) -> String {
    let mut out = String::new();
    for block in content {
        if let ContentBlock::Text { text } = block {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(text);
        }
    }
    out
}

pub fn tool_calls_of(content: &[ContentBlock]) -> impl Iterator<Item = &ToolCall> {
    content.iter().filter_map(|block| match block {
        ContentBlock::ToolUse(call) => Some(call),
        _ => None,
    })
}

/// The user message that carries a turn's tool results, as the harness sends
/// it; `mode` other than `Correct` reproduces a harness bug on purpose.
pub fn results_message(results: Vec<ContentBlock>, mode: crate::limits::ResultsMode) -> Message {
    let mut message = Message {
        role: Role::User,
        content: results,
    };
    apply_results_mode(&mut message, mode);
    message
}

/// Rewrites a results message the way `mode` says (see `ResultsMode`).
pub fn apply_results_mode(message: &mut Message, mode: crate::limits::ResultsMode) {
    use crate::limits::ResultsMode;
    match mode {
        ResultsMode::Correct => {}
        ResultsMode::TextFirst => message.content.insert(
            0,
            ContentBlock::Text {
                text: "Here are the tool results:".to_string(),
            },
        ),
        ResultsMode::InventedIds => {
            let results = message.content.iter_mut().filter_map(|block| match block {
                ContentBlock::ToolResult(result) => Some(result),
                _ => None,
            });
            for (i, result) in results.enumerate() {
                result.tool_use_id = sent_result_id(mode, i, &result.tool_use_id);
            }
        }
    }
}

/// The id a turn's `index`-th tool result goes out under, answering the call
/// `call_id`: the call's own id, unless `mode` reproduces the harness bug of
/// made-up ids (`call_0`, `call_1`, ...). The trace records this id, so it
/// shows what was sent, not what should have been.
pub fn sent_result_id(mode: crate::limits::ResultsMode, index: usize, call_id: &str) -> String {
    match mode {
        crate::limits::ResultsMode::InventedIds => format!("call_{index}"),
        _ => call_id.to_string(),
    }
}
