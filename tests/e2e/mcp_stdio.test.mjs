// A scenario whose MCP server is a command (a stdio server) loaded in the
// page: a page cannot start programs, so the MCP panel and the Run button
// say so and name the bridge command that serves the same server at a URL.

import { assert, button, loadScenario, test } from './lib.mjs';

const scenario = {
  name: 'The time from a stdio MCP server',
  task: 'What time is it in UTC?',
  mcp_servers: [{ name: 'time', command: ['uvx', 'mcp-server-time'] }],
  model: {
    type: 'scripted',
    responses: [
      { tool_calls: [{ name: 'get_current_time', args: { timezone: 'UTC' } }] },
      { text: 'Done.' },
    ],
  },
};

test('a command server in the page says the page cannot start it and how to bridge it', async ({ page }) => {
  await loadScenario(page, scenario);
  const failed = page.locator('.mcp-failed');
  await failed.waitFor({ timeout: 15_000 });
  const said = await failed.innerText();
  assert(
    said.includes('mcp_servers[0].command: the page cannot start `uvx mcp-server-time`; run `agent-loop mcp bridge -- uvx mcp-server-time` and use the URL and token it prints'),
    said,
  );
  const blocker = page.locator('#run-blocker');
  await blocker.filter({ hasText: 'agent-loop mcp bridge' }).waitFor({ timeout: 15_000 });
  assert(await button(page, 'Run').isDisabled(), 'Run is on without the tools');
});
