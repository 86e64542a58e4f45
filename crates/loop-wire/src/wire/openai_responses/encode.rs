//! Responses' server side: a [`ModelResponse`] as the API sends it, whole
//! (a `response` object) or as SSE events in its own order, and its
//! stop-reason words. The error body is OpenAI's (`wire/openai.rs`).
//!
//! What does not round-trip: a normal end of turn and a tool turn are both
//! `status: completed` (a tool turn shows as `function_call` items).

use serde_json::{json, Value};

use crate::message::ContentBlock;
use crate::model::{ModelResponse, StopKind};
use crate::wire::sse::{event_text, fragments, PIECES};
use crate::wire::{arguments_text, Meta};

/// Responses' word for the harness's stop reason: `completed`, or the
/// `incomplete_details.reason` it becomes; a word with no translation is
/// sent as it is.
pub(crate) fn stop_reason(reason: &str) -> String {
    let word = match StopKind::classify(reason) {
        StopKind::EndTurn | StopKind::ToolUse => "completed",
        StopKind::MaxTokens => "max_output_tokens",
        StopKind::Refusal => "content_filter",
        // No `incomplete_details.reason` says the window is full
        // (`max_output_tokens` is the output cap): the harness's own word is sent.
        StopKind::PauseTurn | StopKind::ContextWindowExceeded | StopKind::Unknown => reason,
    };
    word.to_string()
}

fn response_id(meta: &Meta<'_>) -> String {
    format!("resp_scripted{:06}", meta.id_seed)
}

/// The output items, finished, in block order: consecutive text blocks are
/// one `message` item (a part each).
fn output_items(response: &ModelResponse, meta: &Meta<'_>) -> Vec<Value> {
    let mut items: Vec<Value> = Vec::new();
    let mut texts: Vec<&str> = Vec::new();
    let flush = |texts: &mut Vec<&str>, items: &mut Vec<Value>| {
        if texts.is_empty() {
            return;
        }
        let parts: Vec<Value> = texts
            .iter()
            .map(|t| json!({"type": "output_text", "text": t, "annotations": []}))
            .collect();
        items.push(
            json!({"id": format!("msg_scripted{:06}_{}", meta.id_seed, items.len()),
                          "type": "message", "status": "completed", "role": "assistant",
                          "content": parts}),
        );
        texts.clear();
    };
    for block in &response.content {
        match block {
            ContentBlock::Text { text } => texts.push(text),
            ContentBlock::Thinking {
                thinking,
                signature,
            } => {
                flush(&mut texts, &mut items);
                let mut item = json!({"id": format!("rs_scripted{:06}_{}", meta.id_seed, items.len()),
                    "type": "reasoning",
                    "summary": [{"type": "summary_text", "text": thinking}]});
                if let Some(signature) = signature {
                    item["encrypted_content"] = json!(signature);
                }
                items.push(item);
            }
            ContentBlock::ToolUse(call) => {
                flush(&mut texts, &mut items);
                items.push(
                    json!({"id": format!("fc_scripted{:06}_{}", meta.id_seed, items.len()),
                    "type": "function_call", "status": "completed", "call_id": call.id,
                    "name": call.name, "arguments": arguments_text(call)}),
                );
            }
            ContentBlock::ToolResult(_) => {}
        }
    }
    flush(&mut texts, &mut items);
    items
}

/// The response object with `output` and the status the stop reason gives.
fn response_object(response: &ModelResponse, meta: &Meta<'_>, output: Vec<Value>) -> Value {
    let word = stop_reason(&response.stop_reason);
    let (status, incomplete) = if word == "completed" {
        ("completed", Value::Null)
    } else {
        // Anything else is `incomplete` with the word as its reason, so a
        // scripted unknown stop reason reaches the client unchanged.
        ("incomplete", json!({"reason": word}))
    };
    json!({
        "id": response_id(meta),
        "object": "response",
        "created_at": meta.created,
        "status": status,
        "error": null,
        "incomplete_details": incomplete,
        "model": meta.model,
        "output": output,
        "parallel_tool_calls": true,
        "store": false,
        "usage": {
            "input_tokens": response.usage.input_tokens,
            "output_tokens": response.usage.output_tokens,
            "total_tokens": response.usage.total(),
        },
    })
}

/// `at` (the fields that place an event) with its `type` and `extra` fields.
fn merged(at: &Value, kind: &str, extra: Value) -> Value {
    let mut event = at.clone();
    event["type"] = json!(kind);
    if let (Some(event), Value::Object(extra)) = (event.as_object_mut(), extra) {
        event.extend(extra);
    }
    event
}

/// The whole (non-streamed) response body: one `response` object.
pub(crate) fn body(response: &ModelResponse, meta: &Meta<'_>) -> Value {
    response_object(response, meta, output_items(response, meta))
}

/// The streamed response: `response.created`, `response.in_progress`, each
/// item's added, delta, done events, then `response.completed` or
/// `response.incomplete`, numbered by `sequence_number`.
pub(crate) fn events(response: &ModelResponse, meta: &Meta<'_>) -> Vec<String> {
    let mut out = Vec::new();
    let mut sequence = 0u64;
    let mut event = |mut data: Value| {
        data["sequence_number"] = json!(sequence);
        sequence += 1;
        let name = data["type"].as_str().unwrap_or_default().to_string();
        out.push(event_text(Some(&name), &data));
    };
    let finished = response_object(response, meta, output_items(response, meta));
    let mut started = finished.clone();
    started["status"] = json!("in_progress");
    started["incomplete_details"] = Value::Null;
    started["output"] = json!([]);
    started["usage"] = Value::Null;
    event(json!({"type": "response.created", "response": started}));
    event(json!({"type": "response.in_progress", "response": started}));
    let items = output_items(response, meta);
    for (output_index, item) in items.iter().enumerate() {
        let item_id = item["id"].clone();
        let mut added = item.clone();
        let kind = item["type"].as_str().unwrap_or_default();
        if kind != "reasoning" {
            added["status"] = json!("in_progress");
        }
        match kind {
            "message" => added["content"] = json!([]),
            "reasoning" => added["summary"] = json!([]),
            "function_call" => added["arguments"] = json!(""),
            _ => {}
        }
        event(
            json!({"type": "response.output_item.added", "output_index": output_index,
                     "item": added}),
        );
        match kind {
            "message" => {
                let parts = item["content"].as_array().cloned().unwrap_or_default();
                for (content_index, part) in parts.iter().enumerate() {
                    let text = part["text"].as_str().unwrap_or_default();
                    let at = json!({"item_id": item_id, "output_index": output_index,
                                    "content_index": content_index});
                    let with = |kind: &str, extra: Value| merged(&at, kind, extra);
                    event(with(
                        "response.content_part.added",
                        json!({"part": {"type": "output_text", "text": "", "annotations": []}}),
                    ));
                    for piece in fragments(text, PIECES)
                        .into_iter()
                        .filter(|p| !p.is_empty())
                    {
                        event(with("response.output_text.delta", json!({"delta": piece})));
                    }
                    event(with("response.output_text.done", json!({"text": text})));
                    event(with("response.content_part.done", json!({"part": part})));
                }
            }
            "reasoning" => {
                let parts = item["summary"].as_array().cloned().unwrap_or_default();
                for (summary_index, part) in parts.iter().enumerate() {
                    let text = part["text"].as_str().unwrap_or_default();
                    let at = json!({"item_id": item_id, "output_index": output_index,
                                    "summary_index": summary_index});
                    let with = |kind: &str, extra: Value| merged(&at, kind, extra);
                    event(with(
                        "response.reasoning_summary_part.added",
                        json!({"part": {"type": "summary_text", "text": ""}}),
                    ));
                    for piece in fragments(text, PIECES)
                        .into_iter()
                        .filter(|p| !p.is_empty())
                    {
                        event(with(
                            "response.reasoning_summary_text.delta",
                            json!({"delta": piece}),
                        ));
                    }
                    event(with(
                        "response.reasoning_summary_text.done",
                        json!({"text": text}),
                    ));
                    event(with(
                        "response.reasoning_summary_part.done",
                        json!({"part": part}),
                    ));
                }
            }
            "function_call" => {
                let arguments = item["arguments"].as_str().unwrap_or_default();
                for piece in fragments(arguments, PIECES) {
                    event(json!({"type": "response.function_call_arguments.delta",
                                 "item_id": item_id, "output_index": output_index,
                                 "delta": piece}));
                }
                event(json!({"type": "response.function_call_arguments.done",
                             "item_id": item_id, "output_index": output_index,
                             "arguments": arguments}));
            }
            _ => {}
        }
        event(
            json!({"type": "response.output_item.done", "output_index": output_index,
                     "item": item}),
        );
    }
    let terminal = if finished["status"] == "completed" {
        "response.completed"
    } else {
        "response.incomplete"
    };
    event(json!({"type": terminal, "response": finished}));
    out
}
