//! The opening model driven through its messages, beside the kept runs'
//! model in the page stand-in of `history::model`'s tests: the trace is the
//! record shown (a new run id each time), the editor its text and the line
//! above it, an imported run is kept as the page keeps it.

use std::collections::VecDeque;

use harness::event::Status;

use super::*;
use crate::history::model::tests::{bare, record, scenario, World};
use crate::history::model::{HistoryModel, Msg};
use crate::history::StoreError;

/// The kept runs (in `world` and `kept`) and their opening.
struct Page {
    world: World,
    kept: HistoryModel,
    opening: OpeningModel,
    /// Scenario texts asked for and not answered yet.
    held: Vec<OpenCmd>,
    /// Hold the scenario's text, so a test can start another run first.
    hold_scenario_text: bool,
}

impl Page {
    /// A page with one kept run (`kept_id`).
    fn with_a_kept_run() -> Page {
        let mut world = World::new();
        let mut kept = world.open_page();
        world.finish_run(&mut kept, record(Status::Done));
        Page {
            world,
            kept,
            opening: OpeningModel::default(),
            held: Vec::new(),
            hold_scenario_text: false,
        }
    }

    fn empty() -> Page {
        let mut world = World::new();
        let kept = world.open_page();
        Page {
            world,
            kept,
            opening: OpeningModel::default(),
            held: Vec::new(),
            hold_scenario_text: false,
        }
    }

    fn kept_id(&self) -> String {
        self.kept.entries()[0].id.clone()
    }

    fn open(&mut self, scenario: bool) {
        let id = self.kept_id();
        self.send(OpenMsg::Open { id, scenario });
    }

    fn import(&mut self, name: &str, read: Result<(Record, Vec<String>), String>) {
        let name = name.to_string();
        self.send(OpenMsg::RunFileRead { name, read });
    }

    fn opened_now(&self) -> Option<&str> {
        self.opening.opened_id(self.world.run)
    }

    fn send(&mut self, msg: OpenMsg) {
        let mut queue = VecDeque::from([msg]);
        while let Some(msg) = queue.pop_front() {
            for cmd in self.opening.update(msg) {
                queue.extend(self.perform(cmd));
            }
        }
    }

    fn perform(&mut self, cmd: OpenCmd) -> Option<OpenMsg> {
        match cmd {
            OpenCmd::ReadRecord { id, scenario } => {
                let text = self
                    .kept
                    .memory_text(&id)
                    .or_else(|| self.world.records.get(&id).cloned());
                let record = match text {
                    None => Err(ReadFailure::Gone),
                    Some(text) => Record::from_jsonl(&text)
                        .map_err(|e| ReadFailure::Unparsable(e.to_string())),
                };
                Some(OpenMsg::RecordRead {
                    id,
                    scenario,
                    record,
                })
            }
            OpenCmd::Say(notice) => {
                self.world.send(&mut self.kept, Msg::Say(notice));
                None
            }
            OpenCmd::ShowInTrace {
                record,
                entry_id,
                load_scenario,
            } => {
                self.world.run += 1;
                let run = self.world.run;
                self.world.trace = Some(record.clone());
                self.world.send(&mut self.kept, Msg::Shown { run });
                Some(OpenMsg::Shown {
                    run,
                    entry_id,
                    scenario: record.scenario.filter(|_| load_scenario),
                })
            }
            OpenCmd::ScenarioText { run, scenario } if !self.hold_scenario_text => {
                Some(OpenMsg::ScenarioText {
                    run,
                    now_run: self.world.run,
                    text: scenario.name,
                })
            }
            OpenCmd::LoadEditor(text) => {
                self.world.editor = Some((text, OPENED_SCENARIO.to_string()));
                None
            }
            OpenCmd::Keep {
                entry,
                record,
                said,
            } => {
                self.world.clock += 1_000.0;
                let msg = Msg::WrittenOut {
                    entry,
                    text: record.to_jsonl(),
                    now_ms: self.world.clock,
                };
                self.world.send(&mut self.kept, msg);
                Some(OpenMsg::Kept {
                    id: self.kept_id(),
                    record: Box::new(record),
                    said,
                })
            }
            OpenCmd::FileNotice(said) => {
                self.world.file_notice = Some(said);
                None
            }
            held => {
                self.held.push(held);
                None
            }
        }
    }
}

// Opening.

#[test]
fn open_shows_the_run_and_marks_it_open_while_it_is_in_view() {
    let mut page = Page::with_a_kept_run();
    let id = page.kept_id();
    page.open(true);
    assert_eq!(page.opened_now(), Some(id.as_str()));
    assert_eq!(
        page.opening.opened_id(page.world.run + 1),
        None,
        "another run in view"
    );
}

#[test]
fn an_opened_run_is_not_kept_twice() {
    let mut page = Page::with_a_kept_run();
    page.open(true);
    let run = page.world.run;
    page.world.send(&mut page.kept, Msg::RunFinished { run });
    assert_eq!(page.kept.entries().len(), 1);
}

#[test]
fn open_loads_the_runs_scenario_into_the_editor_and_says_so() {
    let mut page = Page::with_a_kept_run();
    page.open(true);
    let (text, arrival) = page.world.editor.clone().unwrap();
    assert_eq!(text, scenario().name);
    assert_eq!(arrival, OPENED_SCENARIO);
}

#[test]
fn open_in_the_trace_leaves_the_editor_alone() {
    let mut page = Page::with_a_kept_run();
    let id = page.kept_id();
    page.open(false);
    assert_eq!(page.world.editor, None);
    assert_eq!(page.opened_now(), Some(id.as_str()));
}

#[test]
fn a_scenario_that_arrives_after_another_run_started_stays_out_of_the_editor() {
    let mut page = Page::with_a_kept_run();
    page.hold_scenario_text = true;
    page.open(true);
    let Some(OpenCmd::ScenarioText { run, scenario }) = page.held.pop() else {
        panic!("the scenario's text is asked for");
    };
    // A new run starts before the text arrives.
    page.world.run += 1;
    let now_run = page.world.run;
    page.send(OpenMsg::ScenarioText {
        run,
        now_run,
        text: scenario.name,
    });
    assert_eq!(page.world.editor, None, "the newer run's scenario stays");
}

#[test]
fn a_run_storage_refused_still_opens_from_this_pages_memory() {
    let mut world = World::new();
    let mut kept = world.open_page();
    world.refuse = Some(StoreError::Full);
    world.finish_run(&mut kept, record(Status::Done));
    let mut page = Page {
        world,
        kept,
        opening: OpeningModel::default(),
        held: Vec::new(),
        hold_scenario_text: false,
    };
    let id = page.kept_id();
    page.open(false);
    assert_eq!(page.opened_now(), Some(id.as_str()));
}

#[test]
fn a_run_whose_record_is_gone_says_it_cannot_be_opened() {
    let mut page = Page::with_a_kept_run();
    page.world.records.clear();
    let run = page.world.run;
    page.open(true);
    assert_eq!(
        page.kept.notice().map(String::as_str),
        Some("This kept run cannot be opened: its record is no longer in this browser's storage.")
    );
    assert_eq!(page.world.run, run, "the trace keeps what it showed");
    assert_eq!(page.kept.entries().len(), 1, "the list keeps it");
    assert_eq!(page.opened_now(), None);
}

#[test]
fn a_record_that_does_not_parse_says_why_it_cannot_be_opened() {
    let mut page = Page::with_a_kept_run();
    let id = page.kept_id();
    page.send(OpenMsg::RecordRead {
        id,
        scenario: true,
        record: Err(ReadFailure::Unparsable("line 1: not JSON".into())),
    });
    assert_eq!(
        page.kept.notice().map(String::as_str),
        Some("This kept run cannot be opened: line 1: not JSON.")
    );
}

#[test]
fn storage_out_of_reach_says_why_a_run_cannot_be_opened() {
    let mut page = Page::with_a_kept_run();
    let id = page.kept_id();
    page.send(OpenMsg::RecordRead {
        id,
        scenario: true,
        record: Err(ReadFailure::Storage(StoreError::Unavailable(
            "SecurityError: denied".into(),
        ))),
    });
    assert_eq!(
        page.kept.notice().map(String::as_str),
        Some("This kept run cannot be opened: storage is unavailable (SecurityError: denied).")
    );
}

#[test]
fn opening_a_run_clears_an_old_storage_notice() {
    let mut page = Page::with_a_kept_run();
    page.world
        .send(&mut page.kept, Msg::Say(Some("old".into())));
    page.open(true);
    assert_eq!(page.kept.notice(), None);
}

#[test]
fn a_run_opened_later_is_the_one_marked_open() {
    let mut page = Page::with_a_kept_run();
    page.world.finish_run(&mut page.kept, record(Status::Done));
    let (newer, older) = (
        page.kept.entries()[0].id.clone(),
        page.kept.entries()[1].id.clone(),
    );
    page.send(OpenMsg::Open {
        id: older,
        scenario: false,
    });
    page.send(OpenMsg::Open {
        id: newer.clone(),
        scenario: false,
    });
    assert_eq!(page.opened_now(), Some(newer.as_str()));
}

// Importing.

#[test]
fn a_broken_file_keeps_the_history_as_it_was_and_says_why() {
    let mut page = Page::with_a_kept_run();
    let before = page.kept.entries().to_vec();
    let run = page.world.run;
    page.import("bad.jsonl", Err("line 1 is not JSON".into()));
    assert_eq!(page.kept.entries(), before.as_slice());
    assert_eq!(page.world.run, run, "the trace keeps its run");
    assert_eq!(
        page.world.file_notice,
        Some(history::import_error("bad.jsonl", "line 1 is not JSON"))
    );
}

#[test]
fn an_imported_run_is_kept_shown_and_said_about_the_run_it_became() {
    let mut page = Page::empty();
    page.import(
        "run.jsonl",
        Ok((
            record(Status::Done),
            vec!["Its costs are estimates.".into()],
        )),
    );
    assert_eq!(page.kept.entries().len(), 1);
    assert_eq!(page.kept.entries()[0].origin, Origin::Imported);
    let id = page.kept_id();
    assert_eq!(page.opened_now(), Some(id.as_str()));
    assert_eq!(
        page.world.file_notice.as_deref(),
        Some("Imported run.jsonl (with its scenario): 1 events. Its costs are estimates.")
    );
    let run = page.world.run;
    page.world.send(&mut page.kept, Msg::RunFinished { run });
    assert_eq!(page.kept.entries().len(), 1, "not kept a second time");
}

#[test]
fn an_imported_run_loads_its_scenario_into_the_editor() {
    let mut page = Page::empty();
    page.import("run.jsonl", Ok((record(Status::Done), Vec::new())));
    let (text, _) = page.world.editor.clone().unwrap();
    assert_eq!(text, scenario().name);
}

#[test]
fn an_imported_run_storage_refuses_is_still_shown_and_listed_for_this_page() {
    let mut page = Page::empty();
    page.world.refuse = Some(StoreError::Full);
    page.import("run.jsonl", Ok((record(Status::Done), Vec::new())));
    let entry = &page.kept.entries()[0];
    assert!(!entry.stored);
    assert_eq!(page.opened_now(), Some(entry.id.as_str()));
    assert!(page
        .kept
        .notice()
        .unwrap()
        .contains("storage for this page is full"));
}

#[test]
fn a_bare_trace_imported_is_said_to_have_no_scenario() {
    let mut page = Page::empty();
    page.import("trace.jsonl", Ok((bare(Status::Done), Vec::new())));
    assert_eq!(
        page.world.file_notice.as_deref(),
        Some("Imported trace.jsonl (a bare trace, without a scenario): 1 events.")
    );
    assert_eq!(page.world.editor, None, "no scenario to load");
}

#[test]
fn a_file_that_cannot_be_read_is_named() {
    let mut page = Page::empty();
    page.send(OpenMsg::ImportUnreadable {
        name: "big.jsonl".into(),
        why: "too large".into(),
    });
    assert_eq!(
        page.world.file_notice,
        Some(history::import_error("big.jsonl", "too large"))
    );
    assert!(page.kept.entries().is_empty());
}

#[test]
fn import_reads_the_file_against_the_run_in_view() {
    let mut model = OpeningModel::default();
    let cmds = model.update(OpenMsg::Import {
        name: "body.json".into(),
        text: "{}".into(),
        in_view: record(Status::Done),
    });
    assert!(
        matches!(&cmds[..], [OpenCmd::ReadRunFile { name, in_view, .. }] if name == "body.json" && in_view.events.len() == 1)
    );
}
