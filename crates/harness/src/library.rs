//! The built-in scenarios, compiled into the binary so the CLI and the
//! browser list the same ones. Each file's `description` is its lesson.

pub struct BuiltinScenario {
    /// The file name without `.json`; what `agent-loop run` accepts.
    pub id: &'static str,
    /// The picker's group.
    pub group: &'static str,
    pub json: &'static str,
    /// The status the scenario ends with when every approval request is approved.
    pub expected_status: &'static str,
}

macro_rules! scenario {
    ($group:literal, $id:literal, $status:literal) => {
        BuiltinScenario {
            id: $id,
            group: $group,
            json: include_str!(concat!("../scenarios/", $id, ".json")),
            expected_status: $status,
        }
    };
}

pub const BUILTIN: &[BuiltinScenario] = &[
    scenario!("Seed agents", "get-time", "done"),
    scenario!("Seed agents", "refund-with-approval", "done"),
    scenario!("Seed agents", "hotel-search", "done"),
    scenario!("Seed agents", "refund-policy", "done"),
    scenario!("Errors as data", "unknown-tool", "done"),
    scenario!("Errors as data", "bad-arguments", "done"),
    scenario!("Errors as data", "oversized-result", "done"),
    scenario!(
        "Stop conditions",
        "failed-verification",
        "failed_verification"
    ),
    scenario!("Stop conditions", "turn-limit", "turn_limit"),
    scenario!("Stop conditions", "cost-limit-strict", "cost_limit"),
    scenario!("Stop conditions", "cost-limit-naive", "cost_limit"),
    scenario!("Stop conditions", "token-limit", "token_limit"),
    scenario!("Stop conditions", "tool-call-limit", "tool_call_limit"),
    scenario!("Stop conditions", "deadline", "deadline"),
    scenario!("Stop conditions", "repeated-call", "repeated_call"),
    scenario!("Stop conditions", "blocked", "blocked"),
    scenario!("Stop conditions", "max-tokens", "max_tokens"),
    scenario!("Stop conditions", "refusal", "refusal"),
    scenario!("Stop conditions", "model-error", "model_error"),
    scenario!("Stop conditions", "rate-limit-retry", "done"),
    scenario!("Pitfalls: naive vs fixed", "repeated-call-naive", "done"),
    scenario!(
        "Pitfalls: naive vs fixed",
        "whitespace-searches-naive",
        "done"
    ),
    scenario!(
        "Pitfalls: naive vs fixed",
        "whitespace-searches-canonical",
        "repeated_call"
    ),
    // Seed 002's shared deadline ends `deadline` on a page (or in a process)
    // open longer than the deadline, which is how anyone meets it; see
    // `clock_age_needed_ms`.
    scenario!("Pitfalls: naive vs fixed", "deadline-shared", "deadline"),
    scenario!("Pitfalls: naive vs fixed", "deadline-per-run", "done"),
    scenario!(
        "Pitfalls: naive vs fixed",
        "deadline-between-steps",
        "deadline"
    ),
    scenario!(
        "Pitfalls: naive vs fixed",
        "deadline-interrupts-tool",
        "deadline"
    ),
    scenario!("Pitfalls: naive vs fixed", "empty-result-no-reason", "done"),
    scenario!(
        "Pitfalls: naive vs fixed",
        "empty-result-with-reason",
        "done"
    ),
    scenario!("Pitfalls: naive vs fixed", "verifier-weak", "done"),
    scenario!(
        "Pitfalls: naive vs fixed",
        "precondition-in-description",
        "done"
    ),
    scenario!("Pitfalls: naive vs fixed", "precondition-in-code", "done"),
    scenario!("Pitfalls: naive vs fixed", "max-tokens-naive", "done"),
    scenario!("Pitfalls: naive vs fixed", "history-text-only", "done"),
    scenario!("Pitfalls: naive vs fixed", "result-untrimmed", "done"),
    scenario!("Pitfalls: naive vs fixed", "refund-env-flag", "done"),
    scenario!("Protocol", "protocol-duplicate-ids", "done"),
    scenario!("Protocol", "protocol-text-before-results", "done"),
    scenario!("Protocol", "protocol-invented-result-ids", "done"),
    scenario!("Tool-schema effects", "rules-with-example", "done"),
    scenario!(
        "Tool-schema effects",
        "rules-without-example",
        "failed_verification"
    ),
    // Natively (no JavaScript sandbox) these end `done` too: the tool answers
    // that it runs only in the browser and the rules model stops there.
    scenario!("User-written tools", "js-tool", "done"),
    scenario!("User-written tools", "js-tool-infinite-loop", "done"),
];

/// Each pitfall as a pair: the naive scenario (the seed's behaviour) and the
/// fixed one, to run side by side.
pub const PITFALL_PAIRS: &[(&str, &str)] = &[
    ("cost-limit-naive", "cost-limit-strict"),
    ("repeated-call-naive", "repeated-call"),
    ("whitespace-searches-naive", "whitespace-searches-canonical"),
    ("deadline-shared", "deadline-per-run"),
    ("deadline-between-steps", "deadline-interrupts-tool"),
    ("empty-result-no-reason", "empty-result-with-reason"),
    ("refund-env-flag", "refund-with-approval"),
    ("verifier-weak", "failed-verification"),
    ("precondition-in-description", "precondition-in-code"),
    ("history-text-only", "get-time"),
    ("max-tokens-naive", "max-tokens"),
    ("result-untrimmed", "hotel-search"),
];

/// The other half of a pitfall pair, if `id` is in one.
pub fn pair_of(id: &str) -> Option<&'static str> {
    PITFALL_PAIRS.iter().find_map(|&(naive, fixed)| match id {
        _ if id == naive => Some(fixed),
        _ if id == fixed => Some(naive),
        _ => None,
    })
}

/// How long the runtime's clock must have been running (the page open, the
/// process alive) before `builtin` ends with its `expected_status`: a shared
/// deadline counts from the clock's origin, so it only bites a run that
/// starts after the deadline has passed. Zero for every other scenario.
pub fn clock_age_needed_ms(builtin: &BuiltinScenario) -> u64 {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(builtin.json) else {
        return 0;
    };
    let limits = &value["limits"];
    match (
        limits["deadline_scope"].as_str(),
        limits["deadline_ms"].as_u64(),
    ) {
        (Some("shared"), Some(deadline_ms)) => deadline_ms + 500,
        _ => 0,
    }
}

pub fn find(id: &str) -> Option<&'static BuiltinScenario> {
    BUILTIN.iter().find(|s| s.id == id)
}
