//! "Replay against current tools" for the run in view, as a plain model:
//! a press replays the trace in view against the scenario in the editor,
//! and its verdict (the pass/fail list, or why nothing could be checked)
//! is kept with the run it was about. It changes only by messages
//! (`crate::update`); the replay itself is a command, which
//! `history::state` performs. Only the replay panel under the stop banner
//! sends it messages, so its code comes with that panel. "Replay all" is
//! `history::batch`.
//!
//! Invariants:
//! - A verdict belongs to the run it was asked about: it shows only while
//!   that run is in view, and one that arrives after another run took the
//!   view is dropped.
//! - The replay calls the MCP servers again only when the person asked.

use harness::replay::Record;

use crate::history::ReplayView;
use crate::update::Update;

/// The replay of the run in view and what it said.
#[derive(Clone, Debug, Default)]
pub struct ReplayModel {
    /// A replay of the run in view is under way.
    replaying: bool,
    /// (run id, verdict) of the last replay.
    replayed: Option<(u64, Result<ReplayView, String>)>,
    /// "Call the MCP servers again": a replay reaches the servers instead of
    /// answering their tools from the run's results.
    call_mcp: bool,
}

/// How a replay of the run in view ended.
#[derive(Clone, Debug, PartialEq)]
pub enum ReplayOutcome {
    /// The editor's scenario does not load: its problems.
    DoesNotLoad(Vec<String>),
    /// The MCP servers were asked for and could not be reached.
    McpUnreachable(Vec<String>),
    /// The scenario loads but cannot run: its problems.
    CannotRun(Vec<String>),
    Done(ReplayView),
}

/// What happens to the replay: a person's action, or its answer.
// Made once and moved once: boxing its big variant would add an
// allocation and code for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum ReplayMsg {
    SetCallMcp(bool),
    /// Replay `record`, the run `run` in view, against the scenario `text`.
    Replay {
        run: u64,
        record: Record,
        text: String,
    },
    /// A replay asked while `run` was in view ended; `now_run` is in view now.
    Replayed {
        run: u64,
        now_run: u64,
        outcome: ReplayOutcome,
    },
}

/// What the world must do for the replay: replay the run in view
/// (`Replayed`), calling the MCP servers again when `call_mcp`.
#[derive(Debug)]
pub struct ReplayCmd {
    pub run: u64,
    pub record: Record,
    pub text: String,
    pub call_mcp: bool,
}

impl ReplayModel {
    /// A replay of the run in view is under way.
    pub fn replaying(&self) -> bool {
        self.replaying
    }

    /// (run id, verdict) of the last replay (see `verdict`).
    pub fn replayed(&self) -> Option<&(u64, Result<ReplayView, String>)> {
        self.replayed.as_ref()
    }

    /// The last replay's verdict on run `run`, if it was replayed.
    pub fn verdict(&self, run: u64) -> Option<&Result<ReplayView, String>> {
        self.replayed
            .as_ref()
            .filter(|(replayed, _)| *replayed == run)
            .map(|(_, verdict)| verdict)
    }

    pub fn call_mcp(&self) -> bool {
        self.call_mcp
    }

    fn replayed_now(&mut self, run: u64, now_run: u64, outcome: ReplayOutcome) {
        self.replaying = false;
        // A newer run replaced the trace meanwhile: this verdict is about the old one.
        if run != now_run {
            return;
        }
        let (lead, lines) = match outcome {
            ReplayOutcome::Done(view) => {
                self.replayed = Some((run, Ok(view)));
                return;
            }
            ReplayOutcome::DoesNotLoad(lines) => {
                ("The scenario in the editor does not load", lines)
            }
            ReplayOutcome::McpUnreachable(lines) => ("The MCP servers could not be reached", lines),
            ReplayOutcome::CannotRun(lines) => ("The scenario in the editor cannot run", lines),
        };
        self.replayed = Some((run, Err(format!("{lead}: {}", lines.join("; ")))));
    }
}

impl Update for ReplayModel {
    type Msg = ReplayMsg;
    type Cmd = ReplayCmd;

    fn update(&mut self, msg: ReplayMsg) -> Vec<ReplayCmd> {
        match msg {
            ReplayMsg::SetCallMcp(on) => {
                self.call_mcp = on;
                Vec::new()
            }
            ReplayMsg::Replay { run, record, text } => {
                self.replaying = true;
                vec![ReplayCmd {
                    run,
                    record,
                    text,
                    call_mcp: self.call_mcp,
                }]
            }
            ReplayMsg::Replayed {
                run,
                now_run,
                outcome,
            } => {
                self.replayed_now(run, now_run, outcome);
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
mod tests;
