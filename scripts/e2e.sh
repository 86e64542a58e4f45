#!/usr/bin/env bash
# Builds the release bundle into dist/ and runs the browser end-to-end tests
# (tests/e2e/run.mjs) in headless Chromium, after checking the bundle against
# its size budget (scripts/bundle-size.mjs). Prints `N passed, N failed` last
# and exits non-zero when a test fails. Screenshots go to tests/e2e/artifacts/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/setup.sh"
cd "$root"
trunk build --release
# The size check CI fails on (deterministic, unlike timings).
node scripts/bundle-size.mjs dist
# The provider tests start `agent-loop serve` as a mock provider.
cargo build -q -p agent-loop
exec node tests/e2e/run.mjs "$root/dist"
