// The official TypeScript SDK's Client against `agent-loop serve --mcp`:
// lists the tools and calls one, once answered over SSE (the SDK accepts it,
// and serve streams calls) and once whole (a fetch that accepts only JSON).
// Exits non-zero with the reason on the first mismatch.
//
// Usage: node tests/mcp/sdk_client.mjs http://127.0.0.1:PORT/mcp
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = new URL(process.argv[2]);

async function session(label, fetchImpl) {
  const client = new Client({ name: `sdk-client-${label}`, version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(url, fetchImpl ? { fetch: fetchImpl } : {});
  await client.connect(transport);
  assert.ok(transport.sessionId, `${label}: serve gave the SDK a session id`);
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  assert.deepEqual(names, ["get_order_status", "issue_refund"], `${label}: tools/list`);
  assert.equal(tools[1].annotations?.destructiveHint, true, `${label}: issue_refund is destructive`);
  const result = await client.callTool({ name: "get_order_status", arguments: { order_id: "ord_f6g7h8i9j0" } });
  assert.ok(!result.isError, `${label}: the call succeeded: ${JSON.stringify(result)}`);
  assert.match(result.content[0].text, /ord_f6g7h8i9j0/, `${label}: the order's status came back`);
  const invalid = await client.callTool({ name: "get_order_status", arguments: {} });
  assert.equal(invalid.isError, true, `${label}: missing order_id is an error result`);
  await transport.terminateSession();
  await client.close();
  console.log(`${label}: ${names.length} tools listed, get_order_status called (${transport.protocolVersion ?? "negotiated"})`);
}

// Seen on each call's answer: which one came as SSE.
const seen = [];
const watching = (accept) => async (input, init) => {
  const headers = new Headers(init?.headers);
  if (accept) headers.set("accept", accept);
  const response = await fetch(input, { ...init, headers });
  seen.push(response.headers.get("content-type"));
  return response;
};

await session("sse", watching(null));
assert.ok(seen.includes("text/event-stream"), `no answer came as SSE: ${seen}`);
seen.length = 0;
await session("json", watching("application/json"));
assert.ok(!seen.includes("text/event-stream"), `an answer came as SSE to a JSON-only client: ${seen}`);
console.log("sdk client: ok");
