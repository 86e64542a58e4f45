// The run files (export, import, paste, send) sit behind one "Run files"
// menu in the trace's heading, so the trace starts with the run: the menu
// is closed at first and its module is fetched only when it opens; it works
// by keyboard; the Import/Export mode shows the files open.

import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { artifacts, assert, button, openMode, runBuiltin, test } from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const toggle = (page) => page.getByRole('button', { name: 'Run files' });
const expanded = async (page) => (await toggle(page).getAttribute('aria-expanded')) === 'true';

test('run files: the trace starts with the run, and the files module is fetched only when their menu opens', async ({ page }) => {
  // Count what a fresh load asks for, from its first request.
  await page.waitForLoadState('networkidle');
  const fetched = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname.slice(1)));
  const asked = () => fetched.some((f) => f.startsWith('split_run_files_'));
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
  await page.waitForLoadState('networkidle');
  assert(!asked(), `the run files were fetched with the menu closed: ${fetched.filter((f) => f.startsWith('split_')).join(', ')}`);
  assert(!(await expanded(page)), 'the Run files menu is open at first');
  assert((await page.locator('.run-files').count()) === 0, 'the run files are drawn with the menu closed');

  // The column's top is its heading, then the run: no file controls between.
  const top = await page.evaluate(() => {
    const column = document.querySelector('.layout > .trace').getBoundingClientRect().top;
    const heading = document.querySelector('#trace-heading').getBoundingClientRect().top;
    const card = document.querySelector('#run-timeline .event').getBoundingClientRect().top;
    return { heading: heading - column, card: card - column };
  });
  assert(top.heading <= 60, `the trace's heading is ${top.heading} px below the column's top`);
  assert(top.card <= 120, `the trace's first card is ${top.card} px below the column's top`);

  await toggle(page).click();
  await button(page, 'Export trace (JSONL)').waitFor({ timeout: 5_000 });
  assert(asked(), 'opening the menu did not fetch the run files');
}, { viewport: { width: 1440, height: 900 } });

test('run files: the menu opens by keyboard, Esc closes it and gives the focus back, and its exports download', async ({ page }) => {
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
  const menu = toggle(page);
  const focusedIsToggle = () => page.evaluate(() => document.activeElement?.classList.contains('run-files-toggle'));
  await menu.focus();
  await page.keyboard.press('Enter');
  await button(page, 'Export trace (JSONL)').waitFor({ timeout: 5_000 });
  assert(await expanded(page), 'Enter did not open the menu');
  await page.keyboard.press('Escape');
  await button(page, 'Export trace (JSONL)').waitFor({ state: 'hidden', timeout: 5_000 });
  assert(!(await expanded(page)), 'Esc did not close the menu');
  assert(await focusedIsToggle(), 'the focus is not back on the Run files button');
  await page.keyboard.press('Space');
  await button(page, 'Export trace (JSONL)').waitFor({ timeout: 5_000 });
  assert(await expanded(page), 'Space did not open the menu');
  // Esc from a control inside the menu closes it too, and the focus goes
  // back to the button, not to the page's top.
  await page.keyboard.press('Tab');
  assert(await page.evaluate(() => !!document.activeElement?.closest('.run-files-menu')), 'Tab did not move into the menu');
  await page.keyboard.press('Escape');
  assert(!(await expanded(page)), 'Esc inside the menu did not close it');
  assert(await focusedIsToggle(), 'after Esc inside the menu the focus is not on the Run files button');

  await page.keyboard.press('Enter');
  const [jsonl] = await Promise.all([page.waitForEvent('download'), button(page, 'Export trace (JSONL)').click()]);
  assert(jsonl.suggestedFilename() === 'run.jsonl', `export named ${jsonl.suggestedFilename()}`);
  const path = join(artifacts, 'run-files-menu.jsonl');
  await jsonl.saveAs(path);
  const record = await readFile(path, 'utf8');
  assert(record.includes('"run_finished"'), 'the exported record is not the whole run');
  const [otel] = await Promise.all([page.waitForEvent('download'), button(page, 'Export as OpenTelemetry').click()]);
  assert(otel.suggestedFilename() === 'run.otlp.json', `export named ${otel.suggestedFilename()}`);
}, { viewport: { width: 1440, height: 900 } });

test('run files: the Import/Export mode shows them open, with no menu to press', async ({ page }) => {
  await openMode(page, 'files');
  await page.locator('.run-files').waitFor({ timeout: 5_000 });
  await page.locator('.run-paste').waitFor({ timeout: 5_000 });
  assert(!(await page.locator('.run-files-toggle').isVisible()), 'the Import/Export mode shows the Run files button');
}, { viewport: { width: 1440, height: 900 } });

test('run files: axe finds nothing with the menu open after a run', async ({ page }) => {
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
  await toggle(page).click();
  await button(page, 'Export trace (JSONL)').waitFor({ timeout: 5_000 });
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
  assert(found.length === 0, `with the menu open:\n${found.join('\n')}`);
}, { viewport: { width: 1440, height: 900 }, bypassCSP: true, timeoutMs: 60_000 });
