"""OpenLLMetry's spans, with the SDKs' own beside them, imported as the run they were.

A real tool loop with an official provider SDK against `agent-loop serve`,
traced twice over, as people run it:
- anthropic: OpenLLMetry's opentelemetry-instrumentation-anthropic, and the
  Anthropic SDK's own spans (it traces itself; content on with
  ANTHROPIC_OPEN_TELEMETRY_TRACES_CONTENT_MODE=content), all inside the
  application's span, so each model call has two spans in one trace;
- openai: OpenLLMetry's opentelemetry-instrumentation-openai, and the
  official opentelemetry-instrumentation-openai-v2 on the same client (the
  OpenAI SDK has no spans of its own), each call a trace of its own.
Content capture is on (TRACELOOP_TRACE_CONTENT=true). The spans are written
as OTLP/JSON by the official encoder, `agent-loop import` reads them, and
the test checks that the record is the run the SDK saw: one turn per model
call, the calls with their ids and arguments, the results, the answer, the
tools and the system prompt; and that `agent-loop replay` of it passes.

Usage: python openllmetry_instrumented.py anthropic|openai AGENT_LOOP SERVE_URL WORK_DIR [--keep FILE]
(`serve` runs the built-in refund-policy; --keep also writes the trace to FILE,
as the committed fixture of the native tests was made.)
"""

import base64
import json
import os
import subprocess
import sys

# Read when the instrumentations and SDKs are imported: content on the spans.
os.environ["TRACELOOP_TRACE_CONTENT"] = "true"
os.environ["ANTHROPIC_OPEN_TELEMETRY_TRACES_CONTENT_MODE"] = "content"
os.environ["OTEL_SEMCONV_STABILITY_OPT_IN"] = "gen_ai_latest_experimental"
os.environ["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = "span_only"

from google.protobuf import json_format  # noqa: E402
from opentelemetry import trace  # noqa: E402
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans  # noqa: E402
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402

SYSTEM = "You are a support agent. Refund only after the policy check says in_window."
TASK = "Please refund my order A1001, it arrived broken."
TOOLS = {
    "get_order": "Look up an order by its id, e.g. A1001.",
    "check_refund_policy": "Say whether an order can still be refunded.",
    "refund_order": "Refund an order in full. Only after check_refund_policy says in_window.",
}
SCHEMA = {"type": "object", "properties": {"order_id": {"type": "string"}},
          "required": ["order_id"], "additionalProperties": False}


def tool(name, args):
    """The application's tools: what each call returns, as the model reads it."""
    order = args["order_id"]
    return json.dumps({
        "get_order": {"order_id": order, "total_cents": 12000, "delivered": "2026-11-20"},
        "check_refund_policy": {"order_id": order, "status": "in_window"},
        "refund_order": {"order_id": order, "refund_id": "rf_0001", "refunded_cents": 12000},
    }[name])


def anthropic_loop(url):
    import anthropic
    client = anthropic.Anthropic(base_url=url, api_key="unused")
    tools = [{"name": n, "description": d, "input_schema": SCHEMA} for n, d in TOOLS.items()]
    messages = [{"role": "user", "content": TASK}]
    seen = {"calls": [], "turns": 0, "answer": None}
    for _ in range(8):
        response = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, system=SYSTEM,
                                          tools=tools, messages=messages)
        seen["turns"] += 1
        messages.append({"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in response.content]})
        if response.stop_reason != "tool_use":
            seen["answer"] = "".join(b.text for b in response.content if b.type == "text")
            break
        results = []
        for block in response.content:
            if block.type == "tool_use":
                result = tool(block.name, block.input)
                seen["calls"].append((block.id, block.name, block.input, result))
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": result})
        messages.append({"role": "user", "content": results})
    return seen


def openai_loop(url):
    import openai
    client = openai.OpenAI(base_url=f"{url}/v1", api_key="unused")
    tools = [{"type": "function", "function": {"name": n, "description": d, "parameters": SCHEMA}}
             for n, d in TOOLS.items()]
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": TASK}]
    seen = {"calls": [], "turns": 0, "answer": None}
    for _ in range(8):
        response = client.chat.completions.create(model="gpt-4.1", messages=messages, tools=tools)
        seen["turns"] += 1
        choice = response.choices[0]
        messages.append(choice.message.model_dump(exclude_none=True))
        if choice.finish_reason != "tool_calls":
            seen["answer"] = choice.message.content
            break
        for call in choice.message.tool_calls:
            args = json.loads(call.function.arguments)
            result = tool(call.function.name, args)
            seen["calls"].append((call.id, call.function.name, args, result))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    return seen


def instrument(provider_name, tracer_provider):
    if provider_name == "anthropic":
        from opentelemetry.instrumentation.anthropic import AnthropicInstrumentor
        AnthropicInstrumentor().instrument(tracer_provider=tracer_provider)
    else:
        from opentelemetry.instrumentation.openai import OpenAIInstrumentor
        from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor as OpenAIV2Instrumentor
        OpenAIInstrumentor().instrument(tracer_provider=tracer_provider)
        OpenAIV2Instrumentor().instrument(tracer_provider=tracer_provider)


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


def check(provider_name, binary, trace_path, seen, work):
    record = os.path.join(work, f"{provider_name}-openllmetry.jsonl")
    imported = subprocess.run([binary, "import", trace_path, "--out", record],
                              capture_output=True, text=True, check=False)
    assert imported.returncode == 0, imported.stderr
    with open(record, encoding="utf-8") as file:
        lines = [json.loads(line) for line in file if line.strip()]
    scenario = lines[0]["scenario"] if lines[0].get("type") == "scenario" else None
    events = [line for line in lines if line.get("type") != "scenario"]
    turns = [e for e in events if e["type"] == "model_response"]
    assert len(turns) == seen["turns"], f"{len(turns)} turns for {seen['turns']} model calls:\n{imported.stderr}"
    assert all(t["stop_reason"] != "unknown" for t in turns), [t["stop_reason"] for t in turns]
    got_calls = [(e["id"], e["name"], e["args"]) for e in events if e["type"] == "tool_call"]
    assert got_calls == [(i, n, a) for i, n, a, _ in seen["calls"]], f"calls: {got_calls} vs {seen['calls']}"
    got_results = [(e["id"], e["content"]) for e in events if e["type"] == "tool_result"]
    assert got_results == [(i, r) for i, _, _, r in seen["calls"]], f"results: {got_results}"
    finished = [e for e in events if e["type"] == "run_finished"]
    assert finished and finished[0]["status"] == "done", f"ended {finished}\n{imported.stderr}"
    assert finished[0]["answer"] == seen["answer"], f"answer {finished[0]['answer']!r} vs {seen['answer']!r}"
    assert scenario is not None, f"no scenario:\n{imported.stderr}"
    assert scenario.get("system") == SYSTEM, f"system prompt {scenario.get('system')!r}"
    assert scenario["task"] == TASK, scenario["task"]
    tools = {t["name"]: t for t in scenario["tools"]}
    assert sorted(tools) == sorted(TOOLS), f"tools {sorted(tools)}"
    for name, description in TOOLS.items():
        assert tools[name]["description"] == description, tools[name]
        assert tools[name]["input_schema"] == SCHEMA, tools[name]
    replayed = subprocess.run([binary, "replay", record], capture_output=True, text=True, check=False)
    assert replayed.returncode == 0, f"replay failed:\n{replayed.stdout}{replayed.stderr}"
    notes = [line for line in imported.stderr.splitlines() if line.startswith("note:")]
    print(f"{provider_name}: OpenLLMetry 0.62.4 with the other spans beside it imported as {len(turns)} turns "
          f"for {seen['turns']} model calls, {len(got_calls)} calls with ids, arguments and results, "
          f"the answer, {len(tools)} tools and the system prompt; the replay passes. Notes: {notes}")


def main(provider_name, binary, url, work, *rest):
    exporter = InMemorySpanExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))
    # The Anthropic SDK's own spans use the global provider.
    trace.set_tracer_provider(tracer_provider)
    instrument(provider_name, tracer_provider)
    if provider_name == "anthropic":
        # An application's span around the loop: the SDK's spans and
        # OpenLLMetry's are siblings in one trace.
        with trace.get_tracer("support-agent").start_as_current_span("handle_ticket"):
            seen = anthropic_loop(url)
    else:
        seen = openai_loop(url)
    assert len(seen["calls"]) == 3, f"the SDK made {len(seen['calls'])} calls"
    trace_path = os.path.join(work, f"{provider_name}-openllmetry.otlp.json")
    document = otlp_json(exporter.get_finished_spans())
    with open(trace_path, "w", encoding="utf-8") as file:
        json.dump(document, file)
    if rest and rest[0] == "--keep":
        with open(rest[1], "w", encoding="utf-8") as file:
            json.dump(document, file, indent=1)
            file.write("\n")
    check(provider_name, binary, trace_path, seen, work)


if __name__ == "__main__":
    main(*sys.argv[1:])
