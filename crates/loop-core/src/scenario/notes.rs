//! Notes on a scenario that loads and runs, but perhaps not as its author
//! meant: a script that calls a tool no tool declares, a `stop_reason`
//! the loop does not know, or a turn that breaks the scenario's
//! `tool_choice` (which no provider would send). Each can be deliberate
//! (the unknown-tool pitfall, a provider's odd stop reason), so they are
//! notes beside the problems, not problems: the scenario still runs. `agent-loop validate`
//! and the page's editor show the same words.

use std::fmt;

use super::{ModelConfig, Scenario, ToolEntry};
use crate::model::STOP_REASONS;
use crate::scripted::ScriptedCall;

/// One note, shown as "note: …".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub message: String,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "note: {}", self.message)
    }
}

impl Scenario {
    /// What this scenario's script does that the run will treat as the
    /// model's mistake, each named once, in file order.
    pub fn notes(&self) -> Vec<Note> {
        let ModelConfig::Scripted { responses, .. } = &self.model else {
            return Vec::new();
        };
        let mut undeclared: Vec<&str> = Vec::new();
        let mut unknown_stops: Vec<&str> = Vec::new();
        let mut broken_choice: Vec<String> = Vec::new();
        for (i, response) in responses.iter().enumerate() {
            let turns = std::iter::once((
                format!("model.responses[{i}]"),
                &response.tool_calls,
                response.error.is_some(),
            ))
            .chain(response.branches.iter().enumerate().map(|(b, branch)| {
                (
                    format!("model.responses[{i}].branches[{b}]"),
                    &branch.tool_calls,
                    branch.error.is_some(),
                )
            }));
            for (path, calls, is_error) in turns {
                // A provider error is played instead of a turn.
                let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
                if let (Some(why), false) = (self.tool_choice.broken_by(&names), is_error) {
                    broken_choice.push(format!(
                        "{path} {why}; no provider would answer so, and the run plays it as written"
                    ));
                }
            }
            let played = std::iter::once((
                &response.tool_calls,
                &response.stop_reason,
                response.error.is_some(),
            ))
            .chain(
                response
                    .branches
                    .iter()
                    .map(|b| (&b.tool_calls, &b.stop_reason, b.error.is_some())),
            );
            for (calls, stop_reason, is_error) in played {
                for ScriptedCall { name, .. } in calls {
                    if !self.declares(name) && !undeclared.contains(&name.as_str()) {
                        undeclared.push(name);
                    }
                }
                // A provider error is played instead of a turn: its stop
                // reason is never read.
                if let (Some(stop), false) = (stop_reason, is_error) {
                    let known = STOP_REASONS.iter().any(|(word, _)| word == stop);
                    if !known && !unknown_stops.contains(&stop.as_str()) {
                        unknown_stops.push(stop);
                    }
                }
            }
        }
        let known: Vec<&str> = STOP_REASONS.iter().map(|(word, _)| *word).collect();
        let known = known.join(", ");
        undeclared
            .into_iter()
            .map(|name| Note {
                message: format!(
                    "the script calls {name}, which no tool declares: the harness will answer it as an unknown tool"
                ),
            })
            .chain(unknown_stops.into_iter().map(|stop| Note {
                message: format!(
                    "stop_reason \"{stop}\" is none of {known}: the run will end model_error"
                ),
            }))
            .chain(broken_choice.into_iter().map(|message| Note { message }))
            .collect()
    }

    /// Whether a call to `name` reaches a tool: one of the file's, or one an
    /// MCP server offers (or, before its tools are loaded, could offer).
    fn declares(&self, name: &str) -> bool {
        let listed = self.tools.iter().any(|entry| match entry {
            ToolEntry::Builtin(builtin) => builtin == name,
            ToolEntry::Inline(tool) => tool.name == name,
        });
        let remote = match &self.mcp {
            Some(mcp) => mcp.tools.iter().any(|t| t.name == name),
            None => self.mcp_servers.iter().any(|s| s.could_offer(name)),
        };
        listed || remote
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notes_of(json: &str) -> Vec<String> {
        let scenario = Scenario::load(json).expect("loads");
        scenario.notes().iter().map(ToString::to_string).collect()
    }

    #[test]
    fn each_undeclared_tool_and_unknown_stop_reason_is_noted_once_branches_included() {
        let notes = notes_of(
            r#"{"name": "n", "task": "t", "tools": ["get_time"],
                "model": {"type": "scripted", "responses": [
                    {"tool_calls": [{"name": "get_tiem", "args": {}}, {"name": "get_time", "args": {}}]},
                    {"tool_calls": [{"name": "get_tiem", "args": {}}], "branches": [
                        {"when": {"get_time": "ok"}, "tool_calls": [{"name": "clock", "args": {}}], "stop_reason": "done"}
                    ]},
                    {"error": {"status": 500, "message": "down"}, "stop_reason": "ignored"},
                    {"text": "noon", "stop_reason": "done"}
                ]}}"#,
        );
        assert_eq!(notes.len(), 3, "{notes:#?}");
        assert!(notes[0].starts_with("note: the script calls get_tiem, which"));
        assert!(notes[1].starts_with("note: the script calls clock, which"));
        assert!(notes[2].starts_with("note: stop_reason \"done\" is none of end_turn, "));
    }

    #[test]
    fn a_script_that_calls_only_its_tools_with_known_stop_reasons_has_no_note() {
        let notes = notes_of(
            r#"{"name": "n", "task": "t", "tools": ["get_time"],
                "model": {"type": "scripted", "responses": [
                    {"tool_calls": [{"name": "get_time", "args": {}}], "stop_reason": "tool_calls"},
                    {"text": "noon", "stop_reason": "stop"}
                ]}}"#,
        );
        assert_eq!(notes, Vec::<String>::new());
    }
}
