//! The run history's page state: every run that finishes in the page is
//! kept (in `localStorage`, through `browser::history_store`), listed newest
//! first, restored after a reload, opened read-only in the trace, deleted,
//! exported and imported as a record file (`run.jsonl`, the format
//! `agent-loop show` reads), and replayed against the scenario in the editor
//! with the pass/fail list of `harness::replay`; "Replay all" plays every
//! kept run of the editor's scenario against it, one record at a time, into
//! a table (`history::replay_all`). The panel that shows it is
//! `ui::history_panel`.
//!
//! What the history does is the plain model `history::model`, tested
//! natively; this is its adapter: the model held in the command runner
//! (`browser::runner`), read through memos, and its commands performed
//! here, where storage, the split-loaded engine, the controller and the
//! editor are within reach. A run that storage refuses (full, unavailable,
//! over the budget) stays listed for this page, marked so, and the panel
//! says why: nothing is dropped without a word.

use gloo_timers::future::TimeoutFuture;
use harness::event::{EventKind, RunEvent};
use harness::replay::{Assertions, Record};
use leptos::prelude::*;

use crate::browser::history_store as store;
use crate::browser::runner::{Answer, Runner};
use crate::browser::{files, page};
use crate::history::model::{
    saved_text, Cmd, Download, HistoryModel, Msg, ReadFailure, ReplayOutcome, EXPORT_NAME,
    OTEL_EXPORT_NAME,
};
use crate::history::replay_all::{Batch, Verdict};
use crate::history::{Entry, ReplayView};
use crate::lazy;
use crate::state::controller::Controller;
use crate::state::editor::Editor;
use crate::state::mcp::Mcp;
use crate::state::tied_notice::TiedNotice;
use crate::update::Update;
use crate::view_model;

/// How often the "2 min ago" texts refresh.
const CLOCK_REFRESH_MS: u32 = 30_000;

type HistoryRunner = Runner<HistoryModel, Msg, Cmd>;

#[derive(Clone, Copy)]
pub struct History {
    controller: Controller,
    editor: Editor,
    runner: HistoryRunner,
    entries: Memo<Vec<Entry>>,
    notice: Memo<Option<String>>,
    replaying: Memo<bool>,
    batch: Memo<Option<Result<Batch, String>>>,
    now_ms: Memo<f64>,
    call_mcp: Memo<bool>,
    /// What happened to the last export or import, beside those controls:
    /// about the run in view then, so it goes when another run takes its
    /// place (Reset, another scenario, a new run).
    file_notice: TiedNotice,
}

/// What the history's commands reach.
#[derive(Clone, Copy)]
struct Effects {
    controller: Controller,
    editor: Editor,
    /// The scenario's MCP servers, for a replay that calls them again.
    mcp: Mcp,
    file_notice: TiedNotice,
}

impl History {
    /// Call once, in the root component: it reads the stored index and starts
    /// keeping finished runs.
    pub fn new(controller: Controller, editor: Editor, mcp: Mcp) -> Self {
        let effects = Effects {
            controller,
            editor,
            mcp,
            file_notice: TiedNotice::about_run(controller.run_id()),
        };
        let model = HistoryModel::restored(store::load_index(), js_sys::Date::now());
        let runner = Runner::new(model, HistoryModel::update, move |cmd, _| {
            effects.perform(cmd)
        });
        let history = History {
            controller,
            editor,
            runner,
            entries: Memo::new(move |_| runner.with(|m| m.entries.clone())),
            notice: Memo::new(move |_| runner.with(|m| m.notice.clone())),
            replaying: Memo::new(move |_| runner.with(|m| m.replaying)),
            batch: Memo::new(move |_| runner.with(|m| m.batch.clone())),
            now_ms: Memo::new(move |_| runner.with(|m| m.now_ms)),
            call_mcp: Memo::new(move |_| runner.with(|m| m.call_mcp)),
            file_notice: effects.file_notice,
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
                runner.send(Msg::RunFinished { run });
            }
        });
        runner.send(Msg::PageOpened);
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
    pub fn entries(&self) -> Memo<Vec<Entry>> {
        self.entries
    }

    /// What the panel must say about storage, if anything.
    pub fn notice(&self) -> Memo<Option<String>> {
        self.notice
    }

    /// What happened to the last export or import of the run in view.
    pub fn file_notice(&self) -> TiedNotice {
        self.file_notice
    }

    /// The id of the kept run the trace shows, if it shows one (tracked).
    pub fn opened_id(&self) -> Option<String> {
        let run = self.controller.run_id().get();
        self.runner.with(|m| m.opened_id(run))
    }

    /// The last replay's verdict on the trace in view, if any (tracked).
    pub fn verdict(&self) -> Option<Result<ReplayView, String>> {
        let run = self.controller.run_id().get();
        self.runner.with(|m| m.verdict(run))
    }

    /// A replay is under way.
    pub fn replaying(&self) -> Memo<bool> {
        self.replaying
    }

    /// The last "Replay all", or why it replayed nothing.
    pub fn batch(&self) -> Memo<Option<Result<Batch, String>>> {
        self.batch
    }

    /// A "Replay all" is under way.
    pub fn batch_running(&self) -> bool {
        self.batch
            .with(|b| matches!(b, Some(Ok(batch)) if batch.running))
    }

    /// Whether every kept run is being replayed now (not reactive).
    pub fn replaying_all(&self) -> bool {
        self.runner.with_untracked(|m| m.batch_busy)
    }

    /// Now, refreshed every half minute, for the "2 min ago" texts.
    pub fn now_ms(&self) -> Memo<f64> {
        self.now_ms
    }

    /// Whether a replay calls the MCP servers again (tracked).
    pub fn call_mcp(&self) -> bool {
        self.call_mcp.get()
    }

    pub fn set_call_mcp(self, on: bool) {
        self.runner.send(Msg::SetCallMcp(on));
    }

    /// Opens a kept run in the trace and leaves the editor as it is: from
    /// "Replay all", where the editor holds the edit under test, which
    /// loading the run's own scenario would throw away. "Replay against
    /// current tools" then lists every check of that run against the edit.
    pub fn open_in_trace(self, id: String) {
        self.runner.send(Msg::Open {
            id,
            scenario: false,
        });
    }

    /// Opens a kept run in the trace, and its scenario in the editor.
    pub fn open(self, id: String) {
        self.runner.send(Msg::Open { id, scenario: true });
    }

    /// Removes one kept run.
    pub fn delete(self, id: &str) {
        self.runner.send(Msg::Delete(id.to_string()));
    }

    /// Removes every kept run.
    pub fn delete_all(self) {
        self.runner.send(Msg::DeleteAll);
    }

    /// Saves the run in view with its scenario as `run.jsonl`.
    pub fn export(self) {
        self.runner
            .send(Msg::Export(current_record(self.controller)));
    }

    /// Saves the run in view as an OpenTelemetry trace (OTLP/JSON GenAI
    /// spans), started at the time of export: a trace keeps only times
    /// relative to its start.
    pub fn export_otel(self) {
        self.runner
            .send(Msg::ExportOtel(current_record(self.controller)));
    }

    /// POSTs the run in view as OpenTelemetry to the OTLP/HTTP `endpoint`
    /// (a local collector, Jaeger, Phoenix); the notice says what happened.
    pub fn send_otel(self, endpoint: String) {
        let record = current_record(self.controller);
        self.runner.send(Msg::SendOtel { record, endpoint });
    }

    /// Says why the file picked for "Import run…" could not be read.
    pub fn import_unreadable(self, name: &str, why: &str) {
        self.runner.send(Msg::ImportUnreadable {
            name: name.to_string(),
            why: why.to_string(),
        });
    }

    /// Imports a record file (or a bare trace, or an OpenTelemetry trace),
    /// keeps it and opens it; what the file lacked is said with it.
    pub fn import(self, name: String, text: String) {
        let in_view = current_record(self.controller);
        self.runner.send(Msg::Import {
            name,
            text,
            in_view,
        });
    }

    /// Replays the trace in view against the scenario in the editor.
    pub fn replay(self) {
        self.runner.send(Msg::Replay {
            run: self.controller.run_id().get_untracked(),
            record: current_record(self.controller),
            text: self.editor.text().get_untracked(),
        });
    }

    /// "Replay all against the current scenario": every kept run whose
    /// scenario name is the editor's scenario's, replayed against the
    /// editor's scenario one record at a time (each read from storage only
    /// when its turn comes), a row each, the page handed back in between so
    /// the progress line paints and Stop is heard.
    pub fn replay_all(self) {
        self.runner.send(Msg::ReplayAll {
            text: self.editor.text().get_untracked(),
        });
    }

    /// Stops a "Replay all" before its next kept run.
    pub fn stop_replay_all(self) {
        self.runner.send(Msg::StopReplayAll);
    }
}

/// The trace in view as a record: the scenario it ran and its events.
fn current_record(controller: Controller) -> Record {
    Record {
        scenario: controller.ran_scenario().get_untracked(),
        events: controller.events().get_untracked(),
        forked_at: None,
    }
}

impl Effects {
    fn now_run(self) -> u64 {
        self.controller.run_id().get_untracked()
    }

    fn perform(self, cmd: Cmd) -> Answer<Msg> {
        match cmd {
            Cmd::KeepRunInView => Answer::now(Msg::Keep {
                record: current_record(self.controller),
                origin: crate::history::Origin::Run,
            }),
            // Writing the record out is a split module (`lazy::record_jsonl`),
            // like reading one back and replaying: the first paint lists
            // kept runs, and that code is fetched on first use.
            Cmd::WriteOut {
                entry,
                record,
                then,
            } => Answer::later(async move {
                let text = lazy::record_jsonl(record).await;
                Some(Msg::WrittenOut {
                    entry,
                    text,
                    now_ms: js_sys::Date::now(),
                    then,
                })
            }),
            Cmd::Persist {
                entry,
                text,
                index,
                evict,
                then,
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
                Answer::now(Msg::Persisted {
                    entry,
                    text,
                    evict,
                    outcome,
                    then,
                })
            }
            Cmd::ListStoredIds => Answer::now(Msg::StoredIds(store::record_ids())),
            Cmd::ReadToRelist(ids) => Answer::later(async move {
                let mut found = Vec::new();
                for id in ids {
                    let Ok(Some(text)) = store::load_record(&id) else {
                        continue;
                    };
                    let size = text.len();
                    found.push((id, size, lazy::parse_record(text).await));
                }
                Some(Msg::Relisted(found))
            }),
            Cmd::SaveIndex { index, after } => Answer::now(Msg::IndexSaved {
                after,
                outcome: store::save_index(&index),
            }),
            Cmd::RemoveRecord(id) => {
                store::remove_record(&id);
                Answer::none()
            }
            Cmd::ReadRecord {
                id,
                memory,
                purpose,
            } => {
                let text = match memory {
                    Some(text) => Ok(Some(text)),
                    None => store::load_record(&id),
                };
                match text {
                    Ok(Some(text)) => Answer::later(async move {
                        let record = lazy::parse_record(text)
                            .await
                            .map_err(ReadFailure::Unparsable);
                        Some(Msg::RecordRead {
                            id,
                            purpose,
                            record,
                        })
                    }),
                    Ok(None) => Answer::now(Msg::RecordRead {
                        id,
                        purpose,
                        record: Err(ReadFailure::Gone),
                    }),
                    Err(err) => Answer::now(Msg::RecordRead {
                        id,
                        purpose,
                        record: Err(ReadFailure::Storage(err)),
                    }),
                }
            }
            // Open is pressed down in the panel, below the trace it fills:
            // the trace is brought into view.
            Cmd::ShowInTrace {
                record,
                entry_id,
                load_scenario,
            } => {
                self.controller.show_record(&record);
                page::reveal_timeline();
                Answer::now(Msg::Shown {
                    run: self.now_run(),
                    entry_id,
                    scenario: record.scenario.filter(|_| load_scenario),
                })
            }
            // Which built-in it is takes their files (a split module).
            Cmd::ScenarioText { run, scenario } => Answer::later(async move {
                let text = lazy::scenario_text(scenario).await;
                Some(Msg::ScenarioText {
                    run,
                    now_run: self.now_run(),
                    text,
                })
            }),
            Cmd::LoadEditor { text, arrival } => {
                self.editor.load(text, crate::provenance::Source::KeptRun);
                self.editor.set_arrival(Some(arrival));
                // Where the editor sits above the trace (narrow windows), its
                // new scenario may have moved the trace: place it again.
                page::reveal_timeline();
                Answer::none()
            }
            Cmd::Download(download) => Answer::later(async move {
                let saved = saved_text(&download);
                let (name, kind, text) = match download {
                    Download::Jsonl(record) => (
                        EXPORT_NAME,
                        "application/x-ndjson",
                        lazy::record_jsonl(record).await,
                    ),
                    Download::Otel(record) => (
                        OTEL_EXPORT_NAME,
                        "application/json",
                        lazy::otlp_json(record, js_sys::Date::now() as u64).await,
                    ),
                };
                Some(Msg::Downloaded {
                    saved,
                    outcome: files::download(name, kind, &text),
                })
            }),
            Cmd::SendOtel { record, endpoint } => Answer::later(async move {
                let said = lazy::send_otlp(record, js_sys::Date::now() as u64, endpoint).await;
                Some(Msg::OtelSent(said))
            }),
            Cmd::ReadRunFile {
                name,
                text,
                in_view,
            } => Answer::later(async move {
                let read = lazy::read_run_file(text, in_view).await;
                Some(Msg::RunFileRead { name, read })
            }),
            Cmd::FileNotice(said) => {
                self.file_notice.set(Some(said));
                Answer::none()
            }
            Cmd::Replay {
                run,
                record,
                text,
                call_mcp,
            } => Answer::later(async move {
                let outcome = self.replay(record, text, call_mcp).await;
                Some(Msg::Replayed {
                    run,
                    now_run: self.now_run(),
                    outcome,
                })
            }),
            Cmd::LoadScenario(text) => Answer::later(async move {
                let loaded = lazy::engine().await.load(&text).await;
                Some(Msg::BatchScenario(
                    loaded.map_err(|problems| view_model::problem_lines(&problems)),
                ))
            }),
            Cmd::NextFrame => Answer::later(async {
                TimeoutFuture::new(0).await;
                Some(Msg::Frame)
            }),
            Cmd::ReplayKept {
                id,
                record,
                scenario,
            } => Answer::later(async move {
                let verdict = lazy::offstage()
                    .await
                    .replay(record, *scenario, Assertions::default())
                    .await
                    .map(|report| Verdict::of(&report))
                    .map_err(|problems| view_model::problem_lines(&problems));
                Some(Msg::KeptReplayed { id, verdict })
            }),
            Cmd::AwaitClock => Answer::later(async {
                TimeoutFuture::new(CLOCK_REFRESH_MS).await;
                Some(Msg::Tick(js_sys::Date::now()))
            }),
        }
    }

    /// Replays `record` against the scenario `text`, with its MCP servers'
    /// tools loaded when asked to (the record's results otherwise).
    async fn replay(self, record: Record, text: String, call_mcp: bool) -> ReplayOutcome {
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
            Ok(report) => ReplayOutcome::Done(crate::history::replay_view(&report)),
            Err(problems) => ReplayOutcome::CannotRun(view_model::problem_lines(&problems)),
        }
    }
}
