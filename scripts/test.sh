#!/usr/bin/env bash
# Installs what is missing, then runs every test:
#   1. formatting and lints (native and wasm32);
#   2. native tests: the harness (statuses, properties, golden traces), the
#      schema validator against the JSON Schema Test Suite, the CLI, the app's
#      view models;
#   3. the harness compiled to wasm, in headless Chromium (wasm-bindgen-test);
#   4. the page end to end in headless Chromium (playwright-core), which prints
#      the closing `N passed, N failed` line.
# Stops at the first failure with a non-zero exit.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/setup.sh"
cd "$root"

step() { printf '\n== %s\n' "$*" >&2; }

step "format and lints"
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p agent-loop-playground --target wasm32-unknown-unknown --all-targets -- -D warnings

step "native tests"
cargo test --workspace

step "wasm tests in headless Chromium"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
CHROMEDRIVER="$(command -v chromedriver)" \
  cargo test --target wasm32-unknown-unknown -p agent-loop-playground --test wasm

step "browser end-to-end tests"
bash "$root/scripts/e2e.sh"
