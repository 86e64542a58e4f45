//! A scenario's `tool_choice` as a run sees it: the rules model honours
//! each of the four choices, a named tool the scenario lacks is a problem
//! at its path, and a scripted turn that breaks the choice is noted.

use std::cell::RefCell;
use std::rc::Rc;

use loop_core::event::{EventKind, Outcome, RunEvent, Status};
use loop_core::runtime::TokioRuntime;
use loop_core::scenario::Scenario;
use loop_core::RunOptions;
use serde_json::{json, Value};

/// Two tools the rules model calls in order (lookup, then notify), then
/// it answers; `tool_choice` is set when given.
fn scenario(tool_choice: Option<Value>) -> Value {
    let tool = |name: &str, description: &str| {
        json!({"name": name, "description": description,
               "input_schema": {"type": "object"}, "result": {"ok": name}})
    };
    let mut scenario = json!({
        "name": "choice", "task": "Find order A1001 and tell the customer.",
        "tools": [tool("lookup", "Look up an order."), tool("notify", "Tell the customer about it.")],
        "limits": {"max_turns": 5},
        "model": {"type": "rules"},
    });
    if let Some(choice) = tool_choice {
        scenario["tool_choice"] = choice;
    }
    scenario
}

fn load(value: &Value) -> Scenario {
    Scenario::load(&value.to_string()).unwrap_or_else(|problems| {
        panic!(
            "does not load: {}",
            problems
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        )
    })
}

async fn run(value: &Value) -> (Outcome, Vec<RunEvent>) {
    let events = RefCell::new(Vec::new());
    let mut on_event = |event: &RunEvent| events.borrow_mut().push(event.clone());
    let outcome = loop_core::run_scenario(
        &load(value),
        Rc::new(TokioRuntime::default()),
        RunOptions::default(),
        &mut on_event,
    )
    .await
    .expect("builds");
    (outcome, events.take())
}

/// The tools that ran, in order.
fn ran(events: &[RunEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolResult { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn auto_lets_the_rules_pick_and_answer() {
    let (outcome, events) = run(&scenario(Some(json!("auto")))).await;
    assert_eq!(outcome.status, Status::Done, "{}", outcome.reason);
    assert_eq!(ran(&events), ["lookup", "notify"]);
    assert_eq!(
        outcome.answer.as_deref().map(|a| a.starts_with("Done.")),
        Some(true)
    );
}

#[tokio::test(start_paused = true)]
async fn none_answers_in_words_without_calling_a_tool() {
    let (outcome, events) = run(&scenario(Some(json!("none")))).await;
    assert_eq!(outcome.status, Status::Done, "{}", outcome.reason);
    assert_eq!(ran(&events), Vec::<String>::new());
    let answer = outcome.answer.unwrap_or_default();
    assert!(
        answer.starts_with(
            "Tools are off for this request (tool_choice \"none\"), so I answer without them"
        ),
        "{answer}"
    );
}

#[tokio::test(start_paused = true)]
async fn any_calls_a_tool_every_turn_so_the_harness_must_stop_it() {
    let (outcome, events) = run(&scenario(Some(json!("any")))).await;
    // The rules' pick while a tool is left, then the first listed tool:
    // the model never answers in words, so a limit ends the run.
    let tools = ran(&events);
    assert_eq!(tools[..3], ["lookup", "notify", "lookup"], "{tools:?}");
    assert_eq!(outcome.status, Status::TurnLimit, "{}", outcome.reason);
    assert_eq!(outcome.answer, None);
}

#[tokio::test(start_paused = true)]
async fn a_named_tool_is_called_every_turn() {
    let (outcome, events) = run(&scenario(Some(json!({"tool": "notify"})))).await;
    let tools = ran(&events);
    assert!(!tools.is_empty());
    assert!(tools.iter().all(|t| t == "notify"), "{tools:?}");
    assert_eq!(outcome.status, Status::TurnLimit, "{}", outcome.reason);
}

fn problems(value: &Value) -> Vec<String> {
    match Scenario::load(&value.to_string()) {
        Ok(_) => Vec::new(),
        Err(problems) => problems.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn a_named_tool_the_scenario_lacks_is_a_problem_at_its_path() {
    assert_eq!(
        problems(&scenario(Some(json!({"tool": "notfy"})))),
        ["tool_choice.tool: no tool is named \"notfy\" (did you mean `notify`?)"]
    );
    assert_eq!(
        problems(&scenario(Some(json!({"tool": "weather"})))),
        ["tool_choice.tool: no tool is named \"weather\"; the tools are: lookup, notify"]
    );
    let mut no_tools = scenario(Some(json!("any")));
    no_tools["tools"] = json!([]);
    assert_eq!(
        problems(&no_tools),
        ["tool_choice: \"any\" makes the model call a tool, but this scenario has no tools"]
    );
}

#[test]
fn a_choice_that_is_none_of_the_four_is_a_problem_in_plain_words() {
    let said = problems(&scenario(Some(json!("required"))));
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].starts_with("tool_choice: "), "{said:?}");
    assert!(said[0].contains("\"auto\""), "{said:?}");
    assert_eq!(
        problems(&scenario(Some(json!(3)))),
        ["tool_choice: expected a string or an object, found a number (3)"]
    );
    let said = problems(&scenario(Some(json!({"name": "notify"}))));
    assert!(
        said.iter()
            .any(|p| p.starts_with("tool_choice.name: not a field of tool_choice")),
        "{said:?}"
    );
}

#[test]
fn the_choice_is_written_back_as_read_and_left_out_for_auto() {
    let named = load(&scenario(Some(json!({"tool": "notify"}))));
    let written: Value = serde_json::from_str(&named.to_json_pretty()).unwrap();
    assert_eq!(written["tool_choice"], json!({"tool": "notify"}));
    let auto = load(&scenario(None));
    let written: Value = serde_json::from_str(&auto.to_json_pretty()).unwrap();
    assert_eq!(written.get("tool_choice"), None);
}

#[test]
fn a_scripted_turn_that_breaks_the_choice_is_noted() {
    let scripted = |choice: Value, responses: Value| {
        let mut value = scenario(Some(choice));
        value["model"] = json!({"type": "scripted", "responses": responses});
        load(&value)
            .notes()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    let call = |name: &str| json!({"tool_calls": [{"name": name, "args": {}}]});
    assert_eq!(
        scripted(json!("none"), json!([call("lookup"), {"text": "done"}])),
        ["note: model.responses[0] calls lookup, but tool_choice \"none\" forbids tool calls; no provider would answer so, and the run plays it as written"]
    );
    assert_eq!(
        scripted(json!("any"), json!([call("lookup"), {"text": "done"}])),
        ["note: model.responses[1] calls no tool, but tool_choice \"any\" requires one; no provider would answer so, and the run plays it as written"]
    );
    assert_eq!(
        scripted(json!({"tool": "notify"}), json!([call("lookup")])),
        ["note: model.responses[0] calls lookup, but tool_choice allows only notify; no provider would answer so, and the run plays it as written"]
    );
    assert_eq!(
        scripted(json!("auto"), json!([call("lookup"), {"text": "done"}])),
        Vec::<String>::new()
    );
}
