//! The guide's reference pages are written from the code, so they cannot
//! drift: every `agent-loop` command from its own `--help`, the run statuses
//! from `Status::ALL`, the limits and their bounds from `Limits::FIELDS`, and
//! the scenario format from its published JSON Schema.
//!
//! Each test builds its page and compares it with the file under
//! `docs/src/reference/`. A page that is out of date fails with the command
//! that rewrites it: `UPDATE_BOOK=1 cargo test -p agent-loop --test book_reference`.

use std::path::{Path, PathBuf};
use std::process::Command;

use harness::event::Status;
use harness::field::FieldKind;
use harness::limits::Limits;
use serde_json::Value;

fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/src/reference")
}

/// Compares `page` with the file, or rewrites the file under `UPDATE_BOOK`.
fn check_page(name: &str, page: &str) {
    let path = reference_dir().join(name);
    if std::env::var_os("UPDATE_BOOK").is_some() {
        std::fs::create_dir_all(reference_dir()).expect("the reference folder can be made");
        std::fs::write(&path, page).expect("the reference page can be written");
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    if on_disk != page {
        let first_difference = on_disk
            .lines()
            .zip(page.lines())
            .position(|(a, b)| a != b)
            .map_or_else(
                || "one is longer than the other".to_string(),
                |i| format!("line {}", i + 1),
            );
        panic!(
            "docs/src/reference/{name} is out of date ({first_difference}); \
             rewrite it with `UPDATE_BOOK=1 cargo test -p agent-loop --test book_reference`"
        );
    }
}

const GENERATED: &str =
    "<!-- Written by crates/cli/tests/book_reference.rs from the code; do not edit by hand. -->";

fn help(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_agent-loop"))
        .args(args)
        .arg("--help")
        .output()
        .expect("agent-loop runs");
    assert!(output.status.success(), "agent-loop {args:?} --help failed");
    String::from_utf8(output.stdout).expect("help is UTF-8")
}

/// The subcommands a help text lists under "Commands:", `help` left out.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|line| line.trim() != "Commands:")
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        // A wrapped description's next line is indented further.
        .filter(|line| !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

fn cli_page() -> String {
    let mut page = format!(
        "{GENERATED}\n# `agent-loop` commands\n\nEvery command's own `--help`, as the installed binary prints it.\n"
    );
    let mut pending: Vec<Vec<String>> = vec![Vec::new()];
    while let Some(path) = pending.first().cloned() {
        pending.remove(0);
        let args: Vec<&str> = path.iter().map(String::as_str).collect();
        let text = help(&args);
        let title = if path.is_empty() {
            "agent-loop".to_string()
        } else {
            format!("agent-loop {}", path.join(" "))
        };
        page.push_str(&format!(
            "\n## `{title}`\n\n```text\n{}\n```\n",
            text.trim_end()
        ));
        for (i, name) in subcommands(&text).into_iter().enumerate() {
            let mut child = path.clone();
            child.push(name);
            pending.insert(i, child);
        }
    }
    page
}

#[test]
fn the_command_reference_is_every_commands_help() {
    let page = cli_page();
    for command in ["run", "lesson", "mcp", "serve", "import", "export"] {
        assert!(
            page.contains(&format!("## `agent-loop {command}`")),
            "{command} is missing"
        );
    }
    check_page("cli.md", &page);
}

#[test]
fn the_status_reference_is_the_harness_list() {
    let mut page = format!(
        "{GENERATED}\n# Run statuses\n\nEvery run ends with one of these {} statuses. Each belongs to one of four groups, \
         drawn with its own shape as well as its colour.\n\n| status | group | ends a run when |\n|---|---|---|\n",
        Status::ALL.len()
    );
    for status in Status::ALL {
        let tone = status.tone();
        page.push_str(&format!(
            "| `{status}` | {} {} | {} |\n",
            tone.icon(),
            tone.label(),
            status.meaning()
        ));
    }
    check_page("statuses.md", &page);
}

fn kind_words(kind: &FieldKind) -> String {
    match kind {
        FieldKind::Integer { min, max } => format!("whole number, {min} to {}", max.words()),
        FieldKind::Number { above, max } => {
            format!("number above {above}, at most {}", max.words())
        }
        FieldKind::Choice(words) => {
            let words: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
            format!("one of {}", words.join(", "))
        }
        FieldKind::Bool => "`true` or `false`".to_string(),
        FieldKind::Names => "a list of names".to_string(),
    }
}

#[test]
fn the_limits_reference_is_the_limits_table() {
    let mut page = format!(
        "{GENERATED}\n# Limits\n\nThe keys of a scenario's `limits`, with what each takes and what applies when it is absent. \
         The page's form, the validator and the published schema are written from the same table.\n\n\
         | key | what | takes | when absent | about |\n|---|---|---|---|---|\n"
    );
    for field in Limits::FIELDS {
        let what = match field.unit {
            "" => field.label.to_string(),
            unit => format!("{} ({unit})", field.label),
        };
        page.push_str(&format!(
            "| `{}` | {what} | {} | {} | {} |\n",
            field.key,
            kind_words(&field.kind),
            field.absent,
            field.about.replace('|', "\\|")
        ));
    }
    check_page("limits.md", &page);
}

/// One row per property, nested objects' properties under their dotted path.
fn schema_rows(schema: &Value, root: &Value, prefix: &str, rows: &mut Vec<String>, depth: usize) {
    let resolved = resolve(schema, root);
    let Some(properties) = resolved.get("properties").and_then(Value::as_object) else {
        return;
    };
    let required: Vec<&str> = resolved
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for (name, property) in properties {
        if name == "$schema" {
            continue;
        }
        let path = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}.{name}")
        };
        let property = resolve(property, root);
        let about = property
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("")
            .replace('|', "\\|")
            .replace('\n', " ");
        let needed = if required.contains(&name.as_str()) {
            "yes"
        } else {
            ""
        };
        rows.push(format!("| `{path}` | {needed} | {about} |"));
        if depth < 1 {
            schema_rows(property, root, &path, rows, depth + 1);
        }
    }
}

/// A `$ref` to the schema's own `$defs`, followed.
fn resolve<'a>(schema: &'a Value, root: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => reference
            .strip_prefix('#')
            .and_then(|pointer| root.pointer(pointer))
            .unwrap_or(schema),
        None => schema,
    }
}

#[test]
fn the_scenario_reference_is_the_published_schema() {
    let text = include_str!("../../loop-core/scenario.schema.json");
    let schema: Value = serde_json::from_str(text).expect("the schema is JSON");
    let mut rows = Vec::new();
    schema_rows(&schema, &schema, "", &mut rows, 0);
    assert!(rows.iter().any(|r| r.starts_with("| `limits.max_turns`")));
    let title = schema
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or("");
    let page = format!(
        "{GENERATED}\n# Scenario format\n\n{title}\n\nThe published JSON Schema is `crates/loop-core/scenario.schema.json` \
         (`agent-loop schema` prints it). Its fields, two levels deep:\n\n| field | required | about |\n|---|---|---|\n{}\n",
        rows.join("\n")
    );
    check_page("scenario.md", &page);
}
