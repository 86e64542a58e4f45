#!/usr/bin/env bash
# Serves the playground at http://127.0.0.1:8080 with a release build that
# rebuilds on change (`trunk serve --release`; port and address in Trunk.toml);
# reload the page to see a rebuild. Trunk's auto-reload is off: it injects an
# inline script whose text the server fills in per request, so no build-time
# hash can allow it, and the page's Content-Security-Policy would block it.
# Extra arguments go to trunk, e.g. `scripts/serve.sh --port 8081`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Installs what is missing and puts ~/.cargo/bin and node_modules/.bin
# (wasm-bindgen 0.2.130, wasm-opt 132) on PATH, so Trunk downloads nothing.
. "$root/scripts/setup.sh"
cd "$root"
exec trunk serve --release --no-autoreload "$@"
