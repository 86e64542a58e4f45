//! The harness's crates depend on one another one way, as ARCHITECTURE.md
//! draws them. Cargo already refuses a cycle; this test also
//! refuses an import up the layers that would not be a cycle, such as the
//! MCP protocol reaching into transcripts, or the loop core taking any
//! other harness crate, and names the line to remove.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each crate of the workspace, and the workspace crates it may use.
const LAYERS: &[(&str, &[&str])] = &[
    ("tool-schema", &[]),
    ("loop-core", &["tool-schema"]),
    ("loop-wire", &["loop-core", "tool-schema"]),
    ("loop-mcp", &["loop-core", "loop-wire"]),
    ("loop-interop", &["loop-core", "loop-wire"]),
    (
        "harness",
        &[
            "loop-core",
            "loop-wire",
            "loop-mcp",
            "loop-interop",
            "tool-schema",
        ],
    ),
    ("agent-loop", &["harness", "tool-schema"]),
    ("agent-loop-playground", &["harness", "tool-schema"]),
];

/// The name of every dependency in a manifest's `[dependencies]` tables
/// (plain or per target). Dev-dependencies are left out: a test may use a
/// crate above it (the harness's own tests use `harness` itself).
fn dependency_names(manifest: &str) -> Vec<&str> {
    let mut in_dependencies = false;
    let mut found = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]"
                || (line.starts_with("[target.") && line.ends_with(".dependencies]"));
        } else if in_dependencies {
            let key = line.split(['=', '.', ' ']).next().unwrap_or_default();
            if !key.is_empty() && !key.starts_with('#') {
                found.push(key);
            }
        }
    }
    found
}

/// The workspace crates a manifest depends on.
fn workspace_dependencies(manifest: &str, workspace: &BTreeSet<&str>) -> BTreeSet<String> {
    dependency_names(manifest)
        .into_iter()
        .filter(|name| workspace.contains(name))
        .map(str::to_string)
        .collect()
}

fn manifest_of(root: &Path, name: &str) -> String {
    let dir = match name {
        "agent-loop-playground" => root.to_path_buf(),
        "agent-loop" => root.join("crates/cli"),
        other => root.join("crates").join(other),
    };
    let path = dir.join("Cargo.toml");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every dependency on a workspace crate that the layers do not allow.
fn upward_dependencies(manifests: &BTreeMap<&str, String>) -> Vec<String> {
    let workspace: BTreeSet<&str> = LAYERS.iter().map(|(name, _)| *name).collect();
    let mut problems = Vec::new();
    for (name, allowed) in LAYERS {
        let Some(manifest) = manifests.get(name) else {
            problems.push(format!("{name}: its Cargo.toml was not read"));
            continue;
        };
        for dependency in workspace_dependencies(manifest, &workspace) {
            if !allowed.contains(&dependency.as_str()) {
                problems.push(format!(
                    "{name} depends on {dependency}, which is not below it (it may use: {})",
                    if allowed.is_empty() {
                        "no workspace crate".to_string()
                    } else {
                        allowed.join(", ")
                    }
                ));
            }
        }
    }
    problems
}

#[test]
fn each_harness_crate_depends_only_on_the_layers_below_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let manifests: BTreeMap<&str, String> = LAYERS
        .iter()
        .map(|(name, _)| (*name, manifest_of(&root, name)))
        .collect();
    let problems = upward_dependencies(&manifests);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Guards against passing because nothing was read.
    let workspace: BTreeSet<&str> = LAYERS.iter().map(|(name, _)| *name).collect();
    let mcp = workspace_dependencies(&manifests["loop-mcp"], &workspace);
    assert_eq!(
        mcp,
        BTreeSet::from(["loop-core".to_string(), "loop-wire".to_string()])
    );
}

/// The harness runs natively in the CLI and the tests; the browser is the
/// web app's business alone.
#[test]
fn no_harness_crate_depends_on_a_browser_or_ui_crate() {
    const BROWSER: &[&str] = &["leptos", "web-sys", "js-sys", "wasm-bindgen", "gloo"];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for name in [
        "loop-core",
        "loop-wire",
        "loop-mcp",
        "loop-interop",
        "harness",
    ] {
        let manifest = manifest_of(&root, name);
        let found: Vec<&str> = dependency_names(&manifest)
            .into_iter()
            .filter(|dependency| BROWSER.iter().any(|b| dependency.starts_with(b)))
            .collect();
        assert!(found.is_empty(), "{name} depends on {found:?}");
    }
    let app = manifest_of(&root, "agent-loop-playground");
    assert!(
        dependency_names(&app).contains(&"leptos"),
        "the scan did not read the web app's leptos"
    );
}

#[test]
fn every_workspace_member_has_a_layer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let workspace = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = workspace
        .lines()
        .find(|line| line.trim_start().starts_with("members"))
        .expect("the workspace lists its members");
    let layered: BTreeSet<String> = LAYERS
        .iter()
        .map(|(name, _)| manifest_of(&root, name))
        .map(|manifest| {
            let line = manifest.lines().find(|l| l.starts_with("name")).unwrap();
            line.split('"').nth(1).unwrap().to_string()
        })
        .collect();
    let count = members.matches('"').count() / 2;
    assert_eq!(
        count,
        layered.len(),
        "a workspace member has no entry in LAYERS: {members} vs {layered:?}"
    );
}

#[test]
fn an_upward_dependency_is_named_with_what_the_crate_may_use() {
    let mut manifests: BTreeMap<&str, String> = LAYERS
        .iter()
        .map(|(name, _)| (*name, "[dependencies]\n".to_string()))
        .collect();
    manifests.insert(
        "loop-core",
        "[package]\nname = \"loop-core\"\n\n[dependencies]\nserde.workspace = true\nloop-wire = { path = \"../loop-wire\" }\n\n[dev-dependencies]\nharness.workspace = true\n".to_string(),
    );
    manifests.insert(
        "loop-mcp",
        "[target.'cfg(not(target_arch = \"wasm32\"))'.dependencies]\nloop-interop.workspace = true\n".to_string(),
    );
    assert_eq!(
        upward_dependencies(&manifests),
        [
            "loop-core depends on loop-wire, which is not below it (it may use: tool-schema)",
            "loop-mcp depends on loop-interop, which is not below it (it may use: loop-core, loop-wire)",
        ]
    );
}
