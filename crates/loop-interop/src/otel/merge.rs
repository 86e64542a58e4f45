//! One model call traced by more than one instrumentation, read as one.
//!
//! A trace often holds two spans for the same call: OpenLLMetry's
//! `anthropic.chat` around the Anthropic SDK's own `anthropic.messages.create`
//! (the SDK traces itself), or two instrumentations of the same OpenAI client.
//! Read apart they would double every turn, and the inner span (often without
//! content or a finish reason) would make phantom turns. Spans are one call
//! when they carry the same `gen_ai.response.id`, or when one is nested in
//! the other (a failed call has no response id, but its spans still nest).
//! The merged span is the outermost one with every attribute the others add
//! (the outer span's value wins where both have one), their events, and the
//! widest time.

use std::collections::HashMap;

use serde_json::Value;

use super::attributes::attribute;

/// `spans` with each model call's spans merged into one (see the module's
/// doc), for the operations in `chat_operations`; the other spans are kept
/// as they are; and how many calls had more than one span.
pub fn model_calls(spans: Vec<Value>, chat_operations: &[&str]) -> (Vec<Value>, usize) {
    let is_chat = |span: &Value| {
        attribute(span, "gen_ai.operation.name")
            .and_then(|v| v.as_str().map(str::to_string))
            .is_some_and(|op| chat_operations.contains(&op.as_str()))
    };
    let chat: Vec<usize> = (0..spans.len()).filter(|&i| is_chat(&spans[i])).collect();
    let mut group: Vec<usize> = (0..spans.len()).collect();
    // By response id, in any trace: without a span around them, the SDK's
    // span and an instrumentation's are each a trace's root.
    let mut by_id: HashMap<String, usize> = HashMap::new();
    for &i in &chat {
        if let Some(id) = attribute(&spans[i], "gen_ai.response.id")
            .and_then(|v| v.as_str().map(str::to_string))
            .filter(|id| !id.is_empty())
        {
            match by_id.get(&id) {
                Some(&first) => union(&mut group, first, i),
                None => {
                    by_id.insert(id, i);
                }
            }
        }
    }
    // By parentage: a chat span inside another chat span is the same call.
    let by_span_id: HashMap<(String, String), usize> = spans
        .iter()
        .enumerate()
        .map(|(i, s)| ((text(s, "traceId"), text(s, "spanId")), i))
        .collect();
    for &i in &chat {
        let mut parent = text(&spans[i], "parentSpanId");
        let mut hops = 0;
        while !parent.is_empty() && hops < spans.len() {
            let Some(&p) = by_span_id.get(&(text(&spans[i], "traceId"), parent.clone())) else {
                break;
            };
            if is_chat(&spans[p]) {
                union(&mut group, p, i);
                break;
            }
            parent = text(&spans[p], "parentSpanId");
            hops += 1;
        }
    }
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for &i in &chat {
        let root = find(&mut group, i);
        members.entry(root).or_default().push(i);
    }
    let mut merged_calls = 0;
    let mut out = Vec::with_capacity(spans.len());
    let mut done = vec![false; spans.len()];
    for i in 0..spans.len() {
        if done[i] {
            continue;
        }
        if !chat.contains(&i) {
            out.push(spans[i].clone());
            continue;
        }
        let root = find(&mut group, i);
        let mut call = members.remove(&root).unwrap_or_else(|| vec![i]);
        for &m in &call {
            done[m] = true;
        }
        if call.len() == 1 {
            out.push(spans[i].clone());
            continue;
        }
        merged_calls += 1;
        // Outermost first: an ancestor before its descendants, then by start.
        call.sort_by_key(|&m| {
            (
                depth(&spans, &by_span_id, m),
                nanos(&spans[m], "startTimeUnixNano"),
            )
        });
        out.push(merge(call.iter().map(|&m| &spans[m])));
    }
    (out, merged_calls)
}

/// The first span with every attribute and event of the others it lacks.
fn merge<'a>(mut parts: impl Iterator<Item = &'a Value>) -> Value {
    let Some(first) = parts.next() else {
        return Value::Null;
    };
    let mut merged = first.clone();
    for other in parts {
        let have: Vec<String> = list(&merged, "attributes")
            .iter()
            .filter_map(|a| a["key"].as_str().map(str::to_string))
            .collect();
        let added: Vec<Value> = list(other, "attributes")
            .into_iter()
            .filter(|a| {
                a["key"]
                    .as_str()
                    .is_some_and(|k| !have.iter().any(|h| h == k))
            })
            .collect();
        extend(&mut merged, "attributes", added);
        extend(&mut merged, "events", list(other, "events"));
        let (start, end) = (
            nanos(&merged, "startTimeUnixNano").min(nanos(other, "startTimeUnixNano")),
            nanos(&merged, "endTimeUnixNano").max(nanos(other, "endTimeUnixNano")),
        );
        merged["startTimeUnixNano"] = Value::from(start.to_string());
        merged["endTimeUnixNano"] = Value::from(end.to_string());
        // A call that failed in any of its spans failed.
        if other["status"]["code"].as_u64() == Some(2)
            && merged["status"]["code"].as_u64() != Some(2)
        {
            merged["status"] = other["status"].clone();
        }
    }
    merged
}

fn depth(spans: &[Value], by_span_id: &HashMap<(String, String), usize>, i: usize) -> usize {
    let mut depth = 0;
    let mut parent = text(&spans[i], "parentSpanId");
    while let Some(&p) = by_span_id.get(&(text(&spans[i], "traceId"), parent.clone())) {
        depth += 1;
        if depth > spans.len() {
            break;
        }
        parent = text(&spans[p], "parentSpanId");
    }
    depth
}

fn find(group: &mut [usize], mut i: usize) -> usize {
    while group[i] != i {
        group[i] = group[group[i]];
        i = group[i];
    }
    i
}

fn union(group: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(group, a), find(group, b));
    if ra != rb {
        group[rb.max(ra)] = rb.min(ra);
    }
}

fn list(span: &Value, key: &str) -> Vec<Value> {
    span.get(key)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

fn extend(span: &mut Value, key: &str, values: Vec<Value>) {
    if values.is_empty() {
        return;
    }
    if !span[key].is_array() {
        span[key] = Value::Array(Vec::new());
    }
    if let Some(items) = span[key].as_array_mut() {
        items.extend(values);
    }
}

fn text(span: &Value, key: &str) -> String {
    span[key].as_str().unwrap_or_default().to_string()
}

fn nanos(span: &Value, key: &str) -> u128 {
    match &span[key] {
        Value::String(text) => text.parse().unwrap_or(0),
        other => other.as_u64().map_or(0, u128::from),
    }
}
