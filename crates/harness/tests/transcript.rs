//! Provider request bodies read as runs (`harness::transcript`): each of
//! the three formats round-trips through a record; the 400 cases of
//! the checker's rules, pasted as bodies, get their verdict on the imported turn;
//! an imported record replays and a fork of it continues to `done`.

use std::rc::Rc;

use harness::approval::{Decision, FixedApprover};
use harness::event::{EventKind, Status};
use harness::fork::fork_points;
use harness::replay::{replay, Assertions};
use harness::runtime::TokioRuntime;
use harness::scenario::Scenario;
use harness::transcript::import_request;
use harness::wire::history::history_from_trace;
use harness::wire::{check_body, rejections, Provider, RequestShape, WireRequest};
use harness::RunOptions;
use serde_json::{json, Value};

fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/wire/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

const BODIES: [(&str, Provider); 3] = [
    ("anthropic_request_tool_result.json", Provider::Anthropic),
    ("openai_chat_request_tools.json", Provider::OpenaiChat),
    (
        "openai_responses_request_function_call_output.json",
        Provider::OpenaiResponses,
    ),
];

#[test]
fn each_format_is_detected_and_round_trips_through_a_record() {
    for (name, provider) in BODIES {
        let body = fixture(name);
        assert_eq!(
            Provider::of_request_body(&body).unwrap().0,
            provider,
            "{name}"
        );
        let imported = import_request(&body).unwrap();
        let scenario = imported.record.scenario.as_ref().unwrap();
        let tools = scenario.tool_specs().unwrap();
        let messages = history_from_trace(&imported.record.events);
        let again = provider.request_body(&WireRequest {
            model: "m",
            system: &scenario.system,
            messages: &messages,
            tools: &tools,
            tool_choice: &scenario.tool_choice,
            max_output_tokens: 1024,
            stream: false,
        });
        let (before, after) = (
            provider.parse_request(&body).unwrap(),
            provider.parse_request(&again).unwrap(),
        );
        assert_eq!(
            after.messages, before.messages,
            "{name}: the conversation changed"
        );
        assert_eq!(after.tools, before.tools, "{name}: the tools changed");
        assert_eq!(
            after.system, before.system,
            "{name}: the system prompt changed"
        );
    }
}

#[test]
fn what_the_scenario_cannot_hold_is_listed() {
    // Its `tool_choice: "auto"` is kept: the scenario's default.
    let chat = import_request(&fixture("openai_chat_request_tools.json")).unwrap();
    assert!(chat.lost.is_empty(), "{:?}", chat.lost);
    let responses = import_request(&fixture(
        "openai_responses_request_function_call_output.json",
    ))
    .unwrap();
    assert!(responses.lost.is_empty(), "{:?}", responses.lost);
    let with_image = json!({
        "model": "claude-sonnet-4-5", "max_tokens": 100, "temperature": 0.2,
        "tools": [{"type": "web_search_20250305", "name": "web_search"}],
        "messages": [{"role": "user", "content": [
            {"type": "text", "text": "What is in this picture?"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
        ]}]
    });
    let imported = import_request(&with_image).unwrap();
    assert_eq!(
        imported.lost,
        [
            "settings not kept: temperature",
            "tools.0: a server tool (web_search_20250305) runs at the provider; the playground cannot run it",
            "messages.0.content.1: a image block (only text, thinking and tool calls and results are kept)",
        ]
    );
}

/// The task is the first user message's text: a body whose first message
/// holds none says so, not what the scenario's validator makes of "".
#[test]
fn a_first_user_message_with_no_text_is_named_as_the_problem() {
    for body in [
        json!({"model": "m", "messages": [{"role": "user", "content": 42}]}),
        json!({"model": "claude-sonnet-4-5", "max_tokens": 10, "messages": [{"role": "user", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
        ]}]}),
    ] {
        let said = match import_request(&body) {
            Ok(_) => panic!("{body} imported"),
            Err(error) => error.to_string(),
        };
        assert!(
            said.starts_with("the first user message holds no text"),
            "{said}"
        );
        assert!(!said.contains("task:"), "{said}");
    }
}

#[tokio::test(start_paused = true)]
async fn an_imported_record_replays_and_a_fork_continues_to_done() {
    let imported = import_request(&fixture("anthropic_request_tool_result.json")).unwrap();
    let record = imported.record;
    let scenario = record.scenario.clone().unwrap();
    // The tool answers with the recorded result.
    let EventKind::ToolResult { content, .. } = &record
        .events
        .iter()
        .find(|e| matches!(e.kind, EventKind::ToolResult { .. }))
        .unwrap()
        .kind
    else {
        panic!()
    };
    assert_eq!(content, "15 degrees");
    let report = replay(
        &record,
        &scenario,
        &Assertions::default(),
        Rc::new(TokioRuntime::default()),
    )
    .await
    .unwrap();
    assert!(report.passed(), "{:?}", report.first_failure());
    // Continue: the scripted model gets a final answer typed by hand.
    let mut edited: Value = serde_json::to_value(&scenario).unwrap();
    edited["model"]["responses"]
        .as_array_mut()
        .unwrap()
        .push(json!({"text": "It is 15 degrees in San Francisco."}));
    let edited = Scenario::load(&edited.to_string()).unwrap();
    let last = fork_points(&record.events).last().unwrap().seq;
    let approver = FixedApprover(Decision::Approve);
    let child = harness::fork::fork(
        &record,
        last,
        &edited,
        Rc::new(TokioRuntime::default()),
        RunOptions {
            approver: Some(&approver),
            ..RunOptions::default()
        },
        &mut |_| {},
    )
    .await
    .unwrap();
    let outcome = child.outcome().unwrap();
    assert_eq!(outcome.status, Status::Done, "{}", outcome.reason);
    assert_eq!(
        outcome.answer.as_deref(),
        Some("It is 15 degrees in San Francisco.")
    );
}

/// A body a provider answers with HTTP 400 keeps its violation once
/// imported: the checker finds the same rule on the imported turn.
#[test]
fn a_body_a_provider_refuses_keeps_its_verdict_on_the_imported_turn() {
    let call = |id: &str| json!({"type": "tool_use", "id": id, "name": "get_time", "input": {}});
    let result = |id: &str| json!({"type": "tool_result", "tool_use_id": id, "content": "12:00"});
    let tools = json!([{"name": "get_time", "description": "The time", "input_schema": {"type": "object"}}]);
    let cases = [
        // Two calls with one id (Anthropic: "tool_use ids must be unique").
        json!({"model": "m", "max_tokens": 10, "tools": tools, "messages": [
            {"role": "user", "content": "time?"},
            {"role": "assistant", "content": [call("toolu_dup"), call("toolu_dup")]},
            {"role": "user", "content": [result("toolu_dup"), result("toolu_dup")]}]}),
        // A call never answered before the next user turn.
        json!({"model": "m", "max_tokens": 10, "tools": tools, "messages": [
            {"role": "user", "content": "time?"},
            {"role": "assistant", "content": [call("toolu_1")]},
            {"role": "user", "content": [{"type": "text", "text": "well?"}]}]}),
        // Text before the results in the user message that answers the calls.
        json!({"model": "m", "max_tokens": 10, "tools": tools, "messages": [
            {"role": "user", "content": "time?"},
            {"role": "assistant", "content": [call("toolu_1")]},
            {"role": "user", "content": [{"type": "text", "text": "here:"}, result("toolu_1")]}]}),
    ];
    for (case, body) in cases.iter().enumerate() {
        let verdict = check_body(Provider::Anthropic, body);
        assert!(!verdict.is_empty(), "the checker accepts {body}");
        let imported = import_request(body).unwrap();
        // The body's own verdict, at its path in the body.
        assert_eq!(imported.refused, verdict);
        let scenario = imported.record.scenario.as_ref().unwrap();
        let shape = RequestShape::of(scenario).unwrap();
        let found = rejections(&shape, &imported.record.events);
        let rules: Vec<_> = found
            .iter()
            .filter(|r| r.violation.provider == Provider::Anthropic)
            .map(|r| r.violation.rule)
            .collect();
        if case == 2 {
            // The record has no place for the user's text, so it cannot
            // repeat that mistake: the import says the text was left out,
            // and the verdict stays the body's.
            assert!(
                imported
                    .lost
                    .iter()
                    .any(|l| l.contains("a user's text in the middle of the run")),
                "{:?}",
                imported.lost
            );
        } else {
            // The record repeats the mistake, on the turn that made it.
            assert!(
                rules.contains(&verdict[0].rule),
                "{body}: pasted {:?}, imported {rules:?}",
                verdict[0].rule
            );
            let at = found
                .iter()
                .find(|r| r.violation.rule == verdict[0].rule)
                .unwrap();
            assert_eq!(at.turn, 2, "{body}");
        }
    }
}

/// A request body that ends on the tools' turn: the record waits for turn 2.
fn waiting_for_turn_two() -> harness::replay::Record {
    let body = json!({
        "model": "claude-sonnet-4-5",
        "max_tokens": 256,
        "tools": [{"name": "get_time", "description": "The time now", "input_schema": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": "What time is it?"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "12:00"}]}
        ]
    });
    import_request(&body).unwrap().record
}

#[test]
fn a_response_body_or_its_sse_stream_is_read_as_the_turn_the_request_waited_for() {
    use harness::message::ContentBlock;
    use harness::model::{ModelResponse, Usage};
    use harness::transcript::import_response;
    use harness::wire::encode::{response_body, stream_events};
    let answer = ModelResponse {
        content: vec![ContentBlock::Text {
            text: "It is 12:00.".into(),
        }],
        stop_reason: "end_turn".into(),
        usage: Usage {
            input_tokens: 40,
            output_tokens: 7,
        },
    };
    let meta = harness::wire::Meta {
        model: "m",
        id_seed: 1,
        created: 0,
    };
    let waiting = waiting_for_turn_two();
    for provider in Provider::ALL {
        let body = response_body(provider, &answer, &meta).to_string();
        let stream = stream_events(provider, &answer, &meta).concat();
        for (text, read_as) in [(body, "a response body"), (stream, "an SSE stream")] {
            let answered = import_response(&waiting, &text)
                .unwrap_or_else(|e| panic!("{}: {read_as}: {e}", provider.label()));
            assert_eq!(
                (answered.provider, answered.read_as, answered.turn),
                (provider, read_as, 2)
            );
            let outcome = answered.record.outcome().expect("the answer ends the run");
            assert_eq!(outcome.status, Status::Done);
            assert_eq!(outcome.answer.as_deref(), Some("It is 12:00."));
            let usage = answered
                .record
                .events
                .iter()
                .rev()
                .find_map(|e| match &e.kind {
                    EventKind::ModelResponse { usage, .. } => Some(*usage),
                    _ => None,
                });
            assert_eq!(usage, Some(answer.usage), "{} {read_as}", provider.label());
            // The earlier turn and its recorded result are kept.
            assert!(answered.record.events.iter().any(|e| matches!(&e.kind,
                EventKind::ToolResult { id, content, .. } if id == "toolu_1" && content == "12:00")));
        }
    }
    // A run that is not waiting, and text that is no response, say so.
    let done = import_response(
        &waiting,
        &response_body(Provider::Anthropic, &answer, &meta).to_string(),
    )
    .unwrap()
    .record;
    use harness::interop_error::{FixedBy, TranscriptError};
    let not_waiting = import_response(&done, "{}").unwrap_err();
    assert_eq!(not_waiting, TranscriptError::NotWaiting);
    assert_eq!(not_waiting.fixed_by(), FixedBy::TheCaller);
    assert!(not_waiting
        .to_string()
        .contains("import the request body first"));
    let not_a_response = import_response(&waiting, "{\"hello\": 1}").unwrap_err();
    assert_eq!(not_a_response, TranscriptError::NotAResponse);
    assert!(not_a_response.to_string().contains("not a response body"));
    let neither = import_response(&waiting, "nonsense").unwrap_err();
    assert_eq!(neither.fixed_by(), FixedBy::TheFile);
    assert!(neither.to_string().contains("neither a JSON response"));
}

/// A body whose tool_result answers a call it never made: the import keeps
/// it as a result for an unknown call, and its request is estimated as any
/// other request is, from its characters (it used to say ~0 tokens).
#[test]
fn an_orphaned_result_is_kept_and_its_request_is_estimated() {
    let body = json!({
        "model": "claude-sonnet-4-5",
        "max_tokens": 256,
        "messages": [
            {"role": "user", "content": "What is the stock of warehouse A? Please look it up for me."},
            {"role": "assistant", "content": "Let me look."},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_orphan", "content": "12 units"}
            ]}
        ]
    });
    let imported = import_request(&body).unwrap();
    let events = &imported.record.events;
    let orphan = events.iter().find_map(|e| match &e.kind {
        EventKind::ToolResult { id, name, .. } => Some((id.clone(), name.clone())),
        _ => None,
    });
    assert_eq!(orphan, Some(("toolu_orphan".to_string(), String::new())));
    let estimates: Vec<u64> = events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::ModelRequest {
                estimated_input_tokens,
                ..
            } => Some(estimated_input_tokens),
            _ => None,
        })
        .collect();
    assert_eq!(estimates.len(), 2);
    assert!(estimates.iter().all(|&t| t > 5), "{estimates:?}");
    assert!(estimates[1] > estimates[0], "{estimates:?}");
    // And Anthropic refuses it, as the verdict on the body says.
    assert!(imported
        .refused
        .iter()
        .any(|v| v.message.contains("unexpected `tool_use_id`")));
}

/// The cookbook's last request sends no `tools` though its history calls
/// `ask_database`: the provider accepts that, and the import replays it,
/// answering the call from its recorded result without offering the tool
/// to the model, and the replay names the undeclared tool.
#[tokio::test(start_paused = true)]
async fn a_call_to_a_tool_the_body_does_not_declare_replays_from_its_recorded_result() {
    let body = fixture("openai_chat_request_undeclared_tool.json");
    let imported = import_request(&body).unwrap();
    assert!(imported.refused.is_empty(), "{:?}", imported.refused);
    assert_eq!(imported.undeclared, ["ask_database"]);
    let scenario = imported.record.scenario.clone().unwrap();
    assert_eq!(scenario.undeclared_tools(), ["ask_database"]);
    // Never offered to the model: the rebuilt request has no tools, as the body.
    assert!(scenario.tool_specs().unwrap().is_empty());
    let call = imported
        .record
        .events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::ToolCall { validation, .. } => Some(validation.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(call, harness::event::Validation::Valid);
    let report = replay(
        &imported.record,
        &scenario,
        &Assertions::default(),
        Rc::new(TokioRuntime::default()),
    )
    .await
    .unwrap();
    assert!(report.passed(), "{:?}", report.results);
    let result = report
        .events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::ToolResult {
                content, is_error, ..
            } => Some((content.clone(), *is_error)),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        result,
        (
            "[('Iron Maiden', 213), ('U2', 135), ('Led Zeppelin', 114), ('Metallica', 112), ('Lost', 92)]".to_string(),
            false
        )
    );
    let row = report
        .results
        .iter()
        .find(|r| r.name == "undeclared_tools")
        .unwrap();
    assert!(row.passed);
    assert_eq!(
        row.detail,
        "called but not declared in the imported request: ask_database; each call answered from the recorded results"
    );
}
