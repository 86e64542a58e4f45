//! Parts of a tool result that are not text: an image, audio, or a binary
//! resource, as an MCP server sent them (base64 with a MIME type).
//!
//! A tool result keeps its text in `ToolResult::content` (where each part
//! already has a line saying what it is, "[image: image/png, 91 bytes]") and
//! these parts beside it, in the order the server sent them. Each wire format
//! sends what it can carry and, for the rest, tells the model in words what
//! it did not get ([`Media::not_sent`]), so nothing is dropped silently.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Media {
    /// An MCP `image` content block.
    Image { mime_type: String, data: String },
    /// An MCP `audio` content block.
    Audio { mime_type: String, data: String },
    /// An MCP embedded `resource` with a `blob` (a PDF, an image file, …).
    /// An embedded resource with `text` is text and stays in the content.
    Resource {
        uri: String,
        mime_type: String,
        data: String,
    },
}

/// The image types all three providers take in a tool result (Anthropic's
/// list; OpenAI takes the same four).
const IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

impl Media {
    pub fn mime_type(&self) -> &str {
        match self {
            Media::Image { mime_type, .. }
            | Media::Audio { mime_type, .. }
            | Media::Resource { mime_type, .. } => mime_type,
        }
    }

    /// The base64 text.
    pub fn data(&self) -> &str {
        match self {
            Media::Image { data, .. }
            | Media::Audio { data, .. }
            | Media::Resource { data, .. } => data,
        }
    }

    /// Decoded size, from the base64 length (four characters carry three bytes).
    pub fn bytes(&self) -> usize {
        base64_bytes(self.data())
    }

    /// `data:` URL of the part, as OpenAI's `input_image` and the page's `<img>` take it.
    pub fn data_url(&self) -> String {
        format!("data:{};base64,{}", self.mime_type(), self.data())
    }

    /// An image a provider can take as an image: an image block, or a
    /// resource whose type is one of the four image types.
    pub fn is_sendable_image(&self) -> bool {
        !matches!(self, Media::Audio { .. }) && IMAGE_TYPES.contains(&self.mime_type())
    }

    pub fn is_pdf(&self) -> bool {
        matches!(self, Media::Resource { .. }) && self.mime_type() == "application/pdf"
    }

    /// What the part is, in words: "image/png image, 91 bytes",
    /// "resource <file:///r.pdf>, application/pdf, 2048 bytes".
    pub fn describe(&self) -> String {
        let mime = if self.mime_type().is_empty() {
            "untyped"
        } else {
            self.mime_type()
        };
        match self {
            Media::Image { .. } => format!("{mime} image, {} bytes", self.bytes()),
            Media::Audio { .. } => format!("{mime} audio, {} bytes", self.bytes()),
            Media::Resource { uri, .. } => {
                format!("resource <{uri}>, {mime}, {} bytes", self.bytes())
            }
        }
    }

    /// The line a format sends in the part's place when it cannot carry it:
    /// the model learns the part existed and why it does not see it.
    pub fn not_sent(&self, format: &str, why: &str) -> String {
        format!(
            "[not sent to the model: the {}; {format} {why}]",
            self.describe()
        )
    }
}

/// The MIME type and base64 data of a `data:…;base64,…` URL.
pub fn split_data_url(url: &str) -> Option<(&str, &str)> {
    let rest = url.strip_prefix("data:")?;
    let (mime, data) = rest.split_once(";base64,")?;
    Some((mime, data))
}

/// Bytes that `data` (base64, padding optional) decodes to.
pub fn base64_bytes(data: &str) -> usize {
    data.trim_end_matches('=').len() * 3 / 4
}

#[cfg(test)]
mod tests {
    use super::Media;

    #[test]
    fn a_part_says_what_it_is() {
        let image = Media::Image {
            mime_type: "image/png".into(),
            data: "iVBORw0KGgo=".into(),
        };
        assert_eq!(image.describe(), "image/png image, 8 bytes");
        assert_eq!(image.data_url(), "data:image/png;base64,iVBORw0KGgo=");
        assert!(image.is_sendable_image());
        let audio = Media::Audio {
            mime_type: "audio/wav".into(),
            data: "UklGRg==".into(),
        };
        assert!(!audio.is_sendable_image());
        assert_eq!(
            audio.not_sent("a Chat Completions tool message", "carries only text"),
            "[not sent to the model: the audio/wav audio, 4 bytes; a Chat Completions tool message carries only text]"
        );
    }
}
