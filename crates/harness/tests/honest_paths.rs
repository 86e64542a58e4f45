//! A scripted model answers what happened to its calls:
//! an entry's `branches` are played by how the most recent call of a tool
//! ended, so a denied refund is never reported as issued. Each built-in with
//! an approval is run on every path a person (or the policy) can take.

mod common;

use common::{load, replay_passing, run_with, tool_results, QueueApprover};
use futures::future::LocalBoxFuture;
use harness::approval::{ApprovalRequest, Approver, Decider, Decision};
use harness::event::{EventKind, Outcome, RunEvent, Status};
use harness::scenario::Scenario;
use serde_json::{json, Value};

fn builtin(id: &str) -> Value {
    serde_json::from_str(harness::library::find(id).unwrap().json()).unwrap()
}

fn with_approval(mut scenario: Value, approval: &str) -> Scenario {
    scenario["approval"] = json!(approval);
    load(&scenario.to_string())
}

async fn run_deciding(scenario: &Scenario, decisions: Vec<Decision>) -> (Outcome, Vec<RunEvent>) {
    let approver = QueueApprover::new(decisions);
    run_with(scenario, Some(&approver)).await
}

fn answer(outcome: &Outcome) -> &str {
    outcome.answer.as_deref().unwrap_or("")
}

fn deny() -> Decision {
    Decision::Deny { reason: None }
}

#[tokio::test(start_paused = true)]
async fn refund_with_approval_approved_reports_the_refund_the_tool_issued() {
    let scenario = load(
        harness::library::find("refund-with-approval")
            .unwrap()
            .json(),
    );
    let (outcome, events) = run_deciding(&scenario, vec![Decision::Approve]).await;
    assert_eq!(outcome.status, Status::Done, "{}", outcome.reason);
    assert_eq!(
        answer(&outcome),
        "Refund issued for ord_f6g7h8i9j0 (refund re_0001, 42.00)."
    );
    let (name, is_error, content) = tool_results(&events).pop().unwrap();
    assert_eq!((name.as_str(), is_error), ("issue_refund", false));
    assert!(content.contains("\"refund_id\":\"re_0001\""), "{content}");
}

#[tokio::test(start_paused = true)]
async fn refund_with_approval_denied_says_no_refund_and_names_no_refund_id() {
    let scenario = load(
        harness::library::find("refund-with-approval")
            .unwrap()
            .json(),
    );
    let (outcome, events) = run_deciding(&scenario, vec![deny()]).await;
    let (_, is_error, content) = tool_results(&events).pop().unwrap();
    assert!(is_error);
    assert_eq!(content, "denied by the user: no reason given");
    assert_eq!(
        answer(&outcome),
        "I did not refund ord_f6g7h8i9j0: the refund was not approved, so no money was returned."
    );
    assert!(!answer(&outcome).contains("issued"));
    assert!(!answer(&outcome).contains("re_"));
    // The verifier agrees the task was not done.
    assert_eq!(outcome.status, Status::FailedVerification);
    assert_eq!(
        outcome.reason,
        "verifier check 2 (tool_called_with \"issue_refund\" {\"order_id\":\"ord_f6g7h8i9j0\"}) failed: issue_refund never ran successfully in this run"
    );
}

/// Answers every request the same way, chosen before the run (as Compare's
/// "Approval requests in these runs" does): nobody sees the call.
struct SettingApprover(Decision);

impl Approver for SettingApprover {
    fn decide<'a>(&'a self, _request: &'a ApprovalRequest) -> LocalBoxFuture<'a, Decision> {
        let decision = self.0.clone();
        Box::pin(async move { decision })
    }

    fn decider(&self, _request: &ApprovalRequest) -> Decider {
        Decider::Setting
    }
}

fn decided_by(events: &[RunEvent]) -> Vec<Decider> {
    events
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::ApprovalDecided { by, .. } => Some(*by),
            _ => None,
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn a_setting_made_before_the_run_is_never_named_the_user() {
    let scenario = load(
        harness::library::find("refund-with-approval")
            .unwrap()
            .json(),
    );
    let approver = SettingApprover(Decision::Deny {
        reason: Some("the setting denies every call".into()),
    });
    let (outcome, events) = run_with(&scenario, Some(&approver)).await;
    assert_eq!(decided_by(&events), [Decider::Setting]);
    let (_, is_error, content) = tool_results(&events).pop().unwrap();
    assert!(is_error);
    // The model is told it was denied, not that a user denied it.
    assert_eq!(content, "denied: the setting denies every call");
    // The scripted model still reads it as a denial.
    assert_eq!(
        answer(&outcome),
        "I did not refund ord_f6g7h8i9j0: the refund was not approved, so no money was returned."
    );
    // A replay answers from the recording and names the same decider.
    let report = replay_passing(&scenario, &events).await;
    assert_eq!(decided_by(&report.events), [Decider::Setting]);
    // An approving setting runs the refund, and is still not "the user".
    let approver = SettingApprover(Decision::Approve);
    let (outcome, events) = run_with(&scenario, Some(&approver)).await;
    assert_eq!(outcome.status, Status::Done, "{}", outcome.reason);
    assert_eq!(decided_by(&events), [Decider::Setting]);
}

#[tokio::test(start_paused = true)]
async fn refund_with_approval_tool_error_says_the_refund_failed() {
    // The approver edits the order to one that was already refunded: the
    // handler refuses it, and the answer says so.
    let scenario = load(
        harness::library::find("refund-with-approval")
            .unwrap()
            .json(),
    );
    let edited = Decision::ApproveEdited(json!({"order_id": "ord_a1b2c3d4e5"}));
    let (outcome, events) = run_deciding(&scenario, vec![edited]).await;
    let (_, is_error, content) = tool_results(&events).pop().unwrap();
    assert!(is_error);
    assert_eq!(
        content,
        "tool error: order ord_a1b2c3d4e5 was already refunded; refusing to refund it twice"
    );
    assert_eq!(
        answer(&outcome),
        "I could not refund ord_f6g7h8i9j0: issue_refund returned an error, so no refund was issued."
    );
    assert_eq!(outcome.status, Status::FailedVerification);
}

#[tokio::test(start_paused = true)]
async fn refund_with_approval_edited_to_another_order_fails_verification() {
    // The person approves, but edits the order: the tool refunds that one,
    // the scripted answer still names the order asked for, and the verifier,
    // which checks the arguments the tool ran with, does not accept it.
    let scenario = load(
        harness::library::find("refund-with-approval")
            .unwrap()
            .json(),
    );
    let edited = Decision::ApproveEdited(json!({"order_id": "ord_k1l2m3n4o5"}));
    let (outcome, events) = run_deciding(&scenario, vec![edited]).await;
    let (_, is_error, content) = tool_results(&events).pop().unwrap();
    assert!(!is_error, "{content}");
    assert!(content.contains("ord_k1l2m3n4o5"), "{content}");
    assert_eq!(
        answer(&outcome),
        "Refund issued for ord_f6g7h8i9j0 (refund re_0001, 42.00)."
    );
    assert_eq!(outcome.status, Status::FailedVerification);
    assert_eq!(
        outcome.reason,
        "verifier check 2 (tool_called_with \"issue_refund\" {\"order_id\":\"ord_f6g7h8i9j0\"}) failed: issue_refund ran, but its last successful run had order_id \"ord_k1l2m3n4o5\" (wanted \"ord_f6g7h8i9j0\")"
    );
}

#[tokio::test(start_paused = true)]
async fn denied_by_policy_ends_blocked_before_any_answer() {
    let scenario = with_approval(builtin("refund-with-approval"), "deny_all");
    let (outcome, events) = run_deciding(&scenario, vec![]).await;
    assert_eq!(outcome.status, Status::Blocked);
    assert_eq!(
        outcome.reason,
        "issue_refund needs approval and the approval policy is deny_all"
    );
    assert_eq!(outcome.answer, None);
    let (_, _, content) = tool_results(&events).pop().unwrap();
    assert_eq!(
        content,
        "denied: issue_refund needs approval and the approval policy is deny_all"
    );
}

/// Every built-in whose script calls a tool that needs approval, run with a
/// person deciding: approved, denied, and approved with arguments that make
/// the tool fail. The answer on each path is pinned; none claims a write that
/// did not happen.
#[tokio::test(start_paused = true)]
async fn every_builtin_with_an_approval_answers_honestly_on_each_path() {
    struct Path {
        scenario: &'static str,
        decision: Decision,
        answer: &'static str,
    }
    let already_refunded = || Decision::ApproveEdited(json!({"order_id": "ord_a1b2c3d4e5"}));
    let paths = [
        Path {
            scenario: "blocked",
            decision: Decision::Approve,
            answer: "Deleted 1204 records.",
        },
        Path {
            scenario: "blocked",
            decision: deny(),
            answer: "I did not delete any records: the deletion was not approved.",
        },
        Path {
            scenario: "precondition-in-code",
            decision: Decision::Approve,
            answer: "ord_a1b2c3d4e5 was already refunded, so no second refund was made.",
        },
        Path {
            scenario: "precondition-in-code",
            decision: deny(),
            answer: "I did not refund ord_a1b2c3d4e5: the refund was not approved.",
        },
        Path {
            scenario: "precondition-in-code",
            decision: Decision::ApproveEdited(json!({"order_id": "ord_f6g7h8i9j0"})),
            answer: "A refund was issued; its id and amount are in the issue_refund result.",
        },
        Path {
            scenario: "refund-env-flag",
            decision: Decision::Approve,
            answer: "Refund issued.",
        },
        Path {
            scenario: "refund-env-flag",
            decision: deny(),
            answer: "No refund was made: the refund was not approved.",
        },
        Path {
            scenario: "refund-env-flag",
            decision: already_refunded(),
            answer: "No refund was made: issue_refund returned an error.",
        },
        Path {
            scenario: "refund-with-approval",
            decision: deny(),
            answer: "I did not refund ord_f6g7h8i9j0: the refund was not approved, so no money was returned.",
        },
        Path {
            scenario: "refund-with-approval",
            decision: already_refunded(),
            answer: "I could not refund ord_f6g7h8i9j0: issue_refund returned an error, so no refund was issued.",
        },
    ];
    for path in paths {
        let label = format!("{} after {:?}", path.scenario, path.decision);
        let scenario = with_approval(builtin(path.scenario), "ask");
        let (outcome, events) = run_deciding(&scenario, vec![path.decision]).await;
        assert_eq!(answer(&outcome), path.answer, "{label}");
        // The write's own result decides whether the answer may claim it.
        let (_, write_failed, _) = tool_results(&events).pop().unwrap();
        if write_failed {
            for claim in ["Deleted", "Refund issued", "A refund was issued"] {
                assert!(!answer(&outcome).contains(claim), "{label}: {claim}");
            }
        }
    }
    // Under their own policies (approve_all, deny_all) the built-ins keep
    // their lessons: blocked ends blocked, the others report the handler.
    for (id, status, said) in [
        ("blocked", Status::Blocked, None),
        (
            "precondition-in-code",
            Status::Done,
            Some("ord_a1b2c3d4e5 was already refunded, so no second refund was made."),
        ),
        ("refund-env-flag", Status::Done, Some("Refund issued.")),
    ] {
        let scenario = load(harness::library::find(id).unwrap().json());
        let (outcome, _) = run_deciding(&scenario, vec![]).await;
        assert_eq!(outcome.status, status, "{id}: {}", outcome.reason);
        assert_eq!(outcome.answer.as_deref(), said, "{id}");
    }
}

/// A small scenario whose last entry branches on `lookup` and `write`.
fn branching(responses: Value) -> Scenario {
    load(
        &json!({
            "name": "branches", "task": "t", "approval": "ask",
            "tools": [
                {"name": "lookup", "result": {"n": 1}},
                {"name": "write", "needs_approval": true, "result": {"ok": true}}
            ],
            "model": {"type": "scripted", "responses": responses}
        })
        .to_string(),
    )
}

#[tokio::test(start_paused = true)]
async fn the_first_branch_whose_conditions_all_hold_is_played() {
    let last = json!({"text": "own fields", "branches": [
        {"when": {"lookup": "not_called", "write": "ok"}, "text": "wrote without looking"},
        {"when": {"write": "ok"}, "text": "looked, then wrote"},
        {"when": {"write": "denied"}, "text": "the write was denied", "tool_calls": [{"name": "lookup"}]}
    ]});
    // Written without a lookup: the first branch, though the second holds too.
    let scenario = branching(json!([{"tool_calls": [{"name": "write"}]}, last.clone()]));
    let (outcome, _) = run_deciding(&scenario, vec![Decision::Approve]).await;
    assert_eq!(answer(&outcome), "wrote without looking");
    // A lookup, then the write.
    let scenario = branching(json!([
        {"tool_calls": [{"name": "lookup"}]},
        {"tool_calls": [{"name": "write"}]},
        last.clone()
    ]));
    let (outcome, _) = run_deciding(&scenario, vec![Decision::Approve]).await;
    assert_eq!(answer(&outcome), "looked, then wrote");
    // A branch is a whole response: this one calls a tool, and the script
    // goes on to its next entry.
    let scenario = branching(json!([
        {"tool_calls": [{"name": "write"}]},
        last,
        {"text": "done after the lookup"}
    ]));
    let (outcome, events) = run_deciding(&scenario, vec![deny()]).await;
    assert_eq!(answer(&outcome), "done after the lookup");
    let names: Vec<String> = tool_results(&events).into_iter().map(|r| r.0).collect();
    assert_eq!(names, ["write", "lookup"]);
}

#[tokio::test(start_paused = true)]
async fn with_no_branch_holding_the_entry_plays_its_own_fields() {
    let scenario = branching(json!([
        {"tool_calls": [{"name": "write"}]},
        {"text": "own fields", "branches": [{"when": {"write": "error"}, "text": "failed"}]}
    ]));
    let (outcome, _) = run_deciding(&scenario, vec![Decision::Approve]).await;
    assert_eq!(answer(&outcome), "own fields");
}

#[tokio::test(start_paused = true)]
async fn only_the_most_recent_call_of_a_tool_counts() {
    // The first write is denied, the second approved: "ok" holds, "denied" no longer does.
    let scenario = branching(json!([
        {"tool_calls": [{"name": "write"}]},
        {"tool_calls": [{"name": "write"}]},
        {"text": "own fields", "branches": [
            {"when": {"write": "denied"}, "text": "denied"},
            {"when": {"write": "ok"}, "text": "the retry went through"}
        ]}
    ]));
    let (outcome, _) = run_deciding(&scenario, vec![deny(), Decision::Approve]).await;
    assert_eq!(answer(&outcome), "the retry went through");
}

fn problems(scenario: Value) -> Vec<String> {
    match Scenario::load(&scenario.to_string()) {
        Ok(_) => vec![],
        Err(problems) => problems.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn a_when_on_an_unknown_tool_is_a_load_problem_with_its_path() {
    let mut scenario = builtin("refund-with-approval");
    scenario["model"]["responses"][2]["branches"][0]["when"] = json!({"issue_refnd": "denied"});
    assert_eq!(
        problems(scenario),
        vec![
            "model.responses[2].branches[0].when.issue_refnd: the scenario has no tool named \"issue_refnd\" (did you mean `issue_refund`?); its tools are: get_order_status, issue_refund"
        ]
    );
    let no_tools = json!({"name": "t", "task": "t", "model": {"type": "scripted", "responses": [
        {"text": "a", "branches": [{"when": {"x": "ok"}, "text": "b"}]}
    ]}});
    assert_eq!(
        problems(no_tools),
        vec!["model.responses[0].branches[0].when.x: the scenario has no tool named \"x\": it has no tools"]
    );
}

#[test]
fn malformed_branches_are_load_problems_with_their_paths() {
    let with_branch = |branch: Value| {
        let mut scenario = builtin("refund-with-approval");
        scenario["model"]["responses"][2]["branches"][0] = branch;
        problems(scenario)
    };
    for (branch, path) in [
        // An outcome that does not exist.
        (
            json!({"when": {"issue_refund": "approved"}, "text": "x"}),
            "model.responses[2].branches[0].when.issue_refund: ",
        ),
        // No condition: it would always hold, hiding the entry's own fields.
        (
            json!({"when": {}, "text": "x"}),
            "model.responses[2].branches[0].when: ",
        ),
        (
            json!({"text": "x"}),
            "model.responses[2].branches[0].when: this required field is missing",
        ),
        // Branches do not nest.
        (
            json!({"when": {"issue_refund": "ok"}, "branches": []}),
            "model.responses[2].branches[0]",
        ),
        // The same rule as a top-level call.
        (
            json!({"when": {"issue_refund": "ok"}, "tool_calls": [{"name": "get_order_status", "args": {}, "args_raw": "{}"}]}),
            "model.responses[2].branches[0].tool_calls[0]: give either \"args\"",
        ),
    ] {
        let found = with_branch(branch.clone());
        assert_eq!(found.len(), 1, "{branch}: {found:?}");
        assert!(found[0].starts_with(path), "{branch}: {found:?}");
    }
}

#[tokio::test(start_paused = true)]
async fn the_rules_model_also_stops_honestly_after_a_denial() {
    // The rules model is not scripted: it reads the denial in the history.
    let scenario = load(
        &json!({
            "name": "rules refund", "task": "Refund order ord_f6g7h8i9j0.", "approval": "ask",
            "tools": ["get_order_status", "issue_refund"], "model": {"type": "rules"}
        })
        .to_string(),
    );
    let (outcome, _) = run_deciding(&scenario, vec![deny()]).await;
    assert_eq!(
        answer(&outcome),
        "I could not finish: issue_refund failed (denied by the user: no reason given). Stopping rather than guessing."
    );
    let (outcome, _) = run_deciding(&scenario, vec![Decision::Approve]).await;
    assert!(
        answer(&outcome).contains("\"refund_id\":\"re_0001\""),
        "{}",
        answer(&outcome)
    );
}
