// README's serve command, as a user runs it: `bash scripts/serve.sh` (here on
// a free port and its own dist directory) serves a page that runs a scenario
// under its Content-Security-Policy without a single console error.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, button, env, root, runBuiltin, test } from './lib.mjs';

function freePort() {
  return new Promise((ok) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => ok(port));
    });
  });
}

test('`bash scripts/serve.sh` serves a page that runs a scenario with no console error', async () => {
  const port = await freePort();
  const dist = mkdtempSync(join(tmpdir(), 'serve-dist-'));
  const child = spawn('bash', [join(root, 'scripts/serve.sh'), '--port', String(port), '--dist', dist], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  child.stdout.on('data', (c) => { log += c; });
  child.stderr.on('data', (c) => { log += c; });
  const context = await env.browser.newContext();
  try {
    const url = `http://127.0.0.1:${port}/`;
    // A release build from a warm cache: cargo relinks (1-2 min on a 2-core
    // machine), then scripts/wasm-split.mjs splits and shrinks ~290 modules
    // (40 s). It shrank them with one wasm-opt process each until CI ran
    // out of these five minutes.
    const deadline = Date.now() + 300_000;
    let up = false;
    while (!up && Date.now() < deadline) {
      up = await fetch(url).then((r) => r.ok, () => false);
      if (!up) await new Promise((ok) => setTimeout(ok, 1_000));
    }
    assert(up, `scripts/serve.sh did not serve ${url}:\n${log.slice(-2000)}`);
    const page = await context.newPage();
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    await page.locator('#scenario-picker').waitFor();
    assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
    assert(await button(page, 'Reset').isEnabled(), 'Reset is not enabled after a run');
    assert(errors.length === 0, `console errors on the served page: ${errors.join(' | ')}`);
  } finally {
    await context.close();
    try { process.kill(-child.pid); } catch { /* already gone */ }
    rmSync(dist, { recursive: true, force: true });
  }
}, { timeoutMs: 330_000 });
