// First-run benchmark: what a learner's first default run costs on
// a classroom network. Prints figures, asserts nothing (unless --budget).
//
// The built page is served with brotli, as a CDN would (quality 11, computed
// once per file), beside a one-button static page that is the floor: the
// same server, the same browser, the same network profile. For each profile
// (local: no throttling; 4G; 3G: 1.6 Mbps down, 150 ms round trip, Chromium's
// network emulation over CDP) and each way of clicking (Run clicked as soon
// as it is enabled; Run clicked 5 s after the page's load event), over fresh
// browser contexts (nothing cached), it prints:
//   - static page: navigation to the static page's load event;
//   - Run enabled: navigation to the Run button being enabled;
//   - first run done: navigation to the get-time run's stop banner;
//   - click to done: the click on Run to that banner (the goal for a
//     click 5 s after load: within 1.5× "Run enabled");
//   - bytes by then: the brotli bytes of every file the page requested by the
//     first run's end. The service worker is blocked: it installs once the
//     page is idle, and its downloads (the whole build, for offline use) are
//     no part of what a first run needs.
// The median of LOADS loads is printed, and for each profile the files of the
// first run's fetches with their start and end times (a waterfall).
//
// Last, the why: for each split module the first run fetched, the brotli
// bytes of it and of every shared chunk it needs (from the split loader's
// own table), so the cost of each feature on a first run can be read off.
//
// Then "first click": on the local profile, Run clicked as soon as it is
// enabled, the time from the click to the run's stop banner, against
// FIRST_CLICK_GOAL_MS.
//
// Usage: node scripts/bench.mjs [dist-dir] [--budget]
//   --budget: one local load only (CI, scripts/e2e.sh); exits 1 when the
//   bytes a first visit fetches with its first run (Run clicked as soon as
//   enabled), once the page is settled, exceed FIRST_RUN_CEILING, or its
//   files FIRST_RUN_FILES_CEILING, or when the engine's file was not asked
//   for before Run was enabled (see `engineAskedBeforeEnabled`); it also
//   prints the bytes by the run's end against FIRST_RUN_GOAL, and the first
//   click's figure against FIRST_CLICK_GOAL_MS.
// Env: CHROMIUM (default /usr/bin/chromium).

import { createServer } from 'node:http';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, TYPES, root } from '../tests/e2e/lib.mjs';

/** The goal set for a first default run, first paint included. NOT MET,
 * and out of reach in this design: the first paint and the run engine alone
 * are 388 KiB (the guide's Performance page has the figures and the why). */
export const FIRST_RUN_GOAL = 350 * 1024;
/** What CI enforces meanwhile, on a figure that does not depend on timing:
 * every byte a first visit fetches with its first run (Run clicked as soon
 * as it is enabled) and no other click, once the page asks for nothing more.
 * The bytes by the run's end vary with what lands first (687 to 865 KiB over
 * a few loads). It was 866 KiB with a ceiling of 890; the stage and modes
 * and the lesson lock took it to 902 KiB, with every
 * panel of every mode drawn (hidden) once the page settled. Drawing a
 * mode's own panels (Compare, the kept runs, calling a tool by hand) only
 * when it first opens took it to 813 KiB, and the ceiling down to 830 KiB.
 * Fetching the chunks a first visit needs as one file per module
 * (scripts/wasm-group.mjs), and the MCP panel, the paste box and the
 * OpenTelemetry box only when shown, took it to 689 KiB in 18 files; the
 * MCP client leaving the engine, to 660 KiB. Holding the Run state panel,
 * the Model settings and the built-ins' files until the run is over cut
 * the bytes by the run's end (607 -> 587 KiB), not this figure; the
 * comparisons, forks, replays and the tool called by hand leaving the
 * engine (`lazy::offstage`), both, to 647 and 557 KiB, and the ceiling to 660;
 * the reader that words a file's problems leaving the engine
 * (`lazy::check_scenario`), to 627 and 553 KiB, and the ceiling to 640.
 * New page features grew it since; the run files leaving it (fetched when
 * their menu opens), the event serializer leaving the main module and the
 * scenario's share actions becoming a split module of their own, and
 * wasm-opt at -O2 (scripts/wasm-split.mjs), took it to 638 KiB in 17 files.
 * The page changes after it took it to 643 KiB, knowingly: the runs as a
 * plain model (`run::model`) with the controller as its adapter (code that
 * shows the model in the components' signals, which the old controller did
 * not have), one Field component for the forms, and room for the tool bench
 * and the lesson beside the loop. The ceiling is 645 until that is won
 * back. Numbers read without Rust's float parser and its 10 KiB table
 * (`loop_core::float_text`) took it to 633 KiB; the ceiling stays at 645,
 * the room kept for the page's state becoming plain models. */
export const FIRST_RUN_CEILING = 645 * 1024;
/** The files of that same first visit: each is a round trip, and on a
 * classroom's 3G (150 ms) the count cost as much as the bytes when it was
 * 336. With the first visit's chunks grouped it is 18. */
export const FIRST_RUN_FILES_CEILING = 24;
/** A first run on a fast network (the local profile), Run clicked the moment
 * it is enabled: done within this of the click. Printed, not enforced: a
 * timing on a loaded 2-core CI machine flakes (on one such machine the same
 * build measured 145 to 400 ms, as the load beside it varied). What CI enforces instead is what the figure rests on,
 * and which does not depend on timing: the engine, the one module every run
 * needs, is asked for before Run is enabled, right after the first paint,
 * so a click never waits for its fetch to start. */
export const FIRST_CLICK_GOAL_MS = 300;

const args = process.argv.slice(2);
const budgetOnly = args.includes('--budget');
const dist = resolve(args.find((a) => !a.startsWith('--')) ?? join(root, 'dist'));
const LOADS = budgetOnly ? 1 : 3;
const KBIT = 1024 / 8; // bytes per second in one kbit/s

const PROFILES = [
  { name: 'local', latency: 0, down: -1, up: -1 },
  { name: '4G (9 Mbps, 85 ms)', latency: 85, down: 9000 * KBIT, up: 1500 * KBIT },
  { name: '3G (1.6 Mbps, 150 ms)', latency: 150, down: 1600 * KBIT, up: 750 * KBIT },
];
const CLICKS = [
  { name: 'as soon as enabled', delayMs: 0 },
  { name: '5 s after load', delayMs: 5_000 },
];

const STATIC_PAGE = '<!doctype html><html lang="en"><meta charset="utf-8"><title>floor</title><button>Run</button></html>';

/** brotli bodies by path, computed once. */
const compressed = new Map();
function brotli(file) {
  if (!compressed.has(file)) {
    const bytes = readFileSync(file);
    compressed.set(
      file,
      brotliCompressSync(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      }),
    );
  }
  return compressed.get(file);
}

function serveBrotli(dir) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    if (path === '/__floor.html') {
      res.writeHead(200, { 'content-type': TYPES['.html'], 'cache-control': 'no-store' });
      res.end(STATIC_PAGE);
      return;
    }
    const file = normalize(join(dir, path === '/' ? '/index.html' : path));
    if (!file.startsWith(dir + sep) || !existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-encoding': 'br',
      'cache-control': 'no-store',
    });
    res.end(brotli(file));
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

/** Runs in the page before its scripts: when Run is first enabled (and with
 * `clickAtOnce`, clicks it then), when it is clicked, and when the first
 * stop banner appears (checked on every DOM change and frame). */
function watchRunButton(clickAtOnce) {
  const check = () => {
    if (window.__runEnabledMs === undefined) {
      const run = document.querySelector('button.run');
      if (run && !run.disabled) {
        window.__runEnabledMs = performance.now();
        // In the page, in the same task: a click from Playwright lands some
        // tens or hundreds of ms later, as the machine's load has it.
        if (clickAtOnce) run.click();
      }
    }
    if (window.__bannerMs === undefined && document.querySelector('.stop-banner')) {
      window.__bannerMs = performance.now();
    }
    if (window.__bannerMs === undefined) requestAnimationFrame(check);
  };
  addEventListener(
    'click',
    (event) => {
      if (window.__clickMs === undefined && event.target.closest?.('button.run')) window.__clickMs = performance.now();
    },
    true,
  );
  addEventListener('DOMContentLoaded', () => {
    new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
  });
  requestAnimationFrame(check);
}

async function throttled(context, page, profile) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: profile.latency,
    downloadThroughput: profile.down,
    uploadThroughput: profile.up,
  });
  return cdp;
}

async function staticPage(browser, url, profile) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await throttled(context, page, profile);
  await page.goto(`${url}__floor.html`, { waitUntil: 'load' });
  const took = await page.evaluate(() => performance.getEntriesByType('navigation')[0].loadEventEnd);
  await context.close();
  return took;
}

async function firstRun(browser, url, profile, click, { settle = false } = {}) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await throttled(context, page, profile);
  await page.addInitScript(watchRunButton, click.delayMs === 0);
  // Hundreds of split files: keep every resource timing entry.
  await page.addInitScript(() => performance.setResourceTimingBufferSize(10_000));
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__runEnabledMs !== undefined, null, { timeout: 120_000, polling: 20 });
  if (click.delayMs > 0) {
    await page.waitForFunction(
      (delay) => performance.now() >= performance.getEntriesByType('navigation')[0].loadEventEnd + delay,
      click.delayMs,
      { timeout: 60_000, polling: 50 },
    );
  }
  if (click.delayMs > 0) await page.locator('button.run').click();
  await page.waitForFunction(() => window.__bannerMs !== undefined, null, { timeout: 120_000, polling: 20 });
  const status = await page.locator('.stop-banner').getAttribute('data-status');
  const { runEnabled, done, clicked } = await page.evaluate(() => ({
    runEnabled: window.__runEnabledMs,
    done: window.__bannerMs,
    clicked: window.__clickMs,
  }));
  if (settle) {
    // Until the page has asked for nothing new for 1.5 s: everything a first
    // visit with its first run fetches, with no other click.
    let count = -1;
    for (;;) {
      const now = await page.evaluate(() => performance.getEntriesByType('resource').length);
      if (now === count) break;
      count = now;
      await page.waitForTimeout(1_500);
    }
  }
  // In the page's own clock, as the banner's time: a request the page made
  // after the banner is no part of the first run, however soon after.
  const entries = await page.evaluate(() => [
    { name: location.href, startTime: 0, responseEnd: performance.getEntriesByType('navigation')[0].responseEnd },
    ...performance.getEntriesByType('resource').map((e) => ({ name: e.name, startTime: e.startTime, responseEnd: e.responseEnd })),
  ]);
  const all = entries
    .map((e) => {
      const path = new URL(e.name).pathname;
      return { path: path === '/' ? '/index.html' : path, start: Math.round(e.startTime), end: Math.round(e.responseEnd) };
    })
    .filter((f) => existsSync(join(dist, f.path)));
  const byThen = all.filter((f) => f.start <= done);
  const engine = all.find((f) => /^\/split_engine_/.test(f.path));
  const sizeOf = (list) => list.reduce((sum, f) => sum + brotli(join(dist, f.path)).length, 0);
  await context.close();
  return {
    status,
    runEnabled,
    done,
    afterClick: done - clicked,
    engineAsked: engine?.start,
    bytes: sizeOf(byThen),
    fetches: byThen,
    settled: { bytes: sizeOf(all), files: all.length },
  };
}

/** Whether the page asked for the engine's file before Run was enabled: a
 * click then never waits for the fetch to start, only for it to end. */
const engineAskedBeforeEnabled = (run) => run.engineAsked !== undefined && run.engineAsked <= run.runEnabled;

/** The first click's line, as CI prints it. */
function firstClickLine(afterClick, engineAsked, runEnabled) {
  const asked =
    engineAsked === undefined || !Number.isFinite(engineAsked)
      ? 'the engine was never asked for'
      : `the engine asked for at ${ms(engineAsked)}, Run enabled at ${ms(runEnabled)}`;
  return (
    `first click: run done ${ms(afterClick)} after the click (local, Run clicked as soon as it was enabled; ${asked}); ` +
    `goal ${ms(FIRST_CLICK_GOAL_MS)} — ${afterClick <= FIRST_CLICK_GOAL_MS ? 'met' : 'NOT MET'}`
  );
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${Math.round(x).toLocaleString('en-US')} ms`;
const kib = (n) => `${Math.round(n / 1024).toLocaleString('en-US')} KiB`;

async function main() {
  if (!existsSync(join(dist, 'index.html'))) {
    console.error(`no ${join(dist, 'index.html')}: build first (trunk build --release)`);
    process.exit(2);
  }
  // Every file compressed up front: compressing on a first request would
  // count brotli's own time (quality 11) as network time.
  for (const file of readdirSync(dist, { recursive: true })) {
    if (statSync(join(dist, file)).isFile()) brotli(join(dist, file));
  }
  const server = await serveBrotli(dist);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    if (budgetOnly) {
      const run = await firstRun(browser, url, PROFILES[0], CLICKS[0], { settle: true });
      const within = run.settled.bytes <= FIRST_RUN_CEILING && run.settled.files <= FIRST_RUN_FILES_CEILING;
      console.log(
        `first-run bytes: ${kib(run.settled.bytes)} brotli (${run.settled.files} files) fetched by a first visit with its ` +
          `first get-time run (${run.status}) and no other click, ceiling ${kib(FIRST_RUN_CEILING)} ` +
          `in ${FIRST_RUN_FILES_CEILING} files — ` +
          `${within ? 'within' : 'OVER THE CEILING'}; ${kib(run.bytes)} of them by the run's end (varies with timing); ` +
          `the goal of ${kib(FIRST_RUN_GOAL)} by the run's end — ${run.bytes <= FIRST_RUN_GOAL ? 'met' : 'not met'}`,
      );
      if (!within) for (const f of run.fetches) console.log(`  ${f.path} ${kib(brotli(join(dist, f.path)).length)}`);
      console.log(firstClickLine(run.afterClick, run.engineAsked, run.runEnabled));
      const prefetched = engineAskedBeforeEnabled(run);
      if (!prefetched) console.log('FAILED: the engine was not asked for before Run was enabled: a first click waits for its fetch to start');
      process.exitCode = within && prefetched ? 0 : 1;
      return;
    }
    console.log(`chromium ${browser.version()}, ${dist}, median of ${LOADS} cold loads each`);
    console.log('| profile | Run clicked | static page | Run enabled | first run done | click to done | bytes by then |');
    console.log('|---|---|---:|---:|---:|---:|---:|');
    const waterfalls = [];
    for (const profile of PROFILES) {
      const floor = [];
      for (let i = 0; i < LOADS; i += 1) floor.push(await staticPage(browser, url, profile));
      const base = median(floor);
      for (const click of CLICKS) {
        const runs = [];
        for (let i = 0; i < LOADS; i += 1) runs.push(await firstRun(browser, url, profile, click));
        const enabled = median(runs.map((r) => r.runEnabled));
        const done = median(runs.map((r) => r.done));
        const afterClick = median(runs.map((r) => r.afterClick));
        const bytes = median(runs.map((r) => r.bytes));
        const x = (t) => `${(t / base).toFixed(1)}×`;
        console.log(
          `| ${profile.name} | ${click.name} | ${ms(base)} | ${ms(enabled)} (${x(enabled)}) | ${ms(done)} (${x(done)}) | ${ms(afterClick)} | ${kib(bytes)} |`,
        );
        if (click.delayMs === 0) waterfalls.push({ profile, run: runs[0], afterClick, engineAsked: median(runs.map((r) => r.engineAsked ?? Infinity)), enabled });
      }
    }
    const local = waterfalls[0];
    console.log(`\n${firstClickLine(local.afterClick, local.engineAsked, local.enabled)} (medians of ${LOADS})`);
    for (const { profile, run } of waterfalls) {
      console.log(`\nwaterfall, ${profile.name}, Run clicked as soon as enabled (ms from navigation; brotli size):`);
      for (const f of run.fetches) {
        console.log(`  ${String(f.start).padStart(6)} → ${String(f.end || '?').padStart(6)}  ${kib(brotli(join(dist, f.path)).length).padStart(8)}  ${f.path}`);
      }
    }
    console.log('\nby split module, first run (local): its own bytes + the shared chunks it needs (brotli; chunks shared by several count in each):');
    for (const row of splitCosts(waterfalls[0].run.fetches)) console.log(`  ${kib(row.bytes).padStart(8)}  ${row.split} (${row.files} files)`);
  } finally {
    await browser.close();
    server.close();
  }
}

/** For each split module in `fetches`, its brotli bytes with every chunk it
 * needs, read from the split loader (scripts/wasm-group.mjs writes each
 * file as `NAME=[wrap(]load(() => fetch(new URL("./FILE")...), [DEPENDENCIES])`). */
function splitCosts(fetches) {
  const loader = readdirSync(dist).find((f) => /^__wasm_split-.*\.js$/.test(f));
  if (!loader) return [];
  const text = readFileSync(join(dist, loader), 'utf8');
  // The minifier's names change from build to build: match any identifier.
  const entry = /([\w$]+)=(?:[\w$]+\()?[\w$]+\(\(\)=>\{const [\w$]+=fetch\(new URL\("\.\/([^"]+)",import\.meta\.url\)\);return async [\w$]+=>WebAssembly\.instantiateStreaming\([\w$]+,[\w$]+\)\},\[([^\]]*)\]\)/g;
  const modules = new Map();
  for (const [, name, file, deps] of text.matchAll(entry)) modules.set(name, { file, deps: deps ? deps.split(',') : [] });
  const needs = (name, seen = new Set()) => {
    if (!seen.has(name) && modules.has(name)) {
      seen.add(name);
      for (const dep of modules.get(name).deps) needs(dep, seen);
    }
    return seen;
  };
  const fetched = new Set(fetches.map((f) => f.path.slice(1)));
  return [...modules]
    .filter(([, m]) => m.file.startsWith('split_') && fetched.has(m.file))
    .map(([name, m]) => {
      const all = [...needs(name)];
      return {
        split: m.file.replace(/_\d+-[0-9a-f]+\.wasm$/, ''),
        files: all.length,
        bytes: all.reduce((sum, n) => sum + brotli(join(dist, modules.get(n).file)).length, 0),
      };
    })
    .sort((a, b) => b.bytes - a.bytes);
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
