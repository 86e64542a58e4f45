// Browser benchmark: prints figures, asserts nothing.
//
// 1. Startup: time from navigation (the page's time origin) to the Run button
//    being enabled, and to the end of a first run (get-time, Run pressed as
//    soon as it is enabled), over several cold loads (fresh browser context
//    each). The page paints without the run engine, a split module fetched
//    right after; the second figure includes fetching it, and the split
//    modules fetched by then are listed with their brotli size.
// 2. Rendering a long run: the longest main-thread task (PerformanceObserver
//    'longtask', tasks over 50 ms) and the longest gap between animation
//    frames while a 1,000-turn scripted run streams into the timeline.
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
const TURNS = 1000;

/** The 1,000-turn run: one trivial tool, called every turn until max_turns. */
const endless = {
  name: `Endless ${TURNS}`,
  task: 'Keep going.',
  tools: [{ name: 'noop', description: 'Does nothing.', input_schema: { type: 'object' }, result: { ok: true } }],
  limits: { max_turns: TURNS },
  model: { type: 'scripted', responses: [{ tool_calls: [{ name: 'noop', args: {} }] }], loop_from: 0 },
};

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

async function longRun(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('#scenario-json').fill(JSON.stringify(endless, null, 2));
  await page.locator('button.run:not([disabled])').waitFor();
  await page.evaluate(() => {
    window.__tasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__tasks.push(entry.duration);
    }).observe({ type: 'longtask' });
    window.__gaps = [];
    let last = performance.now();
    const tick = (now) => {
      window.__gaps.push(now - last);
      last = now;
      if (!document.querySelector('.stop-banner')) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const started = Date.now();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.locator('.stop-banner').waitFor({ timeout: 60_000 });
  const took = Date.now() - started;
  const status = await page.locator('.stop-banner').getAttribute('data-status');
  const cards = await page.locator('.turn-card').count();
  // Long tasks are reported after they end: give the observer a frame.
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 50))));
  const tasks = await page.evaluate(() => window.__tasks);
  const gaps = await page.evaluate(() => window.__gaps);
  console.log(`${TURNS}-turn run: ${status} after ${ms(took)}, ${cards} turn cards`);
  console.log(
    `  longest main-thread task ${tasks.length ? ms(Math.max(...tasks)) : 'none over 50 ms'}; ` +
      `${tasks.length} long tasks (> 50 ms), ${ms(tasks.reduce((a, b) => a + b, 0))} in total; ` +
      `longest frame gap ${ms(Math.max(...gaps))}`,
  );
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
    await longRun(browser, url);
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
