use harness::wire::{Provider, Rule, Violation};

use super::*;

/// Run `run`'s history with `requests` sent, still `running` or not.
fn seen(run: u64, requests: usize, running: bool, now_ms: f64) -> ProtocolMsg {
    ProtocolMsg::Seen {
        in_view: InView {
            run,
            shape: RequestShape::default(),
            requests,
            running,
        },
        now_ms,
    }
}

/// What check `cmd` finds: `turns` each carried a rejection.
fn answer(cmd: &ProtocolCmd, turns: &[u32]) -> ProtocolMsg {
    let ProtocolCmd::Check {
        ask,
        run,
        shape,
        requests,
    } = cmd.clone()
    else {
        panic!("not a check: {cmd:?}");
    };
    ProtocolMsg::Answered {
        ask,
        checked: Checked {
            run,
            shape,
            requests,
            rejections: turns.iter().map(|turn| rejection(*turn)).collect(),
            would_refuse: (!turns.is_empty())
                .then(|| format!("Anthropic Messages would refuse turn {}", turns[0])),
        },
    }
}

fn rejection(turn: u32) -> Rejection {
    Rejection {
        turn,
        violation: Violation {
            provider: Provider::Anthropic,
            rule: Rule::AnthropicDuplicateToolUseId,
            message: String::new(),
            explanation: String::new(),
            path: String::new(),
            place: String::new(),
            message_index: None,
            block_index: None,
        },
        place: None,
    }
}

fn checks(cmds: &[ProtocolCmd]) -> usize {
    cmds.iter()
        .filter(|c| matches!(c, ProtocolCmd::Check { .. }))
        .count()
}

#[test]
fn a_new_request_is_checked_and_its_card_shows_the_rejections_at_its_turn() {
    let mut check = ProtocolCheck::default();
    let cmds = check.update(seen(1, 1, true, 0.0));
    assert_eq!(checks(&cmds), 1, "{cmds:?}");
    check.update(answer(&cmds[0], &[1]));
    assert_eq!(check.checked().at_turn(1).len(), 1);
    assert_eq!(check.checked().at_turn(2), vec![]);
    // While the run goes on, the banner's verdict waits.
    assert_eq!(
        check.checked().banner_verdict(1, true),
        BannerVerdict::Pending
    );
}

#[test]
fn a_slower_older_answer_after_a_newer_one_is_dropped() {
    let mut check = ProtocolCheck::default();
    let first = check.update(seen(1, 1, true, 0.0));
    let second = check.update(seen(1, 2, false, 10.0));
    assert_eq!(checks(&second), 1, "the run's end is checked at once");
    check.update(answer(&second[0], &[]));
    let verdicts = check.verdicts();
    check.update(answer(&first[0], &[1]));
    assert_eq!(
        check.checked().requests,
        2,
        "the older answer replaced the newer"
    );
    assert_eq!(check.verdicts(), verdicts);
    assert_eq!(
        check.checked().banner_verdict(2, false),
        BannerVerdict::Checked(vec![])
    );
}

#[test]
fn a_new_run_clears_what_was_said_and_drops_the_old_runs_answer() {
    let mut check = ProtocolCheck::default();
    let cmds = check.update(seen(1, 1, false, 0.0));
    check.update(answer(&cmds[0], &[1]));
    let in_flight = check.update(seen(1, 1, false, 10.0));
    assert_eq!(in_flight, vec![], "the same history is not checked again");
    let again = {
        // The same run with a new tool list is checked anew.
        check.update(ProtocolMsg::Seen {
            in_view: InView {
                run: 1,
                shape: RequestShape {
                    system: "be brief".into(),
                    ..RequestShape::default()
                },
                requests: 1,
                running: false,
            },
            now_ms: 20.0,
        })
    };
    assert_eq!(checks(&again), 1);
    // Run 2 starts before that answer lands.
    check.update(seen(2, 0, true, 30.0));
    assert_eq!(check.checked(), &Checked::default());
    check.update(answer(&again[0], &[1]));
    assert_eq!(
        check.checked(),
        &Checked::default(),
        "run 1's answer reached run 2"
    );
    assert_eq!(check.checked().at_turn(1), vec![]);
}

#[test]
fn a_streaming_run_is_checked_at_most_once_a_gap_and_what_came_meanwhile_in_one_go() {
    let mut check = ProtocolCheck::default();
    assert_eq!(checks(&check.update(seen(1, 1, true, 0.0))), 1);
    // Three more requests inside the gap: one wait, no check.
    let mut cmds = Vec::new();
    for (requests, at) in [(2, 50.0), (3, 100.0), (4, 150.0)] {
        cmds.extend(check.update(seen(1, requests, true, at)));
    }
    assert_eq!(cmds, vec![ProtocolCmd::Wait { ms: 200 }]);
    // At the end of the gap, the four requests are checked at once.
    let cmds = check.update(ProtocolMsg::WaitOver { now_ms: 250.0 });
    let [ProtocolCmd::Check { requests: 4, .. }] = cmds.as_slice() else {
        panic!("{cmds:?}");
    };
    // A request a gap later is checked at once.
    assert_eq!(checks(&check.update(seen(1, 5, true, 500.0))), 1);
}

#[test]
fn the_end_of_a_run_is_never_put_off_and_a_wait_after_it_checks_nothing() {
    let mut check = ProtocolCheck::default();
    check.update(seen(1, 1, true, 0.0));
    assert_eq!(
        check.update(seen(1, 2, true, 10.0)),
        vec![ProtocolCmd::Wait { ms: 240 }]
    );
    assert_eq!(checks(&check.update(seen(1, 2, false, 20.0))), 1);
    assert_eq!(
        check.update(ProtocolMsg::WaitOver { now_ms: 250.0 }),
        vec![]
    );
}

#[test]
fn a_long_run_is_checked_only_when_it_ends_and_a_longer_one_never() {
    let mut check = ProtocolCheck::default();
    let live = LIVE_UP_TO_REQUESTS;
    assert_eq!(check.update(seen(1, live + 1, true, 0.0)), vec![]);
    let cmds = check.update(seen(1, live + 1, false, 1.0));
    assert_eq!(checks(&cmds), 1, "the run's end is checked");

    let mut check = ProtocolCheck::default();
    let too_long = CHECKED_UP_TO_REQUESTS + 1;
    assert_eq!(check.update(seen(1, too_long, false, 0.0)), vec![]);
    assert_eq!(
        check.checked().banner_verdict(too_long, false),
        BannerVerdict::TooLong { requests: too_long }
    );
}

#[test]
fn the_banner_says_done_but_refused_only_once_the_whole_run_was_checked() {
    let mut check = ProtocolCheck::default();
    let cmds = check.update(seen(1, 2, false, 0.0));
    assert_eq!(
        check.checked().done_but_refused(2, false, Status::Done),
        None,
        "not checked yet"
    );
    check.update(answer(&cmds[0], &[2]));
    let checked = check.checked();
    assert_eq!(
        checked.done_but_refused(2, false, Status::Done).as_deref(),
        Some("but Anthropic Messages would refuse turn 2")
    );
    assert_eq!(checked.done_but_refused(2, false, Status::TurnLimit), None);
    assert_eq!(
        checked.done_but_refused(3, false, Status::Done),
        None,
        "a request not checked yet"
    );
    assert_eq!(checked.done_but_refused(2, true, Status::Done), None);
}
