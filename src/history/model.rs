//! The kept runs as a plain model: the list, what the panel says about
//! storage (refused, full, evicted, unreadable), and the clock of the
//! "2 min ago" texts. It changes only by messages (`crate::update`): a run
//! finished in view, a kept run deleted, and the answers of storage and of
//! the split-loaded code that writes and reads records. What it needs done
//! in the world (store, read, wait) it returns as commands, which
//! `history::state` performs. The panels' other work with kept runs has
//! models of its own, which only those panels reach, so their code comes
//! with them and not with the first paint: opening and importing a run
//! (`history::opening`) and replaying kept runs (`history::replays`).
//!
//! Invariants:
//! - A run is kept once: the run a record was opened or imported into is
//!   marked as handled (`Shown`), so seeing its `run_finished` in the trace
//!   keeps nothing again.
//! - Nothing is dropped without a word: a run storage refuses (full,
//!   unavailable, over the budget) stays listed for this page, its record
//!   in memory, and the notice says why; an old run evicted for room is
//!   named; a record that does not read is named and left in storage.

use harness::replay::Record;

use crate::history::{self, Entry, Origin, Plan, StoreError};
use crate::run::view_model;
use crate::update::Update;

/// What a notice adds about a run kept for this page only.
const PAGE_ONLY: &str =
    "It is listed for this page only and is gone after a reload: export it to keep it.";

/// The kept runs and what the panel says about them.
#[derive(Clone, Debug, Default)]
pub struct HistoryModel {
    /// The kept runs, newest first.
    entries: Vec<Entry>,
    /// What the panel must say about storage, if anything.
    notice: Option<String>,
    /// Records that storage did not take, by id, kept for this page only.
    memory: Vec<(String, String)>,
    /// The run id of the last run kept or shown, so each is kept once.
    handled: u64,
    /// Now, for the "2 min ago" texts.
    now_ms: f64,
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

/// What happens to the kept runs: a person's action, or an answer.
// A message is made once and moved once into `update`: boxing its big
// variants would add an allocation and code for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Msg {
    /// The page opened: list again the records the index does not list,
    /// and start the clock.
    PageOpened,
    /// The run `run` finished in view (its `run_finished` arrived).
    RunFinished {
        run: u64,
    },
    /// Keep `record` (the run in view, for `RunFinished`).
    Keep {
        record: Record,
        origin: Origin,
    },
    /// A record written out as text at `now_ms`, to be stored; `entry` is
    /// what the list shows of it. An imported run arrives here directly.
    WrittenOut {
        entry: Entry,
        text: String,
        now_ms: f64,
    },
    /// Storage took the record and the index (dropping `evict`), or refused.
    Persisted {
        entry: Entry,
        text: String,
        evict: Vec<String>,
        outcome: Result<(), StoreError>,
    },
    /// The ids of every record in storage.
    StoredIds(Result<Vec<String>, StoreError>),
    /// Records read again for the list: (id, size, the record or why not).
    Relisted(Vec<(String, usize, Result<Record, String>)>),
    IndexSaved {
        after: AfterSave,
        outcome: Result<(), StoreError>,
    },
    /// A record is in the trace as run `run` (opened or imported): it is
    /// kept already.
    Shown {
        run: u64,
    },
    /// What the panel says about the kept runs now (an opened run's
    /// record that did not read), or nothing.
    Say(Option<String>),
    Delete(String),
    DeleteAll,
    /// The clock, for the "2 min ago" texts.
    Tick(f64),
}

/// What the world must do for the kept runs.
// As `Msg`: made once, moved once into `perform`.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Cmd {
    /// Send `Keep` with the run in view.
    KeepRunInView,
    /// Write `record` out as text and take the time (`WrittenOut`).
    WriteOut {
        entry: Entry,
        record: Record,
    },
    /// Store the record and `index`, then remove `evict` (`Persisted`); if
    /// the index is refused, take the record back.
    Persist {
        entry: Entry,
        text: String,
        index: String,
        evict: Vec<String>,
    },
    ListStoredIds,
    /// Read and parse these records (`Relisted`).
    ReadToRelist(Vec<String>),
    SaveIndex {
        index: String,
        after: AfterSave,
    },
    RemoveRecord(String),
    /// `Tick` in half a minute.
    AwaitClock,
}

impl HistoryModel {
    /// The history as the stored index reads (`index`), at `now_ms`: its
    /// entries, and what the panel must say about it. Entries that do not
    /// read are named; their records, and those of a list that does not
    /// read at all, stay in storage to be listed again (`PageOpened`).
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

    /// The kept runs, newest first.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// What the panel must say about storage, if anything.
    pub fn notice(&self) -> Option<&String> {
        self.notice.as_ref()
    }

    /// Now, for the "2 min ago" texts.
    pub fn now_ms(&self) -> f64 {
        self.now_ms
    }

    /// The text of a kept run that storage did not take, held for this page.
    pub fn memory_text(&self, id: &str) -> Option<String> {
        self.memory
            .iter()
            .find(|(k, _)| k == id)
            .map(|(_, t)| t.clone())
    }

    fn index(&self) -> String {
        history::index_to_json(&self.entries)
    }

    /// `record` is to be kept: what the list shows of it is read first, so
    /// it moves on to be written out without a copy. Its id, time and size
    /// are known once it is written.
    fn keep(&mut self, record: Record, origin: Origin) -> Vec<Cmd> {
        let entry = history::summarize(&record, String::new(), 0.0, 0, origin);
        vec![Cmd::WriteOut { entry, record }]
    }

    /// A written-out record: stored with the oldest runs the budget needs
    /// gone, or kept for this page only when it is over the budget.
    fn written_out(&mut self, mut entry: Entry, text: String, now_ms: f64) -> Vec<Cmd> {
        self.now_ms = now_ms;
        entry.id = history::new_id(now_ms, &self.entries);
        entry.saved_at_ms = now_ms;
        entry.size = text.len();
        match history::plan_store(&self.entries, entry.size, history::BUDGET_BYTES) {
            Plan::TooLarge { size, budget } => {
                let why = format!(
                    "This run was not saved: its record is {}, more than the {} the history may use. {PAGE_ONLY}",
                    history::format_size(size),
                    history::format_size(budget)
                );
                self.keep_in_memory(entry, text, why);
                Vec::new()
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
                }]
            }
        }
    }

    fn keep_in_memory(&mut self, mut entry: Entry, text: String, why: String) {
        entry.stored = false;
        self.memory.push((entry.id.clone(), text));
        self.entries.insert(0, entry);
        self.notice = Some(why);
    }

    fn persisted(
        &mut self,
        entry: Entry,
        text: String,
        evict: Vec<String>,
        outcome: Result<(), StoreError>,
    ) {
        if let Err(err) = outcome {
            let why = match err {
                StoreError::Full => format!(
                    "This run was not saved: the browser's storage for this page is full (QuotaExceededError). Delete kept runs or clear the site's data. {PAGE_ONLY}"
                ),
                StoreError::Unavailable(why) => {
                    format!("This run was not saved: storage is unavailable ({why}). {PAGE_ONLY}")
                }
            };
            return self.keep_in_memory(entry, text, why);
        }
        let dropped: Vec<Entry> = self
            .entries
            .iter()
            .filter(|e| evict.contains(&e.id))
            .cloned()
            .collect();
        self.entries.retain(|e| !evict.contains(&e.id));
        self.entries.insert(0, entry);
        self.notice = history::evicted_notice(&dropped);
    }

    /// Records in storage that the index does not list, read again.
    fn relisted(&mut self, found: Vec<(String, usize, Result<Record, String>)>) -> Vec<Cmd> {
        let (mut listed, mut unreadable) = (0, Vec::new());
        for (id, size, record) in found {
            match record {
                Ok(record) => {
                    let saved_at = history::saved_at_of(&id);
                    let entry = history::summarize(&record, id, saved_at, size, Origin::Run);
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
        let AfterSave::Relist { listed, unreadable } = after else {
            // A smaller index always fits: only unavailable storage fails
            // after a deletion, and the panel already says so.
            if let Err(err) = outcome {
                self.notice = Some(format!(
                    "The deletion is not saved: {}.",
                    unavailable_text(&err)
                ));
            }
            return;
        };
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

    fn delete(&mut self, ids: Vec<String>) -> Vec<Cmd> {
        self.memory.retain(|(k, _)| !ids.contains(k));
        self.entries.retain(|e| !ids.contains(&e.id));
        let mut cmds: Vec<Cmd> = ids.into_iter().map(Cmd::RemoveRecord).collect();
        cmds.push(Cmd::SaveIndex {
            index: self.index(),
            after: AfterSave::Deletion,
        });
        cmds
    }
}

impl Update for HistoryModel {
    type Msg = Msg;
    type Cmd = Cmd;

    fn update(&mut self, msg: Msg) -> Vec<Cmd> {
        match msg {
            Msg::PageOpened => vec![Cmd::ListStoredIds, Cmd::AwaitClock],
            Msg::RunFinished { run } if self.handled == run => Vec::new(),
            Msg::RunFinished { run } => {
                self.handled = run;
                vec![Cmd::KeepRunInView]
            }
            Msg::Keep { record, origin } => self.keep(record, origin),
            Msg::WrittenOut {
                entry,
                text,
                now_ms,
            } => self.written_out(entry, text, now_ms),
            Msg::Persisted {
                entry,
                text,
                evict,
                outcome,
            } => {
                self.persisted(entry, text, evict, outcome);
                Vec::new()
            }
            // Storage out of reach is said already, by `restored`.
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
            // Already kept: it must not be kept again when its
            // `run_finished` is seen in the trace.
            Msg::Shown { run } => {
                self.handled = run;
                Vec::new()
            }
            Msg::Say(notice) => {
                self.notice = notice;
                Vec::new()
            }
            Msg::Delete(id) => self.delete(vec![id]),
            Msg::DeleteAll => {
                let ids = self.entries.iter().map(|e| e.id.clone()).collect();
                self.delete(ids)
            }
            Msg::Tick(now_ms) => {
                self.now_ms = now_ms;
                vec![Cmd::AwaitClock]
            }
        }
    }
}

/// Why storage is out of reach, as a clause.
pub fn unavailable_text(err: &StoreError) -> String {
    match err {
        StoreError::Full => "this browser's storage for the page is full".to_string(),
        StoreError::Unavailable(why) => format!("storage is unavailable ({why})"),
    }
}

/// Why a kept run's record could not be read, as a clause.
pub fn read_failure_text(why: &ReadFailure) -> String {
    match why {
        ReadFailure::Gone => "its record is no longer in this browser's storage".to_string(),
        ReadFailure::Storage(err) => unavailable_text(err),
        ReadFailure::Unparsable(why) => why.clone(),
    }
}

#[cfg(test)]
pub(crate) mod tests;
