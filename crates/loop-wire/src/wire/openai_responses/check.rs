//! Responses' protocol rules: what the API rejects with HTTP 400, checked on
//! the request body (one function per rule, each with its sources), with
//! OpenAI's own error texts.
//!
//! `input[N]` indexes items, not messages, so the origins come from the
//! request builder itself. Two rules are known from public issue threads,
//! not from OpenAI's documentation (`Rule::documented`): two outputs for one
//! call_id, and two calls sharing a call_id.

use std::collections::HashMap;

use serde_json::Value;

use crate::wire::verdict::{Findings, Rule};
use crate::wire::{array, place, str_at};

/// "the 4th input item (function_call)": input item `n`, named by its type,
/// or its role for a message given in short form (`{"role": "user", …}`).
fn wire_place(items: &[Value], n: usize) -> String {
    let kind = str_at(&items[n], "type").or_else(|| str_at(&items[n], "role"));
    place::item("input item", n, kind)
}

/// Responses' rules, run on a request body. Outputs are looked up by
/// call_id in maps built in one pass (the last output of each id, the calls
/// seen so far), so the check grows linearly with the history.
pub(crate) fn rules(body: &Value, findings: &mut Findings<'_>) {
    let items = array(body.get("input"));
    let last_output = last_output_per_call_id(items);
    // Each call_id's first call and first output, by item index.
    let mut called: HashMap<&str, usize> = HashMap::new();
    let mut answered: HashMap<&str, usize> = HashMap::new();
    for (n, item) in items.iter().enumerate() {
        let call_id = str_at(item, "call_id").unwrap_or_default();
        match str_at(item, "type") {
            Some("function_call") => {
                // Answered when its id's last output comes after it.
                let is_answered = last_output.get(call_id).is_some_and(|&at| at > n);
                if !is_answered {
                    unanswered_call(items, n, call_id, findings);
                }
                if let Some(&first) = called.get(call_id) {
                    duplicate(
                        items,
                        n,
                        first,
                        call_id,
                        Rule::ResponsesDuplicateCallId,
                        findings,
                    );
                } else if let Some(id) = str_at(item, "call_id") {
                    called.insert(id, n);
                }
            }
            Some("function_call_output") => {
                if item.get("output").is_none_or(Value::is_null) {
                    missing_output(items, n, call_id, findings);
                }
                if !called.contains_key(call_id) {
                    orphan_output(items, n, call_id, findings);
                }
                if let Some(&first) = answered.get(call_id) {
                    duplicate(
                        items,
                        n,
                        first,
                        call_id,
                        Rule::ResponsesDuplicateOutput,
                        findings,
                    );
                } else {
                    answered.insert(call_id, n);
                }
            }
            _ => {}
        }
    }
}

/// A second `function_call` with a call_id, or a second output for one:
/// refused as reported in public issue threads (see `Rule::evidence`).
fn duplicate(
    items: &[Value],
    n: usize,
    first: usize,
    call_id: &str,
    rule: Rule,
    findings: &mut Findings<'_>,
) {
    let at = wire_place(items, n);
    let (message, what) = match rule {
        Rule::ResponsesDuplicateOutput => (
            format!("Duplicate function_call_output for call_id {call_id}. Each function_call must have exactly one matching function_call_output."),
            "answers",
        ),
        _ => (format!("Duplicate 'call_id': {call_id}"), "reuses"),
    };
    findings.add(
        rule,
        Some((n, None)),
        at.clone(),
        format!("input[{n}]"),
        message,
        format!(
            "{} {what} call_id {call_id}, as {} did before it. {} ({})",
            place::capitalized(&at),
            wire_place(items, first),
            rule.why(),
            rule.evidence().unwrap_or_default()
        ),
    );
}

/// Where the last `function_call_output` of each call_id stands: a call is
/// answered when its id's last output comes after it.
fn last_output_per_call_id(items: &[Value]) -> HashMap<&str, usize> {
    items
        .iter()
        .enumerate()
        .filter(|(_, item)| str_at(item, "type") == Some("function_call_output"))
        .filter_map(|(n, item)| str_at(item, "call_id").map(|id| (id, n)))
        .collect()
}

/// Every `function_call` gets a `function_call_output` after it.
fn unanswered_call(items: &[Value], n: usize, call_id: &str, findings: &mut Findings<'_>) {
    let at = wire_place(items, n);
    findings.add(
        Rule::ResponsesUnansweredCall,
        Some((n, None)),
        at.clone(),
        format!("input[{n}]"),
        format!("No tool output found for function call {call_id}."),
        format!(
            "{}, call_id {call_id}, has no function_call_output after it. Every call must be answered, even a denied one (with the denial as its output).",
            place::capitalized(&at)
        ),
    );
}

/// A `function_call_output` has an `output`.
fn missing_output(items: &[Value], n: usize, call_id: &str, findings: &mut Findings<'_>) {
    let at = wire_place(items, n);
    findings.add(
        Rule::ResponsesMissingOutput,
        Some((n, None)),
        at.clone(),
        format!("input[{n}].output"),
        format!("Missing required parameter: 'input[{n}].output'."),
        format!(
            "{}, for {call_id}, has no output. Responses has no is_error flag: a failed or denied call is answered with its error text as the output.",
            place::capitalized(&at)
        ),
    );
}

/// Every `function_call_output` answers an earlier `function_call`.
fn orphan_output(items: &[Value], n: usize, call_id: &str, findings: &mut Findings<'_>) {
    let at = wire_place(items, n);
    findings.add(
        Rule::ResponsesOrphanOutput,
        Some((n, None)),
        at.clone(),
        format!("input[{n}]"),
        format!("No tool call found for function call output with call_id {call_id}."),
        format!(
            "{} answers {call_id}, but no earlier function_call has that call_id.",
            place::capitalized(&at)
        ),
    );
}
