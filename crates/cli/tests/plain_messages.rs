//! Every message the file readers print is plain words: a fixed-seed
//! mutation fuzzer feeds `validate`, `run`, `check`, `import`, `show` and
//! `replay` broken variants of real files (a scenario, a record, provider
//! request bodies, OpenTelemetry traces) and asserts that what they print
//! has no raw control characters, no Rust or serde debug text, no line of
//! unbounded length, no panic and no undocumented exit code.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::{json, Value};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_agent-loop"))
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agent-loop-plain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What one command printed and how it ended.
struct Said {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn said(args: &[&str], file: &Path) -> Said {
    let out = bin()
        .args(args)
        .arg(file)
        .output()
        .expect("agent-loop starts");
    Said {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The longest line a message may print: a message that quotes a file may
/// not become the file.
const LINE_CHARS: usize = 2_100;

/// Text that only Rust's or serde's debug output writes, never a sentence.
const DEBUG_MARKERS: &[&str] = &[
    "unexpected None",
    "unexpected Some",
    "Some(",
    "Ok(",
    "Err(",
    "Error(",
    ": None",
    "(None",
    "None)",
    "\\u{",
    "invalid type: ",
    "invalid value: ",
    "expected struct",
    "expected a map",
    "expected a sequence",
    "expected map",
    "expected seq",
    "struct ",
    "enum ",
    "variant index",
];

/// Why `text`, printed by `command` for `input`, is not plain words; `None`
/// when it is.
fn fault(text: &str, json_out: bool) -> Option<String> {
    // JSON escapes U+0000–U+001F in a record it writes; DEL and the C1
    // controls it may write as they are, as data, like any other character.
    let acts =
        |c: char| c.is_control() && c != '\n' && c != '\t' && !(json_out && c as u32 >= 0x7f);
    if let Some(c) = text.chars().find(|&c| acts(c)) {
        return Some(format!("a raw control character U+{:04X}", c as u32));
    }
    // A JSON record on stdout holds the file's text, escaped by JSON, at
    // whatever length it has; the length and words checked are a message's.
    if json_out {
        return None;
    }
    if let Some(line) = text.lines().find(|l| l.chars().count() > LINE_CHARS) {
        return Some(format!("a line of {} characters", line.chars().count()));
    }
    DEBUG_MARKERS
        .iter()
        .find(|marker| text.contains(*marker))
        .map(|marker| format!("debug text {marker:?}"))
}

/// A tiny linear congruential generator: the same inputs on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Every value's JSON pointer in `value`.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let key = key.replace('~', "~0").replace('/', "~1");
                pointers(inner, format!("{at}/{key}"), out);
            }
        }
        Value::Array(items) => {
            for (n, inner) in items.iter().enumerate() {
                pointers(inner, format!("{at}/{n}"), out);
            }
        }
        _ => {}
    }
}

/// Text that would act on a terminal if printed as is: a colour escape, a
/// bell, a carriage return that overwrites the line, a C1 control.
const HOSTILE: &str = "\u{1b}[31mred\u{7}\r\u{9b}2J\u{0}end";

/// One broken variant of `value`: a value somewhere replaced by hostile
/// text, a huge string, another type or deep nesting, or a key renamed.
fn mutate_value(value: &Value, rng: &mut Lcg) -> Value {
    let mut value = value.clone();
    let mut all = Vec::new();
    pointers(&value, String::new(), &mut all);
    let at = &all[rng.below(all.len())];
    let replacement = match rng.below(9) {
        0 | 1 => Value::String(HOSTILE.to_string()),
        2 => Value::String(format!("{HOSTILE}{}", "A".repeat(300_000))),
        3 => Value::Null,
        4 => json!(-7.5),
        5 => json!({ HOSTILE: [true] }),
        6 => json!([HOSTILE, null]),
        7 => {
            let mut deep = json!(HOSTILE);
            for _ in 0..60 {
                deep = json!([deep]);
            }
            deep
        }
        _ => {
            // Rename a key of the object that holds `at`, when there is one.
            if let Some((parent, key)) = at.rsplit_once('/') {
                if let Some(Value::Object(map)) = value.pointer_mut(parent) {
                    let key = key.replace("~1", "/").replace("~0", "~");
                    if let Some(inner) = map.remove(&key) {
                        map.insert(format!("{key}{HOSTILE}"), inner);
                    }
                }
            }
            return value;
        }
    };
    if let Some(slot) = value.pointer_mut(at) {
        *slot = replacement;
    }
    value
}

/// One broken variant of the file's bytes: raw control characters or an
/// invalid UTF-8 byte inserted, or a span cut out.
fn mutate_bytes(bytes: &[u8], rng: &mut Lcg) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    let at = rng.below(bytes.len() + 1);
    match rng.below(3) {
        0 => {
            bytes.splice(at..at, b"\x1b[31m\x07".iter().copied());
        }
        1 => {
            bytes.splice(at..at, [0xff, 0xfe, 0x80].iter().copied());
        }
        _ => {
            let end = (at + 1 + rng.below(40)).min(bytes.len());
            bytes.drain(at.min(end)..end);
        }
    }
    bytes
}

/// A seed file: its text, whether it is JSON Lines, and the commands that
/// read its kind.
struct Seed {
    name: &'static str,
    text: String,
    lines: bool,
    commands: &'static [&'static [&'static str]],
}

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../harness/tests/fixtures")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn seeds(dir: &Path) -> Vec<Seed> {
    let record = dir.join("seed.jsonl");
    let ran = bin()
        .args([
            "run",
            "refund-with-approval",
            "--approve",
            "all",
            "--record",
        ])
        .arg(&record)
        .output()
        .unwrap();
    assert_eq!(ran.status.code(), Some(0), "the seed run");
    let record_text = std::fs::read_to_string(&record).unwrap();
    let first: Value = serde_json::from_str(record_text.lines().next().unwrap()).unwrap();
    let exported = bin()
        .args(["export", "--otel", "--started-at-ms", "0"])
        .arg(&record)
        .output()
        .unwrap();
    assert_eq!(exported.status.code(), Some(0), "the seed export");
    const BODY: &[&[&str]] = &[&["check"], &["import"]];
    vec![
        Seed {
            name: "scenario",
            text: first["scenario"].to_string(),
            lines: false,
            commands: &[&["validate"], &["run", "--approve", "all"]],
        },
        Seed {
            name: "record",
            text: record_text,
            lines: true,
            commands: &[&["show"], &["replay"]],
        },
        Seed {
            name: "anthropic body",
            text: fixture("wire/anthropic_request_tool_result.json"),
            lines: false,
            commands: BODY,
        },
        Seed {
            name: "openai chat body",
            text: fixture("wire/openai_chat_request_tools.json"),
            lines: false,
            commands: BODY,
        },
        Seed {
            name: "openai responses body",
            text: fixture("wire/openai_responses_request_function_call_output.json"),
            lines: false,
            commands: BODY,
        },
        Seed {
            name: "otel export",
            text: String::from_utf8(exported.stdout).unwrap(),
            lines: false,
            commands: &[&["import"]],
        },
        Seed {
            name: "otel openllmetry",
            text: fixture("otel/anthropic-openllmetry-0.62.4.json"),
            lines: false,
            commands: &[&["import"]],
        },
    ]
}

/// One broken variant of `seed`'s text.
fn variant(seed: &Seed, rng: &mut Lcg) -> Vec<u8> {
    if rng.below(4) == 0 {
        return mutate_bytes(seed.text.as_bytes(), rng);
    }
    if seed.lines {
        let mut lines: Vec<String> = seed.text.lines().map(str::to_string).collect();
        let n = rng.below(lines.len());
        let value: Value = serde_json::from_str(&lines[n]).unwrap();
        lines[n] = mutate_value(&value, rng).to_string();
        return (lines.join("\n") + "\n").into_bytes();
    }
    let value: Value = serde_json::from_str(&seed.text).unwrap();
    mutate_value(&value, rng).to_string().into_bytes()
}

/// How many variants of each seed are tried: enough to reach each reader's
/// error paths, few enough to finish in well under a minute in a debug build.
const VARIANTS_PER_SEED: usize = 150;

#[test]
fn every_reader_answers_broken_files_in_plain_words() {
    let dir = temp_dir();
    let started = Instant::now();
    let mut rng = Lcg(0x0005_eed0_fa11);
    let mut faults = Vec::new();
    let mut tried = 0;
    for seed in seeds(&dir) {
        for n in 0..VARIANTS_PER_SEED {
            let bytes = variant(&seed, &mut rng);
            let path = dir.join(format!("input-{}-{n}", seed.name.replace(' ', "-")));
            std::fs::write(&path, &bytes).unwrap();
            for command in seed.commands {
                tried += 1;
                let out = said(command, &path);
                // `import` writes a record (JSON Lines) on stdout.
                let json_out = command[0] == "import";
                let mut problems = Vec::new();
                if !matches!(out.code, Some(0 | 2 | 3)) {
                    problems.push(format!("exit code {:?}", out.code));
                }
                if let Some(why) = fault(&out.stderr, false) {
                    problems.push(format!("stderr: {why}"));
                }
                if let Some(why) = fault(&out.stdout, json_out) {
                    problems.push(format!("stdout: {why}"));
                }
                if !problems.is_empty() {
                    let shown: String = format!("{}{}", out.stderr, out.stdout)
                        .chars()
                        .take(400)
                        .collect();
                    faults.push(format!(
                        "{} {} ({}): {}\n    {:?}",
                        command.join(" "),
                        path.display(),
                        seed.name,
                        problems.join("; "),
                        shown
                    ));
                }
            }
        }
    }
    println!(
        "tried {tried} command runs on broken files in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(
        faults.is_empty(),
        "{} of {tried} answers were not plain words:\n{}",
        faults.len(),
        faults.join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A body `check` passes with a message that has no role: `import` said
/// "messages[1].role: unexpected None"; it now says what it found in words.
#[test]
fn import_names_a_missing_role_in_words() {
    let dir = temp_dir();
    let path = dir.join("no-role.json");
    std::fs::write(
        &path,
        r#"{"model":"m","messages":[{"role":"user","content":"hi"},{"content":"x"}]}"#,
    )
    .unwrap();
    assert_eq!(said(&["check"], &path).code, Some(0));
    let out = said(&["import"], &path);
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.contains("messages[1].role: the message has no role; a message's role is one of \"system\", \"developer\", \"user\", \"assistant\", \"tool\""),
        "{}",
        out.stderr
    );
    assert_eq!(fault(&out.stderr, false), None, "{}", out.stderr);
}
