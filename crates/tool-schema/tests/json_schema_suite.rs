//! Runs the official JSON Schema Test Suite (draft 2020-12) and prints how
//! much of it tool-schema gets right.
//!
//! The suite is not copied into the repository: it is read from
//! `$JSON_SCHEMA_TEST_SUITE`, or found by its name beside the clone (see
//! `suite_dir`). Without it the test says SKIPPED on stderr, or fails when
//! `AGENT_LOOP_REQUIRE_SCHEMA_SUITE` is set, as CI sets it. Groups whose schema
//! uses a feature this crate deliberately leaves out (it reports
//! UnsupportedKeyword / UnresolvableRef) are counted as unsupported, not as
//! failures. Every case that compiles in a claimed file must pass.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::Value;
use tool_schema::{CompileErrorKind, Options, Schema};

/// Keyword files whose compiled cases must all pass.
const CLAIMED: &[&str] = &[
    "additionalProperties",
    "allOf",
    "anyOf",
    "boolean_schema",
    "const",
    "contains",
    "content",
    "default",
    "dependentRequired",
    "dependentSchemas",
    "enum",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "format",
    "if-then-else",
    "infinite-loop-detection",
    "items",
    "maxContains",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minContains",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "multipleOf",
    "not",
    "oneOf",
    "pattern",
    "patternProperties",
    "prefixItems",
    "properties",
    "propertyNames",
    "ref",
    "required",
    "type",
    "uniqueItems",
];

/// Files printed but not claimed, and why.
const NOT_CLAIMED: &[(&str, &str)] = &[
    ("anchor", "$anchor is not supported"),
    (
        "defs",
        "its only group $refs the remote 2020-12 meta-schema",
    ),
    ("dynamicRef", "$dynamicRef/$dynamicAnchor are not supported"),
    ("refRemote", "remote refs are not supported"),
    ("unevaluatedItems", "unevaluatedItems is not supported"),
    (
        "unevaluatedProperties",
        "unevaluatedProperties is not supported",
    ),
    ("vocabulary", "$vocabulary is not supported"),
];

/// The suite's folder as its repository names it, and the draft read.
const SUITE_NAME: &str = "json-schema-test-suite";
const DRAFT: &str = "draft2020-12";

/// `$JSON_SCHEMA_TEST_SUITE`, else the first `json-schema-test-suite`
/// folder in or one level below a folder above this crate: machines keep
/// one copy beside their clones, wherever they put it.
fn suite_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("JSON_SCHEMA_TEST_SUITE") {
        return PathBuf::from(dir);
    }
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = crate_dir.ancestors().skip(1).take(4).find_map(|above| {
        let beside = |dir: &Path| Some(dir.join(SUITE_NAME).join(DRAFT)).filter(|d| d.is_dir());
        beside(above).or_else(|| {
            fs::read_dir(above)
                .ok()?
                .filter_map(|entry| entry.ok())
                .find_map(|entry| beside(&entry.path()))
        })
    });
    // Not found: the message names where it was first looked for.
    found.unwrap_or_else(|| crate_dir.join(SUITE_NAME).join(DRAFT))
}

/// Set by CI (`.ci/run`): a missing suite then fails this test instead of
/// skipping it, since a machine without the suite would otherwise pass
/// having checked nothing.
const REQUIRE_SUITE: &str = "AGENT_LOOP_REQUIRE_SCHEMA_SUITE";

/// A missing suite: a failure when `REQUIRE_SUITE` is set (to anything but
/// "" or "0"), else a skip that says so.
fn skip_or_fail(dir: &Path) {
    let missing = format!(
        "the JSON Schema Test Suite is not at {} (set JSON_SCHEMA_TEST_SUITE to its draft2020-12 directory)",
        dir.display()
    );
    let required = std::env::var(REQUIRE_SUITE).is_ok_and(|v| !v.is_empty() && v != "0");
    assert!(
        !required,
        "{missing}; {REQUIRE_SUITE} is set, so this fails instead of skipping"
    );
    // libtest hides what a passing test prints with print!/eprint!, but not
    // what it writes to stderr itself: the skip must show in `cargo test`.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {missing}; set {REQUIRE_SUITE}=1 to fail instead"
    );
}

#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
    unsupported: usize,
}

#[test]
fn json_schema_test_suite_draft2020_12() {
    let dir = suite_dir();
    if !dir.is_dir() {
        skip_or_fail(&dir);
        return;
    }
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("suite directory is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();

    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut failures: Vec<String> = Vec::new();
    let mut unsupported_notes: Vec<String> = Vec::new();

    for file in &files {
        let name = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_owned();
        let claimed = CLAIMED.contains(&name.as_str());
        let text = fs::read_to_string(file).expect("suite file is readable");
        let groups: Vec<Value> = serde_json::from_str(&text).expect("suite file is JSON");
        let tally = tallies.entry(name.clone()).or_default();
        for group in &groups {
            let description = group["description"].as_str().unwrap_or("?");
            let tests = group["tests"].as_array().map_or(&[][..], Vec::as_slice);
            let compiled = Schema::compile_with(
                &group["schema"],
                Options {
                    assert_format: false,
                },
            );
            let schema = match compiled {
                Ok(schema) => schema,
                Err(errors) => {
                    let deliberate = errors.iter().all(|e| {
                        matches!(
                            e.kind,
                            CompileErrorKind::UnsupportedKeyword(_)
                                | CompileErrorKind::UnresolvableRef(_)
                        )
                    });
                    if deliberate {
                        tally.unsupported += tests.len();
                        if claimed {
                            unsupported_notes
                                .push(format!("{name} / {description}: {}", errors[0]));
                        }
                    } else {
                        // The suite's schemas are valid: rejecting one is a bug.
                        tally.failed += tests.len();
                        if claimed {
                            let all: Vec<String> = errors.iter().map(ToString::to_string).collect();
                            failures.push(format!(
                                "{name} / {description}: rejected a valid schema: {}",
                                all.join("; ")
                            ));
                        }
                    }
                    continue;
                }
            };
            for case in tests {
                let expected = case["valid"].as_bool().unwrap_or(false);
                let data = &case["data"];
                let verdict = schema.is_valid(data);
                // validate() must agree with is_valid(), and explain failures.
                let report = schema.validate(data);
                let consistent = report.is_ok() == verdict
                    && report.as_ref().err().is_none_or(|e| !e.is_empty());
                if verdict == expected && consistent {
                    tally.passed += 1;
                } else {
                    tally.failed += 1;
                    if claimed {
                        failures.push(format!(
                            "{name} / {description} / {}: expected valid={expected}, is_valid={verdict}, validate={report:?}",
                            case["description"].as_str().unwrap_or("?")
                        ));
                    }
                }
            }
        }
        if claimed && tally.passed + tally.failed == 0 {
            failures.push(format!("{name}: claimed, but every group is unsupported"));
        }
    }

    println!(
        "\n{:<28} {:>7} {:>7} {:>12}",
        "file", "passed", "failed", "unsupported"
    );
    let (mut passed, mut total, mut unsupported, mut claimed_files) = (0, 0, 0, 0);
    for (name, t) in &tallies {
        let claimed = CLAIMED.contains(&name.as_str());
        let note = if claimed {
            String::new()
        } else {
            let why = NOT_CLAIMED
                .iter()
                .find(|(n, _)| n == name)
                .map_or("not claimed", |(_, why)| why);
            format!("  (not claimed: {why})")
        };
        println!(
            "{name:<28} {:>7} {:>7} {:>12}{note}",
            t.passed, t.failed, t.unsupported
        );
        if claimed {
            claimed_files += 1;
            passed += t.passed;
            total += t.passed + t.failed;
            unsupported += t.unsupported;
        }
    }
    if !unsupported_notes.is_empty() {
        println!("\nunsupported groups in claimed files:");
        for note in &unsupported_notes {
            println!("  {note}");
        }
    }
    println!(
        "\ntool-schema: {passed} of {total} cases passed across {claimed_files} claimed keyword files; {unsupported} unsupported"
    );
    for name in CLAIMED {
        assert!(
            tallies.contains_key(*name),
            "claimed file {name}.json is missing from the suite"
        );
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
