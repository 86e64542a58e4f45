//! The project stands on its own: its docs, code and tests say what things
//! do and why, not which issue asked for them, and cite no document the
//! repository does not hold.

use std::path::Path;

/// The project stands on its own: its docs, code and tests say what things
/// do and why, not which issue asked for them, and cite no document the
/// repository does not hold.
#[test]
fn no_issue_numbers_or_documents_from_outside() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut found = Vec::new();
    let mut pending = vec![
        root.join("crates"),
        root.join("src"),
        root.join("tests"),
        root.join("scripts"),
        root.join("static"),
        root.join("docs/src"),
    ];
    let mut files = vec![
        root.join("README.md"),
        root.join("ARCHITECTURE.md"),
        root.join("index.html"),
        root.join("Trunk.toml"),
        root.join("Cargo.toml"),
    ];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().to_string();
            if path.is_dir() {
                // Installed packages and what tests write are not ours.
                if !["node_modules", "artifacts", "target", "fixtures"].contains(&name.as_str()) {
                    pending.push(path);
                }
            } else if [
                ".rs", ".mjs", ".js", ".sh", ".md", ".css", ".html", ".toml", ".py",
            ]
            .iter()
            .any(|ext| name.ends_with(ext))
            {
                files.push(path);
            }
        }
    }
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            if let Some(what) = cited_from_outside(line) {
                let shown = path.strip_prefix(&root).unwrap_or(&path).display();
                found.push(format!("{shown}:{}: {what}", i + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} lines cite an issue number or a document outside the repository:\n{}",
        found.len(),
        found.join("\n")
    );
}

/// What a line cites that it should not: the word issue followed by a
/// number, or a document kept outside the repository (the names are built
/// here so that this file does not cite them itself).
fn cited_from_outside(line: &str) -> Option<&'static str> {
    let lower = line.to_lowercase();
    // The outside documents' names are in capitals; the guide's own pages
    // (docs/src/mcp.md) are not.
    let documents = [
        "DESIGN",
        "LOOP",
        "SEEDS",
        "PROTOCOL",
        "MCP",
        "TOOLCHAIN",
        "STYLE",
    ];
    let mut outside: Vec<String> = documents.iter().map(|d| format!("{d}.md")).collect();
    outside.push(format!("../{}/", "shared"));
    for name in &outside {
        if line.contains(name.as_str()) {
            return Some("a document outside the repository");
        }
    }
    let mut rest = lower.as_str();
    while let Some(at) = rest.find("issue") {
        let after = &rest[at + "issue".len()..];
        let after = after.strip_prefix('s').unwrap_or(after);
        let after = after.strip_prefix(' ').unwrap_or(after);
        let after = after.strip_prefix('#').unwrap_or(after);
        if after.starts_with(|c: char| c.is_ascii_digit()) {
            return Some("an issue number");
        }
        rest = &rest[at + 1..];
    }
    None
}
