//! The Lessons mode's models driven as the page drives them: the header's
//! button and links for the switch; a lesson opened, runs coming into
//! view, Check, hints, edits and the solution for the attempt. What the
//! learner would see is read off the models after.

use harness::lesson::goal::GoalPart;
use harness::run::PauseBefore;

use super::*;

// The switch.

#[test]
fn the_mode_starts_closed_without_a_lesson_link() {
    let switch = Switch::new("#s=abc");
    assert!(!switch.open() && !switch.mounted());
    assert_eq!(switch.link(), None);
}

#[test]
fn a_page_opened_with_a_lesson_link_opens_the_mode_on_it() {
    let switch = Switch::new("#lesson=turn-limit");
    assert!(switch.open() && switch.mounted());
    assert_eq!(
        switch.link().map(String::as_str),
        Some("#lesson=turn-limit")
    );
}

#[test]
fn course_and_progress_links_are_the_mode_s_too() {
    assert!(is_lesson_link("#course=abc"));
    assert!(is_lesson_link("#progress=abc"));
    assert!(!is_lesson_link("#mode=history"));
    assert!(Switch::new("#progress=abc").open());
}

#[test]
fn closing_the_mode_keeps_its_panel_drawn_with_the_open_lesson() {
    let mut switch = Switch::default();
    switch.update(SwitchMsg::SetOpen(true));
    switch.update(SwitchMsg::SetOpen(false));
    assert!(!switch.open());
    assert!(switch.mounted(), "the panel stays, hidden");
}

#[test]
fn a_link_pasted_opens_the_mode_and_waits_to_be_taken_once() {
    let mut switch = Switch::default();
    switch.update(SwitchMsg::Linked("#course=xyz".into()));
    assert!(switch.open() && switch.mounted());
    assert_eq!(switch.link().map(String::as_str), Some("#course=xyz"));
    switch.update(SwitchMsg::LinkTaken);
    assert_eq!(switch.link(), None);
    assert!(switch.open());
}

#[test]
fn another_link_pasted_leaves_the_mode_as_it_was() {
    let mut switch = Switch::default();
    switch.update(SwitchMsg::Linked("#s=abc".into()));
    assert_eq!(switch, Switch::default());
}

// The attempt.

fn lesson(name: &str) -> Lesson {
    harness::lesson::course::builtin(name).expect("built in")
}

/// An attempt at the built-in `name`, its start's run (1) in view and ended.
fn opened(name: &str) -> Attempt {
    let mut attempt = Attempt::default();
    attempt.update(AttemptMsg::Opened {
        key: name.to_string(),
        lesson: Box::new(lesson(name)),
    });
    attempt.update(seen(1, false, None));
    attempt
}

fn seen(run: u64, running: bool, pause: Option<PauseBefore>) -> AttemptMsg {
    AttemptMsg::RunSeen {
        run,
        running,
        pause,
        stepping: true,
    }
}

fn part(holds: bool) -> GoalPart {
    GoalPart {
        part: "status".into(),
        holds,
        sentence: String::new(),
    }
}

fn judged(run: u64, holds: bool) -> AttemptMsg {
    AttemptMsg::Judged {
        run,
        parts: vec![part(true), part(holds)],
    }
}

fn pause(n: u32) -> Option<PauseBefore> {
    Some(PauseBefore::ModelCall { turn: n })
}

#[test]
fn a_verdict_shows_what_was_judged() {
    let mut attempt = opened("turn-limit");
    attempt.update(judged(1, false));
    assert_eq!(attempt.verdict(), Some(&vec![part(true), part(false)]));
}

#[test]
fn a_verdict_goes_with_the_run_it_judged() {
    let mut attempt = opened("turn-limit");
    attempt.update(judged(1, true));
    attempt.update(seen(2, true, None));
    assert_eq!(attempt.verdict(), None);
}

#[test]
fn a_verdict_stays_while_its_run_is_in_view() {
    let mut attempt = opened("turn-limit");
    attempt.update(judged(1, true));
    attempt.update(seen(1, false, None));
    assert!(attempt.verdict().is_some());
}

#[test]
fn a_verdict_on_a_run_no_longer_in_view_is_not_shown() {
    let mut attempt = opened("turn-limit");
    attempt.update(seen(2, true, None));
    attempt.update(judged(1, false));
    assert_eq!(attempt.verdict(), None);
    assert!(!attempt.offers_solution() && attempt.update(judged(2, false)).is_empty());
}

#[test]
fn check_pressed_takes_the_last_verdict_away() {
    let mut attempt = opened("turn-limit");
    attempt.update(judged(1, false));
    attempt.update(AttemptMsg::CheckPressed);
    assert_eq!(attempt.verdict(), None);
}

#[test]
fn check_waits_for_the_run_it_started_and_judges_it_when_it_ends() {
    let mut attempt = opened("turn-limit");
    attempt.update(AttemptMsg::AwaitRun(2));
    assert!(attempt.checking());
    assert_eq!(attempt.update(seen(2, true, None)), vec![]);
    assert!(attempt.checking(), "still going");
    assert_eq!(
        attempt.update(seen(2, false, None)),
        vec![AttemptCmd::Judge { run: 2 }]
    );
    assert!(!attempt.checking());
}

#[test]
fn check_judges_its_run_once() {
    let mut attempt = opened("turn-limit");
    attempt.update(AttemptMsg::AwaitRun(2));
    attempt.update(seen(2, false, None));
    assert_eq!(attempt.update(seen(2, false, None)), vec![]);
}

#[test]
fn check_does_not_judge_an_older_run_still_in_view() {
    // Check started run 2; the page still shows run 1 ended until run 2
    // comes into view: run 1 is not judged for it.
    let mut attempt = opened("turn-limit");
    attempt.update(AttemptMsg::AwaitRun(2));
    assert_eq!(attempt.update(seen(2, true, None)), vec![]);
    assert_eq!(attempt.update(seen(2, false, None)).len(), 1);
}

#[test]
fn another_run_in_view_ends_check_s_wait_unjudged() {
    let mut attempt = opened("turn-limit");
    attempt.update(AttemptMsg::AwaitRun(3));
    assert_eq!(attempt.update(seen(4, true, None)), vec![]);
    assert!(!attempt.checking());
    assert_eq!(attempt.update(seen(4, false, None)), vec![]);
}

#[test]
fn two_misses_offer_the_solution() {
    let mut attempt = opened("turn-limit");
    attempt.update(judged(1, false));
    assert!(!attempt.offers_solution());
    attempt.update(judged(1, false));
    assert!(attempt.offers_solution() && !attempt.solved());
}

#[test]
fn a_pass_takes_the_solution_offer_away_and_a_later_miss_leaves_it_solved() {
    let mut attempt = opened("turn-limit");
    attempt.update(judged(1, false));
    attempt.update(judged(1, false));
    attempt.update(judged(1, true));
    assert!(attempt.solved() && !attempt.offers_solution());
    attempt.update(judged(1, false));
    assert!(attempt.solved());
}

#[test]
fn a_lesson_solved_is_kept_in_the_progress_and_saved_once() {
    let mut attempt = opened("turn-limit");
    assert_eq!(
        attempt.update(judged(1, true)),
        vec![AttemptCmd::SaveProgress(r#"["turn-limit"]"#.into())]
    );
    assert_eq!(attempt.update(judged(1, true)), vec![]);
    assert_eq!(attempt.progress(), ["turn-limit".to_string()]);
}

#[test]
fn a_miss_saves_no_progress() {
    let mut attempt = opened("turn-limit");
    assert_eq!(attempt.update(judged(1, false)), vec![]);
    assert!(attempt.progress().is_empty());
}

#[test]
fn the_course_progress_is_restored_on_reload() {
    let mut attempt = Attempt::default();
    attempt.update(AttemptMsg::Restored(Some(
        r#"["turn-limit","stop-mode"]"#.into(),
    )));
    assert_eq!(attempt.progress(), ["turn-limit", "stop-mode"]);
}

#[test]
fn progress_saved_then_restored_is_the_same() {
    let mut attempt = opened("turn-limit");
    let Some(AttemptCmd::SaveProgress(saved)) = attempt.update(judged(1, true)).pop() else {
        panic!("nothing saved");
    };
    let mut reloaded = Attempt::default();
    reloaded.update(AttemptMsg::Restored(Some(saved)));
    assert_eq!(reloaded.progress(), attempt.progress());
}

#[test]
fn progress_that_is_not_a_list_restores_as_none_solved() {
    let mut attempt = Attempt::default();
    attempt.update(AttemptMsg::Restored(Some("{broken".into())));
    assert!(attempt.progress().is_empty());
    attempt.update(AttemptMsg::Restored(None));
    assert!(attempt.progress().is_empty());
}

#[test]
fn a_restored_progress_gains_a_new_solve_after_what_it_had() {
    let mut attempt = Attempt::default();
    attempt.update(AttemptMsg::Restored(Some(r#"["stop-mode"]"#.into())));
    attempt.update(AttemptMsg::Opened {
        key: "turn-limit".into(),
        lesson: Box::new(lesson("turn-limit")),
    });
    assert_eq!(
        attempt.update(judged(0, true)),
        vec![AttemptCmd::SaveProgress(
            r#"["stop-mode","turn-limit"]"#.into()
        )]
    );
}

#[test]
fn hints_are_revealed_one_at_a_time_up_to_the_lesson_s_count() {
    let mut attempt = opened("turn-limit");
    let count = lesson("turn-limit").hints.len();
    assert!(count > 0);
    for shown in 1..=count {
        attempt.update(AttemptMsg::HintShown);
        assert_eq!(attempt.hints_shown(), shown);
    }
    attempt.update(AttemptMsg::HintShown);
    assert_eq!(attempt.hints_shown(), count);
}

#[test]
fn no_hint_shows_without_an_open_lesson() {
    let mut attempt = Attempt::default();
    attempt.update(AttemptMsg::HintShown);
    assert_eq!(attempt.hints_shown(), 0);
}

#[test]
fn opening_a_lesson_starts_the_attempt_afresh() {
    let mut attempt = opened("turn-limit");
    attempt.update(judged(1, false));
    attempt.update(judged(1, false));
    attempt.update(AttemptMsg::HintShown);
    attempt.update(AttemptMsg::Predicted("3".into()));
    attempt.update(AttemptMsg::AwaitRun(2));
    attempt.update(AttemptMsg::Opened {
        key: "turn-limit".into(),
        lesson: Box::new(lesson("turn-limit")),
    });
    assert_eq!(attempt.verdict(), None);
    assert!(!attempt.offers_solution() && !attempt.checking());
    assert_eq!(attempt.hints_shown(), 0);
    assert_eq!(attempt.prediction(), None);
    assert_eq!(attempt.allowed(), pretty(&lesson("turn-limit").start));
}

#[test]
fn opening_a_lesson_keeps_the_progress() {
    let mut attempt = opened("turn-limit");
    attempt.update(judged(1, true));
    attempt.update(AttemptMsg::Opened {
        key: "stop-mode".into(),
        lesson: Box::new(lesson("turn-limit")),
    });
    assert_eq!(attempt.progress(), ["turn-limit"]);
}

fn edited(text: String) -> AttemptMsg {
    AttemptMsg::Edited {
        text,
        mode_open: true,
    }
}

#[test]
fn an_edit_the_lesson_allows_is_kept_to_go_back_to() {
    let mut attempt = opened("turn-limit");
    let mut value = lesson("turn-limit").start;
    value["limits"]["max_turns"] = 3.into();
    assert_eq!(attempt.update(edited(value.to_string())), vec![]);
    assert_eq!(attempt.allowed(), value.to_string());
}

#[test]
fn an_edit_outside_the_lesson_is_undone_to_the_last_allowed_text() {
    let mut attempt = opened("turn-limit");
    let mut value = lesson("turn-limit").start;
    value["limits"]["max_turns"] = 3.into();
    attempt.update(edited(value.to_string()));
    let allowed = value.to_string();
    value["task"] = "Something else".into();
    assert_eq!(
        attempt.update(edited(value.to_string())),
        vec![
            AttemptCmd::Note(
                "Your change to task was undone: this lesson lets you change only \
                 limits.max_turns. (Close Lessons to edit freely.)"
                    .into()
            ),
            AttemptCmd::Edit(allowed.clone()),
        ]
    );
    assert_eq!(attempt.allowed(), allowed);
}

#[test]
fn text_that_is_not_json_yet_is_left_alone() {
    let mut attempt = opened("turn-limit");
    assert_eq!(attempt.update(edited("{\"limits\":".into())), vec![]);
    assert_eq!(attempt.allowed(), pretty(&lesson("turn-limit").start));
}

#[test]
fn edits_are_free_with_the_mode_closed_or_no_lesson_open() {
    let mut attempt = opened("turn-limit");
    let mut value = lesson("turn-limit").start;
    value["task"] = "Something else".into();
    let closed_mode = AttemptMsg::Edited {
        text: value.to_string(),
        mode_open: false,
    };
    assert_eq!(attempt.update(closed_mode), vec![]);
    attempt.update(AttemptMsg::Closed);
    assert_eq!(attempt.update(edited(value.to_string())), vec![]);
    assert!(attempt.lesson().is_none());
}

#[test]
fn an_edit_outside_a_lesson_that_allows_nothing_says_so() {
    let lesson = lesson("turn-limit");
    let mut strict = lesson.clone();
    strict.editable.clear();
    let mut value = lesson.start.clone();
    value["limits"]["max_turns"] = 3.into();
    let LessonEdit::Undone(note) = judge_edit(&strict, &value.to_string()) else {
        panic!("not undone");
    };
    assert!(
        note.contains("this lesson lets you change nothing in the scenario"),
        "{note}"
    );
}

#[test]
fn the_solution_applied_puts_its_text_in_the_editor_and_says_so() {
    let mut attempt = opened("turn-limit");
    let cmds = attempt.update(AttemptMsg::SolutionApplied {
        prediction: None,
        text: Some("{\"fixed\": true}".into()),
        note: "Applied the solution".into(),
    });
    assert_eq!(cmds, vec![AttemptCmd::Edit("{\"fixed\": true}".into())]);
    assert_eq!(attempt.allowed(), "{\"fixed\": true}");
    assert_eq!(
        attempt.solution_note().map(String::as_str),
        Some("Applied the solution")
    );
}

#[test]
fn the_solution_s_prediction_is_picked_only_when_none_was() {
    let mut attempt = opened("turn-limit");
    attempt.update(AttemptMsg::Predicted("2".into()));
    attempt.update(AttemptMsg::SolutionApplied {
        prediction: Some("5".into()),
        text: None,
        note: String::new(),
    });
    assert_eq!(attempt.prediction().map(String::as_str), Some("2"));
    let mut fresh = opened("turn-limit");
    fresh.update(AttemptMsg::SolutionApplied {
        prediction: Some("5".into()),
        text: None,
        note: String::new(),
    });
    assert_eq!(fresh.prediction().map(String::as_str), Some("5"));
}

#[test]
fn what_the_start_did_is_kept_for_the_prediction() {
    let mut attempt = opened("turn-limit");
    attempt.update(AttemptMsg::SawStart("4".into()));
    assert_eq!(attempt.start_value().map(String::as_str), Some("4"));
}

#[test]
fn steps_count_only_step_presses() {
    let mut attempt = opened("turn-limit");
    attempt.update(seen(2, true, pause(1)));
    attempt.update(seen(2, true, pause(2)));
    // Run (Continue) lets the run go on: no step.
    attempt.update(AttemptMsg::RunSeen {
        run: 2,
        running: true,
        pause: None,
        stepping: false,
    });
    assert_eq!((attempt.steps(), attempt.pauses()), (1, 2));
}

#[test]
fn steps_and_pauses_start_afresh_with_each_run() {
    let mut attempt = opened("turn-limit");
    attempt.update(seen(2, true, pause(1)));
    attempt.update(seen(2, true, None));
    attempt.update(seen(3, true, pause(1)));
    assert_eq!((attempt.steps(), attempt.pauses()), (0, 1));
}

#[test]
fn the_same_pause_seen_again_counts_once() {
    let mut attempt = opened("turn-limit");
    attempt.update(seen(2, true, pause(1)));
    attempt.update(seen(2, true, pause(1)));
    assert_eq!(attempt.pauses(), 1);
}

#[test]
fn a_pause_left_and_another_reached_between_two_looks_counts_both() {
    let mut attempt = opened("turn-limit");
    attempt.update(seen(2, true, pause(1)));
    attempt.update(seen(2, true, pause(2)));
    assert_eq!((attempt.steps(), attempt.pauses()), (1, 2));
}
