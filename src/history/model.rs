//! The run history as a plain model: the kept runs and everything said
//! about them (storage refused, a run that cannot be opened, a replay's
//! verdict, "Replay all"'s table), changed only by messages, asking for
//! storage, the engine, the trace and the editor as commands (see
//! `crate::update`). The page does not use it yet: `state::history` still
//! keeps the history in signals of its own. An adapter that held this model
//! and performed its commands put about 4 KiB (brotli) on the first paint
//! and 8 KiB on the first visit, over their budgets; the model waits for an
//! adapter that costs less.
//!
//! What belongs to a run in view (which kept run is open, a replay's
//! verdict) is kept with that run's id: the page draws it only while that
//! run is in view, and an answer about a run that left the view is dropped.

use harness::replay::Record;
use harness::scenario::Scenario;

use crate::browser::history_store::StoreError;
use crate::history::replay_all::{self, Batch, Row, Verdict};
use crate::history::{self, Entry, Origin, Plan, ReplayView};
use crate::update::Update;
use crate::view_model;

/// The file name an exported run gets.
pub const EXPORT_NAME: &str = "run.jsonl";
/// The file name an OpenTelemetry export gets.
pub const OTEL_EXPORT_NAME: &str = "run.otlp.json";

/// What the editor says above a scenario loaded from an opened run.
pub const OPENED_SCENARIO: &str =
    "Loaded the scenario of the opened run: Run runs it again, Replay checks it.";

/// The kept runs and what the panel says about them.
#[derive(Clone, Debug, Default)]
pub struct HistoryModel {
    /// The kept runs, newest first.
    pub entries: Vec<Entry>,
    /// What the panel must say about storage: refused, full, evicted, unreadable.
    pub notice: Option<String>,
    /// Records that storage did not take, by id, kept for this page only.
    memory: Vec<(String, String)>,
    /// The run id of the last run kept or shown, so each is kept once.
    handled: u64,
    /// (run id, entry id) of the kept run the trace shows, if it shows one.
    opened: Option<(u64, String)>,
    /// (run id, verdict) of the last replay.
    replayed: Option<(u64, Result<ReplayView, String>)>,
    /// A replay is under way.
    pub replaying: bool,
    /// The last "Replay all": what it matched and its rows, or why it
    /// replayed nothing.
    pub batch: Option<Result<Batch, String>>,
    /// The batch's scenario and the kept runs still to replay.
    batch_work: Option<(Scenario, Vec<Entry>)>,
    /// Set by Stop: the batch stops before its next kept run.
    stop_batch: bool,
    /// From the press to the end, including the engine's load before the
    /// batch shows as running, so a second press starts no second batch.
    pub batch_busy: bool,
    /// Now, for the "2 min ago" texts.
    pub now_ms: f64,
    /// "Call the MCP servers again": a replay reaches the servers instead of
    /// answering their tools from the run's results.
    pub call_mcp: bool,
}

/// Why a kept run's record could not be read.
#[derive(Clone, Debug, PartialEq)]
pub enum ReadFailure {
    /// Its key is gone from storage.
    Gone,
    /// Storage refused.
    Storage(StoreError),
    /// The text is not a record; why.
    Unparsable(String),
}

/// What a kept run's record was read for.
#[derive(Clone, Debug, PartialEq)]
pub enum Purpose {
    /// Open it in the trace, and its scenario in the editor when `scenario`.
    Open { scenario: bool },
    /// Replay it in "Replay all".
    Batch,
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

/// What to do once a record is kept.
#[derive(Clone, Debug)]
pub enum Then {
    Nothing,
    /// Show the imported run, and say what was imported.
    ShowImported {
        record: Box<Record>,
        name: String,
        notes: Vec<String>,
    },
}

/// What a saved index was saved after.
#[derive(Clone, Debug, PartialEq)]
pub enum AfterSave {
    Deletion,
    /// Runs listed again from their records: how many, and the ones that
    /// did not read.
    Relist {
        listed: usize,
        unreadable: Vec<String>,
    },
}

pub enum Msg {
    /// The page opened: list again the records the index does not list,
    /// and start the clock.
    PageOpened,
    /// The run `run` finished in view (its `run_finished` arrived).
    RunFinished {
        run: u64,
    },
    /// Keep `record`.
    Keep {
        record: Record,
        origin: Origin,
    },
    /// A record written out as text at `now_ms`, to be stored.
    WrittenOut {
        entry: Entry,
        text: String,
        now_ms: f64,
        then: Then,
    },
    /// Storage took the record and the index (dropping `evict`), or refused.
    Persisted {
        entry: Entry,
        text: String,
        evict: Vec<String>,
        outcome: Result<(), StoreError>,
        then: Then,
    },
    /// The ids of every record in storage.
    StoredIds(Result<Vec<String>, StoreError>),
    /// Records read again for the list: (id, size, the record or why not).
    Relisted(Vec<(String, usize, Result<Record, String>)>),
    IndexSaved {
        after: AfterSave,
        outcome: Result<(), StoreError>,
    },
    /// Open a kept run (its scenario into the editor when `scenario`).
    Open {
        id: String,
        scenario: bool,
    },
    RecordRead {
        id: String,
        purpose: Purpose,
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
    Delete(String),
    DeleteAll,
    /// Save the run in view (`record`) as a file.
    Export(Record),
    ExportOtel(Record),
    /// A file saved, or why not; `saved` says what it holds.
    Downloaded {
        saved: String,
        outcome: Result<(), String>,
    },
    SendOtel {
        record: Record,
        endpoint: String,
    },
    OtelSent(Result<String, String>),
    /// Import the file `name` holding `text`; `in_view` is the run in view
    /// (a request body is read against it).
    Import {
        name: String,
        text: String,
        in_view: Record,
    },
    /// The picked file could not be read.
    ImportUnreadable {
        name: String,
        why: String,
    },
    RunFileRead {
        name: String,
        read: Result<(Record, Vec<String>), String>,
    },
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
    /// "Replay all" against the scenario `text`.
    ReplayAll {
        text: String,
    },
    /// The batch's scenario loaded, or its problems.
    BatchScenario(Result<Scenario, Vec<String>>),
    /// A frame has passed: the progress painted, a Stop heard.
    Frame,
    /// One kept run of the batch replayed: its verdict, or the problems
    /// that kept it from running.
    KeptReplayed {
        id: String,
        verdict: Result<Verdict, Vec<String>>,
    },
    StopReplayAll,
    /// The clock, for the "2 min ago" texts.
    Tick(f64),
}

#[derive(Debug)]
pub enum Cmd {
    /// Send `Keep` with the run in view.
    KeepRunInView,
    /// Write `record` out as text and take the time (`WrittenOut`).
    WriteOut {
        entry: Entry,
        record: Record,
        then: Then,
    },
    /// Store the record and `index`, then remove `evict` (`Persisted`); if
    /// the index is refused, take the record back.
    Persist {
        entry: Entry,
        text: String,
        index: String,
        evict: Vec<String>,
        then: Then,
    },
    ListStoredIds,
    /// Read and parse these records (`Relisted`).
    ReadToRelist(Vec<String>),
    SaveIndex {
        index: String,
        after: AfterSave,
    },
    RemoveRecord(String),
    /// Read a kept run: `memory` holds its text when storage did not take it.
    ReadRecord {
        id: String,
        memory: Option<String>,
        purpose: Purpose,
    },
    /// Show `record` in the trace (`Shown`), and bring the trace into view.
    ShowInTrace {
        record: Record,
        entry_id: String,
        load_scenario: bool,
    },
    /// The scenario's text (`ScenarioText`).
    ScenarioText {
        run: u64,
        scenario: Scenario,
    },
    /// Put `text` in the editor with `arrival` said above it, and place the
    /// trace again (the editor above it may have grown).
    LoadEditor {
        text: String,
        arrival: String,
    },
    Download(Download),
    SendOtel {
        record: Record,
        endpoint: String,
    },
    ReadRunFile {
        name: String,
        text: String,
        in_view: Record,
    },
    /// Say this beside the run files, about the run in view.
    FileNotice(String),
    Replay {
        run: u64,
        record: Record,
        text: String,
        call_mcp: bool,
    },
    LoadScenario(String),
    NextFrame,
    ReplayKept {
        id: String,
        record: Record,
        scenario: Box<Scenario>,
    },
    /// `Tick` in half a minute.
    AwaitClock,
}

/// A file to save.
#[derive(Debug)]
pub enum Download {
    Jsonl(Record),
    Otel(Record),
}

impl HistoryModel {
    /// The history as the stored index reads (`index`), at `now_ms`: its
    /// entries, and what the panel must say about it. Entries that do not
    /// read are named; their records, and those of a list that does not
    /// read at all, stay in storage to be listed again (`relist`).
    pub fn restored(index: Result<Option<String>, StoreError>, now_ms: f64) -> Self {
        let (entries, notice) = match index {
            Ok(None) => (Vec::new(), None),
            Ok(Some(text)) => match history::index_from_json(&text) {
                Ok(read) => {
                    let notice = (!read.unreadable.is_empty()).then(|| {
                        format!(
                            "Some kept runs' list entries could not be read: {}. Their records are read again below.",
                            read.unreadable.join("; ")
                        )
                    });
                    (read.entries, notice)
                }
                Err(why) => (
                    Vec::new(),
                    Some(format!(
                        "The list of kept runs could not be read: {why}. The runs are listed again from their records."
                    )),
                ),
            },
            Err(err) => (
                Vec::new(),
                Some(format!(
                    "Runs cannot be kept after a reload: {}. They are listed for this page only.",
                    unavailable_text(&err)
                )),
            ),
        };
        HistoryModel {
            entries,
            notice,
            now_ms,
            ..Default::default()
        }
    }

    /// The id of the kept run shown as run `run`, if it is one.
    pub fn opened_id(&self, run: u64) -> Option<String> {
        self.opened
            .as_ref()
            .filter(|(opened, _)| *opened == run)
            .map(|(_, id)| id.clone())
    }

    /// The last replay's verdict on run `run`, if it was replayed.
    pub fn verdict(&self, run: u64) -> Option<Result<ReplayView, String>> {
        self.replayed
            .as_ref()
            .filter(|(replayed, _)| *replayed == run)
            .map(|(_, verdict)| verdict.clone())
    }

    /// A "Replay all" is under way.
    pub fn batch_running(&self) -> bool {
        matches!(&self.batch, Some(Ok(batch)) if batch.running)
    }

    fn index(&self) -> String {
        history::index_to_json(&self.entries)
    }

    fn memory_text(&self, id: &str) -> Option<String> {
        self.memory
            .iter()
            .find(|(k, _)| k == id)
            .map(|(_, t)| t.clone())
    }

    /// `record` is to be kept: what the list shows of it is read first, so
    /// it moves on to be written out without a copy. Its id, time and size
    /// are known once it is written.
    fn keep(&mut self, record: Record, origin: Origin, then: Then) -> Vec<Cmd> {
        let entry = history::summarize(&record, String::new(), 0.0, 0, origin);
        vec![Cmd::WriteOut {
            entry,
            record,
            then,
        }]
    }

    /// A written-out record: stored with the oldest runs the budget needs
    /// gone, or kept for this page only when it is over the budget.
    fn written_out(&mut self, mut entry: Entry, text: String, now_ms: f64, then: Then) -> Vec<Cmd> {
        self.now_ms = now_ms;
        let id = history::new_id(now_ms, &self.entries);
        entry.id = id;
        entry.saved_at_ms = now_ms;
        entry.size = text.len();
        match history::plan_store(&self.entries, entry.size, history::BUDGET_BYTES) {
            Plan::TooLarge { size, budget } => {
                let why = format!(
                    "This run was not saved: its record is {}, more than the {} the history may use. {PAGE_ONLY}",
                    history::format_size(size),
                    history::format_size(budget)
                );
                self.keep_in_memory(entry, text, why, then)
            }
            Plan::Store { evict } => {
                let mut kept: Vec<Entry> = self
                    .entries
                    .iter()
                    .filter(|e| !evict.contains(&e.id))
                    .cloned()
                    .collect();
                kept.insert(0, entry.clone());
                vec![Cmd::Persist {
                    entry,
                    text,
                    index: history::index_to_json(&kept),
                    evict,
                    then,
                }]
            }
        }
    }

    fn keep_in_memory(
        &mut self,
        mut entry: Entry,
        text: String,
        why: String,
        then: Then,
    ) -> Vec<Cmd> {
        entry.stored = false;
        self.memory.push((entry.id.clone(), text));
        let id = entry.id.clone();
        self.entries.insert(0, entry);
        self.notice = Some(why);
        self.kept(id, then)
    }

    fn persisted(
        &mut self,
        entry: Entry,
        text: String,
        evict: Vec<String>,
        outcome: Result<(), StoreError>,
        then: Then,
    ) -> Vec<Cmd> {
        if let Err(err) = outcome {
            let why = match err {
                StoreError::Full => format!(
                    "This run was not saved: the browser's storage for this page is full (QuotaExceededError). Delete kept runs or clear the site's data. {PAGE_ONLY}"
                ),
                StoreError::Unavailable(why) => {
                    format!("This run was not saved: storage is unavailable ({why}). {PAGE_ONLY}")
                }
            };
            return self.keep_in_memory(entry, text, why, then);
        }
        let dropped: Vec<Entry> = self
            .entries
            .iter()
            .filter(|e| evict.contains(&e.id))
            .cloned()
            .collect();
        self.entries.retain(|e| !evict.contains(&e.id));
        let id = entry.id.clone();
        self.entries.insert(0, entry);
        self.notice = history::evicted_notice(&dropped);
        self.kept(id, then)
    }

    /// After a record is kept as `id`.
    fn kept(&mut self, id: String, then: Then) -> Vec<Cmd> {
        match then {
            Then::Nothing => Vec::new(),
            Then::ShowImported {
                record,
                name,
                notes,
            } => {
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
                // Shown first, so the notice is about the imported run.
                vec![
                    Cmd::ShowInTrace {
                        record: *record,
                        entry_id: id,
                        load_scenario: true,
                    },
                    Cmd::FileNotice(said),
                ]
            }
        }
    }

    /// Records in storage that the index does not list, read again.
    fn relisted(&mut self, found: Vec<(String, usize, Result<Record, String>)>) -> Vec<Cmd> {
        let (mut listed, mut unreadable) = (0, Vec::new());
        for (id, size, record) in found {
            match record {
                Ok(record) => {
                    let entry = history::summarize(
                        &record,
                        id.clone(),
                        history::saved_at_of(&id),
                        size,
                        Origin::Run,
                    );
                    self.entries.push(entry);
                    listed += 1;
                }
                Err(why) => unreadable.push(format!("the run {id}: {why}")),
            }
        }
        self.entries = history::newest_first(std::mem::take(&mut self.entries));
        vec![Cmd::SaveIndex {
            index: self.index(),
            after: AfterSave::Relist { listed, unreadable },
        }]
    }

    fn index_saved(&mut self, after: AfterSave, outcome: Result<(), StoreError>) {
        match after {
            AfterSave::Deletion => {
                // A smaller index always fits: only unavailable storage
                // fails here, and the panel already says so.
                if let Err(err) = outcome {
                    self.notice = Some(format!(
                        "The deletion is not saved: {}.",
                        unavailable_text(&err)
                    ));
                }
            }
            AfterSave::Relist { listed, unreadable } => {
                let mut said = Vec::new();
                if listed > 0 {
                    said.push(format!(
                        "Listed {} again from {} in storage.",
                        view_model::plural(listed as u64, "kept run"),
                        if listed == 1 {
                            "its record"
                        } else {
                            "their records"
                        }
                    ));
                }
                if !unreadable.is_empty() {
                    said.push(format!(
                        "Not listed, and left in storage untouched: {}.",
                        unreadable.join("; ")
                    ));
                }
                if let Err(err) = outcome {
                    said.push(format!(
                        "The list could not be saved: {}.",
                        unavailable_text(&err)
                    ));
                }
                let before = self.notice.take().into_iter();
                self.notice = Some(before.chain(said).collect::<Vec<_>>().join(" "));
            }
        }
    }

    fn record_read(
        &mut self,
        id: String,
        purpose: Purpose,
        record: Result<Record, ReadFailure>,
    ) -> Vec<Cmd> {
        match purpose {
            Purpose::Open { scenario } => match record {
                Ok(record) => {
                    self.notice = None;
                    vec![Cmd::ShowInTrace {
                        record,
                        entry_id: id,
                        load_scenario: scenario,
                    }]
                }
                Err(why) => {
                    self.notice = Some(format!(
                        "This kept run cannot be opened: {}.",
                        read_failure_text(&why)
                    ));
                    Vec::new()
                }
            },
            Purpose::Batch => match (record, &self.batch_work) {
                (_, None) => Vec::new(),
                (Err(why), Some(_)) => self.row_done(
                    &id,
                    Verdict::NotReplayed(format!(
                        "its record cannot be read: {}",
                        read_failure_text(&why)
                    )),
                ),
                (Ok(record), Some((scenario, _))) => vec![Cmd::ReplayKept {
                    id,
                    record,
                    scenario: Box::new(scenario.clone()),
                }],
            },
        }
    }

    fn replayed(&mut self, run: u64, now_run: u64, outcome: ReplayOutcome) {
        self.replaying = false;
        // A newer run replaced the trace meanwhile: this verdict is about the old one.
        if run != now_run {
            return;
        }
        let verdict = match outcome {
            ReplayOutcome::Done(view) => Ok(view),
            ReplayOutcome::DoesNotLoad(lines) => Err(format!(
                "The scenario in the editor does not load: {}",
                lines.join("; ")
            )),
            ReplayOutcome::McpUnreachable(lines) => Err(format!(
                "The MCP servers could not be reached: {}",
                lines.join("; ")
            )),
            ReplayOutcome::CannotRun(lines) => Err(format!(
                "The scenario in the editor cannot run: {}",
                lines.join("; ")
            )),
        };
        self.replayed = Some((run, verdict));
    }

    fn batch_scenario(&mut self, scenario: Result<Scenario, Vec<String>>) -> Vec<Cmd> {
        let scenario = match scenario {
            Ok(scenario) => scenario,
            Err(lines) => {
                self.batch = Some(Err(format!(
                    "The scenario in the editor does not load, so nothing was replayed: {}",
                    lines.join("; ")
                )));
                self.batch_busy = false;
                return Vec::new();
            }
        };
        let runs = replay_all::runs_of(&self.entries, &scenario.name);
        if runs.is_empty() {
            self.batch = Some(Err(replay_all::found_text(
                &scenario.name,
                0,
                self.entries.len(),
            )));
            self.batch_busy = false;
            return Vec::new();
        }
        self.batch = Some(Ok(Batch {
            scenario: scenario.name.clone(),
            kept: self.entries.len(),
            total: runs.len(),
            rows: Vec::new(),
            running: true,
            stopped: false,
        }));
        self.batch_work = Some((scenario, runs));
        // A frame to paint "Replaying 1 of 3…" and to take a Stop.
        vec![Cmd::NextFrame]
    }

    /// The next kept run of the batch, or its end.
    fn frame(&mut self) -> Vec<Cmd> {
        let Some((_, runs)) = &self.batch_work else {
            return Vec::new();
        };
        let done = match &self.batch {
            Some(Ok(batch)) => batch.rows.len(),
            _ => 0,
        };
        match runs.get(done) {
            None => {
                self.end_batch();
                Vec::new()
            }
            Some(_) if self.stop_batch => {
                self.update_batch(|batch| batch.stopped = true);
                self.end_batch();
                Vec::new()
            }
            Some(entry) => {
                let id = entry.id.clone();
                vec![Cmd::ReadRecord {
                    memory: self.memory_text(&id),
                    id,
                    purpose: Purpose::Batch,
                }]
            }
        }
    }

    fn row_done(&mut self, id: &str, verdict: Verdict) -> Vec<Cmd> {
        let Some((_, runs)) = &self.batch_work else {
            return Vec::new();
        };
        let Some(entry) = runs.iter().find(|e| e.id == id) else {
            return Vec::new();
        };
        let row = Row::new(entry, verdict);
        self.update_batch(|batch| batch.rows.push(row));
        vec![Cmd::NextFrame]
    }

    fn end_batch(&mut self) {
        self.update_batch(|batch| batch.running = false);
        self.batch_work = None;
        self.batch_busy = false;
    }

    fn update_batch(&mut self, change: impl FnOnce(&mut Batch)) {
        if let Some(Ok(batch)) = &mut self.batch {
            change(batch);
        }
    }
}

/// `HistoryModel::update` as a plain function, as the engine hands it out.
pub type HistoryStep = fn(&mut HistoryModel, Msg) -> Vec<Cmd>;

impl Update for HistoryModel {
    type Msg = Msg;
    type Cmd = Cmd;

    fn update(&mut self, msg: Msg) -> Vec<Cmd> {
        match msg {
            Msg::PageOpened => vec![Cmd::ListStoredIds, Cmd::AwaitClock],
            Msg::RunFinished { run } => {
                if self.handled == run {
                    return Vec::new();
                }
                self.handled = run;
                vec![Cmd::KeepRunInView]
            }
            Msg::Keep { record, origin } => self.keep(record, origin, Then::Nothing),
            Msg::WrittenOut {
                entry,
                text,
                now_ms,
                then,
            } => self.written_out(entry, text, now_ms, then),
            Msg::Persisted {
                entry,
                text,
                evict,
                outcome,
                then,
            } => self.persisted(entry, text, evict, outcome, then),
            Msg::StoredIds(Err(_)) => Vec::new(),
            Msg::StoredIds(Ok(ids)) => {
                let missing = history::records_to_relist(&ids, &self.entries);
                if missing.is_empty() {
                    Vec::new()
                } else {
                    vec![Cmd::ReadToRelist(missing)]
                }
            }
            Msg::Relisted(found) => self.relisted(found),
            Msg::IndexSaved { after, outcome } => {
                self.index_saved(after, outcome);
                Vec::new()
            }
            Msg::Open { id, scenario } => vec![Cmd::ReadRecord {
                memory: self.memory_text(&id),
                id,
                purpose: Purpose::Open { scenario },
            }],
            Msg::RecordRead {
                id,
                purpose,
                record,
            } => self.record_read(id, purpose, record),
            Msg::Shown {
                run,
                entry_id,
                scenario,
            } => {
                // Already kept: it must not be kept again when its
                // `run_finished` is seen in the trace.
                self.handled = run;
                self.opened = Some((run, entry_id));
                scenario
                    .map(|scenario| Cmd::ScenarioText { run, scenario })
                    .into_iter()
                    .collect()
            }
            Msg::ScenarioText { run, now_run, text } => {
                // Another run was opened or started meanwhile: its scenario stays.
                if run != now_run {
                    return Vec::new();
                }
                vec![Cmd::LoadEditor {
                    text,
                    arrival: OPENED_SCENARIO.to_string(),
                }]
            }
            Msg::Delete(id) => {
                self.memory.retain(|(k, _)| *k != id);
                self.entries.retain(|e| e.id != id);
                vec![
                    Cmd::RemoveRecord(id),
                    Cmd::SaveIndex {
                        index: self.index(),
                        after: AfterSave::Deletion,
                    },
                ]
            }
            Msg::DeleteAll => {
                let mut cmds: Vec<Cmd> = self
                    .entries
                    .drain(..)
                    .map(|e| Cmd::RemoveRecord(e.id))
                    .collect();
                self.memory.clear();
                cmds.push(Cmd::SaveIndex {
                    index: self.index(),
                    after: AfterSave::Deletion,
                });
                cmds
            }
            Msg::Export(record) => vec![Cmd::Download(Download::Jsonl(record))],
            Msg::ExportOtel(record) => vec![Cmd::Download(Download::Otel(record))],
            Msg::Downloaded { saved, outcome } => vec![Cmd::FileNotice(match outcome {
                Ok(()) => saved,
                Err(why) => why,
            })],
            Msg::SendOtel { record, endpoint } => vec![
                Cmd::FileNotice(format!("Sending the run to {}…", endpoint.trim())),
                Cmd::SendOtel { record, endpoint },
            ],
            Msg::OtelSent(said) => vec![Cmd::FileNotice(match said {
                Ok(sent) => sent,
                Err(why) => format!("✗ Not sent: {why}"),
            })],
            Msg::Import {
                name,
                text,
                in_view,
            } => vec![Cmd::ReadRunFile {
                name,
                text,
                in_view,
            }],
            Msg::ImportUnreadable { name, why } => {
                vec![Cmd::FileNotice(history::import_error(&name, &why))]
            }
            Msg::RunFileRead { name, read } => match read {
                Ok((record, notes)) => {
                    let then = Then::ShowImported {
                        record: Box::new(record.clone()),
                        name,
                        notes,
                    };
                    self.keep(record, Origin::Imported, then)
                }
                Err(why) => vec![Cmd::FileNotice(history::import_error(&name, &why))],
            },
            Msg::SetCallMcp(on) => {
                self.call_mcp = on;
                Vec::new()
            }
            Msg::Replay { run, record, text } => {
                self.replaying = true;
                vec![Cmd::Replay {
                    run,
                    record,
                    text,
                    call_mcp: self.call_mcp,
                }]
            }
            Msg::Replayed {
                run,
                now_run,
                outcome,
            } => {
                self.replayed(run, now_run, outcome);
                Vec::new()
            }
            Msg::ReplayAll { text } => {
                if self.batch_busy {
                    return Vec::new();
                }
                self.batch_busy = true;
                self.stop_batch = false;
                vec![Cmd::LoadScenario(text)]
            }
            Msg::BatchScenario(scenario) => self.batch_scenario(scenario),
            Msg::Frame => self.frame(),
            Msg::KeptReplayed { id, verdict } => {
                let verdict = verdict.unwrap_or_else(|lines| {
                    Verdict::NotReplayed(format!(
                        "the scenario in the editor cannot run: {}",
                        lines.join("; ")
                    ))
                });
                self.row_done(&id, verdict)
            }
            Msg::StopReplayAll => {
                self.stop_batch = true;
                Vec::new()
            }
            Msg::Tick(now_ms) => {
                self.now_ms = now_ms;
                vec![Cmd::AwaitClock]
            }
        }
    }
}

const PAGE_ONLY: &str =
    "It is listed for this page only and is gone after a reload: export it to keep it.";

/// Why storage is out of reach, as a clause.
pub fn unavailable_text(err: &StoreError) -> String {
    match err {
        StoreError::Full => "this browser's storage for the page is full".to_string(),
        StoreError::Unavailable(why) => format!("storage is unavailable ({why})"),
    }
}

fn read_failure_text(why: &ReadFailure) -> String {
    match why {
        ReadFailure::Gone => "its record is no longer in this browser's storage".to_string(),
        ReadFailure::Storage(err) => unavailable_text(err),
        ReadFailure::Unparsable(why) => why.clone(),
    }
}

/// What the notice says of a saved file.
pub fn saved_text(download: &Download) -> String {
    match download {
        Download::Jsonl(_) => format!("Saved {EXPORT_NAME}: the scenario and the trace."),
        Download::Otel(_) => format!("Saved {OTEL_EXPORT_NAME}: OpenTelemetry GenAI spans (OTLP/JSON), dated from now. POST it to a collector's /v1/traces, or import it back here."),
    }
}

#[cfg(test)]
mod tests;
