//! A run killed at any moment keeps its record. SIGINT (Ctrl+C) and SIGTERM
//! are the command line's Stop: the run ends `cancelled`, its reason naming
//! the signal, and `run_finished` is the record's last line. SIGKILL cannot
//! be caught, but every event up to it is already in the file, and `show`
//! reads it and says where the run was cut off. A stopped run replays to
//! the same Stop. The moments are random, from a fixed seed, so a failure
//! repeats.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

mod process;
use process::{agent_loop, stderr, stdout};

/// Kills per signal: enough moments to land in every part of a turn.
const KILLS: usize = 20;

/// A tiny linear congruential generator (Knuth's MMIX constants): the same
/// seed gives the same moments on every machine, with no dependency.
struct Moments(u64);

impl Moments {
    fn next_ms(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % below
    }
}

/// A scenario that never ends by itself: the model asks for the time turn
/// after turn, at once (no delays), up to a million turns. A busy run like
/// this one never waits on a timer, so only an explicit yield lets it see a
/// signal.
fn endless(dir: &Path) -> PathBuf {
    let path = dir.join("endless.json");
    let scenario = serde_json::json!({
        "name": "Endless",
        "task": "Keep checking the time until something changes.",
        "tools": ["get_time"],
        "limits": {"max_turns": 1_000_000},
        "model": {"type": "scripted", "loop_from": 0, "responses": [
            {"text": "Checking again.", "tool_calls": [{"name": "get_time", "args": {}}]}
        ]}
    });
    std::fs::write(&path, scenario.to_string()).unwrap();
    path
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agent-loop-killed-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Starts `run SCENARIO --record RECORD`, waits until the record holds its
/// first event (the run is under way), then sends `signal` after a random
/// few milliseconds. Returns the run's exit code (`None`: killed).
fn run_and_kill(scenario: &Path, record: &Path, signal: &str, after_ms: u64) -> Option<i32> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .args(["run", scenario.to_str().unwrap(), "--record"])
        .arg(record)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("agent-loop runs");
    let started = Instant::now();
    while std::fs::metadata(record).map_or(0, |m| m.len()) == 0 {
        if started.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{}: still empty 10 s into the run: the record is not written as the run goes",
                record.display()
            );
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    std::thread::sleep(Duration::from_millis(after_ms));
    let sent = Command::new("kill")
        .args(["-s", signal, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -s {signal} failed");
    child.wait().unwrap().code()
}

/// The record's lines, each parsed (a cut last line fails the parse: it is
/// left out, and reported as `cut`).
fn record_lines(record: &Path) -> (Vec<Value>, bool) {
    let text = std::fs::read_to_string(record).unwrap();
    let mut cut = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        match serde_json::from_str(line) {
            Ok(value) => lines.push(value),
            Err(_) => cut = true,
        }
    }
    (lines, cut)
}

/// SIGINT or SIGTERM at random moments: every run ends `cancelled`, exit 3,
/// and `show` reads its record to a `run_finished` naming the signal.
fn stopped_by(signal: &str, said: &str, seed: u64) {
    let dir = temp_dir(signal);
    let scenario = endless(&dir);
    let mut moments = Moments(seed);
    for kill in 0..KILLS {
        let record = dir.join(format!("run-{kill}.jsonl"));
        let after_ms = 2 + moments.next_ms(300);
        let code = run_and_kill(&scenario, &record, signal, after_ms);
        let at = format!("kill {kill}, SIG{signal} {after_ms} ms into the run");
        assert_eq!(code, Some(3), "{at}: the run ends cancelled, exit 3");

        let (lines, cut) = record_lines(&record);
        assert!(!cut, "{at}: every line of the record is whole");
        let last = lines.last().expect("events");
        assert_eq!(last["type"], "run_finished", "{at}: {last}");
        assert_eq!(last["status"], "cancelled", "{at}: {last}");
        let reason = last["reason"].as_str().unwrap_or_default();
        assert!(
            reason.starts_with(&format!("stopped by {said} after ")),
            "{at}: {reason}"
        );

        let shown = agent_loop(&["show", record.to_str().unwrap()]);
        let text = stdout(&shown);
        assert_eq!(shown.status.code(), Some(0), "{at}: {}", stderr(&shown));
        assert!(
            text.contains(&format!("☝ cancelled — stopped by {said} after ")),
            "{at}: show ends with the stop: {}",
            &text[text.len().saturating_sub(400)..]
        );
        assert!(!text.contains("cut off"), "{at}: a stopped run is whole");

        // Stopped between two steps: its replay presses Stop at the same
        // point, and ends as recorded.
        let replayed = agent_loop(&["replay", record.to_str().unwrap()]);
        let report = stdout(&replayed);
        assert_eq!(
            replayed.status.code(),
            Some(0),
            "{at}: {}",
            &report[..report.len().min(600)]
        );
        assert!(
            report.starts_with(&format!(
                "✓ status: ended cancelled, as recorded: stopped by {said} after "
            )),
            "{at}: {}",
            &report[..report.len().min(600)]
        );
        let _ = std::fs::remove_file(&record);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_at_random_moments_ends_every_run_cancelled_with_its_record_whole() {
    stopped_by("TERM", "SIGTERM", 0x5EED_0001);
}

#[test]
fn sigint_at_random_moments_ends_every_run_cancelled_with_its_record_whole() {
    stopped_by("INT", "SIGINT (Ctrl+C)", 0x5EED_0002);
}

#[test]
fn sigkill_at_random_moments_leaves_a_record_show_reads_up_to_the_cut() {
    let dir = temp_dir("KILL");
    let scenario = endless(&dir);
    let mut moments = Moments(0x5EED_0003);
    for kill in 0..KILLS {
        let record = dir.join(format!("run-{kill}.jsonl"));
        let after_ms = 2 + moments.next_ms(300);
        let code = run_and_kill(&scenario, &record, "KILL", after_ms);
        let at = format!("kill {kill}, SIGKILL {after_ms} ms into the run");
        assert_eq!(code, None, "{at}: the process was killed");

        let (lines, cut) = record_lines(&record);
        let last = lines.last().expect("the scenario line and events");
        assert_ne!(last["type"], "run_finished", "{at}: the run never ended");
        let shown = agent_loop(&["show", record.to_str().unwrap()]);
        let text = stdout(&shown);
        assert_eq!(shown.status.code(), Some(0), "{at}: {}", stderr(&shown));
        let mut said = format!(
            "(the run was cut off after event {}, a {}",
            last["seq"],
            last["type"].as_str().unwrap()
        );
        if cut {
            said.push_str("; the half-written line after it is left out");
        }
        said.push_str("; the record ends before run_finished)\n");
        assert!(
            text.ends_with(&said),
            "{at}: show says where the run was cut off ({said}): {}",
            &text[text.len().saturating_sub(400)..]
        );
        let _ = std::fs::remove_file(&record);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A record cut mid-line, as a kill during a write leaves it: `show` keeps
/// every whole event and says the rest is missing; the other readers work
/// from the same events and say, on stderr, where the run was cut off.
#[test]
fn a_record_cut_mid_line_is_read_up_to_its_last_whole_event() {
    let dir = temp_dir("cut");
    let whole = dir.join("whole.jsonl");
    let run = agent_loop(&["run", "get-time", "--record", whole.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let text = std::fs::read_to_string(&whole).unwrap();
    // Cut in the middle of the fourth event's line (after the scenario line).
    let lines: Vec<&str> = text.lines().collect();
    let kept: String = lines[..4].iter().map(|l| format!("{l}\n")).collect();
    let cut_text = format!("{kept}{}", &lines[4][..lines[4].len() / 2]);
    let cut = dir.join("cut.jsonl");
    std::fs::write(&cut, &cut_text).unwrap();
    let last_whole: Value = serde_json::from_str(lines[3]).unwrap();
    let sentence = format!(
        "the run was cut off after event {}, a {}; the half-written line after it is left out",
        last_whole["seq"],
        last_whole["type"].as_str().unwrap()
    );

    let shown = agent_loop(&["show", cut.to_str().unwrap()]);
    assert_eq!(shown.status.code(), Some(0), "{}", stderr(&shown));
    assert!(
        stdout(&shown).ends_with(&format!(
            "({sentence}; the record ends before run_finished)\n"
        )),
        "{}",
        stdout(&shown)
    );

    let fork_points = agent_loop(&["fork", cut.to_str().unwrap(), "--list"]);
    assert_eq!(
        fork_points.status.code(),
        Some(0),
        "{}",
        stderr(&fork_points)
    );
    assert!(
        stderr(&fork_points).contains(&format!("note: {}: {sentence}", cut.display())),
        "{}",
        stderr(&fork_points)
    );

    let exported = agent_loop(&["export", "--otel", cut.to_str().unwrap()]);
    assert_eq!(exported.status.code(), Some(0), "{}", stderr(&exported));
    assert!(
        stderr(&exported).contains(&sentence),
        "{}",
        stderr(&exported)
    );

    let checked = agent_loop(&["check", cut.to_str().unwrap()]);
    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
    assert!(
        stdout(&checked).contains("a run record; its history as recorded"),
        "{}",
        stdout(&checked)
    );
    assert!(stderr(&checked).contains(&sentence), "{}", stderr(&checked));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run SIGTERM stopped while a tool ran cannot be replayed to the same
/// Stop (a replay does not cut a tool short: it runs it to its end); the
/// replay says so, naming
/// the signal rather than a person.
#[test]
fn a_replay_that_cannot_meet_a_signals_stop_names_the_signal() {
    let dir = temp_dir("replay");
    let scenario = dir.join("slow.json");
    let slow = serde_json::json!({
        "name": "Slow tool",
        "task": "Look it up.",
        "tools": [{"name": "slow_lookup", "description": "A lookup that hangs.",
                   "input_schema": {"type": "object"}, "result": {"status": "processing"},
                   "delay_ms": 2_000}],
        "model": {"type": "scripted", "responses": [
            {"tool_calls": [{"name": "slow_lookup", "args": {}}]},
            {"text": "Done."}
        ]}
    });
    std::fs::write(&scenario, slow.to_string()).unwrap();
    let record = dir.join("run.jsonl");
    assert_eq!(run_and_kill(&scenario, &record, "TERM", 300), Some(3));
    let replayed = agent_loop(&["replay", record.to_str().unwrap()]);
    let text = stdout(&replayed);
    assert_eq!(replayed.status.code(), Some(3), "{}", stderr(&replayed));
    let status = text
        .lines()
        .find(|l| l.starts_with("✗ status:"))
        .unwrap_or_default();
    assert!(
        status.ends_with("; SIGTERM stopped the recorded run while tool slow_lookup was running, a moment a replay cannot press Stop at"),
        "{status}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
