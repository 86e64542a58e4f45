// A 2025-11-25 MCP server made with the official TypeScript SDK, for the
// CLI's tests of what server-everything does not show: a tool that asks the
// client for elicitation whatever the client declared (the client must
// decline, not hang), on the call's own stream (`ask_user`) or on the
// session's standalone GET stream (`ask_user_standalone`), and a slow tool
// that prints each cancellation it receives, so a test can see the client's
// notifications/cancelled.
//
// Usage: PORT=N node tests/mcp/sdk_server.mjs  (prints "listening N" when ready)
import http from "node:http";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

function newServer() {
  const server = new McpServer({ name: "sdk-test-server", version: "1.0.0" });
  server.registerTool(
    "ask_user",
    { description: "Asks the user a question through elicitation.", inputSchema: { question: z.string() } },
    async ({ question }, extra) => {
      const answer = await extra.sendRequest(
        { method: "elicitation/create", params: { message: question, requestedSchema: { type: "object", properties: {} } } },
        ElicitResultSchema,
      );
      return { content: [{ type: "text", text: `answered: ${JSON.stringify(answer)}` }] };
    },
  );
  server.registerTool(
    "ask_user_standalone",
    { description: "Asks the user a question through elicitation, on the standalone stream.", inputSchema: { question: z.string() } },
    async ({ question }) => {
      // No relatedRequestId: the SDK sends it on the GET stream, or drops it when none is open.
      const answer = await server.server.request(
        { method: "elicitation/create", params: { message: question, requestedSchema: { type: "object", properties: {} } } },
        ElicitResultSchema,
      );
      return { content: [{ type: "text", text: `answered: ${JSON.stringify(answer)}` }] };
    },
  );
  server.registerTool(
    "slow",
    { description: "Waits ten seconds.", inputSchema: {}, annotations: { readOnlyHint: true } },
    async (_args, extra) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ content: [{ type: "text", text: "finished" }] }), 10_000);
        extra.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          console.log(`cancelled request ${extra.requestId}: ${extra.signal.reason}`);
        });
      }),
  );
  return server;
}

const transports = new Map();
const port = Number(process.env.PORT);
http
  .createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const parsed = body ? JSON.parse(body) : undefined;
    const id = req.headers["mcp-session-id"];
    let transport = id && transports.get(id);
    if (!transport) {
      if (parsed?.method !== "initialize") {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad Request: Server not initialized" } }));
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => transports.set(sid, transport),
      });
      await newServer().connect(transport);
    }
    await transport.handleRequest(req, res, parsed);
  })
  .listen(port, "127.0.0.1", () => console.log(`listening ${port}`));
