//! The run history's page state: every run that finishes in the page is
//! kept (in `localStorage`, through `browser::history_store`), listed newest
//! first, restored after a reload, opened read-only in the trace, deleted,
//! exported and imported as a record file (`run.jsonl`, the format
//! `agent-loop show` reads), and replayed against the scenario in the editor
//! with the pass/fail list of `harness::replay`; "Replay all" plays every
//! kept run of the editor's scenario against it, one record at a time, into
//! a table (`history::replay_all`). The panel that shows it is
//! `history::view`.
//!
//! What the history does is four plain models, tested natively: the kept
//! runs (`history::model`), opening and importing them
//! (`history::opening`), replaying the run in view (`history::replays`)
//! and "Replay all" (`history::batch`). This is
//! their adapter: it holds them, sends them what the person and the page
//! do, performs their commands here, where storage, the split-loaded
//! engine, the controller and the editor are within reach (what it awaits
//! goes through `browser::runner`), and shows them in the signals the
//! components read. Only the panels reach the other three models and their
//! commands (`send_opening`, `send_replay`, `send_batch`), each from the
//! panels that use it, so that code comes with those panels, not with the
//! first paint, which keeps runs.
//!
//! Exporting and sending the run in view change no model: they say what
//! happened in the run files' notice, tied to the run in view.

use futures::future::LocalBoxFuture;
use gloo_timers::future::TimeoutFuture;
use harness::event::{EventKind, RunEvent};
use harness::replay::{Assertions, Record};
use leptos::prelude::*;

use crate::browser::history_store as store;
use crate::browser::{files, page, runner};
use crate::editor::state::Editor;
use crate::history::batch::{BatchCmd, BatchModel, BatchMsg};
use crate::history::model::{Cmd, HistoryModel, Msg, ReadFailure};
use crate::history::opening::{OpenCmd, OpenMsg, OpeningModel, OPENED_SCENARIO};
use crate::history::replay_all::{Batch, Verdict};
use crate::history::replays::{ReplayCmd, ReplayModel, ReplayMsg, ReplayOutcome};
use crate::history::{self, Entry, Origin, ReplayView, StoreError};
use crate::lazy;
use crate::mcp::state::Mcp;
use crate::run::controller::Controller;
use crate::run::view_model;
use crate::state::tied_notice::TiedNotice;
use crate::update::Update as _;

/// The file name an exported run gets.
const EXPORT_NAME: &str = "run.jsonl";
const OTEL_EXPORT_NAME: &str = "run.otlp.json";
/// How often the "2 min ago" texts refresh.
const CLOCK_REFRESH_MS: u32 = 30_000;

/// The feature's models, held together.
#[derive(Default)]
struct Models {
    kept: HistoryModel,
    opening: OpeningModel,
    replays: ReplayModel,
    batch: BatchModel,
}

#[derive(Clone, Copy)]
pub struct History {
    controller: Controller,
    editor: Editor,
    /// The kept runs, their opening, replay and "Replay all" as plain data;
    /// changed only by `send`, `send_opening`, `send_replay` and `send_batch`.
    models: StoredValue<Models, LocalStorage>,
    // What the models hold, as the components read it (kept by `show`).
    /// The kept runs, newest first.
    entries: RwSignal<Vec<Entry>>,
    /// What the panel must say about storage: refused, full, evicted, unreadable.
    notice: RwSignal<Option<String>>,
    /// (run id, entry id) of the kept run the trace shows, if it shows one.
    opened: RwSignal<Option<(u64, String)>>,
    now_ms: RwSignal<f64>,
    /// (run id, verdict) of the last replay of the trace in view.
    replayed: RwSignal<Option<(u64, Result<ReplayView, String>)>>,
    replaying: RwSignal<bool>,
    batch: RwSignal<Option<Result<Batch, String>>>,
    call_mcp: RwSignal<bool>,
    /// What happened to the last export or import, beside those controls:
    /// about the run in view then, so it goes when another run takes its
    /// place (Reset, another scenario, a new run).
    file_notice: TiedNotice,
    /// The scenario's MCP servers, for a replay that calls them again.
    mcp: Mcp,
}

impl History {
    /// Call once, in the root component: it reads the stored index and starts
    /// keeping finished runs.
    pub fn new(controller: Controller, editor: Editor, mcp: Mcp) -> Self {
        let index = store::load_index().map_err(failure);
        let kept = HistoryModel::restored(index, js_sys::Date::now());
        let history = History {
            controller,
            editor,
            entries: RwSignal::new(kept.entries().to_vec()),
            notice: RwSignal::new(kept.notice().cloned()),
            opened: RwSignal::new(None),
            now_ms: RwSignal::new(kept.now_ms()),
            models: StoredValue::new_local(Models {
                kept,
                ..Models::default()
            }),
            replayed: RwSignal::new(None),
            replaying: RwSignal::new(false),
            batch: RwSignal::new(None),
            call_mcp: RwSignal::new(false),
            file_notice: TiedNotice::about_run(controller.run_id()),
            mcp,
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
            if finished {
                let run = controller.run_id().get_untracked();
                history.send(Msg::RunFinished { run });
            }
        });
        history.send(Msg::PageOpened);
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
        self.models
            .try_with_value(|m| m.batch.busy())
            .unwrap_or(false)
    }

    /// Now, refreshed every half minute, for the "2 min ago" texts.
    pub fn now_ms(&self) -> ReadSignal<f64> {
        self.now_ms.read_only()
    }

    /// Whether a replay calls the MCP servers again (tracked).
    pub fn call_mcp(&self) -> bool {
        self.call_mcp.get()
    }

    /// "Call the MCP servers again" ticked or not.
    pub fn set_call_mcp(self, on: bool) {
        self.send_replay(ReplayMsg::SetCallMcp(on));
    }

    /// Opens a kept run in the trace and leaves the editor as it is: from
    /// "Replay all", where the editor holds the edit under test, which
    /// loading the run's own scenario would throw away. "Replay against
    /// current tools" then lists every check of that run against the edit.
    pub fn open_in_trace(self, id: String) {
        self.send_opening(OpenMsg::Open {
            id,
            scenario: false,
        });
    }

    /// Opens a kept run in the trace, and its scenario in the editor.
    pub fn open(self, id: String) {
        self.send_opening(OpenMsg::Open { id, scenario: true });
    }

    /// Removes one kept run.
    pub fn delete(self, id: &str) {
        self.send(Msg::Delete(id.to_string()));
    }

    /// Removes every kept run.
    pub fn delete_all(self) {
        self.send(Msg::DeleteAll);
    }

    /// Says why the file picked for "Import run…" could not be read.
    pub fn import_unreadable(self, name: &str, why: &str) {
        self.send_opening(OpenMsg::ImportUnreadable {
            name: name.to_string(),
            why: why.to_string(),
        });
    }

    /// Imports a record file (or a bare trace, or an OpenTelemetry trace),
    /// keeps it and opens it; what the file lacked is said with it.
    pub fn import(self, name: String, text: String) {
        let in_view = self.current_record();
        self.send_opening(OpenMsg::Import {
            name,
            text,
            in_view,
        });
    }

    /// Replays the trace in view against the scenario in the editor.
    pub fn replay(self) {
        self.send_replay(ReplayMsg::Replay {
            run: self.now_run(),
            record: self.current_record(),
            text: self.editor.text().get_untracked(),
        });
    }

    /// "Replay all against the current scenario": every kept run whose
    /// scenario name is the editor's scenario's, replayed against the
    /// editor's scenario one record at a time (each read from storage only
    /// when its turn comes), a row each, the page handed back in between so
    /// the progress line paints and Stop is heard.
    pub fn replay_all(self) {
        self.send_batch(BatchMsg::ReplayAll {
            text: self.editor.text().get_untracked(),
        });
    }

    /// Stops a "Replay all" before its next kept run.
    pub fn stop_replay_all(self) {
        self.send_batch(BatchMsg::Stop);
    }

    /// Saves the run in view with its scenario as `run.jsonl`.
    pub fn export(self) {
        let record = self.current_record();
        runner::start(async move {
            let text = lazy::record_jsonl(record).await;
            let notice = match files::download(EXPORT_NAME, "application/x-ndjson", &text) {
                Ok(()) => format!("Saved {EXPORT_NAME}: the scenario and the trace."),
                Err(why) => why,
            };
            self.file_notice.set(Some(notice));
        });
    }

    /// Saves the run in view as an OpenTelemetry trace (OTLP/JSON GenAI
    /// spans), started at the time of export: a trace keeps only times
    /// relative to its start.
    pub fn export_otel(self) {
        let record = self.current_record();
        runner::start(async move {
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
        runner::start(async move {
            let said = lazy::send_otlp(record, js_sys::Date::now() as u64, endpoint).await;
            self.file_notice.set(Some(match said {
                Ok(sent) => sent,
                Err(why) => format!("✗ Not sent: {why}"),
            }));
        });
    }

    /// The trace in view as a record: the scenario it ran and its events.
    fn current_record(self) -> Record {
        Record {
            scenario: self.controller.ran_scenario().get_untracked(),
            events: self.controller.events().get_untracked(),
            forked_at: None,
        }
    }

    /// The run in view now.
    fn now_run(self) -> u64 {
        self.controller.run_id().get_untracked()
    }

    /// A kept run's text: from this page's memory when storage did not
    /// take it, else from storage.
    fn kept_text(self, id: &str) -> Result<Option<String>, store::StoreError> {
        match self.models.with_value(|m| m.kept.memory_text(id)) {
            Some(text) => Ok(Some(text)),
            None => store::load_record(id),
        }
    }

    /// The one way the kept runs change: the model takes `msg`, the page
    /// shows it, and the commands it answered with are performed.
    #[inline(never)]
    fn send(self, msg: Msg) {
        let Some(commands) = self.models.try_update_value(|m| m.kept.update(msg)) else {
            return; // The page is gone.
        };
        self.models.with_value(|m| {
            let kept = &m.kept;
            if self
                .entries
                .with_untracked(|e| e.as_slice() != kept.entries())
            {
                self.entries.set(kept.entries().to_vec());
            }
            if self.notice.with_untracked(|n| n.as_ref() != kept.notice()) {
                self.notice.set(kept.notice().cloned());
            }
            if self.now_ms.get_untracked() != kept.now_ms() {
                self.now_ms.set(kept.now_ms());
            }
        });
        for command in commands {
            self.perform(command);
        }
    }

    /// Does what the kept runs' model asked: at once, sending any answer,
    /// or through the runner when it must be awaited.
    fn perform(self, command: Cmd) {
        let later: LocalBoxFuture<'static, Msg> = match command {
            Cmd::KeepRunInView => {
                let record = self.current_record();
                return self.send(Msg::Keep {
                    record,
                    origin: Origin::Run,
                });
            }
            // Writing the record out is a split module (`lazy::record_jsonl`),
            // like reading one back: the first paint lists kept runs, and
            // that code is fetched on first use.
            Cmd::WriteOut { entry, record } => Box::pin(async move {
                let text = lazy::record_jsonl(record).await;
                let now_ms = js_sys::Date::now();
                Msg::WrittenOut {
                    entry,
                    text,
                    now_ms,
                }
            }),
            Cmd::Persist {
                entry,
                text,
                index,
                evict,
            } => {
                let outcome = store::save_record(&entry.id, &text).and_then(|()| {
                    store::save_index(&index).inspect_err(|_| {
                        // Without an index entry the record would be unreachable.
                        store::remove_record(&entry.id);
                    })
                });
                if outcome.is_ok() {
                    for id in &evict {
                        store::remove_record(id);
                    }
                }
                let outcome = outcome.map_err(failure);
                return self.send(Msg::Persisted {
                    entry,
                    text,
                    evict,
                    outcome,
                });
            }
            Cmd::ListStoredIds => {
                return self.send(Msg::StoredIds(store::record_ids().map_err(failure)))
            }
            Cmd::ReadToRelist(ids) => Box::pin(async move {
                let mut found = Vec::new();
                for id in ids {
                    let Ok(Some(text)) = store::load_record(&id) else {
                        continue;
                    };
                    let size = text.len();
                    found.push((id, size, lazy::parse_record(text).await));
                }
                Msg::Relisted(found)
            }),
            Cmd::SaveIndex { index, after } => {
                let outcome = store::save_index(&index).map_err(failure);
                return self.send(Msg::IndexSaved { after, outcome });
            }
            Cmd::RemoveRecord(id) => return store::remove_record(&id),
            Cmd::AwaitClock => Box::pin(async {
                TimeoutFuture::new(CLOCK_REFRESH_MS).await;
                Msg::Tick(js_sys::Date::now())
            }),
        };
        runner::answer(later, move |msg| self.send(msg));
    }

    /// The one way opening and importing change (see `send`).
    #[inline(never)]
    fn send_opening(self, msg: OpenMsg) {
        let Some(commands) = self.models.try_update_value(|m| m.opening.update(msg)) else {
            return; // The page is gone.
        };
        self.models.with_value(|m| {
            let opened = m.opening.opened();
            if self.opened.with_untracked(|o| o.as_ref() != opened) {
                self.opened.set(opened.cloned());
            }
        });
        for command in commands {
            self.perform_opening(command);
        }
    }

    /// Does what the opening model asked.
    fn perform_opening(self, command: OpenCmd) {
        let later: LocalBoxFuture<'static, OpenMsg> = match command {
            OpenCmd::ReadRecord { id, scenario } => {
                let text = self.kept_text(&id);
                Box::pin(async move {
                    let record = read_kept(text).await;
                    OpenMsg::RecordRead {
                        id,
                        scenario,
                        record,
                    }
                })
            }
            OpenCmd::Say(notice) => return self.send(Msg::Say(notice)),
            // Open is pressed down in the panel, below the trace it fills:
            // the trace is brought into view.
            OpenCmd::ShowInTrace {
                record,
                entry_id,
                load_scenario,
            } => {
                self.controller.show_record(&record);
                page::reveal_timeline();
                let run = self.now_run();
                self.send(Msg::Shown { run });
                return self.send_opening(OpenMsg::Shown {
                    run,
                    entry_id,
                    scenario: record.scenario.filter(|_| load_scenario),
                });
            }
            // Which built-in it is takes their files (a split module).
            OpenCmd::ScenarioText { run, scenario } => Box::pin(async move {
                let text = lazy::scenario_text(scenario).await;
                let now_run = self.now_run();
                OpenMsg::ScenarioText { run, now_run, text }
            }),
            OpenCmd::LoadEditor(text) => {
                self.editor
                    .load(text, crate::editor::provenance::Source::KeptRun);
                self.editor.set_arrival(Some(OPENED_SCENARIO.to_string()));
                // Where the editor sits above the trace (narrow windows), its
                // new scenario may have moved the trace: place it again.
                return page::reveal_timeline();
            }
            OpenCmd::ReadRunFile {
                name,
                text,
                in_view,
            } => Box::pin(async move {
                let read = lazy::read_run_file(text, in_view).await;
                OpenMsg::RunFileRead { name, read }
            }),
            // Kept as the history keeps a run, from its written-out text
            // on: storage answers at once, so the newest entry is this one.
            OpenCmd::Keep {
                entry,
                record,
                said,
            } => Box::pin(async move {
                let text = lazy::record_jsonl(record.clone()).await;
                let now_ms = js_sys::Date::now();
                self.send(Msg::WrittenOut {
                    entry,
                    text,
                    now_ms,
                });
                let newest = self
                    .models
                    .try_with_value(|m| m.kept.entries().first().map(|e| e.id.clone()));
                let id = newest.flatten().unwrap_or_default();
                OpenMsg::Kept {
                    id,
                    record: Box::new(record),
                    said,
                }
            }),
            OpenCmd::FileNotice(said) => return self.file_notice.set(Some(said)),
        };
        runner::answer(later, move |msg| self.send_opening(msg));
    }

    /// The one way the replays change (see `send`).
    #[inline(never)]
    fn send_replay(self, msg: ReplayMsg) {
        let Some(commands) = self.models.try_update_value(|m| m.replays.update(msg)) else {
            return; // The page is gone.
        };
        self.models.with_value(|m| {
            let replays = &m.replays;
            if self.replaying.get_untracked() != replays.replaying() {
                self.replaying.set(replays.replaying());
            }
            if self.call_mcp.get_untracked() != replays.call_mcp() {
                self.call_mcp.set(replays.call_mcp());
            }
            if self
                .replayed
                .with_untracked(|r| r.as_ref() != replays.replayed())
            {
                self.replayed.set(replays.replayed().cloned());
            }
        });
        for command in commands {
            self.perform_replay(command);
        }
    }

    /// Replays the run in view as the replay model asked.
    fn perform_replay(self, command: ReplayCmd) {
        let ReplayCmd {
            run,
            record,
            text,
            call_mcp,
        } = command;
        let later = async move {
            let outcome = self.replay_outcome(record, text, call_mcp).await;
            let now_run = self.now_run();
            ReplayMsg::Replayed {
                run,
                now_run,
                outcome,
            }
        };
        runner::answer(later, move |msg| self.send_replay(msg));
    }

    /// The one way "Replay all" changes (see `send`).
    #[inline(never)]
    fn send_batch(self, msg: BatchMsg) {
        let Some(commands) = self.models.try_update_value(|m| m.batch.update(msg)) else {
            return; // The page is gone.
        };
        self.models.with_value(|m| {
            let batch = m.batch.batch();
            if self.batch.with_untracked(|b| b.as_ref() != batch) {
                self.batch.set(batch.cloned());
            }
        });
        for command in commands {
            self.perform_batch(command);
        }
    }

    /// Does what "Replay all" asked; each answer is awaited.
    fn perform_batch(self, command: BatchCmd) {
        let later: LocalBoxFuture<'static, BatchMsg> = match command {
            BatchCmd::LoadScenario(text) => Box::pin(async move {
                let loaded = lazy::engine().await.load(&text).await;
                BatchMsg::ScenarioLoaded(match loaded {
                    Ok(scenario) => Ok((scenario, self.entries.get_untracked())),
                    Err(problems) => Err(view_model::problem_lines(&problems)),
                })
            }),
            BatchCmd::NextFrame => Box::pin(async {
                TimeoutFuture::new(0).await;
                BatchMsg::Frame
            }),
            BatchCmd::ReadKept(id) => {
                let text = self.kept_text(&id);
                Box::pin(async move {
                    let record = read_kept(text).await;
                    BatchMsg::KeptRead { id, record }
                })
            }
            BatchCmd::ReplayKept {
                id,
                record,
                scenario,
            } => Box::pin(async move {
                let verdict = lazy::offstage()
                    .await
                    .replay(record, *scenario, Assertions::default())
                    .await
                    .map(|report| Verdict::of(&report))
                    .map_err(|problems| view_model::problem_lines(&problems));
                BatchMsg::KeptReplayed { id, verdict }
            }),
        };
        runner::answer(later, move |msg| self.send_batch(msg));
    }

    /// Replays `record` against the scenario `text`, with its MCP servers'
    /// tools loaded when asked to (the record's results otherwise).
    async fn replay_outcome(self, record: Record, text: String, call_mcp: bool) -> ReplayOutcome {
        let scenario = match lazy::engine().await.load(&text).await {
            Ok(scenario) => scenario,
            Err(problems) => {
                return ReplayOutcome::DoesNotLoad(view_model::problem_lines(&problems))
            }
        };
        let scenario = if call_mcp {
            match self.mcp.ready(&text, scenario).await {
                Ok(scenario) => scenario,
                Err(lines) => return ReplayOutcome::McpUnreachable(lines),
            }
        } else {
            scenario
        };
        match lazy::offstage()
            .await
            .replay(record, scenario, Assertions::default())
            .await
        {
            Ok(report) => ReplayOutcome::Done(history::replay_view(&report)),
            Err(problems) => ReplayOutcome::CannotRun(view_model::problem_lines(&problems)),
        }
    }
}

/// A kept run's record from its text (see `History::kept_text`), or why not.
async fn read_kept(text: Result<Option<String>, store::StoreError>) -> Result<Record, ReadFailure> {
    match text {
        Ok(Some(text)) => lazy::parse_record(text)
            .await
            .map_err(ReadFailure::Unparsable),
        Ok(None) => Err(ReadFailure::Gone),
        Err(err) => Err(ReadFailure::Storage(failure(err))),
    }
}

/// Storage's refusal as the model words it.
fn failure(err: store::StoreError) -> StoreError {
    match err {
        store::StoreError::Full => StoreError::Full,
        store::StoreError::Unavailable(why) => StoreError::Unavailable(why),
    }
}
