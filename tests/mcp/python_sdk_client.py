"""The official Python SDK's client (mcp on PyPI) against `agent-loop serve --mcp
refund-with-approval`: lists the tools and calls get_order_status. Exits
non-zero with the reason on the first mismatch.

Usage: python tests/mcp/python_sdk_client.py http://127.0.0.1:PORT/mcp
"""

import sys

import anyio
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client


def fail(message: str) -> None:
    print(f"python sdk client: {message}", file=sys.stderr)
    sys.exit(1)


async def main(url: str) -> None:
    async with streamable_http_client(url) as (read, write, *_):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            tools = await session.list_tools()
            names = [tool.name for tool in tools.tools]
            if names != ["get_order_status", "issue_refund"]:
                fail(f"tools/list gave {names}, expected ['get_order_status', 'issue_refund']")
            result = await session.call_tool("get_order_status", {"order_id": "ord_f6g7h8i9j0"})
            text = " ".join(getattr(block, "text", "") for block in result.content)
            if result.is_error or "ord_f6g7h8i9j0" not in text:
                fail(f"get_order_status did not return the order: {result}")
            invalid = await session.call_tool("get_order_status", {})
            if not invalid.is_error:
                fail(f"get_order_status without order_id was not an error result: {invalid}")
            print(f"python sdk client: {len(names)} tools listed, get_order_status called "
                  f"({init.protocol_version}): {text[:80]}")


if __name__ == "__main__":
    anyio.run(main, sys.argv[1])
