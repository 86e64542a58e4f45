//! The run history's page state: every run that finishes in the page is
//! kept (in `localStorage`, through `browser::history_store`), listed newest
//! first, restored after a reload, opened read-only in the trace, deleted,
//! exported and imported as a record file (`run.jsonl`, the format
//! `agent-loop show` reads), and replayed against the scenario in the editor
//! with the pass/fail list of `harness::replay`; "Replay all" plays every
//! kept run of the editor's scenario against it, one record at a time, into
//! a table (`history::replay_all`). The panel that shows it is
//! `ui::history_panel`; the pure logic (entries, index, budget) is `history`.
//!
//! The state lives in `History`, made once in the root component. It watches
//! the controller's log and keeps a run when its `run_finished` arrives; the
//! run a record was opened into is marked as handled, so opening or
//! importing a run never keeps it twice. A run that storage refuses (full,
//! unavailable, over the budget) stays listed for this page, marked so, and
//! the panel says why: nothing is dropped without a word.

use gloo_timers::future::TimeoutFuture;
use harness::event::{EventKind, RunEvent};
use harness::replay::{Assertions, Record};
use leptos::prelude::*;

use crate::browser::history_store::{self as store, StoreError};
use crate::browser::{files, page};
use crate::history::replay_all::{self, Batch, Row, Verdict};
use crate::history::{self, Entry, Origin, Plan, ReplayView};
use crate::lazy;
use crate::state::controller::Controller;
use crate::state::editor::Editor;
use crate::state::mcp::Mcp;
use crate::state::tied_notice::TiedNotice;
use crate::view_model;

/// The file name an exported run gets.
const EXPORT_NAME: &str = "run.jsonl";
const OTEL_EXPORT_NAME: &str = "run.otlp.json";
/// How often the "2 min ago" texts refresh.
const CLOCK_REFRESH_MS: u32 = 30_000;

#[derive(Clone, Copy)]
pub struct History {
    controller: Controller,
    editor: Editor,
    /// The kept runs, newest first.
    entries: RwSignal<Vec<Entry>>,
    /// What the panel must say about storage: refused, full, evicted, unreadable.
    notice: RwSignal<Option<String>>,
    /// What happened to the last export or import, beside those controls:
    /// about the run in view then, so it goes when another run takes its
    /// place (Reset, another scenario, a new run).
    file_notice: TiedNotice,
    /// Records that storage did not take, by id, kept for this page only.
    memory: StoredValue<Vec<(String, String)>>,
    /// The run id of the last run kept or shown, so each is kept once.
    handled: StoredValue<u64>,
    /// (run id, entry id) of the kept run the trace shows, if it shows one.
    opened: RwSignal<Option<(u64, String)>>,
    /// (run id, verdict) of the last replay of the trace in view.
    replayed: RwSignal<Option<(u64, Result<ReplayView, String>)>>,
    replaying: RwSignal<bool>,
    /// The last "Replay all": what it matched and its rows, or why it
    /// replayed nothing (the editor's scenario does not load, no kept run
    /// of it).
    batch: RwSignal<Option<Result<Batch, String>>>,
    /// Set by Stop: the batch stops before its next kept run.
    stop_batch: StoredValue<bool>,
    /// From the press to the end, including the engine's load before the
    /// batch shows as running, so a second press starts no second batch.
    batch_busy: StoredValue<bool>,
    now_ms: RwSignal<f64>,
    /// The scenario's MCP servers, for a replay that calls them again.
    mcp: Mcp,
    /// "Call the MCP servers again": a replay reaches the servers instead of
    /// answering their tools from the run's results.
    call_mcp: RwSignal<bool>,
}

impl History {
    /// Call once, in the root component: it reads the stored index and starts
    /// keeping finished runs.
    pub fn new(controller: Controller, editor: Editor, mcp: Mcp) -> Self {
        let (entries, notice) = restore();
        let history = History {
            controller,
            editor,
            entries: RwSignal::new(entries),
            notice: RwSignal::new(notice),
            file_notice: TiedNotice::about_run(controller.run_id()),
            memory: StoredValue::new(Vec::new()),
            handled: StoredValue::new(0),
            opened: RwSignal::new(None),
            replayed: RwSignal::new(None),
            replaying: RwSignal::new(false),
            batch: RwSignal::new(None),
            stop_batch: StoredValue::new(false),
            batch_busy: StoredValue::new(false),
            now_ms: RwSignal::new(js_sys::Date::now()),
            mcp,
            call_mcp: RwSignal::new(false),
        };
        let events = controller.events();
        Effect::new(move |_| {
            let finished = events.with(|e| {
                matches!(
                    e.last(),
                    Some(RunEvent {
                        kind: EventKind::RunFinished(_),
                        ..
                    })
                )
            });
            let run = controller.run_id().get_untracked();
            if !finished || history.handled.get_value() == run {
                return;
            }
            history.handled.set_value(run);
            let record = Record {
                scenario: controller.ran_scenario().get_untracked(),
                events: events.get_untracked(),
                forked_at: None,
            };
            crate::browser::runner::start(async move {
                history.keep(record, Origin::Run).await;
            });
        });
        crate::browser::runner::start(history.relist());
        crate::browser::runner::start(async move {
            loop {
                TimeoutFuture::new(CLOCK_REFRESH_MS).await;
                history.now_ms.set(js_sys::Date::now());
            }
        });
        history
    }

    /// The controller whose runs this history keeps.
    pub fn controller(&self) -> Controller {
        self.controller
    }

    /// The scenario text in the editor (tracked).
    pub fn editor_text(&self) -> ReadSignal<String> {
        self.editor.text()
    }

    /// The kept runs, newest first.
    pub fn entries(&self) -> ReadSignal<Vec<Entry>> {
        self.entries.read_only()
    }

    /// What the panel must say about storage, if anything.
    pub fn notice(&self) -> ReadSignal<Option<String>> {
        self.notice.read_only()
    }

    /// What happened to the last export or import of the run in view.
    pub fn file_notice(&self) -> TiedNotice {
        self.file_notice
    }

    /// The id of the kept run the trace shows, if it shows one (tracked).
    pub fn opened_id(&self) -> Option<String> {
        let run = self.controller.run_id().get();
        self.opened
            .get()
            .filter(|(opened, _)| *opened == run)
            .map(|(_, id)| id)
    }

    /// The last replay's verdict on the trace in view, if any (tracked).
    pub fn verdict(&self) -> Option<Result<ReplayView, String>> {
        let run = self.controller.run_id().get();
        self.replayed
            .get()
            .filter(|(replayed, _)| *replayed == run)
            .map(|(_, verdict)| verdict)
    }

    /// A replay is under way.
    pub fn replaying(&self) -> ReadSignal<bool> {
        self.replaying.read_only()
    }

    /// The last "Replay all", or why it replayed nothing.
    pub fn batch(&self) -> ReadSignal<Option<Result<Batch, String>>> {
        self.batch.read_only()
    }

    /// A "Replay all" is under way.
    pub fn batch_running(&self) -> bool {
        self.batch
            .with(|b| matches!(b, Some(Ok(batch)) if batch.running))
    }

    /// Whether every kept run is being replayed now (not reactive).
    pub fn replaying_all(&self) -> bool {
        self.batch_busy.get_value()
    }

    /// Now, refreshed every half minute, for the "2 min ago" texts.
    pub fn now_ms(&self) -> ReadSignal<f64> {
        self.now_ms.read_only()
    }

    /// The trace in view as a record: the scenario it ran and its events.
    fn current_record(self) -> Record {
        Record {
            scenario: self.controller.ran_scenario().get_untracked(),
            events: self.controller.events().get_untracked(),
            forked_at: None,
        }
    }

    /// Adds `record` to the history, in storage when it can; returns its id.
    /// Writing the record out is a split module (`lazy::record_jsonl`), like
    /// reading one back and replaying: the first paint lists kept runs, and
    /// that code is fetched on first use.
    async fn keep(self, record: Record, origin: Origin) -> String {
        // What the list shows of the run is read first, so the record moves
        // into the module that writes it out without being copied (a long
        // run's events take milliseconds to copy). Its id, time and size
        // are known once it is written.
        let mut entry = history::summarize(&record, String::new(), 0.0, 0, origin);
        let text = lazy::record_jsonl(record).await;
        let now = js_sys::Date::now();
        self.now_ms.set(now);
        let mut entries = self.entries.get_untracked();
        let id = history::new_id(now, &entries);
        entry.id = id.clone();
        entry.saved_at_ms = now;
        entry.size = text.len();
        let notice = match persist(&mut entries, &entry, &text) {
            Ok(dropped) => history::evicted_notice(&dropped),
            Err(why) => {
                entry.stored = false;
                self.memory
                    .update_value(|memory| memory.push((id.clone(), text)));
                Some(why)
            }
        };
        entries.insert(0, entry);
        self.entries.set(entries);
        self.notice.set(notice);
        id
    }

    /// Shows a record in the trace and its scenario in the editor, and
    /// brings the trace into view: Open is pressed down in this panel, below
    /// the trace it fills.
    fn show(self, record: &Record, entry_id: String) {
        let run = self.show_trace(record, entry_id);
        if let Some(scenario) = record.scenario.clone() {
            // Which built-in it is takes their files (a split module).
            crate::browser::runner::start(async move {
                let text = lazy::scenario_text(scenario).await;
                // Another run was opened or started meanwhile: its scenario stays.
                if self.controller.run_id().get_untracked() != run {
                    return;
                }
                self.editor.load(text, crate::provenance::Source::KeptRun);
                self.editor.set_arrival(Some(
                    "Loaded the scenario of the opened run: Run runs it again, Replay checks it."
                        .to_string(),
                ));
                // Where the editor sits above the trace (narrow windows), its
                // new scenario may have moved the trace: place it again.
                page::reveal_timeline();
            });
        }
    }

    /// Lists again every record in storage that the index does not list (an
    /// entry that did not read, a list that was lost), from the record
    /// itself, and saves the index with them. A record that does not read is
    /// named and left in storage: nothing is deleted here.
    async fn relist(self) {
        let Ok(ids) = store::record_ids() else {
            return;
        };
        let missing = history::records_to_relist(&ids, &self.entries.get_untracked());
        if missing.is_empty() {
            return;
        }
        let (mut listed, mut unreadable) = (0, Vec::new());
        for id in missing {
            let text = match store::load_record(&id) {
                Ok(Some(text)) => text,
                _ => continue,
            };
            let size = text.len();
            match lazy::parse_record(text).await {
                Ok(record) => {
                    let entry = history::summarize(
                        &record,
                        id.clone(),
                        history::saved_at_of(&id),
                        size,
                        Origin::Run,
                    );
                    self.entries.update(|entries| {
                        entries.push(entry);
                        *entries = history::newest_first(std::mem::take(entries));
                    });
                    listed += 1;
                }
                Err(why) => unreadable.push(format!("the run {id}: {why}")),
            }
        }
        let saved = store::save_index(&history::index_to_json(&self.entries.get_untracked()));
        let mut said = Vec::new();
        if listed > 0 {
            said.push(format!(
                "Listed {} again from {} in storage.",
                view_model::plural(listed, "kept run"),
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
        if let Err(err) = saved {
            said.push(format!(
                "The list could not be saved: {}.",
                unavailable_text(&err)
            ));
        }
        self.notice.update(|notice| {
            let before = notice.take().into_iter();
            *notice = Some(before.chain(said).collect::<Vec<_>>().join(" "));
        });
    }

    /// Reads a kept run's record: from this page's memory when storage did
    /// not take it, else from storage. `Err` says why it cannot be read.
    async fn read_record(self, id: &str) -> Result<Record, String> {
        let text = match self
            .memory
            .with_value(|m| m.iter().find(|(k, _)| k == id).map(|(_, t)| t.clone()))
        {
            Some(text) => Ok(Some(text)),
            None => store::load_record(id),
        };
        match text {
            Ok(Some(text)) => lazy::parse_record(text).await,
            Ok(None) => Err("its record is no longer in this browser's storage".to_string()),
            Err(err) => Err(unavailable_text(&err)),
        }
    }

    /// Shows a record in the trace only, and brings it into view; returns
    /// the run id it is shown under.
    fn show_trace(self, record: &Record, entry_id: String) -> u64 {
        self.controller.show_record(record);
        let run = self.controller.run_id().get_untracked();
        // Already kept: the watcher must not keep it again.
        self.handled.set_value(run);
        self.opened.set(Some((run, entry_id)));
        page::reveal_timeline();
        run
    }

    /// Opens a kept run in the trace and leaves the editor as it is: from
    /// "Replay all", where the editor holds the edit under test, which
    /// loading the run's own scenario would throw away. "Replay against
    /// current tools" then lists every check of that run against the edit.
    pub async fn open_in_trace(self, id: String) {
        match self.read_record(&id).await {
            Ok(record) => {
                self.notice.set(None);
                self.show_trace(&record, id);
            }
            Err(why) => self
                .notice
                .set(Some(format!("This kept run cannot be opened: {why}."))),
        }
    }

    /// Opens a kept run in the trace, and its scenario in the editor.
    pub async fn open(self, id: String) {
        match self.read_record(&id).await {
            Ok(record) => {
                self.notice.set(None);
                self.show(&record, id);
            }
            Err(why) => self
                .notice
                .set(Some(format!("This kept run cannot be opened: {why}."))),
        }
    }

    /// Removes one kept run.
    pub fn delete(self, id: &str) {
        store::remove_record(id);
        self.memory.update_value(|m| m.retain(|(k, _)| k != id));
        self.entries
            .update(|entries| entries.retain(|e| e.id != id));
        self.save_index();
    }

    /// Removes every kept run.
    pub fn delete_all(self) {
        for entry in self.entries.get_untracked() {
            store::remove_record(&entry.id);
        }
        self.memory.set_value(Vec::new());
        self.entries.set(Vec::new());
        self.save_index();
    }

    /// Writes the index after a deletion. A smaller index always fits, so
    /// only unavailable storage fails here, and the panel already says so.
    fn save_index(self) {
        let json = self.entries.with_untracked(|e| history::index_to_json(e));
        match store::save_index(&json) {
            Ok(()) => {}
            Err(err) => self.notice.set(Some(format!(
                "The deletion is not saved: {}.",
                unavailable_text(&err)
            ))),
        }
    }

    /// Saves the run in view with its scenario as `run.jsonl`.
    pub fn export(self) {
        let record = self.current_record();
        crate::browser::runner::start(async move {
            let text = lazy::record_jsonl(record).await;
            let notice = match files::download(EXPORT_NAME, "application/x-ndjson", &text) {
                Ok(()) => format!("Saved {EXPORT_NAME}: the scenario and the trace."),
                Err(why) => why,
            };
            self.file_notice.set(Some(notice));
        });
    }

    /// Says why the file picked for "Import run…" could not be read.
    pub fn import_unreadable(self, name: &str, why: &str) {
        self.file_notice.set(Some(history::import_error(name, why)));
    }

    /// Saves the run in view as an OpenTelemetry trace (OTLP/JSON GenAI
    /// spans), started at the time of export: a trace keeps only times
    /// relative to its start.
    pub fn export_otel(self) {
        let record = self.current_record();
        crate::browser::runner::start(async move {
            let text = lazy::otlp_json(record, js_sys::Date::now() as u64).await;
            let notice = match files::download(OTEL_EXPORT_NAME, "application/json", &text) {
                Ok(()) => format!("Saved {OTEL_EXPORT_NAME}: OpenTelemetry GenAI spans (OTLP/JSON), dated from now. POST it to a collector's /v1/traces, or import it back here."),
                Err(why) => why,
            };
            self.file_notice.set(Some(notice));
        });
    }

    /// POSTs the run in view as OpenTelemetry to the OTLP/HTTP `endpoint`
    /// (a local collector, Jaeger, Phoenix); the notice says what happened.
    pub fn send_otel(self, endpoint: String) {
        let record = self.current_record();
        self.file_notice
            .set(Some(format!("Sending the run to {}…", endpoint.trim())));
        crate::browser::runner::start(async move {
            let said = lazy::send_otlp(record, js_sys::Date::now() as u64, endpoint).await;
            self.file_notice.set(Some(match said {
                Ok(sent) => sent,
                Err(why) => format!("✗ Not sent: {why}"),
            }));
        });
    }

    /// Imports a record file (or a bare trace, or an OpenTelemetry trace),
    /// keeps it and opens it; what the file lacked is said with it.
    pub async fn import(self, name: String, text: String) {
        match lazy::read_run_file(text, self.current_record()).await {
            Ok((record, notes)) => {
                let id = self.keep(record.clone(), Origin::Imported).await;
                self.show(&record, id);
                let scenario = if record.scenario.is_some() {
                    "with its scenario"
                } else {
                    "a bare trace, without a scenario"
                };
                let mut notice = format!(
                    "Imported {name} ({scenario}): {} events.",
                    record.events.len()
                );
                for note in notes {
                    notice.push(' ');
                    notice.push_str(&note);
                }
                self.file_notice.set(Some(notice));
            }
            Err(why) => self
                .file_notice
                .set(Some(history::import_error(&name, &why))),
        }
    }

    /// Whether a replay calls the MCP servers again (see `call_mcp`).
    pub fn call_mcp(&self) -> RwSignal<bool> {
        self.call_mcp
    }

    /// Replays the trace in view against the scenario in the editor.
    pub fn replay(self) {
        let run = self.controller.run_id().get_untracked();
        let record = self.current_record();
        let text = self.editor.text().get_untracked();
        self.replaying.set(true);
        crate::browser::runner::start(async move {
            let scenario = match lazy::engine().await.load(&text).await {
                Ok(scenario) => scenario,
                Err(problems) => {
                    let lines = view_model::problem_lines(&problems).join("; ");
                    self.replaying.set(false);
                    if self.controller.run_id().get_untracked() == run {
                        self.replayed.set(Some((
                            run,
                            Err(format!("The scenario in the editor does not load: {lines}")),
                        )));
                    }
                    return;
                }
            };
            // Asked to: the servers' tools, loaded (the record's results otherwise).
            let scenario = if self.call_mcp.get_untracked() {
                match self.mcp.ready(&text, scenario).await {
                    Ok(scenario) => scenario,
                    Err(lines) => {
                        self.replaying.set(false);
                        if self.controller.run_id().get_untracked() == run {
                            self.replayed.set(Some((
                                run,
                                Err(format!(
                                    "The MCP servers could not be reached: {}",
                                    lines.join("; ")
                                )),
                            )));
                        }
                        return;
                    }
                }
            } else {
                scenario
            };
            let verdict = match lazy::offstage()
                .await
                .replay(record, scenario, Assertions::default())
                .await
            {
                Ok(report) => Ok(history::replay_view(&report)),
                Err(problems) => Err(format!(
                    "The scenario in the editor cannot run: {}",
                    view_model::problem_lines(&problems).join("; ")
                )),
            };
            self.replaying.set(false);
            // A newer run replaced the trace meanwhile: this verdict is about the old one.
            if self.controller.run_id().get_untracked() == run {
                self.replayed.set(Some((run, verdict)));
            }
        });
    }

    /// "Replay all against the current scenario": every kept run whose
    /// scenario name is the editor's scenario's, replayed against the
    /// editor's scenario one record at a time (each read from storage only
    /// when its turn comes), a row each, the page handed back in between so
    /// the progress line paints and Stop is heard.
    pub fn replay_all(self) {
        if self.batch_busy.get_value() {
            return;
        }
        self.batch_busy.set_value(true);
        self.stop_batch.set_value(false);
        let text = self.editor.text().get_untracked();
        crate::browser::runner::start(async move {
            self.replay_batch(text).await;
            self.batch_busy.set_value(false);
        });
    }

    /// The batch itself: load the editor's scenario, match, replay each.
    async fn replay_batch(self, text: String) {
        let engine = lazy::engine().await;
        let scenario = match engine.load(&text).await {
            Ok(scenario) => scenario,
            Err(problems) => {
                self.batch.set(Some(Err(format!(
                    "The scenario in the editor does not load, so nothing was replayed: {}",
                    view_model::problem_lines(&problems).join("; ")
                ))));
                return;
            }
        };
        let entries = self.entries.get_untracked();
        let runs = replay_all::runs_of(&entries, &scenario.name);
        if runs.is_empty() {
            self.batch.set(Some(Err(replay_all::found_text(
                &scenario.name,
                0,
                entries.len(),
            ))));
            return;
        }
        self.batch.set(Some(Ok(Batch {
            scenario: scenario.name.clone(),
            kept: entries.len(),
            total: runs.len(),
            rows: Vec::new(),
            running: true,
            stopped: false,
        })));
        for entry in &runs {
            // A frame to paint "Replaying 2 of 3…" and to take a Stop.
            TimeoutFuture::new(0).await;
            if self.stop_batch.get_value() {
                self.update_batch(|batch| batch.stopped = true);
                break;
            }
            let verdict = match self.read_record(&entry.id).await {
                Err(why) => Verdict::NotReplayed(format!("its record cannot be read: {why}")),
                Ok(record) => match lazy::offstage()
                    .await
                    .replay(record, scenario.clone(), Assertions::default())
                    .await
                {
                    Ok(report) => Verdict::of(&report),
                    Err(problems) => Verdict::NotReplayed(format!(
                        "the scenario in the editor cannot run: {}",
                        view_model::problem_lines(&problems).join("; ")
                    )),
                },
            };
            self.update_batch(|batch| batch.rows.push(Row::new(entry, verdict)));
        }
        self.update_batch(|batch| batch.running = false);
    }

    /// Stops a "Replay all" before its next kept run.
    pub fn stop_replay_all(self) {
        self.stop_batch.set_value(true);
    }

    fn update_batch(self, change: impl FnOnce(&mut Batch)) {
        self.batch.update(|batch| {
            if let Some(Ok(batch)) = batch {
                change(batch);
            }
        });
    }
}

/// The stored index, and what the panel must say about it. Entries that do
/// not read are named; their records, and those of a list that does not read
/// at all, stay in storage for `relist` to list again.
fn restore() -> (Vec<Entry>, Option<String>) {
    match store::load_index() {
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
    }
}

fn unavailable_text(err: &StoreError) -> String {
    match err {
        StoreError::Full => "this browser's storage for the page is full".to_string(),
        StoreError::Unavailable(why) => format!("storage is unavailable ({why})"),
    }
}

/// Stores a record and the index with `entry` added, after dropping the
/// oldest runs the budget needs gone. `Ok` lists the dropped runs; `Err` says
/// why the run is kept for this page only. `entries` loses the dropped runs.
fn persist(entries: &mut Vec<Entry>, entry: &Entry, text: &str) -> Result<Vec<Entry>, String> {
    let page_only =
        "It is listed for this page only and is gone after a reload: export it to keep it.";
    let evict = match history::plan_store(entries, entry.size, history::BUDGET_BYTES) {
        Plan::TooLarge { size, budget } => {
            return Err(format!(
                "This run was not saved: its record is {}, more than the {} the history may use. {page_only}",
                history::format_size(size),
                history::format_size(budget)
            ))
        }
        Plan::Store { evict } => evict,
    };
    let refused = |err: StoreError| {
        match err {
        StoreError::Full => format!(
            "This run was not saved: the browser's storage for this page is full (QuotaExceededError). Delete kept runs or clear the site's data. {page_only}"
        ),
        StoreError::Unavailable(why) => {
            format!("This run was not saved: storage is unavailable ({why}). {page_only}")
        }
    }
    };
    store::save_record(&entry.id, text).map_err(refused)?;
    let dropped: Vec<Entry> = entries
        .iter()
        .filter(|e| evict.contains(&e.id))
        .cloned()
        .collect();
    let mut kept: Vec<Entry> = entries
        .iter()
        .filter(|e| !evict.contains(&e.id))
        .cloned()
        .collect();
    kept.insert(0, entry.clone());
    if let Err(err) = store::save_index(&history::index_to_json(&kept)) {
        // Without an index entry the record would be unreachable: take it back.
        store::remove_record(&entry.id);
        return Err(refused(err));
    }
    for old in &dropped {
        store::remove_record(&old.id);
    }
    entries.retain(|e| !evict.contains(&e.id));
    Ok(dropped)
}
