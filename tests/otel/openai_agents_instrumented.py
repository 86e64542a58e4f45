"""OpenTelemetry spans from the OpenAI Agents SDK, imported and replayed.

The OpenAI Agents SDK (`openai-agents`), its Chat Completions model pointed
at `agent-loop serve`, runs a tool loop; the official
opentelemetry-instrumentation-openai-agents-v2 turns the SDK's own tracing
into GenAI spans (content captured on the spans). Its `execute_tool` spans
hold each result but no call id, and its `chat` spans no finish reason.
`agent-loop import` must keep every result, pair it with its call by order
within the turn, say that the ids were assigned, end the run as the last
response did, and `agent-loop replay` of the import must pass.

Usage: python openai_agents_instrumented.py AGENT_LOOP_BINARY SERVE_URL WORK_DIR [FIXTURE_OUT]
(FIXTURE_OUT: also write the spans there, to refresh the native test's fixture.)
"""

import asyncio
import base64
import json
import os
import subprocess
import sys

# Read when the instrumentation starts: content on the spans only.
os.environ["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = "span_only"

import agents  # noqa: E402
from agents import Agent, OpenAIChatCompletionsModel, Runner, function_tool  # noqa: E402
from google.protobuf import json_format  # noqa: E402
from openai import AsyncOpenAI  # noqa: E402
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans  # noqa: E402
from opentelemetry.instrumentation.openai_agents import OpenAIAgentsInstrumentor  # noqa: E402
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402

SYSTEM = "You are a support agent. Refund only after the policy check says in_window."
TASK = "Please refund my order A1001, it arrived broken."
SEEN = []  # (tool name, arguments, result) in the order the SDK ran them


def tool(name):
    """One of the application's tools: what it returns, as the model reads it."""

    def run(order_id: str) -> str:
        result = json.dumps({
            "get_order": {"order_id": order_id, "total_cents": 12000, "delivered": "2026-11-20"},
            "check_refund_policy": {"order_id": order_id, "status": "in_window"},
            "refund_order": {"order_id": order_id, "refund_id": "rf_0001", "refunded_cents": 12000},
        }[name])
        SEEN.append((name, {"order_id": order_id}, result))
        return result

    run.__name__ = name
    run.__doc__ = f"{name} for an order."
    return function_tool(run)


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
        model=OpenAIChatCompletionsModel(model="scripted", openai_client=client),
        tools=[tool(name) for name in ("get_order", "check_refund_policy", "refund_order")],
    )
    return await Runner.run(agent, TASK, max_turns=8)


def left_out(document):
    """The spans' operations that are neither a model call nor a tool call, counted."""
    counts = {}
    for resource in document["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                for attribute in span.get("attributes", []):
                    if attribute["key"] == "gen_ai.operation.name":
                        op = attribute["value"]["stringValue"]
                        counts[op] = counts.get(op, 0) + 1
    agents = counts.pop("invoke_agent", 0)
    for op in ("chat", "execute_tool"):
        counts.pop(op, None)
    return counts, agents


def check(binary, trace, document, final_output, work):
    record = os.path.join(work, "openai-agents.jsonl")
    imported = subprocess.run([binary, "import", trace, "--out", record],
                              capture_output=True, text=True, check=False)
    assert imported.returncode == 0, imported.stderr
    notes = [line for line in imported.stderr.splitlines() if line.startswith("note:")]
    with open(record, encoding="utf-8") as file:
        lines = [json.loads(line) for line in file if line.strip()]
    events = [line for line in lines if line.get("type") != "scenario"]
    turns = [e for e in events if e["type"] == "model_response"]
    stops = [t["stop_reason"] for t in turns]
    assert stops == ["tool_use"] * len(SEEN) + ["end_turn"], f"stop reasons {stops}\n{notes}"
    calls = [(e["id"], e["name"], e["args"]) for e in events if e["type"] == "tool_call"]
    assert [(n, a) for _, n, a in calls] == [(n, a) for n, a, _ in SEEN], f"calls {calls} vs {SEEN}"
    ids = [i for i, _, _ in calls]
    assert len(set(ids)) == len(ids), f"ids {ids}"
    # Each result kept, on its own call.
    results = [(e["id"], e["name"], e["content"]) for e in events if e["type"] == "tool_result"]
    assert results == [(i, n, r) for i, (n, _, r) in zip(ids, SEEN)], f"results {results}"
    assert any("ids were assigned" in n and "by order within its turn" in n for n in notes), notes
    # The notes count the spans that are there.
    others, agents = left_out(document)
    dropped = [n for n in notes if "neither a model call nor a tool call" in n]
    assert len(dropped) == 1, notes
    total = sum(others.values()) + max(agents - 1, 0)
    assert dropped[0].startswith(f"note: {total} GenAI spans"), dropped
    for op, count in others.items():
        assert f"{count} {op}" in dropped[0], (op, count, dropped)
    finished = [e for e in events if e["type"] == "run_finished"]
    assert finished and finished[0]["status"] == "done", f"ended {finished}\n{notes}"
    assert finished[0]["answer"] == final_output, finished[0]
    replayed = subprocess.run([binary, "replay", record], capture_output=True, text=True, check=False)
    assert replayed.returncode == 0, f"replay failed:\n{replayed.stdout}{replayed.stderr}"
    print(f"openai-agents-v2 0.1.0 spans imported: {len(calls)} calls with their results paired by order, "
          f"stop reasons {stops}, ended done; the replay passes. Notes: {notes}")


def main(binary, url, work, fixture_out=None):
    # Only our processor: the SDK's default one would upload to OpenAI.
    agents.set_trace_processors([])
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    OpenAIAgentsInstrumentor().instrument(tracer_provider=provider)
    result = asyncio.run(run_agent(url))
    assert len(SEEN) == 3, f"the SDK ran {len(SEEN)} tools"
    document = otlp_json(exporter.get_finished_spans())
    trace = os.path.join(work, "openai-agents.otlp.json")
    with open(trace, "w", encoding="utf-8") as file:
        json.dump(document, file)
    if fixture_out:
        with open(fixture_out, "w", encoding="utf-8") as file:
            json.dump(document, file, indent=1)
            file.write("\n")
    check(binary, trace, document, result.final_output, work)


if __name__ == "__main__":
    main(*sys.argv[1:])
