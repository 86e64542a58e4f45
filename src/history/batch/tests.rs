//! "Replay all" driven through its messages, beside the kept runs' model
//! in the page stand-in of `history::model`'s tests: the engine loads a
//! scenario natively, a kept run replays to the verdict the test set for it
//! (a pass otherwise), and frames can be held so a test can press Stop
//! between kept runs.

use std::collections::{BTreeMap, VecDeque};

use harness::event::Status;

use super::*;
use crate::history::model::tests::{record, scenario, scenario_text, World};
use crate::history::model::HistoryModel;
use crate::history::StoreError;
use crate::run::view_model;

/// The kept runs (in `world` and `kept`) and "Replay all".
struct Page {
    world: World,
    kept: HistoryModel,
    batch: BatchModel,
    /// Hold frames, so a test can press Stop between kept runs.
    hold_frames: bool,
    /// Kept runs' replay verdicts by id (a pass otherwise).
    verdicts: BTreeMap<String, Verdict>,
    /// Commands held for the test to answer.
    held: Vec<BatchCmd>,
}

impl Page {
    /// A page with `n` kept runs of the get-time scenario and one of another.
    fn with_kept(n: usize) -> Page {
        let mut world = World::new();
        let mut kept = world.open_page();
        for _ in 0..n {
            world.finish_run(&mut kept, record(Status::Done));
        }
        let mut other = record(Status::Done);
        other.scenario.as_mut().unwrap().name = "another".into();
        world.finish_run(&mut kept, other);
        Page {
            world,
            kept,
            batch: BatchModel::default(),
            hold_frames: false,
            verdicts: BTreeMap::new(),
            held: Vec::new(),
        }
    }

    fn id(&self, at: usize) -> String {
        self.kept.entries()[at].id.clone()
    }

    fn send(&mut self, msg: BatchMsg) {
        let mut queue = VecDeque::from([msg]);
        while let Some(msg) = queue.pop_front() {
            for cmd in self.batch.update(msg) {
                queue.extend(self.perform(cmd));
            }
        }
    }

    fn press_replay_all(&mut self) {
        self.send(BatchMsg::ReplayAll {
            text: scenario_text(),
        });
    }

    /// Answers the held frame.
    fn frame(&mut self) {
        let at = self
            .held
            .iter()
            .position(|c| matches!(c, BatchCmd::NextFrame))
            .expect("a frame awaited");
        self.held.remove(at);
        self.send(BatchMsg::Frame);
    }

    fn perform(&mut self, cmd: BatchCmd) -> Option<BatchMsg> {
        match cmd {
            BatchCmd::LoadScenario(text) => Some(BatchMsg::ScenarioLoaded(
                Scenario::load(&text)
                    .map(|scenario| (scenario, self.kept.entries().to_vec()))
                    .map_err(|p| view_model::problem_lines(&p)),
            )),
            BatchCmd::NextFrame if !self.hold_frames => Some(BatchMsg::Frame),
            BatchCmd::ReadKept(id) => {
                let text = self
                    .kept
                    .memory_text(&id)
                    .or_else(|| self.world.records.get(&id).cloned());
                let record = match text {
                    None => Err(ReadFailure::Gone),
                    Some(text) => Record::from_jsonl(&text)
                        .map_err(|e| ReadFailure::Unparsable(e.to_string())),
                };
                Some(BatchMsg::KeptRead { id, record })
            }
            BatchCmd::ReplayKept { id, .. } => {
                let verdict = self.verdicts.get(&id).cloned().unwrap_or(Verdict::Pass);
                Some(BatchMsg::KeptReplayed {
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

    fn batch(&self) -> Batch {
        self.batch.batch().cloned().unwrap().unwrap()
    }
}

#[test]
fn replay_all_replays_every_kept_run_of_the_scenario_into_a_row() {
    let mut page = Page::with_kept(3);
    let failing = page.id(2);
    page.verdicts
        .insert(failing.clone(), Verdict::Fail("turns: 2 ≠ 3".into()));
    page.press_replay_all();
    let batch = page.batch();
    assert_eq!((batch.total, batch.kept), (3, 4));
    assert_eq!(batch.rows.len(), 3);
    assert_eq!(batch.status_line(), "3 kept runs replayed: 2 pass, 1 fail");
    assert!(!page.batch.busy() && !batch.running);
}

#[test]
fn replay_all_rows_are_in_the_lists_order_with_how_each_run_ended() {
    let mut page = Page::with_kept(2);
    page.press_replay_all();
    let ids: Vec<String> = page.batch().rows.iter().map(|r| r.id.clone()).collect();
    // The other scenario's run is the newest, first in the list.
    assert_eq!(ids, vec![page.id(1), page.id(2)]);
    assert!(page.batch().rows.iter().all(|r| r.original == "done"));
}

#[test]
fn replay_all_shows_its_progress_a_run_at_a_time() {
    let mut page = Page::with_kept(2);
    page.hold_frames = true;
    page.press_replay_all();
    assert!(page.batch().running);
    assert_eq!(page.batch().status_line(), "Replaying 1 of 2…");
    page.frame();
    assert_eq!(page.batch().status_line(), "Replaying 2 of 2…");
    page.frame();
    page.frame();
    assert_eq!(
        page.batch().status_line(),
        "2 kept runs replayed: 2 pass, 0 fail"
    );
}

#[test]
fn a_second_press_while_replaying_all_starts_nothing() {
    let mut page = Page::with_kept(2);
    page.hold_frames = true;
    page.press_replay_all();
    assert!(page.batch.busy());
    assert!(page
        .batch
        .update(BatchMsg::ReplayAll {
            text: scenario_text()
        })
        .is_empty());
}

#[test]
fn a_second_press_while_the_scenario_loads_starts_nothing() {
    let mut model = BatchModel::default();
    let cmds = model.update(BatchMsg::ReplayAll {
        text: scenario_text(),
    });
    assert!(matches!(cmds[..], [BatchCmd::LoadScenario(_)]));
    assert!(model.busy(), "leaving the page would ask first");
    assert!(model
        .update(BatchMsg::ReplayAll {
            text: scenario_text()
        })
        .is_empty());
}

#[test]
fn stop_ends_replay_all_before_its_next_run() {
    let mut page = Page::with_kept(3);
    page.hold_frames = true;
    page.press_replay_all();
    page.frame();
    page.send(BatchMsg::Stop);
    page.frame();
    let batch = page.batch();
    assert!(batch.stopped && !batch.running);
    assert_eq!(batch.rows.len(), 1);
    assert!(
        batch
            .status_line()
            .starts_with("Stopped after 1 of 3 kept runs"),
        "{}",
        batch.status_line()
    );
    assert!(!page.batch.busy(), "Replay all can be pressed again");
    assert!(page.held.is_empty(), "nothing more is replayed");
}

#[test]
fn a_stop_after_the_last_run_is_no_stop() {
    let mut page = Page::with_kept(1);
    page.hold_frames = true;
    page.press_replay_all();
    page.frame();
    page.send(BatchMsg::Stop);
    page.frame();
    assert!(!page.batch().stopped);
    assert!(!page.batch().running);
}

#[test]
fn replay_all_again_after_a_stop_runs_to_the_end() {
    let mut page = Page::with_kept(2);
    page.send(BatchMsg::Stop);
    page.press_replay_all();
    assert_eq!(page.batch().rows.len(), 2);
    assert!(!page.batch().stopped);
}

#[test]
fn a_new_replay_all_starts_a_new_table() {
    let mut page = Page::with_kept(2);
    page.press_replay_all();
    page.press_replay_all();
    assert_eq!(page.batch().rows.len(), 2, "not four");
}

#[test]
fn a_kept_run_whose_record_is_gone_is_a_row_that_says_why() {
    let mut page = Page::with_kept(2);
    let gone = page.id(2);
    page.world.records.remove(&gone);
    page.press_replay_all();
    let batch = page.batch();
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
fn a_kept_run_storage_refuses_to_read_is_a_row_that_names_storage() {
    let mut page = Page::with_kept(1);
    page.hold_frames = true;
    page.press_replay_all();
    page.held.clear();
    let id = page.id(1);
    page.send(BatchMsg::KeptRead {
        id,
        record: Err(ReadFailure::Storage(StoreError::Unavailable(
            "SecurityError: denied".into(),
        ))),
    });
    assert_eq!(
        page.batch().rows[0].verdict,
        Verdict::NotReplayed(
            "its record cannot be read: storage is unavailable (SecurityError: denied)".into()
        )
    );
}

#[test]
fn a_kept_run_the_scenario_cannot_run_is_a_row_that_says_why() {
    let mut page = Page::with_kept(1);
    page.hold_frames = true;
    page.press_replay_all();
    page.held.clear();
    let cmds = page.batch.update(BatchMsg::Frame);
    let Some(BatchCmd::ReadKept(id)) = cmds.into_iter().next() else {
        panic!("reads the kept run");
    };
    page.batch.update(BatchMsg::KeptReplayed {
        id,
        verdict: Err(vec!["no such tool".into()]),
    });
    assert_eq!(
        page.batch().rows[0].verdict,
        Verdict::NotReplayed("the scenario in the editor cannot run: no such tool".into())
    );
}

#[test]
fn replay_all_with_a_scenario_that_does_not_load_replays_nothing_and_says_why() {
    let mut page = Page::with_kept(1);
    page.send(BatchMsg::ReplayAll { text: "{".into() });
    let said = page.batch.batch().cloned().unwrap().unwrap_err();
    assert!(
        said.starts_with("The scenario in the editor does not load, so nothing was replayed:"),
        "{said}"
    );
    assert!(!page.batch.busy());
}

#[test]
fn replay_all_with_no_kept_run_of_the_scenario_says_what_it_looked_for() {
    let mut page = Page::with_kept(0);
    page.press_replay_all();
    assert_eq!(
        page.batch.batch().cloned().unwrap(),
        Err(replay_all::found_text(&scenario().name, 0, 1))
    );
    assert!(!page.batch.busy());
}

#[test]
fn replay_all_reads_a_run_kept_only_in_memory_from_memory() {
    let mut world = World::new();
    let mut kept = world.open_page();
    world.refuse = Some(StoreError::Full);
    world.finish_run(&mut kept, record(Status::Done));
    let mut page = Page {
        world,
        kept,
        batch: BatchModel::default(),
        hold_frames: false,
        verdicts: BTreeMap::new(),
        held: Vec::new(),
    };
    page.press_replay_all();
    assert_eq!(page.batch().rows[0].verdict, Verdict::Pass);
}

#[test]
fn a_late_answer_after_replay_all_ended_changes_nothing() {
    let mut page = Page::with_kept(1);
    page.press_replay_all();
    let before = page.batch();
    let id = page.id(1);
    page.send(BatchMsg::KeptReplayed {
        id,
        verdict: Ok(Verdict::Fail("late".into())),
    });
    page.send(BatchMsg::Frame);
    assert_eq!(page.batch(), before);
}
