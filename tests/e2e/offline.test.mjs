// Offline after the first visit: the service worker (sw.js, from
// src/browser/sw.js and scripts/sw-precache.mjs) and the offline notice.
//
// These tests let the page register its service worker (`serviceWorkers:
// 'allow'`; every other test blocks it, see `openPage`), and cut the
// network with Playwright's `context.setOffline(true)`, which Chromium
// applies to the page and to its service worker.

import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, bannerStatus, button, env, pick, root, runBuiltin, serve, serveScenario, test, useOpenaiChat } from './lib.mjs';

const SW = { serviceWorkers: 'allow' };
const PREFIX = 'agent-loop-playground-';

/** Waits until the page is controlled by a service worker whose install
 * (which caches every file of the build) is done; returns the cache names. */
async function untilOfflineReady(page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
  return page.evaluate(() => caches.keys());
}

/** The version sw.js at `url` caches under (its cache is PREFIX + version). */
async function versionOf(page) {
  const text = await page.evaluate(async () => (await fetch('sw.js', { cache: 'no-store' })).text());
  const match = text.match(/VERSION\s*=\s*"([0-9a-f]{16})"/) ?? text.match(/"([0-9a-f]{16})"/);
  assert(match, `no version in sw.js: ${text.slice(0, 200)}`);
  return match[1];
}

/** Polls `fn(arg)` in the page (it may be async: Playwright's waitForFunction
 * takes a returned Promise as a truthy answer) until it is truthy. */
async function until(page, fn, arg, what, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await page.evaluate(fn, arg))) {
    assert(Date.now() < deadline, `waited ${ms} ms for ${what}`);
    await new Promise((ok) => setTimeout(ok, 200));
  }
}

/** Removes the browser's own reports of a request that failed offline. */
function dropNetworkErrors(errors) {
  for (let i = errors.length - 1; i >= 0; i -= 1) {
    // (offline.js: static/offline.js's HEAD, offline or cut short by a reload.)
    if (/ERR_INTERNET_DISCONNECTED|Failed to fetch|offline\.js net::ERR_ABORTED/.test(errors[i])) errors.splice(i, 1);
  }
}

const notice = (page) => page.locator('.offline-notice p');

test('offline after a first visit: the page reloads from the service worker, says it is offline, holds every file of the build and runs built-ins from it', async ({ page, errors }) => {
  const caches = await untilOfflineReady(page);
  const version = await versionOf(page);
  assert(caches.length === 1 && caches[0] === PREFIX + version, `caches after the first visit: ${caches}`);
  assert((await notice(page).count()) === 0, 'the offline notice shows while online');
  const manifest = await page.evaluate(async () => (await fetch(document.querySelector('link[rel=manifest]').href)).json());
  assert(manifest.name === 'Agent Loop Playground' && manifest.display === 'standalone' && manifest.start_url, JSON.stringify(manifest));
  assert(manifest.icons.some((i) => i.sizes === '512x512') && manifest.icons.some((i) => i.sizes === '192x192'), 'manifest icons');

  await page.context().setOffline(true);
  // The notice follows the `offline` event, without a reload.
  await notice(page).waitFor({ timeout: 5_000 });
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  const said = await notice(page).innerText();
  assert(said.startsWith('Offline.') && said.includes('need the network'), `offline notice: ${said}`);

  // Every file of the build is in the cache (so every built-in's split
  // modules are), and a sample of built-ins runs from it: the plain loop, a
  // JavaScript tool and one whose endless loop the time limit stops (the
  // sandbox from the cache), an approval, and a deadline that counts from
  // page load. (playground.test.mjs runs all of them online, three minutes.)
  const built = readdirSync(env.dist, { recursive: true }).filter((f) => f !== 'sw.js' && statSync(join(env.dist, f)).isFile());
  const held = await page.evaluate(async (name) => (await (await caches.open(name)).keys()).length, caches[0]);
  assert(held === built.length, `the cache holds ${held} files of the build's ${built.length}`);
  const sample = ['get-time', 'js-tool', 'js-tool-infinite-loop', 'refund-with-approval', 'deadline-between-steps'];
  const wrong = [];
  for (const id of sample) {
    // A fresh load per scenario, as in the online test of every built-in: from the cache.
    await page.reload();
    await page.locator('#scenario-picker').waitFor();
    const option = page.locator(`#scenario-picker option[value="${id}"]`);
    const expected = await option.getAttribute('data-expected');
    assert(expected, `${id} is not a built-in with an expected status`);
    const age = Number((await option.getAttribute('data-clock-age-ms')) ?? 0);
    if (age > 0) await page.waitForFunction((ms) => performance.now() > ms, age, { timeout: age + 5_000 });
    const got = await runBuiltin(page, id, { approve: true });
    if (got !== expected) wrong.push(`${id}: expected ${expected}, got ${got}`);
  }
  assert(wrong.length === 0, `offline: ${wrong.join('; ')}`);
  assert(await notice(page).isVisible(), 'the offline notice went away while offline');

  await page.context().setOffline(false);
  // static/offline.js asks the server again every 3 s while it is unreachable.
  await notice(page).waitFor({ state: 'detached', timeout: 10_000 });
  // Its asking, offline, is a failed request the browser reports itself.
  dropNetworkErrors(errors);
}, { ...SW, timeoutMs: 60_000 });

test("a new build's service worker replaces the old one's cache", async ({ page, errors }) => {
  // A copy of the build on a server of its own (its own origin, so its own
  // worker), then a "new build": a changed file and its worker written again
  // by the same post-build hook Trunk runs.
  const dir = mkdtempSync(join(tmpdir(), 'sw-build-'));
  cpSync(env.dist, dir, { recursive: true });
  const server = await serve(dir);
  try {
    const url = `http://127.0.0.1:${server.address().port}/`;
    await page.goto(url);
    await page.locator('#scenario-picker').waitFor();
    const before = await untilOfflineReady(page);
    const old = await versionOf(page);
    assert(before.length === 1 && before[0] === PREFIX + old, `caches of the first build: ${before}`);

    const changed = join(dir, 'sandbox', 'sandbox.js');
    writeFileSync(changed, `${readFileSync(changed, 'utf8')}\n// the second build\n`);
    execFileSync('node', [join(root, 'scripts', 'sw-precache.mjs'), dir], { stdio: 'pipe' });
    const fresh = await versionOf(page);
    assert(fresh !== old, 'the hook wrote the same version for a changed file');

    // A navigation checks sw.js: the new worker installs, and waits while
    // the old build's page is open (it may still need the old cache).
    await page.reload();
    await page.locator('#scenario-picker').waitFor();
    await until(
      page,
      async (name) => (await caches.keys()).includes(name) && ((await navigator.serviceWorker.getRegistration())?.waiting ?? null) !== null,
      PREFIX + fresh,
      'the new worker to install and wait',
    );
    const both = await page.evaluate(() => caches.keys());
    assert(both.includes(PREFIX + old), `the old cache went while its page was open: ${both}`);
    // Once no tab runs the old build, the new worker takes over and deletes
    // the old cache: the next visit is the new build.
    await page.goto('about:blank');
    await page.goto(url);
    await page.locator('#scenario-picker').waitFor();
    await until(
      page,
      async (name) => {
        const names = await caches.keys();
        return names.length === 1 && names[0] === name;
      },
      PREFIX + fresh,
      'the old cache to go',
    );
    const cached = await page.evaluate(async () => (await (await caches.match(new URL('sandbox/sandbox.js', location.href).href)).text()));
    assert(cached.includes('// the second build'), 'the new cache holds the old sandbox.js');
    // And the page still runs, offline, from the new cache.
    await page.context().setOffline(true);
    await page.reload();
    await page.locator('#scenario-picker').waitFor();
    const status = await runBuiltin(page, 'get-time');
    assert(status === 'done', `get-time from the new cache ended ${status}`);
  } finally {
    await page.context().setOffline(false);
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  dropNetworkErrors(errors);
}, { ...SW, timeoutMs: 60_000 });

test('a provider request made offline fails with a message that says so, not an answer from a cache', async ({ page, errors }) => {
  await untilOfflineReady(page);
  const server = await serveScenario('get-time');
  try {
    await pick(page, 'get-time');
    await useOpenaiChat(page, server.url);
    // Online, the provider answers: the same request offline could be served
    // a copy of this answer, if anything cached it.
    await button(page, 'Run').click();
    assert((await bannerStatus(page)) === 'done', 'the provider run online did not end done');
    await page.context().setOffline(true);
    // The online run's banner goes when the next run starts: wait for another.
    await page.evaluate(() => {
      window.__onlineBanner = document.querySelector('.stop-banner');
    });
    await button(page, 'Run').click();
    await page.waitForFunction(() => {
      const banner = document.querySelector('.stop-banner');
      return banner !== null && banner !== window.__onlineBanner;
    }, null, { timeout: 20_000 });
    const status = await page.locator('.stop-banner').getAttribute('data-status');
    assert(status !== 'done', 'the run offline ended done: an answer came from somewhere');
    const text = await page.locator('main').innerText();
    assert(text.includes(`could not reach ${server.url}`) && text.includes('This browser is offline'), `no offline message in the page: ${text.slice(0, 400)}`);
    assert(await notice(page).isVisible(), 'no offline notice');
  } finally {
    await page.context().setOffline(false);
    server.stop();
  }
  // The failed request is the browser's own network error, as expected here.
  dropNetworkErrors(errors);
}, SW);
