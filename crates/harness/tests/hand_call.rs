//! A tool called by hand, outside a run: the same handler and store a run
//! would use, an error result as the model would get it, the run's
//! `tool_timeout_ms`, and Stop.

mod common;

use std::rc::Rc;

use harness::cancel::CancelToken;
use harness::hand_call::{call_by_hand, HandCall};
use harness::runtime::{Runtime, TokioRuntime};
use serde_json::json;

fn tools(json: &str) -> harness::tool::ToolRegistry {
    let runtime: Rc<dyn Runtime> = Rc::new(TokioRuntime::default());
    let (config, _) = common::load(json).build(runtime).expect("builds");
    config.tools
}

#[tokio::test(start_paused = true)]
async fn a_built_in_tool_answers_with_its_store_and_refuses_what_its_rules_refuse() {
    let registry = tools(harness::library::find("refund-policy").unwrap().json());
    let runtime = TokioRuntime::default();
    let stop = CancelToken::new();
    let get = registry.get("get_order").unwrap();
    match call_by_hand(get, json!({"order_id": "A1001"}), &runtime, None, &stop).await {
        HandCall::Answered { value, text, .. } => {
            assert_eq!(value["order_id"], "A1001", "{value}");
            assert!(text.contains("A1001"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    // The ordering rule lives in the handler: no refund before the policy check.
    let refund = registry.get("refund_order").unwrap();
    match call_by_hand(refund, json!({"order_id": "A1001"}), &runtime, None, &stop).await {
        HandCall::Failed { message } => {
            assert!(message.contains("check_refund_policy"), "{message}")
        }
        HandCall::Answered { value, .. } => panic!("refunded before the policy check: {value}"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test(start_paused = true)]
async fn a_hung_tool_times_out_at_tool_timeout_ms_or_stops_on_stop() {
    let json = json!({
        "name": "t", "task": "t", "limits": {"tool_timeout_ms": 500},
        "tools": [{"name": "slow", "description": "d", "input_schema": {"type": "object"},
                   "result": {"ok": true}, "delay_ms": 60000}],
        "model": {"type": "scripted", "responses": [{"text": "x"}]}
    })
    .to_string();
    let registry = tools(&json);
    let slow = registry.get("slow").unwrap();
    let runtime = TokioRuntime::default();
    let stop = CancelToken::new();
    assert_eq!(
        call_by_hand(slow, json!({}), &runtime, Some(500), &stop).await,
        HandCall::TimedOut { after_ms: 500 }
    );
    let pressed = stop.cancel_after(&runtime, Some(100));
    let (ended, ()) = futures::join!(
        call_by_hand(slow, json!({}), &runtime, None, &stop),
        pressed
    );
    assert_eq!(ended, HandCall::Stopped);
}
