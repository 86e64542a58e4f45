"""Validates agent-loop's OTLP/JSON exports against the official protobuf
definitions (opentelemetry-proto's TracesData), so collectors accept them.

OTLP/JSON departs from the plain protobuf JSON mapping in one way that
matters here: trace and span ids are hex strings, where protobuf's mapping
wants base64 for bytes. They are converted before parsing; every other field
must parse strictly (no unknown field, every type right).

Usage: python validate_otlp.py EXPORT.json [...]
"""

import base64
import json
import sys

from google.protobuf import json_format
from opentelemetry.proto.trace.v1.trace_pb2 import Span, TracesData


def hex_ids_to_base64(document):
    for resource in document.get("resourceSpans", []):
        for scope in resource.get("scopeSpans", []):
            for span in scope.get("spans", []):
                for key in ("traceId", "spanId", "parentSpanId"):
                    value = span.get(key, "")
                    if value:
                        span[key] = base64.b64encode(bytes.fromhex(value)).decode()
    return document


def main(paths):
    for path in paths:
        with open(path, encoding="utf-8") as file:
            document = hex_ids_to_base64(json.load(file))
        traces = json_format.ParseDict(document, TracesData(), ignore_unknown_fields=False)
        spans = [s for r in traces.resource_spans for sc in r.scope_spans for s in sc.spans]
        if not spans:
            sys.exit(f"{path}: no spans")
        for span in spans:
            if len(span.trace_id) != 16 or len(span.span_id) != 8:
                sys.exit(f"{path}: span {span.name!r} has ids of the wrong length")
            if span.end_time_unix_nano < span.start_time_unix_nano:
                sys.exit(f"{path}: span {span.name!r} ends before it starts")
            if span.kind not in (Span.SPAN_KIND_INTERNAL, Span.SPAN_KIND_CLIENT):
                sys.exit(f"{path}: span {span.name!r} has kind {span.kind}")
        roots = [s for s in spans if not s.parent_span_id]
        if len(roots) != 1 or not roots[0].name.startswith("invoke_agent"):
            sys.exit(f"{path}: expected one invoke_agent root, got {[s.name for s in roots]}")
        print(f"valid OTLP TracesData: {path} ({len(spans)} spans)")


if __name__ == "__main__":
    main(sys.argv[1:])
