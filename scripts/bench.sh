#!/usr/bin/env bash
# Prints the performance figures: the harness loop natively and compiled to
# wasm in headless Chromium (same scenarios, so they can be compared), the
# release bundle's sizes against the first-paint budget, then the page in
# headless Chromium (startup to Run enabled, longest task in a 1,000-turn run). Figures, not
# pass/fail tests: only the bundle budget can fail.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/setup.sh"
cd "$root"

echo "== native"
cargo bench -q -p harness --bench loop_steps 2>/dev/null | grep -v '^$'

echo "== wasm (release build, headless Chromium)"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
CHROMEDRIVER="$(command -v chromedriver)" \
  cargo test --release --target wasm32-unknown-unknown -p agent-loop-playground --no-default-features --test wasm_bench -- --nocapture 2>/dev/null \
  | grep -E '^ +[0-9]+ |turns|harness loop'

trunk build --release >/dev/null 2>&1

echo "== browser (release build, headless Chromium)"
node scripts/browser-bench.mjs dist

# Last: the size budget is the one check that can fail the script.
echo "== bundle"
node scripts/bundle-size.mjs dist
