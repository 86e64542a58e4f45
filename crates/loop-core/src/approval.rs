//! Human approval of risky tool calls: policies, decisions, and the `Approver`
//! a driver asks when a run waits on a decision.
//!
//! Approval is a per-call decision recorded in the trace, never an environment
//! flag (seed 000's `APPROVE_WRITES=yes`).

use futures::future::LocalBoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalPolicy {
    /// Ask the approver (the buttons in the UI) for each call that needs it.
    #[default]
    Ask,
    ApproveAll,
    /// Every call that needs approval is refused and the run ends `blocked`.
    DenyAll,
}

impl ApprovalPolicy {
    pub const ALL: [ApprovalPolicy; 3] = [
        ApprovalPolicy::Ask,
        ApprovalPolicy::ApproveAll,
        ApprovalPolicy::DenyAll,
    ];

    /// The snake_case name used in scenario files, traces, the CLI and the page.
    pub fn as_str(self) -> &'static str {
        match self {
            ApprovalPolicy::Ask => "ask",
            ApprovalPolicy::ApproveAll => "approve_all",
            ApprovalPolicy::DenyAll => "deny_all",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    Approve,
    /// Run the call with these arguments instead; they are validated again.
    ApproveEdited(Value),
    /// Refuse this call; the model sees "denied by the user: <reason>" and the loop goes on.
    Deny {
        reason: Option<String>,
    },
    /// Refuse and end the run `blocked`.
    DenyAndStop {
        reason: Option<String>,
    },
    /// Approve this call and every later call of the same tool in this run.
    AlwaysAllow,
}

impl Decision {
    pub fn kind(&self) -> DecisionKind {
        match self {
            Decision::Approve => DecisionKind::Approve,
            Decision::ApproveEdited(_) => DecisionKind::ApproveEdited,
            Decision::Deny { .. } => DecisionKind::Deny,
            Decision::DenyAndStop { .. } => DecisionKind::DenyAndStop,
            Decision::AlwaysAllow => DecisionKind::AlwaysAllow,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    Approve,
    ApproveEdited,
    Deny,
    DenyAndStop,
    AlwaysAllow,
}

impl DecisionKind {
    pub const ALL: [DecisionKind; 5] = [
        DecisionKind::Approve,
        DecisionKind::ApproveEdited,
        DecisionKind::Deny,
        DecisionKind::DenyAndStop,
        DecisionKind::AlwaysAllow,
    ];

    /// The snake_case name used in traces, the CLI and the page.
    pub fn as_str(self) -> &'static str {
        match self {
            DecisionKind::Approve => "approve",
            DecisionKind::ApproveEdited => "approve_edited",
            DecisionKind::Deny => "deny",
            DecisionKind::DenyAndStop => "deny_and_stop",
            DecisionKind::AlwaysAllow => "always_allow",
        }
    }

    /// True when the call was refused (whether or not the run goes on).
    pub fn is_denial(self) -> bool {
        matches!(self, DecisionKind::Deny | DecisionKind::DenyAndStop)
    }
}

/// Who made a decision, as the trace shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decider {
    User,
    /// The scenario's `approval` policy (`approve_all` / `deny_all`).
    Policy,
    /// An earlier "always allow this tool" decision in this run.
    AlwaysAllow,
    /// A choice a person made for every request before the run began (the
    /// Compare panel's "Approval requests in these runs"), not an answer to
    /// this call: nobody saw the request.
    Setting,
}

impl Decider {
    pub const ALL: [Decider; 4] = [
        Decider::User,
        Decider::Policy,
        Decider::AlwaysAllow,
        Decider::Setting,
    ];

    /// The snake_case name used in traces, the CLI and the page.
    pub fn as_str(self) -> &'static str {
        match self {
            Decider::User => "user",
            Decider::Policy => "policy",
            Decider::AlwaysAllow => "always_allow",
            Decider::Setting => "setting",
        }
    }
}

/// A call waiting for a decision.
#[derive(Clone, Debug, PartialEq)]
pub struct ApprovalRequest {
    pub call_id: String,
    pub tool: String,
    pub args: Value,
    pub turn: u32,
    /// Why the approver's last edit of the arguments was refused, if it was.
    pub edit_error: Option<String>,
}

pub trait Approver {
    /// Resolves when a decision is made. The driver races it against the
    /// deadline and cancellation, so an approver may wait for a human.
    fn decide<'a>(&'a self, request: &'a ApprovalRequest) -> LocalBoxFuture<'a, Decision>;

    /// Who the trace names for the answer to `request`, asked before
    /// `decide`: a person, unless the answer was fixed before the run.
    fn decider(&self, _request: &ApprovalRequest) -> Decider {
        Decider::User
    }
}

/// Answers every request with the same decision (the CLI's `--approve`).
pub struct FixedApprover(pub Decision);

impl Approver for FixedApprover {
    fn decide<'a>(&'a self, _request: &'a ApprovalRequest) -> LocalBoxFuture<'a, Decision> {
        let decision = self.0.clone();
        Box::pin(async move { decision })
    }
}
