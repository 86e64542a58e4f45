//! `agent-loop replay` catches an id the answer invented:
//! a refund was denied, the answer still names `re_0001`, and the replay says
//! so and exits 3. A pass line says what was checked.

use std::path::PathBuf;
use std::rc::Rc;

use harness::approval::{ApprovalRequest, Approver, Decision};
use harness::replay::Record;
use harness::runtime::TokioRuntime;
use harness::scenario::Scenario;
use serde_json::{json, Value};

mod process;
use process::{agent_loop, stderr, stdout};

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agent-loop-replay-ids-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// refund-with-approval as it was once scripted: "Refund issued …
/// re_0001" whatever the person decided.
fn the_old_refund_script() -> Value {
    let mut scenario: Value = serde_json::from_str(
        harness::library::find("refund-with-approval")
            .unwrap()
            .json(),
    )
    .unwrap();
    scenario["model"]["responses"][2] =
        json!({"text": "Refund issued for ord_f6g7h8i9j0 (refund re_0001, 42.00)."});
    scenario
}

/// A person who denies the refund and lets the run go on: the page's Deny
/// button. The command line cannot do this (`--approve none` ends the run
/// before the model answers), so the record is made here.
struct DenyAndGoOn;

impl Approver for DenyAndGoOn {
    fn decide<'a>(
        &'a self,
        _request: &'a ApprovalRequest,
    ) -> futures::future::LocalBoxFuture<'a, Decision> {
        Box::pin(async { Decision::Deny { reason: None } })
    }
}

#[tokio::test]
async fn a_refund_id_named_after_a_denial_fails_the_replay_with_exit_3() {
    let scenario = Scenario::load(&the_old_refund_script().to_string()).unwrap();
    let mut events = Vec::new();
    let outcome = harness::run_scenario(
        &scenario,
        Rc::new(TokioRuntime::default()),
        harness::RunOptions {
            approver: Some(&DenyAndGoOn),
            ..harness::RunOptions::default()
        },
        &mut |event| events.push(event.clone()),
    )
    .await
    .unwrap();
    assert_eq!(
        outcome.answer.as_deref(),
        Some("Refund issued for ord_f6g7h8i9j0 (refund re_0001, 42.00).")
    );
    let record = temp_path("denied-but-issued.jsonl");
    let text = Record {
        scenario: Some(scenario),
        events,
        forked_at: None,
    }
    .to_jsonl();
    std::fs::write(&record, text).unwrap();

    let replayed = agent_loop(&["replay", record.to_str().unwrap()]);
    assert_eq!(replayed.status.code(), Some(3), "{}", stdout(&replayed));
    assert!(
        stdout(&replayed)
            .lines()
            .any(|l| l == "✗ ids_exist: re_0001 is in the answer but no tool result contains it"),
        "{}",
        stdout(&replayed)
    );
    assert!(
        stderr(&replayed).contains(
            "replay failed: first difference: ids_exist: re_0001 is in the answer but no tool result contains it"
        ),
        "{}",
        stderr(&replayed)
    );
}

#[test]
fn a_run_recorded_by_the_cli_that_invents_a_refund_id_fails_its_replay() {
    // The same lie on a path the command line can take: the refund is
    // approved but the handler refuses it (the order was already refunded),
    // and the answer still names a refund id.
    let mut scenario = the_old_refund_script();
    scenario["model"]["responses"][1]["tool_calls"][0]["args"] =
        json!({"order_id": "ord_a1b2c3d4e5"});
    let file = temp_path("refused-but-issued.json");
    std::fs::write(&file, scenario.to_string()).unwrap();
    let record = temp_path("refused-but-issued.jsonl");
    let run = agent_loop(&[
        "run",
        file.to_str().unwrap(),
        "--approve",
        "all",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(
        stdout(&run).contains("tool error: order ord_a1b2c3d4e5 was already refunded"),
        "{}",
        stdout(&run)
    );
    let replayed = agent_loop(&["replay", record.to_str().unwrap()]);
    assert_eq!(replayed.status.code(), Some(3), "{}", stdout(&replayed));
    assert!(
        stdout(&replayed)
            .lines()
            .any(|l| l == "✗ ids_exist: re_0001 is in the answer but no tool result contains it"),
        "{}",
        stdout(&replayed)
    );
}

#[test]
fn an_honest_run_replays_with_a_line_that_says_what_was_checked() {
    let record = temp_path("approved.jsonl");
    let run = agent_loop(&[
        "run",
        "refund-with-approval",
        "--approve",
        "all",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let replayed = agent_loop(&["replay", record.to_str().unwrap()]);
    assert_eq!(replayed.status.code(), Some(0), "{}", stdout(&replayed));
    assert!(
        stdout(&replayed)
            .lines()
            .any(|l| l == "✓ ids_exist: 2 ids in the answer, all found in tool results"),
        "{}",
        stdout(&replayed)
    );
}
