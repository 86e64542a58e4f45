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
    scenario!("Protocol", "protocol-duplicate-ids", "done"),
    scenario!("Tool-schema effects", "rules-with-example", "done"),
    scenario!(
        "Tool-schema effects",
        "rules-without-example",
        "failed_verification"
    ),
];

pub fn find(id: &str) -> Option<&'static BuiltinScenario> {
    BUILTIN.iter().find(|s| s.id == id)
}
