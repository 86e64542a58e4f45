//! Forks: continue a recorded run from a chosen step under an edited
//! scenario; the steps before it are the parent's, untouched.

mod common;

use std::rc::Rc;

use common::{load, run_with, tool_results, QueueApprover};
use harness::approval::Decision;
use harness::event::{EventKind, Status};
use harness::fork::{first_divergence, fork, fork_points};
use harness::replay::Record;
use harness::runtime::TokioRuntime;
use serde_json::{json, Value};

async fn record(json: &str) -> Record {
    let scenario = load(json);
    let approver = QueueApprover::new(vec![Decision::Approve; 4]);
    let (_, events) = run_with(&scenario, Some(&approver)).await;
    Record {
        scenario: Some(scenario),
        events,
        forked_at: None,
    }
}

fn edited(record: &Record, edit: impl FnOnce(&mut Value)) -> harness::scenario::Scenario {
    let mut value = serde_json::to_value(record.scenario.as_ref().unwrap()).unwrap();
    edit(&mut value);
    harness::scenario::Scenario::from_value(value).unwrap()
}

/// A fork on tokio's clock with no approver, whose events nobody watches.
async fn fork_quietly(
    parent: &Record,
    at: u64,
    scenario: &harness::scenario::Scenario,
) -> Result<Record, harness::error::ForkError> {
    fork(
        parent,
        at,
        scenario,
        Rc::new(TokioRuntime::default()),
        Default::default(),
        &mut |_| {},
    )
    .await
}

fn seq_of(record: &Record, label: &str) -> u64 {
    fork_points(&record.events)
        .into_iter()
        .find(|p| p.label == label)
        .unwrap_or_else(|| panic!("no fork point {label:?}: {:?}", fork_points(&record.events)))
        .seq
}

#[tokio::test(start_paused = true)]
async fn a_fork_keeps_the_steps_before_it_and_continues_under_the_edit() {
    let parent = record(harness::library::find("refund-policy").unwrap().json()).await;
    let at = seq_of(&parent, "before turn 3");
    let scenario = edited(&parent, |s| s["limits"]["max_turns"] = json!(2));
    let mut live = Vec::new();
    let child = fork(
        &parent,
        at,
        &scenario,
        Rc::new(TokioRuntime::default()),
        Default::default(),
        &mut |e| live.push(e.clone()),
    )
    .await
    .unwrap();
    let at = at as usize;
    assert_eq!(
        child.events[..at],
        parent.events[..at],
        "the earlier steps are untouched"
    );
    assert_eq!(child.forked_at, Some(at as u64));
    assert_eq!(
        live.len(),
        child.events.len() - at,
        "only new events are emitted"
    );
    assert_eq!(child.events[at].seq, at as u64, "sequence numbers continue");
    let outcome = match &child.events.last().unwrap().kind {
        EventKind::RunFinished(outcome) => outcome.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(outcome.status, Status::TurnLimit);
    assert_eq!(outcome.turns, 2);
    assert_eq!(outcome.tool_calls, 2, "counters carry over from the parent");
    let divergence = first_divergence(&parent.events, &child.events).unwrap();
    assert_eq!(divergence.index, at);
    assert_eq!(
        divergence.left.as_deref(),
        Some("model_request turn=3 attempt=1")
    );
    assert_eq!(
        divergence.right.as_deref(),
        Some("run_finished turn_limit turns=2 tool_calls=2")
    );
}

#[tokio::test(start_paused = true)]
async fn a_fork_remembers_the_arguments_an_approval_edited() {
    // The parent's refund was approved with another order: a fork from the
    // turn after it checks, as the parent did, the order that was refunded.
    let scenario = load(
        harness::library::find("refund-with-approval")
            .unwrap()
            .json(),
    );
    let edited_order = Decision::ApproveEdited(json!({"order_id": "ord_k1l2m3n4o5"}));
    let approver = QueueApprover::new(vec![edited_order]);
    let (outcome, events) = run_with(&scenario, Some(&approver)).await;
    assert_eq!(outcome.status, Status::FailedVerification);
    let parent = Record {
        scenario: Some(scenario.clone()),
        events,
        forked_at: None,
    };
    let at = seq_of(&parent, "before turn 3");
    let child = fork_quietly(&parent, at, &scenario).await.unwrap();
    let ended = child.outcome().expect("the fork ended");
    assert_eq!(ended.status, Status::FailedVerification);
    assert_eq!(ended.reason, outcome.reason);
    assert!(
        outcome
            .reason
            .contains("order_id \"ord_k1l2m3n4o5\" (wanted \"ord_f6g7h8i9j0\")"),
        "{}",
        outcome.reason
    );
}

#[tokio::test(start_paused = true)]
async fn a_fork_continues_the_script_and_the_tools_remember_earlier_writes() {
    let parent = record(
        &json!({"name": "refund", "task": "refund ord_f6g7h8i9j0", "tools": ["issue_refund"], "approval": "approve_all",
            "model": {"type": "scripted", "responses": [
                {"tool_calls": [{"name": "issue_refund", "args": {"order_id": "ord_f6g7h8i9j0"}}]},
                {"text": "Refunded."}
            ]}})
        .to_string(),
    )
    .await;
    // The edit: the model's second turn now tries the refund again.
    let scenario = edited(&parent, |s| {
        s["model"]["responses"][1] = json!({"tool_calls": [{"name": "issue_refund", "args": {"order_id": "ord_f6g7h8i9j0"}}]});
        s["model"]["responses"]
            .as_array_mut()
            .unwrap()
            .push(json!({"text": "It was already refunded."}));
    });
    let at = seq_of(&parent, "before turn 2");
    let child = fork_quietly(&parent, at, &scenario).await.unwrap();
    let results = tool_results(&child.events);
    assert_eq!(results.len(), 2);
    assert!(!results[0].1, "the parent's refund, copied");
    assert!(
        results[1].1 && results[1].2.contains("already refunded"),
        "the store remembers it: {:?}",
        results[1]
    );
    assert_eq!(harness::wire::history_from_trace(&child.events).len(), 6);
}

#[tokio::test(start_paused = true)]
async fn a_fork_can_start_between_two_calls_of_one_turn() {
    let parent = record(harness::library::find("tool-call-limit").unwrap().json()).await;
    let third = fork_points(&parent.events)
        .into_iter()
        .filter(|p| p.label.starts_with("before tool call check_stock"))
        .nth(2)
        .unwrap();
    let scenario = edited(&parent, |s| s["limits"]["max_tool_calls"] = json!(2));
    let child = fork_quietly(&parent, third.seq, &scenario).await.unwrap();
    let outcome = match &child.events.last().unwrap().kind {
        EventKind::RunFinished(outcome) => outcome.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(outcome.status, Status::ToolCallLimit);
    assert!(
        outcome
            .reason
            .contains("tool call #3 (check_stock) but max_tool_calls is 2"),
        "{}",
        outcome.reason
    );
    // The rest of that turn's calls are answered, so the history stays valid.
    let history = harness::wire::history_from_trace(&child.events);
    assert!(harness::wire::check(harness::wire::Provider::Anthropic, "", &history, &[]).is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_fork_from_a_step_that_is_not_one_says_which_are() {
    let parent = record(harness::library::find("get-time").unwrap().json()).await;
    let scenario = parent.scenario.clone().unwrap();
    let err = fork_quietly(&parent, 0, &scenario).await.unwrap_err();
    assert!(
        matches!(
            &err,
            harness::error::ForkError::NotAForkPoint { seq: 0, .. }
        ),
        "{err:?}"
    );
    assert_eq!(err.fixed_by(), harness::error::FixedBy::TheCaller);
    assert!(
        err.to_string()
            .starts_with("event 0 is not a step to fork from; fork points are: 1 (before turn 1)"),
        "{err}"
    );
    // A fork's record says where it came from, through JSON Lines too.
    let at = seq_of(&parent, "before turn 2");
    let child = fork_quietly(&parent, at, &scenario).await.unwrap();
    let back = Record::from_jsonl(&child.to_jsonl()).unwrap();
    assert_eq!(back.forked_at, Some(at));
    assert_eq!(
        first_divergence(&parent.events[..at as usize], &back.events[..at as usize]),
        None
    );
}

/// The A/B lesson: the same rules model, a tool description with and
/// without an example id. The runs part at the call whose argument the
/// example shaped, and the divergence names both arguments.
#[tokio::test(start_paused = true)]
async fn runs_that_differ_only_in_a_description_part_at_the_call_it_shaped() {
    let with = common::load(harness::library::find("rules-with-example").unwrap().json());
    let without = common::load(
        harness::library::find("rules-without-example")
            .unwrap()
            .json(),
    );
    let (_, left) = common::run_with(&with, None).await;
    let (_, right) = common::run_with(&without, None).await;
    let divergence = first_divergence(&left, &right).expect("the runs differ");
    let (l, r) = (divergence.left.unwrap(), divergence.right.unwrap());
    assert!(l.contains("A1001"), "left: {l}");
    assert!(r.contains("ORD-1001"), "right: {r}");
    // Everything before it is the same step for step.
    for (a, b) in left.iter().zip(&right).take(divergence.index) {
        assert_eq!(harness::fork::step_key(a), harness::fork::step_key(b));
    }
}
