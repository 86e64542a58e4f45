//! Opening and importing kept runs, as a plain model: a kept run opened
//! (into the trace, and its scenario into the editor unless it is opened
//! from "Replay all"), and a run file imported (kept, then opened, and what
//! it held said beside the run files). It changes only by messages
//! (`crate::update`); reading a record, showing it in the trace, loading
//! the editor and keeping an imported run (the kept runs' model,
//! `history::model`) are commands, which `history::state` performs. Only
//! the panels send it messages, so its code comes with them.
//!
//! Invariants:
//! - Which kept run the trace shows is kept with the id of the run it
//!   became: it shows only while that run is in view.
//! - An opened run's scenario that arrives after another run took the
//!   view stays out of the editor: the person moved on.
//! - A file that does not read keeps nothing and shows nothing: the
//!   history and the trace stay as they were, and the notice says why.

use harness::replay::Record;
use harness::scenario::Scenario;

use crate::history::model::{read_failure_text, ReadFailure};
use crate::history::{self, Entry, Origin};
use crate::update::Update;

/// What the editor says above a scenario loaded from an opened run.
pub const OPENED_SCENARIO: &str =
    "Loaded the scenario of the opened run: Run runs it again, Replay checks it.";

/// Which kept run the trace shows.
#[derive(Clone, Debug, Default)]
pub struct OpeningModel {
    /// (run id, entry id) of the kept run the trace shows, if it shows one.
    opened: Option<(u64, String)>,
}

/// What happens when a kept run is opened or a file imported.
#[derive(Debug)]
pub enum OpenMsg {
    /// Open a kept run (its scenario into the editor when `scenario`).
    Open { id: String, scenario: bool },
    /// A kept run's record read for Open.
    RecordRead {
        id: String,
        scenario: bool,
        record: Result<Record, ReadFailure>,
    },
    /// A record is in the trace as run `run`; `scenario` to load into the
    /// editor, if asked.
    Shown {
        run: u64,
        entry_id: String,
        scenario: Option<Scenario>,
    },
    /// The opened run's scenario as text, asked while `run` was in view;
    /// `now_run` is in view now.
    ScenarioText {
        run: u64,
        now_run: u64,
        text: String,
    },
    /// Import the file `name` holding `text`; `in_view` is the run in view
    /// (a request body is read against it).
    Import {
        name: String,
        text: String,
        in_view: Record,
    },
    /// The picked file could not be read.
    ImportUnreadable { name: String, why: String },
    /// The imported file read as a record and notes on what it lacked, or why not.
    RunFileRead {
        name: String,
        read: Result<(Record, Vec<String>), String>,
    },
    /// The imported `record` is kept as `id`; `said` is what to say of it.
    Kept {
        id: String,
        record: Box<Record>,
        said: String,
    },
}

/// What the world must do to open or import a run.
#[derive(Debug)]
pub enum OpenCmd {
    /// Read a kept run (`RecordRead`), from this page's memory if storage
    /// did not take it.
    ReadRecord { id: String, scenario: bool },
    /// What the kept runs' panel says now (`model::Msg::Say`).
    Say(Option<String>),
    /// Show `record` in the trace (`Shown`, and `model::Msg::Shown`), and
    /// bring the trace into view.
    ShowInTrace {
        record: Record,
        entry_id: String,
        load_scenario: bool,
    },
    /// The scenario's text (`ScenarioText`).
    ScenarioText { run: u64, scenario: Scenario },
    /// Put `text` in the editor with `OPENED_SCENARIO` said above it.
    LoadEditor(String),
    /// Read an imported file (`RunFileRead`).
    ReadRunFile {
        name: String,
        text: String,
        in_view: Record,
    },
    /// Keep an imported record (the kept runs' model, from `WrittenOut`
    /// on), then `Kept` with its id.
    Keep {
        entry: Entry,
        record: Record,
        said: String,
    },
    /// Say this beside the run files, about the run in view.
    FileNotice(String),
}

impl OpeningModel {
    /// (run id, entry id) of the kept run shown last (see `opened_id`).
    pub fn opened(&self) -> Option<&(u64, String)> {
        self.opened.as_ref()
    }

    /// The id of the kept run shown as run `run`, if it is one.
    pub fn opened_id(&self, run: u64) -> Option<&str> {
        self.opened
            .as_ref()
            .filter(|(opened, _)| *opened == run)
            .map(|(_, id)| id.as_str())
    }
}

/// What the run files say of an imported `record`.
fn imported_text(name: &str, record: &Record, notes: Vec<String>) -> String {
    let scenario = if record.scenario.is_some() {
        "with its scenario"
    } else {
        "a bare trace, without a scenario"
    };
    let mut said = format!(
        "Imported {name} ({scenario}): {} events.",
        record.events.len()
    );
    for note in notes {
        said.push(' ');
        said.push_str(&note);
    }
    said
}

impl Update for OpeningModel {
    type Msg = OpenMsg;
    type Cmd = OpenCmd;

    fn update(&mut self, msg: OpenMsg) -> Vec<OpenCmd> {
        match msg {
            OpenMsg::Open { id, scenario } => vec![OpenCmd::ReadRecord { id, scenario }],
            OpenMsg::RecordRead {
                id,
                scenario,
                record: Ok(record),
            } => vec![
                OpenCmd::Say(None),
                OpenCmd::ShowInTrace {
                    record,
                    entry_id: id,
                    load_scenario: scenario,
                },
            ],
            OpenMsg::RecordRead {
                record: Err(why), ..
            } => vec![OpenCmd::Say(Some(format!(
                "This kept run cannot be opened: {}.",
                read_failure_text(&why)
            )))],
            OpenMsg::Shown {
                run,
                entry_id,
                scenario,
            } => {
                self.opened = Some((run, entry_id));
                scenario
                    .map(|scenario| OpenCmd::ScenarioText { run, scenario })
                    .into_iter()
                    .collect()
            }
            // Another run was opened or started meanwhile: its scenario stays.
            OpenMsg::ScenarioText { run, now_run, .. } if run != now_run => Vec::new(),
            OpenMsg::ScenarioText { text, .. } => vec![OpenCmd::LoadEditor(text)],
            OpenMsg::Import {
                name,
                text,
                in_view,
            } => vec![OpenCmd::ReadRunFile {
                name,
                text,
                in_view,
            }],
            OpenMsg::ImportUnreadable { name, why }
            | OpenMsg::RunFileRead {
                name,
                read: Err(why),
            } => vec![OpenCmd::FileNotice(history::import_error(&name, &why))],
            OpenMsg::RunFileRead {
                name,
                read: Ok((record, notes)),
            } => {
                let said = imported_text(&name, &record, notes);
                let entry = history::summarize(&record, String::new(), 0.0, 0, Origin::Imported);
                vec![OpenCmd::Keep {
                    entry,
                    record,
                    said,
                }]
            }
            // Shown first, so the notice is about the imported run.
            OpenMsg::Kept { id, record, said } => vec![
                OpenCmd::ShowInTrace {
                    record: *record,
                    entry_id: id,
                    load_scenario: true,
                },
                OpenCmd::FileNotice(said),
            ],
        }
    }
}

#[cfg(test)]
mod tests;
