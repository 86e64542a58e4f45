//! A `tools/call` result as the tool_result the model reads: text blocks as
//! their text; images, audio, resource links and embedded resources as a
//! line saying what they are; `structuredContent` as JSON unless a text
//! block already carries it. `isError: true` is an error result (errors as
//! data). A result still waiting on the client's input (the 2026
//! generation's `input_required`) cannot be completed here, and says so.

use serde_json::Value;

/// `Ok(text)` for a result, `Err(text)` for an error result.
pub fn tool_result(result: &Value) -> Result<Value, String> {
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
    let blocks = result.get("content").and_then(Value::as_array);
    let mut parts: Vec<String> = blocks
        .map(|blocks| blocks.iter().map(block_text).collect())
        .unwrap_or_default();
    if let Some(structured) = result.get("structuredContent") {
        let already = blocks.is_some_and(|blocks| {
            blocks.iter().any(|b| {
                b.get("text")
                    .and_then(Value::as_str)
                    .and_then(|t| serde_json::from_str::<Value>(t).ok())
                    .as_ref()
                    == Some(structured)
            })
        });
        if !already {
            parts.push(format!("structured content: {structured}"));
        }
    }
    let text = parts.join("\n");
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        Err(if text.is_empty() {
            "the tool reported an error and said nothing more".to_string()
        } else {
            text
        })
    } else {
        Ok(Value::String(text))
    }
}

fn block_text(block: &Value) -> String {
    let field = |name: &str| block.get(name).and_then(Value::as_str).unwrap_or_default();
    let size = |data: &str| {
        // Base64: four characters carry three bytes.
        let bytes = data.trim_end_matches('=').len() * 3 / 4;
        format!("{bytes} bytes")
    };
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
    use serde_json::json;

    #[test]
    fn every_block_reads_as_text() {
        let result = json!({"content": [
            {"type": "text", "text": "Echo: hi"},
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
            {"type": "resource_link", "uri": "demo://r/1", "name": "r1", "mimeType": "text/plain", "description": "first"},
            {"type": "resource", "resource": {"uri": "demo://r/2", "mimeType": "text/plain", "text": "hello"}}
        ], "structuredContent": {"temperature": 22}});
        assert_eq!(
            tool_result(&result),
            Ok(json!("Echo: hi\n[image: image/png, 8 bytes]\n[resource link: r1 <demo://r/1>, text/plain: first]\n[resource <demo://r/2>, text/plain]\nhello\nstructured content: {\"temperature\":22}"))
        );
    }

    #[test]
    fn structured_content_already_in_a_text_block_is_not_repeated() {
        let result = json!({"content": [{"type": "text", "text": "{\"a\": 1}"}], "structuredContent": {"a": 1}});
        assert_eq!(tool_result(&result), Ok(json!("{\"a\": 1}")));
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
