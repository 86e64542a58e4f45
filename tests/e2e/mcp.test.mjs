// Tools from a real MCP server, reached straight from
// the page with `fetch` (no backend). Against the official reference server
// (@modelcontextprotocol/server-everything, a devDependency), started here on
// a free port; a server that refuses CORS; a header token that must stay out
// of everything the page writes.

import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { join } from 'node:path';
import { CLI, artifacts, assert, button, loadScenario, root, runFiles, test, untilBanner } from './lib.mjs';

function freePort() {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
  });
}

function listening(port) {
  return new Promise((ok) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      ok(true);
    });
    socket.on('error', () => ok(false));
  });
}

/** Starts server-everything over Streamable HTTP; resolves to { url, stop }. */
async function everything() {
  const port = await freePort();
  const script = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
  const child = spawn('node', [script, 'streamableHttp'], {
    cwd: root,
    env: { ...process.env, PORT: String(port) },
    stdio: 'ignore',
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  };
  const deadline = Date.now() + 20_000;
  while (!(await listening(port))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      stop();
      throw new Error(`server-everything did not listen on ${port} (run npm ci: scripts/setup.sh does)`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `http://127.0.0.1:${port}/mcp`, stop };
}

const scenario = (url, extra = {}) => ({
  name: 'Tools from the reference MCP server',
  task: 'Echo hello and add 2 and 3.',
  mcp_servers: [{ name: 'everything', url, allowed_tools: ['echo', 'get-sum'], ...extra }],
  model: {
    type: 'scripted',
    responses: [
      { tool_calls: [{ name: 'echo', args: { message: 'hello mcp' } }, { name: 'get-sum', args: { a: 2, b: 3 } }] },
      { text: 'The server echoed and added.' },
    ],
  },
});

/** Waits for the MCP panel to say the servers' tools loaded; returns its report. */
async function loaded(page) {
  const reports = page.locator('.mcp-reports');
  await reports.waitFor({ timeout: 15_000 }).catch(async () => {
    throw new Error(`the MCP tools did not load: ${await page.locator('.mcp-panel').innerText()}`);
  });
  return reports.innerText();
}

/** Drops the console lines the MCP client causes on purpose: the browser
 * logs the 400 a legacy server gives the 2026 probe (the spec's fallback
 * rule), and the streams the client closes once it has its answer. */
function dropExpected(errors, url) {
  for (let i = errors.length - 1; i >= 0; i -= 1) {
    if (errors[i].includes('status of 400 (Bad Request)') || errors[i] === `request failed: ${url} net::ERR_ABORTED`) errors.splice(i, 1);
  }
}

/** Runs the scenario in the editor, approving each call that asks. */
async function runApproving(page) {
  await button(page, 'Run').click();
  return untilBanner(page, { approve: true, ms: 15_000 });
}

test('a scenario naming the reference MCP server loads its tools, and a run calling echo and get-sum ends done with its answers', async ({ page, errors }) => {
  const server = await everything();
  try {
    await loadScenario(page, scenario(server.url));
    const report = await loaded(page);
    assert(report.includes(`"everything" at ${server.url}`) && /speaks 20\d\d-\d\d-\d\d: 2 tools/.test(report), report);
    const tools = page.locator('.mcp-tools .mcp-tool');
    assert((await tools.count()) === 2, `${await tools.count()} tools listed`);
    const echo = await page.locator('.mcp-tool[data-tool="echo"]').innerText();
    assert(echo.includes('Echoes back the input'), `echo's description is not shown: ${echo}`);
    // The server marks echo read-only, so it runs without asking; the
    // hints that decided it are shown.
    assert(echo.includes('no approval (readOnlyHint: true'), `echo's approval: ${echo}`);
    assert((await runApproving(page)) === 'done', 'the run did not end done');
    const results = await page.locator('.timeline .event[data-kind="tool_result"]').allInnerTexts();
    assert(results.some((r) => r.includes('Echo: hello mcp')), `echo's result: ${results.join(' | ')}`);
    assert(results.some((r) => /\b5\b/.test(r) && r.includes('get-sum')), `get-sum's result: ${results.join(' | ')}`);
    // The wire view shows the JSON-RPC call and the server's answer.
    const wire = page.locator('.mcp-wire');
    await wire.locator('summary').click();
    const call = wire.locator('.mcp-exchange[data-method="tools/call echo"]');
    assert((await call.count()) === 1, 'no tools/call echo exchange on the wire');
    const request = await call.locator('.mcp-request').innerText();
    assert(request.includes('"method": "tools/call"') && request.includes('"hello mcp"'), request);
    assert((await call.locator('.mcp-response').innerText()).includes('Echo: hello mcp'), 'the answer is not on the wire');
    // The inspector's MCP tab: turn 1's calls, each with its own exchange.
    await page.getByRole('button', { name: "Inspect turn 1's request and response" }).click();
    const inspector = page.locator('.inspector[data-open]');
    await inspector.getByRole('tab', { name: 'MCP calls' }).click();
    const echoCall = inspector.locator('.mcp-call[data-tool="echo"]');
    await echoCall.waitFor({ timeout: 5_000 });
    assert((await echoCall.locator('.mcp-request').innerText()).includes('"hello mcp"'), 'the echo call is not shown');
    assert((await echoCall.locator('.mcp-response').innerText()).includes('Echo: hello mcp'), "the echo call's answer is not shown");
    const sum = await inspector.locator('.mcp-call[data-tool="get-sum"] .mcp-request').innerText();
    assert(sum.includes('"a": 2') && sum.includes('"b": 3'), `the get-sum call: ${sum}`);
  } finally {
    server.stop();
  }
  dropExpected(errors, server.url);
}, { timeoutMs: 60_000 });

test('a server that refuses the page (no CORS) gets the explained message, naming the headers to allow', async ({ page, errors }) => {
  // Answers every request, but never with CORS headers: the browser hides
  // the answer from the page, which sees a bare network error.
  const plain = createHttpServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"jsonrpc":"2.0","id":0,"result":{}}');
  });
  await new Promise((ok) => plain.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${plain.address().port}/mcp`;
  try {
    await loadScenario(page, scenario(url));
    const failed = page.locator('.mcp-failed');
    await failed.waitFor({ timeout: 15_000 });
    const said = await failed.innerText();
    assert(said.includes(`cannot load the tools of "everything" at ${url}`), said);
    assert(said.includes('does not allow this page (CORS)'), said);
    assert(said.includes('Access-Control-Allow-Headers: content-type, accept, mcp-protocol-version, mcp-session-id, mcp-method, mcp-name'), said);
    assert(said.includes('Access-Control-Expose-Headers: mcp-session-id'), said);
    // Run waits, and says the same beside itself; nothing runs.
    const blocker = page.locator('#run-blocker');
    await blocker.filter({ hasText: 'CORS' }).waitFor({ timeout: 15_000 });
    assert((await blocker.innerText()).startsWith('Run is disabled: the scenario\'s MCP tools did not load'), await blocker.innerText());
    assert(await button(page, 'Run').isDisabled(), 'Run is on without the tools');
    assert((await page.locator('.timeline .event').count()) === 0, 'a run started without its tools');
  } finally {
    plain.close();
  }
  for (let i = errors.length - 1; i >= 0; i -= 1) {
    if (/CORS|Failed to fetch|ERR_FAILED/.test(errors[i])) errors.splice(i, 1);
  }
}, { timeoutMs: 60_000 });

const TOKEN = 'mcp-token-7d1f';

test('an MCP header token is sent to its server and appears in no trace, export, link or storage', async ({ page, errors }) => {
  const server = await everything();
  const sent = [];
  page.on('request', (request) => {
    if (request.url() === server.url) sent.push(request.headers().authorization ?? '');
  });
  try {
    await loadScenario(page, scenario(server.url, { headers: { Authorization: `Bearer ${TOKEN}` } }));
    // The value leaves the JSON as it arrives, and the page says so.
    const json = await page.locator('#scenario-json').inputValue();
    assert(!json.includes(TOKEN) && json.includes('"Authorization": "[redacted]"'), json);
    await page.locator('.mcp-moved').filter({ hasText: 'moved out of the scenario into memory' }).waitFor();
    await loaded(page);
    assert(sent.length > 0 && sent.every((h) => h === `Bearer ${TOKEN}`), `the server got: ${sent.join(', ')}`);
    assert((await page.getByLabel('Authorization for "everything"').inputValue()) === `Bearer ${TOKEN}`, 'the held value is not in its field');
    assert((await runApproving(page)) === 'done', 'the run did not end done');
    const saved = async (label, name) => {
      const [download] = await Promise.all([page.waitForEvent('download'), button(page, label).click()]);
      const path = join(artifacts, name);
      await download.saveAs(path);
      return readFile(path, 'utf8');
    };
    await runFiles(page);
    const trace = await saved('Export trace (JSONL)', 'mcp-trace.jsonl');
    assert(trace.includes('run_finished') && trace.includes('[redacted]'), 'the exported trace is not the whole run');
    assert(!trace.includes(TOKEN), 'the token is in the exported trace');
    assert(!(await saved('Export as OpenTelemetry', 'mcp.otlp.json')).includes(TOKEN), 'the token is in the OpenTelemetry export');
    assert(!(await saved('Export scenario', 'mcp-scenario.json')).includes(TOKEN), 'the token is in the exported scenario');
    await button(page, 'Copy link').click();
    const link = await page.locator('#share-link').inputValue();
    const decoded = Buffer.from(link.split('#s=')[1] ?? '', 'base64url').toString('utf8');
    assert(!link.includes(TOKEN) && !decoded.includes(TOKEN), 'the token is in the share link');
    const stored = await page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
    assert(!stored.includes(TOKEN), 'the token is in localStorage');
    assert(!(await page.locator('body').innerText()).includes(TOKEN), 'the token is shown on the page');
    // The wire view shows the header by name only.
    await page.locator('.mcp-wire summary').click();
    const headers = await page.locator('.mcp-request-headers').first().innerText();
    assert(headers.includes('Authorization: [redacted]'), headers);
    // After a reload the value is gone: the panel asks for it again.
    await page.reload();
    await page.locator('#scenario-picker').waitFor();
    const field = page.getByLabel('Authorization for "everything"');
    await field.waitFor();
    assert((await field.inputValue()) === '', 'the token survived a reload');
    await page.locator('.mcp-failed').filter({ hasText: 'enter its value under "MCP servers"' }).waitFor({ timeout: 10_000 });
  } finally {
    server.stop();
  }
  dropExpected(errors, server.url);
}, { timeoutMs: 60_000 });

test('a kept MCP run replays with the server stopped, unless told to call the servers again', async ({ page, errors }) => {
  const server = await everything();
  try {
    await loadScenario(page, scenario(server.url, { approval: false }));
    await loaded(page);
    assert((await runApproving(page)) === 'done', 'the run did not end done');
  } finally {
    server.stop();
  }
  dropExpected(errors, server.url);
  // The server is gone: the replay answers its tools from the run's own results.
  await button(page, 'Replay against current tools').click();
  const verdict = page.locator('.replay-verdict');
  await verdict.waitFor({ timeout: 15_000 });
  assert((await verdict.getAttribute('data-passed')) === 'true', `replay without the server: ${await verdict.innerText()}`);
  // Asked to call the servers again, the replay reaches for the stopped one,
  // and its calls fail where the record's succeeded.
  await page.getByLabel(/Call the MCP servers again/).check();
  await button(page, 'Replay against current tools').click();
  await page.locator('.replay-verdict[data-passed="false"]').waitFor({ timeout: 15_000 });
  const said = await page.locator('.replay-verdict').innerText();
  assert(said.includes('same_errors') || said.includes('error'), `live replay with the server stopped: ${said}`);
  for (let i = errors.length - 1; i >= 0; i -= 1) {
    if (/Failed to fetch|ERR_CONNECTION_REFUSED|ERR_FAILED/.test(errors[i])) errors.splice(i, 1);
  }
}, { timeoutMs: 60_000 });

test('the built-in "Tools from an MCP server" runs in the page against agent-loop serve --mcp, asking before the destructive call', async ({ page, errors }) => {
  // Its lesson's command, on the port its scenario names.
  const child = spawn(CLI, ['serve', '--mcp', 'refund-with-approval', '--port', '8787'], { stdio: 'ignore' });
  try {
    const deadline = Date.now() + 10_000;
    while (!(await listening(8787))) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('agent-loop serve --mcp did not listen on 8787');
      await new Promise((r) => setTimeout(r, 100));
    }
    const option = page.locator('#scenario-picker option[value="mcp-tools"]');
    assert((await option.textContent()).includes('(needs its MCP server)'), 'the picker does not say it needs a server');
    assert((await option.getAttribute('data-expected')) === null, 'a status is promised for a scenario whose server may not run');
    await page.selectOption('#scenario-picker', 'mcp-tools');
    const report = await loaded(page);
    // Our own server speaks the 2026 generation, which the client tries first.
    assert(report.includes('speaks 2026-07-28: 2 tools'), report);
    assert((await page.locator('.mcp-tool[data-tool="issue_refund"]').innerText()).includes('needs approval'), 'issue_refund does not ask');
    assert((await page.locator('.mcp-tool[data-tool="get_order_status"]').innerText()).includes('no approval'), 'get_order_status asks');
    await button(page, 'Run').click();
    const bar = page.locator('.approval-bar');
    await bar.waitFor({ timeout: 10_000 });
    assert((await bar.innerText()).includes('issue_refund'), `the bar is about: ${await bar.innerText()}`);
    await bar.getByRole('button', { name: 'Approve', exact: true }).click();
    const banner = page.locator('.stop-banner');
    await banner.waitFor({ timeout: 10_000 });
    assert((await banner.getAttribute('data-status')) === 'done', `the run ended ${await banner.getAttribute('data-status')}`);
    const results = await page.locator('.timeline .event[data-kind="tool_result"]').allInnerTexts();
    assert(results.length === 2 && results.every((r) => !r.includes('tool error')), `results: ${results.join(' | ')}`);
  } finally {
    child.kill();
  }
  dropExpected(errors, 'http://127.0.0.1:8787/mcp');
}, { timeoutMs: 60_000 });

test("the reference server's get-tiny-image shows as an image on its tool_result card, and the page's trace export keeps it", async ({ page, errors }) => {
  const server = await everything();
  try {
    await loadScenario(page, {
      name: 'An image from the reference MCP server',
      task: 'Show the MCP logo.',
      mcp_servers: [{ name: 'everything', url: server.url, allowed_tools: ['get-tiny-image'] }],
      model: {
        type: 'scripted',
        responses: [{ tool_calls: [{ name: 'get-tiny-image', args: {} }] }, { text: 'That is the MCP logo.' }],
      },
    });
    await loaded(page);
    assert((await runApproving(page)) === 'done', 'the run did not end done');
    const card = page.locator('.timeline .event[data-kind="tool_result"]');
    const text = await card.innerText();
    assert(text.includes("Here's the image you requested:") && text.includes('[image: image/png, 4033 bytes]'), text);
    const image = card.locator('.tool-media img');
    assert((await image.count()) === 1, `${await image.count()} images on the card`);
    const alt = await image.getAttribute('alt');
    assert(alt === 'The image the tool returned: image/png image, 4033 bytes', `alt: ${alt}`);
    assert((await image.getAttribute('src')).startsWith('data:image/png;base64,iVBORw0KGgo'), 'the image is not the PNG the server sent');
    // The browser decoded it: the server's logo is 20×20 pixels.
    const size = await image.evaluate((img) => img.decode().then(() => [img.naturalWidth, img.naturalHeight]));
    assert(size[0] === 20 && size[1] === 20, `the image decoded as ${size.join('×')}`);
    assert((await card.locator('.tool-media figcaption').innerText()) === 'image/png image, 4033 bytes', 'no caption');
    await runFiles(page);
    const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Export trace (JSONL)').click()]);
    const path = join(artifacts, 'mcp-image-trace.jsonl');
    await download.saveAs(path);
    const result = (await readFile(path, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.type === 'tool_result');
    assert(result?.media?.[0]?.type === 'image' && result.media[0].mime_type === 'image/png', `the exported result: ${JSON.stringify(result)?.slice(0, 200)}`);
  } finally {
    server.stop();
  }
  dropExpected(errors, server.url);
}, { timeoutMs: 60_000 });
