//! "Replay all against the current scenario" as a plain model: every kept
//! run of the editor's scenario replayed against it, one at a time, into a
//! table (its words are `history::replay_all`'s). It changes only by
//! messages (`crate::update`): the press, Stop, and the answers of the
//! engine and of storage; loading the editor's scenario, reading a kept run
//! and replaying it are commands, which `history::state` performs. Only the
//! History mode's panel sends it messages, so its code comes with that panel.
//!
//! Invariants:
//! - One "Replay all" at a time: a second press while one is under way
//!   (from the press on, the engine's load included) starts nothing.
//! - It goes one kept run at a time, a frame in between so its progress
//!   paints, and Stop is heard before the next run; a kept run that cannot
//!   be read or replayed is a row that says why.
//! - An answer that arrives after the batch ended changes nothing.

use harness::replay::Record;
use harness::scenario::Scenario;

use crate::history::model::{read_failure_text, ReadFailure};
use crate::history::replay_all::{self, Batch, Row, Verdict};
use crate::history::Entry;
use crate::update::Update;

/// The last "Replay all" and the one under way.
#[derive(Clone, Debug, Default)]
pub struct BatchModel {
    /// The last "Replay all": what it matched and its rows, or why it
    /// replayed nothing.
    batch: Option<Result<Batch, String>>,
    /// The batch's scenario and the kept runs it replays.
    work: Option<(Scenario, Vec<Entry>)>,
    /// Set by Stop: the batch stops before its next kept run.
    stop: bool,
    /// From the press to the end, including the engine's load before the
    /// batch shows as running, so a second press starts no second batch.
    busy: bool,
}

/// What happens to "Replay all": a person's action, or an answer.
// Made once and moved once: boxing its big variant would add an
// allocation and code for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum BatchMsg {
    /// "Replay all" against the scenario `text`.
    ReplayAll {
        text: String,
    },
    /// The batch's scenario loaded (with the kept runs then), or its problems.
    ScenarioLoaded(Result<(Scenario, Vec<Entry>), Vec<String>>),
    /// A frame has passed: the progress painted, a Stop heard.
    Frame,
    /// A kept run of the batch read, or why not.
    KeptRead {
        id: String,
        record: Result<Record, ReadFailure>,
    },
    /// One kept run of the batch replayed: its verdict, or the problems
    /// that kept it from running.
    KeptReplayed {
        id: String,
        verdict: Result<Verdict, Vec<String>>,
    },
    Stop,
}

/// What the world must do for "Replay all".
// Made once and moved once: boxing its big variant would add an
// allocation and code for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum BatchCmd {
    /// Load the batch's scenario (`ScenarioLoaded`).
    LoadScenario(String),
    /// `Frame` after the page has painted.
    NextFrame,
    /// Read a kept run (`KeptRead`).
    ReadKept(String),
    /// Replay a kept run against the batch's scenario (`KeptReplayed`).
    ReplayKept {
        id: String,
        record: Record,
        scenario: Box<Scenario>,
    },
}

impl BatchModel {
    /// The last "Replay all", or why it replayed nothing.
    pub fn batch(&self) -> Option<&Result<Batch, String>> {
        self.batch.as_ref()
    }

    /// A "Replay all" is under way, from its press to its end.
    pub fn busy(&self) -> bool {
        self.busy
    }

    fn scenario_loaded(
        &mut self,
        loaded: Result<(Scenario, Vec<Entry>), Vec<String>>,
    ) -> Vec<BatchCmd> {
        let (scenario, entries) = match loaded {
            Ok(loaded) => loaded,
            Err(lines) => {
                self.batch = Some(Err(format!(
                    "The scenario in the editor does not load, so nothing was replayed: {}",
                    lines.join("; ")
                )));
                self.busy = false;
                return Vec::new();
            }
        };
        let runs = replay_all::runs_of(&entries, &scenario.name);
        if runs.is_empty() {
            self.batch = Some(Err(replay_all::found_text(
                &scenario.name,
                0,
                entries.len(),
            )));
            self.busy = false;
            return Vec::new();
        }
        self.batch = Some(Ok(Batch {
            scenario: scenario.name.clone(),
            kept: entries.len(),
            total: runs.len(),
            rows: Vec::new(),
            running: true,
            stopped: false,
        }));
        self.work = Some((scenario, runs));
        // A frame to paint "Replaying 1 of 3…" and to take a Stop.
        vec![BatchCmd::NextFrame]
    }

    /// The next kept run of the batch, or its end.
    fn frame(&mut self) -> Vec<BatchCmd> {
        let Some((_, runs)) = &self.work else {
            return Vec::new();
        };
        let done = match &self.batch {
            Some(Ok(batch)) => batch.rows.len(),
            _ => 0,
        };
        match runs.get(done) {
            None => self.end(false),
            Some(_) if self.stop => self.end(true),
            Some(entry) => return vec![BatchCmd::ReadKept(entry.id.clone())],
        }
        Vec::new()
    }

    fn row_done(&mut self, id: &str, verdict: Verdict) -> Vec<BatchCmd> {
        let Some((_, runs)) = &self.work else {
            return Vec::new();
        };
        let Some(entry) = runs.iter().find(|e| e.id == id) else {
            return Vec::new();
        };
        let row = Row::new(entry, verdict);
        if let Some(Ok(batch)) = &mut self.batch {
            batch.rows.push(row);
        }
        vec![BatchCmd::NextFrame]
    }

    fn end(&mut self, stopped: bool) {
        if let Some(Ok(batch)) = &mut self.batch {
            batch.running = false;
            batch.stopped = stopped;
        }
        self.work = None;
        self.busy = false;
    }
}

impl Update for BatchModel {
    type Msg = BatchMsg;
    type Cmd = BatchCmd;

    fn update(&mut self, msg: BatchMsg) -> Vec<BatchCmd> {
        match msg {
            BatchMsg::ReplayAll { .. } if self.busy => Vec::new(),
            BatchMsg::ReplayAll { text } => {
                self.busy = true;
                self.stop = false;
                vec![BatchCmd::LoadScenario(text)]
            }
            BatchMsg::ScenarioLoaded(loaded) => self.scenario_loaded(loaded),
            BatchMsg::Frame => self.frame(),
            BatchMsg::KeptRead { id, record } => match (record, &self.work) {
                (_, None) => Vec::new(),
                (Err(why), Some(_)) => self.row_done(
                    &id,
                    Verdict::NotReplayed(format!(
                        "its record cannot be read: {}",
                        read_failure_text(&why)
                    )),
                ),
                (Ok(record), Some((scenario, _))) => vec![BatchCmd::ReplayKept {
                    id,
                    record,
                    scenario: Box::new(scenario.clone()),
                }],
            },
            BatchMsg::KeptReplayed { id, verdict } => {
                let verdict = verdict.unwrap_or_else(|lines| {
                    Verdict::NotReplayed(format!(
                        "the scenario in the editor cannot run: {}",
                        lines.join("; ")
                    ))
                });
                self.row_done(&id, verdict)
            }
            BatchMsg::Stop => {
                self.stop = true;
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
mod tests;
