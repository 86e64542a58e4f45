// End-to-end tests of the built playground in real headless Chromium.
//
// Serves an already built `dist/` (scripts/e2e.sh builds it with `trunk build
// --release`) from a tiny static server on 127.0.0.1 and a free port, then
// drives the page with playwright-core. Every test fails on any console error
// or page error. Closes with the line `N passed, N failed` and exits non-zero
// when a test failed.
//
// Usage: node tests/e2e/run.mjs [dist-dir]   (default: <repo>/dist)
// Env:   CHROMIUM=/path/to/chromium (default /usr/bin/chromium)

import { createServer } from 'node:http';
import { mkdirSync, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const dist = resolve(process.argv[2] ?? join(root, 'dist'));
const artifacts = join(here, 'artifacts');

// Quiet on a closed network: no first-run, sync, update or QUIC traffic.
// playwright-core itself gives every launch a fresh temporary user-data-dir.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// A built-in needing a human decision ends `blocked` until the approval bar
// exists (this page runs with no approver); the library expects `done`.
const STATUS_WITHOUT_APPROVER = { 'refund-with-approval': 'blocked' };

const CANCEL_WITHIN_MS = 500;
const TEST_TIMEOUT_MS = 30_000;

// ---------------------------------------------------------------------------
// Static server

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

function serve(dir) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const rel = decodeURIComponent(url.pathname) === '/' ? '/index.html' : decodeURIComponent(url.pathname);
    const file = normalize(join(dir, rel));
    if (!file.startsWith(dir + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

// ---------------------------------------------------------------------------
// Helpers

let baseUrl;
let browser;

/** A fresh page (own context) that records console errors and page errors. */
async function openPage(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => errors.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
  await page.goto(baseUrl);
  await page.locator('#scenario-picker').waitFor();
  return { page, errors, close: () => context.close() };
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** Picks a built-in, presses Run and waits for the stop banner; returns its status. */
async function runBuiltin(page, id) {
  await page.selectOption('#scenario-picker', id);
  const text = await page.locator('#scenario-json').inputValue();
  assert(text.trim().startsWith('{'), `picking ${id} did not load its JSON`);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const banner = page.locator('.stop-banner');
  await banner.waitFor({ timeout: 10_000 });
  return banner.getAttribute('data-status');
}

const tests = [];
/** Registers a test; `options` are the browser context's (viewport, colour scheme). */
function test(name, body, options = {}) {
  tests.push({ name, body, options });
}

// ---------------------------------------------------------------------------
// Tests

test('get-time runs to `done`, showing each step and the stop banner', async ({ page }) => {
  const status = await runBuiltin(page, 'get-time');
  assert(status === 'done', `expected done, got ${status}`);
  const banner = page.locator('div[role="status"].stop-banner');
  const text = await banner.innerText();
  assert(text.includes('done'), `banner does not name the status: ${text}`);
  assert(/turns?/.test(text) && /tokens/.test(text) && text.includes('$'), `banner lacks the numbers: ${text}`);
  const kinds = await page.locator('.events li').evaluateAll((rows) => rows.map((r) => r.dataset.kind));
  for (const kind of ['run_started', 'model_request', 'model_response', 'tool_call', 'tool_result', 'run_finished']) {
    assert(kinds.includes(kind), `no ${kind} row in ${kinds.join(', ')}`);
  }
  assert(kinds[0] === 'run_started' && kinds.at(-1) === 'run_finished', `rows out of order: ${kinds.join(', ')}`);
  const call = await page.locator('.events li[data-kind="tool_call"]').first().innerText();
  assert(call.includes('get_time') && call.includes('arguments valid'), `tool call row: ${call}`);
  await page.screenshot({ path: join(artifacts, 'get-time-done.png'), fullPage: true });
});

test('turn-limit stops `turn_limit` after three model calls', async ({ page }) => {
  const status = await runBuiltin(page, 'turn-limit');
  assert(status === 'turn_limit', `expected turn_limit, got ${status}`);
  const requests = await page.locator('.events li[data-kind="model_request"]').count();
  assert(requests === 3, `expected 3 model requests, saw ${requests}`);
  const reason = await page.locator('.stop-banner .stop-reason').innerText();
  assert(reason.trim().length > 0, 'the banner has no reason');
});

test('broken JSON lists its problem in an alert and runs nothing', async ({ page }) => {
  await page.locator('#scenario-json').fill('{"name": "broken",');
  assert((await page.locator('#scenario-picker').inputValue()) === 'custom', 'editing did not switch the picker to Custom');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const alert = page.locator('ul[role="alert"]');
  await alert.waitFor();
  const items = await alert.locator('li').allInnerTexts();
  assert(items.length === 1 && items[0].startsWith('not valid JSON'), `alert: ${JSON.stringify(items)}`);
  await page.waitForTimeout(300);
  assert((await page.locator('.events li').count()) === 0, 'a run happened');
  assert((await page.locator('.stop-banner').count()) === 0, 'a stop banner appeared');
});

test('a scenario with several problems lists every one with its path', async ({ page }) => {
  const bad = {
    name: 42,
    task: 'x',
    model: { type: 'scripted', responses: [{ tool_calls: [{ name: 't', args: 'oops' }] }] },
  };
  await page.locator('#scenario-json').fill(JSON.stringify(bad, null, 2));
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const items = page.locator('ul[role="alert"] li');
  await items.first().waitFor();
  const texts = await items.allInnerTexts();
  assert(texts.length === 2, `expected 2 problems, got ${JSON.stringify(texts)}`);
  assert(texts.some((t) => t.startsWith('name: ')), `no problem at name: ${JSON.stringify(texts)}`);
  assert(
    texts.some((t) => t.startsWith('model.responses[0].tool_calls[0].args: ')),
    `no problem at the args path: ${JSON.stringify(texts)}`,
  );
  assert((await page.locator('.events li').count()) === 0, 'a run happened');
  // Fixing the scenario clears the alert and runs.
  const status = await runBuiltin(page, 'get-time');
  assert(status === 'done', `expected done after fixing, got ${status}`);
  assert((await page.locator('ul[role="alert"]').count()) === 0, 'the alert stayed after a good run');
});

test(`Stop during deadline's hung call ends \`cancelled\` within ${CANCEL_WITHIN_MS} ms`, async ({ page }) => {
  await page.selectOption('#scenario-picker', 'deadline');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  // The second model call is the one that hangs for 60 s.
  await page.locator('.events li[data-kind="model_request"]').nth(1).waitFor({ timeout: 5_000 });
  assert((await page.locator('.stop-banner').count()) === 0, 'the run ended before Stop');
  const stop = page.getByRole('button', { name: 'Stop', exact: true });
  const clicked = Date.now();
  await stop.click();
  const banner = page.locator('.stop-banner');
  await banner.waitFor({ timeout: 5_000 });
  const took = Date.now() - clicked;
  const status = await banner.getAttribute('data-status');
  assert(status === 'cancelled', `expected cancelled, got ${status}`);
  assert(took <= CANCEL_WITHIN_MS, `cancelled ${took} ms after the click`);
  assert(await stop.isDisabled(), 'Stop is still enabled after the run ended');
  assert(await page.getByRole('button', { name: 'Run', exact: true }).isEnabled(), 'Run is still disabled');
  console.log(`    (banner ${took} ms after the click)`);
});

test('every built-in scenario ends with its expected status', async ({ page }) => {
  const options = await page
    .locator('#scenario-picker option[data-expected]')
    .evaluateAll((os) => os.map((o) => ({ id: o.value, expected: o.dataset.expected })));
  assert(options.length >= 10, `only ${options.length} built-ins in the picker`);
  const groups = await page.locator('#scenario-picker optgroup').count();
  assert(groups >= 2, `built-ins are not grouped (${groups} optgroups)`);
  const wrong = [];
  for (const { id, expected } of options) {
    // A fresh load per scenario, so one run's banner is never mistaken for the next's.
    await page.goto(baseUrl);
    await page.locator('#scenario-picker').waitFor();
    const want = STATUS_WITHOUT_APPROVER[id] ?? expected;
    const got = await runBuiltin(page, id);
    if (got !== want) wrong.push(`${id}: expected ${want}, got ${got}`);
  }
  assert(wrong.length === 0, wrong.join('; '));
});

test('works at 360 px in dark mode, every control labelled', async ({ page }) => {
  const status = await runBuiltin(page, 'bad-arguments');
  assert(status === 'done', `expected done, got ${status}`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
  const unlabelled = await page.locator('select, textarea, button, input').evaluateAll((controls) =>
    controls
      .filter((c) => {
        const label = c.getAttribute('aria-label') || [...(c.labels ?? [])].map((l) => l.textContent).join('');
        return !(label.trim() || c.textContent.trim());
      })
      .map((c) => c.outerHTML.slice(0, 80)),
  );
  assert(unlabelled.length === 0, `unlabelled controls: ${unlabelled.join(' | ')}`);
  const errorRows = await page.locator('.events li.tone-error').count();
  assert(errorRows > 0, 'bad-arguments shows no error-marked row');
  await page.screenshot({ path: join(artifacts, 'bad-arguments-360-dark.png'), fullPage: true });
}, { viewport: { width: 360, height: 780 }, colorScheme: 'dark' });

// ---------------------------------------------------------------------------
// Runner

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function main() {
  if (!existsSync(join(dist, 'index.html'))) {
    console.error(`no ${join(dist, 'index.html')}: build first (trunk build --release)`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  mkdirSync(artifacts, { recursive: true });
  const server = await serve(dist);
  baseUrl = `http://127.0.0.1:${server.address().port}/`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  let passed = 0;
  let failed = 0;
  try {
    for (const [index, { name, body, options }] of tests.entries()) {
      const started = Date.now();
      let session;
      try {
        session = await openPage(options);
        await withTimeout(body(session), TEST_TIMEOUT_MS, name);
        assert(session.errors.length === 0, session.errors.join('\n'));
        passed += 1;
        console.log(`ok   ${name} (${Date.now() - started} ms)`);
      } catch (err) {
        failed += 1;
        console.log(`FAIL ${name}\n     ${String(err?.message ?? err).replaceAll('\n', '\n     ')}`);
        if (session) {
          const shot = join(artifacts, `failed-${index + 1}.png`);
          await session.page.screenshot({ path: shot, fullPage: true }).catch(() => {});
        }
      } finally {
        await session?.close().catch(() => {});
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
