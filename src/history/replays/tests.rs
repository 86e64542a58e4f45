//! The replay model of the run in view, driven through its messages.

use harness::event::Status;

use super::*;
use crate::history::model::tests::{record, scenario_text};

fn replay_msg(run: u64) -> ReplayMsg {
    ReplayMsg::Replay {
        run,
        record: record(Status::Done),
        text: scenario_text(),
    }
}

fn passed() -> ReplayView {
    ReplayView {
        passed: true,
        summary: "Replay passed".into(),
        rows: Vec::new(),
    }
}

/// A replay of run 2 that ended with `outcome` while run 2 was in view.
fn replayed(outcome: ReplayOutcome) -> ReplayModel {
    let mut model = ReplayModel::default();
    model.update(replay_msg(2));
    model.update(ReplayMsg::Replayed {
        run: 2,
        now_run: 2,
        outcome,
    });
    model
}

// Replaying the run in view.

#[test]
fn a_replay_is_under_way_until_its_verdict_comes() {
    let mut model = ReplayModel::default();
    model.update(replay_msg(2));
    assert!(model.replaying());
    model.update(ReplayMsg::Replayed {
        run: 2,
        now_run: 2,
        outcome: ReplayOutcome::Done(passed()),
    });
    assert!(!model.replaying());
    assert_eq!(model.verdict(2), Some(&Ok(passed())));
}

#[test]
fn a_replay_asks_for_the_run_in_view_against_the_editors_text() {
    let mut model = ReplayModel::default();
    let cmds = model.update(replay_msg(7));
    assert!(
        matches!(&cmds[..], [ReplayCmd { run: 7, record, text, .. }] if record.events.len() == 1 && *text == scenario_text())
    );
}

#[test]
fn a_verdict_about_a_run_no_longer_in_view_is_dropped() {
    let mut model = ReplayModel::default();
    model.update(replay_msg(2));
    model.update(ReplayMsg::Replayed {
        run: 2,
        now_run: 3,
        outcome: ReplayOutcome::CannotRun(vec!["x".into()]),
    });
    assert!(!model.replaying(), "the button is free again");
    assert_eq!(model.verdict(2), None);
    assert_eq!(model.verdict(3), None);
}

#[test]
fn a_late_verdict_leaves_the_verdict_of_the_run_in_view_alone() {
    let mut model = replayed(ReplayOutcome::Done(passed()));
    model.update(replay_msg(1));
    model.update(ReplayMsg::Replayed {
        run: 1,
        now_run: 2,
        outcome: ReplayOutcome::CannotRun(vec!["x".into()]),
    });
    assert_eq!(model.verdict(2), Some(&Ok(passed())));
}

#[test]
fn a_verdict_shows_only_while_its_run_is_in_view() {
    let model = replayed(ReplayOutcome::CannotRun(vec!["x".into()]));
    assert!(model.verdict(2).is_some());
    assert_eq!(model.verdict(5), None);
}

#[test]
fn a_newer_verdict_replaces_the_older_one() {
    let mut model = replayed(ReplayOutcome::CannotRun(vec!["x".into()]));
    model.update(replay_msg(2));
    model.update(ReplayMsg::Replayed {
        run: 2,
        now_run: 2,
        outcome: ReplayOutcome::Done(passed()),
    });
    assert_eq!(model.verdict(2), Some(&Ok(passed())));
}

#[test]
fn a_scenario_that_does_not_load_is_the_replays_answer() {
    let model = replayed(ReplayOutcome::DoesNotLoad(vec!["a".into(), "b".into()]));
    assert_eq!(
        model.verdict(2),
        Some(&Err("The scenario in the editor does not load: a; b".into()))
    );
}

#[test]
fn servers_out_of_reach_are_the_replays_answer() {
    let model = replayed(ReplayOutcome::McpUnreachable(vec!["refused".into()]));
    assert_eq!(
        model.verdict(2),
        Some(&Err("The MCP servers could not be reached: refused".into()))
    );
}

#[test]
fn a_scenario_that_cannot_run_is_the_replays_answer() {
    let model = replayed(ReplayOutcome::CannotRun(vec!["no tools".into()]));
    assert_eq!(
        model.verdict(2),
        Some(&Err(
            "The scenario in the editor cannot run: no tools".into()
        ))
    );
}

#[test]
fn the_replay_calls_the_servers_again_only_when_asked() {
    let mut model = ReplayModel::default();
    let ask = |model: &mut ReplayModel| {
        let cmds = model.update(replay_msg(1));
        matches!(cmds[..], [ReplayCmd { call_mcp: true, .. }])
    };
    assert!(!ask(&mut model));
    model.update(ReplayMsg::SetCallMcp(true));
    assert!(model.call_mcp(), "the box shows ticked");
    assert!(ask(&mut model));
    model.update(ReplayMsg::SetCallMcp(false));
    assert!(!ask(&mut model));
}
