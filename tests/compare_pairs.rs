//! Every pair of built-ins (`harness::library::pairs`), run natively as the
//! page runs them (tokio's paused clock, every approval approved, the clock
//! aged and Stop pressed where a lesson asks), then compared step by step:
//! the rows align steps, not events, and the first divergence names the
//! call that differs.

#![cfg(not(target_arch = "wasm32"))]
// A test runs the engine directly; the split rule (clippy.toml) is about
// the web app's first paint.
#![allow(clippy::disallowed_methods)]

use std::cell::RefCell;
use std::rc::Rc;

use agent_loop_playground::compare::{self, Place, Row, Side, StepKey, StepKind};
use agent_loop_playground::run::turn_view::EventType;
use harness::approval::{Decision, FixedApprover};
use harness::cancel::CancelToken;
use harness::event::RunEvent;
use harness::library::{self, Pair};
use harness::replay::Record;
use harness::runtime::TokioRuntime;
use harness::scenario::Scenario;
use harness::RunOptions;

async fn run_builtin(id: &str) -> Vec<RunEvent> {
    let builtin = library::find(id).unwrap();
    let scenario = Scenario::load(builtin.json()).unwrap_or_else(|_| panic!("{id} loads"));
    let runtime = Rc::new(TokioRuntime::default());
    tokio::time::sleep(std::time::Duration::from_millis(
        library::clock_age_needed_ms(builtin),
    ))
    .await;
    let cancel = CancelToken::default();
    let stop = cancel.cancel_after(runtime.as_ref(), builtin.stop_pressed_after_ms());
    let events = Rc::new(RefCell::new(Vec::new()));
    let sink = events.clone();
    let approver = FixedApprover(Decision::Approve);
    let mut on_event = |event: &RunEvent| sink.borrow_mut().push(event.clone());
    let run = harness::run_scenario(
        &scenario,
        runtime,
        RunOptions {
            approver: Some(&approver),
            cancel,
            ..RunOptions::default()
        },
        &mut on_event,
    );
    let (outcome, ()) = futures::join!(run, stop);
    outcome.expect("the scenario builds");
    events.take()
}

/// A pair's two runs, as the panel's "Run the pair side by side" labels them.
async fn compared(pair: Pair) -> (Side, Side) {
    let (a_label, b_label) = pair.labels();
    let record = |events| Record {
        scenario: None,
        events,
        forked_at: None,
    };
    (
        Side::new(a_label, record(run_builtin(pair.a).await)),
        Side::new(b_label, record(run_builtin(pair.b).await)),
    )
}

fn column(rows: &[Row], side: usize) -> impl Iterator<Item = &compare::StepCell> {
    rows.iter().filter_map(move |r| {
        if side == 0 {
            r.left.as_ref()
        } else {
            r.right.as_ref()
        }
    })
}

#[tokio::test(start_paused = true)]
async fn every_pair_is_aligned_step_by_step_and_parts_at_a_named_step() {
    for pair in library::pairs() {
        let (a, b) = compared(pair).await;
        let rows = compare::rows(a.events(), b.events());
        // Each run's events are in its own column once, in trace order.
        for (side, run) in [(0, &a), (1, &b)] {
            let seqs: Vec<u64> = column(&rows, side)
                .flat_map(|c| c.events.iter().map(|e| e.seq))
                .collect();
            let mut in_order = run.events().iter().map(|e| e.seq).collect::<Vec<_>>();
            in_order.sort_unstable();
            let mut shown = seqs.clone();
            shown.sort_unstable();
            assert_eq!(shown, in_order, "{}: column {side}", pair.a);
        }
        // Rows follow the runs: the start, turn by turn, the end.
        assert!(rows.windows(2).all(|w| w[0].key < w[1].key), "{}", pair.a);
        assert_eq!(rows[0].key, StepKey::Start);
        assert_eq!(rows.last().unwrap().key, StepKey::End);
        // A step is one thing the agent did: approvals and results sit in
        // their call's step, never in a row of their own.
        for cell in column(&rows, 0).chain(column(&rows, 1)) {
            // A context strategy's edit opens the model call it made room for.
            let first = cell
                .events
                .iter()
                .map(|e| e.kind)
                .find(|kind| *kind != EventType::ContextEdited)
                .expect("a step holds more than a context edit");
            let expected = match cell.kind {
                StepKind::Start => EventType::RunStarted,
                StepKind::ModelCall => EventType::ModelRequest,
                StepKind::ToolCall => EventType::ToolCall,
                StepKind::End => EventType::RunFinished,
            };
            assert_eq!(first, expected, "{}: {cell:?}", pair.a);
        }
        // Every pair parts somewhere, and the summary says where, but one:
        // history-text-only's lesson is in the requests it sends (thinking
        // dropped, seen in the Wire view); the agent does the same things.
        let summary = compare::summary(&a, &b);
        let Some(at) = rows.iter().position(|r| r.place == Place::Divergence) else {
            assert_eq!(
                pair.a, "history-text-only",
                "{} and {} do not part",
                pair.a, pair.b
            );
            assert!(
                summary.ends_with("made no difference to what the agent did."),
                "{summary}"
            );
            continue;
        };
        assert!(rows[..at].iter().all(|r| r.place == Place::Same));
        assert!(
            summary.starts_with(&format!("The runs part at step {}. ", at + 1)),
            "{summary}"
        );
        assert!(
            summary.contains(&a.label) && summary.contains(&b.label),
            "{summary}"
        );
        // A divergence at a call names the call.
        let row = &rows[at];
        for cell in [&row.left, &row.right].into_iter().flatten() {
            if cell.kind == StepKind::ToolCall {
                let title = &cell.events[0].title;
                let name = title.split_whitespace().find(|w| summary.contains(*w));
                assert!(name.is_some(), "{summary} does not name {title}");
            }
        }
    }
}

#[tokio::test(start_paused = true)]
async fn the_precondition_pair_parts_at_the_refund_not_at_an_approval() {
    let pair = library::pair_containing("precondition-in-code").unwrap();
    let (a, b) = compared(pair).await;
    let rows = compare::rows(a.events(), b.events());
    let row = rows.iter().find(|r| r.place == Place::Divergence).unwrap();
    assert!(
        matches!(row.key, StepKey::Turn { position: 1.., .. }),
        "{:?}",
        row.key
    );
    for cell in [&row.left, &row.right] {
        let cell = cell.as_ref().expect("both runs made the call");
        assert_eq!(cell.kind, StepKind::ToolCall);
        assert!(cell.events[0].title.contains("issue_refund"), "{cell:?}");
    }
    let summary = compare::summary(&a, &b);
    assert!(
        summary.contains("both naive: precondition-in-description and fixed: precondition-in-code called issue_refund with order_id \"ord_a1b2c3d4e5\""),
        "{summary}"
    );
}

/// The repeat pair hangs on `" Paris "` being `"Paris"` with spaces: the
/// summary quotes the call as the model sent it, and a refused call as not
/// run, not as a tool that failed.
#[tokio::test(start_paused = true)]
async fn the_repeat_pair_quotes_the_call_as_sent() {
    let pair = library::pair_containing("repeated-call-naive").unwrap();
    let (a, b) = compared(pair).await;
    let summary = compare::summary(&a, &b);
    assert!(
        summary.contains("called search_hotels with check_in \"2027-05-01\", place \" Paris \""),
        "{summary}"
    );
    assert!(
        summary.contains("it was not run (search_hotels"),
        "{summary}"
    );
    assert!(!summary.contains("failed: not run"), "{summary}");
}

#[tokio::test(start_paused = true)]
async fn each_schema_pair_says_its_lesson_call_in_plain_words() {
    let expected = [
        ("rules-with-example", "In turn 1, A: rules-with-example called get_order with order_id \"A1001\"; B: rules-without-example with order_id \"ORD-1001\"."),
        ("schema-place-enum", "In turn 1, A: schema-place-enum called search_hotels with place \"Lisbon\", check_in \"2027-03-14\", nights 2; B: schema-place-free-string with place \"find me a room in lisbon from 2027-03-14…\", check_in \"2027-03-14\", nights 2."),
        ("schema-nights-required", "In turn 1, A: schema-nights-required called search_hotels with place \"Lisbon\", check_in \"2027-03-14\", nights 5; B: schema-nights-default with place \"Lisbon\", check_in \"2027-03-14\", nights 2."),
        ("schema-name-order-id", "In turn 2, A: schema-name-order-id called open_return with order_id \"A1001\"; B: schema-name-vague-id with id \"C-4821\"."),
        ("schema-precondition-stated", "In turn 2, A: schema-precondition-stated called check_refund_policy with order_id \"A1001\"; B: schema-precondition-unstated called refund_order with order_id \"A1001\"."),
        ("schema-example-accurate", "In turn 1, A: schema-example-accurate called get_order with order_id \"A1001\"; B: schema-example-misleading with order_id \"1001\"."),
        ("schema-tools-distinct", "In turn 2, A: schema-tools-distinct called get_hotel_detail with hotel_id \"h_lis_01\"; B: schema-tools-overlapping answered \"Done. search_hotels returned:"),
    ];
    assert_eq!(expected.len(), library::SCHEMA_PAIRS.len());
    for (a_id, words) in expected {
        let pair = library::pair_containing(a_id).unwrap();
        assert_eq!(pair.a, a_id);
        let (a, b) = compared(pair).await;
        let summary = compare::summary(&a, &b);
        assert!(
            summary.contains(words),
            "{a_id}:\n  {summary}\n  wanted: {words}"
        );
    }
}

/// Repeated runs are counted by the tools each called and how it ended: the
/// table a provider comparison shows ("how often did B call the wrong tool").
#[tokio::test(start_paused = true)]
async fn repeated_runs_are_counted_by_their_tools_and_status() {
    use agent_loop_playground::compare::repeats::{tool_sequence, ways};
    let side = |events| {
        Side::new(
            "x",
            Record {
                scenario: None,
                events,
                forked_at: None,
            },
        )
    };
    let stated = side(run_builtin("schema-precondition-stated").await);
    let unstated = side(run_builtin("schema-precondition-unstated").await);
    assert_eq!(
        tool_sequence(stated.events()),
        "get_order → check_refund_policy → refund_order"
    );
    assert_eq!(tool_sequence(unstated.events()), "get_order → refund_order");
    let ways = ways(
        &[stated.clone(), stated.clone(), unstated.clone()],
        &[unstated.clone(), unstated],
    );
    assert_eq!(ways.len(), 2, "{ways:?}");
    assert_eq!(
        (ways[0].a, ways[0].b, ways[0].status.as_str()),
        (1, 2, "failed_verification")
    );
    assert_eq!(
        (ways[1].a, ways[1].b, ways[1].status.as_str()),
        (2, 0, "done")
    );
}

/// B's form marks where a pair's B differs from its A: every pair that
/// differs has a field so marked, or a part the form has no field for
/// named beside it; a copy is marked nowhere.
#[test]
fn every_pair_marks_the_fields_where_b_differs_from_a() {
    use agent_loop_playground::compare::{change, fields};
    let json = |id: &str| -> serde_json::Value {
        serde_json::from_str(library::find(id).unwrap().json()).unwrap()
    };
    for pair in library::pairs() {
        let (a, b) = (json(pair.a), json(pair.b));
        let marked = fields::differing_fields(&a, &b);
        let changes = change::between(&a, &b);
        if changes.is_empty() {
            assert!(marked.is_empty(), "{}: {marked:?}", pair.a);
            continue;
        }
        let outside = fields::differing_outside_form(&a, &b);
        assert!(
            !marked.is_empty() || !outside.is_empty(),
            "{} ⇄ {}: nothing marked or named for {changes:?}",
            pair.a,
            pair.b
        );
        // B's copy of itself is marked nowhere.
        assert!(fields::differing_fields(&b, &b).is_empty(), "{}", pair.b);
    }
}
