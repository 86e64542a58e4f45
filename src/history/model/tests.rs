//! The history model driven through its messages, with a stand-in for the
//! page around it: storage as a map, the trace as the record shown, the
//! editor as its text. Commands whose answer a test wants to time (a
//! replay, a frame, a file read) are held until the test answers them.

use std::collections::{BTreeMap, VecDeque};

use harness::event::{EventKind, Outcome, RunEvent, Status};

use super::*;

fn scenario() -> Scenario {
    Scenario::load(harness::library::find("get-time").unwrap().json()).unwrap()
}

fn record(status: Status) -> Record {
    let outcome = Outcome {
        status,
        reason: "why".into(),
        cause: None,
        turns: 2,
        tool_calls: 1,
        calls: None,
        input_tokens: 10,
        output_tokens: 5,
        cost_usd: 0.01,
        elapsed_ms: 3,
        answer: None,
    };
    Record {
        scenario: Some(scenario()),
        events: vec![RunEvent {
            seq: 0,
            t_ms: 3,
            kind: EventKind::RunFinished(outcome),
        }],
        forked_at: None,
    }
}

fn bare(status: Status) -> Record {
    Record {
        scenario: None,
        ..record(status)
    }
}

#[derive(Default)]
struct World {
    records: BTreeMap<String, String>,
    index: Option<String>,
    /// Storage refuses every write with this.
    refuse: Option<StoreError>,
    /// The run in view and its record.
    run: u64,
    trace: Option<Record>,
    editor: Option<(String, String)>,
    file_notice: Option<String>,
    clock: f64,
    /// Commands held for the test to answer.
    held: Vec<Cmd>,
    /// Hold frames, so a test can press Stop between kept runs.
    hold_frames: bool,
    /// Kept runs' replay verdicts by id (a pass otherwise).
    verdicts: BTreeMap<String, Verdict>,
    download_fails: Option<String>,
}

impl World {
    fn new() -> Self {
        World {
            clock: 1_000.0,
            ..Default::default()
        }
    }

    /// The history as it opens in this world's storage.
    fn open_page(&mut self) -> HistoryModel {
        let mut model = HistoryModel::restored(Ok(self.index.clone()), self.clock);
        self.send(&mut model, Msg::PageOpened);
        self.held.clear(); // the clock
        model
    }

    /// A run that finished in view, kept as it would be.
    fn finish_run(&mut self, model: &mut HistoryModel, record: Record) {
        self.run += 1;
        self.trace = Some(record);
        let run = self.run;
        self.send(model, Msg::RunFinished { run });
    }

    fn send(&mut self, model: &mut HistoryModel, msg: Msg) {
        let mut queue = VecDeque::from([msg]);
        while let Some(msg) = queue.pop_front() {
            for cmd in model.update(msg) {
                queue.extend(self.perform(cmd));
            }
        }
    }

    fn take_held(&mut self, pick: impl Fn(&Cmd) -> bool) -> Cmd {
        let at = self.held.iter().position(pick).expect("a held command");
        self.held.remove(at)
    }

    fn perform(&mut self, cmd: Cmd) -> Option<Msg> {
        match cmd {
            Cmd::KeepRunInView => Some(Msg::Keep {
                record: self.trace.clone().unwrap(),
                origin: Origin::Run,
            }),
            Cmd::WriteOut {
                entry,
                record,
                then,
            } => {
                self.clock += 1_000.0;
                Some(Msg::WrittenOut {
                    entry,
                    text: record.to_jsonl(),
                    now_ms: self.clock,
                    then,
                })
            }
            Cmd::Persist {
                entry,
                text,
                index,
                evict,
                then,
            } => {
                let outcome = match &self.refuse {
                    Some(err) => Err(err.clone()),
                    None => {
                        self.records.insert(entry.id.clone(), text.clone());
                        self.index = Some(index);
                        for id in &evict {
                            self.records.remove(id);
                        }
                        Ok(())
                    }
                };
                Some(Msg::Persisted {
                    entry,
                    text,
                    evict,
                    outcome,
                    then,
                })
            }
            Cmd::ListStoredIds => Some(Msg::StoredIds(Ok(self.records.keys().cloned().collect()))),
            Cmd::ReadToRelist(ids) => Some(Msg::Relisted(
                ids.into_iter()
                    .map(|id| {
                        let text = self.records[&id].clone();
                        let read = Record::from_jsonl(&text).map_err(|e| e.to_string());
                        (id, text.len(), read)
                    })
                    .collect(),
            )),
            Cmd::SaveIndex { index, after } => {
                let outcome = match &self.refuse {
                    Some(err) => Err(err.clone()),
                    None => {
                        self.index = Some(index);
                        Ok(())
                    }
                };
                Some(Msg::IndexSaved { after, outcome })
            }
            Cmd::RemoveRecord(id) => {
                self.records.remove(&id);
                None
            }
            Cmd::ReadRecord {
                id,
                memory,
                purpose,
            } => {
                let record = match memory.or_else(|| self.records.get(&id).cloned()) {
                    None => Err(ReadFailure::Gone),
                    Some(text) => Record::from_jsonl(&text)
                        .map_err(|e| ReadFailure::Unparsable(e.to_string())),
                };
                Some(Msg::RecordRead {
                    id,
                    purpose,
                    record,
                })
            }
            Cmd::ShowInTrace {
                record,
                entry_id,
                load_scenario,
            } => {
                self.run += 1;
                self.trace = Some(record.clone());
                Some(Msg::Shown {
                    run: self.run,
                    entry_id,
                    scenario: record.scenario.filter(|_| load_scenario),
                })
            }
            Cmd::ScenarioText { run, scenario } => Some(Msg::ScenarioText {
                run,
                now_run: self.run,
                text: scenario.name,
            }),
            Cmd::LoadEditor { text, arrival } => {
                self.editor = Some((text, arrival));
                None
            }
            Cmd::Download(download) => Some(Msg::Downloaded {
                saved: saved_text(&download),
                outcome: self.download_fails.clone().map_or(Ok(()), Err),
            }),
            Cmd::FileNotice(said) => {
                self.file_notice = Some(said);
                None
            }
            Cmd::LoadScenario(text) => Some(Msg::BatchScenario(
                Scenario::load(&text).map_err(|p| view_model::problem_lines(&p)),
            )),
            Cmd::NextFrame if !self.hold_frames => Some(Msg::Frame),
            Cmd::ReplayKept { id, .. } => {
                let verdict = self.verdicts.get(&id).cloned().unwrap_or(Verdict::Pass);
                Some(Msg::KeptReplayed {
                    id,
                    verdict: Ok(verdict),
                })
            }
            held => {
                self.held.push(held);
                None
            }
        }
    }
}

fn scenario_text() -> String {
    harness::library::find("get-time")
        .unwrap()
        .json()
        .to_string()
}

// Keeping runs.

#[test]
fn a_finished_run_is_listed_first_with_its_scenario_and_status() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.finish_run(&mut model, record(Status::Done));
    world.finish_run(&mut model, record(Status::TurnLimit));
    assert_eq!(model.entries.len(), 2);
    assert_eq!(model.entries[0].status, Some(Status::TurnLimit));
    assert_eq!(model.entries[0].scenario, scenario().name);
    assert!(model.entries.iter().all(|e| e.stored));
    assert_eq!(model.notice, None);
}

#[test]
fn a_run_is_kept_once_however_often_its_end_is_seen() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.finish_run(&mut model, record(Status::Done));
    let run = world.run;
    world.send(&mut model, Msg::RunFinished { run });
    world.send(&mut model, Msg::RunFinished { run });
    assert_eq!(model.entries.len(), 1);
}

#[test]
fn kept_runs_are_listed_again_after_a_reload() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.finish_run(&mut model, record(Status::Done));
    world.finish_run(&mut model, record(Status::ModelError));
    let before = model.entries.clone();
    let reloaded = world.open_page();
    assert_eq!(reloaded.entries, before);
    assert_eq!(reloaded.notice, None);
}

#[test]
fn a_kept_run_gets_the_time_it_was_kept_and_its_size() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.finish_run(&mut model, record(Status::Done));
    let entry = &model.entries[0];
    assert_eq!(entry.saved_at_ms, world.clock);
    assert_eq!(entry.size, record(Status::Done).to_jsonl().len());
    assert_eq!(model.now_ms, world.clock);
}

#[test]
fn two_runs_kept_in_the_same_millisecond_keep_both() {
    let mut model = HistoryModel::default();
    for _ in 0..2 {
        let entry = history::summarize(&record(Status::Done), String::new(), 0.0, 0, Origin::Run);
        let cmds = model.update(Msg::WrittenOut {
            entry,
            text: "x".into(),
            now_ms: 5.0,
            then: Then::Nothing,
        });
        let Some(Cmd::Persist {
            entry,
            text,
            evict,
            then,
            ..
        }) = cmds.into_iter().next()
        else {
            panic!("a record within the budget is stored");
        };
        model.update(Msg::Persisted {
            entry,
            text,
            evict,
            outcome: Ok(()),
            then,
        });
    }
    assert_eq!(model.entries.len(), 2);
    assert_ne!(model.entries[0].id, model.entries[1].id);
}

#[test]
fn a_full_storage_keeps_the_run_for_this_page_and_says_so() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.refuse = Some(StoreError::Full);
    world.finish_run(&mut model, record(Status::Done));
    assert_eq!(model.entries.len(), 1);
    assert!(!model.entries[0].stored);
    let notice = model.notice.clone().unwrap();
    assert!(
        notice.contains("storage for this page is full (QuotaExceededError)"),
        "{notice}"
    );
    assert!(notice.contains("export it to keep it"), "{notice}");
    assert!(world.records.is_empty());
}

#[test]
fn unavailable_storage_is_named_with_the_browsers_reason() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.refuse = Some(StoreError::Unavailable("SecurityError: denied".into()));
    world.finish_run(&mut model, record(Status::Done));
    let notice = model.notice.clone().unwrap();
    assert!(
        notice
            .starts_with("This run was not saved: storage is unavailable (SecurityError: denied)."),
        "{notice}"
    );
}

#[test]
fn a_run_storage_refused_still_opens_from_this_pages_memory() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.refuse = Some(StoreError::Full);
    world.finish_run(&mut model, record(Status::Done));
    let id = model.entries[0].id.clone();
    world.send(
        &mut model,
        Msg::Open {
            id: id.clone(),
            scenario: false,
        },
    );
    assert_eq!(model.opened_id(world.run), Some(id));
}

#[test]
fn a_record_over_the_budget_is_not_stored_and_its_size_is_said() {
    let mut model = HistoryModel::default();
    let entry = history::summarize(&record(Status::Done), String::new(), 0.0, 0, Origin::Run);
    let cmds = model.update(Msg::WrittenOut {
        entry,
        text: "x".repeat(history::BUDGET_BYTES + 1),
        now_ms: 1.0,
        then: Then::Nothing,
    });
    assert!(cmds.is_empty(), "nothing is written to storage");
    assert!(!model.entries[0].stored);
    let notice = model.notice.unwrap();
    assert!(notice.contains("more than the"), "{notice}");
    assert!(
        notice.contains(&history::format_size(history::BUDGET_BYTES)),
        "{notice}"
    );
}

#[test]
fn the_oldest_run_makes_room_and_the_panel_says_which() {
    let mut model = HistoryModel::default();
    let old = Entry {
        size: history::BUDGET_BYTES - 10,
        ..history::summarize(&record(Status::ModelError), "1".into(), 1.0, 0, Origin::Run)
    };
    model.entries.push(old);
    let entry = history::summarize(&record(Status::Done), String::new(), 0.0, 0, Origin::Run);
    let cmds = model.update(Msg::WrittenOut {
        entry,
        text: "x".repeat(100),
        now_ms: 2.0,
        then: Then::Nothing,
    });
    let Some(Cmd::Persist {
        entry,
        text,
        evict,
        index,
        then,
    }) = cmds.into_iter().next()
    else {
        panic!("stored after making room");
    };
    assert_eq!(evict, vec!["1".to_string()]);
    assert!(
        !index.contains("\"1\""),
        "the index no longer lists it: {index}"
    );
    model.update(Msg::Persisted {
        entry,
        text,
        evict,
        outcome: Ok(()),
        then,
    });
    assert_eq!(model.entries.len(), 1);
    assert_eq!(model.entries[0].status, Some(Status::Done));
    assert!(model
        .notice
        .unwrap()
        .contains("removed the oldest kept run"));
}

#[test]
fn a_refused_store_drops_no_old_run() {
    let mut model = HistoryModel::default();
    model.entries.push(Entry {
        size: history::BUDGET_BYTES - 10,
        ..history::summarize(&record(Status::ModelError), "1".into(), 1.0, 0, Origin::Run)
    });
    let entry = history::summarize(&record(Status::Done), String::new(), 0.0, 0, Origin::Run);
    let cmds = model.update(Msg::WrittenOut {
        entry,
        text: "x".repeat(100),
        now_ms: 2.0,
        then: Then::Nothing,
    });
    let Some(Cmd::Persist {
        entry,
        text,
        evict,
        then,
        ..
    }) = cmds.into_iter().next()
    else {
        panic!("asked to store");
    };
    model.update(Msg::Persisted {
        entry,
        text,
        evict,
        outcome: Err(StoreError::Full),
        then,
    });
    assert_eq!(model.entries.len(), 2, "the old run is still listed");
    assert!(model.entries[1].stored);
}

// Restoring after a reload.

#[test]
fn a_first_visit_lists_nothing_and_says_nothing() {
    let model = HistoryModel::restored(Ok(None), 0.0);
    assert!(model.entries.is_empty());
    assert_eq!(model.notice, None);
}

#[test]
fn a_list_that_does_not_read_says_its_runs_are_listed_again() {
    let model = HistoryModel::restored(Ok(Some("not json".into())), 0.0);
    assert!(model.entries.is_empty());
    let notice = model.notice.unwrap();
    assert!(
        notice.starts_with("The list of kept runs could not be read:"),
        "{notice}"
    );
    assert!(
        notice.ends_with("The runs are listed again from their records."),
        "{notice}"
    );
}

#[test]
fn storage_out_of_reach_at_load_says_runs_are_for_this_page_only() {
    let model = HistoryModel::restored(Err(StoreError::Unavailable("no".into())), 0.0);
    assert_eq!(
        model.notice.as_deref(),
        Some("Runs cannot be kept after a reload: storage is unavailable (no). They are listed for this page only.")
    );
}

#[test]
fn records_the_list_lost_are_listed_again_from_storage() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.finish_run(&mut model, record(Status::Done));
    world.finish_run(&mut model, record(Status::Done));
    world.index = Some("broken".into());
    let reloaded = world.open_page();
    assert_eq!(reloaded.entries.len(), 2);
    let notice = reloaded.notice.clone().unwrap();
    assert!(
        notice.contains("Listed 2 kept runs again from their records in storage."),
        "{notice}"
    );
    // And the list is saved again: the next reload reads it.
    let again = world.open_page();
    assert_eq!(again.entries, reloaded.entries);
    assert_eq!(again.notice, None);
}

#[test]
fn a_record_that_does_not_read_is_named_and_left_in_storage() {
    let mut world = World::new();
    world.records.insert("5".into(), "garbage".into());
    let model = world.open_page();
    assert!(model.entries.is_empty());
    let notice = model.notice.unwrap();
    assert!(
        notice.contains("Not listed, and left in storage untouched: the run 5:"),
        "{notice}"
    );
    assert!(world.records.contains_key("5"));
}

#[test]
fn nothing_to_list_again_reads_nothing() {
    let mut model = HistoryModel::default();
    assert!(model.update(Msg::StoredIds(Ok(Vec::new()))).is_empty());
    assert!(model
        .update(Msg::StoredIds(Err(StoreError::Full)))
        .is_empty());
}

#[test]
fn the_clock_moves_the_now_and_waits_again() {
    let mut model = HistoryModel::default();
    let cmds = model.update(Msg::Tick(42.0));
    assert_eq!(model.now_ms, 42.0);
    assert!(matches!(cmds[..], [Cmd::AwaitClock]));
}

// Opening.

#[test]
fn open_shows_the_run_and_marks_it_open_while_it_is_in_view() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.finish_run(&mut model, record(Status::Done));
    let id = model.entries[0].id.clone();
    world.send(
        &mut model,
        Msg::Open {
            id: id.clone(),
            scenario: true,
        },
    );
    assert_eq!(model.opened_id(world.run), Some(id));
    assert_eq!(model.opened_id(world.run + 1), None, "another run in view");
}

#[test]
fn an_opened_run_is_not_kept_twice() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.finish_run(&mut model, record(Status::Done));
    let id = model.entries[0].id.clone();
    world.send(&mut model, Msg::Open { id, scenario: true });
    let run = world.run;
    world.send(&mut model, Msg::RunFinished { run });
    assert_eq!(model.entries.len(), 1);
}

#[test]
fn open_loads_the_runs_scenario_into_the_editor_and_says_so() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.finish_run(&mut model, record(Status::Done));
    let id = model.entries[0].id.clone();
    world.send(&mut model, Msg::Open { id, scenario: true });
    let (text, arrival) = world.editor.clone().unwrap();
    assert_eq!(text, scenario().name);
    assert_eq!(arrival, OPENED_SCENARIO);
}

#[test]
fn open_in_the_trace_leaves_the_editor_alone() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.finish_run(&mut model, record(Status::Done));
    let id = model.entries[0].id.clone();
    world.send(
        &mut model,
        Msg::Open {
            id: id.clone(),
            scenario: false,
        },
    );
    assert_eq!(world.editor, None);
    assert_eq!(model.opened_id(world.run), Some(id));
}

#[test]
fn a_scenario_that_arrives_after_another_run_started_stays_out_of_the_editor() {
    let mut model = HistoryModel::default();
    let cmds = model.update(Msg::Shown {
        run: 3,
        entry_id: "1".into(),
        scenario: Some(scenario()),
    });
    assert!(matches!(cmds[..], [Cmd::ScenarioText { run: 3, .. }]));
    let cmds = model.update(Msg::ScenarioText {
        run: 3,
        now_run: 4,
        text: "{}".into(),
    });
    assert!(cmds.is_empty(), "the newer run's scenario stays");
}

#[test]
fn a_run_whose_record_is_gone_says_it_cannot_be_opened() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.finish_run(&mut model, record(Status::Done));
    let id = model.entries[0].id.clone();
    world.records.clear();
    let run = world.run;
    world.send(&mut model, Msg::Open { id, scenario: true });
    assert_eq!(
        model.notice.as_deref(),
        Some("This kept run cannot be opened: its record is no longer in this browser's storage.")
    );
    assert_eq!(world.run, run, "the trace keeps what it showed");
    assert_eq!(model.entries.len(), 1, "the list keeps it");
}

#[test]
fn a_record_that_does_not_parse_says_why_it_cannot_be_opened() {
    let mut model = HistoryModel::default();
    model.update(Msg::RecordRead {
        id: "1".into(),
        purpose: Purpose::Open { scenario: true },
        record: Err(ReadFailure::Unparsable("line 1: not JSON".into())),
    });
    assert_eq!(
        model.notice.as_deref(),
        Some("This kept run cannot be opened: line 1: not JSON.")
    );
}

#[test]
fn opening_a_run_clears_an_old_storage_notice() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.finish_run(&mut model, record(Status::Done));
    model.notice = Some("old".into());
    let id = model.entries[0].id.clone();
    world.send(&mut model, Msg::Open { id, scenario: true });
    assert_eq!(model.notice, None);
}

// Deleting.

#[test]
fn delete_removes_the_run_its_record_and_its_line_in_the_list() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.finish_run(&mut model, record(Status::Done));
    world.finish_run(&mut model, record(Status::ModelError));
    let gone = model.entries[0].id.clone();
    world.send(&mut model, Msg::Delete(gone.clone()));
    assert_eq!(model.entries.len(), 1);
    assert!(!world.records.contains_key(&gone));
    assert_eq!(world.open_page().entries, model.entries, "a reload agrees");
}

#[test]
fn delete_all_empties_the_list_and_storage() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.finish_run(&mut model, record(Status::Done));
    world.finish_run(&mut model, record(Status::ModelError));
    world.send(&mut model, Msg::DeleteAll);
    assert!(model.entries.is_empty());
    assert!(world.records.is_empty());
    assert!(world.open_page().entries.is_empty());
}

#[test]
fn a_deletion_storage_does_not_save_says_so() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.finish_run(&mut model, record(Status::Done));
    world.refuse = Some(StoreError::Unavailable("gone".into()));
    let id = model.entries[0].id.clone();
    world.send(&mut model, Msg::Delete(id));
    assert_eq!(
        model.notice.as_deref(),
        Some("The deletion is not saved: storage is unavailable (gone).")
    );
}

// Files.

#[test]
fn export_says_what_the_file_holds() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.send(&mut model, Msg::Export(record(Status::Done)));
    assert_eq!(
        world.file_notice.as_deref(),
        Some("Saved run.jsonl: the scenario and the trace.")
    );
    world.send(&mut model, Msg::ExportOtel(record(Status::Done)));
    assert!(world
        .file_notice
        .unwrap()
        .starts_with("Saved run.otlp.json: OpenTelemetry"));
}

#[test]
fn an_export_the_browser_refuses_says_why() {
    let mut world = World::new();
    world.download_fails = Some("The browser refused the download.".into());
    let mut model = world.open_page();
    world.send(&mut model, Msg::Export(record(Status::Done)));
    assert_eq!(
        world.file_notice.as_deref(),
        Some("The browser refused the download.")
    );
}

#[test]
fn sending_to_a_collector_says_so_then_what_happened() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.send(
        &mut model,
        Msg::SendOtel {
            record: record(Status::Done),
            endpoint: " http://localhost:4318/v1/traces ".into(),
        },
    );
    assert_eq!(
        world.file_notice.as_deref(),
        Some("Sending the run to http://localhost:4318/v1/traces…")
    );
    world.send(&mut model, Msg::OtelSent(Err("connection refused".into())));
    assert_eq!(
        world.file_notice.as_deref(),
        Some("✗ Not sent: connection refused")
    );
    world.send(&mut model, Msg::OtelSent(Ok("Sent 3 spans.".into())));
    assert_eq!(world.file_notice.as_deref(), Some("Sent 3 spans."));
}

#[test]
fn a_broken_file_keeps_the_history_as_it_was_and_says_why() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.finish_run(&mut model, record(Status::Done));
    let before = model.entries.clone();
    let run = world.run;
    world.send(
        &mut model,
        Msg::RunFileRead {
            name: "bad.jsonl".into(),
            read: Err("line 1 is not JSON".into()),
        },
    );
    assert_eq!(model.entries, before);
    assert_eq!(world.run, run, "the trace keeps its run");
    assert_eq!(
        world.file_notice,
        Some(history::import_error("bad.jsonl", "line 1 is not JSON"))
    );
}

#[test]
fn an_imported_run_is_kept_shown_and_said_about_the_run_it_became() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.send(
        &mut model,
        Msg::RunFileRead {
            name: "run.jsonl".into(),
            read: Ok((
                record(Status::Done),
                vec!["Its costs are estimates.".into()],
            )),
        },
    );
    assert_eq!(model.entries.len(), 1);
    assert_eq!(model.entries[0].origin, Origin::Imported);
    assert_eq!(
        model.opened_id(world.run),
        Some(model.entries[0].id.clone())
    );
    assert_eq!(
        world.file_notice.as_deref(),
        Some("Imported run.jsonl (with its scenario): 1 events. Its costs are estimates.")
    );
    let run = world.run;
    world.send(&mut model, Msg::RunFinished { run });
    assert_eq!(model.entries.len(), 1, "not kept a second time");
}

#[test]
fn a_bare_trace_imported_is_said_to_have_no_scenario() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.send(
        &mut model,
        Msg::RunFileRead {
            name: "trace.jsonl".into(),
            read: Ok((bare(Status::Done), Vec::new())),
        },
    );
    assert_eq!(
        world.file_notice.as_deref(),
        Some("Imported trace.jsonl (a bare trace, without a scenario): 1 events.")
    );
    assert_eq!(world.editor, None, "no scenario to load");
}

#[test]
fn a_file_that_cannot_be_read_is_named() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.send(
        &mut model,
        Msg::ImportUnreadable {
            name: "big.jsonl".into(),
            why: "too large".into(),
        },
    );
    assert_eq!(
        world.file_notice,
        Some(history::import_error("big.jsonl", "too large"))
    );
}

#[test]
fn import_reads_the_file_against_the_run_in_view() {
    let mut model = HistoryModel::default();
    let cmds = model.update(Msg::Import {
        name: "body.json".into(),
        text: "{}".into(),
        in_view: record(Status::Done),
    });
    assert!(
        matches!(&cmds[..], [Cmd::ReadRunFile { name, in_view, .. }] if name == "body.json" && in_view.events.len() == 1)
    );
}

// Replaying the run in view.

fn replayed(outcome: ReplayOutcome) -> HistoryModel {
    let mut model = HistoryModel::default();
    model.update(Msg::Replay {
        run: 2,
        record: record(Status::Done),
        text: scenario_text(),
    });
    model.update(Msg::Replayed {
        run: 2,
        now_run: 2,
        outcome,
    });
    model
}

#[test]
fn a_replay_is_under_way_until_its_verdict_comes() {
    let mut model = HistoryModel::default();
    model.update(Msg::Replay {
        run: 2,
        record: record(Status::Done),
        text: scenario_text(),
    });
    assert!(model.replaying);
    let view = ReplayView {
        passed: true,
        summary: "Replay passed".into(),
        rows: Vec::new(),
    };
    model.update(Msg::Replayed {
        run: 2,
        now_run: 2,
        outcome: ReplayOutcome::Done(view.clone()),
    });
    assert!(!model.replaying);
    assert_eq!(model.verdict(2), Some(Ok(view)));
}

#[test]
fn a_verdict_about_a_run_no_longer_in_view_is_dropped() {
    let mut model = HistoryModel::default();
    model.update(Msg::Replay {
        run: 2,
        record: record(Status::Done),
        text: scenario_text(),
    });
    model.update(Msg::Replayed {
        run: 2,
        now_run: 3,
        outcome: ReplayOutcome::CannotRun(vec!["x".into()]),
    });
    assert!(!model.replaying, "the button is free again");
    assert_eq!(model.verdict(2), None);
    assert_eq!(model.verdict(3), None);
}

#[test]
fn a_verdict_shows_only_while_its_run_is_in_view() {
    let model = replayed(ReplayOutcome::CannotRun(vec!["x".into()]));
    assert!(model.verdict(2).is_some());
    assert_eq!(model.verdict(5), None);
}

#[test]
fn a_scenario_that_does_not_load_is_the_replays_answer() {
    let model = replayed(ReplayOutcome::DoesNotLoad(vec!["a".into(), "b".into()]));
    assert_eq!(
        model.verdict(2),
        Some(Err("The scenario in the editor does not load: a; b".into()))
    );
}

#[test]
fn servers_out_of_reach_are_the_replays_answer() {
    let model = replayed(ReplayOutcome::McpUnreachable(vec!["refused".into()]));
    assert_eq!(
        model.verdict(2),
        Some(Err("The MCP servers could not be reached: refused".into()))
    );
}

#[test]
fn a_scenario_that_cannot_run_is_the_replays_answer() {
    let model = replayed(ReplayOutcome::CannotRun(vec!["no tools".into()]));
    assert_eq!(
        model.verdict(2),
        Some(Err("The scenario in the editor cannot run: no tools".into()))
    );
}

#[test]
fn the_replay_calls_the_servers_again_only_when_asked() {
    let mut model = HistoryModel::default();
    let ask = |model: &mut HistoryModel| {
        let cmds = model.update(Msg::Replay {
            run: 1,
            record: record(Status::Done),
            text: String::new(),
        });
        matches!(cmds[..], [Cmd::Replay { call_mcp: true, .. }])
    };
    assert!(!ask(&mut model));
    model.update(Msg::SetCallMcp(true));
    assert!(model.call_mcp);
    assert!(ask(&mut model));
}

// Replay all.

/// A history of `n` kept runs of the get-time scenario and one of another.
fn kept(n: usize) -> (World, HistoryModel) {
    let mut world = World::new();
    let mut model = world.open_page();
    for _ in 0..n {
        world.finish_run(&mut model, record(Status::Done));
    }
    let mut other = record(Status::Done);
    other.scenario.as_mut().unwrap().name = "another".into();
    world.finish_run(&mut model, other);
    (world, model)
}

fn batch(model: &HistoryModel) -> Batch {
    model.batch.clone().unwrap().unwrap()
}

#[test]
fn replay_all_replays_every_kept_run_of_the_scenario_into_a_row() {
    let (mut world, mut model) = kept(3);
    let failing = model.entries[1].id.clone();
    world
        .verdicts
        .insert(failing.clone(), Verdict::Fail("turns: 2 ≠ 3".into()));
    world.send(
        &mut model,
        Msg::ReplayAll {
            text: scenario_text(),
        },
    );
    let batch = batch(&model);
    assert_eq!((batch.total, batch.kept), (3, 4));
    assert_eq!(batch.rows.len(), 3);
    assert_eq!(batch.status_line(), "3 kept runs replayed: 2 pass, 1 fail");
    assert!(!model.batch_busy && !model.batch_running());
}

#[test]
fn replay_all_shows_its_progress_a_run_at_a_time() {
    let (mut world, mut model) = kept(2);
    world.hold_frames = true;
    world.send(
        &mut model,
        Msg::ReplayAll {
            text: scenario_text(),
        },
    );
    assert!(model.batch_running());
    assert_eq!(batch(&model).status_line(), "Replaying 1 of 2…");
    world.take_held(|c| matches!(c, Cmd::NextFrame));
    world.send(&mut model, Msg::Frame);
    assert_eq!(batch(&model).status_line(), "Replaying 2 of 2…");
}

#[test]
fn a_second_press_while_replaying_all_starts_nothing() {
    let (mut world, mut model) = kept(2);
    world.hold_frames = true;
    world.send(
        &mut model,
        Msg::ReplayAll {
            text: scenario_text(),
        },
    );
    assert!(model.batch_busy);
    assert!(model
        .update(Msg::ReplayAll {
            text: scenario_text()
        })
        .is_empty());
}

#[test]
fn stop_ends_replay_all_before_its_next_run() {
    let (mut world, mut model) = kept(3);
    world.hold_frames = true;
    world.send(
        &mut model,
        Msg::ReplayAll {
            text: scenario_text(),
        },
    );
    world.take_held(|c| matches!(c, Cmd::NextFrame));
    world.send(&mut model, Msg::Frame);
    world.send(&mut model, Msg::StopReplayAll);
    world.take_held(|c| matches!(c, Cmd::NextFrame));
    world.send(&mut model, Msg::Frame);
    let batch = batch(&model);
    assert!(batch.stopped && !batch.running);
    assert_eq!(batch.rows.len(), 1);
    assert!(
        batch
            .status_line()
            .starts_with("Stopped after 1 of 3 kept runs"),
        "{}",
        batch.status_line()
    );
    assert!(!model.batch_busy, "Replay all can be pressed again");
}

#[test]
fn a_stop_after_the_last_run_is_no_stop() {
    let (mut world, mut model) = kept(1);
    world.hold_frames = true;
    world.send(
        &mut model,
        Msg::ReplayAll {
            text: scenario_text(),
        },
    );
    world.take_held(|c| matches!(c, Cmd::NextFrame));
    world.send(&mut model, Msg::Frame);
    world.send(&mut model, Msg::StopReplayAll);
    world.take_held(|c| matches!(c, Cmd::NextFrame));
    world.send(&mut model, Msg::Frame);
    assert!(!batch(&model).stopped);
}

#[test]
fn replay_all_again_after_a_stop_runs_to_the_end() {
    let (mut world, mut model) = kept(2);
    world.send(&mut model, Msg::StopReplayAll);
    world.send(
        &mut model,
        Msg::ReplayAll {
            text: scenario_text(),
        },
    );
    assert_eq!(batch(&model).rows.len(), 2);
    assert!(!batch(&model).stopped);
}

#[test]
fn a_kept_run_whose_record_is_gone_is_a_row_that_says_why() {
    let (mut world, mut model) = kept(2);
    let gone = model.entries[1].id.clone();
    world.records.remove(&gone);
    world.send(
        &mut model,
        Msg::ReplayAll {
            text: scenario_text(),
        },
    );
    let batch = batch(&model);
    let row = batch.rows.iter().find(|r| r.id == gone).unwrap();
    assert_eq!(
        row.verdict,
        Verdict::NotReplayed(
            "its record cannot be read: its record is no longer in this browser's storage".into()
        )
    );
    assert_eq!(
        batch.status_line(),
        "2 kept runs checked: 1 pass, 0 fail, 1 could not be replayed"
    );
}

#[test]
fn a_kept_run_the_scenario_cannot_run_is_a_row_that_says_why() {
    let (mut world, mut model) = kept(1);
    world.hold_frames = true;
    world.send(
        &mut model,
        Msg::ReplayAll {
            text: scenario_text(),
        },
    );
    world.take_held(|c| matches!(c, Cmd::NextFrame));
    let cmds = model.update(Msg::Frame);
    let Some(Cmd::ReadRecord { id, .. }) = cmds.into_iter().next() else {
        panic!("reads the kept run");
    };
    model.update(Msg::KeptReplayed {
        id,
        verdict: Err(vec!["no such tool".into()]),
    });
    assert_eq!(
        batch(&model).rows[0].verdict,
        Verdict::NotReplayed("the scenario in the editor cannot run: no such tool".into())
    );
}

#[test]
fn replay_all_with_a_scenario_that_does_not_load_replays_nothing_and_says_why() {
    let (mut world, mut model) = kept(1);
    world.send(&mut model, Msg::ReplayAll { text: "{".into() });
    let said = model.batch.clone().unwrap().unwrap_err();
    assert!(
        said.starts_with("The scenario in the editor does not load, so nothing was replayed:"),
        "{said}"
    );
    assert!(!model.batch_busy);
}

#[test]
fn replay_all_with_no_kept_run_of_the_scenario_says_what_it_looked_for() {
    let (mut world, mut model) = kept(0);
    world.send(
        &mut model,
        Msg::ReplayAll {
            text: scenario_text(),
        },
    );
    assert_eq!(
        model.batch.clone().unwrap(),
        Err(replay_all::found_text(&scenario().name, 0, 1))
    );
    assert!(!model.batch_busy);
}

#[test]
fn replay_all_reads_a_run_kept_only_in_memory_from_memory() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.refuse = Some(StoreError::Full);
    world.finish_run(&mut model, record(Status::Done));
    world.send(
        &mut model,
        Msg::ReplayAll {
            text: scenario_text(),
        },
    );
    assert_eq!(batch(&model).rows[0].verdict, Verdict::Pass);
}
