"""The OpenAI Agents SDK traced by OpenInference, imported and replayed.

The OpenAI Agents SDK (`openai-agents`), its Chat Completions model pointed
at `agent-loop serve` (the built-in precondition-in-description: one call to
issue_refund, then the answer), runs its tool loop traced by
openinference-instrumentation-openai-agents 2.6.0, as Arize Phoenix users
trace it: AGENT spans (the agent, and the SDK's workflow around it), an
LLM span per model call (no finish reason, no tool list), a TOOL span per
call (the tool's definition on it), CHAIN spans per turn.
The spans are written as OTLP/JSON by the official encoder; `agent-loop
import` must read the call with its arguments and result and the answer, and
`agent-loop replay` of it must pass.

Usage: python openinference_agents_instrumented.py AGENT_LOOP SERVE_URL WORK_DIR [FIXTURE_OUT]
(FIXTURE_OUT: also write the spans there, to refresh the native test's fixture.)
"""

import asyncio
import base64
import json
import os
import subprocess
import sys

import agents
from agents import Agent, OpenAIChatCompletionsModel, Runner, function_tool
from google.protobuf import json_format
from openai import AsyncOpenAI
from openinference.instrumentation.openai_agents import OpenAIAgentsInstrumentor
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

SYSTEM = "You are a support agent. Refund an order only once."
TASK = "The customer of ord_a1b2c3d4e5 wants their money back."
SEEN = []  # (tool name, arguments, result) in the order the SDK ran them


@function_tool
def issue_refund(order_id: str) -> str:
    """Refund an order in full."""
    result = json.dumps({"ok": True, "refund_id": "re_0001", "order_id": order_id})
    SEEN.append(("issue_refund", {"order_id": order_id}, result))
    return result


def otlp_json(spans):
    """The spans as OTLP/JSON: the official encoder, ids as hex (OTLP's JSON rule)."""
    document = json_format.MessageToDict(encode_spans(spans))
    for resource in document.get("resourceSpans", []):
        for scope in resource.get("scopeSpans", []):
            for span in scope.get("spans", []):
                for key in ("traceId", "spanId", "parentSpanId"):
                    if span.get(key):
                        span[key] = base64.b64decode(span[key]).hex()
    return document


async def run_agent(url):
    client = AsyncOpenAI(base_url=f"{url}/v1", api_key="unused")
    agent = Agent(
        name="Refund agent",
        instructions=SYSTEM,
        model=OpenAIChatCompletionsModel(model="gpt-4.1", openai_client=client),
        tools=[issue_refund],
    )
    return await Runner.run(agent, TASK, max_turns=8)


def check(binary, trace_path, final_output, work):
    record = os.path.join(work, "openinference-agents.jsonl")
    imported = subprocess.run([binary, "import", trace_path, "--out", record],
                              capture_output=True, text=True, check=False)
    assert imported.returncode == 0, imported.stderr
    notes = [line for line in imported.stderr.splitlines() if line.startswith("note:")]
    with open(record, encoding="utf-8") as file:
        lines = [json.loads(line) for line in file if line.strip()]
    scenario = lines[0]["scenario"] if lines[0].get("type") == "scenario" else None
    events = [line for line in lines if line.get("type") != "scenario"]
    turns = [e for e in events if e["type"] == "model_response"]
    assert len(turns) == 2, f"{len(turns)} turns:\n{notes}"
    calls = [(e["name"], e["args"]) for e in events if e["type"] == "tool_call"]
    assert calls == [(n, a) for n, a, _ in SEEN], f"calls {calls} vs {SEEN}"
    results = [e["content"] for e in events if e["type"] == "tool_result"]
    assert results == [r for _, _, r in SEEN], f"results {results}"
    finished = [e for e in events if e["type"] == "run_finished"]
    assert finished and finished[0]["status"] == "done", f"ended {finished}\n{notes}"
    assert finished[0]["answer"] == final_output, f"answer {finished[0]['answer']!r} vs {final_output!r}"
    assert scenario is not None, f"no scenario:\n{imported.stderr}"
    assert scenario["task"] == TASK, scenario["task"]
    assert [t["name"] for t in scenario["tools"]] == ["issue_refund"], scenario["tools"]
    # The LLM spans list no tools: the definition comes from the TOOL span.
    assert scenario["tools"][0]["description"] == "Refund an order in full.", scenario["tools"]
    assert scenario["name"] == "Refund agent", scenario["name"]
    replayed = subprocess.run([binary, "replay", record], capture_output=True, text=True, check=False)
    assert replayed.returncode == 0, f"replay failed:\n{replayed.stdout}{replayed.stderr}"
    print(f"openinference-instrumentation-openai-agents 2.6.0 spans imported as {len(turns)} turns, "
          f"{len(calls)} call with its arguments and result, the answer; the replay passes. Notes: {notes}")


def main(binary, url, work, fixture_out=None):
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    # Only OpenInference's processor: the SDK's default one would upload to OpenAI.
    agents.set_trace_processors([])
    OpenAIAgentsInstrumentor().instrument(tracer_provider=provider)
    result = asyncio.run(run_agent(url))
    assert len(SEEN) == 1, f"the SDK ran {len(SEEN)} tools"
    document = otlp_json(exporter.get_finished_spans())
    trace_path = os.path.join(work, "openinference-agents.otlp.json")
    with open(trace_path, "w", encoding="utf-8") as file:
        json.dump(document, file)
    if fixture_out:
        with open(fixture_out, "w", encoding="utf-8") as file:
            json.dump(document, file, indent=1)
            file.write("\n")
    check(binary, trace_path, result.final_output, work)


if __name__ == "__main__":
    main(*sys.argv[1:])
