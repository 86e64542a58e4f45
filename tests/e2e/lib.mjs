// Shared pieces of the end-to-end tests: the static server, the page opener that
// records console errors, the test registry and the helpers the test files use.
// `run.mjs` imports every `*.test.mjs` file in this directory, then runs the
// registered tests in order.

import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';

export const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '../..');
export const artifacts = join(here, 'artifacts');

// Quiet on a closed network: no first-run, sync, update or QUIC traffic.
// playwright-core itself gives every launch a fresh temporary user-data-dir.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const CANCEL_WITHIN_MS = 500;
export const TEST_TIMEOUT_MS = 30_000;

// ---------------------------------------------------------------------------
// Static server

export const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
};

export function serve(dir) {
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

/** Set by run.mjs before the first test (`dist`: the build it serves). */
export const env = { baseUrl: '', browser: null, dist: '' };

/** Leaves the page at a "leave?" question; any other dialog is dismissed,
 * as Playwright does with no handler. */
export function leaveAnyway(dialog) {
  return dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss();
}

/** A fresh page (own context) that records console errors and page errors.
 * The page's service worker is blocked unless `options.serviceWorkers` is
 * 'allow' (tests/e2e/offline.test.mjs): a request it answers never reaches
 * Playwright's `page.route`, which several tests use to hold or fail a file,
 * and its install would download the whole build in every test. */
export async function openPage(options = {}) {
  const context = await env.browser.newContext({
    viewport: { width: 1100, height: 900 },
    serviceWorkers: 'block',
    ...options,
  });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  // The page asks "leave?" before a reload while a run is going; a test that
  // reloads then means it (Playwright would dismiss it and stay). A test of
  // that question takes this handler off (`page.off('dialog', leaveAnyway)`).
  page.on('dialog', leaveAnyway);
  page.on('requestfailed', (req) => {
    const failure = req.failure()?.errorText;
    // The page fetches its split modules right after painting; a reload or a
    // navigation in that moment cancels those fetches, which is no error.
    if (failure === 'net::ERR_ABORTED' && /\/(split|chunk)_[^/]*\.wasm$/.test(new URL(req.url()).pathname)) return;
    errors.push(`request failed: ${req.url()} ${failure}`);
  });
  await page.goto(env.baseUrl);
  await page.locator('#scenario-picker').waitFor();
  return { page, errors, close: () => context.close() };
}

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const MODE_LABELS = { run: 'Run', compare: 'Compare', scenario: 'Scenario', history: 'History', files: 'Import/Export' };

/** Opens mode `key` (run, compare, scenario, history, files) from the
 * header's switch, as a person does, and waits until the page shows it.
 * A mode's own panels (Compare's, the kept runs, calling a tool by hand)
 * are drawn the first time it opens. */
export async function openMode(page, key) {
  await page.locator('nav.modes a', { hasText: MODE_LABELS[key] }).first().click();
  await page.locator(`main.layout[data-mode="${key}"]`).waitFor({ state: 'attached', timeout: 5_000 });
}

/** Opens the Compare mode unless it is open, and returns its panel once drawn. */
export async function openCompare(page) {
  if ((await page.locator('main.layout').getAttribute('data-mode')) !== 'compare') await openMode(page, 'compare');
  const panel = page.locator('section.compare');
  await panel.waitFor({ timeout: 10_000 });
  return panel;
}

/** Picks built-in `id` and waits until the editor holds its file: the
 * built-ins' files are a split module, so the text lands a moment after the
 * pick (the picker's label is the file's `name`, and " ⇄ pair" after it
 * for a scenario with a counterpart). */
export async function pick(page, id) {
  await page.selectOption('#scenario-picker', id);
  const label = (await page.locator(`#scenario-picker option[value="${id}"]`).textContent()).trim().replace(/ ⇄ pair$/, '');
  await page
    .waitForFunction((name) => {
      try {
        return JSON.parse(document.querySelector('#scenario-json').value).name === name;
      } catch {
        return false;
      }
    // The built-ins' files are a split module: a busy machine takes seconds.
    }, label, { timeout: 15_000 })
    .catch(() => {
      throw new Error(`picking ${id} did not load its JSON`);
    });
}

/** Picks a built-in, presses Run and waits for the stop banner; returns its
 * status. With `approve`, every approval bar that appears is approved. */
export async function runBuiltin(page, id, { approve = false } = {}) {
  await pick(page, id);
  await button(page, 'Run').click();
  // A built-in that ends `cancelled` hangs until a person presses Stop, as
  // its lesson says: press it once the call that hangs (turn 2's) is waiting.
  const expected = await page.locator(`#scenario-picker option[value="${id}"]`).getAttribute('data-expected');
  if (expected === 'cancelled') {
    await page.locator('.timeline .event[data-kind="model_request"]').nth(1).waitFor({ timeout: 5_000 });
    await button(page, 'Stop').click();
  }
  return untilBanner(page, { approve, what: id });
}

/** Waits for the run in the trace to end and returns its status; with
 * `approve`, every approval bar that appears on the way is approved. */
export async function untilBanner(page, { approve = false, what = 'the run', ms = 10_000 } = {}) {
  const banner = page.locator('.stop-banner');
  const bar = page.locator('.approval-bar');
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    await banner.or(bar).first().waitFor({ timeout: deadline - Date.now() });
    if ((await banner.count()) > 0) return banner.getAttribute('data-status');
    if (!approve) throw new Error(`${what} asked for approval`);
    await bar.getByRole('button', { name: 'Approve', exact: true }).click();
    await bar.waitFor({ state: 'detached' }).catch(() => {});
  }
  throw new Error(`${what}: no stop banner within ${ms / 1000} s`);
}

/** The outer HTML of the controls matching `selector` that have no accessible name. */
export async function unlabelledControls(page, selector) {
  return page.locator(selector).evaluateAll((controls) =>
    controls
      .filter((c) => {
        const label = c.getAttribute('aria-label') || [...(c.labels ?? [])].map((l) => l.textContent).join('');
        return !(label.trim() || c.textContent.trim());
      })
      .map((c) => c.outerHTML.slice(0, 80)),
  );
}

export function button(scope, name) {
  return scope.getByRole('button', { name, exact: true });
}

/** Replaces the scenario with `scenario` (an object) through the JSON box. */
export async function loadScenario(page, scenario) {
  // The JSON box is the Run and Scenario modes': from another, go to Run.
  if (await page.locator('#scenario-json').isHidden()) await openMode(page, 'run');
  await page.locator('#scenario-json').fill(JSON.stringify(scenario, null, 2));
}

/** Presses Step and waits until the run says it is paused `where`. */
export async function stepTo(page, where) {
  await button(page, 'Step').click();
  await page.locator('.run-state', { hasText: where }).waitFor({ timeout: 10_000 });
}

/** Runs the built-in refund scenario up to its approval bar and returns the bar. */
export async function refundUntilApproval(page) {
  await pick(page, 'refund-with-approval');
  await button(page, 'Run').click();
  const bar = page.locator('.approval-bar');
  await bar.waitFor({ timeout: 5_000 });
  const text = await bar.innerText();
  assert(text.includes('issue_refund') && text.includes('ord_f6g7h8i9j0'), `approval bar: ${text}`);
  // The bar sits right under the call it is about: the last row is its request.
  const last = await page.locator('.timeline .event').last().getAttribute('data-kind');
  assert(last === 'approval_requested', `the bar follows a ${last} row`);
  return bar;
}

export async function bannerStatus(page) {
  const banner = page.locator('.stop-banner');
  await banner.waitFor({ timeout: 5_000 });
  return banner.getAttribute('data-status');
}

export async function rowTexts(page, kind) {
  return page.locator(`.timeline .event[data-kind="${kind}"]`).allInnerTexts();
}

export const tests = [];
/** Registers a test; `options` are the browser context's (viewport, colour
 * scheme), plus `timeoutMs` for a test that needs longer than TEST_TIMEOUT_MS. */
export function test(name, body, options = {}) {
  tests.push({ name, body, options });
}

// ---------------------------------------------------------------------------
// Tests

// ---------------------------------------------------------------------------
// Real providers, against `agent-loop serve` (scripted answers over HTTP)

export const CLI = join(root, 'target/debug/agent-loop');
export const SECRET = 'sk-test-secret-123';

/** Starts `agent-loop serve --port 0 <scenario>`; resolves to { url, stop }. */
export function serveScenario(scenario) {
  const child = spawn(CLI, ['serve', '--port', '0', scenario], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  };
  return new Promise((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => {
      stop();
      fail(new Error(`agent-loop serve ${scenario} printed no address: ${out}`));
    }, 10_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      fail(err);
    });
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (match) {
        clearTimeout(timer);
        ok({ url: match[1], stop });
      }
    });
  });
}

/** Chooses OpenAI Chat Completions at `url` with model `scripted` and the test key. */
export async function useOpenaiChat(page, url) {
  await page.getByLabel('Model source').selectOption({ label: 'OpenAI Chat Completions' });
  const base = page.getByLabel('Base URL');
  assert((await base.inputValue()) === 'https://api.openai.com', `default base URL: ${await base.inputValue()}`);
  await base.fill(url);
  await page.locator('#model-name').fill('scripted');
  const key = page.getByLabel('API key', { exact: true });
  assert((await key.getAttribute('type')) === 'password', 'the key field is not a password field');
  await key.fill(SECRET);
}

export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Opens the inspector from turn `turn`'s "Request to the model" card. */
export async function inspect(page, turn) {
  await page.getByRole('button', { name: `Inspect turn ${turn}'s request and response` }).click();
  const panel = page.locator('.inspector[data-open]');
  await panel.waitFor({ timeout: 5_000 });
  await panel.locator('h2', { hasText: `turn ${turn}` }).waitFor({ timeout: 5_000 });
  return panel;
}

/** Clicks tab `name` (a provider's tab may say it is the one in use). */
export async function tab(panel, name) {
  await panel.getByRole('tab', { name: new RegExp(`^${name}( \\(in use\\))?$`) }).click();
}

/** The text of the inspector's tab panel once it holds `text`. */
export async function bodyHolding(panel, text) {
  const body = panel.locator('.inspector-body');
  await body.filter({ hasText: text }).waitFor({ timeout: 5_000 });
  return body.innerText();
}

/**
 * Opens the trace heading's "Run files" menu (export, import, paste, send)
 * if it is closed; in the Import/Export mode they show without it.
 */
export async function runFiles(page) {
  const toggle = page.locator('.run-files-toggle');
  const mode = await page.locator('main.layout').getAttribute('data-mode');
  if (mode !== 'files' && (await toggle.getAttribute('aria-expanded')) !== 'true') {
    // The History mode hides the trace, menu and all; it opens the same.
    if (await toggle.isVisible()) await toggle.click();
    else await toggle.dispatchEvent('click');
  }
  await page.locator('.run-files').waitFor({ state: 'attached', timeout: 5_000 });
}

// ---------------------------------------------------------------------------
// Accessibility

/**
 * axe-core's violations in the page as it is now, each a line that names
 * `label` (the state the page is in), the rule, and up to five of its nodes
 * with what axe found wrong there. axe runs with its defaults, as in
 * a11y.test.mjs. The page's Content-Security-Policy allows no injected
 * script: the context must be opened with `bypassCSP: true`.
 */
export async function axeCheck(page, label) {
  if (!(await page.evaluate(() => 'axe' in window))) {
    const { createRequire } = await import('node:module');
    await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
  }
  const found = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 100)} → ${(n.any[0] ?? n.all[0] ?? n.none[0])?.message ?? ''}`),
    }));
  });
  return found.map((v) => `[${label}] ${v.id} (${v.nodes.length}): ${v.help}\n    ${v.nodes.slice(0, 5).join('\n    ')}`);
}

// ---------------------------------------------------------------------------
// A field's problem, as a screen reader reads it with the field

/** The ids `input`'s aria-describedby names. */
export async function describedBy(input) {
  return input.evaluate((el) => (el.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean));
}

/** The text of the elements `input`'s aria-describedby names, joined. */
export async function descriptionOf(input) {
  return input.evaluate((el) => (el.getAttribute('aria-describedby') || '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent.trim() ?? '')
    .join(' | '));
}

/**
 * Makes `input` wrong and checks that the problem shown under it says
 * `says`, is announced as it appears (a live region), is in the input's
 * description, with aria-invalid set; then makes it right and checks that
 * the input is neither marked nor described by the problem any more.
 * `wrong` and `right` are text to type, or functions that do it another
 * way. `shown` is where the problem is drawn; by default the element
 * `#<id>-problem`, which the description must then name by id.
 */
export async function announcesProblem(input, { wrong, right, says, shown }) {
  const name = await input.getAttribute('id');
  assert(name, 'the input has no id: no problem can name it');
  const byId = shown === undefined;
  const where = shown ?? input.page().locator(`[id="${name}-problem"]`);
  const act = (what) => (typeof what === 'function' ? what() : input.fill(what));
  await act(wrong);
  await where.filter({ hasText: says }).waitFor({ timeout: 5_000 })
    .catch(() => assert(false, `#${name}: no problem saying "${says}" shows under it`));
  const problem = (await where.innerText()).trim();
  // A problem listed over several lines is described by its first.
  const first = problem.split('\n')[0];
  const live = await where.evaluate((el) => el.getAttribute('role') === 'alert' || ['polite', 'assertive'].includes(el.getAttribute('aria-live')));
  assert(live, `#${name}: the problem "${problem}" is not announced as it appears (no live region)`);
  const invalid = await input.getAttribute('aria-invalid');
  assert(invalid === 'true', `#${name}: aria-invalid is ${invalid} while "${problem}" shows`);
  const description = await descriptionOf(input);
  assert(description.includes(first), `#${name}: its description is "${description}", not the problem shown: "${problem}"`);
  await act(right);
  await input.page().waitForFunction((id) => document.getElementById(id)?.getAttribute('aria-invalid') !== 'true', name, { timeout: 5_000 })
    .catch(() => assert(false, `#${name}: still aria-invalid once fixed`));
  if (byId) {
    const ids = await describedBy(input);
    assert(!ids.includes(`${name}-problem`), `#${name}: still described by its problem once fixed (aria-describedby="${ids.join(' ')}")`);
  }
  const after = await descriptionOf(input);
  assert(!after.includes(first), `#${name}: its description still says "${after}" once fixed`);
}
