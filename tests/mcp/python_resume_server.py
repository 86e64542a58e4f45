"""An MCP server built with the official Python SDK (mcp on PyPI) whose tool
closes its own tools/call SSE stream before it answers: the SDK's "SSE
polling" (2025-11-25). The client gets the priming event (an event id and
`retry`), then the stream ends; the answer reaches it only if it waits
`retry` and reconnects with GET and `Last-Event-ID`. The page's e2e test
(tests/e2e/mcp_resume.test.mjs) points the page at it.

It speaks only the protocol versions of the initialize handshake (up to
2025-11-25): see HandshakeOnly.

The page fetches cross-origin, so CORS is on for any origin, exposing the
session and protocol headers and allowing `Last-Event-ID`.

Every request is logged, one JSON line each (method, path, Last-Event-ID),
to the file named by the second argument, so the test can tell that the
page really resumed rather than got the answer some other way.

Usage: python tests/mcp/python_resume_server.py PORT LOG
Prints "listening on http://127.0.0.1:PORT/mcp" once the socket is bound.
"""

import asyncio
import itertools
import json
import socket
import sys

import uvicorn
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.streamable_http import EventCallback, EventMessage, EventStore
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import JSONResponse

# Small on purpose: the test waits it once per call.
RETRY_MS = 300


class MemoryEventStore(EventStore):
    """Keeps every event in memory. The SDK 2.3.0 ships the interface only
    (its in-memory store lives in its examples, not in the package)."""

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        # (event id, stream id, message), in the order stored.
        self._events: list[tuple[str, str, object]] = []

    async def store_event(self, stream_id, message):
        event_id = str(next(self._ids))
        self._events.append((event_id, stream_id, message))
        return event_id

    async def replay_events_after(self, last_event_id, send_callback: EventCallback):
        ids = [event[0] for event in self._events]
        if last_event_id not in ids:
            return None
        stream_id = self._events[ids.index(last_event_id)][1]
        for event_id, stream, message in self._events[ids.index(last_event_id) + 1 :]:
            if stream == stream_id and message is not None:
                await send_callback(EventMessage(message, event_id))
        return stream_id


server = MCPServer("python-sdk-resume-test")


@server.tool()
async def slow_add(a: int, b: int, ctx: Context) -> int:
    """Add two integers, after closing the SSE stream (the client must resume)."""
    await ctx.close_sse_stream()
    # Answer after the client's wait (`retry`) so the answer is stored
    # while no stream is open, and is delivered by the replay or the
    # resumed stream.
    await asyncio.sleep(RETRY_MS / 1000 / 2)
    return a + b


class RequestLog:
    """Plain ASGI wrapper (no buffering, so SSE streams pass as they are)."""

    def __init__(self, app, path: str) -> None:
        self.app = app
        self.path = path

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
            line = {
                "method": scope["method"],
                "path": scope["path"],
                "last_event_id": headers.get("last-event-id"),
            }
            with open(self.path, "a", encoding="utf-8") as log:
                log.write(json.dumps(line) + "\n")
        await self.app(scope, receive, send)


class HandshakeOnly:
    """Answers 400 to any MCP-Protocol-Version the initialize handshake does
    not use, as a server that predates 2026-07-28 does. The SDK 2.3.0 also
    serves 2026-07-28, where each call is one JSON exchange with no SSE
    stream to close, and a client that probes for it first (the page does)
    would never see SSE polling, which is 2025-11-25's."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
            version = headers.get("mcp-protocol-version")
            if version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS:
                message = f"Unsupported protocol version: {version}"
                error = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": message}}
                await JSONResponse(error, status_code=400)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def main() -> None:
    port = int(sys.argv[1])
    log_path = sys.argv[2]
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(64)
    app = server.streamable_http_app(event_store=MemoryEventStore(), retry_interval=RETRY_MS)
    app = CORSMiddleware(
        HandshakeOnly(app),
        allow_origins=["*"],
        allow_methods=["GET", "POST", "DELETE"],
        allow_headers=["*"],
        expose_headers=["Mcp-Session-Id", "MCP-Protocol-Version"],
    )
    print(f"listening on http://127.0.0.1:{sock.getsockname()[1]}/mcp", flush=True)
    config = uvicorn.Config(RequestLog(app, log_path), log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
