//! The history model driven through its messages, with a stand-in for the
//! page around it: storage as a map, the trace as the record shown, the
//! editor as its text. Commands whose answer a test wants to time (a
//! replay, a frame, a file read) are held until the test answers them.

use std::collections::{BTreeMap, VecDeque};

use harness::event::{EventKind, Outcome, RunEvent, Status};
use harness::scenario::Scenario;

use super::*;

pub(crate) fn scenario() -> Scenario {
    Scenario::load(harness::library::find("get-time").unwrap().json()).unwrap()
}

pub(crate) fn record(status: Status) -> Record {
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

pub(crate) fn bare(status: Status) -> Record {
    Record {
        scenario: None,
        ..record(status)
    }
}

/// The page around the model, as plain data (shared with the replays' tests).
#[derive(Default)]
pub(crate) struct World {
    pub(crate) records: BTreeMap<String, String>,
    pub(crate) index: Option<String>,
    /// Storage refuses every write with this.
    pub(crate) refuse: Option<StoreError>,
    /// The run in view and its record.
    pub(crate) run: u64,
    pub(crate) trace: Option<Record>,
    pub(crate) editor: Option<(String, String)>,
    pub(crate) file_notice: Option<String>,
    pub(crate) clock: f64,
    /// Commands held for the test to answer.
    pub(crate) held: Vec<Cmd>,
}

impl World {
    pub(crate) fn new() -> Self {
        World {
            clock: 1_000.0,
            ..Default::default()
        }
    }

    /// The history as it opens in this world's storage.
    pub(crate) fn open_page(&mut self) -> HistoryModel {
        let mut model = HistoryModel::restored(Ok(self.index.clone()), self.clock);
        self.send(&mut model, Msg::PageOpened);
        self.held.clear(); // the clock
        model
    }

    /// A run that finished in view, kept as it would be.
    pub(crate) fn finish_run(&mut self, model: &mut HistoryModel, record: Record) {
        self.run += 1;
        self.trace = Some(record);
        let run = self.run;
        self.send(model, Msg::RunFinished { run });
    }

    pub(crate) fn send(&mut self, model: &mut HistoryModel, msg: Msg) {
        let mut queue = VecDeque::from([msg]);
        while let Some(msg) = queue.pop_front() {
            for cmd in model.update(msg) {
                queue.extend(self.perform(cmd));
            }
        }
    }

    fn perform(&mut self, cmd: Cmd) -> Option<Msg> {
        match cmd {
            Cmd::KeepRunInView => Some(Msg::Keep {
                record: self.trace.clone().unwrap(),
                origin: Origin::Run,
            }),
            Cmd::WriteOut { entry, record } => {
                self.clock += 1_000.0;
                Some(Msg::WrittenOut {
                    entry,
                    text: record.to_jsonl(),
                    now_ms: self.clock,
                })
            }
            Cmd::Persist {
                entry,
                text,
                index,
                evict,
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
            held => {
                self.held.push(held);
                None
            }
        }
    }
}

pub(crate) fn scenario_text() -> String {
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
        });
        let Some(Cmd::Persist {
            entry, text, evict, ..
        }) = cmds.into_iter().next()
        else {
            panic!("a record within the budget is stored");
        };
        model.update(Msg::Persisted {
            entry,
            text,
            evict,
            outcome: Ok(()),
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
fn a_record_over_the_budget_is_not_stored_and_its_size_is_said() {
    let mut model = HistoryModel::default();
    let entry = history::summarize(&record(Status::Done), String::new(), 0.0, 0, Origin::Run);
    let cmds = model.update(Msg::WrittenOut {
        entry,
        text: "x".repeat(history::BUDGET_BYTES + 1),
        now_ms: 1.0,
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
    });
    let Some(Cmd::Persist {
        entry,
        text,
        evict,
        index,
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
    });
    let Some(Cmd::Persist {
        entry, text, evict, ..
    }) = cmds.into_iter().next()
    else {
        panic!("asked to store");
    };
    model.update(Msg::Persisted {
        entry,
        text,
        evict,
        outcome: Err(StoreError::Full),
    });
    assert_eq!(model.entries.len(), 2, "the old run is still listed");
    assert!(model.entries[1].stored);
}

#[test]
fn a_run_shown_from_a_record_is_not_kept_when_its_end_is_seen() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.send(&mut model, Msg::Shown { run: 4 });
    world.run = 3;
    world.finish_run(&mut model, record(Status::Done));
    assert!(model.entries.is_empty(), "run 4 is the shown record");
    world.finish_run(&mut model, record(Status::Done));
    assert_eq!(model.entries.len(), 1, "run 5 ran here and is kept");
}

#[test]
fn a_kept_run_in_memory_goes_with_its_deletion() {
    let mut world = World::new();
    let mut model = world.open_page();
    world.refuse = Some(StoreError::Full);
    world.finish_run(&mut model, record(Status::Done));
    let id = model.entries[0].id.clone();
    assert!(model.memory_text(&id).is_some());
    world.refuse = None;
    world.send(&mut model, Msg::Delete(id.clone()));
    assert_eq!(model.memory_text(&id), None);
    assert!(model.entries.is_empty());
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
