//! The MCP packages scripts/setup.sh installs for the tests that speak to
//! real servers (.venv-mcp, node_modules): their paths, or None after
//! saying SKIPPED on stderr; a failure instead when
//! `AGENT_LOOP_REQUIRE_MCP_PACKAGES` is set (CI sets it), since a machine
//! without them would otherwise pass having checked nothing.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;

pub const REQUIRE_PACKAGES: &str = "AGENT_LOOP_REQUIRE_MCP_PACKAGES";

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The installed program at `relative` (from the repository root).
pub fn installed(relative: &str) -> Option<String> {
    installed_all(&[relative]).map(|mut paths| paths.remove(0))
}

/// The installed programs at `relatives`, in order, when all are there.
pub fn installed_all(relatives: &[&str]) -> Option<Vec<String>> {
    let root = repo_root();
    let paths: Vec<PathBuf> = relatives.iter().map(|r| root.join(r)).collect();
    let missing: Vec<String> = paths
        .iter()
        .filter(|path| !path.exists())
        .map(|path| path.display().to_string())
        .collect();
    if missing.is_empty() {
        return Some(paths.iter().map(|p| p.display().to_string()).collect());
    }
    let missing = format!(
        "{} missing (scripts/setup.sh installs the MCP test packages)",
        missing.join(" and ")
    );
    let required = std::env::var(REQUIRE_PACKAGES).is_ok_and(|v| !v.is_empty() && v != "0");
    assert!(
        !required,
        "{missing}; {REQUIRE_PACKAGES} is set, so this fails instead of skipping"
    );
    // libtest hides what a passing test prints with eprintln!, but not what
    // it writes to stderr itself: the skip must show in `cargo test`.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {missing}; set {REQUIRE_PACKAGES}=1 to fail instead"
    );
    None
}
