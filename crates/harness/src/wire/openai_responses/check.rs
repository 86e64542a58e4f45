//! Responses' protocol rules: what the API rejects with HTTP 400, checked on
//! the request body (one rule per Responses bullet of `PROTOCOL.md`), with
//! OpenAI's own error texts.
//!
//! `input[N]` indexes items, not messages, so the origins come from the
//! request builder itself.

use serde_json::Value;

use crate::message::Message;
use crate::wire::verdict::{Findings, Rule};
use crate::wire::{array, str_at, Origin};

/// Where each input item came from.
pub(crate) fn origins(messages: &[Message]) -> Vec<Option<Origin>> {
    super::input_items(messages)
        .into_iter()
        .map(|(_, origin)| origin)
        .collect()
}

/// Responses' rules, run on a request body.
pub(crate) fn rules(body: &Value, findings: &mut Findings<'_>) {
    let items = array(body.get("input"));
    let kind = |item: &Value| str_at(item, "type").map(str::to_string);
    for (n, item) in items.iter().enumerate() {
        let call_id = str_at(item, "call_id").unwrap_or_default();
        match kind(item).as_deref() {
            Some("function_call") => {
                let answered = items[n + 1..].iter().any(|later| {
                    str_at(later, "type") == Some("function_call_output")
                        && str_at(later, "call_id") == Some(call_id)
                });
                if !answered {
                    let at = findings.harness_place(n, None);
                    findings.add(
                        Rule::ResponsesUnansweredCall,
                        Some((n, None)),
                        format!("input[{n}]"),
                        format!("No tool output found for function call {call_id}."),
                        format!(
                            "The function_call {call_id} at input[{n}]{at} has no function_call_output after it. Every call must be answered, even a denied one (with the denial as its output)."
                        ),
                    );
                }
            }
            Some("function_call_output") => {
                if item.get("output").is_none_or(Value::is_null) {
                    let at = findings.harness_place(n, None);
                    findings.add(
                        Rule::ResponsesMissingOutput,
                        Some((n, None)),
                        format!("input[{n}].output"),
                        format!("Missing required parameter: 'input[{n}].output'."),
                        format!(
                            "The function_call_output for {call_id} at input[{n}]{at} has no output. Responses has no is_error flag: a failed or denied call is answered with its error text as the output."
                        ),
                    );
                }
                let called = items[..n].iter().any(|earlier| {
                    str_at(earlier, "type") == Some("function_call")
                        && str_at(earlier, "call_id") == Some(call_id)
                });
                if !called {
                    let at = findings.harness_place(n, None);
                    findings.add(
                        Rule::ResponsesOrphanOutput,
                        Some((n, None)),
                        format!("input[{n}]"),
                        format!("No tool call found for function call output with call_id {call_id}."),
                        format!(
                            "The function_call_output at input[{n}]{at} answers {call_id}, but no earlier function_call has that call_id."
                        ),
                    );
                }
            }
            _ => {}
        }
    }
}
