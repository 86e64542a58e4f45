// Hardening, in the built page: the Content-Security-Policy holds (the page
// runs under it, an injected inline script is blocked, a base URL it does
// not allow is reported before a run), a Rust panic shows an error panel
// that keeps the run's trace, and the page paints with no split module, each
// loading when it is needed.

import { createServer } from 'node:http';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { SECRET, artifacts, assert, bannerStatus, button, openMode, pick, runBuiltin, serveScenario, test } from './lib.mjs';

/** Reloads the page with a recorder of CSP violations installed first. */
async function recordViolations(page) {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push({ directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample });
    });
  });
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
}

/** Runs get-time over OpenAI Chat Completions against `agent-loop serve`
 * on 127.0.0.1 and returns the stop status. */
async function runGetTimeOverLocalServer(page) {
  const server = await serveScenario('get-time');
  try {
    await pick(page, 'get-time');
    await page.getByLabel('Model source').selectOption({ label: 'OpenAI Chat Completions' });
    await page.getByLabel('Base URL').fill(server.url);
    await page.locator('#model-name').fill('scripted');
    await page.getByLabel('API key', { exact: true }).fill(SECRET);
    await button(page, 'Run').click();
    return await page.locator('.stop-banner').getAttribute('data-status', { timeout: 10_000 });
  } finally {
    server.stop();
  }
}

const violations = (page) => page.evaluate(() => window.__cspViolations);

/** Drops the console errors matching `pattern` (expected ones). */
function drop(errors, pattern) {
  for (let i = errors.length - 1; i >= 0; i -= 1) {
    if (pattern.test(errors[i])) errors.splice(i, 1);
  }
}

test('the page runs scripted and provider runs under its Content-Security-Policy with no violation', async ({ page }) => {
  await recordViolations(page);
  const policy = await page.evaluate(
    () => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '',
  );
  assert(/script-src 'self' 'wasm-unsafe-eval' 'sha256-[A-Za-z0-9+/=]{44}'/.test(policy), `script-src: ${policy}`);
  assert(!policy.includes('TRUNK-INLINE-SCRIPTS'), 'the loader hash placeholder was not replaced');
  assert(!policy.includes("'unsafe-inline'") && !policy.includes("'unsafe-eval'"), `policy: ${policy}`);
  // The page is live (the loader ran) and runs a scenario with approvals.
  const status = await runBuiltin(page, 'refund-with-approval', { approve: true });
  assert(status === 'done', `the scripted run ended ${status}`);
  // A provider run on a local server is within connect-src.
  const provider = await runGetTimeOverLocalServer(page);
  assert(provider === 'done', `the provider run ended ${provider}`);
  const seen = await violations(page);
  assert(seen.length === 0, `CSP violations: ${JSON.stringify(seen)}`);
});

test('the Content-Security-Policy blocks an injected inline script and a request to another origin', async ({ page, errors }) => {
  await recordViolations(page);
  const ran = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true;';
    document.body.append(script);
    await new Promise((ok) => setTimeout(ok, 50));
    return window.__injected === true;
  });
  assert(!ran, 'an injected inline script ran');
  const fetched = await page.evaluate(() =>
    fetch('https://llm.example.com/v1/chat/completions').then(() => 'fetched', () => 'blocked'),
  );
  assert(fetched === 'blocked', `a request to another origin was ${fetched}`);
  const seen = await violations(page);
  assert(seen.some((v) => v.directive === 'script-src-elem' && v.blocked === 'inline'), `violations: ${JSON.stringify(seen)}`);
  assert(seen.some((v) => v.directive === 'connect-src' && v.blocked.startsWith('https://llm.example.com')), `violations: ${JSON.stringify(seen)}`);
  // Chromium reports each refusal on the console too: those are the point here.
  drop(errors, /Content Security Policy|Failed to fetch/);
});

/** get-time, with OpenAI Chat Completions at `baseUrl` in the Model settings. */
async function chooseOpenAiAt(page, baseUrl) {
  await pick(page, 'get-time');
  await page.getByLabel('Model source').selectOption({ label: 'OpenAI Chat Completions' });
  await page.getByLabel('Base URL').fill(baseUrl);
  await page.locator('#model-name').fill('my-model');
  await page.getByLabel('API key', { exact: true }).fill(SECRET);
}

test('a base URL the Content-Security-Policy does not allow is reported in Model settings before a run', async ({ page }) => {
  await chooseOpenAiAt(page, 'https://llm.example.com:8443/v1');
  const says = 'add https://llm.example.com:8443 to connect-src in index.html';
  await page.locator('.model-settings .field-error', { hasText: says }).waitFor({ timeout: 2_000 });
  // The blocker may first say the picked scenario is still loading (the
  // engine is a split module): wait for it to say why, as a person would.
  const why = "this page's Content-Security-Policy does not allow connecting to https://llm.example.com:8443";
  await page.locator('#run-blocker', { hasText: why }).waitFor({ timeout: 10_000 }).catch(async () => {
    throw new Error(`blocker: ${await page.locator('#run-blocker').innerText()}`);
  });
  assert(await button(page, 'Run').isDisabled(), 'Run is enabled for a base URL the page cannot reach');
  // Back to a local server: allowed again.
  await page.getByLabel('Base URL').fill('http://127.0.0.1:8787');
  assert(await button(page, 'Run').isEnabled(), `Run stays disabled: ${await page.locator('#run-blocker').innerText()}`);
});

test('a base URL on a port browsers refuse is named as such, not as CORS', async ({ page, errors }) => {
  // The browser's refusal, with a server that would answer: one listening
  // on port 6000 (a bad port) and the same on an ordinary port, both
  // allowing any origin.
  const answer = (request, response) => {
    response.writeHead(200, { 'access-control-allow-origin': '*' });
    response.end('{}');
  };
  const bad = createServer(answer);
  const ordinary = createServer(answer);
  await new Promise((done) => bad.listen(6000, '127.0.0.1', done));
  await new Promise((done) => ordinary.listen(0, '127.0.0.1', done));
  try {
    const reach = (url) => page.evaluate((u) => fetch(u).then(() => 'answered', (e) => `refused: ${e}`), url);
    const ordinaryPort = ordinary.address().port;
    assert((await reach(`http://127.0.0.1:${ordinaryPort}/`)) === 'answered', 'the ordinary port did not answer');
    const refused = await reach('http://127.0.0.1:6000/');
    assert(refused.startsWith('refused'), `Chromium fetched from port 6000: ${refused}`);
    // Chromium reports the refusal on the console too: that is the point here.
    drop(errors, /ERR_UNSAFE_PORT|Failed to fetch/);
  } finally {
    bad.close();
    ordinary.close();
  }
  await chooseOpenAiAt(page, 'http://127.0.0.1:6000/v1');
  const says = 'browsers never connect to port 6000 (http://127.0.0.1:6000), whatever listens there';
  await page.locator('.model-settings .field-error', { hasText: says }).waitFor({ timeout: 2_000 });
  await page.locator('#run-blocker', { hasText: says }).waitFor({ timeout: 10_000 }).catch(async () => {
    throw new Error(`blocker: ${await page.locator('#run-blocker').innerText()}`);
  });
  assert(await button(page, 'Run').isDisabled(), 'Run is enabled for a port the browser refuses');
  await page.getByLabel('Base URL').fill('http://127.0.0.1:8787/v1');
  assert(await button(page, 'Run').isEnabled(), `Run stays disabled: ${await page.locator('#run-blocker').innerText()}`);
});

test('a panic shows an error panel that keeps the run\'s trace as a download', async ({ page, errors }) => {
  const status = await runBuiltin(page, 'get-time');
  assert(status === 'done', `the run ended ${status}`);
  // TEST TRIGGER (src/browser/panic.rs): panics on the next task.
  await page.evaluate(() => window.__agentLoopTestPanic());
  const panel = page.getByRole('alert', { name: 'The playground crashed' });
  await panel.waitFor({ timeout: 5_000 });
  const text = await panel.innerText();
  assert(text.includes('deliberate test panic from window.__agentLoopTestPanic()'), `panel: ${text}`);
  assert(/src\/browser\/panic\.rs:\d+:\d+/.test(text), `the panel does not say where: ${text}`);
  const count = Number(text.match(/The trace of the run so far \((\d+) events\) is kept/)?.[1]);
  assert(count > 2, `panel: ${text}`);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('link', { name: 'Download the trace so far (JSONL)' }).click(),
  ]);
  assert(download.suggestedFilename() === 'trace-so-far.jsonl', download.suggestedFilename());
  const path = join(artifacts, 'trace-so-far.jsonl');
  await download.saveAs(path);
  const lines = (await readFile(path, 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
  assert(lines.length === count, `${lines.length} lines, the panel said ${count}`);
  assert(lines[0].type === 'run_started' && lines.at(-1).type === 'run_finished', `kinds: ${lines[0].type} … ${lines.at(-1).type}`);
  assert(lines.at(-1).status === 'done' || JSON.stringify(lines.at(-1)).includes('"done"'), 'the trace does not end done');
  // Reload is a plain link: it works after the module trapped.
  await panel.getByRole('link', { name: 'Reload the playground' }).click();
  await page.locator('#scenario-picker').waitFor();
  assert((await page.locator('.panic-panel').count()) === 0, 'the panel survived a reload');
  // The panic itself is reported on the console and as a page error: expected.
  drop(errors, /deliberate test panic|unreachable|RuntimeError/);
});

test('the structured form waits while a first run goes, but a lesson opened during it shows its parts at once', async ({ page }) => {
  // The page opened for the test fetches the form once its engine lands:
  // let it settle before counting what the reloaded page asks for.
  await page.waitForLoadState('networkidle');
  const fetched = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname.slice(1)));
  const asked = (name) => fetched.some((f) => f.startsWith(`split_${name}_`));
  // The engine held, so a run can start before it has arrived, as a first
  // run clicked at once does; press-stop then hangs until Stop.
  const held = [];
  let released = false;
  await page.route(/\/split_engine_[^/]*\.wasm$/, (route) => (released ? route.continue() : held.push(route)));
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  await pick(page, 'press-stop');
  await button(page, 'Run').click();
  released = true;
  for (const route of held) await route.continue();
  await page.locator('.timeline .event[data-kind="model_request"]').nth(1).waitFor({ timeout: 10_000 });
  await page.waitForTimeout(300);
  assert(!asked('editor_form'), `the form was fetched while the first run went: ${fetched.filter((f) => f.startsWith('split_')).join(', ')}`);
  // A lesson opened now makes the JSON box read-only: its editable part,
  // in the form's module, must come at once, not after the run.
  await button(page, 'Lessons').click();
  const panel = page.locator('.lessons-panel');
  await panel.locator('.lesson-list').waitFor({ timeout: 10_000 });
  await button(panel, 'Stop a runaway loop').click();
  // A chapter's first lesson opens on the chapter's intro: start the chapter.
  await panel.locator('.lesson-goal, .chapter-intro').first().waitFor({ timeout: 5_000 });
  if (await panel.locator('.chapter-intro').count()) await button(panel, 'Start the chapter').click();
  await page.locator('#lesson-part-limits-max_turns').waitFor({ state: 'attached', timeout: 5_000 });
  assert((await page.locator('.run-state').textContent()) === 'Running…', 'the run did not go on while the lesson opened');
  await button(page, 'Stop').click();
  assert((await bannerStatus(page)) === 'cancelled', 'Stop did not end the run cancelled');
});

test('code splitting: the page paints and shows its scenario with no split module; the engine follows; each feature fetches its own', async ({ page }) => {
  const fetched = [];
  page.on('request', (request) => {
    const file = new URL(request.url()).pathname.slice(1);
    if (/^(split|chunk)_.*\.wasm$/.test(file)) fetched.push(file);
  });
  const split = (name) => fetched.some((f) => f.startsWith(`split_${name}_`));
  /** Waits up to 5 s for the page to ask for split module `name`. */
  const asksFor = async (name) => {
    const until = Date.now() + 5_000;
    while (!split(name) && Date.now() < until) await page.waitForTimeout(20);
    return split(name);
  };
  // Hold every split module: what shows now is the first paint's alone.
  const held = [];
  let released = false;
  const splitFiles = /\/(split|chunk)_[^/]*\.wasm$/;
  await page.route(splitFiles, (route) => (released ? route.continue() : held.push(route)));
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  const opening = JSON.parse(await page.locator('#scenario-json').inputValue());
  assert(opening.name === 'What time is it? (seed 001)', `the first paint shows ${opening.name}`);
  assert((await page.locator('.lesson').textContent()) === opening.description, 'the first paint has no lesson');
  assert(await button(page, 'Run').isVisible(), 'no Run button at first paint');
  // Right after it, the editor's live check asks for the engine.
  assert(await asksFor('engine'), `after the first paint the page asked for ${fetched.join(', ')}`);
  // What a first run does not show waits until no run needs the network:
  // the built-ins' files, the Model settings below the editor,
  // the Run state panel, the inspector, and the scenario's structured form
  // (below the lesson). The engine is held here, so none of them may be
  // asked for yet.
  const afterARun = ['builtin_json', 'model_settings', 'run_state_panel', 'inspector_panel', 'editor_form'];
  await page.waitForTimeout(300);
  for (const feature of afterARun) {
    assert(!split(feature), `${feature} was fetched before the engine had arrived: ${fetched.join(', ')}`);
  }
  // Run pressed before the engine has arrived: the run shows as running and
  // goes ahead when it lands.
  await button(page, 'Run').click();
  assert((await page.locator('.run-state').textContent()) === 'Running…', 'Run did not start before the engine arrived');
  assert((await page.locator('.stop-banner').count()) === 0, 'a banner before the engine arrived');
  released = true;
  for (const route of held) await route.continue();
  const first = await page.locator('.stop-banner').getAttribute('data-status', { timeout: 5_000 });
  assert(first === 'done', `the run started before the engine arrived ended ${first}`);
  // The run over, they follow without a click.
  for (const feature of afterARun) {
    assert(await asksFor(feature), `after the first run the page asked for ${fetched.join(', ')}`);
  }
  await page.locator('#run-state-heading').waitFor({ timeout: 5_000 });

  const status = await runBuiltin(page, 'refund-with-approval', { approve: true });
  assert(status === 'done', `the scripted run ended ${status}`);
  // Keeping the finished run writes its record out (`lazy::record_jsonl`).
  assert(await asksFor('record_jsonl'), `keeping the finished run fetched ${fetched.join(', ')}`);
  // Nor is what the first runs do not show: the MCP servers panel
  // (no server named), the paste box and the OpenTelemetry box (closed).
  // Nor the engine's work that no first run does (comparisons, forks,
  // replays, a tool called by hand).
  // Nor the reader that words a file's problems: these files have none.
  for (const feature of ['turn_wire', 'parse_record', 'provider_model', 'mcp_panel', 'run_paste', 'otel_send', 'offstage', 'check_scenario']) {
    assert(!split(feature), `${feature} was fetched before it was used: ${fetched.join(', ')}`);
  }
  // Each file once: a group of modules is fetched as one file (scripts/wasm-group.mjs).
  const twice = fetched.filter((f, i) => fetched.indexOf(f) !== i);
  assert(twice.length === 0, `fetched twice: ${twice.join(', ')}`);

  // The inspector's request bodies, answers and checker.
  const inspector = page.locator('section.inspector');
  await inspector.getByRole('button', { name: 'Open at the latest turn' }).click();
  await inspector.locator('.inspector-verdict').first().waitFor({ timeout: 5_000 });
  assert(split('turn_wire'), `the inspector fetched ${fetched.join(', ')}`);
  assert(!split('parse_record') && !split('provider_model'), `more than the inspector's module: ${fetched.join(', ')}`);

  // The other modes' panels wait for their mode's first opening.
  for (const feature of ['compare_panel', 'history_panel', 'tool_bench']) {
    assert(!split(feature), `${feature} was fetched before its mode opened: ${fetched.join(', ')}`);
  }
  // A comparison's table (refund-with-approval is half of a pitfall pair),
  // drawn by the Compare panel's own module, fetched as the mode opens.
  await openMode(page, 'compare');
  assert(await asksFor('compare_panel'), `opening Compare fetched ${fetched.join(', ')}`);
  // Exact: the picker offers "⇄ Run the pair side by side" too.
  await page.getByRole('button', { name: 'Run the pair side by side', exact: true }).click();
  await page.locator('.compare-table tr.compare-row').first().waitFor({ timeout: 10_000 });
  assert(split('offstage'), `running a pair fetched ${fetched.join(', ')}`);

  // The paste box's contents arrive as it first opens.
  await openMode(page, 'files');
  await page.locator('.run-paste summary').click();
  await page.locator('#run-paste-text').waitFor({ timeout: 5_000 });
  assert(split('run_paste') && !split('otel_send'), `opening the paste box fetched ${fetched.join(', ')}`);

  // Opening a kept run reads its record back, and shows it in the Run mode.
  await openMode(page, 'history');
  assert(await asksFor('history_panel'), `opening History fetched ${fetched.join(', ')}`);
  const parsing = page.waitForRequest((r) => r.url().includes('/split_parse_record_'), { timeout: 5_000 });
  await page.locator('.history-entry').first().getByRole('button', { name: /^Open / }).click();
  await parsing.catch(() => {
    throw new Error(`opening a kept run fetched ${fetched.join(', ')}`);
  });
  await page.locator('.stop-banner').waitFor();
  assert((await page.locator('main.layout').getAttribute('data-mode')) === 'run', 'opening a kept run did not show the Run mode');

  // A real provider's model.
  const provider = await runGetTimeOverLocalServer(page);
  assert(provider === 'done', `the provider run ended ${provider}`);
  assert(split('provider_model'), `a provider run fetched ${fetched.join(', ')}`);

  // A file with a problem: the reader that words it arrives, and says it.
  await openMode(page, 'run');
  const broken = { ...opening, limits: { max_turn: 3 } };
  await page.locator('#scenario-json').fill(JSON.stringify(broken, null, 2));
  const problem = page.locator('.problems[role="alert"] li').first();
  await problem.waitFor({ timeout: 5_000 });
  const said = await problem.innerText();
  assert(said.startsWith('limits.max_turn: '), `the problem shown: ${said}`);
  assert(split('check_scenario'), `a file with a problem fetched ${fetched.join(', ')}`);
});
