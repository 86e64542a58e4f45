//! The loop diagram's model against real traces: every built-in scenario is
//! run natively (tokio's paused clock, every approval approved) and its
//! trace fed to `LoopDiagram`. The exit must be the run's status with its
//! reason, each edge must count the events that went that way, and the
//! gates must show the run's own totals. Then step mode, the pitfall
//! variants, and the stops that are only known at `run_finished`.

#![cfg(not(target_arch = "wasm32"))]
// A test runs the engine directly; the split rule (clippy.toml) is about
// the web app's first paint.
#![allow(clippy::disallowed_methods)]

use std::cell::RefCell;
use std::rc::Rc;

use agent_loop_playground::loop_diagram::{EdgeStyle, LoopDiagram, NodeId, Passes, Pick};
use agent_loop_playground::run::view_model;
use futures::future::LocalBoxFuture;
use harness::approval::{ApprovalRequest, Approver, Decision};
use harness::cancel::CancelToken;
use harness::driver::{Pause, Resume, Stepper};
use harness::event::{EventKind, Outcome, RunEvent, Status};
use harness::library::{self, BuiltinScenario, BUILTIN};
use harness::limits::CostMode;
use harness::numbers::thousands;
use harness::run::PauseBefore;
use harness::runtime::TokioRuntime;
use harness::scenario::Scenario;
use harness::RunOptions;

struct Approve(Decision);

impl Approver for Approve {
    fn decide<'a>(&'a self, _: &'a ApprovalRequest) -> LocalBoxFuture<'a, Decision> {
        let decision = self.0.clone();
        Box::pin(async move { decision })
    }
}

/// Pauses before every step and goes on at once, noting how many events
/// had come when it paused and what it paused before.
struct RecordingStepper {
    events: Rc<RefCell<Vec<RunEvent>>>,
    pauses: RefCell<Vec<(usize, PauseBefore)>>,
}

impl Stepper for RecordingStepper {
    fn step_mode(&self) -> bool {
        true
    }

    fn wait(&self, pause: &Pause) -> LocalBoxFuture<'static, Resume> {
        let seen = self.events.borrow().len();
        self.pauses.borrow_mut().push((seen, pause.before.clone()));
        Box::pin(async { Resume::Go })
    }
}

fn load(builtin: &BuiltinScenario) -> Scenario {
    Scenario::load(builtin.json()).unwrap_or_else(|_| panic!("{} loads", builtin.id))
}

/// Runs `scenario` on a clock that has been running for `age_ms`.
async fn run(
    scenario: &Scenario,
    age_ms: u64,
    approver: &dyn Approver,
    stepper: Option<&dyn Stepper>,
    cancel: CancelToken,
    events: Rc<RefCell<Vec<RunEvent>>>,
) -> Outcome {
    let runtime = Rc::new(TokioRuntime::default());
    tokio::time::sleep(std::time::Duration::from_millis(age_ms)).await;
    let sink = events.clone();
    harness::run_scenario(
        scenario,
        runtime,
        RunOptions {
            approver: Some(approver),
            stepper,
            cancel,
            ..RunOptions::default()
        },
        &mut |event: &RunEvent| sink.borrow_mut().push(event.clone()),
    )
    .await
    .expect("the scenario builds")
}

/// Runs a built-in as the page would: approving, on an aged clock, with
/// Stop pressed where its lesson asks for it.
async fn run_builtin(builtin: &BuiltinScenario) -> (Outcome, Vec<RunEvent>) {
    let events = Rc::new(RefCell::new(Vec::new()));
    let cancel = CancelToken::default();
    let clock = TokioRuntime::default();
    let stop = cancel.cancel_after(&clock, builtin.stop_pressed_after_ms());
    let scenario = load(builtin);
    let run = run(
        &scenario,
        library::clock_age_needed_ms(builtin),
        &Approve(Decision::Approve),
        None,
        cancel,
        events.clone(),
    );
    let (outcome, ()) = futures::join!(run, stop);
    let events = events.take();
    (outcome, events)
}

fn count(events: &[RunEvent], pick: impl Fn(&EventKind) -> bool) -> u32 {
    events.iter().filter(|e| pick(&e.kind)).count() as u32
}

fn edge_count(d: &LoopDiagram, from: NodeId, to: NodeId) -> u32 {
    d.edge(from, to)
        .unwrap_or_else(|| panic!("no edge {from:?} → {to:?}"))
        .count
}

fn is_cut_short(kind: &EventKind) -> bool {
    matches!(
        kind,
        EventKind::ToolResult {
            fate: Some(harness::event::ResultFate::CutShort),
            ..
        }
    )
}

/// What the diagram must say about a finished trace, checked against the
/// events and the outcome themselves.
fn check_trace(id: &str, outcome: &Outcome, events: &[RunEvent]) {
    let d = LoopDiagram::from_events(events);
    let status = outcome.status;
    let chain = d.variant().chain();

    // The exit is the run's status, in its tone, with its reason, and the
    // run is there.
    let exit = d.exit().unwrap_or_else(|| panic!("{id}: no exit"));
    assert_eq!(exit.status, status, "{id}");
    assert_eq!(exit.tone, outcome.tone(), "{id}");
    assert_eq!(exit.reason, outcome.reason, "{id}");
    let current = d.current().expect("a finished run is at its exit");
    assert_eq!(current.node, NodeId::Exit(status), "{id}");
    assert!(!current.next, "{id}");
    assert!(
        d.accessible_name(NodeId::Exit(status))
            .contains(&outcome.reason),
        "{id}: the exit's accessible name gives the reason"
    );
    let finished = events.last().expect("events").seq;
    assert_eq!(d.node_of(finished), Some(NodeId::Exit(status)), "{id}");

    // One way out, taken once: the exit of its status.
    let exits_taken: Vec<_> = d
        .edges()
        .iter()
        .filter(|e| matches!(e.key.to, NodeId::Exit(_)) && e.count > 0)
        .map(|e| (e.key, e.count))
        .collect();
    assert_eq!(exits_taken.len(), 1, "{id}: {exits_taken:?}");
    assert_eq!(exits_taken[0].0.to, NodeId::Exit(status), "{id}");
    assert_eq!(exits_taken[0].0.from, exit.from, "{id}");
    assert_eq!(exits_taken[0].1, 1, "{id}");
    assert!(d.stray().is_empty(), "{id}: {:?}", d.stray());

    // Every event has its place on the loop.
    for event in events {
        assert!(d.node_of(event.seq).is_some(), "{id}: event {}", event.seq);
    }

    // The edges count the events that went that way.
    let first_tries = count(events, |k| {
        matches!(k, EventKind::ModelRequest { attempt: 1, .. })
    });
    let retries = count(
        events,
        |k| matches!(k, EventKind::ModelRequest { attempt, .. } if *attempt > 1),
    );
    let retried_errors = count(events, |k| {
        matches!(
            k,
            EventKind::ModelError {
                retry_in_ms: Some(_),
                ..
            }
        )
    });
    let responses = count(events, |k| matches!(k, EventKind::ModelResponse { .. }));
    assert_eq!(
        edge_count(&d, chain[chain.len() - 2], NodeId::ModelCall),
        first_tries,
        "{id}: into the model call"
    );
    assert_eq!(
        edge_count(&d, NodeId::Backoff, NodeId::ModelCall),
        retries,
        "{id}"
    );
    assert_eq!(
        edge_count(&d, NodeId::ModelCall, NodeId::Backoff),
        retried_errors,
        "{id}"
    );
    assert_eq!(
        edge_count(&d, NodeId::ModelCall, NodeId::Response),
        responses,
        "{id}"
    );
    assert_eq!(
        d.node(NodeId::ModelCall).unwrap().events.len() as u32,
        first_tries + retries + count(events, |k| matches!(k, EventKind::ModelError { .. })),
        "{id}: the model call lists its requests and errors"
    );
    // A context strategy's edit happens at the Context gate, which lists it
    // beside the turns that passed the gate.
    let edits: Vec<u64> = events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::ContextEdited { .. }))
        .map(|e| e.seq)
        .collect();
    let at_gate = &d.node(NodeId::GateContext).unwrap().events;
    assert!(
        edits.iter().all(|seq| at_gate.contains(seq)),
        "{id}: the Context gate lists its edits"
    );
    assert!(
        edits
            .iter()
            .all(|seq| d.node_of(*seq) == Some(NodeId::GateContext)),
        "{id}: an edit happened at the Context gate"
    );
    // Each call the harness took up enters the per-call checks once.
    assert_eq!(
        edge_count(&d, NodeId::Response, NodeId::GateToolCalls)
            + edge_count(&d, NodeId::Results, NodeId::GateToolCalls),
        outcome.tool_calls,
        "{id}: calls taken up"
    );
    // Each of those calls' result goes back to the model, except the one a
    // per-call stop took, and those a stop cut off.
    let stop_took_last = matches!(
        status,
        Status::ToolCallLimit | Status::RepeatedCall | Status::Blocked
    );
    let cut_short = count(events, is_cut_short);
    let back = edge_count(&d, NodeId::RunTool, NodeId::Results)
        + edge_count(&d, NodeId::Validate, NodeId::Results)
        + edge_count(&d, NodeId::Approval, NodeId::Results);
    let expected_back = if stop_took_last {
        outcome.tool_calls - 1
    } else {
        outcome.tool_calls - cut_short
    };
    assert_eq!(back, expected_back, "{id}: results back to the model");
    // The next turn is taken once for each turn that follows a turn of
    // calls, and once more when a gate stops the run right after results.
    let pauses = count(events, |k| {
        matches!(k, EventKind::ModelResponse { stop_reason, content, .. }
            if stop_reason == "pause_turn" && harness::message::tool_calls_of(content).next().is_none())
    }) + window_compacted_turns(events);
    let before_finish = &events[events.len() - 2].kind;
    let window_gate =
        status == Status::ContextLimit && d.exit().is_some_and(|e| e.from == NodeId::GateContext);
    let gate_after_results = (matches!(
        status,
        Status::TurnLimit | Status::TokenLimit | Status::CostLimit | Status::Deadline
    ) || window_gate)
        && matches!(before_finish, EventKind::ToolResult { content, .. } if !content.starts_with("not run"));
    assert_eq!(
        edge_count(&d, NodeId::Results, chain[0]),
        first_tries.saturating_sub(1) - pauses + u32::from(gate_after_results),
        "{id}: next turn"
    );

    // The gates show the run's own totals, as the counters do.
    let g = d.gauges();
    assert_eq!(g.turns, outcome.turns, "{id}");
    assert_eq!(
        g.tokens,
        outcome.input_tokens + outcome.output_tokens,
        "{id}"
    );
    assert_eq!(g.cost_usd, outcome.cost_usd, "{id}");
    assert_eq!(g.tool_calls, outcome.tool_calls, "{id}");
    assert_eq!(g.elapsed_ms, outcome.elapsed_ms, "{id}");
    let counters = view_model::counters(events);
    let gates = d.gates();
    let text = |name: &str| {
        gates
            .iter()
            .find(|g| g.name == name)
            .map(|g| g.text.clone())
            .unwrap()
    };
    assert_eq!(text("turns"), counters.turn_text(), "{id}");
    assert_eq!(text("cost"), counters.cost_text(), "{id}");
    // Tokens grouped as the header groups them (`1,234 / 4,000`).
    let tokens = gates.iter().find(|g| g.name == "tokens").unwrap();
    assert_eq!(
        tokens.value,
        thousands(outcome.input_tokens + outcome.output_tokens),
        "{id}"
    );
    if counters.max_total_tokens.is_some() {
        assert!(
            counters.tokens_text().starts_with(&tokens.text),
            "{id}: gate {} against the header's {}",
            tokens.text,
            counters.tokens_text()
        );
    }
    // One count of tool calls: the header, the gate, the banner and
    // `run_finished` say the same numbers by the same names.
    let calls = outcome.calls.expect("the run counts its calls");
    assert_eq!(counters.tool_calls.counts(), calls, "{id}");
    assert!(
        text("tool calls").starts_with(&format!("{} checked", calls.checked)),
        "{id}: gate {}",
        text("tool calls")
    );
    if let Some(max) = counters.max_tool_calls {
        assert_eq!(
            counters.tool_calls_text(),
            format!(
                "{} · {} checked, limit {max}",
                calls.summary(0),
                calls.checked
            ),
            "{id}"
        );
    }
    let banner = view_model::banner(outcome);
    assert!(
        banner
            .facts(&counters.tool_calls)
            .contains(&format!("tool calls: {} · ", calls.summary(0))),
        "{id}"
    );
    assert_eq!(banner.tone, exit.tone, "{id}");
    // The provider's own window stop (from the response) trips no gate.
    let tripped = NodeId::gate_of(status).filter(|_| status != Status::ContextLimit || window_gate);
    assert_eq!(d.tripped_gate(), tripped, "{id}");
    for gate in &gates {
        assert_eq!(gate.tripped, Some(gate.node) == d.tripped_gate(), "{id}");
    }

    // While it played, before `run_finished`, the gates followed the events.
    let live = LoopDiagram::from_events(&events[..events.len() - 1]);
    let before = view_model::counters(&events[..events.len() - 1]);
    let lg = live.gauges();
    assert_eq!(lg.turns, before.turn, "{id}");
    assert_eq!(
        lg.tokens,
        before.input_tokens + before.output_tokens,
        "{id}"
    );
    assert!((lg.cost_usd - before.cost_usd).abs() < 1e-12, "{id}");
    assert!(live.exit().is_none(), "{id}");
}

#[tokio::test(start_paused = true)]
async fn every_built_in_lights_its_exit_and_counts_its_events() {
    for builtin in BUILTIN {
        let (outcome, events) = run_builtin(builtin).await;
        assert_eq!(
            outcome.status.as_str(),
            builtin.expected_status,
            "{} ended otherwise than the library says",
            builtin.id
        );
        check_trace(builtin.id, &outcome, &events);
    }
}

#[tokio::test(start_paused = true)]
async fn each_exit_offers_a_built_in_that_ends_there() {
    for status in Status::ALL {
        let lesson = LoopDiagram::lesson(status)
            .unwrap_or_else(|| panic!("the {status} exit offers no built-in"));
        let builtin = library::find(lesson.id).unwrap();
        assert_eq!(lesson.name, builtin.name());
        let (_, events) = run_builtin(builtin).await;
        let d = LoopDiagram::from_events(&events);
        assert_eq!(d.exit().map(|e| e.status), Some(status), "{}", lesson.id);
    }
    assert_eq!(
        LoopDiagram::lesson(Status::TurnLimit).unwrap().id,
        "turn-limit"
    );
    assert_eq!(LoopDiagram::lesson(Status::Done).unwrap().id, "get-time");
}

#[tokio::test(start_paused = true)]
async fn in_step_mode_the_node_about_to_run_is_marked_next() {
    let builtin = library::find("get-time").unwrap();
    let events = Rc::new(RefCell::new(Vec::new()));
    let stepper = RecordingStepper {
        events: events.clone(),
        pauses: RefCell::new(Vec::new()),
    };
    run(
        &load(builtin),
        0,
        &Approve(Decision::Approve),
        Some(&stepper),
        CancelToken::default(),
        events.clone(),
    )
    .await;
    let events = events.take();
    let pauses = stepper.pauses.take();
    let texts: Vec<(NodeId, String)> = pauses
        .iter()
        .map(|(seen, before)| {
            let mut d = LoopDiagram::from_events(&events[..*seen]);
            d.set_paused(Some(before.clone()));
            let current = d.current().expect("paused");
            assert!(current.next);
            assert!(
                d.accessible_name(current.node).contains(&current.text),
                "{}",
                d.accessible_name(current.node)
            );
            (current.node, current.text)
        })
        .collect();
    assert_eq!(
        texts,
        [
            (NodeId::ModelCall, "next: model call, turn 1".to_string()),
            (NodeId::RunTool, "next: tool call get_time".to_string()),
            (NodeId::ModelCall, "next: model call, turn 2".to_string()),
        ]
    );
    // The page may learn of the first pause before the run's first events
    // reach the drawing: the caption still says what runs next.
    let mut d = LoopDiagram::default();
    d.set_paused(Some(pauses[0].1.clone()));
    events[..pauses[0].0].iter().for_each(|e| d.observe(e));
    assert_eq!(d.current().unwrap().text, "next: model call, turn 1");
    // Once the run has ended, a stale pause marks nothing.
    let mut d = LoopDiagram::from_events(&events);
    d.set_paused(Some(pauses[1].1.clone()));
    assert_eq!(d.current().unwrap().node, NodeId::Exit(Status::Done));
}

/// The node where the run is draws its label and, under it, where the run
/// is; its accessible name says those words first, in that order, so a
/// person who says what they see names it (axe's
/// label-content-name-mismatch). Running there (not paused before it), it
/// also says the run is there.
#[tokio::test(start_paused = true)]
async fn the_node_where_the_run_is_is_named_first_by_the_words_it_draws() {
    let (_, events) = run_builtin(library::find("refund-with-approval").unwrap()).await;
    let mut seen = 0;
    for end in 1..events.len() {
        let d = LoopDiagram::from_events(&events[..end]);
        let Some(current) = d.current().filter(|c| !matches!(c.node, NodeId::Exit(_))) else {
            continue;
        };
        let label = &d.node(current.node).unwrap().label;
        let name = d.accessible_name(current.node);
        assert!(
            name.starts_with(&format!("{label}, {}", current.text)),
            "after event {end}: {name}"
        );
        assert!(
            name.ends_with(", the run is here"),
            "after event {end}: {name}"
        );
        seen += 1;
    }
    assert!(seen > 0, "the run was never at a node");
    // Paused before a step: the words drawn say it is next.
    let mut d = LoopDiagram::default();
    d.set_paused(Some(PauseBefore::ModelCall { turn: 1 }));
    let name = d.accessible_name(NodeId::ModelCall);
    assert!(
        name.starts_with("Model call, next: model call, turn 1"),
        "{name}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_naive_cost_check_is_a_gate_after_the_call_and_a_strict_one_before_it() {
    let (_, naive) = run_builtin(library::find("cost-limit-naive").unwrap()).await;
    let (_, strict) = run_builtin(library::find("cost-limit-strict").unwrap()).await;
    let naive = LoopDiagram::from_events(&naive);
    let strict = LoopDiagram::from_events(&strict);
    assert_eq!(naive.variant().cost, CostMode::Naive);
    assert_eq!(
        naive.variant().chain(),
        [
            NodeId::GateCost,
            NodeId::GateDeadline,
            NodeId::GateTurns,
            NodeId::GateTokens,
            NodeId::GateContext,
            NodeId::ModelCall
        ]
    );
    assert_eq!(
        strict.variant().chain(),
        [
            NodeId::GateDeadline,
            NodeId::GateTurns,
            NodeId::GateTokens,
            NodeId::GateCost,
            NodeId::GateContext,
            NodeId::ModelCall
        ]
    );
    // Naive: results come back through the cost gate; the first turn and the
    // model call never meet it.
    assert!(naive.edge(NodeId::Results, NodeId::GateCost).is_some());
    assert!(naive.edge(NodeId::GateCost, NodeId::GateContext).is_none());
    assert!(naive
        .edge(NodeId::Response, NodeId::Exit(Status::CostLimit))
        .is_none());
    assert!(naive
        .node(NodeId::GateCost)
        .unwrap()
        .note
        .starts_with("Naive:"));
    // Strict: the gate stands right before the call, and a response that
    // cost more than its estimate has its own way out.
    assert!(strict.edge(NodeId::GateCost, NodeId::GateContext).is_some());
    assert!(strict.edge(NodeId::Results, NodeId::GateDeadline).is_some());
    assert!(strict
        .edge(NodeId::Response, NodeId::Exit(Status::CostLimit))
        .is_some());
    assert!(strict
        .node(NodeId::GateCost)
        .unwrap()
        .note
        .starts_with("Strict:"));
    // Both stop at their gate, after the turn's results.
    assert_eq!(naive.exit().unwrap().from, NodeId::GateCost);
    assert_eq!(strict.exit().unwrap().from, NodeId::GateCost);
    assert_eq!(edge_count(&naive, NodeId::Results, NodeId::GateCost), 2);
    assert_eq!(
        edge_count(&strict, NodeId::Results, NodeId::GateDeadline),
        1
    );
}

#[tokio::test(start_paused = true)]
async fn a_deadline_checked_between_steps_cannot_cut_a_hung_call() {
    let (_, between) = run_builtin(library::find("deadline-between-steps").unwrap()).await;
    let (_, interrupts) = run_builtin(library::find("deadline-interrupts-tool").unwrap()).await;
    let between = LoopDiagram::from_events(&between);
    let interrupts = LoopDiagram::from_events(&interrupts);
    let deadline = NodeId::Exit(Status::Deadline);

    let cut = interrupts.edge(NodeId::RunTool, deadline).unwrap();
    assert_eq!(cut.style, EdgeStyle::Normal);
    assert_eq!(cut.count, 1);
    assert_eq!(interrupts.exit().unwrap().from, NodeId::RunTool);
    assert_eq!(interrupts.exit().unwrap().stopped_at, Some(NodeId::RunTool));
    assert_eq!(edge_count(&interrupts, NodeId::RunTool, NodeId::Results), 0);

    let not_taken = between.edge(NodeId::RunTool, deadline).unwrap();
    assert_eq!(not_taken.style, EdgeStyle::NotTaken);
    assert_eq!(not_taken.count, 0);
    assert!(not_taken.label.contains("between_steps"));
    assert_eq!(between.exit().unwrap().from, NodeId::GateDeadline);
    // The hung lookup ran to its end and its result went back.
    assert_eq!(edge_count(&between, NodeId::RunTool, NodeId::Results), 1);
    assert!(between
        .node(NodeId::GateDeadline)
        .unwrap()
        .note
        .contains("between steps"));
    for from in [NodeId::ModelCall, NodeId::Backoff, NodeId::Approval] {
        assert_eq!(
            between.edge(from, deadline).unwrap().style,
            EdgeStyle::NotTaken
        );
        assert_eq!(
            interrupts.edge(from, deadline).unwrap().style,
            EdgeStyle::Normal
        );
    }
}

#[tokio::test(start_paused = true)]
async fn a_naive_repeat_check_says_it_misses_a_cycle_and_lets_one_through() {
    let (_, naive) = run_builtin(library::find("repeated-call-naive").unwrap()).await;
    let (_, canonical) = run_builtin(library::find("repeated-call").unwrap()).await;
    let naive = LoopDiagram::from_events(&naive);
    let canonical = LoopDiagram::from_events(&canonical);
    let note = &naive.node(NodeId::GateRepeat).unwrap().note;
    assert!(
        note.starts_with("Naive:") && note.contains("A, B, A, B"),
        "{note}"
    );
    assert!(canonical
        .node(NodeId::GateRepeat)
        .unwrap()
        .note
        .contains("is caught"));
    // The naive run passed the gate with every call and ended done.
    assert_eq!(naive.exit().unwrap().status, Status::Done);
    assert_eq!(
        edge_count(&naive, NodeId::GateRepeat, NodeId::Validate),
        naive.gauges().tool_calls
    );
    assert_eq!(canonical.exit().unwrap().from, NodeId::GateRepeat);
    assert!(naive
        .accessible_name(NodeId::GateRepeat)
        .contains("in a row"));
}

#[tokio::test(start_paused = true)]
async fn a_refused_call_and_the_calls_after_it_are_placed_once_the_run_has_finished() {
    let (outcome, events) = run_builtin(library::find("tool-call-limit").unwrap()).await;
    let d = LoopDiagram::from_events(&events);
    let calls: Vec<u64> = events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::ToolCall { .. }))
        .map(|e| e.seq)
        .collect();
    assert_eq!((calls.len(), outcome.tool_calls), (8, 7));
    // The seventh call was refused at the gate; the eighth never reached it.
    assert_eq!(d.node_of(calls[6]), Some(NodeId::GateToolCalls));
    assert_eq!(
        d.node_of(calls[7]),
        Some(NodeId::Exit(Status::ToolCallLimit))
    );
    assert_eq!(d.node_of(calls[5]), Some(NodeId::Validate));
    let gate = d
        .gates()
        .into_iter()
        .find(|g| g.node == NodeId::GateToolCalls)
        .unwrap();
    assert_eq!((gate.text.as_str(), gate.tripped), ("7 checked / 6", true));
    assert!(d
        .accessible_name(NodeId::GateToolCalls)
        .ends_with("7 checked / 6, a gate, tripped: it stopped the run"));
    // Live, just before the stop, the same calls were still on their way.
    let at = events.iter().position(|e| e.seq == calls[7]).unwrap();
    let live = LoopDiagram::from_events(&events[..at]);
    assert_eq!(live.gauges().tool_calls, 7);
    assert!(live.exit().is_none());
}

#[tokio::test(start_paused = true)]
async fn a_denial_with_a_reason_goes_back_to_the_model_from_the_approval_gate() {
    let builtin = library::find("refund-with-approval").unwrap();
    let events = Rc::new(RefCell::new(Vec::new()));
    let outcome = run(
        &load(builtin),
        0,
        &Approve(Decision::Deny {
            reason: Some("not today".to_string()),
        }),
        None,
        CancelToken::default(),
        events.clone(),
    )
    .await;
    let events = events.take();
    check_trace("refund denied", &outcome, &events);
    let d = LoopDiagram::from_events(&events);
    assert_eq!(edge_count(&d, NodeId::Approval, NodeId::Results), 1);
    assert_eq!(edge_count(&d, NodeId::Approval, NodeId::RunTool), 0);
    let decided = events
        .iter()
        .find(|e| matches!(e.kind, EventKind::ApprovalDecided { .. }))
        .unwrap();
    assert_eq!(d.node_of(decided.seq), Some(NodeId::Approval));
}

#[tokio::test(start_paused = true)]
async fn stop_pressed_during_a_hung_call_ends_at_cancelled_and_says_where_it_was() {
    let builtin = library::find("deadline-between-steps").unwrap();
    let events = Rc::new(RefCell::new(Vec::new()));
    let cancel = CancelToken::default();
    let stopper = cancel.clone();
    let approver = Approve(Decision::Approve);
    let scenario = load(builtin);
    let (outcome, ()) = tokio::join!(
        run(&scenario, 0, &approver, None, cancel, events.clone()),
        async move {
            tokio::time::sleep(std::time::Duration::from_millis(1000)).await;
            stopper.cancel();
        }
    );
    let events = events.take();
    assert_eq!(outcome.status, Status::Cancelled);
    check_trace("cancelled", &outcome, &events);
    let d = LoopDiagram::from_events(&events);
    let exit = d.exit().unwrap();
    assert_eq!(exit.from, NodeId::StopButton);
    assert_eq!(exit.stopped_at, Some(NodeId::RunTool));
}

#[test]
fn before_any_run_the_diagram_has_every_exit_and_no_current_node() {
    let d = LoopDiagram::default();
    assert!(d.current().is_none());
    for status in Status::ALL {
        let exit = d
            .node(NodeId::Exit(status))
            .expect("every status has its exit");
        assert_eq!(exit.label, status.as_str());
        assert!(d.edges().iter().any(|e| e.key.to == NodeId::Exit(status)));
    }
    let keys: std::collections::HashSet<String> = d.nodes().iter().map(|n| n.id.key()).collect();
    assert_eq!(keys.len(), d.nodes().len(), "node keys are unique");
    // It does not know the scenario's limits yet, so it states none.
    assert!(d.limits().is_none());
    assert!(d.gates().is_empty());
    assert_eq!(d.accessible_name(NodeId::GateTurns), "Turns, a gate");
    assert!(!d.node(NodeId::GateTurns).unwrap().note.contains("10"));
    // Given a scenario's limits, it shows them before the run.
    let scenario = load(library::find("turn-limit").unwrap());
    let d = LoopDiagram::new(scenario.limits.clone(), Default::default());
    assert_eq!(d.accessible_name(NodeId::GateTurns), "Turns: 0 / 3, a gate");
}

/// A node or an edge picked on the drawing lists the trace events that
/// passed it, in run order, and says which one the trace shows.
#[tokio::test(start_paused = true)]
async fn a_picked_node_or_edge_lists_the_events_that_passed_it() {
    let (_, events) = run_builtin(library::find("turn-limit").unwrap()).await;
    let d = LoopDiagram::from_events(&events);
    let requests: Vec<u64> = events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::ModelRequest { .. }))
        .map(|e| e.seq)
        .collect();
    let model = Passes::of(&d, Pick::Node(NodeId::ModelCall), 1).unwrap();
    assert_eq!(model.events, requests);
    assert_eq!(model.shown(), Some(requests[1]));
    assert!(
        model
            .summary()
            .ends_with("passed 3 times; the trace shows pass 2 of 3."),
        "{}",
        model.summary()
    );
    // Past the last pass: the last one is shown.
    let last = Passes::of(&d, Pick::Node(NodeId::ModelCall), 99).unwrap();
    assert_eq!(last.shown(), requests.last().copied());
    // Every lit edge lists as many events as its count.
    for e in d.edges().iter().filter(|e| e.count > 0) {
        let passes = Passes::of(&d, Pick::Edge(e.key), 0).unwrap();
        assert_eq!(passes.events.len(), e.count as usize, "{:?}", e.key);
        assert!(passes.what.contains(" → "), "{}", passes.what);
    }
}

/// Responses that said the window was full and that the run went on from
/// with a new turn (a compaction): the loop goes around from the response.
fn window_compacted_turns(events: &[RunEvent]) -> u32 {
    let mut turns = 0;
    for (i, event) in events.iter().enumerate() {
        let EventKind::ModelResponse { stop_reason, .. } = &event.kind else {
            continue;
        };
        if stop_reason != "model_context_window_exceeded" {
            continue;
        }
        let next_request = events[i + 1..].iter().find_map(|e| match &e.kind {
            EventKind::ModelRequest { attempt, .. } => Some(*attempt),
            _ => None,
        });
        if next_request == Some(1) {
            turns += 1;
        }
    }
    turns
}

/// The Context gate: a request that cannot fit the window stops
/// at the gate, which shows the refused request's size against the window;
/// a strategy's edit happens at the gate and the run goes through it; the
/// provider's own "window exceeded" leaves from the response, no gate
/// tripped.
#[tokio::test(start_paused = true)]
async fn the_context_gate_shows_the_window_and_stops_a_request_that_cannot_fit() {
    let (outcome, events) = run_builtin(library::find("context-limit").unwrap()).await;
    let d = LoopDiagram::from_events(&events);
    assert_eq!(outcome.status, Status::ContextLimit);
    let exit = d.exit().unwrap();
    assert_eq!(exit.from, NodeId::GateContext);
    assert_eq!(d.tripped_gate(), Some(NodeId::GateContext));
    assert_eq!(
        edge_count(&d, NodeId::GateContext, NodeId::Exit(Status::ContextLimit)),
        1
    );
    let gate = d
        .gates()
        .into_iter()
        .find(|g| g.node == NodeId::GateContext)
        .unwrap();
    // ≈7,279 input + 1,024 output, as the reason says, against 8,000.
    assert_eq!(gate.text, "≈8,303 / 8,000");
    assert!(gate.tripped);
    assert_eq!(
        d.accessible_name(NodeId::GateContext),
        "Context: ≈8,303 / 8,000, a gate, tripped: it stopped the run"
    );
    assert!(d
        .node(NodeId::GateContext)
        .unwrap()
        .note
        .contains("window of 8,000 tokens"));

    let (outcome, events) = run_builtin(library::find("context-clear-tool-results").unwrap()).await;
    assert_eq!(outcome.status, Status::Done);
    let d = LoopDiagram::from_events(&events);
    let edits = count(&events, |k| matches!(k, EventKind::ContextEdited { .. }));
    assert!(edits > 0);
    assert_eq!(d.tripped_gate(), None);
    assert_eq!(
        edge_count(&d, NodeId::GateContext, NodeId::ModelCall),
        outcome.turns
    );
    let note = &d.node(NodeId::GateContext).unwrap().note;
    assert!(note.contains("clear_tool_results"), "{note}");
    let gate = d
        .gates()
        .into_iter()
        .find(|g| g.node == NodeId::GateContext)
        .unwrap();
    assert!(gate.fraction.unwrap() <= 1.0 && !gate.tripped, "{gate:?}");
    // The inspector says which requests went out after an edit.
    use agent_loop_playground::inspector::wire_view::context_edits_up_to;
    assert!(context_edits_up_to(&events, 1).is_empty());
    let edited = context_edits_up_to(&events, outcome.turns);
    assert_eq!(edited.len(), edits as usize);
    assert!(
        edited[0].contains("clear_tool_results: cleared"),
        "{edited:?}"
    );

    let (outcome, events) = run_builtin(library::find("context-exceeded-retry").unwrap()).await;
    assert_eq!(outcome.status, Status::ContextLimit);
    let d = LoopDiagram::from_events(&events);
    assert_eq!(d.exit().unwrap().from, NodeId::Response);
    assert_eq!(d.tripped_gate(), None);

    // A scenario without a window draws the gate off.
    let (_, events) = run_builtin(library::find("turn-limit").unwrap()).await;
    let d = LoopDiagram::from_events(&events);
    let node = d.node(NodeId::GateContext).unwrap();
    assert!(node.off, "{}", node.note);
    assert_eq!(node.note, "Off: the scenario sets no context window.");
}

/// The run as time, from a real trace: the hung lookup under a 1.5 s
/// deadline is a tool row cut at the deadline's line, after its model call.
#[tokio::test(start_paused = true)]
async fn the_waterfall_of_a_hung_call_ends_it_at_the_deadline() {
    use agent_loop_playground::waterfall::{BarKind, Cut, Waterfall};
    let builtin = BUILTIN
        .iter()
        .find(|b| b.id == "deadline-interrupts-tool")
        .expect("the built-in");
    let (outcome, events) = run_builtin(builtin).await;
    assert_eq!(outcome.status, Status::Deadline);
    let time = Waterfall::of(&events, None);
    let deadline = time.deadline.clone().expect("the deadline's line");
    assert_eq!(
        (deadline.at_ms, deadline.label.as_str()),
        (1500, "deadline 1.50 s")
    );
    let kinds: Vec<BarKind> = time.bars.iter().map(|b| b.kind).collect();
    assert_eq!(kinds, [BarKind::ModelCall, BarKind::ToolCall]);
    let hung = &time.bars[1];
    assert_eq!(hung.cut, Some(Cut::Deadline));
    assert_eq!(hung.end_ms, deadline.at_ms);
    assert!(
        hung.label.starts_with("tool slow_lookup · ")
            && hung.label.ends_with(", cut off at the deadline"),
        "{}",
        hung.label
    );
    assert_eq!(time.percent(hung.end_ms), 100.0);
}

/// The Deadline gate without a deadline shows the time gone by with "no
/// deadline" beside it, never the bare time ("Deadline: 2 ms" would read as
/// a 2 ms deadline); drawn, the time over "no deadline", as "2 ms elapsed"
/// on one line is wider than the gate's box once a run takes 10 ms.
#[tokio::test(start_paused = true)]
async fn the_deadline_gate_without_a_deadline_says_there_is_none() {
    let (_, events) = run_builtin(library::find("get-time").unwrap()).await;
    let d = LoopDiagram::from_events(&events);
    let gate = d
        .gates()
        .into_iter()
        .find(|g| g.node == NodeId::GateDeadline)
        .unwrap();
    assert!(gate.value.ends_with(" ms"), "{}", gate.value);
    assert_eq!(gate.limit, "no deadline");
    assert_eq!(gate.text, format!("{} (no deadline)", gate.value));
}
