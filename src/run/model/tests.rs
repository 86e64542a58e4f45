//! The run model driven as the controller drives it: a person's presses and
//! a run's news as messages, what the page would show read off the model.

use std::rc::Rc;

use futures::FutureExt;
use harness::approval::{ApprovalRequest, Decision};
use harness::driver::{Pause, Resume};
use harness::event::{EventKind, RunEvent, Status};
use harness::replay::Record;
use harness::run::PauseBefore;
use harness::scenario::Scenario;
use harness::wire::RequestShape;
use serde_json::json;

use super::*;
use crate::run::view_model;

/// A built-in scenario whose model and tools answer at once.
fn scenario(id: &str) -> Scenario {
    Scenario::load(harness::library::json_of(id).expect("built in")).expect("it loads")
}

/// The whole trace of a built-in scenario that ends without waiting.
fn trace(id: &str) -> Vec<RunEvent> {
    let mut events = Vec::new();
    let finished = harness::run_scenario(
        &scenario(id),
        Rc::new(harness::instant::StillClock),
        harness::RunOptions::default(),
        &mut |e: &RunEvent| events.push(e.clone()),
    )
    .now_or_never();
    assert!(matches!(finished, Some(Ok(_))), "{id} did not end at once");
    events
}

/// `trace(id)` with its last event saying the run was cancelled, as a run
/// stopped by the person ends.
fn cancelled_trace(id: &str) -> Vec<RunEvent> {
    let mut events = trace(id);
    let last = events.last_mut().expect("a trace ends");
    let EventKind::RunFinished(outcome) = &mut last.kind else {
        panic!("a trace ends with run_finished")
    };
    outcome.status = Status::Cancelled;
    outcome.reason = "cancelled by the user".into();
    events
}

fn shape(id: &str) -> RequestShape {
    RequestShape::of(&scenario(id)).expect("its requests build")
}

/// Presses Run and returns the new run's id.
fn run_pressed(model: &mut RunModel) -> u64 {
    model.update(RunMsg::RunPressed("{}".into()));
    model.run()
}

/// Presses Run, and the scenario `id` loads and is set up at `now`.
fn started(model: &mut RunModel, id: &str, now: f64) -> u64 {
    let run = run_pressed(model);
    model.update(RunMsg::SetUp {
        run,
        scenario: scenario(id),
        setup: Ok(shape(id)),
        now,
    });
    run
}

/// Sends `events` as run `run`'s, then a frame.
fn feed(model: &mut RunModel, run: u64, events: &[RunEvent]) {
    for event in events {
        model.update(RunMsg::Event {
            run,
            event: event.clone(),
        });
    }
    model.update(RunMsg::Frame);
}

fn ended(model: &mut RunModel, run: u64, elapsed_ms: u64) -> Vec<RunCmd> {
    model.update(RunMsg::Ended {
        run,
        result: Ok(elapsed_ms),
    })
}

fn request(tool: &str) -> ApprovalRequest {
    ApprovalRequest {
        call_id: "call_1".into(),
        tool: tool.into(),
        args: json!({"order_id": "A-1"}),
        turn: 1,
        edit_error: None,
    }
}

fn pause_before_model(turn: u32, refused: Option<&str>) -> Pause {
    Pause {
        before: PauseBefore::ModelCall { turn },
        refused: refused.map(str::to_string),
    }
}

fn status(model: &RunModel) -> Option<Status> {
    view_model::outcome_of(model.events()).map(|outcome| outcome.status)
}

// --- Starting a run ---------------------------------------------------------

#[test]
fn run_pressed_shows_a_run_going_with_an_empty_trace() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    feed(&mut model, run, &trace("get-time"));
    ended(&mut model, run, 5);
    run_pressed(&mut model);
    assert!(model.running());
    assert!(model.events().is_empty() && model.cards().is_empty());
    assert_eq!(model.counters(), &view_model::Counters::default());
    assert_eq!(model.elapsed_ms(), 0);
}

#[test]
fn run_pressed_asks_for_the_editors_text_to_be_played() {
    let mut model = RunModel::default();
    let cmds = model.update(RunMsg::RunPressed("the text".into()));
    assert_eq!(
        cmds,
        vec![RunCmd::Start {
            run: 1,
            text: "the text".into()
        }]
    );
    assert!(!model.step_mode());
}

#[test]
fn each_start_is_a_new_run() {
    let mut model = RunModel::default();
    let first = started(&mut model, "get-time", 0.0);
    ended(&mut model, first, 1);
    let second = run_pressed(&mut model);
    assert_ne!(first, second);
}

#[test]
fn a_new_start_clears_the_last_runs_problems() {
    let mut model = RunModel::default();
    let run = run_pressed(&mut model);
    model.update(RunMsg::Refused {
        run,
        problems: vec!["model: missing".into()],
    });
    run_pressed(&mut model);
    assert!(model.problems().is_empty());
}

#[test]
fn run_pressed_while_a_run_goes_unpaused_starts_nothing() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    let cmds = model.update(RunMsg::RunPressed("{}".into()));
    assert!(cmds.is_empty());
    assert_eq!(model.run(), run);
}

// --- Only the newest run writes ---------------------------------------------

#[test]
fn a_superseded_runs_late_events_are_dropped() {
    let mut model = RunModel::default();
    let old = started(&mut model, "get-time", 0.0);
    model.update(RunMsg::ResetPressed);
    let new = started(&mut model, "get-time", 0.0);
    let events = trace("get-time");
    feed(&mut model, old, &events);
    assert!(model.events().is_empty(), "the old run's events landed");
    feed(&mut model, new, &events[..1]);
    assert_eq!(model.events().len(), 1);
}

#[test]
fn a_superseded_runs_end_leaves_the_new_run_going() {
    let mut model = RunModel::default();
    let old = started(&mut model, "get-time", 0.0);
    model.update(RunMsg::ResetPressed);
    started(&mut model, "get-time", 0.0);
    let cmds = ended(&mut model, old, 9);
    assert!(model.running());
    assert!(cmds.is_empty(), "the new run's token was let go: {cmds:?}");
    assert_eq!(model.elapsed_ms(), 0);
}

#[test]
fn a_superseded_runs_refusal_lists_no_problems() {
    let mut model = RunModel::default();
    let old = run_pressed(&mut model);
    model.update(RunMsg::ResetPressed);
    run_pressed(&mut model);
    model.update(RunMsg::Refused {
        run: old,
        problems: vec!["tools: bad".into()],
    });
    assert!(model.problems().is_empty());
    assert!(model.running());
}

#[test]
fn a_superseded_runs_set_up_is_not_shown() {
    let mut model = RunModel::default();
    let old = run_pressed(&mut model);
    model.update(RunMsg::ResetPressed);
    run_pressed(&mut model);
    let cmds = model.update(RunMsg::SetUp {
        run: old,
        scenario: scenario("get-time"),
        setup: Ok(shape("get-time")),
        now: 0.0,
    });
    assert!(cmds.is_empty());
    assert!(model.ran().is_none());
    assert_eq!(**model.wire_setup(), RequestShape::default());
}

// --- Events a frame at a time -----------------------------------------------

#[test]
fn events_reach_the_trace_at_the_next_frame() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    let event = trace("get-time").remove(0);
    let cmds = model.update(RunMsg::Event { run, event });
    assert_eq!(cmds, vec![RunCmd::FlushAtNextFrame]);
    assert!(model.events().is_empty());
    model.update(RunMsg::Frame);
    assert_eq!(model.events().len(), 1);
}

#[test]
fn one_frame_is_asked_for_however_many_events_arrive_in_it() {
    let mut model = RunModel::default();
    let run = started(&mut model, "tool-call-limit", 0.0);
    let asked: usize = trace("tool-call-limit")
        .into_iter()
        .map(|event| model.update(RunMsg::Event { run, event }).len())
        .sum();
    assert_eq!(asked, 1);
}

#[test]
fn after_a_frame_the_next_event_asks_for_another() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    let events = trace("get-time");
    feed(&mut model, run, &events[..1]);
    let cmds = model.update(RunMsg::Event {
        run,
        event: events[1].clone(),
    });
    assert_eq!(cmds, vec![RunCmd::FlushAtNextFrame]);
}

#[test]
fn the_end_of_a_run_shows_its_last_events_without_waiting_for_a_frame() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    let events = trace("get-time");
    for event in events.clone() {
        model.update(RunMsg::Event { run, event });
    }
    ended(&mut model, run, 3);
    assert_eq!(model.events(), &events[..]);
    assert_eq!(status(&model), Some(Status::Done));
}

#[test]
fn the_counters_after_a_batch_are_those_of_the_whole_trace() {
    let mut model = RunModel::default();
    let run = started(&mut model, "tool-call-limit", 0.0);
    let events = trace("tool-call-limit");
    feed(&mut model, run, &events);
    assert_eq!(model.counters(), &view_model::counters(&events));
    assert_eq!(model.counters().stopped, Some(Status::ToolCallLimit));
    assert!(model.counters().turn > 0);
}

#[test]
fn the_counters_taken_in_over_many_frames_are_those_of_one_frame() {
    let events = trace("tool-call-limit");
    let mut model = RunModel::default();
    let run = started(&mut model, "tool-call-limit", 0.0);
    for chunk in events.chunks(3) {
        feed(&mut model, run, chunk);
    }
    assert_eq!(model.counters(), &view_model::counters(&events));
}

#[test]
fn the_cards_are_the_run_start_each_turn_and_the_run_end() {
    let mut model = RunModel::default();
    let run = started(&mut model, "tool-call-limit", 0.0);
    let events = trace("tool-call-limit");
    feed(&mut model, run, &events);
    let turns: Vec<Option<u32>> = model.cards().iter().map(|card| card.turn).collect();
    let model_turns = model.counters().turn;
    let mut expected = vec![None];
    expected.extend((1..=model_turns).map(Some));
    expected.push(None);
    assert_eq!(turns, expected);
}

#[test]
fn the_cards_hold_every_event_once_in_order() {
    let mut model = RunModel::default();
    let run = started(&mut model, "hotel-search", 0.0);
    let events = trace("hotel-search");
    feed(&mut model, run, &events);
    let mut next = 0;
    for card in model.cards() {
        assert_eq!(card.start, next);
        assert_eq!(card.first_seq, events[card.start].seq);
        next += card.len;
    }
    assert_eq!(next, events.len());
}

#[test]
fn the_cards_taken_in_over_many_frames_are_those_of_one_frame() {
    let events = trace("tool-call-limit");
    let mut whole = RunModel::default();
    let run = started(&mut whole, "tool-call-limit", 0.0);
    feed(&mut whole, run, &events);
    for size in [1, 2, 5] {
        let mut model = RunModel::default();
        let run = started(&mut model, "tool-call-limit", 0.0);
        for chunk in events.chunks(size) {
            feed(&mut model, run, chunk);
        }
        assert_eq!(model.cards(), whole.cards(), "frames of {size}");
    }
}

#[test]
fn the_run_state_follows_the_trace() {
    let mut model = RunModel::default();
    let run = started(&mut model, "refund-policy", 0.0);
    let events = trace("refund-policy");
    feed(&mut model, run, &events);
    assert_ne!(model.run_state(), &RunStateBook::default());
    assert_eq!(model.run_state(), &RunStateBook::from_events(&events));
}

// --- Stop and Reset ---------------------------------------------------------

#[test]
fn stop_cancels_the_run_in_flight() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    assert_eq!(
        model.update(RunMsg::StopPressed),
        vec![RunCmd::Cancel { run }]
    );
}

#[test]
fn stop_with_no_run_going_cancels_nothing() {
    let mut model = RunModel::default();
    assert!(model.update(RunMsg::StopPressed).is_empty());
    let run = started(&mut model, "get-time", 0.0);
    ended(&mut model, run, 2);
    assert!(model.update(RunMsg::StopPressed).is_empty());
}

#[test]
fn a_stopped_run_ends_cancelled_and_no_longer_running() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    model.update(RunMsg::StopPressed);
    feed(&mut model, run, &cancelled_trace("get-time"));
    let cmds = ended(&mut model, run, 40);
    assert_eq!(status(&model), Some(Status::Cancelled));
    assert_eq!(model.counters().stopped, Some(Status::Cancelled));
    assert!(!model.running());
    assert_eq!(cmds, vec![RunCmd::LetGo]);
}

#[test]
fn reset_stops_a_running_run_and_empties_the_trace() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    feed(&mut model, run, &trace("get-time")[..2]);
    let cmds = model.update(RunMsg::ResetPressed);
    assert_eq!(cmds, vec![RunCmd::Cancel { run }, RunCmd::LetGo]);
    assert!(!model.running());
    assert!(model.events().is_empty() && model.cards().is_empty());
    assert!(model.ran().is_none());
}

#[test]
fn reset_drops_the_stopped_runs_last_event() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    model.update(RunMsg::ResetPressed);
    feed(&mut model, run, &cancelled_trace("get-time"));
    ended(&mut model, run, 1);
    assert!(model.events().is_empty());
    assert_eq!(status(&model), None);
}

#[test]
fn reset_hides_the_approval_bar_and_the_pause() {
    let mut model = RunModel::default();
    let run = started(&mut model, "refund-with-approval", 0.0);
    model.update(RunMsg::ApprovalAsked {
        run,
        request: request("refund"),
    });
    model.update(RunMsg::Paused {
        run,
        pause: pause_before_model(2, Some("no")),
        now: 1.0,
    });
    model.update(RunMsg::ResetPressed);
    assert!(model.pending().is_none() && model.paused().is_none());
    assert!(model.pause_refused().is_none());
}

#[test]
fn another_scenario_leaves_a_running_run_and_its_trace_alone() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    feed(&mut model, run, &trace("get-time")[..2]);
    assert!(model.update(RunMsg::AnotherScenario).is_empty());
    assert!(model.running());
    assert_eq!(model.events().len(), 2);
    assert_eq!(model.run(), run);
}

#[test]
fn another_scenario_clears_a_finished_runs_trace() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    feed(&mut model, run, &trace("get-time"));
    ended(&mut model, run, 3);
    model.update(RunMsg::AnotherScenario);
    assert!(model.events().is_empty());
    assert!(model.ran().is_none());
    assert_eq!(model.elapsed_ms(), 0);
}

// --- Approvals --------------------------------------------------------------

#[test]
fn an_approval_asked_shows_the_bar_with_the_tools_schema() {
    let mut model = RunModel::default();
    let run = started(&mut model, "refund-with-approval", 0.0);
    let tool = shape("refund-with-approval").tools[0].clone();
    model.update(RunMsg::ApprovalAsked {
        run,
        request: request(&tool.name),
    });
    let pending = model.pending().expect("the bar shows");
    assert_eq!(pending.tool, tool.name);
    assert_eq!(pending.args, json!({"order_id": "A-1"}));
    assert_eq!(pending.schema.as_ref(), Some(&tool.input_schema));
}

#[test]
fn an_approval_for_a_tool_the_run_lacks_has_no_schema_to_check_edits() {
    let mut model = RunModel::default();
    let run = started(&mut model, "refund-with-approval", 0.0);
    model.update(RunMsg::ApprovalAsked {
        run,
        request: request("no_such_tool"),
    });
    assert_eq!(model.pending().map(|p| p.schema.clone()), Some(None));
}

#[test]
fn a_refused_edit_is_said_on_the_bar() {
    let mut model = RunModel::default();
    let run = started(&mut model, "refund-with-approval", 0.0);
    let mut asked = request("refund");
    asked.edit_error = Some("order_id: required".into());
    model.update(RunMsg::ApprovalAsked {
        run,
        request: asked,
    });
    assert_eq!(
        model.pending().and_then(|p| p.edit_error.as_deref()),
        Some("order_id: required")
    );
}

#[test]
fn an_approval_asked_by_a_superseded_run_is_not_shown() {
    let mut model = RunModel::default();
    let old = started(&mut model, "refund-with-approval", 0.0);
    model.update(RunMsg::ResetPressed);
    run_pressed(&mut model);
    model.update(RunMsg::ApprovalAsked {
        run: old,
        request: request("refund"),
    });
    assert!(model.pending().is_none());
}

#[test]
fn deciding_hides_the_bar_and_answers_the_run() {
    let mut model = RunModel::default();
    let run = started(&mut model, "refund-with-approval", 0.0);
    model.update(RunMsg::ApprovalAsked {
        run,
        request: request("refund"),
    });
    let cmds = model.update(RunMsg::Decided(Decision::Approve));
    assert_eq!(
        cmds,
        vec![RunCmd::Decide {
            run,
            decision: Decision::Approve
        }]
    );
    assert!(model.pending().is_none());
}

#[test]
fn a_second_decision_on_the_same_call_is_not_sent() {
    let mut model = RunModel::default();
    let run = started(&mut model, "refund-with-approval", 0.0);
    model.update(RunMsg::ApprovalAsked {
        run,
        request: request("refund"),
    });
    model.update(RunMsg::Decided(Decision::Deny { reason: None }));
    assert!(model.update(RunMsg::Decided(Decision::Approve)).is_empty());
}

#[test]
fn deciding_with_no_bar_shown_sends_nothing() {
    let mut model = RunModel::default();
    started(&mut model, "refund-with-approval", 0.0);
    assert!(model.update(RunMsg::Decided(Decision::Approve)).is_empty());
}

#[test]
fn an_approval_asked_then_the_run_ends_the_bar_is_gone() {
    let mut model = RunModel::default();
    let run = started(&mut model, "refund-with-approval", 0.0);
    model.update(RunMsg::ApprovalAsked {
        run,
        request: request("refund"),
    });
    model.update(RunMsg::StopPressed);
    ended(&mut model, run, 10);
    assert!(model.pending().is_none());
    assert!(model.update(RunMsg::Decided(Decision::Approve)).is_empty());
}

#[test]
fn a_new_run_does_not_inherit_the_last_runs_bar() {
    let mut model = RunModel::default();
    let run = started(&mut model, "refund-with-approval", 0.0);
    model.update(RunMsg::ApprovalAsked {
        run,
        request: request("refund"),
    });
    model.update(RunMsg::ResetPressed);
    run_pressed(&mut model);
    assert!(model.pending().is_none());
}

// --- Step mode --------------------------------------------------------------

#[test]
fn step_pressed_starts_a_run_in_step_mode() {
    let mut model = RunModel::default();
    let cmds = model.update(RunMsg::StepPressed("text".into()));
    assert_eq!(
        cmds,
        vec![RunCmd::Start {
            run: 1,
            text: "text".into()
        }]
    );
    assert!(model.step_mode() && model.running());
}

#[test]
fn a_pause_shows_what_the_run_does_next() {
    let mut model = RunModel::default();
    model.update(RunMsg::StepPressed("{}".into()));
    let run = model.run();
    model.update(RunMsg::Paused {
        run,
        pause: Pause {
            before: PauseBefore::ToolCall {
                id: "c1".into(),
                name: "get_time".into(),
            },
            refused: None,
        },
        now: 0.0,
    });
    assert_eq!(
        model.paused(),
        Some(&PauseBefore::ToolCall {
            id: "c1".into(),
            name: "get_time".into()
        })
    );
}

#[test]
fn step_at_a_pause_lets_the_run_take_one_step_and_pause_again() {
    let mut model = RunModel::default();
    model.update(RunMsg::StepPressed("{}".into()));
    let run = model.run();
    model.update(RunMsg::Paused {
        run,
        pause: pause_before_model(1, None),
        now: 0.0,
    });
    let cmds = model.update(RunMsg::StepPressed("{}".into()));
    assert_eq!(
        cmds,
        vec![RunCmd::Resume {
            run,
            resume: Resume::Go
        }]
    );
    assert!(model.paused().is_none());
    assert!(model.step_mode(), "the run would not pause again");
}

#[test]
fn run_at_a_pause_continues_and_leaves_step_mode() {
    let mut model = RunModel::default();
    model.update(RunMsg::StepPressed("{}".into()));
    let run = model.run();
    model.update(RunMsg::Paused {
        run,
        pause: pause_before_model(1, None),
        now: 0.0,
    });
    let cmds = model.update(RunMsg::RunPressed("{}".into()));
    assert_eq!(
        cmds,
        vec![RunCmd::Resume {
            run,
            resume: Resume::Go
        }]
    );
    assert!(!model.step_mode());
    assert!(model.paused().is_none());
}

#[test]
fn step_while_a_run_goes_asks_it_to_pause_before_its_next_call() {
    let mut model = RunModel::default();
    started(&mut model, "get-time", 0.0);
    let cmds = model.update(RunMsg::StepPressed("{}".into()));
    assert!(cmds.is_empty(), "no pause to resume, no new run: {cmds:?}");
    assert!(model.step_mode());
}

#[test]
fn an_answer_at_a_pause_is_sent_and_the_run_stays_in_step_mode() {
    let mut model = RunModel::default();
    model.update(RunMsg::RunPressed("{}".into()));
    let run = model.run();
    model.update(RunMsg::Paused {
        run,
        pause: pause_before_model(1, None),
        now: 0.0,
    });
    let answer = Resume::AnswerAsTool(Ok(json!({"time": "noon"})));
    let cmds = model.update(RunMsg::Answered(answer.clone()));
    assert_eq!(
        cmds,
        vec![RunCmd::Resume {
            run,
            resume: answer
        }]
    );
    assert!(model.step_mode());
}

#[test]
fn an_answer_with_no_pause_is_not_sent() {
    let mut model = RunModel::default();
    started(&mut model, "get-time", 0.0);
    let cmds = model.update(RunMsg::Answered(Resume::Go));
    assert!(cmds.is_empty());
}

#[test]
fn an_answer_refused_keeps_its_reason_until_the_next_pause() {
    let mut model = RunModel::default();
    model.update(RunMsg::StepPressed("{}".into()));
    let run = model.run();
    model.update(RunMsg::Paused {
        run,
        pause: pause_before_model(1, Some("this pause is before a model call")),
        now: 0.0,
    });
    model.update(RunMsg::Answered(Resume::AnswerAsTool(Ok(json!(1)))));
    assert_eq!(
        model.pause_refused().map(String::as_str),
        Some("this pause is before a model call"),
        "the reason went before the next pause"
    );
    model.update(RunMsg::Paused {
        run,
        pause: pause_before_model(2, None),
        now: 0.0,
    });
    assert!(model.pause_refused().is_none());
}

#[test]
fn a_pause_of_a_superseded_run_is_not_shown() {
    let mut model = RunModel::default();
    model.update(RunMsg::StepPressed("{}".into()));
    let old = model.run();
    model.update(RunMsg::ResetPressed);
    model.update(RunMsg::StepPressed("{}".into()));
    model.update(RunMsg::Paused {
        run: old,
        pause: pause_before_model(1, Some("refused")),
        now: 0.0,
    });
    assert!(model.paused().is_none() && model.pause_refused().is_none());
}

#[test]
fn the_pause_goes_when_the_run_ends() {
    let mut model = RunModel::default();
    model.update(RunMsg::StepPressed("{}".into()));
    let run = model.run();
    model.update(RunMsg::Paused {
        run,
        pause: pause_before_model(1, Some("refused")),
        now: 0.0,
    });
    model.update(RunMsg::StopPressed);
    ended(&mut model, run, 1);
    assert!(model.paused().is_none() && model.pause_refused().is_none());
    assert!(model.update(RunMsg::StepPressed("{}".into())).len() == 1);
}

#[test]
fn step_after_a_run_ended_starts_a_new_one() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    ended(&mut model, run, 1);
    let cmds = model.update(RunMsg::StepPressed("again".into()));
    assert_eq!(
        cmds,
        vec![RunCmd::Start {
            run: run + 1,
            text: "again".into()
        }]
    );
}

// --- The clock --------------------------------------------------------------

#[test]
fn the_clock_starts_when_the_run_is_set_up() {
    let mut model = RunModel::default();
    let run = run_pressed(&mut model);
    let cmds = model.update(RunMsg::SetUp {
        run,
        scenario: scenario("get-time"),
        setup: Ok(shape("get-time")),
        now: 1000.0,
    });
    assert_eq!(cmds, vec![RunCmd::ScheduleTick { run }]);
    model.update(RunMsg::Tick { run, now: 1250.0 });
    assert_eq!(model.elapsed_ms(), 250);
}

#[test]
fn each_tick_of_a_running_run_asks_for_the_next() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    assert_eq!(
        model.update(RunMsg::Tick { run, now: 100.0 }),
        vec![RunCmd::ScheduleTick { run }]
    );
}

#[test]
fn the_clock_stands_still_while_step_mode_holds_the_run() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    model.update(RunMsg::Tick { run, now: 300.0 });
    model.update(RunMsg::Paused {
        run,
        pause: pause_before_model(1, None),
        now: 300.0,
    });
    model.update(RunMsg::Tick { run, now: 5300.0 });
    assert_eq!(model.elapsed_ms(), 300);
}

#[test]
fn the_clock_goes_on_after_a_hold_without_the_time_held() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    model.update(RunMsg::Paused {
        run,
        pause: pause_before_model(1, None),
        now: 200.0,
    });
    model.update(RunMsg::Continued { run, now: 2200.0 });
    model.update(RunMsg::Tick { run, now: 2300.0 });
    assert_eq!(model.elapsed_ms(), 300);
    model.update(RunMsg::Paused {
        run,
        pause: pause_before_model(2, None),
        now: 2300.0,
    });
    model.update(RunMsg::Continued { run, now: 3300.0 });
    model.update(RunMsg::Tick { run, now: 3400.0 });
    assert_eq!(model.elapsed_ms(), 400, "two holds are both left out");
}

#[test]
fn the_clock_stops_ticking_when_the_run_ends() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    ended(&mut model, run, 120);
    assert!(model.update(RunMsg::Tick { run, now: 900.0 }).is_empty());
    assert_eq!(model.elapsed_ms(), 120);
}

#[test]
fn a_superseded_runs_tick_is_neither_shown_nor_renewed() {
    let mut model = RunModel::default();
    let old = started(&mut model, "get-time", 0.0);
    model.update(RunMsg::ResetPressed);
    started(&mut model, "get-time", 1000.0);
    assert!(model
        .update(RunMsg::Tick {
            run: old,
            now: 5000.0
        })
        .is_empty());
    assert_eq!(model.elapsed_ms(), 0);
}

#[test]
fn an_ended_run_shows_its_own_time() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    model.update(RunMsg::Tick { run, now: 100.0 });
    ended(&mut model, run, 1234);
    assert_eq!(model.elapsed_ms(), 1234);
}

#[test]
fn a_tick_before_the_set_up_shows_no_time() {
    let mut model = RunModel::default();
    let run = run_pressed(&mut model);
    assert!(model.update(RunMsg::Tick { run, now: 500.0 }).is_empty());
    assert_eq!(model.elapsed_ms(), 0);
}

// --- Problems ---------------------------------------------------------------

#[test]
fn a_scenario_that_does_not_load_lists_why_and_is_not_running() {
    let mut model = RunModel::default();
    let run = run_pressed(&mut model);
    let cmds = model.update(RunMsg::Refused {
        run,
        problems: vec!["max_turns: must be at least 1".into()],
    });
    assert_eq!(model.problems(), ["max_turns: must be at least 1"]);
    assert!(!model.running());
    assert_eq!(cmds, vec![RunCmd::LetGo]);
}

#[test]
fn problems_replace_the_last_runs_trace() {
    let mut model = RunModel::default();
    let first = started(&mut model, "get-time", 0.0);
    feed(&mut model, first, &trace("get-time"));
    ended(&mut model, first, 5);
    let run = run_pressed(&mut model);
    model.update(RunMsg::Refused {
        run,
        problems: vec!["tools: unknown".into()],
    });
    assert!(model.events().is_empty() && model.cards().is_empty());
    assert!(
        model.ran().is_none(),
        "an export would name the last scenario"
    );
    assert_eq!(status(&model), None);
}

#[test]
fn a_run_that_cannot_be_built_keeps_its_scenario_and_lists_why() {
    let mut model = RunModel::default();
    let run = run_pressed(&mut model);
    let cmds = model.update(RunMsg::SetUp {
        run,
        scenario: scenario("get-time"),
        setup: Err(vec!["tools[0]: no such tool".into()]),
        now: 0.0,
    });
    assert_eq!(model.problems(), ["tools[0]: no such tool"]);
    assert!(!model.running());
    assert!(model.ran().is_some());
    assert_eq!(cmds, vec![RunCmd::LetGo]);
}

#[test]
fn a_run_that_fails_to_build_after_loading_lists_why() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    model.update(RunMsg::Ended {
        run,
        result: Err(vec!["model: no provider".into()]),
    });
    assert_eq!(model.problems(), ["model: no provider"]);
    assert!(!model.running());
}

#[test]
fn a_set_up_run_shows_its_scenario_and_request_shape() {
    let mut model = RunModel::default();
    started(&mut model, "get-time", 0.0);
    assert_eq!(
        model.ran().map(|s| (**s).clone()),
        Some(scenario("get-time"))
    );
    assert_eq!(**model.wire_setup(), shape("get-time"));
}

// --- Recorded runs ----------------------------------------------------------

fn record(id: &str) -> Record {
    Record {
        scenario: Some(scenario(id)),
        events: trace(id),
        forked_at: None,
    }
}

#[test]
fn a_recorded_run_shown_is_finished_with_its_whole_trace() {
    let mut model = RunModel::default();
    let shown = record("tool-call-limit");
    model.update(RunMsg::RecordShown(shown.clone()));
    assert!(!model.running());
    assert_eq!(model.events(), &shown.events[..]);
    assert_eq!(model.counters(), &view_model::counters(&shown.events));
    assert_eq!(status(&model), Some(Status::ToolCallLimit));
}

#[test]
fn a_recorded_run_shown_stops_the_run_in_flight() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    let cmds = model.update(RunMsg::RecordShown(record("get-time")));
    assert_eq!(cmds[..2], [RunCmd::Cancel { run }, RunCmd::LetGo]);
    feed(&mut model, run, &cancelled_trace("get-time"));
    assert_eq!(status(&model), Some(Status::Done), "the stopped run wrote");
}

#[test]
fn a_recorded_run_shows_its_outcomes_time() {
    let mut model = RunModel::default();
    let mut shown = record("get-time");
    if let Some(RunEvent {
        kind: EventKind::RunFinished(outcome),
        ..
    }) = shown.events.last_mut()
    {
        outcome.elapsed_ms = 4321;
    }
    model.update(RunMsg::RecordShown(shown));
    assert_eq!(model.elapsed_ms(), 4321);
}

#[test]
fn a_recorded_run_asks_for_its_request_shape() {
    let mut model = RunModel::default();
    let cmds = model.update(RunMsg::RecordShown(record("get-time")));
    let run = model.run();
    assert_eq!(
        cmds.last(),
        Some(&RunCmd::BuildSetup {
            run,
            scenario: Box::new(scenario("get-time"))
        })
    );
    model.update(RunMsg::SetupRebuilt {
        run,
        setup: Ok(shape("get-time")),
    });
    assert_eq!(**model.wire_setup(), shape("get-time"));
}

#[test]
fn a_request_shape_for_a_record_no_longer_shown_is_dropped() {
    let mut model = RunModel::default();
    model.update(RunMsg::RecordShown(record("get-time")));
    let first = model.run();
    model.update(RunMsg::RecordShown(record("hotel-search")));
    model.update(RunMsg::SetupRebuilt {
        run: first,
        setup: Ok(shape("get-time")),
    });
    assert_eq!(**model.wire_setup(), RequestShape::default());
}

#[test]
fn a_record_naming_a_tool_this_page_lacks_says_why() {
    let mut model = RunModel::default();
    model.update(RunMsg::RecordShown(record("get-time")));
    let run = model.run();
    model.update(RunMsg::SetupRebuilt {
        run,
        setup: Err(vec!["tools[0]: unknown tool".into()]),
    });
    assert_eq!(model.problems(), ["tools[0]: unknown tool"]);
    assert_eq!(model.events().len(), trace("get-time").len());
}

#[test]
fn a_record_without_its_scenario_asks_for_no_request_shape() {
    let mut model = RunModel::default();
    let mut shown = record("get-time");
    shown.scenario = None;
    let cmds = model.update(RunMsg::RecordShown(shown));
    assert!(!cmds
        .iter()
        .any(|cmd| matches!(cmd, RunCmd::BuildSetup { .. })));
    assert!(model.ran().is_none());
}

#[test]
fn run_after_a_recorded_run_starts_a_fresh_run() {
    let mut model = RunModel::default();
    model.update(RunMsg::RecordShown(record("get-time")));
    let cmds = model.update(RunMsg::RunPressed("new".into()));
    assert!(matches!(cmds[..], [RunCmd::Start { .. }]));
    assert!(model.events().is_empty());
    assert_eq!(model.elapsed_ms(), 0);
}

// --- More of what a person sees ----------------------------------------------

#[test]
fn an_edited_approval_carries_the_new_arguments_to_the_run() {
    let mut model = RunModel::default();
    let run = started(&mut model, "refund-with-approval", 0.0);
    model.update(RunMsg::ApprovalAsked {
        run,
        request: request("refund"),
    });
    let edited = Decision::ApproveEdited(json!({"order_id": "B-2"}));
    let cmds = model.update(RunMsg::Decided(edited.clone()));
    assert_eq!(
        cmds,
        vec![RunCmd::Decide {
            run,
            decision: edited
        }]
    );
}

#[test]
fn another_scenario_keeps_a_paused_runs_pause() {
    let mut model = RunModel::default();
    model.update(RunMsg::StepPressed("{}".into()));
    let run = model.run();
    model.update(RunMsg::Paused {
        run,
        pause: pause_before_model(1, None),
        now: 0.0,
    });
    model.update(RunMsg::AnotherScenario);
    assert_eq!(model.paused(), Some(&PauseBefore::ModelCall { turn: 1 }));
}

#[test]
fn a_frame_with_nothing_new_leaves_the_trace_as_it_is() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    let events = trace("get-time");
    feed(&mut model, run, &events[..3]);
    let cards = model.cards().to_vec();
    model.update(RunMsg::Frame);
    assert_eq!(model.events(), &events[..3]);
    assert_eq!(model.cards(), &cards[..]);
}

#[test]
fn a_superseded_runs_continuing_leaves_the_clock_alone() {
    let mut model = RunModel::default();
    let old = started(&mut model, "get-time", 0.0);
    model.update(RunMsg::ResetPressed);
    let run = started(&mut model, "get-time", 0.0);
    model.update(RunMsg::Paused {
        run,
        pause: pause_before_model(1, None),
        now: 100.0,
    });
    model.update(RunMsg::Continued {
        run: old,
        now: 900.0,
    });
    model.update(RunMsg::Tick { run, now: 1100.0 });
    assert_eq!(model.elapsed_ms(), 100, "the new run's hold was ended");
}

#[test]
fn the_run_in_flight_is_stopped_once_even_if_stop_is_pressed_twice_after_it_ended() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    assert_eq!(model.update(RunMsg::StopPressed).len(), 1);
    feed(&mut model, run, &cancelled_trace("get-time"));
    ended(&mut model, run, 1);
    assert!(model.update(RunMsg::StopPressed).is_empty());
}

#[test]
fn a_pause_before_a_tool_call_answered_as_the_tool_sends_the_result() {
    let mut model = RunModel::default();
    model.update(RunMsg::StepPressed("{}".into()));
    let run = model.run();
    model.update(RunMsg::Paused {
        run,
        pause: Pause {
            before: PauseBefore::ToolCall {
                id: "c1".into(),
                name: "get_time".into(),
            },
            refused: None,
        },
        now: 0.0,
    });
    let answer = Resume::AnswerAsTool(Err("the clock is broken".into()));
    let cmds = model.update(RunMsg::Answered(answer.clone()));
    assert_eq!(
        cmds,
        vec![RunCmd::Resume {
            run,
            resume: answer
        }]
    );
    assert!(model.paused().is_none());
}

#[test]
fn reset_after_a_finished_run_cancels_nothing() {
    let mut model = RunModel::default();
    let run = started(&mut model, "get-time", 0.0);
    ended(&mut model, run, 2);
    assert_eq!(model.update(RunMsg::ResetPressed), vec![RunCmd::LetGo]);
}

#[test]
fn a_record_shown_twice_is_shown_once_not_doubled() {
    let mut model = RunModel::default();
    let shown = record("get-time");
    model.update(RunMsg::RecordShown(shown.clone()));
    model.update(RunMsg::RecordShown(shown.clone()));
    assert_eq!(model.events(), &shown.events[..]);
    assert_eq!(model.counters(), &view_model::counters(&shown.events));
}

#[test]
fn a_new_run_after_a_record_takes_a_new_id() {
    let mut model = RunModel::default();
    model.update(RunMsg::RecordShown(record("get-time")));
    let shown = model.run();
    assert_ne!(run_pressed(&mut model), shown);
}
