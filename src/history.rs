//! The run history's logic: what the panel lists about a kept run, the index
//! that `browser/history_store.rs` keeps in `localStorage`, which old runs
//! make room for a new one, and the texts the panel and the replay list show.
//!
//! A kept run is a `Record` (the scenario it ran plus its events, as
//! `Record::to_jsonl` writes it: the same file `agent-loop show` reads). The
//! index holds one `Entry` per run, newest first, so the panel lists runs
//! without reading any record; a record is read only when it is opened.
//!
//! Its state is four plain models, split by who sends their messages, so
//! the first paint carries only the first: the kept runs (`model`), opening
//! and importing (`opening`), one replay (`replays`) and Replay all
//! (`batch`). `state` is their adapter and `view` the History panel.
//!
//! Invariant: nothing here but `state` and `view` touches signals or the
//! DOM; the rest is tested natively.

use harness::event::{EventKind, RunEvent, Status};
use harness::replay::{AssertionResult, Record, ReplayReport};
use harness::run::usd;
use serde::{Deserialize, Serialize};

use crate::run::view_model::plural;

pub mod batch;
pub mod model;
pub mod opening;
pub mod replay_all;
pub mod replays;
pub mod state;
pub mod view;

/// How many bytes of records the history may keep. `localStorage` gives an
/// origin about 5 million UTF-16 units in Chromium and Firefox; the scenario
/// autosave and the settings need a little of it. A record's UTF-8 length is
/// never below its UTF-16 length, so counting bytes errs on the safe side.
pub const BUDGET_BYTES: usize = 4_000_000;

/// The version of the stored index; another version is not read as this one.
pub const INDEX_VERSION: u32 = 1;

/// Why storage refused a read or a write (the browser's storage says which,
/// `browser::history_store`; the model words it).
#[derive(Clone, Debug, PartialEq)]
pub enum StoreError {
    /// The origin's quota is used up.
    Full,
    /// No `localStorage`, or the browser refused an access; the text says how.
    Unavailable(String),
}

/// Where a kept run came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// Finished in this page.
    Run,
    /// Read from a file with "Import run…".
    Imported,
}

/// What the panel lists about one kept run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Unique within the history; also names the record's storage key.
    pub id: String,
    /// The scenario's name (from the record's scenario, else its `run_started`).
    pub scenario: String,
    /// How the run ended; `None` for a record that ends before
    /// `run_finished`. Stored as its word (see `status_word`).
    #[serde(with = "stored_status")]
    pub status: Option<Status>,
    pub turns: u32,
    /// Not finite only for a run kept before costs were bounded; the index
    /// stores that as `null` (see `stored_cost`).
    #[serde(deserialize_with = "stored_cost")]
    pub cost_usd: f64,
    /// When it was kept, in Unix milliseconds.
    pub saved_at_ms: f64,
    /// The record's length in bytes (`to_jsonl`), for the storage budget.
    pub size: usize,
    pub origin: Origin,
    /// False while the record lives only in this page's memory (storage was
    /// full or unavailable); such entries are never written to the index.
    #[serde(skip, default = "yes")]
    pub stored: bool,
}

fn yes() -> bool {
    true
}

/// A stored cost: a number, or `null` where it was not finite when kept
/// (serde_json writes NaN and the infinities so), read back as NaN.
fn stored_cost<'de, D: serde::Deserializer<'de>>(input: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(input)?.unwrap_or(f64::NAN))
}

/// The status word of a record without `run_finished`.
pub const UNFINISHED: &str = "unfinished";

/// A kept run's status as the panel shows it and the index stores it: the
/// status's own name (`done`, `turn_limit`, …), or `unfinished`.
pub fn status_word(status: Option<Status>) -> &'static str {
    status.map_or(UNFINISHED, Status::as_str)
}

/// The index keeps a status as its word, as it always has, so indexes
/// saved before the status was typed still read.
mod stored_status {
    use harness::event::Status;
    use serde::{de, Deserialize, Deserializer, Serializer};

    use super::{status_word, UNFINISHED};

    pub fn serialize<S: Serializer>(status: &Option<Status>, out: S) -> Result<S::Ok, S::Error> {
        out.serialize_str(status_word(*status))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(input: D) -> Result<Option<Status>, D::Error> {
        let word = String::deserialize(input)?;
        if word == UNFINISHED {
            return Ok(None);
        }
        Status::ALL
            .into_iter()
            .find(|status| status.as_str() == word)
            .map(Some)
            .ok_or_else(|| de::Error::custom(format!("a kept run has an unknown status, {word}")))
    }
}

/// The panel's summary of `record`.
pub fn summarize(
    record: &Record,
    id: String,
    saved_at_ms: f64,
    size: usize,
    origin: Origin,
) -> Entry {
    let outcome = record.outcome();
    Entry {
        id,
        scenario: scenario_name(record),
        status: outcome.map(|o| o.status),
        turns: outcome.map_or_else(|| turns_seen(&record.events), |o| o.turns),
        cost_usd: outcome.map_or(0.0, |o| o.cost_usd),
        saved_at_ms,
        size,
        origin,
        stored: true,
    }
}

fn scenario_name(record: &Record) -> String {
    if let Some(scenario) = &record.scenario {
        return scenario.name.clone();
    }
    record
        .events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::RunStarted { scenario, .. } => Some(scenario.clone()),
            _ => None,
        })
        .unwrap_or_else(|| "(unnamed run)".to_string())
}

/// The highest turn a cut-off record reached.
fn turns_seen(events: &[RunEvent]) -> u32 {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ModelRequest { turn, .. } => Some(*turn),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// A fresh id for a run kept at `saved_at_ms`: the time, plus a counter when
/// two runs land in the same millisecond.
pub fn new_id(saved_at_ms: f64, entries: &[Entry]) -> String {
    let base = format!("{}", saved_at_ms.max(0.0) as u64);
    let mut id = base.clone();
    let mut n = 1;
    while entries.iter().any(|e| e.id == id) {
        n += 1;
        id = format!("{base}-{n}");
    }
    id
}

#[derive(Serialize)]
struct StoredIndex<'a> {
    version: u32,
    runs: Vec<&'a Entry>,
}

/// The index as stored: only the entries whose records are in storage.
pub fn index_to_json(entries: &[Entry]) -> String {
    let index = StoredIndex {
        version: INDEX_VERSION,
        runs: entries.iter().filter(|e| e.stored).collect(),
    };
    // Plain strings and numbers: always serialises. A cost that is not
    // finite is written as `null`, which `stored_cost` reads back.
    serde_json::to_string(&index).unwrap_or_default()
}

/// The index as read: the entries that read, newest first, and one line
/// per entry that did not, naming it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IndexRead {
    pub entries: Vec<Entry>,
    /// "the run 1733150000000 (Refund): its status is unknown (exploded)".
    pub unreadable: Vec<String>,
}

/// Reads a stored index entry by entry, so one entry that does not read
/// costs only itself. `Err` says why the index as a whole cannot be used
/// (not JSON, another version); the records it listed are still in storage
/// and `records_to_relist` finds them.
pub fn index_from_json(text: &str) -> Result<IndexRead, String> {
    #[derive(Deserialize)]
    struct Loose {
        version: u32,
        runs: Vec<serde_json::Value>,
    }
    let index: Loose = serde_json::from_str(text).map_err(|e| {
        format!(
            "the saved run list is not readable (at line {}, column {})",
            e.line(),
            e.column()
        )
    })?;
    if index.version != INDEX_VERSION {
        return Err(format!(
            "the saved run list has version {}, this page reads version {INDEX_VERSION}",
            index.version
        ));
    }
    let mut read = IndexRead::default();
    for (n, raw) in index.runs.into_iter().enumerate() {
        match Entry::deserialize(&raw) {
            Ok(entry) => read.entries.push(entry),
            Err(why) => read.unreadable.push(format!(
                "{}: {}",
                entry_name(&raw, n),
                plain_entry_error(&why.to_string())
            )),
        }
    }
    read.entries = newest_first(read.entries);
    Ok(read)
}

/// How an unreadable entry is named: by its id and scenario where it has
/// them, else by its place in the list.
fn entry_name(raw: &serde_json::Value, n: usize) -> String {
    let text = |key: &str| raw.get(key).and_then(|v| v.as_str());
    match (text("id"), text("scenario")) {
        (Some(id), Some(scenario)) => format!("the run {id} ({scenario})"),
        (Some(id), None) => format!("the run {id}"),
        _ => format!("entry {} of the list", n + 1),
    }
}

/// An entry's serde error in the panel's words: which field, and why.
fn plain_entry_error(serde_error: &str) -> String {
    if let Some(field) = serde_error
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next())
    {
        return format!("it has no {field}");
    }
    if serde_error.contains("expected struct Entry") {
        return "it is not a kept run's entry".to_string();
    }
    if serde_error.starts_with("invalid type") || serde_error.starts_with("invalid value") {
        return "one of its fields has the wrong kind of value".to_string();
    }
    serde_error.to_string()
}

/// The ids of kept records in storage (`keys`) that `entries` does not
/// list: runs to summarise from their records again, so a list entry that
/// did not read, or a list that was lost, loses no run.
pub fn records_to_relist(keys: &[String], entries: &[Entry]) -> Vec<String> {
    keys.iter()
        .filter(|id| !entries.iter().any(|e| &e.id == *id))
        .cloned()
        .collect()
}

/// When the run with `id` was kept, from the id itself (`new_id` makes it
/// from the time), for a run listed again from its record. Read as whole
/// milliseconds, as `new_id` writes them: a float parse here would bring
/// Rust's float parser into the page's first paint.
pub fn saved_at_of(id: &str) -> f64 {
    id.split('-')
        .next()
        .and_then(|ms| ms.parse::<u64>().ok())
        .map_or(0.0, |ms| ms as f64)
}

/// The entries, newest first; entries saved at the same time keep their
/// order. An insertion sort: a history is a few hundred entries at most, and
/// a library sort would put another copy of its code in the web bundle,
/// whose first paint has a size budget.
pub fn newest_first(entries: Vec<Entry>) -> Vec<Entry> {
    let mut sorted: Vec<Entry> = Vec::with_capacity(entries.len());
    for entry in entries {
        let at = sorted.partition_point(|e| e.saved_at_ms >= entry.saved_at_ms);
        sorted.insert(at, entry);
    }
    sorted
}

/// What to do to keep a new record of `size` bytes within `budget`.
#[derive(Clone, Debug, PartialEq)]
pub enum Plan {
    /// Store it after removing these stored runs (oldest first; may be none).
    Store { evict: Vec<String> },
    /// The record alone is over the budget: it cannot be kept in storage.
    TooLarge { size: usize, budget: usize },
}

/// Makes room for a record of `size` bytes by dropping the oldest stored runs.
pub fn plan_store(entries: &[Entry], size: usize, budget: usize) -> Plan {
    if size > budget {
        return Plan::TooLarge { size, budget };
    }
    // Oldest first, ties in list order, by way of `newest_first` (stable) on
    // the reversed list, read backwards.
    let stored = newest_first(entries.iter().filter(|e| e.stored).rev().cloned().collect());
    let mut used: usize = stored.iter().map(|e| e.size).sum();
    let mut evict = Vec::new();
    for entry in stored.iter().rev() {
        if used + size <= budget {
            break;
        }
        used -= entry.size;
        evict.push(entry.id.clone());
    }
    Plan::Store { evict }
}

/// The notice after old runs were dropped to make room.
pub fn evicted_notice(dropped: &[Entry]) -> Option<String> {
    match dropped {
        [] => None,
        [one] => Some(format!(
            "Storage is limited: removed the oldest kept run ({}, {}) to keep the new one.",
            one.scenario,
            status_word(one.status)
        )),
        many => Some(format!(
            "Storage is limited: removed the {} oldest kept runs to keep the new one.",
            many.len()
        )),
    }
}

/// Bytes for people: `812 B`, `14.2 KB`, `3.1 MB`.
pub fn format_size(bytes: usize) -> String {
    if bytes < 1000 {
        format!("{bytes} B")
    } else if bytes < 1_000_000 {
        format!("{:.1} KB", bytes as f64 / 1000.0)
    } else {
        format!("{:.1} MB", bytes as f64 / 1_000_000.0)
    }
}

/// One line of facts under the scenario name: status, turns, cost.
pub fn facts(entry: &Entry) -> String {
    let mut parts = vec![
        status_word(entry.status).to_string(),
        plural(u64::from(entry.turns), "turn"),
        if entry.cost_usd.is_finite() {
            usd(entry.cost_usd)
        } else {
            "cost unknown".to_string()
        },
    ];
    if entry.origin == Origin::Imported {
        parts.push("imported".to_string());
    }
    if !entry.stored {
        parts.push("this page only, not saved".to_string());
    }
    parts.join(" · ")
}

/// When a run was kept, relative to `now_ms` for the last day, else as a UTC
/// date and time (`2026-11-29 12:00 UTC`).
pub fn when_text(saved_at_ms: f64, now_ms: f64) -> String {
    let ago_s = ((now_ms - saved_at_ms) / 1000.0).max(0.0) as u64;
    match ago_s {
        0..=59 => "just now".to_string(),
        60..=3599 => format!("{} min ago", ago_s / 60),
        3600..=86_399 => format!("{} h ago", ago_s / 3600),
        _ => utc_text(saved_at_ms),
    }
}

fn utc_text(unix_ms: f64) -> String {
    let secs = (unix_ms.max(0.0) / 1000.0) as i64;
    let days = secs.div_euclid(86_400);
    let rest = secs.rem_euclid(86_400);
    let (y, m, d) = harness::tools::civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60
    )
}

/// The message for a file "Import run…" could not read.
pub fn import_error(file_name: &str, why: &str) -> String {
    format!("Could not import {file_name}: {why}. The trace shown is unchanged.")
}

/// One row of the replay list.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayRow {
    pub name: String,
    pub passed: bool,
    /// For a pass, what held; for a failure, the first difference.
    pub detail: String,
}

/// The replay's verdict and its rows, as the panel shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayView {
    pub passed: bool,
    pub summary: String,
    pub rows: Vec<ReplayRow>,
}

pub fn replay_view(report: &ReplayReport) -> ReplayView {
    let rows: Vec<ReplayRow> = report.results.iter().map(row).collect();
    let summary = match report.first_failure() {
        None => format!(
            "Replay passed: {} of {} assertions hold (ended {}).",
            rows.len(),
            rows.len(),
            report.outcome.status
        ),
        Some(failure) => format!(
            "Replay failed: {} of {} assertions hold. First difference: {}: {}",
            rows.iter().filter(|r| r.passed).count(),
            rows.len(),
            failure.name,
            failure.detail
        ),
    };
    ReplayView {
        passed: report.passed(),
        summary,
        rows,
    }
}

fn row(result: &AssertionResult) -> ReplayRow {
    ReplayRow {
        name: result.name.clone(),
        passed: result.passed,
        detail: result.detail.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use harness::event::Outcome;
    use harness::scenario::Scenario;

    fn record(status: Status, turns: u32, cost: f64) -> Record {
        let scenario = Scenario::load(harness::library::find("get-time").unwrap().json()).unwrap();
        let outcome = Outcome {
            status,
            reason: "why".into(),
            cause: None,
            turns,
            tool_calls: 1,
            calls: None,
            input_tokens: 10,
            output_tokens: 5,
            cost_usd: cost,
            elapsed_ms: 3,
            answer: None,
        };
        Record {
            scenario: Some(scenario),
            events: vec![RunEvent {
                seq: 0,
                t_ms: 3,
                kind: EventKind::RunFinished(outcome),
            }],
            forked_at: None,
        }
    }

    fn entry(id: &str, at: f64, size: usize) -> Entry {
        Entry {
            id: id.into(),
            scenario: "s".into(),
            status: Some(Status::Done),
            turns: 1,
            cost_usd: 0.0,
            saved_at_ms: at,
            size,
            origin: Origin::Run,
            stored: true,
        }
    }

    #[test]
    fn a_summary_names_the_scenario_status_turns_and_cost() {
        let e = summarize(
            &record(Status::TurnLimit, 3, 0.0125),
            "7".into(),
            1000.0,
            42,
            Origin::Run,
        );
        assert_eq!(e.scenario, "What time is it? (seed 001)");
        assert_eq!(e.status, Some(Status::TurnLimit));
        assert_eq!((e.turns, e.cost_usd, e.size), (3, 0.0125, 42));
        assert_eq!(facts(&e), "turn_limit · 3 turns · $0.0125");
    }

    #[test]
    fn a_bare_cut_off_trace_without_run_started_is_unnamed_and_unfinished() {
        let events = vec![RunEvent {
            seq: 0,
            t_ms: 0,
            kind: EventKind::ModelRequest {
                turn: 2,
                attempt: 1,
                messages: 1,
                estimated_input_tokens: 1,
                max_output_tokens: 1,
            },
        }];
        let r = Record {
            scenario: None,
            events,
            forked_at: None,
        };
        let e = summarize(&r, "1".into(), 0.0, 1, Origin::Imported);
        assert_eq!((e.status, e.turns), (None, 2));
        assert_eq!(e.scenario, "(unnamed run)");
        assert_eq!(facts(&e), "unfinished · 2 turns · $0.00 · imported");
    }

    #[test]
    fn a_bare_trace_is_named_by_its_run_started_event() {
        let line = r#"{"seq":0,"t_ms":0,"type":"run_started","scenario":"Bare","model":"scripted","approval":"ask","tools":[],"limits":{"max_turns":10},"task":"t"}"#;
        let record = Record::from_jsonl(line).unwrap();
        assert_eq!(record.scenario, None);
        let e = summarize(&record, "1".into(), 0.0, line.len(), Origin::Imported);
        assert_eq!((e.scenario.as_str(), e.status, e.turns), ("Bare", None, 0));
    }

    #[test]
    fn the_index_round_trips_newest_first_without_unsaved_entries() {
        let mut unsaved = entry("c", 3.0, 1);
        unsaved.stored = false;
        let entries = vec![entry("a", 1.0, 10), entry("b", 2.0, 20), unsaved];
        let back = index_from_json(&index_to_json(&entries)).unwrap().entries;
        assert_eq!(
            back.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
            ["b", "a"]
        );
        assert!(back.iter().all(|e| e.stored));
        assert!(index_from_json("{")
            .unwrap_err()
            .starts_with("the saved run list is not readable"));
        assert_eq!(
            index_from_json("{\"version\":9,\"runs\":[]}").unwrap_err(),
            "the saved run list has version 9, this page reads version 1"
        );
    }

    #[test]
    fn a_status_is_stored_as_its_word_and_an_index_saved_as_words_reads_back() {
        let mut cut_off = entry("cut", 2.0, 1);
        cut_off.status = None;
        let mut limited = entry("limited", 1.0, 1);
        limited.status = Some(Status::TurnLimit);
        let json = index_to_json(&[cut_off, limited]);
        assert!(
            json.contains("\"status\":\"unfinished\"")
                && json.contains("\"status\":\"turn_limit\""),
            "{json}"
        );
        // As an index written before the status was typed looks.
        let saved = r#"{"version":1,"runs":[{"id":"1","scenario":"s","status":"cost_limit","turns":2,"cost_usd":0.5,"saved_at_ms":1.0,"size":3,"origin":"run"},{"id":"2","scenario":"s","status":"unfinished","turns":1,"cost_usd":0.0,"saved_at_ms":0.5,"size":3,"origin":"imported"}]}"#;
        let entries = index_from_json(saved).unwrap().entries;
        assert_eq!(
            entries.iter().map(|e| e.status).collect::<Vec<_>>(),
            [Some(Status::CostLimit), None]
        );
        assert_eq!(facts(&entries[1]), "unfinished · 1 turn · $0.00 · imported");
        // An unknown status costs that entry only, named in the notice.
        let unknown = saved.replace("cost_limit", "exploded");
        let read = index_from_json(&unknown).unwrap();
        assert_eq!(read.entries.len(), 1);
        assert_eq!(
            read.unreadable,
            ["the run 1 (s): a kept run has an unknown status, exploded"]
        );
    }

    #[test]
    fn one_unreadable_entry_costs_only_itself_and_an_unbounded_cost_reads_back() {
        // An entry kept with an infinite cost was stored as `null` and made
        // the whole list unreadable; one missing a field is named.
        let mut infinite = entry("inf", 3.0, 1);
        infinite.cost_usd = f64::INFINITY;
        let json = index_to_json(&[infinite, entry("ok", 2.0, 1)]);
        assert!(json.contains("\"cost_usd\":null"), "{json}");
        let broken = json.replace("]}", r#",{"id":"77","scenario":"Refund","turns":1}, 5]}"#);
        let read = index_from_json(&broken).unwrap();
        assert_eq!(
            read.entries
                .iter()
                .map(|e| e.id.as_str())
                .collect::<Vec<_>>(),
            ["inf", "ok"]
        );
        assert!(read.entries[0].cost_usd.is_nan());
        assert_eq!(facts(&read.entries[0]), "done · 1 turn · cost unknown");
        assert_eq!(
            read.unreadable,
            [
                "the run 77 (Refund): it has no status",
                "entry 4 of the list: it is not a kept run's entry"
            ]
        );
    }

    #[test]
    fn records_the_list_does_not_name_are_listed_again_with_their_time() {
        let keys = [
            "1700000000000".to_string(),
            "1700000000000-2".to_string(),
            "5".to_string(),
        ];
        let listed = [entry("5", 0.0, 1)];
        assert_eq!(
            records_to_relist(&keys, &listed),
            ["1700000000000", "1700000000000-2"]
        );
        assert_eq!(saved_at_of("1700000000000-2"), 1_700_000_000_000.0);
        assert_eq!(saved_at_of("not-a-time"), 0.0);
    }

    #[test]
    fn newest_first_keeps_the_order_of_runs_saved_at_the_same_time() {
        let entries = vec![
            entry("old", 1.0, 1),
            entry("tie-1", 2.0, 1),
            entry("new", 3.0, 1),
            entry("tie-2", 2.0, 1),
            entry("oldest", 0.5, 1),
        ];
        let ids: Vec<String> = newest_first(entries).into_iter().map(|e| e.id).collect();
        assert_eq!(ids, ["new", "tie-1", "tie-2", "old", "oldest"]);
    }

    #[test]
    fn the_budget_drops_the_oldest_runs_first_and_refuses_an_oversized_one() {
        let entries = vec![
            entry("new", 3.0, 40),
            entry("old", 1.0, 30),
            entry("mid", 2.0, 20),
        ];
        assert_eq!(plan_store(&entries, 10, 100), Plan::Store { evict: vec![] });
        assert_eq!(
            plan_store(&entries, 30, 100),
            Plan::Store {
                evict: vec!["old".into()]
            }
        );
        assert_eq!(
            plan_store(&entries, 60, 100),
            Plan::Store {
                evict: vec!["old".into(), "mid".into()]
            }
        );
        assert_eq!(
            plan_store(&entries, 101, 100),
            Plan::TooLarge {
                size: 101,
                budget: 100
            }
        );
        // Entries only in memory take no storage and are never evicted.
        let mut memory = entry("mem", 0.0, 90);
        memory.stored = false;
        assert_eq!(
            plan_store(&[memory], 100, 100),
            Plan::Store { evict: vec![] }
        );
    }

    #[test]
    fn eviction_and_sizes_read_as_sentences() {
        assert_eq!(evicted_notice(&[]), None);
        assert_eq!(
            evicted_notice(&[entry("a", 1.0, 1)]).unwrap(),
            "Storage is limited: removed the oldest kept run (s, done) to keep the new one."
        );
        assert!(evicted_notice(&[entry("a", 1.0, 1), entry("b", 1.0, 1)])
            .unwrap()
            .contains("the 2 oldest"));
        assert_eq!(format_size(812), "812 B");
        assert_eq!(format_size(14_200), "14.2 KB");
        assert_eq!(format_size(4_000_000), "4.0 MB");
    }

    #[test]
    fn ids_are_unique_within_the_history() {
        let entries = vec![entry("1000", 1000.0, 1), entry("1000-2", 1000.0, 1)];
        assert_eq!(new_id(1000.0, &entries), "1000-3");
        assert_eq!(new_id(2000.5, &entries), "2000");
    }

    #[test]
    fn when_is_relative_for_a_day_then_a_utc_date() {
        let now = 1_764_417_600_000.0; // 2025-11-29 12:00 UTC
        assert_eq!(when_text(now - 5_000.0, now), "just now");
        assert_eq!(when_text(now - 125_000.0, now), "2 min ago");
        assert_eq!(when_text(now - 7_300_000.0, now), "2 h ago");
        assert_eq!(when_text(now - 86_400_000.0, now), "2025-11-28 12:00 UTC");
        assert_eq!(when_text(951_782_400_000.0, now), "2000-02-29 00:00 UTC");
    }

    #[test]
    fn a_replay_report_lists_each_assertion_and_the_first_difference() {
        let results = vec![
            AssertionResult {
                name: "status".into(),
                passed: true,
                detail: "ended done".into(),
            },
            AssertionResult {
                name: "same_errors".into(),
                passed: false,
                detail: "call 1 (x): now an error".into(),
            },
        ];
        let outcome = record(Status::Done, 1, 0.0).outcome().unwrap().clone();
        let report = ReplayReport {
            outcome: outcome.clone(),
            events: vec![],
            results,
        };
        let view = replay_view(&report);
        assert!(!view.passed);
        assert_eq!(view.summary, "Replay failed: 1 of 2 assertions hold. First difference: same_errors: call 1 (x): now an error");
        assert_eq!(
            view.rows[1],
            ReplayRow {
                name: "same_errors".into(),
                passed: false,
                detail: "call 1 (x): now an error".into()
            }
        );
        let ok = ReplayReport {
            outcome,
            events: vec![],
            results: report.results[..1].to_vec(),
        };
        assert_eq!(
            replay_view(&ok).summary,
            "Replay passed: 1 of 1 assertions hold (ended done)."
        );
    }
}
