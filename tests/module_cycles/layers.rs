//! The web app's layers go one way (ARCHITECTURE.md): components →
//! page state → split points (`lazy`) → the pure modules → browser glue
//! (`browser`) and the harness. The code is kept by feature (`run/`,
//! `compare/`, `history/`, `lessons/`, `inspector/`, `mcp/`, `editor/`,
//! `modes/`, `settings/`, …), and a module's layer is its role, read from
//! its path: `app` and anything under a `view` are components, `state` and
//! anything under a feature's `state` or `controller` is page state, and
//! the rest of a feature (its model, its pure helpers) is pure. A module
//! that imports one of a layer above it is listed with where it does so;
//! the cycle check alone would let a one-way upward import through.

use super::graph::{display, CrateGraph, ModPath};

/// A module's layer, from the top (0): what it may import is its own layer
/// and those below it. `app` may use the components, not the other way
/// round.
fn layer(module: &ModPath) -> usize {
    match module.first().map(String::as_str) {
        // The crate root declares every module: it is no layer's client.
        None => 6,
        Some("app") => 0,
        Some("ui") => 1,
        Some("state") => 2,
        Some("lazy") => 3,
        Some("browser") => 5,
        Some(_) if module.iter().any(|part| part == "view") => 1,
        Some(_)
            if module
                .iter()
                .any(|part| part == "state" || part == "controller") =>
        {
            2
        }
        Some(_) => 4,
    }
}

const NAMES: [&str; 7] = [
    "components (app)",
    "components (ui)",
    "page state",
    "split points",
    "pure view helpers",
    "browser glue",
    "the crate root",
];

/// Every import from a module to one of a layer above it, described.
pub fn upward_imports(graph: &CrateGraph) -> String {
    let mut text = String::new();
    for ((from, to), uses) in &graph.edges {
        let (from_layer, to_layer) = (layer(from), layer(to));
        if to_layer >= from_layer || from.is_empty() {
            continue;
        }
        let first = &uses[0];
        text.push_str(&format!(
            "{} ({}) imports {} ({}): {}:{} `{}`{}\n",
            display(from),
            NAMES[from_layer],
            display(to),
            NAMES[to_layer],
            first.file.display(),
            first.line,
            first.written,
            match uses.len() {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            }
        ));
    }
    text
}
