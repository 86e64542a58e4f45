// End-to-end tests of the built playground in real headless Chromium.
//
// Serves an already built `dist/` (scripts/e2e.sh builds it with `trunk build
// --release`) from a tiny static server on 127.0.0.1 and a free port, then
// drives the page with playwright-core. The tests live in `*.test.mjs` files
// beside this one (imported in name order); every test fails on any console
// error or page error. Closes with the line `N passed, N failed` and exits
// non-zero when a test failed.
//
// Usage: node tests/e2e/run.mjs [dist-dir] [filter]   (default: <repo>/dist)
//        filter: part of a test's name, or a test file's name (e.g. editor_truth)
// Env:   CHROMIUM=/path/to/chromium (default /usr/bin/chromium)

import { mkdirSync, existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import {
  env, tests, here, root, artifacts, CHROMIUM_ARGS, TEST_TIMEOUT_MS, serve, openPage, assert, withTimeout,
} from './lib.mjs';

const dist = resolve(process.argv[2] ?? join(root, 'dist'));
const filter = process.argv[3] ?? '';

async function main() {
  if (!existsSync(join(dist, 'index.html'))) {
    console.error(`no ${join(dist, 'index.html')}: build first (trunk build --release)`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  mkdirSync(artifacts, { recursive: true });
  const fileOf = new Map();
  for (const file of readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort()) {
    const before = tests.length;
    await import(pathToFileURL(join(here, file)).href);
    for (const t of tests.slice(before)) fileOf.set(t, file);
  }
  const server = await serve(dist);
  env.baseUrl = `http://127.0.0.1:${server.address().port}/`;
  env.dist = dist;
  env.browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  let passed = 0;
  let failed = 0;
  try {
    for (const [index, registered] of tests.entries()) {
      const { name, body, options } = registered;
      if (filter && !name.includes(filter) && !fileOf.get(registered).includes(filter)) continue;
      const started = Date.now();
      let session;
      try {
        const { timeoutMs = TEST_TIMEOUT_MS, ...contextOptions } = options;
        session = await openPage(contextOptions);
        await withTimeout(body(session), timeoutMs, name);
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
    await env.browser.close();
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
