// The kept-run list survives an entry that does
// not read and a list that does not read at all (each run is listed again
// from its record); "Import scenario" recognises a run file or a body and
// sends it to "Import run…", refuses what is not a scenario, and leaves the
// editor as it was; any replacement of the person's edits can be undone.

import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';

import { artifacts, assert, button, leaveAnyway, openMode, pick, refundUntilApproval, runBuiltin, test, untilBanner } from './lib.mjs';

const INDEX_KEY = 'agent-loop-playground.history';
const entries = (page) => page.locator('.history-entry');

/** Waits, in the History mode (its panel drawn when first opened), for `n` kept runs. */
async function waitForCount(page, n) {
  if ((await page.locator('main.layout').getAttribute('data-mode')) !== 'history') await openMode(page, 'history');
  await page.waitForFunction((n) => document.querySelectorAll('.history-entry').length === n, n, { timeout: 10_000 });
}

async function reload(page) {
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
}

test('nothing lost: an unreadable list entry costs no kept run, and a lost list is rebuilt from the records', async ({ page }) => {
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not finish');
  await waitForCount(page, 1);
  assert((await runBuiltin(page, 'turn-limit')) === 'turn_limit', 'turn-limit did not stop');
  await waitForCount(page, 2);
  const before = await entries(page).allInnerTexts();

  // As an index written by a run whose cost was infinite: serde wrote `null`,
  // and the page could not list any run after a reload.
  await page.evaluate((key) => {
    const index = JSON.parse(localStorage.getItem(key));
    index.runs[0].cost_usd = null;
    index.runs[1].turns = 'many';
    localStorage.setItem(key, JSON.stringify(index));
  }, INDEX_KEY);
  await reload(page);
  await waitForCount(page, 2);
  const notice = await page.locator('.history-notice').innerText();
  assert(notice.includes('Some kept runs\' list entries could not be read: the run '), `notice: ${notice}`);
  assert(notice.includes('What time is it? (seed 001)): one of its fields has the wrong kind of value'), `notice: ${notice}`);
  assert(notice.includes('Listed 1 kept run again from its record in storage.'), `notice: ${notice}`);
  const after = await entries(page).allInnerTexts();
  assert(after[0].includes('turn_limit') && after[0].includes('cost unknown'), `the null-cost run: ${after[0]}`);
  assert(after[1].includes('What time is it?') && after[1].includes('done · 2 turns'), `the relisted run: ${after[1]}`);

  // The whole list unreadable: every run comes back from its record.
  await page.evaluate((key) => localStorage.setItem(key, '{"version":1,"runs":[{'), INDEX_KEY);
  await reload(page);
  await waitForCount(page, 2);
  const rebuilt = await page.locator('.history-notice').innerText();
  assert(rebuilt.includes('The list of kept runs could not be read: the saved run list is not readable (at line 1, column 22)'), `notice: ${rebuilt}`);
  assert(rebuilt.includes('Listed 2 kept runs again from their records in storage.'), `notice: ${rebuilt}`);
  const statuses = await entries(page).evaluateAll((rows) => rows.map((r) => r.dataset.status));
  assert(JSON.stringify(statuses.sort()) === JSON.stringify(['done', 'turn_limit']), `statuses ${statuses}`);
  // The rebuilt list was saved: the next reload lists both and says nothing.
  await reload(page);
  await waitForCount(page, 2);
  assert((await page.locator('.history-notice').innerText()).trim() === '', 'the list was not saved after rebuilding');
  assert(before.length === 2, 'two runs were kept');
}, { timeoutMs: 60_000 });

test('nothing lost: Import scenario sends a run file to Import run, refuses what is not a scenario, and keeps the editor', async ({ page }) => {
  await pick(page, 'get-time');
  const edited = (await page.locator('#scenario-json').inputValue()).replace('"task": "', '"task": "My edit: ');
  await page.locator('#scenario-json').fill(edited);
  const importFile = async (name, text) => {
    const path = join(artifacts, name);
    await writeFile(path, text);
    await page.getByRole('button', { name: 'Import scenario' }).setInputFiles(path);
    await page.locator('.arrival', { hasText: name }).waitFor({ timeout: 10_000 });
    return page.locator('.arrival').innerText();
  };
  const body = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
  const said = await importFile('request.json', body);
  assert(said === 'request.json is a provider\'s request body, not a scenario: open it with “Import run…” (in Run files above the Trace, or in Import/Export). The editor is unchanged.', said);
  const record = '{"type":"scenario","scenario":{}}\n{"seq":0,"t_ms":0,"type":"run_started"}\n';
  assert((await importFile('run.jsonl', record)).includes('run.jsonl is a run record (JSON Lines, one event per line), not a scenario'), 'record not recognised');
  const wrong = await importFile('wrong.json', JSON.stringify({ name: 'x', tools: 'none', limits: { max_turns: -1 } }));
  assert(wrong.startsWith('wrong.json was not imported: it is not a scenario the playground can run ('), wrong);
  assert(wrong.includes('tools') && wrong.includes('max_turns'), `not every problem is named: ${wrong}`);
  assert((await page.locator('#scenario-json').inputValue()) === edited, 'a refused file changed the editor');
  assert((await page.locator('.undo-replace').count()) === 0, 'Undo offered though nothing was replaced');
}, { timeoutMs: 45_000 });

test('nothing lost: an import and a pick that replace edits can be undone, and Undo again returns', async ({ page }) => {
  await pick(page, 'get-time');
  const edited = (await page.locator('#scenario-json').inputValue()).replace('"task": "', '"task": "My edit: ');
  await page.locator('#scenario-json').fill(edited);
  const other = (await page.locator('#scenario-json').inputValue()).replace('My edit: ', 'From a file: ');
  const path = join(artifacts, 'other-scenario.json');
  await writeFile(path, other);
  await page.getByRole('button', { name: 'Import scenario' }).setInputFiles(path);
  await page.locator('.arrival', { hasText: 'Imported the scenario other-scenario.json.' }).waitFor({ timeout: 10_000 });
  assert((await page.locator('#scenario-json').inputValue()) === other, 'the import did not load');
  // The import was made in the Scenario panel, whose Undo is beside it: the
  // header's Undo is for what a pick replaced.
  assert((await page.locator('.undo-pick').count()) === 0, 'the header offers Undo pick after an import');
  await page.locator('.undo-replace').click();
  assert((await page.locator('#scenario-json').inputValue()) === edited, 'Undo did not bring back the edits');
  assert((await page.locator('.arrival').innerText()).startsWith('Brought back the scenario that was replaced'), 'no word after Undo');
  await page.locator('.undo-replace').click();
  assert((await page.locator('#scenario-json').inputValue()) === other, 'Undo again did not return to the import');
  await page.locator('.undo-replace').click();

  // Picking a built-in over edits: Undo brings them back too, and a reload
  // keeps them. The header offers it beside the picker, in view where the
  // person picked; once used it leaves the header.
  await pick(page, 'turn-limit');
  assert((await page.locator('#scenario-json').inputValue()) !== edited, 'the pick did not load');
  const undoPick = page.locator('.undo-pick');
  await undoPick.waitFor({ timeout: 5_000 });
  assert(await undoPick.evaluate((b) => { const r = b.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; }), 'the header\'s Undo is not in view after the pick');
  await undoPick.click();
  assert((await undoPick.count()) === 0, 'the header still offers Undo after it was used');
  assert((await page.locator('#scenario-json').inputValue()) === edited, 'Undo after a pick did not bring back the edits');
  // The picker names what the editor holds now, not the pick it undid.
  const picked = () => page.locator('#scenario-picker').evaluate((select) => select.selectedOptions[0]?.textContent ?? '');
  assert((await picked()) === 'Edited from What time is it? (seed 001)', `the picker says ${await picked()} after Undo`);
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  assert((await page.locator('#scenario-json').inputValue()) === edited, 'the edits brought back were not saved');
  assert((await picked()) === 'Edited from What time is it? (seed 001)', `the picker says ${await picked()} after a reload`);

  // A pick over edits, then a reload before Undo: Undo is still offered,
  // and brings the edits back.
  await pick(page, 'turn-limit');
  assert((await page.locator('#scenario-json').inputValue()) !== edited, 'the second pick did not load');
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  await page.locator('.undo-replace').click({ timeout: 5_000 });
  assert((await page.locator('#scenario-json').inputValue()) === edited, 'the edits a pick replaced were lost by a reload');
  assert((await picked()) === 'Edited from What time is it? (seed 001)', `the picker says ${await picked()} after a reload and Undo`);

  // Two picks over edits, the second made while the first's file is on its
  // way: Undo brings back the edits, and the picker names them, not the
  // first pick.
  const held = [];
  let released = false;
  await page.route(/\/split_builtin_json_[^/]*\.wasm$/, (route) => (released ? route.continue() : held.push(route)));
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  assert((await page.locator('#scenario-json').inputValue()) === edited, 'the edits were not there after a reload');
  await page.selectOption('#scenario-picker', 'turn-limit');
  await page.selectOption('#scenario-picker', 'deadline');
  released = true;
  for (const route of held) await route.continue();
  await page.waitForFunction((edited) => document.querySelector('#scenario-json').value !== edited, edited, { timeout: 10_000 });
  await page.locator('.undo-replace').click({ timeout: 5_000 });
  assert((await page.locator('#scenario-json').inputValue()) === edited, 'Undo after two quick picks did not bring back the edits');
  assert((await picked()) === 'Edited from What time is it? (seed 001)', `the picker says ${await picked()} after two quick picks and Undo`);
}, { timeoutMs: 60_000 });

test('nothing lost: leaving while a run waits for approval asks first, and staying keeps the run', async ({ page }) => {
  const bar = await refundUntilApproval(page);
  // This test answers the question itself (see lib.mjs).
  page.off('dialog', leaveAnyway);
  const asked = [];
  const stay = (dialog) => { asked.push(dialog.type()); return dialog.dismiss(); };
  page.on('dialog', stay);
  await page.evaluate(() => setTimeout(() => location.reload(), 0));
  for (let i = 0; i < 50 && asked.length === 0; i++) await page.waitForTimeout(100);
  assert(JSON.stringify(asked) === '["beforeunload"]', `asked ${JSON.stringify(asked)} before leaving a run that waits`);
  // Staying: the run still waits, and goes on when approved.
  assert(await bar.isVisible(), 'the approval bar is gone after staying');
  await bar.getByRole('button', { name: 'Approve', exact: true }).click();
  assert((await untilBanner(page, { approve: true, what: 'refund-with-approval' })) === 'done', 'the run did not end done after staying');
  // A run that has ended is kept: leaving asks nothing.
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  assert(JSON.stringify(asked) === '["beforeunload"]', `asked ${JSON.stringify(asked)} with no run going`);
});

test('nothing lost: absurd prices, usage and budgets are refused with their paths before a run can start', async ({ page }) => {
  await pick(page, 'get-time');
  const scenario = JSON.parse(await page.locator('#scenario-json').inputValue());
  scenario.pricing = { input_usd_per_mtok: 1e300, output_usd_per_mtok: 1 };
  scenario.limits.max_cost_usd = 1e308;
  scenario.model.responses[0].usage = { input_tokens: 1e15, output_tokens: 1 };
  await page.locator('#scenario-json').fill(JSON.stringify(scenario, null, 2));
  // Run says the first problem and how many more; the list under the
  // editor says each with its path (JSON.stringify writes 1e+300).
  await page.locator('#run-blocker', { hasText: '(and 2 more problems)' }).waitFor({ timeout: 10_000 });
  const blocker = await page.locator('#run-blocker').innerText();
  assert(blocker.includes('limits.max_cost_usd: 1e+308 is too large: a cost budget must be at most $1,000,000'), blocker);
  const problems = await page.locator('.problems').innerText();
  for (const said of [
    'pricing.input_usd_per_mtok: 1e+300 is too large: a price must be at most $10,000 per million tokens',
    'limits.max_cost_usd: 1e+308 is too large: a cost budget must be at most $1,000,000',
    "model.responses[0].usage.input_tokens: 1000000000000000 is too large: a turn's usage must be at most 100,000,000 tokens",
  ]) {
    assert(problems.includes(said), `the problem list does not say "${said}": ${problems}`);
  }
  assert(await button(page, 'Run').isDisabled(), 'Run is enabled with absurd numbers');
  // Nothing in the header is wider than the page.
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(wide <= 1100 + 1, `the page scrolls sideways: ${wide} px`);
});
