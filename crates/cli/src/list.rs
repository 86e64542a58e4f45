//! `agent-loop list`: the built-in scenarios, each with the status it ends
//! with and what `agent-loop run` needs to get there.
//!
//! A built-in's listed status is the one it ends with when every approval
//! request is approved (`library::BuiltinScenario::expected_status`). A bare
//! `run` approves nothing, so a scenario that asks about a tool needing
//! approval is listed "with --approve all"; that is read from the scenario,
//! never kept per scenario.

use std::process::ExitCode;

use harness::approval::ApprovalPolicy;
use harness::library::{clock_age_needed_ms, BuiltinScenario, BUILTIN, WITH_SERVER};
use harness::scenario::Scenario;

pub fn list_command() -> ExitCode {
    let rows: Vec<(&BuiltinScenario, Promise, String)> = BUILTIN
        .iter()
        .map(|builtin| match Scenario::load(builtin.json()) {
            Ok(scenario) => (builtin, promise(builtin, &scenario), scenario.name),
            Err(problems) => (
                builtin,
                Promise::plain(builtin.expected_status),
                format!(
                    "(does not load: {} problems; see `agent-loop validate {}`)",
                    problems.len(),
                    builtin.id
                ),
            ),
        })
        .collect();
    let id_width = BUILTIN.iter().map(|b| b.id.len()).max().unwrap_or(0);
    let status_width = rows
        .iter()
        .map(|(_, promise, _)| promise.status.chars().count())
        .max()
        .unwrap_or(0);
    println!("Each built-in scenario: the name `agent-loop run` takes, the status the run ends with, and its title.");
    let mut group = "";
    for (builtin, promise, name) in &rows {
        if builtin.group != group {
            group = builtin.group;
            println!("{group}:");
        }
        let note = promise
            .note
            .as_ref()
            .map(|note| format!(" ({note})"))
            .unwrap_or_default();
        println!(
            "  {:id_width$}  {:status_width$}  {name}{note}",
            builtin.id, promise.status
        );
    }
    // Listed apart: they run only once their server is up.
    for with_server in WITH_SERVER {
        let builtin = &with_server.scenario;
        if builtin.group != group {
            group = builtin.group;
            println!("{group}:");
        }
        println!(
            "  {:id_width$}  {:status_width$}  {} (with --approve all, once `{}` is running)",
            builtin.id,
            builtin.expected_status,
            builtin.name(),
            with_server.serve
        );
    }
    ExitCode::SUCCESS
}

/// The status a built-in is listed with, phrased with what it takes to get
/// there from the command line, and a note when that needs explaining.
#[derive(Debug, PartialEq)]
pub struct Promise {
    /// "done", "done with --approve all", "deadline in the page",
    /// "cancelled on Ctrl+C".
    pub status: String,
    pub note: Option<String>,
}

impl Promise {
    fn plain(status: &str) -> Promise {
        Promise {
            status: status.to_string(),
            note: None,
        }
    }
}

pub fn promise(builtin: &BuiltinScenario, scenario: &Scenario) -> Promise {
    let status = builtin.expected_status;
    let clock_age_ms = clock_age_needed_ms(builtin);
    if clock_age_ms > 0 {
        // Each `run` is a new process whose clock starts at zero, so a
        // deadline counted from the clock's start does not bite there.
        return Promise {
            status: format!("{status} in the page"),
            note: Some(format!(
                "once the page has been open {} s; each `agent-loop run` starts a fresh clock",
                seconds(clock_age_ms)
            )),
        };
    }
    if builtin.stop_pressed_after_ms().is_some() {
        // Ctrl+C is the command line's Stop button (see `stop.rs`).
        return Promise::plain(&format!("{status} on Ctrl+C"));
    }
    if asks_for_approval(scenario) {
        Promise::plain(&format!("{status} with --approve all"))
    } else {
        Promise::plain(status)
    }
}

/// True when the scenario leaves approval to a person ("ask") and has a tool
/// that needs it: from the command line nobody is asked, so without
/// `--approve all` the first such call ends the run `blocked`.
fn asks_for_approval(scenario: &Scenario) -> bool {
    if scenario.approval != ApprovalPolicy::Ask {
        return false;
    }
    scenario
        .tools_needing_approval()
        .is_ok_and(|tools| !tools.is_empty())
}

/// 2500 → "2.5".
fn seconds(ms: u64) -> String {
    let text = format!("{:.1}", ms as f64 / 1000.0);
    text.trim_end_matches(".0").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(json: serde_json::Value) -> Scenario {
        Scenario::load(&json.to_string()).expect("a valid scenario")
    }

    fn builtin(status: &'static str) -> BuiltinScenario {
        BuiltinScenario {
            id: "custom",
            group: "Tests",
            expected_status: status,
        }
    }

    fn refund(approval: Option<&str>, needs_approval: bool) -> Scenario {
        let mut json = serde_json::json!({
            "name": "r", "task": "Refund ord_1.",
            "tools": [{"name": "issue_refund", "needs_approval": needs_approval, "result": {"ok": true}}],
            "model": {"type": "scripted", "responses": [{"text": "done"}]}
        });
        if let Some(approval) = approval {
            json["approval"] = approval.into();
        }
        scenario(json)
    }

    #[test]
    fn asking_about_a_tool_that_needs_approval_needs_approve_all() {
        let done = builtin("done");
        let status = |scenario: &Scenario| promise(&done, scenario).status;
        assert_eq!(status(&refund(None, true)), "done with --approve all");
        assert_eq!(
            status(&refund(Some("ask"), true)),
            "done with --approve all"
        );
        // A policy in the file decides by itself, and no tool needing approval asks nothing.
        assert_eq!(status(&refund(Some("approve_all"), true)), "done");
        assert_eq!(status(&refund(None, false)), "done");
    }

    #[test]
    fn a_shared_deadline_names_the_page_it_needs() {
        let shared = harness::library::find("deadline-shared").unwrap();
        let scenario = Scenario::load(shared.json()).unwrap();
        assert_eq!(
            promise(shared, &scenario),
            Promise {
                status: "deadline in the page".to_string(),
                note: Some(
                    "once the page has been open 2.5 s; each `agent-loop run` starts a fresh clock"
                        .to_string()
                )
            }
        );
    }

    #[test]
    fn seconds_drop_a_zero_tenth() {
        assert_eq!(seconds(2500), "2.5");
        assert_eq!(seconds(3000), "3");
    }
}
