//! No module import cycles in `src/` or `crates/*/src`.
//!
//! A cycle (`a` uses `b`, which uses `a`) makes neither module understandable
//! or testable without the other, and in the web app it can pull a split
//! module back into the first paint. This test reads the sources, builds each
//! crate's module graph, and fails listing every cycle as `a → b → c → a`,
//! with the file and line of each edge.
//!
//! The rules, so that every edge it reports is one a person would remove:
//! - Nodes are file modules (`ui::history_panel`, `wire::check`); an inline
//!   `mod x { … }` belongs to its file. The crate is found by following
//!   `mod x;` from each crate root (`src/lib.rs`, `src/main.rs`), so a
//!   file no `mod` declares is not read.
//! - An edge is a use of another module's item: a `use` leaf (`use
//!   crate::a::X`, `use super::b::{c, d}`, a glob), or a path in code
//!   (`crate::a::f()`, `super::X`, or `a::f()` through `use crate::a;`).
//!   `use crate::a;` alone is no edge: what the code reaches through `a` is.
//!   A re-export is followed: `crate::ui::Panel`, where `ui` says `pub use
//!   panel::Panel`, is an edge to `ui::panel` (a private `use` is followed
//!   only from its module and that module's children, as Rust allows).
//! - `mod x;` itself is no edge, and neither is anything a module reaches in
//!   its own submodules: a directory module is built from its children
//!   (declaring, re-exporting, wiring them), so counting that would make
//!   every parent and child a cycle. A child that uses its parent's own
//!   items does depend on the parent: that edge counts.
//! - Nothing under `#[cfg(test)]` counts (a test module may use anything),
//!   nor anything in comments, doc comments or string literals.
//! - Not seen: names brought in by a glob (`use a::*`; the glob itself is an
//!   edge to `a`) and paths built by macros from pieces.
#![cfg(not(target_arch = "wasm32"))]

mod graph;
mod items;
mod layers;
mod tokens;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use graph::{display, load_crate, CrateGraph};

/// The root files of every crate of the workspace, relative to its root.
fn crate_roots(workspace: &Path) -> Vec<PathBuf> {
    let mut source_dirs = vec![PathBuf::from("src")];
    let mut members: Vec<PathBuf> = std::fs::read_dir(workspace.join("crates"))
        .expect("the workspace has a crates/ directory")
        .map(|entry| entry.expect("crates/ can be listed").path())
        .filter(|path| path.join("src").is_dir())
        .map(|path| {
            Path::new("crates")
                .join(path.file_name().unwrap())
                .join("src")
        })
        .collect();
    members.sort();
    source_dirs.extend(members);
    let mut roots = Vec::new();
    for dir in source_dirs {
        for root in ["lib.rs", "main.rs"] {
            if workspace.join(&dir).join(root).is_file() {
                roots.push(dir.join(root));
            }
        }
        if let Ok(bins) = std::fs::read_dir(workspace.join(&dir).join("bin")) {
            let mut bins: Vec<PathBuf> = bins
                .map(|entry| entry.expect("src/bin can be listed").path())
                .filter(|path| path.extension().is_some_and(|e| e == "rs"))
                .map(|path| dir.join("bin").join(path.file_name().unwrap()))
                .collect();
            bins.sort();
            roots.extend(bins);
        }
    }
    roots
}

fn workspace_crates() -> Vec<CrateGraph> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: &Path| std::fs::read_to_string(workspace.join(path)).ok();
    crate_roots(workspace)
        .iter()
        .map(|root| load_crate(root, &read))
        .collect()
}

/// Every cycle of these crates, described, and every declared module file
/// that is missing.
fn report(crates: &[CrateGraph]) -> String {
    let mut text = String::new();
    for graph in crates {
        for problem in &graph.problems {
            text.push_str(&format!("{problem}\n"));
        }
        for cycle in graph.cycles() {
            text.push_str(&graph.describe(&cycle));
        }
    }
    text
}

#[test]
fn no_module_import_cycles_in_the_workspace() {
    let found = report(&workspace_crates());
    assert!(
        found.is_empty(),
        "module import cycles (each edge: where it is written):\n{found}"
    );
}

#[test]
fn the_web_app_imports_no_module_of_a_layer_above_its_own() {
    let crates = workspace_crates();
    let app = crates
        .iter()
        .find(|graph| graph.root_file == Path::new("src/lib.rs"))
        .expect("the web app's src/lib.rs was read");
    let found = layers::upward_imports(app);
    assert!(
        found.is_empty(),
        "imports up the web app's layers (components → page state → split points → pure view helpers → browser glue):\n{found}"
    );
}

#[test]
fn an_upward_import_is_listed_with_its_layers_and_place() {
    let graph = fixture(&[
        (
            "src/lib.rs",
            "mod state;
mod ui;
mod view_model;
",
        ),
        (
            "src/ui.rs",
            "use crate::state::S;
use crate::view_model::v;
",
        ),
        (
            "src/state.rs",
            "pub struct S;
fn f() { crate::ui::draw() }
",
        ),
        (
            "src/view_model.rs",
            "pub fn v() {}
",
        ),
    ]);
    assert_eq!(
        layers::upward_imports(&graph),
        "state (page state) imports ui (components (ui)): src/state.rs:2 `crate::ui::draw`\n"
    );
}

/// Guards the check above against passing because it read nothing.
#[test]
fn the_workspace_scan_sees_every_crate_its_modules_and_their_imports() {
    let crates = workspace_crates();
    let by_root: BTreeMap<String, &CrateGraph> = crates
        .iter()
        .map(|graph| (graph.root_file.display().to_string(), graph))
        .collect();
    for (root, module) in [
        ("src/lib.rs", "history::view"),
        ("crates/loop-core/src/lib.rs", "scenario::check"),
        ("crates/loop-wire/src/lib.rs", "wire::anthropic::check"),
        ("crates/loop-mcp/src/lib.rs", "session"),
        ("crates/loop-interop/src/lib.rs", "otel::import"),
        ("crates/harness/src/lib.rs", "lesson::play"),
        ("crates/cli/src/main.rs", "serve"),
        ("crates/tool-schema/src/lib.rs", "validate"),
    ] {
        let graph = by_root
            .get(root)
            .unwrap_or_else(|| panic!("{root} was not read; roots: {:?}", by_root.keys()));
        let names: Vec<String> = graph.files.keys().map(display).collect();
        assert!(
            names.contains(&module.to_string()),
            "{root}: no {module} in {names:?}"
        );
        assert!(graph.problems.is_empty(), "{:?}", graph.problems);
    }
    let core = by_root["crates/loop-core/src/lib.rs"];
    let driver_uses_run = core
        .edges
        .keys()
        .any(|(from, to)| display(from) == "driver" && display(to) == "run");
    assert!(
        driver_uses_run,
        "the driver's `use crate::run::…` was missed"
    );
}

/// A fake crate from `(path, text)` pairs, rooted at `src/lib.rs`.
fn fixture(files: &[(&str, &str)]) -> CrateGraph {
    let files: BTreeMap<PathBuf, String> = files
        .iter()
        .map(|(path, text)| (PathBuf::from(path), text.to_string()))
        .collect();
    load_crate(Path::new("src/lib.rs"), &|path| files.get(path).cloned())
}

fn cycles_of(files: &[(&str, &str)]) -> String {
    report(&[fixture(files)])
}

#[test]
fn a_cycle_between_two_modules_is_listed_with_the_line_of_each_edge() {
    let found = cycles_of(&[
        ("src/lib.rs", "mod a;\nmod b;\n"),
        ("src/a.rs", "use crate::b::B;\npub struct A;\n"),
        (
            "src/b.rs",
            "pub struct B;\n\nfn f() { let _ = super::a::A; }\n",
        ),
    ]);
    assert_eq!(
        found,
        "src/lib.rs: a → b → a\n    a → b: src/a.rs:1 `crate::b::B`\n    b → a: src/b.rs:3 `super::a::A`\n"
    );
}

#[test]
fn a_longer_cycle_is_listed_once_starting_at_its_first_module() {
    let found = cycles_of(&[
        ("src/lib.rs", "mod c;\nmod a;\nmod b;\n"),
        ("src/a.rs", "use crate::b::f;\nuse crate::b::g;\n"),
        ("src/b.rs", "pub fn f() { crate::c::h() }\n"),
        ("src/c.rs", "pub fn h() { crate::a::x() }\n"),
    ]);
    assert_eq!(
        found,
        "src/lib.rs: a → b → c → a\n    a → b: src/a.rs:1 `crate::b::f` (and 1 more)\n    b → c: src/b.rs:1 `crate::c::h`\n    c → a: src/c.rs:1 `crate::a::x`\n"
    );
}

#[test]
fn comments_strings_and_test_code_make_no_edge() {
    let found = cycles_of(&[
        ("src/lib.rs", "mod a;\nmod b;\n"),
        ("src/a.rs", "use crate::b::B;\n"),
        (
            "src/b.rs",
            r##"//! Unlike [`crate::a::A`], this is plain.
// use crate::a::A;
/* crate::a::f(); /* nested */ crate::a::g(); */
const TEXT: &str = "crate::a::A";
const RAW: &str = r#"use crate::a::A; "quoted""#;
const QUOTE: char = '"'; const LIFE: &'static str = "x";
#[cfg(test)]
use crate::a::A;
#[cfg(all(test, feature = "x"))]
fn helper() { crate::a::f(); }
pub struct B { #[cfg(test)] seen: crate::a::A, real: u8 }
#[cfg(test)]
mod tests {
    use super::super::a::A;
}
"##,
        ),
    ]);
    assert_eq!(found, "");
}

#[test]
fn code_outside_tests_still_counts_after_a_skipped_test_item() {
    let found = cycles_of(&[
        ("src/lib.rs", "mod a;\nmod b;\n"),
        ("src/a.rs", "use crate::b::B;\n"),
        (
            "src/b.rs",
            "#[cfg(test)]\nfn helper() where u8: Copy, u16: Copy { crate::a::f(); }\n#[cfg(not(test))]\nuse crate::a::A;\n",
        ),
    ]);
    assert!(found.contains("b → a: src/b.rs:4 `crate::a::A`"), "{found}");
}

#[test]
fn a_parent_and_its_child_using_each_other_are_not_a_cycle() {
    let found = cycles_of(&[
        ("src/lib.rs", "pub mod ui;\npub fn shared() {}\n"),
        (
            "src/ui/mod.rs",
            "mod panel;\npub use panel::Panel;\npub fn helper() { panel::draw() }\n",
        ),
        (
            "src/ui/panel.rs",
            "use super::helper;\npub struct Panel;\npub fn draw() { crate::shared() }\n",
        ),
    ]);
    assert_eq!(found, "");
}

#[test]
fn a_re_export_leads_to_the_module_that_defines_the_item() {
    let found = cycles_of(&[
        ("src/lib.rs", "mod controller;\nmod ui;\n"),
        ("src/ui/mod.rs", "mod panel;\npub use panel::Panel;\n"),
        ("src/ui/panel.rs", "use crate::controller::Controller;\n"),
        (
            "src/controller.rs",
            "use crate::ui::Panel;\npub struct Controller;\n",
        ),
    ]);
    assert!(
        found.starts_with("src/lib.rs: controller → ui::panel → controller\n"),
        "{found}"
    );
}

#[test]
fn a_private_import_is_not_followed_from_outside_its_module() {
    // `lazy::panel` is lazy's own function; its `use crate::ui::panel` is
    // private, so `crate::lazy::panel()` from `app` names the function.
    let found = cycles_of(&[
        ("src/lib.rs", "mod app;\nmod lazy;\nmod ui;\n"),
        ("src/ui/mod.rs", "pub mod panel;\n"),
        ("src/ui/panel.rs", "use crate::app::App;\n"),
        (
            "src/lazy.rs",
            "#[allow(unused_imports)]\nuse crate::ui::panel;\npub fn panel() {}\n",
        ),
        (
            "src/app.rs",
            "pub struct App;\nfn f() { crate::lazy::panel() }\n",
        ),
    ]);
    assert_eq!(found, "");
}

#[test]
fn a_child_using_its_parents_own_items_closes_a_cycle_through_the_parent() {
    let found = cycles_of(&[
        ("src/lib.rs", "mod controller;\nmod ui;\n"),
        (
            "src/ui/mod.rs",
            "mod panel;\npub fn helper(c: &crate::controller::Controller) {}\n",
        ),
        (
            "src/ui/panel.rs",
            "pub struct Panel;\nfn f() { super::helper() }\n",
        ),
        ("src/controller.rs", "use crate::ui::panel::Panel;\n"),
    ]);
    assert!(
        found.starts_with("src/lib.rs: controller → ui::panel → ui → controller\n"),
        "{found}"
    );
}

#[test]
fn a_module_imported_by_name_is_followed_into_the_code() {
    let found = cycles_of(&[
        ("src/lib.rs", "mod a;\nmod b;\n"),
        ("src/a.rs", "use crate::b;\n\nfn f() { b::g() }\n"),
        (
            "src/b.rs",
            "use crate::a::{self as alpha};\nfn g() { alpha::f() }\n",
        ),
    ]);
    assert!(found.starts_with("src/lib.rs: a → b → a\n"), "{found}");
    assert!(found.contains("a → b: src/a.rs:3 `b::g`"), "{found}");
}

#[test]
fn super_inside_an_inline_module_means_its_file() {
    let found = cycles_of(&[
        ("src/lib.rs", "mod a;\nmod b;\n"),
        (
            "src/a.rs",
            "#[cfg(feature = \"x\")]\nmod inner {\n    use super::*;\n    use super::super::b::B;\n}\n",
        ),
        ("src/b.rs", "pub struct B;\nuse crate::a::A;\n"),
    ]);
    assert!(
        found.contains("a → b: src/a.rs:4 `super::super::b::B`"),
        "{found}"
    );
    assert!(!found.contains("a → crate"), "{found}");
}

#[test]
fn a_declared_module_without_a_file_is_reported() {
    let found = cycles_of(&[("src/lib.rs", "mod a;\nmod ui;\n"), ("src/ui/mod.rs", "")]);
    assert_eq!(
        found,
        "src/lib.rs:1 declares `mod a`, but neither src/a.rs nor src/a/mod.rs exists\n"
    );
}
