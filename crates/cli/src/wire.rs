//! `agent-loop wire` and `agent-loop check`: a run's requests as each
//! provider would receive them, and the protocol checker's verdict on them.

use harness::event::RunEvent;
use harness::quote::plain;
use harness::wire::{self, Provider, RequestShape};
use serde_json::{json, Value};

/// The request body of every model request the run made, in order, each with
/// the history as it stood when that request was sent.
pub fn request_bodies(provider: Provider, shape: &RequestShape, events: &[RunEvent]) -> Value {
    let requests: Vec<Value> = wire::replayed_requests(events)
        .iter()
        .map(|request| {
            json!({
                "turn": request.turn,
                "attempt": request.attempt,
                "body": request.body(provider, shape),
            })
        })
        .collect();
    json!({"provider": provider, "requests": requests})
}

/// The checker's verdict on the run, per provider, as text: its final
/// history, and what its earlier requests carried (`wire::run_violations`).
/// Returns the report and the number of violations.
pub fn check_report(shape: &RequestShape, events: &[RunEvent]) -> (String, usize) {
    let found = wire::run_violations(shape, events);
    let mut report = String::new();
    for provider in Provider::ALL {
        let violations: Vec<wire::Violation> = found
            .iter()
            .filter(|v| v.provider == provider)
            .cloned()
            .collect();
        report.push_str(&verdict(provider, violations));
    }
    (report, found.len())
}

/// One provider's verdict: `✓ label: no violations`, or `✗ label: N
/// violations` with each one's place, the provider's 400 text and why.
pub fn verdict(provider: Provider, violations: Vec<wire::Violation>) -> String {
    let mut report = String::new();
    {
        if violations.is_empty() {
            return format!("✓ {}: no violations\n", provider.label());
        }
        // A refusal known only from issue threads is said to be one.
        let reported = violations.iter().filter(|v| !v.rule.documented()).count();
        let note = match reported {
            0 => String::new(),
            n if n == violations.len() => {
                " (reported in public issue threads, not documented)".to_string()
            }
            n => format!(" ({n} of them reported in public issue threads, not documented)"),
        };
        report.push_str(&format!(
            "✗ {}: {} violation{}{note}\n",
            provider.label(),
            violations.len(),
            if violations.len() == 1 { "" } else { "s" }
        ));
        for v in violations {
            // The path and the provider's message quote the body's text.
            report.push_str(&format!(
                "  at {}: HTTP 400 {}\n",
                plain(&v.path),
                plain(&v.message)
            ));
            report.push_str(&format!("    why: {}\n", plain(&v.explanation)));
        }
    }
    report
}
