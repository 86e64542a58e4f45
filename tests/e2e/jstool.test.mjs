// User-written JavaScript tools: the body runs in a Web Worker inside the
// sandboxed iframe (static/sandbox/), returns JSON, is stopped at the tool
// timeout while the page stays responsive, and reaches neither the network
// nor this page.

import { createServer } from 'node:http';
import { assert, bannerStatus, button, loadScenario, pick, rowTexts, runBuiltin, test } from './lib.mjs';

/** A scripted scenario whose model calls each tool once, then answers. */
function scenarioCalling(tools, limits = { tool_timeout_ms: 3000 }) {
  return {
    name: 'JS tools under test',
    task: 'Call each tool.',
    tools: tools.map(({ name, js }) => ({ name, description: name, input_schema: { type: 'object' }, js })),
    limits,
    model: {
      type: 'scripted',
      responses: [...tools.map(({ name }) => ({ tool_calls: [{ name, args: {} }] })), { text: 'Done.' }],
    },
  };
}

/** The page's tool workers (blob: workers of the sandbox), counted through
 * the browser's DevTools targets, since the page itself cannot see into the
 * sandbox. */
async function toolWorkers(page) {
  const cdp = await page.context().browser().newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    return targetInfos.filter((t) => t.type === 'worker' && t.url.startsWith('blob:null/')).length;
  } finally {
    await cdp.detach();
  }
}

/** Waits until no tool worker is left; returns how long that took. Chromium
 * stops a busy worker up to about 2 s after terminate() (its forced-stop
 * delay), so a terminated endless loop disappears within ~2 s. */
async function workersGone(page, withinMs) {
  const started = Date.now();
  while ((await toolWorkers(page)) > 0) {
    assert(Date.now() - started < withinMs, `a tool worker is still running ${withinMs} ms later`);
    await page.waitForTimeout(50);
  }
  return Date.now() - started;
}

/** A tool_result row's "latency N ms", in ms. */
function latencyOf(rowText) {
  const m = rowText.match(/latency ([\d.]+) (ms|s)\b/);
  assert(m, `no latency in: ${rowText}`);
  return m[2] === 's' ? Number(m[1]) * 1000 : Number(m[1]);
}

/** The tool_result rows' texts by tool name (each row names its tool). */
async function resultsByTool(page, names) {
  const rows = await rowTexts(page, 'tool_result');
  return Object.fromEntries(names.map((n) => [n, rows.find((r) => new RegExp(`[Rr]esult from ${n}\\b`).test(r)) ?? '']));
}

test('js-tool runs its JavaScript body in the sandbox and ends `done` with the computed cost', async ({ page }) => {
  const status = await runBuiltin(page, 'js-tool');
  assert(status === 'done', `expected done, got ${status}`);
  const [result] = await rowTexts(page, 'tool_result');
  // 2.5 kg billed as 2.5: 450 base + 2.5 × 180 = 900 cents, domestic, not express.
  assert(result.includes('Result from shipping_cost') && !result.includes('Error result'), `not a plain result: ${result}`);
  assert(result.includes('"cost_cents":900') && result.includes('"billed_weight_kg":2.5'), `result: ${result}`);
  // The rules model answers from the result it read.
  const answer = (await rowTexts(page, 'model_response')).at(-1);
  assert(answer.includes('shipping_cost returned') && answer.includes('"cost_cents":900'), `answer: ${answer}`);
  // The sandbox: scripts only, never same-origin, so the page is out of its reach.
  const frame = page.locator('iframe.js-sandbox');
  assert((await frame.count()) === 1, 'no sandbox iframe');
  assert((await frame.getAttribute('sandbox')) === 'allow-scripts', `sandbox="${await frame.getAttribute('sandbox')}"`);
  const reachable = await frame.evaluate((f) => f.contentDocument !== null);
  assert(!reachable, 'the page can reach into the sandbox document, so it is same-origin');
  // Editing the body changes the result: the value really comes from the code.
  const text = await page.locator('#scenario-json').inputValue();
  const edited = JSON.parse(text);
  edited.tools[0].js = 'return {cost_cents: Math.round(args.weight_kg * 1000)};';
  await loadScenario(page, edited);
  await button(page, 'Run').click();
  assert((await bannerStatus(page)) === 'done', 'the edited run did not end done');
  const [again] = await rowTexts(page, 'tool_result');
  assert(again.includes('"cost_cents":2500'), `edited result: ${again}`);
  assert((await frame.count()) === 1, 'a second run added another sandbox iframe');
});

test('a JS tool\'s endless loop is a timeout error result at tool_timeout_ms while the page stays responsive', async ({ page }) => {
  // The built-in: stopped at its 1 s tool_timeout_ms, then the model answers.
  await pick(page, 'js-tool-infinite-loop');
  await button(page, 'Run').click();
  await page.locator('.timeline .event[data-kind="tool_call"]').waitFor({ timeout: 5_000 });
  const callSeen = Date.now();
  const result = page.locator('.timeline .event[data-kind="tool_result"]');
  await result.waitFor({ timeout: 5_000 });
  const took = Date.now() - callSeen;
  const text = await result.innerText();
  assert(text.includes('Error result from count_forever'), `not an error result: ${text}`);
  assert(text.includes('the tool did not finish within 1000 ms (tool_timeout_ms) and was stopped'), `result: ${text}`);
  // The trace's own latency, then the wall clock as this test saw it (polling adds a little).
  const latency = latencyOf(text);
  assert(latency >= 1000 && latency <= 1500, `the timeout result's latency is ${latency} ms (tool_timeout_ms 1000)`);
  assert(took <= 2500, `the timeout result came ${took} ms after the call row`);
  assert((await bannerStatus(page)) === 'done', 'the run did not go on to its answer');

  // While a loop spins (3 s this time, to measure in): the page answers
  // script, paints frames, and its elapsed counter keeps ticking.
  await loadScenario(page, scenarioCalling([{ name: 'spin', js: 'for (;;) {}' }], { tool_timeout_ms: 3000 }));
  await button(page, 'Run').click();
  await page.locator('.timeline .event[data-kind="tool_call"]').waitFor({ timeout: 5_000 });
  const spinSeen = Date.now();
  const rounds = [];
  for (let i = 0; i < 5; i++) {
    const sent = Date.now();
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok())));
    rounds.push(Date.now() - sent);
  }
  const elapsed = page.locator('[data-counter="elapsed"] dd');
  const before = await elapsed.innerText();
  await page.waitForTimeout(400);
  const after = await elapsed.innerText();
  assert((await rowTexts(page, 'tool_result')).length === 0, 'the loop ended during the checks');
  // On the page's thread the loop would hold every frame until its 3 s timeout.
  assert(Math.max(...rounds) < 500, `animation frames took ${rounds.join(', ')} ms during the loop`);
  assert(before !== after, `the elapsed counter stood still during the loop (${before})`);
  await result.waitFor({ timeout: 5_000 });
  const spun = Date.now() - spinSeen;
  const spinText = await result.innerText();
  assert(spinText.includes('did not finish within 3000 ms'), spinText);
  const spinLatency = latencyOf(spinText);
  assert(spinLatency >= 3000 && spinLatency <= 3500, `the spin's latency is ${spinLatency} ms (tool_timeout_ms 3000)`);
  assert(spun <= 4500, `the spin was stopped ${spun} ms after its call row`);
  await workersGone(page, 4_000);
  console.log(`    (timeout latencies ${latency} and ${spinLatency} ms; frames ${rounds.join('/')} ms during the loop)`);
});

test('Stop during a JS tool\'s endless loop ends `cancelled` at once, and the next JS call still runs', async ({ page }) => {
  await loadScenario(page, scenarioCalling(
    [{ name: 'spin', js: 'while (true) {}' }, { name: 'answer', js: 'return 42;' }],
    { tool_timeout_ms: 20000 },
  ));
  await button(page, 'Run').click();
  await page.locator('.timeline .event[data-kind="tool_call"]').waitFor({ timeout: 5_000 });
  // The sandbox starts the loop's worker once the call is made; a busy
  // machine takes a moment to report it.
  for (let i = 0; i < 40 && (await toolWorkers(page)) === 0; i++) await page.waitForTimeout(100);
  assert((await toolWorkers(page)) === 1, `${await toolWorkers(page)} tool workers during the loop`);
  // Timed in the page, from the click's event to the banner's node, so the
  // figure is the page's and not Playwright's round trips on a busy machine.
  await page.evaluate(() => {
    document.addEventListener('click', (event) => {
      if (event.target.closest('button.stop')) window.stopClickedAt ??= performance.now();
    }, true);
    new MutationObserver(() => {
      if (document.querySelector('.stop-banner')) window.bannerAt ??= performance.now();
    }).observe(document.body, { childList: true, subtree: true });
  });
  await button(page, 'Stop').click();
  assert((await bannerStatus(page)) === 'cancelled', 'Stop did not cancel');
  const took = Math.round(await page.evaluate(() => window.bannerAt - window.stopClickedAt));
  assert(took >= 0 && took <= 500, `cancelled ${took} ms after the click`);
  // The run stopped waiting, so the sandbox terminated the worker, long
  // before its 20 s tool_timeout_ms.
  const gone = await workersGone(page, 4_000);
  console.log(`    (banner ${took} ms after Stop; worker gone ${gone} ms later)`);
  // The sandbox is free again: a run whose first tool answers at once is not
  // stuck behind the stopped loop.
  await loadScenario(page, scenarioCalling([{ name: 'answer', js: 'return 42;' }]));
  await button(page, 'Run').click();
  assert((await bannerStatus(page)) === 'done', 'the next run did not end done');
  const results = await resultsByTool(page, ['answer']);
  assert(results.answer.includes('Result from answer') && !results.answer.includes('Error result') && results.answer.includes('42'), `answer: ${results.answer}`);
});

test('a JS tool reaches neither the network nor this page or its storage', async ({ page }) => {
  // A server that would hand its secret to anyone (CORS open), counting hits.
  const hits = [];
  const probe = createServer((req, res) => {
    hits.push(req.url);
    res.writeHead(200, { 'access-control-allow-origin': '*' }).end('SECRET-123');
  });
  await new Promise((ok) => probe.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${probe.address().port}/secret`;
  try {
    // A nested worker starts with a fresh global scope (fetch not removed),
    // so only the sandbox's CSP stands between it and the server.
    const nested = `
      const url = ${JSON.stringify(url)};
      const code = "fetch(" + JSON.stringify(url) + ").then(r => r.text()).then(t => postMessage('got ' + t), e => postMessage('failed: ' + e))";
      const w = new Worker(URL.createObjectURL(new Blob([code])));
      const said = await new Promise((ok) => { w.onmessage = (e) => ok(e.data); });
      if (said.startsWith('failed')) throw new Error(said);
      return said;`;
    const tools = [
      { name: 'use_fetch', js: `return await (await fetch(${JSON.stringify(url)})).text();` },
      { name: 'use_xhr', js: `const x = new XMLHttpRequest(); x.open('GET', ${JSON.stringify(url)}); x.send(); return 'sent';` },
      { name: 'nested_fetch', js: nested },
      { name: 'read_page', js: 'return parent.document.title;' },
      { name: 'read_storage', js: 'return localStorage.getItem("alp.probe");' },
      { name: 'read_cookie', js: 'return document.cookie;' },
    ];
    await page.evaluate(() => localStorage.setItem('alp.probe', 'page-only'));
    await loadScenario(page, scenarioCalling(tools));
    await button(page, 'Run').click();
    assert((await bannerStatus(page)) === 'done', 'the run did not end done');
    const results = await resultsByTool(page, tools.map((t) => t.name));
    for (const [name, text] of Object.entries(results)) {
      assert(text.includes(`Error result from ${name}`), `${name} was not an error: ${text}`);
      assert(!text.includes('SECRET-123'), `${name} read the server: ${text}`);
    }
    assert(results.use_fetch.includes('fetch is not a function'), results.use_fetch);
    assert(results.nested_fetch.includes('failed: TypeError: Failed to fetch'), results.nested_fetch);
    assert(results.read_page.includes('ReferenceError'), results.read_page);
    assert(results.read_storage.includes('ReferenceError'), results.read_storage);
    assert(hits.length === 0, `the server was reached: ${hits.join(', ')}`);
  } finally {
    probe.close();
  }
});

test('a JS body that throws, does not parse or returns no JSON gives an error result saying so', async ({ page }) => {
  const tools = [
    { name: 'throws', js: 'if (!args.weight_kg) throw new Error("weight must be positive"); return 1;' },
    { name: 'bad_syntax', js: 'return {;' },
    { name: 'returns_nothing', js: 'const x = 1;' },
    { name: 'returns_function', js: 'return {total: 3, format: () => "3"};' },
    { name: 'awaits', js: 'await new Promise((ok) => setTimeout(ok, 50)); return {waited: true};' },
    // A message of its own, shaped to pass as another call's answer.
    { name: 'posts_itself', js: 'postMessage({ok: "yes", type: "ready", id: 99}); return 2;' },
  ];
  await loadScenario(page, scenarioCalling(tools));
  await button(page, 'Run').click();
  assert((await bannerStatus(page)) === 'done', 'the run did not end done');
  const r = await resultsByTool(page, tools.map((t) => t.name));
  assert(r.throws.includes('Error result from throws'), r.throws);
  assert(r.throws.includes('the JavaScript tool failed: Error: weight must be positive'), r.throws);
  assert(r.bad_syntax.includes('Error result') && r.bad_syntax.includes('SyntaxError'), r.bad_syntax);
  assert(r.returns_nothing.includes('Error result') && r.returns_nothing.includes('result is undefined'), r.returns_nothing);
  assert(r.returns_function.includes('Error result') && r.returns_function.includes('result.format is a function'), r.returns_function);
  assert(r.posts_itself.includes('Error result') && r.posts_itself.includes('posted a message of its own (postMessage)'), r.posts_itself);
  assert(r.awaits.includes('Result from awaits') && !r.awaits.includes('Error result') && r.awaits.includes('{"waited":true}'), r.awaits);
});

test('a sandbox script that is missing fails the JS call with a message saying so, before the tool timeout', async ({ page, errors }) => {
  await page.route('**/sandbox/sandbox.js', (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }));
  await loadScenario(page, scenarioCalling([{ name: 'answer', js: 'return 42;' }], { tool_timeout_ms: 8000 }));
  const started = Date.now();
  await button(page, 'Run').click();
  assert((await bannerStatus(page)) === 'done', 'the run did not go on to its answer');
  const took = Date.now() - started;
  const { answer } = await resultsByTool(page, ['answer']);
  assert(answer.includes('Error result from answer'), answer);
  assert(answer.includes('the JavaScript sandbox (sandbox/sandbox.js) could not be loaded: HTTP 404'), answer);
  assert(took < 5000, `the failure took ${took} ms, as long as a timeout`);
  // The browser reports the 404 itself; that one console line is expected here.
  const notFound = errors.filter((e) => e.includes('404'));
  errors.splice(0, errors.length, ...errors.filter((e) => !e.includes('404')));
  console.log(`    (failed after ${took} ms; ${notFound.length} 404 line(s) in the console)`);
});

test('a run with a JavaScript tool replays in the page against the sandbox, and a changed body fails the replay', async ({ page }) => {
  assert((await runBuiltin(page, 'js-tool')) === 'done', 'js-tool did not finish');
  await button(page, 'Replay against current tools').click();
  const verdict = page.locator('.replay-verdict');
  await verdict.waitFor({ timeout: 10_000 });
  assert((await verdict.getAttribute('data-passed')) === 'true', `unchanged replay: ${await verdict.innerText()}`);
  // The same tool, now throwing: the recorded turns meet an error result.
  const scenario = JSON.parse(await page.locator('#scenario-json').inputValue());
  const tool = scenario.tools.find((t) => typeof t === 'object' && t.js);
  tool.js = "throw new Error('rates unavailable');";
  await page.locator('#scenario-json').fill(JSON.stringify(scenario, null, 2));
  await button(page, 'Replay against current tools').click();
  await page.locator('.replay-verdict[data-passed="false"]').waitFor({ timeout: 10_000 });
  const failed = await page.locator('.replay-row[data-passed="false"]').allInnerTexts();
  assert(failed.some((row) => row.includes('rates unavailable')), `failed rows: ${JSON.stringify(failed)}`);
});
