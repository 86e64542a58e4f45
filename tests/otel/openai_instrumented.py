"""OpenTelemetry GenAI spans from software no one here wrote, imported.

The official OpenAI Python SDK, instrumented by the official
opentelemetry-instrumentation-openai-v2 (content captured on the spans, the
latest GenAI conventions), runs a tool loop against `agent-loop serve`. Its
spans, encoded to OTLP/JSON by the official OTLP encoder, are read back by
`agent-loop import`, and the test checks that the tool calls, their ids,
their results and each turn's finish reason arrive as the SDK saw them.

Usage: python openai_instrumented.py AGENT_LOOP_BINARY SERVE_URL WORK_DIR
"""

import base64
import json
import os
import subprocess
import sys

# Read when the instrumentation is imported: content on the spans.
os.environ["OTEL_SEMCONV_STABILITY_OPT_IN"] = "gen_ai_latest_experimental"
os.environ["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = "span_only"

import openai  # noqa: E402
from google.protobuf import json_format  # noqa: E402
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans  # noqa: E402
from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor  # noqa: E402
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402

TOOLS = [
    {"type": "function", "function": {"name": name, "description": f"{name} for an order",
     "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}}
    for name in ("get_order", "check_refund_policy", "refund_order")
]


def run_loop(url):
    """The SDK's own tool loop: returns what it saw (calls, results, finish reasons)."""
    client = openai.OpenAI(base_url=f"{url}/v1", api_key="unused")
    messages = [{"role": "user", "content": "Please refund my order A1001, it arrived broken."}]
    calls, finishes = [], []
    for _ in range(8):
        response = client.chat.completions.create(model="scripted", messages=messages, tools=TOOLS)
        choice = response.choices[0]
        finishes.append(choice.finish_reason)
        messages.append(choice.message.model_dump(exclude_none=True))
        if choice.finish_reason != "tool_calls":
            break
        for call in choice.message.tool_calls:
            result = json.dumps({"tool": call.function.name, "ok": True})
            calls.append((call.id, call.function.name, json.loads(call.function.arguments), result))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    return calls, finishes


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


def main(binary, url, work):
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    OpenAIInstrumentor().instrument(tracer_provider=provider)
    calls, finishes = run_loop(url)
    assert len(calls) == 3, f"the SDK made {len(calls)} calls"
    trace = os.path.join(work, "openai-v2.otlp.json")
    with open(trace, "w", encoding="utf-8") as file:
        json.dump(otlp_json(exporter.get_finished_spans()), file)
    imported = subprocess.run([binary, "import", trace], capture_output=True, text=True, check=False)
    assert imported.returncode == 0, imported.stderr
    events = [json.loads(line) for line in imported.stdout.splitlines() if line.strip()]
    got_calls = [(e["id"], e["name"], e["args"]) for e in events if e.get("type") == "tool_call"]
    got_results = [(e["id"], e["content"]) for e in events if e.get("type") == "tool_result"]
    got_finishes = [e["stop_reason"] for e in events if e.get("type") == "model_response"]
    assert got_calls == [(i, n, a) for i, n, a, _ in calls], f"calls: {got_calls} vs {calls}"
    assert got_results == [(i, r) for i, _, _, r in calls], f"results: {got_results}"
    assert got_finishes == finishes, f"finish reasons: {got_finishes} vs {finishes}"
    finished = [e for e in events if e.get("type") == "run_finished"]
    assert finished and finished[0]["status"] == "done", f"ended {finished}"
    print(f"openai-v2 spans imported: {len(got_calls)} calls with their ids and results, finish reasons {got_finishes}")


if __name__ == "__main__":
    main(*sys.argv[1:])
