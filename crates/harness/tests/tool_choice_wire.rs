//! A scenario's `tool_choice` on the wire: each model request of a run
//! carries it, each provider's body says it in its own words (left out for
//! `auto`), and reading a body back (a mock provider's request, an import)
//! keeps it.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use harness::model::{ModelClient, ModelError, ModelRequest, ModelResponse};
use harness::rules::RulesModel;
use harness::runtime::TokioRuntime;
use harness::tool_choice::ToolChoice;
use harness::transcript::import_request;
use harness::wire::{Provider, WireRequest};
use harness::RunOptions;
use serde_json::{json, Value};

/// The rules model, keeping each request's body as every provider would
/// have been sent it: the path a provider adapter takes.
#[derive(Default)]
struct Recording {
    bodies: RefCell<Vec<[Value; 3]>>,
}

impl ModelClient for Recording {
    fn label(&self) -> String {
        "recording rules".into()
    }

    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> {
        let wire = WireRequest::from_model_request("m", &request, false);
        self.bodies
            .borrow_mut()
            .push(Provider::ALL.map(|provider| provider.request_body(&wire)));
        RulesModel.complete(request)
    }
}

fn scenario(tool_choice: Value) -> harness::scenario::Scenario {
    let tool = |name: &str| {
        json!({"name": name, "description": format!("The {name} tool."),
               "input_schema": {"type": "object"}, "result": {"ok": true}})
    };
    common::load(
        &json!({
            "name": "choice", "task": "Go.", "tools": [tool("lookup"), tool("notify")],
            "tool_choice": tool_choice,
            "limits": {"max_turns": 2},
            "model": {"type": "rules"},
        })
        .to_string(),
    )
}

/// The first request's `tool_choice` in each provider's body (Anthropic,
/// Chat Completions, Responses), `None` where it is left out.
async fn first_request_choices(tool_choice: Value) -> [Option<Value>; 3] {
    let model = Recording::default();
    harness::run_scenario_with_model(
        &scenario(tool_choice),
        Rc::new(TokioRuntime::default()),
        &model,
        RunOptions::default(),
        &mut |_| {},
    )
    .await
    .expect("builds");
    let bodies = model.bodies.take();
    bodies[0]
        .clone()
        .map(|body| body.get("tool_choice").cloned())
}

#[tokio::test(start_paused = true)]
async fn auto_is_left_out_of_every_body() {
    assert_eq!(
        first_request_choices(json!("auto")).await,
        [None, None, None]
    );
}

#[tokio::test(start_paused = true)]
async fn any_is_any_for_anthropic_and_required_for_openai() {
    assert_eq!(
        first_request_choices(json!("any")).await,
        [
            Some(json!({"type": "any"})),
            Some(json!("required")),
            Some(json!("required"))
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn none_is_none_in_every_format() {
    assert_eq!(
        first_request_choices(json!("none")).await,
        [
            Some(json!({"type": "none"})),
            Some(json!("none")),
            Some(json!("none"))
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn a_named_tool_is_named_in_each_formats_own_shape() {
    assert_eq!(
        first_request_choices(json!({"tool": "notify"})).await,
        [
            Some(json!({"type": "tool", "name": "notify"})),
            Some(json!({"type": "function", "function": {"name": "notify"}})),
            Some(json!({"type": "function", "name": "notify"}))
        ]
    );
}

#[test]
fn a_body_read_back_keeps_its_choice() {
    let tools = [harness::model::ToolSpec {
        name: "notify".into(),
        description: "Tell them.".into(),
        input_schema: json!({"type": "object"}),
    }];
    let messages = [harness::message::Message::user_text("Go.".to_string())];
    for provider in Provider::ALL {
        for choice in [
            ToolChoice::Auto,
            ToolChoice::Any,
            ToolChoice::None,
            ToolChoice::Tool("notify".into()),
        ] {
            let body = provider.request_body(&WireRequest {
                model: "m",
                system: "",
                messages: &messages,
                tools: &tools,
                tool_choice: &choice,
                max_output_tokens: 100,
                stream: false,
            });
            let read = provider.parse_request(&body).expect("reads");
            assert_eq!(read.tool_choice, choice, "{provider:?}");
            let imported = import_request(&body).expect("imports");
            assert!(
                imported.lost.iter().all(|l| !l.contains("tool_choice")),
                "{:?}",
                imported.lost
            );
            let scenario = imported.record.scenario.expect("a scenario");
            assert_eq!(scenario.tool_choice, choice, "{provider:?}");
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_run_that_thinks_under_a_forced_choice_is_shown_refused_by_anthropic() {
    let mut value: Value = json!({
        "name": "thinks", "task": "Go.",
        "tools": [{"name": "lookup", "description": "d", "input_schema": {"type": "object"}, "result": {"ok": true}}],
        "tool_choice": "any",
        "limits": {"max_turns": 2},
        "model": {"type": "scripted", "responses": [
            {"thinking": "Look it up.", "tool_calls": [{"name": "lookup", "args": {}}]},
            {"thinking": "Again.", "tool_calls": [{"name": "lookup", "args": {}}]}
        ]},
    });
    let scenario = common::load(&value.to_string());
    let (_, events) = common::run_with(&scenario, None).await;
    let shape = harness::wire::RequestShape::of(&scenario).unwrap();
    let found: Vec<(u32, Provider, harness::wire::Rule)> =
        harness::wire::rejections(&shape, &events)
            .into_iter()
            .map(|r| (r.turn, r.violation.provider, r.violation.rule))
            .collect();
    assert_eq!(
        found,
        [(
            1,
            Provider::Anthropic,
            harness::wire::Rule::AnthropicThinkingWithForcedTool
        )]
    );
    // The same run with auto is refused by no one.
    value["tool_choice"] = json!("auto");
    let scenario = common::load(&value.to_string());
    let (_, events) = common::run_with(&scenario, None).await;
    let shape = harness::wire::RequestShape::of(&scenario).unwrap();
    assert_eq!(harness::wire::rejections(&shape, &events), []);
}
