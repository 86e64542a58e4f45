#!/usr/bin/env bash
# Prints the performance figures: the harness loop natively and compiled to
# wasm in headless Chromium (same scenarios, so they can be compared), then
# the page in headless Chromium (startup to Run enabled; 1,000- and
# 10,000-turn runs: time, per turn, DOM nodes, longest task, the cost per
# turn from the 1,000th to the 10,000th, Stop to banner,
# and the page's cost per turn as a multiple of the engine's own native
# figure), then a first run on the local, 4G and 3G profiles (static page,
# Run enabled, first run done, bytes by then), then the release bundle's
# sizes against the first-paint budget.
# Figures, not pass/fail tests: only the bundle budget can fail.
#
# `bash scripts/bench.sh first-run` prints only the first-run table (issue
# 28): a release build, then scripts/bench.mjs (local, 4G and 3G; Run clicked
# as soon as it is enabled and 5 s after load; a waterfall per file; the
# bytes each split module costs). About 5 minutes with the build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/setup.sh"
cd "$root"

if [ "${1:-}" = first-run ]; then
  trunk build --release >/dev/null 2>&1
  echo "== first run on a slow network (release build, brotli, headless Chromium)"
  exec node scripts/bench.mjs dist
fi

echo "== native"
native="$(cargo bench -q -p harness --bench loop_steps 2>/dev/null | grep -v '^$')"
echo "$native"
# The engine's mean µs per step (column 5) at 1,000 and 10,000 turns: the
# browser benchmark gives the page's cost per turn against it.
ENGINE_US_PER_STEP_1000="$(awk '$1 == 1000 { print $5 }' <<<"$native")"
ENGINE_US_PER_STEP_10000="$(awk '$1 == 10000 { print $5 }' <<<"$native")"
export ENGINE_US_PER_STEP_1000 ENGINE_US_PER_STEP_10000

echo "== wasm (release build, headless Chromium)"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
CHROMEDRIVER="$(command -v chromedriver)" \
  cargo test --release --target wasm32-unknown-unknown -p agent-loop-playground --no-default-features --test wasm_bench -- --nocapture 2>/dev/null \
  | grep -E '^ +[0-9]+ |turns|harness loop'

trunk build --release >/dev/null 2>&1

echo "== browser (release build, headless Chromium)"
node scripts/browser-bench.mjs dist

# A first default run on the local, 4G and 3G profiles: static
# page, Run enabled, first run done and the bytes fetched by then.
echo "== first run on a slow network (release build, brotli, headless Chromium)"
node scripts/bench.mjs dist

# Last: the size budget is the one check that can fail the script.
echo "== bundle"
node scripts/bundle-size.mjs dist
