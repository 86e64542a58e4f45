#!/usr/bin/env bash
# The client the official MCP conformance suite runs for its client
# scenarios: it appends the scenario server's URL as the last argument and
# names the scenario in MCP_CONFORMANCE_SCENARIO. Each scenario is served by
# a plain `agent-loop` command, the same a user types; AGENT_LOOP is the
# binary (scripts/mcp-conformance.sh sets it).
set -euo pipefail
url="${!#}"
case "${MCP_CONFORMANCE_SCENARIO:-}" in
  # The handshake (and the server/discover probe before it), then tools/list.
  initialize) exec "$AGENT_LOOP" mcp tools "$url" ;;
  # The scenario's server checks the arguments it receives.
  tools_call) exec "$AGENT_LOOP" mcp call "$url" add_numbers '{"a": 2, "b": 3}' ;;
  # Its server closes the tools/call stream after the priming event; the
  # answer only comes after `retry` ms, on GET with Last-Event-ID.
  sse-retry) exec "$AGENT_LOOP" mcp call "$url" test_reconnection ;;
  *)
    echo "client.sh: no agent-loop command for scenario ${MCP_CONFORMANCE_SCENARIO:-(none)}" >&2
    exit 2
    ;;
esac
