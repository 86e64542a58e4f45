// Browser benchmark: prints figures, asserts nothing.
//
// 1. Startup: time from navigation (the page's time origin) to the Run button
//    being enabled, and to the end of a first run (get-time, Run pressed as
//    soon as it is enabled), over several cold loads (fresh browser context
//    each). The page paints without the run engine, a split module fetched
//    right after; the second figure includes fetching it, and the split
//    modules fetched by then are listed with their brotli size.
// 2. Long runs: 1,000- and 10,000-turn scripted runs (one trivial
//    tool), each in a fresh page: the time from the click on Run to the stop
//    banner, per turn, the DOM nodes left in the page, the longest
//    main-thread task (PerformanceObserver 'longtask': tasks over 50 ms) and
//    the longest gap between animation frames; then the cost of each turn
//    from the 1,000th to the 10,000th (the difference of the two runs over
//    9,000 turns, which leaves out what every run costs once: starting,
//    ending, keeping it in the history). Then Stop, clicked after
//    1,000 and after 10,000 turns of an endless run: the time from the click
//    to the banner.
// 3. With ENGINE_US_PER_STEP_1000 and ENGINE_US_PER_STEP_10000 set (the
//    harness's native µs per step at those lengths, from `cargo bench -p
//    harness --bench loop_steps`; scripts/bench.sh passes them), each long
//    run's cost per turn is also given as a multiple of the engine's own.
//
// Usage: node scripts/browser-bench.mjs [dist-dir]   (default: <repo>/dist,
// built with `trunk build --release`). Env: CHROMIUM (default /usr/bin/chromium).

import { existsSync, readFileSync } from 'node:fs';
import { brotliCompressSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, root, serve } from '../tests/e2e/lib.mjs';

const dist = resolve(process.argv[2] ?? join(root, 'dist'));
const LOADS = 5;
const LONG_RUNS = [1_000, 10_000];
/** Stop is clicked once an endless run has taken this many turns. */
const STOP_AFTER = [1_000, 10_000];

/** A run of `turns` turns: one trivial tool, called every turn until max_turns. */
const endless = (turns) => ({
  name: `Endless ${turns}`,
  task: 'Keep going.',
  tools: [{ name: 'noop', description: 'Does nothing.', input_schema: { type: 'object' }, result: { ok: true } }],
  limits: { max_turns: turns },
  model: { type: 'scripted', responses: [{ tool_calls: [{ name: 'noop', args: {} }] }], loop_from: 0 },
});

/** Runs in the page before its scripts: notes when Run first becomes
 * enabled. Leptos sets `disabled` as a property (no mutation to observe), so
 * every DOM change and every frame checks it: the figure is at most one
 * frame late. */
function watchRunButton() {
  let done = false;
  const check = () => {
    if (window.__runEnabledMs === undefined) {
      const run = document.querySelector('button.run');
      if (run && !run.disabled) window.__runEnabledMs = performance.now();
    }
    if (window.__bannerMs === undefined && document.querySelector('.stop-banner')) {
      window.__bannerMs = performance.now();
      done = true;
      observer.disconnect();
    }
    if (!done) requestAnimationFrame(check);
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, attributes: true });
  requestAnimationFrame(check);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${Math.round(x)} ms`;

async function startup(browser, url) {
  const times = [];
  const firstRuns = [];
  let fetched = new Set();
  for (let i = 0; i < LOADS; i += 1) {
    const context = await browser.newContext();
    const page = await context.newPage();
    fetched = new Set();
    page.on('request', (request) => {
      const file = new URL(request.url()).pathname.slice(1);
      if (/^(split|chunk)_.*\.wasm$/.test(file)) fetched.add(file);
    });
    await page.addInitScript(watchRunButton);
    await page.goto(url);
    await page.waitForFunction(() => window.__runEnabledMs !== undefined, null, { timeout: 30_000 });
    times.push(await page.evaluate(() => window.__runEnabledMs));
    await page.locator('button.run').click();
    await page.waitForFunction(() => window.__bannerMs !== undefined, null, { timeout: 30_000 });
    firstRuns.push(await page.evaluate(() => window.__bannerMs));
    await context.close();
  }
  const spread = (xs) => `median ${ms(median(xs))}, min ${ms(Math.min(...xs))}, max ${ms(Math.max(...xs))}`;
  console.log(`navigation to Run enabled: ${spread(times)} (${LOADS} cold loads)`);
  console.log(`navigation to the end of a first get-time run: ${spread(firstRuns)}`);
  const bytes = [...fetched].reduce(
    (sum, file) => sum + brotliCompressSync(readFileSync(join(dist, file))).length,
    0,
  );
  console.log(`  split modules fetched by then: ${fetched.size} files, ${(bytes / 1024).toFixed(1)} KiB brotli`);
}

/** Runs in the page once it has loaded: notes the long tasks, the gaps
 * between frames, when Run or Stop is clicked and when the stop banner
 * appears. Only the trace section's own children are watched (the banner is
 * one), so watching costs the run nothing per event. */
function watchRun() {
  window.__tasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__tasks.push(entry.duration);
  }).observe({ type: 'longtask' });
  window.__gaps = [];
  let last = performance.now();
  const tick = (now) => {
    window.__gaps.push(now - last);
    last = now;
    if (window.__bannerMs === undefined) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  addEventListener(
    'click',
    (event) => {
      // The event's own time: when the browser took the click, not when a
      // busy page got round to it.
      if (event.target.closest?.('button.run')) window.__runClickMs = event.timeStamp;
      if (event.target.closest?.('button.stop')) window.__stopClickMs = event.timeStamp;
    },
    true,
  );
  const trace = document.querySelector('section.trace');
  new MutationObserver(() => {
    if (window.__bannerMs === undefined && trace.querySelector(':scope > .stop-banner')) {
      window.__bannerMs = performance.now();
    }
  }).observe(trace, { childList: true });
}

/** Every node in the document (elements, text, comments), and the elements. */
function countNodes() {
  const walker = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
  let nodes = 1;
  while (walker.nextNode()) nodes += 1;
  return { nodes, elements: document.getElementsByTagName('*').length };
}

const count = (n) => n.toLocaleString('en-US');

/** A fresh page with `scenario` in the editor, watched (see `watchRun`). */
async function pageWith(browser, url, scenario) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('#scenario-json').fill(JSON.stringify(scenario, null, 2));
  await page.locator('button.run:not([disabled])').waitFor();
  await page.evaluate(watchRun);
  return { page, context };
}

/** The engine's native µs per turn at `turns` turns (two steps a turn), if given. */
function engineUsPerTurn(turns) {
  const perStep = Number(process.env[`ENGINE_US_PER_STEP_${turns}`]);
  return perStep > 0 ? 2 * perStep : undefined;
}

async function longRun(browser, url, turns) {
  const { page, context } = await pageWith(browser, url, endless(turns));
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => window.__bannerMs !== undefined, null, { timeout: 300_000, polling: 250 });
  const status = await page.locator('.stop-banner').getAttribute('data-status');
  const counted = await page.locator('.counter[data-counter="turn"] dd').innerText();
  const took = await page.evaluate(() => window.__bannerMs - window.__runClickMs);
  const { nodes, elements } = await page.evaluate(countNodes);
  // Long tasks are reported after they end: give the observer a frame.
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 50))));
  const tasks = await page.evaluate(() => window.__tasks);
  const gaps = await page.evaluate(() => window.__gaps);
  const perTurnUs = (took * 1000) / turns;
  console.log(
    `${count(turns)}-turn run: ${status} after ${ms(took)} (${(perTurnUs / 1000).toFixed(3)} ms a turn), ` +
      `turn counter ${counted}`,
  );
  console.log(
    `  DOM nodes at the end: ${count(nodes)} (${count(elements)} elements); longest main-thread task ` +
      `${tasks.length ? ms(Math.max(...tasks)) : 'none over 50 ms'} (${tasks.length} over 50 ms, ` +
      `${ms(tasks.reduce((a, b) => a + b, 0))} in total); longest frame gap ${ms(Math.max(...gaps))}`,
  );
  const engine = engineUsPerTurn(turns);
  if (engine) {
    console.log(
      `  page/engine: ${perTurnUs.toFixed(0)} µs a turn in the page against ${engine.toFixed(2)} µs ` +
        `for the engine alone (native): ${Math.round(perTurnUs / engine)}×`,
    );
  }
  await context.close();
  return took;
}

/** Stop clicked once an endless run has taken `after` turns: click to banner. */
async function stopLatency(browser, url, after) {
  const { page, context } = await pageWith(browser, url, endless(100_000));
  // One mouse click where Stop sits (the toolbar is sticky), as a person clicks.
  const box = await page.getByRole('button', { name: 'Stop', exact: true }).boundingBox();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(
    (n) => parseInt(document.querySelector('.counter[data-counter="turn"] dd').textContent, 10) >= n,
    after,
    { timeout: 300_000, polling: 50 },
  );
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction(() => window.__bannerMs !== undefined, null, { timeout: 30_000 });
  const status = await page.locator('.stop-banner').getAttribute('data-status');
  const took = await page.evaluate(() => window.__bannerMs - window.__stopClickMs);
  const counted = await page.locator('.counter[data-counter="turn"] dd').innerText();
  console.log(`Stop after ${count(after)} turns: ${status}, banner ${ms(took)} after the click (turn counter ${counted})`);
  await context.close();
}

async function main() {
  if (!existsSync(join(dist, 'index.html'))) {
    console.error(`no ${join(dist, 'index.html')}: build first (trunk build --release)`);
    process.exit(1);
  }
  const server = await serve(dist);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    console.log(`chromium ${browser.version()}, ${dist}`);
    await startup(browser, url);
    const took = [];
    for (const turns of LONG_RUNS) took.push(await longRun(browser, url, turns));
    const [few, many] = LONG_RUNS;
    console.log(
      `turns ${count(few + 1)} to ${count(many)}: ${((took[1] - took[0]) / (many - few)).toFixed(3)} ms a turn ` +
        `(${ms(took[0])} for ${count(few)} turns, ${ms(took[1])} for ${count(many)})`,
    );
    for (const after of STOP_AFTER) await stopLatency(browser, url, after);
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
