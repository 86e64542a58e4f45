//! The conversation view's pairing on every built-in: each request a run
//! sent, laid out as the provider sees it. Runs that keep the protocol pair
//! every call with one result in the next message; the protocol lessons
//! show the break they teach, and only that one.

mod common;

use harness::library::{self, BUILTIN};
use harness::pairing::{conversation, LinkState};
use harness::wire::replayed_requests;

/// Every link state in every request of built-in `id`'s run, with its turn.
async fn link_states(id: &str) -> Vec<(u32, String, LinkState)> {
    let (_, events) = common::run_builtin(library::find(id).unwrap()).await;
    replayed_requests(&events)
        .into_iter()
        .filter(|r| r.attempt == 1)
        .flat_map(|r| {
            conversation(&r.messages)
                .links
                .into_iter()
                .map(move |l| (r.turn, l.id, l.state))
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn every_call_of_every_rule_keeping_built_in_is_paired() {
    let mut linked = 0;
    // The protocol lessons and the naive context window break pairing on purpose.
    let breaks = |id: &str| id.starts_with("protocol-") || id == "context-drop-naive";
    for builtin in BUILTIN.iter().filter(|b| !breaks(b.id)) {
        for (turn, id, state) in link_states(builtin.id).await {
            assert_eq!(
                state,
                LinkState::Paired,
                "{}: turn {turn}, {id}",
                builtin.id
            );
            linked += 1;
        }
    }
    // Not vacuous: the built-ins call tools.
    assert!(linked > 20, "only {linked} links");
}

#[tokio::test(start_paused = true)]
async fn the_naive_context_window_leaves_one_result_without_its_call() {
    let broken: Vec<(u32, String, LinkState)> = link_states("context-drop-naive")
        .await
        .into_iter()
        .filter(|(_, _, state)| *state != LinkState::Paired)
        .collect();
    assert_eq!(
        broken,
        [(4, "toolu_0002".to_string(), LinkState::NoCall)],
        "turn 2's result stays after its call was dropped"
    );
}

/// The broken links of `id`'s turn 2 request, as (id, state).
async fn broken_at_turn_2(id: &str) -> Vec<(String, LinkState)> {
    link_states(id)
        .await
        .into_iter()
        .filter(|(turn, _, state)| *turn == 2 && state.is_broken())
        .map(|(_, id, state)| (id, state))
        .collect()
}

#[tokio::test(start_paused = true)]
async fn duplicate_ids_draw_one_link_with_two_calls() {
    let broken = broken_at_turn_2("protocol-duplicate-ids").await;
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert_eq!(broken[0].1, LinkState::DuplicateId);
}

#[tokio::test(start_paused = true)]
async fn invented_result_ids_leave_the_call_unanswered_and_the_result_callless() {
    let broken = broken_at_turn_2("protocol-invented-result-ids").await;
    let states: Vec<LinkState> = broken.iter().map(|b| b.1).collect();
    assert!(states.contains(&LinkState::Unanswered), "{broken:?}");
    assert!(states.contains(&LinkState::NoCall), "{broken:?}");
}

#[tokio::test(start_paused = true)]
async fn text_before_results_breaks_order_not_pairing() {
    // The checker reports the order; the pairs themselves are whole.
    assert_eq!(broken_at_turn_2("protocol-text-before-results").await, []);
    assert!(!link_states("protocol-text-before-results").await.is_empty());
}
