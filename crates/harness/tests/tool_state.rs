//! The store a built-in tool writes to travels on its `tool_result` (for the
//! page's "Tool state" panel), after every call, refused ones included, and
//! never in what the model receives.

mod common;

use harness::event::{EventKind, RunEvent};
use harness::library;
use serde_json::Value;

fn states(events: &[RunEvent]) -> Vec<(String, bool, Option<Value>)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolResult {
                name,
                is_error,
                state,
                ..
            } => Some((name.clone(), *is_error, state.clone())),
            _ => None,
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn a_refund_shows_the_shop_after_the_policy_check_and_after_the_refund() {
    let scenario = library::find("refund-policy").unwrap();
    let (_, events) = common::run_json(scenario.json()).await;
    let states = states(&events);
    let check = states
        .iter()
        .find(|(name, _, _)| name == "check_refund_policy")
        .expect("the scenario checks the policy");
    let shop = check
        .2
        .as_ref()
        .expect("check_refund_policy reports the shop");
    assert!(
        shop["policy_checked"]
            .as_object()
            .is_some_and(|m| !m.is_empty()),
        "the check is recorded in the store: {shop}"
    );
    // Reads carry no state; only tools that write do.
    assert!(states
        .iter()
        .filter(|(name, _, _)| name == "get_order")
        .all(|(_, _, state)| state.is_none()));
}

#[tokio::test(start_paused = true)]
async fn issue_refund_marks_the_order_refunded_in_the_reported_store() {
    let scenario = library::find("refund-env-flag").unwrap();
    let (_, events) = common::run_json(scenario.json()).await;
    let refunded = common::tool_results(&events)
        .into_iter()
        .find(|(name, is_error, _)| name == "issue_refund" && !is_error)
        .expect("the env-flag scenario refunds without asking");
    let refunded: Value = serde_json::from_str(&refunded.2).unwrap();
    let refund = states(&events)
        .into_iter()
        .find(|(name, is_error, _)| name == "issue_refund" && !is_error)
        .unwrap();
    let orders = refund.2.expect("issue_refund reports the order store");
    let target = orders["orders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["order_id"] == refunded["order_id"])
        .unwrap();
    assert_eq!(target["status"], "refunded");
    assert_eq!(orders["refunds_issued"], 1);
}

#[tokio::test(start_paused = true)]
async fn the_model_receives_the_result_not_the_state() {
    let scenario = library::find("refund-env-flag").unwrap();
    let (_, events) = common::run_json(scenario.json()).await;
    for (name, _, content) in common::tool_results(&events) {
        assert!(
            !content.contains("refunds_issued"),
            "{name}'s store reached the model: {content}"
        );
    }
}

#[test]
fn every_store_has_a_seed_state_and_each_writing_tool_names_its_store() {
    for tool in ["issue_refund", "check_refund_policy", "refund_order"] {
        let store = harness::tools::store_of(tool).unwrap();
        assert!(harness::tools::seed_state(store).is_some(), "{store}");
    }
    assert_eq!(harness::tools::store_of("get_time"), None);
    assert_eq!(
        harness::tools::seed_state("orders").unwrap()["refunds_issued"],
        0
    );
}
