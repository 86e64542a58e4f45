//! A `tools/call` result as the tool_result the model reads: text blocks as
//! their text; images, audio, resource links and embedded resources as a
//! line saying what they are, and the images, audio and binary resources
//! themselves as [`Media`] beside the text, for each wire format to send as
//! it can. `isError: true` is an error result (errors as data). A result
//! still waiting on the client's input (the 2026 generation's
//! `input_required`) cannot be completed here, and says so.
//!
//! `structuredContent` is sent once. The spec asks a tool that returns it to
//! put its serialized form in a text block too, for clients that read only
//! text; the Python SDK always does, and wraps a value that is not an object
//! as `{"result": …}` while its text is the bare value, so the two need not
//! compare equal. So the content is preferred: when a result has any text
//! block, that text is what the model reads and `structuredContent` is not
//! added; a result with no text gives its `structuredContent` as JSON.

use serde_json::Value;

use crate::message::{base64_bytes, Media};
use crate::tool::ToolOutput;

/// `Ok(output)` for a result, `Err(text)` for an error result.
pub fn tool_result(result: &Value) -> Result<ToolOutput, String> {
    if result.get("resultType").and_then(Value::as_str) == Some("input_required") {
        let asked: Vec<String> = result
            .get("inputRequests")
            .and_then(Value::as_object)
            .map(|requests| {
                requests
                    .values()
                    .filter_map(|r| r.get("method").and_then(Value::as_str).map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        return Err(format!(
            "the server needs input from the client first ({}), which agent-loop does not offer",
            if asked.is_empty() {
                "input_required".to_string()
            } else {
                asked.join(", ")
            }
        ));
    }
    let blocks: &[Value] = result
        .get("content")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    let mut parts: Vec<String> = blocks.iter().map(block_text).collect();
    let media: Vec<Media> = blocks.iter().filter_map(block_media).collect();
    let has_text = blocks
        .iter()
        .any(|b| b.get("type").and_then(Value::as_str) == Some("text"));
    if let Some(structured) = result.get("structuredContent").filter(|_| !has_text) {
        parts.push(format!("structured content: {structured}"));
    }
    let text = parts.join("\n");
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        Err(if text.is_empty() {
            "the tool reported an error and said nothing more".to_string()
        } else {
            text
        })
    } else {
        Ok(ToolOutput {
            value: Value::String(text),
            media,
        })
    }
}

/// The part of a block that is not text, if it has one.
fn block_media(block: &Value) -> Option<Media> {
    let field = |value: &Value, name: &str| {
        value
            .get(name)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    match block.get("type").and_then(Value::as_str)? {
        "image" => Some(Media::Image {
            mime_type: field(block, "mimeType"),
            data: field(block, "data"),
        }),
        "audio" => Some(Media::Audio {
            mime_type: field(block, "mimeType"),
            data: field(block, "data"),
        }),
        "resource" => {
            let resource = block.get("resource")?;
            let blob = resource.get("blob").and_then(Value::as_str)?;
            Some(Media::Resource {
                uri: field(resource, "uri"),
                mime_type: field(resource, "mimeType"),
                data: blob.to_string(),
            })
        }
        _ => None,
    }
}

fn block_text(block: &Value) -> String {
    let field = |name: &str| block.get(name).and_then(Value::as_str).unwrap_or_default();
    let size = |data: &str| format!("{} bytes", base64_bytes(data));
    match field("type") {
        "text" => field("text").to_string(),
        "image" => format!(
            "[image: {}, {}]",
            or(field("mimeType"), "no type"),
            size(field("data"))
        ),
        "audio" => format!(
            "[audio: {}, {}]",
            or(field("mimeType"), "no type"),
            size(field("data"))
        ),
        "resource_link" => {
            let mut line = format!(
                "[resource link: {} <{}>",
                or(field("name"), "unnamed"),
                field("uri")
            );
            if !field("mimeType").is_empty() {
                line.push_str(&format!(", {}", field("mimeType")));
            }
            if !field("description").is_empty() {
                line.push_str(&format!(": {}", field("description")));
            }
            line.push(']');
            line
        }
        "resource" => {
            let resource = block.get("resource").cloned().unwrap_or_default();
            let get = |name: &str| {
                resource
                    .get(name)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            match resource.get("text").and_then(Value::as_str) {
                Some(text) => format!(
                    "[resource <{}>{}]\n{text}",
                    get("uri"),
                    type_suffix(&get("mimeType"))
                ),
                None => format!(
                    "[resource <{}>{}, {}]",
                    get("uri"),
                    type_suffix(&get("mimeType")),
                    size(&get("blob"))
                ),
            }
        }
        other => format!(
            "[{} content block: {}]",
            or(other, "untyped"),
            crate::tool::clip(&block.to_string(), 200)
        ),
    }
}

fn or<'a>(value: &'a str, fallback: &'a str) -> &'a str {
    if value.is_empty() {
        fallback
    } else {
        value
    }
}

fn type_suffix(mime: &str) -> String {
    if mime.is_empty() {
        String::new()
    } else {
        format!(", {mime}")
    }
}

#[cfg(test)]
mod tests {
    use super::tool_result;
    use crate::message::Media;
    use serde_json::json;

    #[test]
    fn every_block_reads_as_text_and_images_audio_and_blobs_ride_beside_it() {
        let result = json!({"content": [
            {"type": "text", "text": "Echo: hi"},
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
            {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
            {"type": "resource_link", "uri": "demo://r/1", "name": "r1", "mimeType": "text/plain", "description": "first"},
            {"type": "resource", "resource": {"uri": "demo://r/2", "mimeType": "text/plain", "text": "hello"}},
            {"type": "resource", "resource": {"uri": "demo://r/3", "mimeType": "application/pdf", "blob": "JVBERi0="}}
        ]});
        let output = tool_result(&result).unwrap();
        assert_eq!(
            output.value,
            json!("Echo: hi\n[image: image/png, 8 bytes]\n[audio: audio/wav, 4 bytes]\n[resource link: r1 <demo://r/1>, text/plain: first]\n[resource <demo://r/2>, text/plain]\nhello\n[resource <demo://r/3>, application/pdf, 5 bytes]")
        );
        assert_eq!(
            output.media,
            vec![
                Media::Image {
                    mime_type: "image/png".into(),
                    data: "iVBORw0KGgo=".into()
                },
                Media::Audio {
                    mime_type: "audio/wav".into(),
                    data: "UklGRg==".into()
                },
                Media::Resource {
                    uri: "demo://r/3".into(),
                    mime_type: "application/pdf".into(),
                    data: "JVBERi0=".into()
                },
            ]
        );
    }

    #[test]
    fn structured_content_is_sent_once_the_text_preferred() {
        // As the Python SDK sends an object: pretty-printed text beside it.
        let result = json!({"content": [{"type": "text", "text": "{\n  \"a\": 1\n}"}], "structuredContent": {"a": 1}});
        assert_eq!(
            tool_result(&result).unwrap().value,
            json!("{\n  \"a\": 1\n}")
        );
        // As it sends a number: the bare value as text, `{"result": …}` as structured content.
        let result =
            json!({"content": [{"type": "text", "text": "5"}], "structuredContent": {"result": 5}});
        assert_eq!(tool_result(&result).unwrap().value, json!("5"));
        // No text at all: the structured content is the result.
        let result = json!({"content": [], "structuredContent": {"temperature": 22}});
        assert_eq!(
            tool_result(&result).unwrap().value,
            json!("structured content: {\"temperature\":22}")
        );
    }

    #[test]
    fn is_error_and_input_required_are_error_results() {
        assert_eq!(
            tool_result(
                &json!({"content": [{"type": "text", "text": "no such city"}], "isError": true})
            ),
            Err("no such city".to_string())
        );
        let asked = tool_result(
            &json!({"resultType": "input_required", "inputRequests": {"a": {"method": "elicitation/create"}}}),
        );
        assert_eq!(
            asked,
            Err("the server needs input from the client first (elicitation/create), which agent-loop does not offer".to_string())
        );
    }
}
