//! "Be the model, be the tool": in step mode a person writes a
//! model turn or a tool result instead of the script or the handler. The
//! run takes it as it takes the real thing, the trace marks it, replay and
//! fork treat it as recorded, and the pre-send check says what is wrong with
//! a typed turn, every problem with its path, in one pass.

mod common;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use common::{load, replay_passing, tool_results, QueueApprover};
use futures::future::LocalBoxFuture;
use harness::driver::{drive, Env, Pause, Resume, Stepper};
use harness::event::{from_jsonl, outline, to_jsonl, EventKind, RunEvent, Status};
use harness::fork::{fork, fork_points};
use harness::message::{ContentBlock, Message, Role, ToolCall};
use harness::model::{ModelClient, ModelError, ModelRequest, ModelResponse, ToolSpec, Usage};
use harness::person_turn::{check_turn, TypedCall, TypedTurn};
use harness::replay::Record;
use harness::run::{PauseBefore, Run};
use harness::runtime::TokioRuntime;
use harness::scenario::Scenario;
use harness::RunOptions;
use serde_json::json;

/// Step mode throughout; answers each pause with the next queued resume
/// (Go once the queue is empty) and notes every pause it was asked about.
#[derive(Default)]
struct Person {
    answers: RefCell<VecDeque<Resume>>,
    seen: RefCell<Vec<Pause>>,
}

impl Person {
    fn answering(answers: Vec<Resume>) -> Self {
        Person {
            answers: RefCell::new(answers.into()),
            seen: RefCell::default(),
        }
    }
}

impl Stepper for Person {
    fn step_mode(&self) -> bool {
        true
    }

    fn wait(&self, pause: &Pause) -> LocalBoxFuture<'static, Resume> {
        self.seen.borrow_mut().push(pause.clone());
        let next = self.answers.borrow_mut().pop_front().unwrap_or(Resume::Go);
        Box::pin(async move { next })
    }
}

/// The scenario's model, noting the history of every request it gets.
struct Noting {
    inner: Box<dyn ModelClient>,
    requests: RefCell<Vec<Vec<Message>>>,
}

impl ModelClient for Noting {
    fn label(&self) -> String {
        self.inner.label()
    }

    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> {
        self.requests.borrow_mut().push(request.messages.to_vec());
        self.inner.complete(request)
    }

    fn turn_answered_by_person(&self) {
        self.inner.turn_answered_by_person();
    }
}

fn echo_scenario() -> Scenario {
    load(
        &json!({
            "name": "echo",
            "task": "Echo 1, then say done.",
            "tools": [{"name": "echo", "description": "Echoes n.", "input_schema": {
                "type": "object", "properties": {"n": {"type": "integer", "maximum": 5}},
                "required": ["n"], "additionalProperties": false}, "result": "echoed"}],
            "limits": {"max_turns": 5},
            "model": {"type": "scripted", "responses": [
                {"text": "Echoing.", "tool_calls": [{"name": "echo", "args": {"n": 1}}]},
                {"text": "done", "branches": [{"when": {"echo": "error"}, "text": "The echo failed."}]}
            ]}
        })
        .to_string(),
    )
}

/// Runs `scenario` in step mode with `person` at the pauses; returns the
/// trace and the history of each request the model itself got.
async fn run_as(scenario: &Scenario, person: &Person) -> (Vec<RunEvent>, Vec<Vec<Message>>) {
    run_approving(scenario, person, None).await
}

async fn run_approving(
    scenario: &Scenario,
    person: &Person,
    approver: Option<&dyn harness::approval::Approver>,
) -> (Vec<RunEvent>, Vec<Vec<Message>>) {
    let runtime = Rc::new(TokioRuntime::default());
    let (config, model) = scenario.build(runtime.clone()).expect("builds");
    let model = Noting {
        inner: model,
        requests: RefCell::default(),
    };
    let mut run = Run::new(config);
    let env = Env {
        runtime: runtime.as_ref(),
        model: &model,
        approver,
        cancel: Default::default(),
        stepper: Some(person),
    };
    let mut events = Vec::new();
    drive(&mut run, &env, &mut |e| events.push(e.clone())).await;
    (events, model.requests.take())
}

fn persons_turn() -> ModelResponse {
    ModelResponse {
        content: vec![
            ContentBlock::Text {
                text: "I will echo 2.".into(),
            },
            ContentBlock::ToolUse(ToolCall {
                id: "toolu_by_you_1".into(),
                name: "echo".into(),
                input: json!({"n": 2}),
                input_raw: None,
            }),
        ],
        stop_reason: "tool_use".into(),
        usage: Usage::default(),
    }
}

/// (turn, by_person, text) of each model_response.
fn responses(events: &[RunEvent]) -> Vec<(u32, bool, String)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ModelResponse {
                turn,
                by_person,
                text,
                ..
            } => Some((*turn, *by_person, text.clone())),
            _ => None,
        })
        .collect()
}

fn status(events: &[RunEvent]) -> Status {
    match &events.last().expect("events").kind {
        EventKind::RunFinished(outcome) => outcome.status,
        other => panic!("the trace ends with {other:?}"),
    }
}

#[tokio::test(start_paused = true)]
async fn a_typed_model_turn_runs_to_done_is_marked_and_the_record_replays_and_forks() {
    let scenario = echo_scenario();
    let person = Person::answering(vec![Resume::AnswerAsModel(persons_turn())]);
    let (events, asked) = run_as(&scenario, &person).await;

    assert_eq!(status(&events), Status::Done);
    // The person's turn took the script's first answer's place: the model
    // was asked once, for turn 2, and played its second answer.
    assert_eq!(asked.len(), 1);
    assert_eq!(
        responses(&events),
        [
            (1, true, "I will echo 2.".to_string()),
            (2, false, "done".to_string())
        ]
    );
    // The request was made as usual before the person's answer, and the
    // person's call ran with the person's arguments.
    let kinds: Vec<String> = outline(&events).into_iter().take(4).collect();
    assert_eq!(
        kinds,
        [
            "run_started \"echo\" tools=[echo]",
            "model_request turn=1 attempt=1",
            "model_response turn=1 stop=tool_use calls=[echo]",
            "tool_call echo valid"
        ]
    );
    assert_eq!(
        tool_results(&events),
        [("echo".to_string(), false, "echoed".to_string())]
    );
    // Costed like a scripted turn without usage: estimated, not zero.
    let usage = events.iter().find_map(|e| match &e.kind {
        EventKind::ModelResponse { usage, .. } => Some(*usage),
        _ => None,
    });
    assert!(
        usage.is_some_and(|u| u.input_tokens > 0 && u.output_tokens > 0),
        "{usage:?}"
    );

    // The mark survives JSON Lines, and only the person's turn carries it.
    let text = to_jsonl(&events);
    assert_eq!(text.matches("\"by_person\":true").count(), 1, "{text}");
    assert!(!text.contains("\"by_person\":false"));
    assert_eq!(from_jsonl(&text).unwrap(), events);

    // Replay: the person's turn is played back as the person's.
    let report = replay_passing(&scenario, &events).await;
    assert_eq!(responses(&report.events), responses(&events));
    assert_eq!(outline(&report.events), outline(&events));

    // Fork after the person's turn: it is kept, and the script goes on.
    let at = fork_points(&events)
        .into_iter()
        .find(|p| p.label == "before turn 2")
        .expect("a fork point before turn 2")
        .seq;
    let record = Record {
        scenario: Some(scenario.clone()),
        events: events.clone(),
        forked_at: None,
    };
    let child = fork(
        &record,
        at,
        &scenario,
        Rc::new(TokioRuntime::default()),
        RunOptions::default(),
        &mut |_| {},
    )
    .await
    .expect("forks");
    assert_eq!(child.events[..at as usize], events[..at as usize]);
    assert_eq!(responses(&child.events), responses(&events));
    assert_eq!(status(&child.events), Status::Done);
}

#[tokio::test(start_paused = true)]
async fn an_error_typed_as_the_tool_reaches_the_next_request_as_is_error_and_replays() {
    let scenario = echo_scenario();
    // Go at turn 1, then the tool's answer, typed.
    let person = Person::answering(vec![
        Resume::Go,
        Resume::AnswerAsTool(Err("the disk is full".into())),
    ]);
    let (events, asked) = run_as(&scenario, &person).await;

    let result = events.iter().find_map(|e| match &e.kind {
        EventKind::ToolResult {
            content,
            is_error,
            by_person,
            ..
        } => Some((content.clone(), *is_error, *by_person)),
        _ => None,
    });
    // Not "echoed": the handler did not run.
    assert_eq!(
        result,
        Some(("tool error: the disk is full".to_string(), true, true))
    );
    // The next request carries the result, flagged as an error.
    let next = asked.get(1).expect("a second model request");
    let sent = next.last().expect("a message");
    assert_eq!(sent.role, Role::User);
    assert!(
        matches!(&sent.content[..], [ContentBlock::ToolResult(r)] if r.is_error && r.content == "tool error: the disk is full"),
        "{sent:?}"
    );
    assert_eq!(
        responses(&events).last().map(|r| r.2.clone()),
        Some("The echo failed.".to_string())
    );

    // Replay: the typed result is played back, not the handler's.
    let report = replay_passing(&scenario, &events).await;
    assert_eq!(tool_results(&report.events), tool_results(&events));
    assert_eq!(
        report
            .events
            .iter()
            .filter(|e| matches!(
                e.kind,
                EventKind::ToolResult {
                    by_person: true,
                    ..
                }
            ))
            .count(),
        1
    );
}

#[tokio::test(start_paused = true)]
async fn an_answer_that_does_not_fit_the_pause_is_refused_and_asked_again() {
    let scenario = echo_scenario();
    let person = Person::answering(vec![
        Resume::AnswerAsTool(Ok(json!("early"))),
        Resume::Go,
        Resume::AnswerAsModel(persons_turn()),
        Resume::Go,
    ]);
    let (events, _) = run_as(&scenario, &person).await;
    assert_eq!(status(&events), Status::Done);
    let seen = person.seen.take();
    // The tool answer at the model pause, then the model answer at the tool
    // pause: each refused with why, and the same pause asked again.
    assert_eq!(seen[0].before, PauseBefore::ModelCall { turn: 1 });
    assert_eq!(seen[1].before, PauseBefore::ModelCall { turn: 1 });
    let why = seen[1].refused.as_deref().unwrap_or_default();
    assert!(why.contains("paused before model call (turn 1)"), "{why}");
    assert!(matches!(seen[2].before, PauseBefore::ToolCall { .. }));
    assert!(matches!(seen[3].before, PauseBefore::ToolCall { .. }));
    let why = seen[3].refused.as_deref().unwrap_or_default();
    assert!(why.contains("paused before tool call echo"), "{why}");
    // Neither refused answer reached the trace.
    assert!(events.iter().all(|e| !matches!(
        e.kind,
        EventKind::ModelResponse {
            by_person: true,
            ..
        } | EventKind::ToolResult {
            by_person: true,
            ..
        }
    )));
}

fn tools() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "get_time".into(),
            description: "The time.".into(),
            input_schema: json!({"type": "object", "additionalProperties": false}),
        },
        ToolSpec {
            name: "echo".into(),
            description: "Echoes n.".into(),
            input_schema: json!({"type": "object", "properties": {"n": {"type": "integer", "maximum": 5}}, "required": ["n"]}),
        },
    ]
}

/// The history after one turn that called get_time as toolu_0001.
fn history() -> Vec<Message> {
    vec![
        Message::user_text("What time is it?"),
        Message {
            role: Role::Assistant,
            content: vec![ContentBlock::ToolUse(ToolCall {
                id: "toolu_0001".into(),
                name: "get_time".into(),
                input: json!({}),
                input_raw: None,
            })],
        },
        Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult(harness::message::ToolResult {
                tool_use_id: "toolu_0001".into(),
                content: "12:00".into(),
                is_error: false,
                media: Vec::new(),
            })],
        },
    ]
}

fn call(id: &str, name: &str, arguments: &str) -> TypedCall {
    TypedCall {
        id: id.into(),
        name: name.into(),
        arguments: arguments.into(),
    }
}

#[test]
fn the_pre_send_check_reports_every_problem_with_its_path_in_one_pass() {
    let turn = TypedTurn {
        text: "Checking again.".into(),
        thinking: String::new(),
        calls: vec![
            // An id an earlier turn used, and an argument over its maximum.
            call("toolu_0001", "echo", r#"{"n": 9}"#),
            call("toolu_b", "get_tme", "{}"),
            call("toolu_c", "echo", r#"{"n": "#),
            call("", "echo", "[1]"),
        ],
        stop_reason: "tool_use".into(),
    };
    let checked = check_turn(&turn, "system", &tools(), &history());
    let said: Vec<String> = checked.problems.iter().map(ToString::to_string).collect();
    let has = |path: &str, words: &str| {
        assert!(
            checked
                .problems
                .iter()
                .any(|p| p.path == path && p.message.contains(words)),
            "no {path:?} problem saying {words:?} in:\n{}",
            said.join("\n")
        )
    };
    has("tool_calls[0].arguments/n", "5");
    has("tool_calls[0]", "toolu_0001");
    has("tool_calls[0]", "Anthropic");
    has("tool_calls[1].name", "did you mean `get_time`?");
    has("tool_calls[2].arguments", "not valid JSON");
    has("tool_calls[3].id", "needs an id");
    has("tool_calls[3].arguments", "must be a JSON object");
    // The turn is built whatever its problems: it may be sent on purpose.
    assert_eq!(checked.response.content.len(), 5);
    assert_eq!(checked.response.stop_reason, "tool_use");
    // No problem is put on the history the turn did not write.
    assert!(
        checked
            .problems
            .iter()
            .all(|p| p.path.contains("tool_calls")),
        "{said:#?}"
    );
}

#[test]
fn a_valid_typed_turn_has_no_problem_and_becomes_the_response_sent() {
    let turn = TypedTurn {
        text: "Echoing.".into(),
        thinking: "I should echo.".into(),
        calls: vec![call("toolu_by_you_1", "echo", r#"{"n": 2}"#)],
        stop_reason: "tool_use".into(),
    };
    let checked = check_turn(&turn, "system", &tools(), &history());
    assert_eq!(checked.problems, []);
    assert_eq!(
        checked.response.content,
        [
            ContentBlock::Thinking {
                thinking: "I should echo.".into(),
                signature: None
            },
            ContentBlock::Text {
                text: "Echoing.".into()
            },
            ContentBlock::ToolUse(ToolCall {
                id: "toolu_by_you_1".into(),
                name: "echo".into(),
                input: json!({"n": 2}),
                input_raw: None
            })
        ]
    );
    // Two calls of this turn sharing an id are caught too.
    let twice = TypedTurn {
        calls: vec![
            call("toolu_x", "get_time", "{}"),
            call("toolu_x", "get_time", "{}"),
        ],
        ..turn
    };
    let problems = check_turn(&twice, "system", &tools(), &history()).problems;
    assert!(
        problems
            .iter()
            .any(|p| p.path == "tool_calls[1]" && p.message.contains("toolu_x")),
        "{problems:#?}"
    );
}

#[test]
fn a_final_answer_with_tool_calls_or_tool_use_without_one_is_flagged() {
    let turn = |stop_reason: &str, calls: Vec<TypedCall>| TypedTurn {
        text: "Here you are.".into(),
        thinking: String::new(),
        calls,
        stop_reason: stop_reason.into(),
    };
    let answer_with_call = turn("end_turn", vec![call("toolu_z", "get_time", "{}")]);
    let problems = check_turn(&answer_with_call, "system", &tools(), &history()).problems;
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert_eq!(problems[0].path, "stop_reason");
    assert!(
        problems[0].message.starts_with(
            "stop_reason end_turn says the turn is a final answer, but it has 1 tool call"
        ),
        "{}",
        problems[0].message
    );
    let asks_for_nothing = turn("tool_use", vec![]);
    let problems = check_turn(&asks_for_nothing, "system", &tools(), &history()).problems;
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0]
        .message
        .contains("asks for tools, but the turn calls none"));
    for fine in [
        turn("end_turn", vec![]),
        turn("tool_use", vec![call("toolu_z", "get_time", "{}")]),
    ] {
        assert_eq!(
            check_turn(&fine, "system", &tools(), &history()).problems,
            []
        );
    }
}

#[tokio::test(start_paused = true)]
async fn a_fork_does_not_apply_a_typed_result_to_the_store_of_the_tool_that_never_ran() {
    let scenario = load(harness::library::find("refund-policy").unwrap().json());
    // The policy check is answered by a person, so the store never saw it,
    // and refund_order (whose handler wants a real check first) refuses.
    let person = Person::answering(vec![
        Resume::Go,
        Resume::Go,
        Resume::Go,
        Resume::AnswerAsTool(Ok(json!({"order_id": "A1001", "in_window": true}))),
    ]);
    let approver = QueueApprover::new(vec![harness::approval::Decision::Approve; 4]);
    let (events, _) = run_approving(&scenario, &person, Some(&approver)).await;
    let results = tool_results(&events);
    assert_eq!(results.len(), 3, "{results:?}");
    assert!(
        results[2].1,
        "refund_order ran after a typed check: {results:?}"
    );

    let record = Record {
        scenario: Some(scenario.clone()),
        events: events.clone(),
        forked_at: None,
    };
    let at = fork_points(&events)
        .into_iter()
        .find(|p| p.label.starts_with("before tool call refund_order"))
        .expect("a fork point before refund_order")
        .seq;
    let approver = QueueApprover::new(vec![harness::approval::Decision::Approve; 4]);
    let child = fork(
        &record,
        at,
        &scenario,
        Rc::new(TokioRuntime::default()),
        RunOptions {
            approver: Some(&approver),
            ..Default::default()
        },
        &mut |_| {},
    )
    .await
    .expect("forks");
    // Re-running the check in the fork's store would let the refund through.
    assert_eq!(tool_results(&child.events)[2], results[2]);
}
