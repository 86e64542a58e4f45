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
  # OAuth: the scenario's server refuses until the client signs in at its
  # authorization server, which approves at once and redirects back, so
  # agent-loop follows the redirect itself (--authorize follow) instead of
  # opening a browser. Each checks discovery, registration, PKCE, scopes
  # and the token request on the way to calling its test-tool. The suite
  # hands pre-registered credentials, or a client's private key, in
  # MCP_CONFORMANCE_CONTEXT; its client id metadata document scenario
  # expects the URL below as the client's id.
  auth/*)
    oauth=(--authorize follow --oauth-client-metadata-url https://conformance-test.local/client-metadata.json)
    if [ -n "${MCP_CONFORMANCE_CONTEXT:-}" ]; then
      field() { python3 -c 'import json, os, sys; print(json.loads(os.environ["MCP_CONFORMANCE_CONTEXT"]).get(sys.argv[1], ""))' "$1"; }
      id="$(field client_id)"
      secret="$(field client_secret)"
      key="$(field private_key_pem)"
      [ -z "$id" ] || oauth+=(--oauth-client-id "$id")
      if [ -n "$secret" ]; then
        # From a file, as a person should pass it: a flag's value shows in
        # the process list.
        secret_file="$(mktemp)"
        printf '%s\n' "$secret" >"$secret_file"
        oauth+=(--oauth-client-secret-file "$secret_file")
      fi
      if [ -n "$key" ]; then
        key_file="$(mktemp)"
        printf '%s\n' "$key" >"$key_file"
        oauth+=(--oauth-private-key "$key_file")
      fi
    fi
    exec "$AGENT_LOOP" mcp call "${oauth[@]}" "$url" test-tool
    ;;
  *)
    echo "client.sh: no agent-loop command for scenario ${MCP_CONFORMANCE_SCENARIO:-(none)}" >&2
    exit 2
    ;;
esac
