//! A tool's `output_schema`: a scenario may declare the shape of a tool's
//! result (as an MCP tool's `outputSchema`), it is checked on load like
//! `input_schema`, the scenario keeps it, and no provider is ever sent it.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use harness::model::{ModelClient, ModelError, ModelRequest, ModelResponse};
use harness::rules::RulesModel;
use harness::runtime::TokioRuntime;
use harness::scenario::Scenario;
use harness::wire::{Provider, WireRequest};
use harness::RunOptions;
use serde_json::{json, Value};

fn forecast_schema() -> Value {
    json!({"type": "object",
           "properties": {"sky": {"enum": ["clear", "cloudy", "rain"]}, "celsius": {"type": "number"}},
           "required": ["sky", "celsius"]})
}

fn scenario_text(output_schema: Option<Value>) -> String {
    let mut tool = json!({"name": "forecast", "description": "Tomorrow's weather.",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
        "result": {"sky": "clear", "celsius": 21}});
    if let Some(schema) = output_schema {
        tool["output_schema"] = schema;
    }
    json!({"name": "weather", "task": "Will it rain in Oslo?", "tools": [tool],
           "limits": {"max_turns": 2}, "model": {"type": "rules"}})
    .to_string()
}

fn problems(text: &str) -> Vec<String> {
    match Scenario::load(text) {
        Ok(_) => Vec::new(),
        Err(problems) => problems.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn a_tool_with_an_output_schema_loads_and_keeps_it() {
    let scenario = common::load(&scenario_text(Some(forecast_schema())));
    assert_eq!(
        scenario.output_schema_of("forecast"),
        Some(&forecast_schema())
    );
    assert_eq!(scenario.output_schema_of("get_time"), None);
    let written: Value = serde_json::from_str(&scenario.to_json_pretty()).unwrap();
    assert_eq!(written["tools"][0]["output_schema"], forecast_schema());
    let without = common::load(&scenario_text(None));
    assert_eq!(without.output_schema_of("forecast"), None);
    assert!(
        !without.to_json_pretty().contains("output_schema"),
        "a tool without one writes none"
    );
}

#[test]
fn every_problem_of_an_output_schema_is_named_at_its_path() {
    let broken =
        json!({"type": "objekt", "properties": {"celsius": {"type": "number", "minimum": "cold"}}});
    assert_eq!(
        problems(&scenario_text(Some(broken))),
        [
            "tools[0].output_schema.type: \"objekt\" is not a type name (did you mean \"object\"?)",
            "tools[0].output_schema.properties.celsius.minimum: \"minimum\" must be a number, found a string (\"cold\")",
        ]
    );
    assert_eq!(
        problems(&scenario_text(Some(json!("sky and celsius")))),
        ["tools[0].output_schema: expected an object, found a string (\"sky and celsius\")"]
    );
}

/// The rules model, keeping each request's body as every provider would
/// have been sent it.
#[derive(Default)]
struct Recording {
    bodies: RefCell<Vec<[String; 3]>>,
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
            .push(Provider::ALL.map(|provider| provider.request_body(&wire).to_string()));
        RulesModel.complete(request)
    }
}

async fn request_bodies(text: &str) -> Vec<[String; 3]> {
    let model = Recording::default();
    harness::run_scenario_with_model(
        &common::load(text),
        Rc::new(TokioRuntime::default()),
        &model,
        RunOptions::default(),
        &mut |_| {},
    )
    .await
    .expect("builds");
    model.bodies.take()
}

#[tokio::test(start_paused = true)]
async fn no_provider_is_sent_the_output_schema_and_the_bytes_are_unchanged() {
    let with = request_bodies(&scenario_text(Some(forecast_schema()))).await;
    let without = request_bodies(&scenario_text(None)).await;
    assert!(!with.is_empty());
    for (i, provider) in Provider::ALL.iter().enumerate() {
        let body = &with[0][i];
        assert!(
            body.contains("forecast"),
            "{provider:?} offers the tool: {body}"
        );
        for word in ["output_schema", "outputSchema", "cloudy"] {
            assert!(!body.contains(word), "{provider:?} was sent {word}: {body}");
        }
    }
    assert_eq!(
        with, without,
        "the request bytes are those of the same tool without one"
    );
}
