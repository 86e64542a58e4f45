// The run history: kept runs listed and restored after a reload, deleted,
// opened read-only, exported and imported as `run.jsonl`, replayed against
// the scenario in the editor, and storage trouble reported in the panel.

import { join } from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CLI, SECRET, artifacts, assert, button, openMode, pick, runBuiltin, runFiles, serveScenario, test, unlabelledControls, useOpenaiChat } from './lib.mjs';

const entries = (page) => page.locator('.history-entry');

/** The kept runs as the panel lists them: [{ status, text }], newest first. */
async function listed(page) {
  return entries(page).evaluateAll((rows) =>
    rows.map((r) => ({ status: r.dataset.status, text: r.innerText, current: r.getAttribute('aria-current') })),
  );
}

/** The page's mode: run, compare, scenario, history or files. */
const modeOf = (page) => page.locator('main.layout').getAttribute('data-mode');

/** Opens the History mode (its panel is drawn the first time), unless open. */
async function showHistory(page) {
  if ((await modeOf(page)) !== 'history') await openMode(page, 'history');
  await page.locator('.history').waitFor({ timeout: 10_000 });
}

/** Waits, in the History mode, for `n` kept runs. */
async function waitForCount(page, n) {
  await showHistory(page);
  await page.waitForFunction((n) => document.querySelectorAll('.history-entry').length === n, n, { timeout: 5_000 });
}

async function exportRun(page, name) {
  // The run files sit in the trace's heading: the Run and Import/Export modes show it.
  if (!['run', 'files'].includes(await modeOf(page))) await openMode(page, 'files');
  await runFiles(page);
  const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Export trace (JSONL)').click()]);
  assert(download.suggestedFilename() === 'run.jsonl', `export named ${download.suggestedFilename()}`);
  const path = join(artifacts, name);
  await download.saveAs(path);
  return path;
}

async function importRun(page, path) {
  await runFiles(page);
  await page.locator('.run-import input[type="file"]').setInputFiles(path);
}

test('history: a finished run is listed, survives a reload, and a deleted run stays deleted', async ({ page }) => {
  await showHistory(page);
  assert((await page.locator('.history .empty').innerText()).includes('No kept runs yet'), 'no empty-history text');
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not finish');
  await waitForCount(page, 1);
  assert((await runBuiltin(page, 'turn-limit')) === 'turn_limit', 'turn-limit did not stop');
  await waitForCount(page, 2);
  const before = await listed(page);
  assert(before[0].status === 'turn_limit' && before[1].status === 'done', `not newest first: ${JSON.stringify(before)}`);
  assert(before[1].text.includes('What time is it? (seed 001)'), `no scenario name: ${before[1].text}`);
  assert(/done · 2 turns · \$/.test(before[1].text) && before[1].text.includes('just now'), `facts: ${before[1].text}`);
  assert(before[0].text.includes('turn_limit · 3 turns'), `facts: ${before[0].text}`);

  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  await waitForCount(page, 2);
  const after = await listed(page);
  assert(
    JSON.stringify(after.map((e) => e.text)) === JSON.stringify(before.map((e) => e.text)),
    `a reload changed the list: ${JSON.stringify(after)} vs ${JSON.stringify(before)}`,
  );
  // The trace is empty after a reload, and says where the runs went.
  const emptyTrace = () => page.locator('section.trace > p.empty').textContent();
  const said = await emptyTrace();
  assert(said.startsWith('No run in view.') && said.endsWith('Your 2 kept runs are in History.'), `the empty trace says: ${said}`);

  await entries(page).nth(1).getByRole('button', { name: /^Delete / }).click();
  await waitForCount(page, 1);
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  await waitForCount(page, 1);
  assert((await listed(page))[0].status === 'turn_limit', 'the wrong run was deleted');
  const keys = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('agent-loop-playground.run.')));
  assert(keys.length === 1, `the deleted run's record is still stored: ${keys.join(', ')}`);

  await button(page, 'Delete the kept run').click();
  await page.locator('.history .empty').waitFor();
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  assert((await entries(page).count()) === 0, 'Delete all did not last over a reload');
  assert((await emptyTrace()).startsWith('No run yet.'), `with nothing kept the empty trace says: ${await emptyTrace()}`);
});

test('history: opening a kept run shows its trace, banner and scenario; Run starts a fresh run', async ({ page }) => {
  assert((await runBuiltin(page, 'turn-limit')) === 'turn_limit', 'turn-limit did not stop');
  const turnLimitRows = await page.locator('.timeline .event').count();
  const turnCounter = () => page.locator('.counter[data-counter="turn"] dd').innerText();
  const turnLimitTurns = await turnCounter();
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not finish');
  await waitForCount(page, 2);
  await entries(page).nth(1).getByRole('button', { name: /^Open / }).click();
  await page.locator('.stop-banner[data-status="turn_limit"]').waitFor({ timeout: 5_000 });
  assert((await page.locator('.timeline .event').count()) === turnLimitRows, 'the opened trace has other rows');
  assert((await turnCounter()) === turnLimitTurns, `the turn counter shows ${await turnCounter()}, not ${turnLimitTurns}`);
  assert((await page.locator('#scenario-picker').inputValue()) === 'turn-limit', 'the scenario was not loaded into the editor');
  assert((await page.locator('.opened-note').innerText()).includes('Showing a kept run (read-only)'), 'no read-only note');
  assert((await listed(page))[1].current === 'true', 'the opened entry is not marked current');
  assert((await entries(page).count()) === 2, 'opening a run kept it again');
  assert(await button(page, 'Run').isEnabled(), 'Run is disabled on an opened run');
  // Run starts a fresh run of the loaded scenario, which is kept as a new entry.
  await button(page, 'Run').click();
  await page.locator('.stop-banner[data-status="turn_limit"]').waitFor({ timeout: 5_000 });
  await waitForCount(page, 3);
  assert((await page.locator('.opened-note').count()) === 0, 'the fresh run is still shown as an opened one');
});

test('history: export → import gives identical events, and `agent-loop show` reads the file', async ({ page }) => {
  assert((await runBuiltin(page, 'hotel-search')) === 'done', 'hotel-search did not finish');
  const first = await exportRun(page, 'history-run.jsonl');
  const text = await readFile(first, 'utf8');
  const lines = text.trim().split('\n').map((l) => JSON.parse(l));
  assert(lines[0].type === 'scenario' && lines[0].scenario.name.startsWith('Hotel search'), `first line: ${JSON.stringify(lines[0]).slice(0, 120)}`);
  assert(lines[1].type === 'run_started' && lines.at(-1).type === 'run_finished', 'the record is not a whole run');
  assert(lines.length - 1 === (await page.locator('.timeline .event').count()), 'record and timeline disagree on the event count');
  const shown = await promisify(execFile)(CLI, ['show', first]);
  assert(shown.stdout.startsWith('scenario: Hotel search with a deadline (seed 002)'), `agent-loop show: ${shown.stdout.slice(0, 200)}`);
  assert(/done/.test(shown.stdout), `agent-loop show prints no outcome: ${shown.stdout.slice(-300)}`);

  await button(page, 'Reset').click();
  await pick(page, 'get-time');
  await importRun(page, first);
  await page.locator('.stop-banner[data-status="done"]').waitFor({ timeout: 5_000 });
  const notice = await page.locator('.run-file-notice').innerText();
  assert(notice.includes('Imported history-run.jsonl (with its scenario)'), `import notice: ${notice}`);
  // The picker names the built-in once the editor's text is matched to it
  // (a split module, fetched on first use): wait for it, not for a frame.
  const named = await page.waitForFunction(() => document.querySelector('#scenario-picker').value === 'hotel-search', null, { timeout: 5_000 })
    .then(() => true, () => false);
  assert(named, 'the imported scenario is not in the editor');
  await waitForCount(page, 2);
  const top = (await listed(page))[0];
  assert(top.text.includes('imported') && top.current === 'true', `the import is not listed as current: ${JSON.stringify(top)}`);
  const again = await readFile(await exportRun(page, 'history-run-again.jsonl'), 'utf8');
  assert(again === text, 'the re-exported record differs from the imported one');

  // A bare trace (no scenario line) imports too.
  const bare = join(artifacts, 'history-bare.jsonl');
  await writeFile(bare, lines.slice(1).map((l) => JSON.stringify(l)).join('\n') + '\n');
  await importRun(page, bare);
  await page.waitForFunction(() => document.querySelector('.run-file-notice').innerText.includes('history-bare.jsonl'));
  assert((await page.locator('.run-file-notice').innerText()).includes('a bare trace, without a scenario'), 'bare import notice');
  await waitForCount(page, 3);
  assert((await page.locator('.timeline .event').count()) === lines.length - 1, 'the bare trace shows other rows');
});

test('history: a broken import says which line is wrong and keeps the current trace', async ({ page }) => {
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not finish');
  await waitForCount(page, 1);
  const rows = await page.locator('.timeline .event').count();
  const record = await readFile(await exportRun(page, 'history-good.jsonl'), 'utf8');
  const broken = join(artifacts, 'history-broken.jsonl');
  const lines = record.trim().split('\n');
  lines[2] = '{"seq": 1, "t_ms": 0, "type": "model_request", "turn": "one"';
  await writeFile(broken, lines.join('\n') + '\n');
  await importRun(page, broken);
  const notice = page.locator('.run-file-notice');
  await page.waitForFunction(() => document.querySelector('.run-file-notice').innerText.includes('history-broken.jsonl'));
  const text = await notice.innerText();
  assert(text.startsWith('Could not import history-broken.jsonl: line 3:'), `broken-import message: ${text}`);
  assert(text.endsWith('The trace shown is unchanged.'), `broken-import message: ${text}`);
  assert((await page.locator('.timeline .event').count()) === rows, 'a broken import changed the trace');
  assert((await page.locator('.stop-banner').getAttribute('data-status')) === 'done', 'the banner changed');
  assert((await entries(page).count()) === 1, 'a broken import was kept');
  const empty = join(artifacts, 'history-empty.jsonl');
  await writeFile(empty, '\n');
  await importRun(page, empty);
  await page.waitForFunction(() => document.querySelector('.run-file-notice').innerText.includes('history-empty.jsonl'));
  assert((await notice.innerText()).includes('the file is empty'), `empty-file message: ${await notice.innerText()}`);
  // One JSON line of no known shape is said to be none of the files the
  // page reads, not only "not a request body".
  const unknown = join(artifacts, 'history-unknown.jsonl');
  await writeFile(unknown, '{"name": "x"}\n');
  await importRun(page, unknown);
  await page.waitForFunction(() => document.querySelector('.run-file-notice').innerText.includes('history-unknown.jsonl'));
  const said = await notice.innerText();
  assert(
    said.startsWith('Could not import history-unknown.jsonl: none of the files the playground reads (a run record or trace, an OpenTelemetry trace, a provider') &&
      said.includes('as a request body, neither "messages"'),
    `unknown-file message: ${said}`,
  );
  assert((await page.locator('.timeline .event').count()) === rows, 'an unknown file changed the trace');
  // A scenario picked here by mistake is said to be one, with where it goes.
  const scenarioFile = join(artifacts, 'history-scenario.json');
  await writeFile(scenarioFile, JSON.stringify({ task: 'What time is it?', model: { type: 'scripted', responses: [{ text: 'Noon.' }] } }));
  await importRun(page, scenarioFile);
  await page.waitForFunction(() => document.querySelector('.run-file-notice').innerText.includes('history-scenario.json'));
  const scenarioSaid = await notice.innerText();
  assert(
    scenarioSaid.includes('this is a scenario, not a run: open it with \u201cImport scenario\u201d (the Scenario panel)'),
    `scenario-as-run message: ${scenarioSaid}`,
  );
  assert((await page.locator('.timeline .event').count()) === rows, 'a scenario file changed the trace');
});

test('history: replay of an unchanged scenario passes; after a tool change it fails with the difference', async ({ page }) => {
  assert((await runBuiltin(page, 'hotel-search')) === 'done', 'hotel-search did not finish');
  await button(page, 'Replay against current tools').click();
  const verdict = page.locator('.replay-verdict');
  await verdict.waitFor({ timeout: 10_000 });
  assert((await verdict.getAttribute('data-passed')) === 'true', `unchanged replay: ${await verdict.innerText()}`);
  const names = await page.locator('.replay-row').evaluateAll((rows) => rows.map((r) => `${r.dataset.assertion}=${r.dataset.passed}`));
  assert(
    names.join(',') === 'status=true,tool_sequence=true,same_errors=true,no_repeated_calls=true,ids_exist=true',
    `replay rows: ${names.join(',')}`,
  );
  assert((await page.locator('.replay-summary').innerText()).startsWith('Replay passed: 5 of 5'), 'no pass summary');

  // The current definition of search_hotels now requires a currency the recorded model never sent.
  const scenario = JSON.parse(await page.locator('#scenario-json').inputValue());
  scenario.tools[0] = {
    name: 'search_hotels', builtin: 'search_hotels', description: 'Search hotels.',
    input_schema: {
      type: 'object',
      properties: { place: { type: 'string' }, check_in: { type: 'string' }, nights: { type: 'integer' }, currency: { enum: ['EUR', 'USD'] } },
      required: ['place', 'check_in', 'currency'],
    },
  };
  await page.locator('#scenario-json').fill(JSON.stringify(scenario, null, 2));
  await button(page, 'Replay against current tools').click();
  await page.locator('.replay-verdict[data-passed="false"]').waitFor({ timeout: 10_000 });
  const failed = page.locator('.replay-row[data-assertion="same_errors"]');
  assert((await failed.getAttribute('data-passed')) === 'false', 'same_errors did not fail');
  const detail = await failed.innerText();
  assert(
    detail.includes("call 1 (search_hotels): the recording's result was ok, now it is an error") &&
      detail.includes('missing required property "currency"'),
    `the failure does not name the difference: ${detail}`,
  );
  const summary = await page.locator('.replay-summary').innerText();
  assert(summary.startsWith('Replay failed:') && summary.includes('First difference: same_errors'), `summary: ${summary}`);
  // The replay checks the editor's scenario; it never touched the trace in view.
  assert((await page.locator('.stop-banner').getAttribute('data-status')) === 'done', 'replay changed the banner');

  await page.locator('.replay').screenshot({ path: join(artifacts, 'history-replay-failed.png') });
  // A scenario that does not load says so instead of replaying.
  await page.locator('#scenario-json').fill('{ not json');
  await button(page, 'Replay against current tools').click();
  await page.getByText('The scenario in the editor does not load').waitFor({ timeout: 5_000 });
});

test('history: a full storage is reported in the panel, and the run stays listed for the page', async ({ page }) => {
  // Fill localStorage to the brim: big chunks first, then ever smaller ones.
  const filled = await page.evaluate(() => {
    let size = 1 << 20;
    let n = 0;
    while (size >= 1) {
      try {
        localStorage.setItem(`filler-${n}`, 'x'.repeat(size));
        n += 1;
      } catch (err) {
        if (err.name !== 'QuotaExceededError') throw err;
        size = Math.floor(size / 2);
      }
    }
    return n;
  });
  assert(filled > 0, 'could not fill localStorage');
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not finish');
  await waitForCount(page, 1);
  const notice = await page.locator('.history-notice').innerText();
  assert(notice.includes("storage for this page is full (QuotaExceededError)"), `no full-storage notice: ${notice}`);
  assert(notice.includes('gone after a reload: export it to keep it'), `the notice does not say what it means: ${notice}`);
  assert((await listed(page))[0].text.includes('this page only, not saved'), 'the unsaved run is not marked');
  // It still opens from the page's memory.
  assert((await runBuiltin(page, 'turn-limit')) === 'turn_limit', 'turn-limit did not stop');
  await waitForCount(page, 2);
  await entries(page).nth(1).getByRole('button', { name: /^Open / }).click();
  await page.locator('.stop-banner[data-status="done"]').waitFor({ timeout: 5_000 });
});

test('history: a provider run is kept without its API key', async ({ page }) => {
  const server = await serveScenario('get-time');
  try {
    await pick(page, 'get-time');
    await useOpenaiChat(page, server.url);
    await button(page, 'Run').click();
    const status = await page.locator('.stop-banner').getAttribute('data-status', { timeout: 10_000 });
    assert(status === 'done', `the provider run ended ${status}`);
    await waitForCount(page, 1);
    const stored = await page.evaluate(() =>
      Object.entries(localStorage).filter(([k]) => k.startsWith('agent-loop-playground.run.')),
    );
    assert(stored.length === 1 && stored[0][1].includes('run_finished'), 'the provider run was not kept');
    assert(!JSON.stringify(stored).includes(SECRET), 'the key is in the kept run');
    const file = await readFile(await exportRun(page, 'history-provider.jsonl'), 'utf8');
    assert(!file.includes(SECRET), 'the key is in the exported run');
  } finally {
    server.stop();
  }
});

test('history: the panel works at 360 px in dark mode, every control labelled', async ({ page }) => {
  assert((await runBuiltin(page, 'turn-limit')) === 'turn_limit', 'turn-limit did not stop');
  assert((await runBuiltin(page, 'hotel-search')) === 'done', 'hotel-search did not finish');
  await button(page, 'Replay against current tools').click();
  await page.locator('.replay-verdict').waitFor({ timeout: 10_000 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
  await waitForCount(page, 2);
  const inHistory = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(inHistory <= 0, `the History mode scrolls sideways by ${inHistory} px`);
  await runFiles(page);
  const unlabelled = await unlabelledControls(page, '.history button, .run-files button, .run-files input');
  assert(unlabelled.length === 0, `unlabelled controls: ${unlabelled.join(' | ')}`);
  const names = await entries(page).first().getByRole('button').evaluateAll((b) => b.map((x) => x.getAttribute('aria-label')));
  assert(names[0] === 'Open Hotel search with a deadline (seed 002) (done)', `Open's name: ${names[0]}`);
  await page.locator('.history').screenshot({ path: join(artifacts, 'history-360-dark.png') });
}, { viewport: { width: 360, height: 780 }, colorScheme: 'dark' });

test('history: storage the browser refuses is reported, and runs are still listed for the page', async ({ page }) => {
  // As in a browser with site data blocked: reading `localStorage` throws.
  await page.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', {
      get() {
        throw new DOMException('Access is denied for this document.', 'SecurityError');
      },
    });
  });
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  await showHistory(page);
  const notice = page.locator('.history-notice');
  const opening = await notice.innerText();
  assert(
    opening.includes('Runs cannot be kept after a reload: storage is unavailable (SecurityError: Access is denied'),
    `no unavailable-storage notice on opening: ${opening}`,
  );
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not finish');
  await waitForCount(page, 1);
  const after = await notice.innerText();
  assert(after.startsWith('This run was not saved: storage is unavailable (SecurityError'), `notice after a run: ${after}`);
  // The Run mode says it too, under the run it is about.
  await openMode(page, 'run');
  const underRun = await page.locator('.replay .keep-notice').innerText();
  assert(underRun === after, `the Run mode says: ${underRun}`);
  assert((await listed(page))[0].text.includes('this page only, not saved'), 'the unsaved run is not marked');
});
