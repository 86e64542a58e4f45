#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance,
# installed with the Node 22 it needs in tests/mcp/conformance by setup.sh):
#   - client scenarios, with agent-loop as the client (tests/mcp/conformance/client.sh
#     maps each to an `agent-loop mcp` command);
#   - server scenarios against `agent-loop serve --mcp`, with its default flags.
# Every check must be SUCCESS: a WARNING fails like a FAILURE. Prints one
# line per scenario; on a failure, that scenario's output from the suite.
# Usage: scripts/mcp-conformance.sh (after `cargo build -p agent-loop`);
# AGENT_LOOP overrides the binary.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/wait-for-port.sh"
conf="$root/tests/mcp/conformance"
node22="$conf/node_modules/.bin/node"
suite="$conf/node_modules/@modelcontextprotocol/conformance/dist/index.js"
AGENT_LOOP="${AGENT_LOOP:-$root/target/debug/agent-loop}"
export AGENT_LOOP
[ -x "$node22" ] && [ -f "$suite" ] || { echo "the conformance suite is not installed: run scripts/setup.sh" >&2; exit 1; }
[ -x "$AGENT_LOOP" ] || { echo "no $AGENT_LOOP: run cargo build -p agent-loop" >&2; exit 1; }

client_scenarios=(initialize tools_call sse-retry)
# Every OAuth scenario: the 2025-11-25 ones, the 2025-03-26 fallbacks, the
# drafts (resource mismatch, offline access) and the client credentials
# extension (a secret, and a signed JWT).
client_scenarios+=(
  auth/metadata-default auth/metadata-var1 auth/metadata-var2 auth/metadata-var3
  auth/basic-cimd auth/scope-from-www-authenticate auth/scope-from-scopes-supported
  auth/scope-omitted-when-undefined auth/scope-step-up auth/scope-retry-limit
  auth/token-endpoint-auth-basic auth/token-endpoint-auth-post auth/token-endpoint-auth-none
  auth/pre-registration auth/2025-03-26-oauth-metadata-backcompat
  auth/2025-03-26-oauth-endpoint-fallback auth/resource-mismatch
  auth/offline-access-scope auth/offline-access-not-supported
  auth/client-credentials-basic auth/client-credentials-jwt
)
server_scenarios=(server-initialize ping tools-list dns-rebinding-protection server-sse-polling server-sse-multiple-streams)
out="$(mktemp -d)"
serve_pid=""
trap '[ -z "$serve_pid" ] || kill "$serve_pid" 2>/dev/null || true; rm -rf "$out"' EXIT

# Both must hold: the suite's exit status (it also fails when the client
# command exits non-zero) and verdict.mjs, which reads every check. A
# scenario the suite could not run leaves no checks, which verdict.mjs fails.
for scenario in "${client_scenarios[@]}"; do
  mkdir -p "$(dirname "$out/$scenario")" # auth/… scenarios sit in a folder
  # The suite splits --command on spaces (no path here has one) and appends the URL.
  "$node22" "$suite" client --command "bash $conf/client.sh" --scenario "$scenario" \
    -o "$out/$scenario" >"$out/$scenario.log" 2>&1 || echo "$scenario" >>"$out/suite-failed"
done

: >"$out/serve.out"
"$AGENT_LOOP" serve --port 0 --mcp "$conf/scenario.json" \
  >"$out/serve.out" 2>"$out/serve.log" &
serve_pid=$!
port="$(wait_for_port "$out/serve.out" 10)" \
  || { echo "agent-loop serve --mcp did not start: $(cat "$out/serve.log")" >&2; exit 1; }
for scenario in "${server_scenarios[@]}"; do
  "$node22" "$suite" server --url "http://127.0.0.1:$port/mcp" --scenario "$scenario" \
    -o "$out/$scenario" >"$out/$scenario.log" 2>&1 || echo "$scenario" >>"$out/suite-failed"
done

status=0
"$node22" "$conf/verdict.mjs" "$out" "${client_scenarios[@]}" "${server_scenarios[@]}" >"$out/verdict.txt" || status=$?
cat "$out/verdict.txt"
if [ -s "$out/suite-failed" ]; then
  # E.g. the client command exited non-zero, which no check shows.
  echo "the suite itself failed on: $(tr '\n' ' ' <"$out/suite-failed")"
  status=1
  while read -r scenario; do
    printf '\n--- the suite on %s:\n' "$scenario"
    cat "$out/$scenario.log"
  done <"$out/suite-failed"
elif [ "$status" != 0 ]; then
  for scenario in "${client_scenarios[@]}" "${server_scenarios[@]}"; do
    if grep -q "^FAIL $scenario:" "$out/verdict.txt"; then
      printf '\n--- the suite on %s:\n' "$scenario"
      cat "$out/$scenario.log"
    fi
  done
  printf '\n--- agent-loop serve --mcp log:\n'
  cat "$out/serve.log"
fi
exit "$status"
