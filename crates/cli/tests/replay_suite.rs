//! `agent-loop replay` as a regression suite: the built-ins recorded into a
//! folder, replayed as one suite (a line per record and a summary), and the
//! exit codes when a record fails or cannot be read; and three runs of one
//! scenario replayed against an edited copy of it, where exactly one fails.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

mod process;
use process::{agent_loop, stderr, stdout};

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agent-loop-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Built-ins left out of the suite, each for a reason replay gives by design.
const NOT_REPLAYABLE: &[(&str, &str)] = &[
    // The clock cuts the hung model call; the recording holds no answer for
    // it, and a replay has no clock to cut it, so it asks for a turn that was
    // never recorded.
    ("deadline", "cut off by the clock mid-call"),
    // Only Stop (Ctrl+C) ends it, which this suite's recording does not
    // press; `replay_stopped.rs` records it so and replays it.
    ("press-stop", "cut off by Stop mid-call"),
    // Their lesson is an answer naming an order id no tool returned, which
    // replay's ids_exist check rejects.
    ("failed-verification", "answer names an invented id"),
    ("verifier-weak", "answer names an invented id"),
    // Its tools come from a server that must be running; `mcp_serve.rs`
    // runs it against one.
    ("mcp-tools", "needs its MCP server running"),
];

/// One line of `agent-loop list`: the built-in's name, the status it is
/// listed with, and whether the line says it needs `--approve all`.
struct Listed {
    id: String,
    status: String,
    approve_all: bool,
    /// "in the page": a deadline only a page open long enough meets.
    page_only: bool,
}

fn listed_builtins() -> Vec<Listed> {
    let output = agent_loop(&["list"]);
    assert_eq!(output.status.code(), Some(0));
    stdout(&output)
        .lines()
        .filter(|line| line.starts_with("  "))
        .map(|line| {
            let mut words = line.split_whitespace();
            Listed {
                id: words.next().unwrap().to_string(),
                status: words.next().unwrap().to_string(),
                approve_all: line.contains(" with --approve all "),
                page_only: line.contains(" in the page "),
            }
        })
        .collect()
}

/// Records every replayable built-in once, run as `list` says it must be
/// run, and checks on the way that each ends with the status `list` shows.
fn recorded_suite() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = fresh_dir("suite");
        let listed = listed_builtins();
        for (id, _) in NOT_REPLAYABLE {
            assert!(listed.iter().any(|b| b.id == *id), "{id} is not a built-in");
        }
        let builtins: Vec<Listed> = listed
            .into_iter()
            .filter(|b| NOT_REPLAYABLE.iter().all(|(id, _)| *id != b.id))
            .collect();
        assert!(builtins.len() >= 40, "{} built-ins", builtins.len());
        // Two at a time: a few wait out real deadlines.
        std::thread::scope(|scope| {
            for pair in builtins.chunks(builtins.len().div_ceil(2)) {
                let dir = &dir;
                scope.spawn(move || {
                    for builtin in pair {
                        record(dir, builtin);
                    }
                });
            }
        });
        dir
    })
}

fn record(dir: &Path, builtin: &Listed) {
    let path = dir.join(format!("{}.jsonl", builtin.id));
    let mut args = vec![
        "run",
        &builtin.id,
        "--jsonl",
        "--record",
        path.to_str().unwrap(),
    ];
    if builtin.approve_all {
        args.extend(["--approve", "all"]);
    }
    let output = agent_loop(&args);
    let last: serde_json::Value =
        serde_json::from_str(stdout(&output).lines().last().expect("a trace")).unwrap();
    if !builtin.page_only {
        assert_eq!(
            last["status"], builtin.status,
            "`agent-loop run {}` does not end as `list` says",
            builtin.id
        );
    }
    assert!(path.exists(), "{} was not recorded", builtin.id);
}

#[test]
fn a_folder_of_recorded_runs_replays_as_a_passing_suite() {
    let dir = recorded_suite();
    let count = std::fs::read_dir(dir).unwrap().count();
    let output = agent_loop(&["replay", dir.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), count + 1, "{text}");
    // One line per record, in file-name order, then the summary.
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .collect();
    names.sort();
    for (line, name) in lines.iter().zip(&names) {
        assert_eq!(*line, format!("pass  {name}"));
    }
    assert_eq!(
        lines.last().unwrap(),
        &format!("{count} records: {count} passed, 0 failed")
    );
}

/// A few of the suite's records, copied so a test can spoil one.
fn copy_of_suite(name: &str, how_many: usize) -> (PathBuf, Vec<PathBuf>) {
    let source = recorded_suite();
    let dir = fresh_dir(name);
    let mut files: Vec<PathBuf> = std::fs::read_dir(source)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let copies = files
        .iter()
        .take(how_many)
        .map(|file| {
            let copy = dir.join(file.file_name().unwrap());
            std::fs::copy(file, &copy).unwrap();
            copy
        })
        .collect();
    (dir, copies)
}

/// The record as if its run had ended `turn_limit`: the replay, which ends
/// as the run really did, no longer matches it.
fn spoil(record: &Path) {
    let text = std::fs::read_to_string(record).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let last = lines.last_mut().unwrap();
    let mut finished: serde_json::Value = serde_json::from_str(last).unwrap();
    assert_eq!(finished["type"], "run_finished");
    assert_ne!(finished["status"], "turn_limit");
    finished["status"] = "turn_limit".into();
    *last = finished.to_string();
    std::fs::write(record, lines.join("\n") + "\n").unwrap();
}

#[test]
fn one_failing_record_fails_the_suite_with_exit_3_and_its_first_difference() {
    let (dir, copies) = copy_of_suite("suite-spoilt", 6);
    spoil(&copies[2]);
    let output = agent_loop(&["replay", dir.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(3), "{}", stdout(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7, "{text}");
    for (i, copy) in copies.iter().enumerate() {
        if i == 2 {
            let failed = format!("FAIL  {}: status: ", copy.display());
            assert!(lines[i].starts_with(&failed), "{}", lines[i]);
            assert!(lines[i].contains("turn_limit"), "{}", lines[i]);
        } else {
            assert_eq!(lines[i], format!("pass  {}", copy.display()));
        }
    }
    assert_eq!(lines[6], "6 records: 5 passed, 1 failed");

    // Files named one by one are a suite too.
    let (a, b) = (copies[0].to_str().unwrap(), copies[2].to_str().unwrap());
    let output = agent_loop(&["replay", a, b]);
    assert_eq!(output.status.code(), Some(3));
    assert!(stdout(&output).ends_with("2 records: 1 passed, 1 failed\n"));
}

#[test]
fn jsonl_gives_one_object_per_record_for_ci() {
    let (dir, copies) = copy_of_suite("suite-jsonl", 3);
    spoil(&copies[1]);
    let output = agent_loop(&["replay", "--jsonl", dir.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(3));
    let lines: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 3);
    for (line, copy) in lines.iter().zip(&copies) {
        assert_eq!(line["record"], copy.display().to_string());
        let checks = line["checks"].as_array().unwrap();
        assert!(!checks.is_empty());
        for check in checks {
            assert!(check["name"].is_string() && check["detail"].is_string());
            assert!(check["passed"].is_boolean());
        }
        let all_passed = checks.iter().all(|c| c["passed"] == true);
        assert_eq!(line["passed"], all_passed);
        assert!(line["status"].is_string());
    }
    assert_eq!(lines[0]["passed"], true);
    assert_eq!(lines[1]["passed"], false);
    let status_check = lines[1]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "status")
        .unwrap();
    assert_eq!(status_check["passed"], false);
    // The summary stays off stdout, which is JSON only.
    assert_eq!(stderr(&output), "3 records: 2 passed, 1 failed\n");
}

#[test]
fn an_unreadable_record_exits_2_and_the_others_are_still_replayed() {
    let (dir, copies) = copy_of_suite("suite-unreadable", 3);
    let broken = dir.join("zz-broken.jsonl");
    std::fs::write(&broken, "this is not a record\n").unwrap();
    let empty = fresh_dir("suite-empty");
    let output = agent_loop(&["replay", dir.to_str().unwrap(), empty.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    for (line, copy) in lines.iter().zip(&copies) {
        assert_eq!(*line, format!("pass  {}", copy.display()));
    }
    assert!(
        lines[3].starts_with(&format!("error {}: ", broken.display())),
        "{}",
        lines[3]
    );
    assert_eq!(
        lines[4],
        format!(
            "error {}: no *.jsonl records in this folder",
            empty.display()
        )
    );
    assert_eq!(lines[5], "5 records: 3 passed, 0 failed, 2 unreadable");
}

/// The rules-model refund built-in, as a JSON value to edit.
fn rules_refund() -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../loop-core/scenarios/rules-with-example.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn write_json(path: &Path, value: &serde_json::Value) {
    std::fs::write(path, serde_json::to_string_pretty(value).unwrap()).unwrap();
}

/// Three runs of one scenario whose calls differ (the page's "Replay all"
/// e2e test keeps the same three), recorded into `dir/runs`: `a` refunds
/// A1001; `b`, without the example id in get_order's description, invents
/// ORD-1001 and stops at get_order's error; `c`, asked about A1003, is
/// refused by refund_order (outside the refund window).
fn three_refund_runs(dir: &Path) -> [PathBuf; 3] {
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    let a = rules_refund();
    let mut b = a.clone();
    b["tools"][0]["input_schema"]["properties"]["order_id"]["description"] = "The order id".into();
    let mut c = a.clone();
    c["task"] = "Please refund my order A1003, it arrived broken.".into();
    let mut recorded = Vec::new();
    for (name, scenario, status) in [
        ("a", &a, "done"),
        ("b", &b, "failed_verification"),
        ("c", &c, "failed_verification"),
    ] {
        let file = dir.join(format!("{name}.json"));
        write_json(&file, scenario);
        let record = runs.join(format!("{name}.jsonl"));
        let output = agent_loop(&[
            "run",
            file.to_str().unwrap(),
            "--jsonl",
            "--record",
            record.to_str().unwrap(),
        ]);
        let text = stdout(&output);
        let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert_eq!(last["status"], status, "run {name}: {text}");
        recorded.push(record);
    }
    recorded.try_into().unwrap()
}

#[test]
fn an_edited_schema_fails_exactly_the_record_whose_call_it_now_rejects() {
    let dir = fresh_dir("suite-edited");
    let [a, b, c] = three_refund_runs(&dir);
    let runs = dir.join("runs");
    // refund_order now requires a reason: only run a's refund succeeded,
    // and its recorded call has no reason. b never called refund_order, and
    // c's call was already an error (outside the window), so theirs hold.
    let mut edited = rules_refund();
    edited["task"] = "Please refund my order A1003, it arrived broken.".into();
    edited["tools"][2] = serde_json::json!({
        "name": "refund_order", "builtin": "refund_order",
        "description": "Refund an order. Give the reason the customer gave.",
        "input_schema": {"type": "object",
            "properties": {"order_id": {"type": "string"}, "reason": {"type": "string"}},
            "required": ["order_id", "reason"], "additionalProperties": false}
    });
    let edited_path = dir.join("edited.json");
    write_json(&edited_path, &edited);
    let output = agent_loop(&[
        "replay",
        runs.to_str().unwrap(),
        "--scenario",
        edited_path.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(3), "{}", stdout(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    // The first failing check is the status (checks run status first); its
    // reason is the verifier's, which names the refund that no longer ran.
    assert_eq!(
        lines[0],
        format!(
            "FAIL  {}: status: expected done, got failed_verification (verifier check 2 (tool_called \"refund_order\") failed: refund_order never ran successfully in this run)",
            a.display()
        ),
        "{text}"
    );
    assert_eq!(lines[1], format!("pass  {}", b.display()));
    assert_eq!(lines[2], format!("pass  {}", c.display()));
    assert_eq!(lines[3], "3 records: 2 passed, 1 failed");
    assert_eq!(lines.len(), 4, "{text}");

    // The record alone, in detail, shows the call behind it: the recorded
    // refund was ok, now the schema rejects it for the missing reason.
    let output = agent_loop(&[
        "replay",
        a.to_str().unwrap(),
        "--scenario",
        edited_path.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(3));
    let detail = stdout(&output);
    let same_errors = detail
        .lines()
        .find(|line| line.starts_with("✗ same_errors: "))
        .unwrap_or_else(|| panic!("no same_errors failure: {detail}"));
    assert!(
        same_errors.starts_with("✗ same_errors: call 3 (refund_order): the recording's result was ok, now it is an error: ")
            && same_errors.contains("reason"),
        "{same_errors}"
    );

    // A description alone changes no replay: the recorded model turns are
    // played as they were, so what a description changes shows only when
    // the scenario runs again (or in Compare), not here.
    let mut described = rules_refund();
    described["tools"][0]["description"] = "Look up an order by its id (never guess one).".into();
    let described_path = dir.join("described.json");
    write_json(&described_path, &described);
    let output = agent_loop(&[
        "replay",
        runs.to_str().unwrap(),
        "--scenario",
        described_path.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(stdout(&output).ends_with("3 records: 3 passed, 0 failed\n"));
}
