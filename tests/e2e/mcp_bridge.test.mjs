// A stdio MCP server used from the page through `agent-loop mcp bridge`:
// the real mcp-server-time (PyPI, in .venv-mcp, which scripts/setup.sh
// installs) started by the bridge here, the page's MCP panel told the URL
// and the printed token, its tools listed and get_current_time called in
// a run. Without mcp-server-time the test says so and passes, unless
// AGENT_LOOP_REQUIRE_MCP_PACKAGES=1, where it fails.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, assert, button, env, loadScenario, root, test, untilBanner } from './lib.mjs';

const TIME_SERVER = join(root, '.venv-mcp/bin/mcp-server-time');

/** mcp-server-time's path, or null (with a note) when it is missing and
 * the run does not require it. */
function timeServer() {
  if (existsSync(TIME_SERVER)) return TIME_SERVER;
  if (process.env.AGENT_LOOP_REQUIRE_MCP_PACKAGES === '1') {
    throw new Error(`mcp-server-time is not at ${TIME_SERVER} (scripts/setup.sh installs it), and AGENT_LOOP_REQUIRE_MCP_PACKAGES=1`);
  }
  console.log('  skipped: mcp-server-time is not installed (scripts/setup.sh installs it)');
  return null;
}

/** Starts the bridge over `command`, allowing the test page's origin;
 * resolves to { url, token, stop, log } from its first line. */
function bridge(command) {
  const origin = new URL(env.baseUrl).origin;
  const child = spawn(CLI, ['mcp', 'bridge', '--port', '0', '--allow-origin', origin, '--', ...command], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (chunk) => { log += chunk; });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  };
  return new Promise((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => {
      stop();
      fail(new Error(`the bridge printed no URL within 20 s: ${out}${log}`));
    }, 20_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const found = out.match(/^listening on (http:\/\/127\.0\.0\.1:\d+\/mcp) — token: (\S+)\n/);
      if (found) {
        clearTimeout(timer);
        ok({ url: found[1], token: found[2], stop, log: () => log });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`the bridge exited (${code}) before listening: ${log}`));
    });
  });
}

const scenario = (url) => ({
  name: 'The time, from a stdio server through the bridge',
  task: 'What time is it in UTC?',
  mcp_servers: [{ name: 'time', url, allowed_tools: ['get_current_time'] }],
  model: {
    type: 'scripted',
    responses: [
      { tool_calls: [{ name: 'get_current_time', args: { timezone: 'Etc/UTC' } }] },
      { text: 'The server told the time.' },
    ],
  },
});

test('a stdio server through agent-loop mcp bridge: the panel says how, takes the printed token, lists its tools, and a run gets the time', async ({ page, errors }) => {
  const server = timeServer();
  if (!server) return;
  const running = await bridge([server]);
  const sent = [];
  page.on('request', (request) => {
    if (request.url() === running.url && request.method() === 'POST') sent.push(request.headers().authorization ?? '');
  });
  try {
    await loadScenario(page, scenario(running.url));
    const panel = page.locator('.mcp-panel');
    // Where the server is added: how to reach a stdio server, and which
    // servers the page can reach at all.
    const hint = await panel.locator('.mcp-bridge-hint').innerText();
    assert(hint.includes('A server that runs as a command (stdio)') && hint.includes('agent-loop mcp bridge -- CMD'), hint);
    assert(hint.includes('URL') && hint.includes('token') && hint.includes('Token field'), hint);
    const reach = await panel.locator('.mcp-reach').innerText();
    assert(reach.includes('Streamable HTTP') && reach.includes('CORS') && reach.includes('cannot start a server that runs as a command (stdio)') && reach.includes('OAuth'), reach);
    // Without the token the bridge refuses (401), and the page shows why.
    const failed = page.locator('.mcp-failed');
    await failed.waitFor({ timeout: 15_000 });
    const refused = await failed.innerText();
    assert(refused.includes('401') && refused.includes('Token field'), `without the token: ${refused}`);
    // The token goes into the server's Token field and the tools load.
    const field = page.getByLabel('Token for "time"');
    await field.fill(running.token);
    await field.dispatchEvent('change');
    const reports = page.locator('.mcp-reports');
    await reports.waitFor({ timeout: 15_000 }).catch(async () => {
      throw new Error(`the tools did not load with the token: ${await panel.innerText()}\nbridge: ${running.log()}`);
    });
    assert((await reports.innerText()).includes(`"time" at ${running.url}`), await reports.innerText());
    const tool = await page.locator('.mcp-tool[data-tool="get_current_time"]').innerText();
    assert(tool.includes('Get current time in a specific timezone'), tool);
    assert(sent.includes(`Bearer ${running.token}`), `the bridge got: ${sent.join(', ')}`);
    // A run calls get_current_time through the bridge; its result is the time.
    await button(page, 'Run').click();
    assert((await untilBanner(page, { approve: true, ms: 20_000 })) === 'done', `the run did not end done\nbridge: ${running.log()}`);
    const results = await page.locator('.timeline .event[data-kind="tool_result"]').allInnerTexts();
    const year = String(new Date().getUTCFullYear());
    assert(results.some((r) => r.includes('datetime') && r.includes('Etc/UTC') && r.includes(year)), `get_current_time's result: ${results.join(' | ')}`);
    // The token stays in memory: not in the scenario's JSON, nor stored, nor
    // on the wire view.
    assert(!(await page.locator('#scenario-json').inputValue()).includes(running.token), 'the token is in the scenario JSON');
    const stored = await page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
    assert(!stored.includes(running.token), 'the token is in localStorage');
    await page.locator('.mcp-wire summary').click();
    const wire = await page.locator('.mcp-wire').innerText();
    assert(wire.includes('Authorization: [redacted]') && !wire.includes(running.token), 'the wire view shows the token');
  } finally {
    running.stop();
  }
  // The 401 before the token, and the 400 a session-less probe gets (the
  // spec's fallback rule), are logged by the browser on purpose.
  for (let i = errors.length - 1; i >= 0; i -= 1) {
    if (/status of 40[01]/.test(errors[i]) || errors[i] === `request failed: ${running.url} net::ERR_ABORTED`) errors.splice(i, 1);
  }
}, { timeoutMs: 90_000 });
