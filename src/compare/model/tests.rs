//! The Compare panel's model driven as its adapter drives it: a person's
//! presses and the answers of the work it started as messages, what the
//! panel would show read off the model.

use harness::fork::ForkPoint;
use harness::wire::Provider;

use super::*;
use crate::compare::Compared;

fn model() -> CompareModel {
    CompareModel::default()
}

/// Sends `msg`, returning the commands.
fn send(model: &mut CompareModel, msg: CompareMsg) -> Vec<CompareCmd> {
    model.update(msg)
}

/// Starts a comparison with the scenarios' own models; returns its number.
fn start(model: &mut CompareModel, what: &str) -> u64 {
    let commands = send(
        model,
        CompareMsg::Started {
            what: what.to_string(),
            with_provider: false,
        },
    );
    match commands.last() {
        Some(CompareCmd::Launch { comparison, .. }) => *comparison,
        other => panic!("no launch: {other:?}"),
    }
}

fn finish(model: &mut CompareModel, comparison: u64, result: Result<Compared, Vec<String>>) {
    let commands = send(model, CompareMsg::Finished { comparison, result });
    assert!(commands.is_empty());
}

fn running(what: &str) -> Shown {
    Shown::Running(what.to_string())
}

/// Two sides told apart by their labels.
fn sides(left: &str, right: &str) -> Compared {
    let side = |label: &str| {
        let record = harness::replay::Record {
            scenario: None,
            events: Vec::new(),
            forked_at: None,
        };
        crate::compare::Side::new(label, record)
    };
    Compared {
        left: vec![side(left)],
        right: vec![side(right)],
    }
}

#[test]
fn nothing_is_shown_before_a_comparison() {
    let model = model();
    assert_eq!(model.shown(), &Shown::Nothing);
    assert!(!model.busy());
}

#[test]
fn a_comparison_started_says_what_it_runs_and_is_busy() {
    let mut model = model();
    start(&mut model, "Running A and B…");
    assert_eq!(model.shown(), &running("Running A and B…"));
    assert!(model.busy());
}

#[test]
fn the_first_comparison_cancels_nothing() {
    let mut model = model();
    let commands = send(
        &mut model,
        CompareMsg::Started {
            what: "Running A and B…".into(),
            with_provider: false,
        },
    );
    assert_eq!(
        commands,
        vec![CompareCmd::Launch {
            comparison: 1,
            times: 1
        }]
    );
}

#[test]
fn a_newer_comparison_cancels_the_one_going() {
    let mut model = model();
    let first = start(&mut model, "Running A and B…");
    let commands = send(
        &mut model,
        CompareMsg::Started {
            what: "Running the pair…".into(),
            with_provider: false,
        },
    );
    assert_eq!(commands[0], CompareCmd::Cancel { comparison: first });
    assert!(matches!(commands[1], CompareCmd::Launch { comparison, .. } if comparison != first));
    assert_eq!(model.shown(), &running("Running the pair…"));
}

#[test]
fn a_replaced_comparisons_end_is_dropped_and_the_newer_ones_shown() {
    let mut model = model();
    let first = start(&mut model, "Running A and B…");
    let second = start(&mut model, "Running the pair…");
    finish(&mut model, first, Ok(sides("old A", "old B")));
    assert_eq!(model.shown(), &running("Running the pair…"));
    assert!(model.busy());
    finish(&mut model, second, Ok(sides("A", "B")));
    assert_eq!(model.shown(), &Shown::Compared(Box::new(sides("A", "B"))));
    assert!(!model.busy());
}

#[test]
fn a_replaced_comparisons_failure_is_dropped_too() {
    let mut model = model();
    let first = start(&mut model, "Running A and B…");
    start(&mut model, "Forking before turn 2…");
    finish(
        &mut model,
        first,
        Err(vec!["B: tools: expected a list".into()]),
    );
    assert_eq!(model.shown(), &running("Forking before turn 2…"));
}

#[test]
fn a_replaced_comparisons_round_is_dropped() {
    let mut model = model();
    let first = start(&mut model, "Running A and B…");
    start(&mut model, "Running the pair…");
    send(
        &mut model,
        CompareMsg::Round {
            comparison: first,
            round: 2,
            rounds: 3,
        },
    );
    assert_eq!(model.shown(), &running("Running the pair…"));
}

#[test]
fn the_round_shown_follows_the_newest_comparison() {
    let mut model = model();
    start(&mut model, "Running A and B…");
    let second = start(&mut model, "Running the pair…");
    for round in 1..=3 {
        send(
            &mut model,
            CompareMsg::Round {
                comparison: second,
                round,
                rounds: 3,
            },
        );
        let said = format!("Running the pair… Round {round} of 3.");
        assert_eq!(model.shown(), &running(&said));
    }
}

#[test]
fn a_single_round_is_not_told() {
    let mut model = model();
    let comparison = start(&mut model, "Running A and B…");
    send(
        &mut model,
        CompareMsg::Round {
            comparison,
            round: 1,
            rounds: 1,
        },
    );
    assert_eq!(model.shown(), &running("Running A and B…"));
}

#[test]
fn a_round_after_the_end_does_not_cover_the_result() {
    let mut model = model();
    let comparison = start(&mut model, "Running A and B…");
    finish(&mut model, comparison, Ok(sides("A", "B")));
    send(
        &mut model,
        CompareMsg::Round {
            comparison,
            round: 3,
            rounds: 3,
        },
    );
    assert_eq!(model.shown(), &Shown::Compared(Box::new(sides("A", "B"))));
}

#[test]
fn a_comparison_that_could_not_run_says_why() {
    let mut model = model();
    let comparison = start(&mut model, "Running A and B…");
    finish(
        &mut model,
        comparison,
        Err(vec!["B: tools: expected a list".into()]),
    );
    assert_eq!(
        model.shown(),
        &Shown::Failed(vec!["B: tools: expected a list".into()])
    );
    assert!(!model.busy());
}

#[test]
fn stop_cancels_the_comparison_going() {
    let mut model = model();
    let comparison = start(&mut model, "Running A and B…");
    assert_eq!(
        send(&mut model, CompareMsg::StopPressed),
        vec![CompareCmd::Cancel { comparison }]
    );
}

#[test]
fn stop_with_no_comparison_going_does_nothing() {
    let mut model = model();
    assert!(send(&mut model, CompareMsg::StopPressed).is_empty());
    let comparison = start(&mut model, "Running A and B…");
    finish(&mut model, comparison, Ok(sides("A", "B")));
    // After its end, Stop has nothing left to cancel.
    assert!(send(&mut model, CompareMsg::StopPressed).is_empty());
}

#[test]
fn a_stopped_comparison_shows_how_both_sides_ended() {
    // Stopped, both sides' runs end cancelled and report it: their end is
    // shown as it comes, not dropped as a replaced comparison's is.
    let mut model = model();
    let comparison = start(&mut model, "Running A and B…");
    send(&mut model, CompareMsg::StopPressed);
    assert!(model.busy(), "Running until the sides have ended");
    finish(
        &mut model,
        comparison,
        Ok(sides("A (stopped)", "B (stopped)")),
    );
    assert_eq!(
        model.shown(),
        &Shown::Compared(Box::new(sides("A (stopped)", "B (stopped)")))
    );
    assert!(!model.busy());
}

#[test]
fn a_side_runs_once_without_a_provider_whatever_was_typed() {
    let mut model = model();
    send(&mut model, CompareMsg::TimesTyped("5".into()));
    let commands = send(
        &mut model,
        CompareMsg::Started {
            what: "Running A and B…".into(),
            with_provider: false,
        },
    );
    assert_eq!(
        commands,
        vec![CompareCmd::Launch {
            comparison: 1,
            times: 1
        }]
    );
}

#[test]
fn a_side_runs_as_often_as_typed_with_a_provider() {
    let mut model = model();
    send(&mut model, CompareMsg::TimesTyped("5".into()));
    let commands = send(
        &mut model,
        CompareMsg::Started {
            what: "Running A and B…".into(),
            with_provider: true,
        },
    );
    assert_eq!(
        commands,
        vec![CompareCmd::Launch {
            comparison: 1,
            times: 5
        }]
    );
}

#[test]
fn runs_per_side_typed_are_bounded_and_text_changes_nothing() {
    let mut model = model();
    assert_eq!(model.times(), 1);
    send(&mut model, CompareMsg::TimesTyped("99".into()));
    assert_eq!(model.times(), MOST_TIMES);
    send(&mut model, CompareMsg::TimesTyped("three".into()));
    assert_eq!(model.times(), MOST_TIMES);
    send(&mut model, CompareMsg::TimesTyped("-4".into()));
    assert_eq!(model.times(), 1);
    send(&mut model, CompareMsg::TimesTyped("2.4".into()));
    assert_eq!(model.times(), 2);
}

#[test]
fn a_side_runs_as_often_as_asked_only_with_a_provider() {
    assert_eq!(runs_per_side(false, 5), 1);
    assert_eq!(runs_per_side(true, 5), 5);
    assert_eq!(runs_per_side(true, 0), 1);
    assert_eq!(runs_per_side(true, 99), MOST_TIMES);
}

#[test]
fn a_typed_count_goes_to_the_nearest_and_text_changes_nothing() {
    assert_eq!(typed_count(" 3 ", 10), Some(3));
    assert_eq!(typed_count("0", 10), Some(1));
    assert_eq!(typed_count("12", 10), Some(10));
    assert_eq!(typed_count("three", 10), None);
    assert_eq!(typed_count("", 10), None);
    assert_eq!(typed_count("NaN", 10), None);
    assert_eq!(typed_count("-1", 10), Some(1));
    assert_eq!(typed_count("1e300", 10), Some(10));
    assert_eq!(typed_count("99999999999999999999", 10), Some(10));
    assert_eq!(typed_count("2.4", 10), Some(2));
}

#[test]
fn the_runs_per_side_hint_says_the_bound_in_plain_words() {
    let none = times_hint(None, false, "");
    assert!(none.starts_with("1: the scenario's own model"), "{none}");
    assert!(
        none.contains(&format!("up to {MOST_TIMES} times")),
        "{none}"
    );
    let blocked = times_hint(Some(Provider::Anthropic), true, "m");
    assert!(
        blocked.starts_with("The Model settings have problems"),
        "{blocked}"
    );
    let ready = times_hint(Some(Provider::Anthropic), false, " claude-x ");
    assert!(
        ready.starts_with(&format!("Each side runs up to {MOST_TIMES} times with ")),
        "{ready}"
    );
    assert!(ready.contains("(claude-x)"), "{ready}");
    for hint in [none, blocked, ready] {
        assert!(!hint.contains("Some(") && !hint.contains("None"), "{hint}");
    }
}

#[test]
fn approvals_are_approved_until_deny_is_chosen() {
    let mut model = model();
    assert!(!model.deny_approvals());
    send(&mut model, CompareMsg::ApprovalsDenied(true));
    assert!(model.deny_approvals());
    send(&mut model, CompareMsg::ApprovalsDenied(false));
    assert!(!model.deny_approvals());
}

/// Two steps a turn (a model call and a tool call) for `turns` turns.
fn steps(turns: u32) -> Vec<(u32, ForkPoint)> {
    let mut seq = 0;
    (1..=turns)
        .flat_map(|turn| ["before turn", "before tool call"].map(|what| (turn, what)))
        .map(|(turn, what)| {
            seq += 1;
            let label = format!("{what} {turn}");
            (turn, ForkPoint { seq, label })
        })
        .collect()
}

/// The run in the Trace ended with `turns` turns, and its steps listed.
fn listed(model: &mut CompareModel, turns: u32) {
    let commands = send(model, CompareMsg::TraceChanged { forkable: true });
    let [CompareCmd::ListSteps { listing }] = commands[..] else {
        panic!("no listing: {commands:?}");
    };
    send(
        model,
        CompareMsg::StepsListed {
            listing,
            points: steps(turns),
        },
    );
}

fn seqs(model: &CompareModel) -> Vec<u64> {
    model.listed().iter().map(|p| p.seq).collect()
}

fn fork_from(model: &CompareModel) -> Option<u64> {
    model.fork_from().map(|p| p.seq)
}

#[test]
fn nothing_to_fork_from_before_a_run() {
    let model = model();
    assert!(model.no_steps());
    assert_eq!(fork_from(&model), None);
    assert_eq!(model.last_turn(), 1);
}

#[test]
fn a_running_run_has_no_steps_to_fork_from() {
    let mut model = model();
    listed(&mut model, 3);
    assert!(!model.no_steps());
    let commands = send(&mut model, CompareMsg::TraceChanged { forkable: false });
    assert!(commands.is_empty());
    assert!(model.no_steps());
    assert_eq!(fork_from(&model), None);
}

#[test]
fn steps_listed_after_a_run_started_meanwhile_are_dropped() {
    let mut model = model();
    let commands = send(&mut model, CompareMsg::TraceChanged { forkable: true });
    let [CompareCmd::ListSteps { listing }] = commands[..] else {
        panic!("no listing: {commands:?}");
    };
    // A run starts before the listing lands: its steps are not forkable.
    send(&mut model, CompareMsg::TraceChanged { forkable: false });
    send(
        &mut model,
        CompareMsg::StepsListed {
            listing,
            points: steps(3),
        },
    );
    assert!(model.no_steps());
}

#[test]
fn an_older_listing_does_not_replace_a_newer_one() {
    let mut model = model();
    let first = send(&mut model, CompareMsg::TraceChanged { forkable: true });
    let second = send(&mut model, CompareMsg::TraceChanged { forkable: true });
    let ([CompareCmd::ListSteps { listing: old }], [CompareCmd::ListSteps { listing: new }]) =
        (&first[..], &second[..])
    else {
        panic!("no listings: {first:?} {second:?}");
    };
    send(
        &mut model,
        CompareMsg::StepsListed {
            listing: *new,
            points: steps(2),
        },
    );
    send(
        &mut model,
        CompareMsg::StepsListed {
            listing: *old,
            points: steps(5),
        },
    );
    assert_eq!(model.last_turn(), 2);
}

#[test]
fn a_short_run_lists_every_step_and_forks_from_the_first() {
    let mut model = model();
    listed(&mut model, 3);
    assert!(!model.by_turn());
    assert_eq!(seqs(&model), (1..=6).collect::<Vec<_>>());
    assert_eq!(fork_from(&model), Some(1));
}

#[test]
fn the_fork_picker_forks_from_the_step_picked() {
    let mut model = model();
    listed(&mut model, 3);
    send(&mut model, CompareMsg::StepPicked("4".into()));
    assert_eq!(fork_from(&model), Some(4));
    assert_eq!(model.fork_from().unwrap().label, "before tool call 2");
}

#[test]
fn a_pick_that_names_no_listed_step_stands_for_the_first() {
    let mut model = model();
    listed(&mut model, 3);
    send(&mut model, CompareMsg::StepPicked("99".into()));
    assert_eq!(fork_from(&model), Some(1));
    send(&mut model, CompareMsg::StepPicked("not a step".into()));
    assert_eq!(fork_from(&model), Some(1));
}

#[test]
fn a_long_run_lists_one_turn_at_a_time() {
    let mut model = model();
    listed(&mut model, 150);
    assert!(model.by_turn());
    assert_eq!(model.last_turn(), 150);
    assert_eq!(model.chosen_turn(), 1);
    assert_eq!(seqs(&model), vec![1, 2]);
}

#[test]
fn a_run_of_exactly_the_list_limit_is_listed_whole() {
    let mut model = model();
    listed(&mut model, 100);
    assert!(!model.by_turn());
    assert_eq!(model.listed().len(), 200);
}

#[test]
fn a_turn_typed_lists_its_steps_and_clears_the_pick() {
    let mut model = model();
    listed(&mut model, 150);
    send(&mut model, CompareMsg::StepPicked("2".into()));
    assert_eq!(fork_from(&model), Some(2));
    send(&mut model, CompareMsg::TurnTyped("7".into()));
    assert_eq!(seqs(&model), vec![13, 14]);
    assert_eq!(fork_from(&model), Some(13));
}

#[test]
fn a_turn_typed_as_text_keeps_the_turn_and_the_pick() {
    let mut model = model();
    listed(&mut model, 150);
    send(&mut model, CompareMsg::StepPicked("2".into()));
    send(&mut model, CompareMsg::TurnTyped("not a turn".into()));
    assert_eq!(model.chosen_turn(), 1);
    assert_eq!(fork_from(&model), Some(2));
}

#[test]
fn a_turn_past_the_last_is_the_last() {
    let mut model = model();
    listed(&mut model, 150);
    send(&mut model, CompareMsg::TurnTyped("500".into()));
    assert_eq!(model.chosen_turn(), 150);
    assert_eq!(seqs(&model), vec![299, 300]);
}

#[test]
fn a_turn_chosen_for_a_longer_run_stands_for_a_shorter_runs_last() {
    let mut model = model();
    listed(&mut model, 150);
    send(&mut model, CompareMsg::TurnTyped("140".into()));
    listed(&mut model, 120);
    assert_eq!(model.chosen_turn(), 120);
    assert_eq!(seqs(&model), vec![239, 240]);
}

/// Asks "go on from here" at `seq`; returns the commands.
fn ask_fork(model: &mut CompareModel, seq: u64) -> Vec<CompareCmd> {
    send(model, CompareMsg::ForkAsked(seq))
}

#[test]
fn go_on_from_here_picks_the_step_and_opens_its_editor_with_the_scenario() {
    let mut model = model();
    listed(&mut model, 3);
    let commands = ask_fork(&mut model, 4);
    assert_eq!(commands, vec![CompareCmd::LoadForkDraft { ask: 1 }]);
    assert_eq!(fork_from(&model), Some(4));
    // The editor opens once the scenario's text is there to edit.
    assert_eq!(model.fork_here(), None);
    let commands = send(
        &mut model,
        CompareMsg::ForkDraftArrived {
            ask: 1,
            text: "{\"task\": \"t\"}".into(),
        },
    );
    assert_eq!(
        commands,
        vec![CompareCmd::FillForkDraft("{\"task\": \"t\"}".into())]
    );
    assert_eq!(
        model.fork_here().map(|p| p.label.as_str()),
        Some("before tool call 2")
    );
}

#[test]
fn go_on_from_a_tool_result_starts_from_its_call() {
    let mut model = model();
    // Steps are 1..=6; an event between them (a tool's result, seq 5 is the
    // call of turn 3 here) goes on from the last step at or before it.
    let points: Vec<_> = steps(3)
        .into_iter()
        .map(|(turn, p)| {
            (
                turn,
                ForkPoint {
                    seq: p.seq * 10,
                    ..p
                },
            )
        })
        .collect();
    send(&mut model, CompareMsg::TraceChanged { forkable: true });
    send(&mut model, CompareMsg::StepsListed { listing: 1, points });
    ask_fork(&mut model, 45);
    assert_eq!(fork_from(&model), Some(40));
}

#[test]
fn go_on_from_here_with_no_steps_opens_nothing() {
    let mut model = model();
    assert!(ask_fork(&mut model, 4).is_empty());
    assert_eq!(model.fork_here(), None);
}

#[test]
fn an_older_go_on_from_heres_draft_is_dropped() {
    let mut model = model();
    listed(&mut model, 3);
    ask_fork(&mut model, 2);
    ask_fork(&mut model, 5);
    let old = send(
        &mut model,
        CompareMsg::ForkDraftArrived {
            ask: 1,
            text: "old".into(),
        },
    );
    assert!(old.is_empty());
    assert_eq!(model.fork_here(), None);
    send(
        &mut model,
        CompareMsg::ForkDraftArrived {
            ask: 2,
            text: "new".into(),
        },
    );
    assert_eq!(model.fork_here().map(|p| p.seq), Some(5));
}

#[test]
fn closing_the_fork_editor_closes_it_and_a_late_draft_does_not_reopen_it() {
    let mut model = model();
    listed(&mut model, 3);
    ask_fork(&mut model, 3);
    send(
        &mut model,
        CompareMsg::ForkDraftArrived {
            ask: 1,
            text: "t".into(),
        },
    );
    send(&mut model, CompareMsg::ForkEditorClosed);
    assert_eq!(model.fork_here(), None);
    ask_fork(&mut model, 3);
    send(&mut model, CompareMsg::ForkEditorClosed);
    let late = send(
        &mut model,
        CompareMsg::ForkDraftArrived {
            ask: 2,
            text: "t".into(),
        },
    );
    assert!(late.is_empty());
    assert_eq!(model.fork_here(), None);
}

const A: &str = "{\"task\": \"a\"}";
const MINE: &str = "{\"task\": \"mine\"}";

fn put(model: &mut CompareModel, current: &str, text: &str, notice: &str) -> Vec<CompareCmd> {
    send(
        model,
        CompareMsg::BPut {
            current: current.into(),
            text: text.into(),
            notice: Some(notice.into()),
        },
    )
}

#[test]
fn copy_a_into_b_puts_a_into_b_and_says_so() {
    let mut model = model();
    let commands = put(&mut model, "", A, "B is now a copy of A.");
    assert_eq!(commands, vec![CompareCmd::SetB(A.into())]);
    assert_eq!(model.b_notice(), Some("B is now a copy of A."));
    // An empty B is nobody's work: nothing is put aside.
    assert_eq!(model.b_aside(), 0);
}

#[test]
fn b_already_holding_the_text_is_left_alone() {
    let mut model = model();
    assert!(put(&mut model, A, A, "B is now a copy of A.").is_empty());
    assert_eq!(model.b_notice(), None);
}

#[test]
fn the_persons_own_edits_are_put_aside_when_the_page_replaces_b() {
    let mut model = model();
    put(&mut model, "", A, "copied");
    // The person edits B, then copies A again: their edit is kept aside.
    put(&mut model, MINE, A, "copied again");
    assert_eq!(model.b_aside(), 1);
    // B still as the page put it: replacing it keeps nothing aside.
    put(&mut model, A, "{}", "another");
    assert_eq!(model.b_aside(), 1);
}

#[test]
fn the_persons_b_comes_back_and_says_so() {
    let mut model = model();
    put(&mut model, "", A, "copied");
    put(&mut model, MINE, A, "copied again");
    let commands = send(
        &mut model,
        CompareMsg::BringBackPressed { current: A.into() },
    );
    assert_eq!(commands, vec![CompareCmd::SetB(MINE.into())]);
    assert_eq!(model.b_notice(), Some("Your edited B is back."));
    // The copy it replaced was the page's: not put aside.
    assert_eq!(model.b_aside(), 0);
}

#[test]
fn bringing_b_back_puts_an_edited_b_aside_in_turn() {
    let mut model = model();
    put(&mut model, "", A, "copied");
    put(&mut model, MINE, A, "copied again");
    let edited_copy = "{\"task\": \"edited copy\"}";
    send(
        &mut model,
        CompareMsg::BringBackPressed {
            current: edited_copy.into(),
        },
    );
    assert_eq!(model.b_aside(), 1);
    let commands = send(
        &mut model,
        CompareMsg::BringBackPressed {
            current: MINE.into(),
        },
    );
    assert_eq!(commands, vec![CompareCmd::SetB(edited_copy.into())]);
}

#[test]
fn bring_back_with_nothing_aside_does_nothing() {
    let mut model = model();
    let commands = send(
        &mut model,
        CompareMsg::BringBackPressed {
            current: MINE.into(),
        },
    );
    assert!(commands.is_empty());
    assert_eq!(model.b_notice(), None);
}

#[test]
fn b_follows_a_pair_half_with_the_other_half() {
    let pair = harness::library::pairs().next().expect("a pair");
    let mut model = model();
    let commands = send(&mut model, CompareMsg::PickFollowed(pair.a.to_string()));
    assert_eq!(
        commands,
        vec![CompareCmd::FetchBuiltin {
            follow: 1,
            id: pair.b
        }]
    );
    let commands = send(
        &mut model,
        CompareMsg::BuiltinArrived {
            follow: 1,
            current: MINE.into(),
            json: Some("{\"task\": \"b\"}".into()),
        },
    );
    assert_eq!(commands, vec![CompareCmd::SetB("{\"task\": \"b\"}".into())]);
    let notice = model.b_notice().expect("a notice");
    assert!(
        notice.starts_with(&format!("B is now {}", pair.b)),
        "{notice}"
    );
    assert_eq!(model.b_aside(), 1, "the person's B is kept aside");
}

#[test]
fn b_does_not_follow_a_scenario_that_is_no_built_in() {
    let mut model = model();
    assert!(send(&mut model, CompareMsg::PickFollowed("no-such".into())).is_empty());
}

#[test]
fn an_older_picks_built_in_does_not_replace_the_newer_picks() {
    let mut model = model();
    send(&mut model, CompareMsg::PickFollowed("turn-limit".into()));
    send(&mut model, CompareMsg::PickFollowed("turn-limit".into()));
    let old = send(
        &mut model,
        CompareMsg::BuiltinArrived {
            follow: 1,
            current: A.into(),
            json: Some("old".into()),
        },
    );
    assert!(old.is_empty());
    assert_eq!(model.b_notice(), None);
    let new = send(
        &mut model,
        CompareMsg::BuiltinArrived {
            follow: 2,
            current: A.into(),
            json: Some("new".into()),
        },
    );
    assert_eq!(new, vec![CompareCmd::SetB("new".into())]);
    assert_eq!(
        model.b_notice(),
        Some("B is now a copy of turn-limit, as A is: edit B to compare.")
    );
}

#[test]
fn a_built_in_not_found_leaves_b_alone() {
    let mut model = model();
    send(&mut model, CompareMsg::PickFollowed("turn-limit".into()));
    let commands = send(
        &mut model,
        CompareMsg::BuiltinArrived {
            follow: 1,
            current: MINE.into(),
            json: None,
        },
    );
    assert!(commands.is_empty());
    assert_eq!(model.b_aside(), 0);
}

#[test]
fn bs_edits_survive_a_comparison_and_a_fork() {
    let mut model = model();
    put(&mut model, "", A, "copied");
    put(&mut model, MINE, A, "copied again");
    let comparison = start(&mut model, "Running A and B…");
    finish(&mut model, comparison, Ok(sides("A", "B")));
    listed(&mut model, 2);
    ask_fork(&mut model, 1);
    assert_eq!(model.b_aside(), 1);
    assert_eq!(model.b_notice(), Some("copied again"));
}
