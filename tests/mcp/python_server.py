"""A tools-only MCP server built with the official Python SDK (mcp on PyPI),
served over Streamable HTTP by uvicorn, for scripts/test.sh to point
`agent-loop mcp tools` and `agent-loop run` at.

Usage: python tests/mcp/python_server.py PORT   (0: the system picks one)
Prints "listening on http://127.0.0.1:PORT/mcp" once the socket is bound.
"""

import socket
import sys

import uvicorn
from mcp.server.mcpserver import MCPServer

server = MCPServer("python-sdk-test")


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool()
def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


def main() -> None:
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(64)
    print(f"listening on http://127.0.0.1:{sock.getsockname()[1]}/mcp", flush=True)
    config = uvicorn.Config(server.streamable_http_app(), log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
