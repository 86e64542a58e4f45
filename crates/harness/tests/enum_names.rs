//! The names the CLI and the page print for the harness's enums are the
//! names the JSON trace gives them: `as_str()` equals the serde name for
//! every variant, so the two can never drift apart.
//!
//! Each test lists the variants through an exhaustive `match` with no
//! wildcard, so a new variant does not compile here until it is tested.

use harness::approval::{ApprovalPolicy, Decider, DecisionKind};
use harness::event::{Status, Validation};
use serde::Serialize;

/// The name serde gives a unit variant (a JSON string).
fn serde_name<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value).expect("serialises") {
        serde_json::Value::String(name) => name,
        other => panic!("not a plain name: {other}"),
    }
}

#[test]
fn status_names_are_the_trace_names() {
    for status in Status::ALL {
        // Every variant is in `ALL`: this match has no wildcard.
        match status {
            Status::Done
            | Status::FailedVerification
            | Status::TurnLimit
            | Status::CostLimit
            | Status::TokenLimit
            | Status::ToolCallLimit
            | Status::Deadline
            | Status::RepeatedCall
            | Status::Blocked
            | Status::MaxTokens
            | Status::Refusal
            | Status::ModelError
            | Status::Cancelled
            | Status::ContextLimit => {}
        }
        assert_eq!(status.as_str(), serde_name(&status));
        assert_eq!(status.to_string(), serde_name(&status));
    }
    assert_eq!(Status::ALL.len(), 14);
}

#[test]
fn context_strategy_names_are_the_file_names() {
    use harness::context::Strategy;
    for strategy in [
        Strategy::None,
        Strategy::ClearToolResults,
        Strategy::DropOldestTurns,
        Strategy::Compact,
    ] {
        assert_eq!(strategy.as_str(), serde_name(&strategy));
    }
}

#[test]
fn approval_policy_names_are_the_file_names() {
    for policy in ApprovalPolicy::ALL {
        match policy {
            ApprovalPolicy::Ask | ApprovalPolicy::ApproveAll | ApprovalPolicy::DenyAll => {}
        }
        assert_eq!(policy.as_str(), serde_name(&policy));
    }
    assert_eq!(
        ApprovalPolicy::ALL.map(ApprovalPolicy::as_str),
        ["ask", "approve_all", "deny_all"]
    );
}

#[test]
fn decision_names_are_the_trace_names_and_only_denials_deny() {
    for decision in DecisionKind::ALL {
        let denial = match decision {
            DecisionKind::Approve | DecisionKind::ApproveEdited | DecisionKind::AlwaysAllow => {
                false
            }
            DecisionKind::Deny | DecisionKind::DenyAndStop => true,
        };
        assert_eq!(decision.as_str(), serde_name(&decision));
        assert_eq!(decision.is_denial(), denial, "{decision:?}");
    }
    assert_eq!(
        DecisionKind::ALL.map(DecisionKind::as_str),
        [
            "approve",
            "approve_edited",
            "deny",
            "deny_and_stop",
            "always_allow"
        ]
    );
}

#[test]
fn decider_names_are_the_trace_names() {
    for by in Decider::ALL {
        match by {
            Decider::User | Decider::Policy | Decider::AlwaysAllow | Decider::Setting => {}
        }
        assert_eq!(by.as_str(), serde_name(&by));
    }
    assert_eq!(
        Decider::ALL.map(Decider::as_str),
        ["user", "policy", "always_allow", "setting"]
    );
}

#[test]
fn validation_names_are_the_trace_outcomes() {
    let every = [
        Validation::Valid,
        Validation::UnknownTool {
            available: vec!["get_time".into()],
        },
        Validation::UnparseableArguments {
            message: "expected value at line 1 column 1".into(),
        },
        Validation::SchemaViolation {
            errors: vec!["/n: expected an integer, found a string".into()],
        },
    ];
    for validation in &every {
        match validation {
            Validation::Valid
            | Validation::UnknownTool { .. }
            | Validation::UnparseableArguments { .. }
            | Validation::SchemaViolation { .. } => {}
        }
        let trace = serde_json::to_value(validation).expect("serialises");
        assert_eq!(Some(validation.as_str()), trace["outcome"].as_str());
    }
    assert_eq!(
        every.each_ref().map(Validation::as_str),
        [
            "valid",
            "unknown_tool",
            "unparseable_arguments",
            "schema_violation"
        ]
    );
}
