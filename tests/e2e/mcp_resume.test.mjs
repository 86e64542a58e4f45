// SSE resumption (2025-11-25 "SSE polling") in the
// page's `fetch` MCP client, against a server built with the official Python
// SDK (tests/mcp/python_resume_server.py, mcp 2.3.0 in .venv-mcp). Its tool
// closes the tools/call SSE stream right after the priming event (an event id
// and `retry`), so the answer reaches the page only if it waits `retry` and
// GETs the stream again with `Last-Event-ID`.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, assert, button, loadScenario, root, test, untilBanner } from './lib.mjs';

const PYTHON = join(root, '.venv-mcp/bin/python');

/** Starts the resuming Python SDK server on a port it picks; resolves to
 * { url, stop, requests } where requests() reads the server's request log. */
function resumeServer() {
  const log = join(artifacts, `mcp-resume-${process.pid}.jsonl`);
  rmSync(log, { force: true });
  if (!existsSync(PYTHON)) throw new Error(`no ${PYTHON}: scripts/setup.sh makes it (pip install mcp==2.3.0)`);
  const child = spawn(PYTHON, [join(root, 'tests/mcp/python_resume_server.py'), '0', log], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  };
  const requests = () =>
    existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  return new Promise((ok, fail) => {
    let said = '';
    const timer = setTimeout(() => {
      stop();
      fail(new Error(`the Python SDK server did not start within 20 s: ${said}`));
    }, 20_000);
    child.stderr.on('data', (d) => {
      said += d;
    });
    child.stdout.on('data', (d) => {
      said += d;
      const m = /listening on (http:\S+)/.exec(said);
      if (m) {
        clearTimeout(timer);
        ok({ url: m[1], stop, requests });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`the Python SDK server exited (${code}): ${said}`));
    });
  });
}

const scenario = (url) => ({
  name: 'A tool whose server closes the stream before answering',
  task: 'Add 2 and 3.',
  mcp_servers: [{ name: 'python-resume', url, allowed_tools: ['slow_add'] }],
  model: {
    type: 'scripted',
    responses: [{ tool_calls: [{ name: 'slow_add', args: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }],
  },
});

test('a tools/call whose SSE stream the Python SDK server closes is resumed with GET and Last-Event-ID, and the run ends done with the answer', async ({ page, errors }) => {
  const server = await resumeServer();
  try {
    await loadScenario(page, scenario(server.url));
    const reports = page.locator('.mcp-reports');
    await reports.waitFor({ timeout: 15_000 }).catch(async () => {
      throw new Error(`the MCP tools did not load: ${await page.locator('.mcp-panel').innerText()}`);
    });
    const report = await reports.innerText();
    // SSE polling is 2025-11-25's: the server only closes streams for it.
    assert(report.includes(`"python-resume" at ${server.url}`) && report.includes('speaks 2025-11-25: 1 tool'), report);
    await button(page, 'Run').click();
    const status = await untilBanner(page, { approve: true, ms: 20_000 });
    const results = await page.locator('.timeline .event[data-kind="tool_result"]').allInnerTexts();
    assert(status === 'done', `the run ended ${status}; tool results: ${results.join(' | ')}`);
    assert(results.length === 1 && results[0].includes('slow_add') && /\b5\b/.test(results[0]), `slow_add's result: ${results.join(' | ')}`);
    assert(!/error|ended without/i.test(results[0]), `the result card shows a failure: ${results[0]}`);
    // The wire view shows the resuming GET the page sent.
    const wire = page.locator('.mcp-wire');
    await wire.locator('summary').click();
    const resumed = wire.locator('.mcp-exchange[data-method^="GET (resume the SSE stream after event "]');
    assert((await resumed.count()) >= 1, `no resuming GET on the wire: ${await wire.innerText()}`);
    const head = await resumed.last().locator('.mcp-exchange-head').first().innerText();
    assert(head.startsWith(`→ GET ${server.url} (resume the SSE stream after event `), `the resuming exchange's head: ${head}`);
    // The answer came on the resumed stream, not on the POST's.
    const call = wire.locator('.mcp-exchange[data-method="tools/call slow_add"] .mcp-response');
    assert(!(await call.innerText()).includes('"result"'), `the POST's stream held the answer: ${await call.innerText()}`);
    const replayed = await resumed.last().locator('.mcp-response').innerText();
    assert(replayed.includes('"result"') && replayed.includes('"5"'), `the resumed stream's answer: ${replayed}`);
    // And the server saw it: a GET carrying the id of an event it sent.
    const gets = server.requests().filter((r) => r.method === 'GET' && r.last_event_id);
    assert(gets.length >= 1, `the server saw no GET with Last-Event-ID: ${JSON.stringify(server.requests())}`);
  } finally {
    server.stop();
  }
  // The browser logs the 400 this 2025-11-25 server gives the page's
  // 2026-07-28 probe (the spec's fallback rule), and streams closed on
  // purpose show as aborted requests; nothing else may.
  for (let i = errors.length - 1; i >= 0; i -= 1) {
    if (errors[i].includes('status of 400 (Bad Request)') || errors[i] === `request failed: ${server.url} net::ERR_ABORTED`) errors.splice(i, 1);
  }
}, { timeoutMs: 60_000 });
