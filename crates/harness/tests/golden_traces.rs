//! The outline of every built-in scenario's trace, pinned in
//! `tests/golden/builtin_traces.txt`. The browser's wasm test compares its own
//! runs with the same file, which is how "the same trace natively and in the
//! browser" is checked. Regenerate after an intended change with
//! `UPDATE_GOLDEN=1 cargo test -p harness --test golden_traces`.

mod common;

use harness::library::BUILTIN;

const GOLDEN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/golden/builtin_traces.txt"
);

#[tokio::test(start_paused = true)]
async fn builtin_traces_match_the_golden_outlines() {
    let mut runs = Vec::new();
    for builtin in BUILTIN {
        let (_, events) = common::run_builtin(builtin).await;
        runs.push((builtin.id, events));
    }
    let actual = harness::event::outlines_text(&runs);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(GOLDEN, &actual).unwrap();
    }
    let expected = std::fs::read_to_string(GOLDEN).unwrap_or_default();
    if actual != expected {
        let first = actual
            .lines()
            .zip(expected.lines())
            .position(|(a, e)| a != e)
            .unwrap_or(actual.lines().count().min(expected.lines().count()));
        panic!(
            "trace outlines differ from {GOLDEN} at line {}:\n  actual:   {:?}\n  expected: {:?}\n(UPDATE_GOLDEN=1 regenerates it after an intended change)",
            first + 1,
            actual.lines().nth(first),
            expected.lines().nth(first)
        );
    }
}
