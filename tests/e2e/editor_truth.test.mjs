// What the page says about the scenario in the
// editor is true. A link or an edit keeps the scenario's own lesson and the
// picker says where it came from; a cut-off link says so once and loads
// nothing; switching scenarios does not leave another run's trace behind;
// a JSON error can be found by its line, and the form survives it.

import { join } from 'node:path';
import { artifacts, assert, bannerStatus, button, env, openMode, pick, runFiles, test } from './lib.mjs';

const pickerLabel = (page) =>
  page.locator('#scenario-picker').evaluate((s) => s.selectedOptions[0].textContent.trim());

/** The share link for scenario text, as Copy link makes it. */
const linkFor = (text) => `${env.baseUrl}#s=${Buffer.from(text.trim(), 'utf8').toString('base64url')}`;

/** Opens `url` in a fresh context (no autosave); returns { page, close }. */
async function openFresh(url) {
  const context = await env.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(url);
  await page.locator('#scenario-picker').waitFor();
  return { page, errors, close: () => context.close() };
}

test('a shared link keeps the scenario\'s own lesson, and the picker says it came from a link', async ({ page }) => {
  await pick(page, 'turn-limit');
  const edited = JSON.parse(await page.locator('#scenario-json').inputValue());
  edited.limits.max_turns = 4;
  const lesson = edited.description;
  assert(lesson && lesson.length > 20, 'turn-limit has no description to keep');
  const { page: fresh, close } = await openFresh(linkFor(JSON.stringify(edited, null, 2)));
  try {
    await fresh.locator('.lesson', { hasText: lesson }).waitFor({ timeout: 5_000 });
    assert((await pickerLabel(fresh)) === 'From a shared link', `picker: ${await pickerLabel(fresh)}`);
    const arrival = await fresh.locator('.arrival').innerText();
    assert(arrival === 'Loaded the scenario from the share link.', `arrival: ${arrival}`);
  } finally {
    await close();
  }
});

test('changing one limit keeps the lesson and the picker says "Edited from …", also after a reload', async ({ page }) => {
  await pick(page, 'turn-limit');
  const lesson = await page.locator('.lesson').innerText();
  await page.locator('.form-section summary', { hasText: 'Limits' }).click();
  await page.locator('#limit-max_turns').fill('5');
  await page.waitForFunction(() => JSON.parse(document.querySelector('#scenario-json').value).limits.max_turns === 5);
  assert((await page.locator('#scenario-picker').inputValue()) === 'custom', 'the picker still names the built-in');
  assert((await pickerLabel(page)) === 'Edited from Turn limit', `picker: ${await pickerLabel(page)}`);
  assert((await page.locator('.lesson').innerText()) === lesson, 'the edit dropped the lesson');
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  assert((await pickerLabel(page)) === 'Edited from Turn limit', `after a reload: ${await pickerLabel(page)}`);
  assert((await page.locator('.lesson').innerText()) === lesson, 'the reload dropped the lesson');
});

test('a cut-off link gets one message saying so, loads nothing, and Run stays usable', async ({ page }) => {
  await pick(page, 'turn-limit');
  const text = await page.locator('#scenario-json').inputValue();
  const whole = linkFor(text);
  const { page: fresh, errors, close } = await openFresh(whole.slice(0, whole.length - 40));
  try {
    const arrival = fresh.locator('.arrival');
    await arrival.filter({ hasText: 'cut off' }).waitFor({ timeout: 5_000 });
    const said = await arrival.innerText();
    assert(said.startsWith('Nothing was loaded from this share link: the link is cut off'), `arrival: ${said}`);
    const everything = await fresh.locator('body').innerText();
    assert(!/loaded the scenario/i.test(everything), 'the page also claims the link loaded');
    assert(!everything.includes('not valid JSON'), 'the page also reports the cut-off text as a JSON error');
    // The editor holds a whole scenario (the opening one), so Run works.
    JSON.parse(await fresh.locator('#scenario-json').inputValue());
    await fresh.waitForFunction(() => !document.querySelector('button.run').disabled, null, { timeout: 5_000 });
    assert(errors.length === 0, errors.join('\n'));
    await fresh.screenshot({ path: join(artifacts, 'cut-off-link.png') });
  } finally {
    await close();
  }
});

test('switching scenarios clears the last run\'s trace, counters and export; the run stays in the history', async ({ page }) => {
  await pick(page, 'get-time');
  await button(page, 'Run').click();
  assert((await bannerStatus(page)) === 'done', 'get-time did not end done');
  const heading = await page.locator('#trace-heading').innerText();
  assert(heading.includes('What time is it?'), `the trace heading does not name its run's scenario: ${heading}`);
  await runFiles(page);
  assert(!(await button(page, 'Export trace (JSONL)').isDisabled()), 'nothing to export after the run');
  await pick(page, 'turn-limit');
  await page.waitForFunction(() => document.querySelectorAll('.timeline .event').length === 0, null, { timeout: 5_000 });
  assert((await page.locator('.stop-banner').count()) === 0, 'the banner of the previous run stays');
  assert(await button(page, 'Export trace (JSONL)').isDisabled(), 'Export trace would export the previous scenario\'s run');
  assert((await page.locator('#trace-heading').innerText()).trim() === 'Trace', 'the heading still names the old run');
  const counters = await page.locator('.counters').innerText();
  assert(!/\$0\.0\d*[1-9]/.test(counters), `the counters keep the old run's cost: ${counters}`);
  await openMode(page, 'history');
  await page.locator('.history-entry').first().waitFor({ timeout: 10_000 });
  const kept = await page.locator('.history-entry').allInnerTexts();
  assert(kept.length === 1 && kept[0].includes('What time is it?'), `history: ${JSON.stringify(kept)}`);
});

test('a run still going is not thrown away by a switch: its trace stays, named by its scenario', async ({ page }) => {
  await pick(page, 'turn-limit');
  await button(page, 'Step').click();
  await page.locator('.run-state', { hasText: /next|Paused/i }).waitFor({ timeout: 5_000 });
  await pick(page, 'get-time');
  const heading = await page.locator('#trace-heading').innerText();
  assert(heading.includes('Turn limit'), `the paused run's trace is not named: ${heading}`);
  assert((await page.locator('.timeline .event').count()) > 0, 'the paused run\'s trace was cleared');
  await button(page, 'Stop').click();
  assert((await bannerStatus(page)) === 'cancelled', 'Stop did not end the paused run');
});

test('a JSON error is marked on its line; "Go to line" puts the caret there; the form stays, out of date', async ({ page }) => {
  await pick(page, 'turn-limit');
  const lines = (await page.locator('#scenario-json').inputValue()).split('\n');
  // Break line 4: drop its closing quote and comma.
  const broken = [...lines];
  broken[3] = broken[3].replace(/",\s*$/, '');
  await page.locator('#scenario-json').fill(broken.join('\n'));
  const mark = page.locator('.json-editor .gutter-error');
  await mark.waitFor({ timeout: 5_000 });
  const marked = await mark.innerText();
  const where = await page.locator('#json-error').innerText();
  const line = Number(/line (\d+)/.exec(where)?.[1]);
  assert(marked.trim() === `▶${line}`, `gutter mark ${marked} for ${where}`);
  assert(line >= 4 && line <= 5, `the error is reported at line ${line}: ${where}`);
  const gutterRows = (await page.locator('.json-editor .gutter').innerText()).trim().split('\n').length;
  assert(gutterRows === broken.length, `${gutterRows} line numbers for ${broken.length} lines`);
  await page.getByRole('button', { name: `Go to line ${line}` }).click();
  const caretLine = await page.locator('#scenario-json').evaluate((t) => t.value.slice(0, t.selectionStart).split('\n').length);
  assert(caretLine === line, `the caret is on line ${caretLine}, not ${line}`);
  assert(await page.locator('#scenario-json').evaluate((t) => t === document.activeElement), 'the box has no focus');
  // The form is still there, with the last good values, disabled and marked.
  const note = await page.locator('.form-stale-note').innerText();
  assert(note.includes('Out of date') && note.includes(`line ${line}`), `note: ${note}`);
  assert(await page.locator('.form-stale').evaluate((f) => f.disabled), 'the stale form can still be edited');
  assert((await page.locator('#field-task').inputValue()).length > 0, 'the stale form lost the task');
  await page.screenshot({ path: join(artifacts, 'json-error-line.png') });
  // Fixing it brings the form back, editable, and the mark goes.
  await page.locator('#scenario-json').fill(lines.join('\n'));
  await page.locator('.json-editor .gutter-error').waitFor({ state: 'detached' });
  assert((await page.locator('.form-stale').count()) === 0, 'the form stays out of date after the fix');
}, { viewport: { width: 1440, height: 900 } });

test('editor problems: an unknown field suggests the nearest key, -5 says the minimum, one more problem is singular', async ({ page }) => {
  await pick(page, 'turn-limit');
  const scenario = JSON.parse(await page.locator('#scenario-json').inputValue());
  scenario.limits.max_turn = 3;
  scenario.limits.max_turns = -5;
  await page.locator('#scenario-json').fill(JSON.stringify(scenario, null, 2));
  const items = page.locator('.problems[role="alert"] li');
  await items.first().waitFor({ timeout: 5_000 });
  const texts = await items.allInnerTexts();
  assert(texts.length === 2, `expected 2 problems, got ${JSON.stringify(texts)}`);
  const unknown = texts.find((t) => t.startsWith('limits.max_turn ') || t.includes('max_turn:') || t.includes('`max_turn`') || t.includes('max_turn is'));
  assert(unknown && unknown.includes('did you mean `max_turns`'), `unknown field: ${unknown}`);
  assert(unknown.length < 160, `the unknown-field message is ${unknown.length} characters: ${unknown}`);
  const negative = texts.find((t) => t.startsWith('limits.max_turns:'));
  assert(negative && negative.includes('-5') && /at least 1\b/.test(negative), `negative limit: ${negative}`);
  const blocker = await page.locator('#run-blocker').innerText();
  assert(blocker.endsWith('(and 1 more problem)'), `blocker: ${blocker}`);
});
