"""OpenInference spans (the Arize Phoenix convention), imported and replayed.

The official OpenAI Python SDK runs a tool loop against `agent-loop serve`
(the built-in precondition-in-description: one call to issue_refund, then the
answer), traced as Phoenix users trace it: openinference-instrumentation-openai
0.1.66 writes each model call as an LLM span (`input.value` the request body,
`llm.input_messages.*`, `llm.output_messages.*`, `llm.tools.*`,
`llm.token_count.*`), and the application's tool runs inside a TOOL span and
the loop inside an AGENT span, both from openinference-instrumentation's own
tracer (`tracer.tool`, `openinference_span_kind="agent"`). The spans are
written as OTLP/JSON by the official encoder; `agent-loop import` must read
the run the SDK saw (the call with its id and arguments, its result, the
answer, the tools and the system prompt), and `agent-loop replay` of it must
pass.

Usage: python openinference_instrumented.py AGENT_LOOP SERVE_URL WORK_DIR [FIXTURE_OUT]
(FIXTURE_OUT: also write the spans there, to refresh the native test's fixture.)
"""

import base64
import json
import os
import subprocess
import sys

import openai
from google.protobuf import json_format
from openinference.instrumentation import TracerProvider
from openinference.instrumentation.openai import OpenAIInstrumentor
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

SYSTEM = "You are a support agent. Refund an order only once."
TASK = "The customer of ord_a1b2c3d4e5 wants their money back."
DESCRIPTION = "Refund an order in full."
SCHEMA = {"type": "object", "properties": {"order_id": {"type": "string"}},
          "required": ["order_id"], "additionalProperties": False}
TOOLS = [{"type": "function", "function": {"name": "issue_refund", "description": DESCRIPTION,
                                           "parameters": SCHEMA}}]


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


def run_loop(url, tracer):
    """The application's loop: the SDK's calls, its tool in a TOOL span; what it saw."""

    @tracer.tool(name="issue_refund", description=DESCRIPTION, parameters=SCHEMA)
    def issue_refund(order_id: str) -> str:
        return json.dumps({"ok": True, "refund_id": "re_0001", "order_id": order_id})

    client = openai.OpenAI(base_url=f"{url}/v1", api_key="unused")
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": TASK}]
    seen = {"calls": [], "turns": 0, "answer": None}
    with tracer.start_as_current_span("support_agent", openinference_span_kind="agent") as agent:
        agent.set_input(TASK)
        for _ in range(8):
            response = client.chat.completions.create(model="gpt-4.1", messages=messages, tools=TOOLS)
            seen["turns"] += 1
            choice = response.choices[0]
            messages.append(choice.message.model_dump(exclude_none=True))
            if choice.finish_reason != "tool_calls":
                seen["answer"] = choice.message.content
                break
            for call in choice.message.tool_calls:
                args = json.loads(call.function.arguments)
                result = issue_refund(**args)
                seen["calls"].append((call.id, call.function.name, args, result))
                messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
        agent.set_output(seen["answer"])
    return seen


def check(binary, trace_path, seen, work):
    record = os.path.join(work, "openinference.jsonl")
    imported = subprocess.run([binary, "import", trace_path, "--out", record],
                              capture_output=True, text=True, check=False)
    assert imported.returncode == 0, imported.stderr
    notes = [line for line in imported.stderr.splitlines() if line.startswith("note:")]
    with open(record, encoding="utf-8") as file:
        lines = [json.loads(line) for line in file if line.strip()]
    scenario = lines[0]["scenario"] if lines[0].get("type") == "scenario" else None
    events = [line for line in lines if line.get("type") != "scenario"]
    turns = [e for e in events if e["type"] == "model_response"]
    assert len(turns) == seen["turns"], f"{len(turns)} turns for {seen['turns']} model calls:\n{notes}"
    got_calls = [(e["id"], e["name"], e["args"]) for e in events if e["type"] == "tool_call"]
    assert got_calls == [(i, n, a) for i, n, a, _ in seen["calls"]], f"calls: {got_calls} vs {seen['calls']}"
    got_results = [(e["id"], e["content"]) for e in events if e["type"] == "tool_result"]
    assert got_results == [(i, r) for i, _, _, r in seen["calls"]], f"results: {got_results}"
    finished = [e for e in events if e["type"] == "run_finished"]
    assert finished and finished[0]["status"] == "done", f"ended {finished}\n{notes}"
    assert finished[0]["answer"] == seen["answer"], f"answer {finished[0]['answer']!r} vs {seen['answer']!r}"
    assert scenario is not None, f"no scenario:\n{imported.stderr}"
    assert scenario.get("system") == SYSTEM, f"system prompt {scenario.get('system')!r}"
    assert scenario["task"] == TASK, scenario["task"]
    tools = {t["name"]: t for t in scenario["tools"]}
    assert sorted(tools) == ["issue_refund"], f"tools {sorted(tools)}"
    assert tools["issue_refund"]["description"] == DESCRIPTION, tools["issue_refund"]
    assert tools["issue_refund"]["input_schema"] == SCHEMA, tools["issue_refund"]
    replayed = subprocess.run([binary, "replay", record], capture_output=True, text=True, check=False)
    assert replayed.returncode == 0, f"replay failed:\n{replayed.stdout}{replayed.stderr}"
    print(f"openinference-instrumentation-openai 0.1.66 spans imported as {len(turns)} turns, "
          f"{len(got_calls)} call with its id, arguments and result, the answer, the tool and the "
          f"system prompt; the replay passes. Notes: {notes}")


def main(binary, url, work, fixture_out=None):
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    OpenAIInstrumentor().instrument(tracer_provider=provider)
    seen = run_loop(url, provider.get_tracer("support-agent"))
    assert len(seen["calls"]) == 1, f"the SDK made {len(seen['calls'])} calls"
    document = otlp_json(exporter.get_finished_spans())
    trace_path = os.path.join(work, "openinference.otlp.json")
    with open(trace_path, "w", encoding="utf-8") as file:
        json.dump(document, file)
    if fixture_out:
        with open(fixture_out, "w", encoding="utf-8") as file:
            json.dump(document, file, indent=1)
            file.write("\n")
    check(binary, trace_path, seen, work)


if __name__ == "__main__":
    main(*sys.argv[1:])
