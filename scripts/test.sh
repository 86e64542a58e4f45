#!/usr/bin/env bash
# Installs what is missing, then runs every test:
#   1. formatting and lints (native and wasm32);
#   2. native tests: the harness (statuses, properties, golden traces), the
#      schema validator against the JSON Schema Test Suite, the CLI, the app's
#      view models;
#   2a. the built-in course: `agent-loop lesson verify`;
#   2b. MCP: the official TypeScript SDK's client against `serve --mcp`
#      (the Rust tests against node MCP servers ran in step 2), the
#      official Python SDK both ways (its server under `mcp tools` and `run`,
#      its client against `serve --mcp`), and the official conformance
#      suite (scripts/mcp-conformance.sh);
#   3. the harness compiled to wasm, in headless Chromium (wasm-bindgen-test),
#      including the provider adapter over fetch against `agent-loop serve`;
#   4. the page end to end in headless Chromium (playwright-core), which prints
#      the closing `N passed, N failed` line.
# Stops at the first failure with a non-zero exit.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/setup.sh"
. "$root/scripts/wait-for-port.sh"
cd "$root"

step() { printf '\n== %s\n' "$*" >&2; }

step "format and lints"
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p agent-loop-playground --target wasm32-unknown-unknown --all-targets -- -D warnings

step "native tests"
cargo test --workspace

step "lessons: every built-in lesson is true"
# A lesson whose start already meets its goal, or whose solution does not,
# fails here with its name. The lessons run on a paused clock: under a second.
cargo build -q -p agent-loop
"$root/target/debug/agent-loop" lesson verify

step "MCP: the official TypeScript SDK against agent-loop serve --mcp"
# The SDK's Client lists serve's tools and calls one, answered over SSE and
# whole; it is the client browsers and agents use, so serve must satisfy it.
cargo build -q -p agent-loop
mcp_out="$(mktemp)"
"$root/target/debug/agent-loop" serve --port 0 --mcp refund-with-approval >"$mcp_out" 2>/dev/null &
mcp_pid=$!
mcp_port="$(wait_for_port "$mcp_out" 10)" || { kill "$mcp_pid"; echo "serve --mcp did not start" >&2; exit 1; }
mcp_status=0
node "$root/tests/mcp/sdk_client.mjs" "http://127.0.0.1:$mcp_port/mcp" || mcp_status=$?
kill "$mcp_pid" 2>/dev/null || true
rm -f "$mcp_out"
[ "$mcp_status" = 0 ] || { echo "the SDK client failed against serve --mcp" >&2; exit "$mcp_status"; }

step "MCP: the official Python SDK (mcp on PyPI) both ways"
# Its MCPServer (tests/mcp/python_server.py, uvicorn) serves `mcp tools` and a
# run; its ClientSession lists and calls serve's tools. setup.sh installed it.
py="$root/.venv-mcp/bin/python"
py_dir="$(mktemp -d)"
# The output files exist before the background processes start: a redirect
# is made in the child, which may come after the first read here.
: >"$py_dir/server.out"
: >"$py_dir/serve.out"
"$py" "$root/tests/mcp/python_server.py" 0 >"$py_dir/server.out" 2>"$py_dir/server.log" &
py_pid=$!
py_fail() { kill "$py_pid" 2>/dev/null || true; rm -rf "$py_dir"; echo "python SDK: $*" >&2; exit 1; }
# Importing the SDK and starting uvicorn takes a second or two; a busy CI
# machine, more.
py_port="$(wait_for_port "$py_dir/server.out" 30)" || py_fail "the server did not start: $(cat "$py_dir/server.log")"
"$root/target/debug/agent-loop" mcp tools "http://127.0.0.1:$py_port/mcp" >"$py_dir/tools.json" \
  || py_fail "agent-loop mcp tools failed against the Python server"
"$py" -c 'import json, sys
names = [t["name"] for t in json.load(open(sys.argv[1]))]
assert names == ["add", "echo"], f"mcp tools listed {names}, expected add and echo"
print("python SDK server: mcp tools listed", names)' "$py_dir/tools.json" || py_fail "mcp tools output is wrong"
# The scenario names port 8799; the copy names the server's.
sed "s|127\.0\.0\.1:8799|127.0.0.1:$py_port|" "$root/tests/mcp/python_sdk_scenario.json" >"$py_dir/scenario.json"
"$root/target/debug/agent-loop" run "$py_dir/scenario.json" --jsonl >"$py_dir/run.jsonl" \
  || py_fail "agent-loop run against the Python server failed"
"$py" -c 'import json, sys
events = [json.loads(line) for line in open(sys.argv[1])]
results = [e for e in events if e["type"] == "tool_result"]
finished = events[-1]
assert finished["type"] == "run_finished" and finished["status"] == "done", f"the run ended {finished}"
assert len(results) == 2, f"expected 2 tool results, got {results}"
assert not results[0]["is_error"] and "5" in results[0]["content"], f"add(2, 3) gave {results[0]}"
# The SDK sends the sum as text and again as structuredContent; the model reads it once.
assert "structured content" not in results[0]["content"], f"add(2, 3) reached the model twice: {results[0]}"
assert results[1]["is_error"] and "/a" in results[1]["content"], f"add(a=\"x\") gave {results[1]}"
print("python SDK server: run done, add(2, 3) =", results[0]["content"].splitlines()[0] + ", bad call:", results[1]["content"])' \
  "$py_dir/run.jsonl" || py_fail "the run against the Python server is wrong"
kill "$py_pid" 2>/dev/null || true
"$root/target/debug/agent-loop" serve --port 0 --mcp refund-with-approval >"$py_dir/serve.out" 2>/dev/null &
py_pid=$!
py_port="$(wait_for_port "$py_dir/serve.out" 10)" || py_fail "serve --mcp did not start"
"$py" "$root/tests/mcp/python_sdk_client.py" "http://127.0.0.1:$py_port/mcp" \
  || py_fail "the Python SDK client failed against serve --mcp"
kill "$py_pid" 2>/dev/null || true
rm -rf "$py_dir"

step "MCP: the official conformance suite (@modelcontextprotocol/conformance)"
# Client scenarios with agent-loop as the client, server scenarios against
# serve --mcp; every check must be SUCCESS (a WARNING fails).
bash "$root/scripts/mcp-conformance.sh"

step "wasm tests in headless Chromium"
# The provider adapter is tested over the browser's fetch against real
# `agent-loop serve` processes, one per scenario, on ports the system picks.
cargo build -q -p agent-loop
mock_dir="$(mktemp -d)"
mock_pids=()
trap 'kill "${mock_pids[@]}" 2>/dev/null || true; rm -rf "$mock_dir"' EXIT
start_mock() { # NAME SCENARIO
  "$root/target/debug/agent-loop" serve --port 0 "$2" >"$mock_dir/$1.out" 2>"$mock_dir/$1.log" &
  mock_pids+=("$!")
}
mock_port() { # NAME: waits for the server's "listening on" line
  wait_for_port "$mock_dir/$1.out" 10 && return
  echo "agent-loop serve $1 did not start: $(cat "$mock_dir/$1.log")" >&2
  return 1
}
start_mock main get-time
start_mock retry rate-limit-retry
start_mock auth model-error
start_mock slow deadline
AGENT_LOOP_MOCK_PORT="$(mock_port main)"
AGENT_LOOP_MOCK_PORT_RETRY="$(mock_port retry)"
AGENT_LOOP_MOCK_PORT_AUTH="$(mock_port auth)"
AGENT_LOOP_MOCK_PORT_SLOW="$(mock_port slow)"
export AGENT_LOOP_MOCK_PORT AGENT_LOOP_MOCK_PORT_RETRY AGENT_LOOP_MOCK_PORT_AUTH AGENT_LOOP_MOCK_PORT_SLOW
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
CHROMEDRIVER="$(command -v chromedriver)" \
  cargo test --target wasm32-unknown-unknown -p agent-loop-playground --no-default-features \
    --test wasm --test wasm_provider --test wasm_bench

step "OpenTelemetry exports against the official protobuf definitions"
# Runs that between them end every way a run can (done, errors, retries,
# approvals, refusals of bad arguments, limits), exported with `agent-loop
# export --otel`, must parse strictly as opentelemetry-proto's TracesData
# (Python's official package).
otel_venv="$root/target/otel-venv"
[ -x "$otel_venv/bin/python" ] || python3 -m venv "$otel_venv"
"$otel_venv/bin/pip" install --quiet --disable-pip-version-check -r "$root/tests/otel/requirements.txt"
otel_dir="$(mktemp -d)"
for id in get-time refund-with-approval bad-arguments unknown-tool model-error rate-limit-retry \
  protocol-duplicate-ids turn-limit repeated-call deadline refusal max-tokens; do
  # A run that does not end `done` exits 3; its record is written all the same.
  "$root/target/debug/agent-loop" run "$id" --approve all --record "$otel_dir/$id.jsonl" >/dev/null 2>&1 || true
  "$root/target/debug/agent-loop" export --otel "$otel_dir/$id.jsonl" --out "$otel_dir/$id.json"
done
"$otel_venv/bin/python" "$root/tests/otel/validate_otlp.py" "$otel_dir"/*.json

step "OpenTelemetry spans from the official OpenAI instrumentation, imported"
# The OpenAI Python SDK, traced by opentelemetry-instrumentation-openai-v2,
# runs a tool loop against `agent-loop serve`; `agent-loop import` must read
# back its calls, ids, results and finish reasons.
start_mock otel refund-policy
"$otel_venv/bin/python" "$root/tests/otel/openai_instrumented.py" \
  "$root/target/debug/agent-loop" "http://127.0.0.1:$(mock_port otel)" "$otel_dir"

step "OpenTelemetry spans from OpenLLMetry beside the SDKs' own, imported and replayed"
# OpenLLMetry 0.62.4 (content on) traces a tool loop of the official SDK
# against `agent-loop serve`, with a second set of spans for each model call
# beside it: the Anthropic SDK's own, or openai-v2's. The import must be the
# run the SDK saw (one turn per call, ids, arguments, results, answer, tools,
# system prompt) and `agent-loop replay` of it must pass.
start_mock openllmetry refund-policy
for provider in anthropic openai; do
  "$otel_venv/bin/python" "$root/tests/otel/openllmetry_instrumented.py" "$provider" \
    "$root/target/debug/agent-loop" "http://127.0.0.1:$(mock_port openllmetry)" "$otel_dir"
done

step "OpenTelemetry spans from the OpenAI Agents SDK's official instrumentation, imported and replayed"
# The OpenAI Agents SDK runs a tool loop against `agent-loop serve`, traced by
# opentelemetry-instrumentation-openai-agents-v2: its tool spans carry no call
# ids and its chat spans no finish reasons. The import must keep each result
# on its call, say the ids were assigned, and replay.
start_mock agents refund-policy
"$otel_venv/bin/python" "$root/tests/otel/openai_agents_instrumented.py" \
  "$root/target/debug/agent-loop" "http://127.0.0.1:$(mock_port agents)" "$otel_dir"

step "OpenTelemetry spans in the OpenInference conventions (Arize Phoenix), imported and replayed"
# The OpenAI SDK traced by openinference-instrumentation-openai, and the
# OpenAI Agents SDK by openinference-instrumentation-openai-agents, each run
# a tool loop against `agent-loop serve`; the import must be the run the SDK
# saw (the call, its arguments and result, the answer, the tools) and
# `agent-loop replay` of it must pass.
start_mock openinference precondition-in-description
for script in openinference_instrumented openinference_agents_instrumented; do
  "$otel_venv/bin/python" "$root/tests/otel/$script.py" \
    "$root/target/debug/agent-loop" "http://127.0.0.1:$(mock_port openinference)" "$otel_dir"
done
rm -rf "$otel_dir"

step "browser end-to-end tests"
bash "$root/scripts/e2e.sh"
