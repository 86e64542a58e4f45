// "Nothing false, round three", as a user meets it in the page: a notice
// leaves with the run or scenario it describes; each status is drawn in one
// tone (colour and mark) in the banner, the header and the loop; the form
// takes every spelling JSON has for a whole number and refuses one out of
// range with the range and the text typed; the picker says a scenario
// pasted in whole was pasted, and which file one came from.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { artifacts, assert, button, openMode, pick, runBuiltin, runFiles, test } from './lib.mjs';

const WIDE = { viewport: { width: 1440, height: 900 } };

/** An Anthropic Messages body that the API would refuse: one tool_use id twice. */
const refusedBody = () => {
  const call = { type: 'tool_use', id: 'toolu_dup', name: 'get_time', input: {} };
  return {
    model: 'claude-sonnet-4-5',
    max_tokens: 256,
    tools: [{ name: 'get_time', description: 'The time now', input_schema: { type: 'object' } }],
    messages: [
      { role: 'user', content: 'What time is it?' },
      { role: 'assistant', content: [call, call] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_dup', content: '12:00' }, { type: 'tool_result', tool_use_id: 'toolu_dup', content: '12:00' }] },
    ],
  };
};

/** Pastes the refused body into "Paste a request body…" and imports it; returns the notice. */
async function importRefusedBody(page) {
  await runFiles(page);
  const paste = page.locator('.run-paste');
  if (!(await paste.evaluate((d) => d.open))) await paste.locator('summary').click();
  await page.locator('#run-paste-text').fill(JSON.stringify(refusedBody(), null, 2));
  await button(page, 'Import pasted text').click();
  const notice = page.locator('.run-file-notice');
  await notice.filter({ hasText: 'would refuse this body' }).waitFor({ timeout: 10_000 });
  return notice;
}

/** Waits until `locator` shows no text: the notice has gone. */
async function gone(page, selector, what) {
  await page
    .waitForFunction((s) => [...document.querySelectorAll(s)].every((e) => e.textContent.trim() === ''), selector, { timeout: 5_000 })
    .catch(async () => {
      const said = await page.locator(selector).allInnerTexts();
      throw new Error(`${what}: still says ${JSON.stringify(said)}`);
    });
}

test('truth three: a pasted body\'s verdict goes with its run on Reset, a new scenario and a new run', async ({ page }) => {
  await pick(page, 'get-time');
  await importRefusedBody(page);
  await button(page, 'Reset').click();
  await gone(page, '.run-file-notice', 'after Reset, the imported run\'s verdict');

  await importRefusedBody(page);
  await pick(page, 'turn-limit');
  await gone(page, '.run-file-notice', 'after picking another scenario, the imported run\'s verdict');

  // Run, with the imported run in view: the new run replaces it.
  await importRefusedBody(page);
  await button(page, 'Run').click();
  await gone(page, '.run-file-notice', 'after a new run, the imported run\'s verdict');
  await page.locator('.stop-banner').waitFor({ timeout: 10_000 });
}, WIDE);

test('truth three: the share link and its "copied" notice go when the scenario they carry changes', async ({ page }) => {
  await pick(page, 'get-time');
  await button(page, 'Copy link').click();
  const field = page.locator('#share-link');
  await field.waitFor({ timeout: 5_000 });
  const notice = page.locator('.share-bar + .notice');
  await page.waitForFunction(() => document.querySelector('.share-bar + .notice').textContent.toLowerCase().includes('link'), null, { timeout: 5_000 });
  assert((await field.inputValue()).includes('#s='), `the field holds ${await field.inputValue()}`);
  await pick(page, 'turn-limit');
  await gone(page, '.share-bar + .notice', 'after another scenario, the link notice');
  assert((await field.count()) === 0, 'the share link of the previous scenario is still shown');
  assert((await notice.innerText()).trim() === '', 'the notice is not empty');
}, WIDE);

/** Each status with where it is taught, its stop tone and that tone's mark. */
const TONES = [
  ['failed-verification', 'failed_verification', 'failure', '✗'],
  ['model-error', 'model_error', 'failure', '✗'],
  ['press-stop', 'cancelled', 'person', '☝'],
  ['turn-limit', 'turn_limit', 'guard', '⊘'],
  ['get-time', 'done', 'model', '■'],
];

test('truth three: the banner, the header and the loop draw each status in the same tone and mark', async ({ page }) => {
  const backgrounds = {};
  for (const [id, status, tone, mark] of TONES) {
    assert((await runBuiltin(page, id, { approve: true })) === status, `${id} did not end ${status}`);
    const banner = page.locator('.stop-banner');
    const header = page.locator('header .outcome');
    const exit = page.locator(`.loop-wide [data-node="exit-${status}"]`);
    await exit.waitFor({ timeout: 5_000 });
    // The same tone by name in all three places.
    assert((await banner.getAttribute('data-tone')) === tone, `${status}: banner tone ${await banner.getAttribute('data-tone')}`);
    assert((await header.getAttribute('class')).includes(`tone-${tone}`), `${status}: header ${await header.getAttribute('class')}`);
    assert((await exit.getAttribute('class')).includes(`tone-${tone}`), `${status}: exit ${await exit.getAttribute('class')}`);
    // The same mark: a shape, not only a colour.
    const bannerMark = (await banner.locator('.stop-status .tone-icon').innerText()).trim();
    const headerMark = (await header.locator('.tone-icon').innerText()).trim();
    assert(bannerMark === mark && headerMark === mark, `${status}: banner ${bannerMark}, header ${headerMark}, expected ${mark}`);
    assert((await exit.textContent()).includes(mark), `${status}: the exit reads ${await exit.textContent()}`);
    // The same colour: the banner's border is the header's text colour and
    // the loop exit's outline, and its background is its tone's.
    const colours = await page.evaluate((status) => {
      const banner = document.querySelector('.stop-banner');
      const style = getComputedStyle(banner);
      return {
        border: style.borderTopColor,
        edge: style.borderLeftColor,
        code: getComputedStyle(banner.querySelector('.stop-status code')).color,
        background: style.backgroundColor,
        header: getComputedStyle(document.querySelector('header .outcome')).color,
        exit: getComputedStyle(document.querySelector(`.loop-wide [data-node="exit-${status}"] rect`)).stroke,
      };
    }, status);
    assert(
      colours.border === colours.header && colours.edge === colours.header && colours.code === colours.header && colours.exit === colours.header,
      `${status}: banner ${colours.border} / ${colours.edge} / code ${colours.code}, header ${colours.header}, loop exit ${colours.exit}`,
    );
    backgrounds[status] = colours.background;
    // The trace's last card, the run's end, in the same tone and mark.
    const card = page.locator('.timeline .event[data-kind="run_finished"]');
    assert((await card.getAttribute('class')).includes(`tone-${tone}`), `${status}: the run's end card is ${await card.getAttribute('class')}`);
    assert((await card.innerText()).includes(`${mark} Run finished: ${status}`), `${status}: the run's end card reads ${await card.innerText()}`);
    const cardEdge = await card.evaluate((el) => getComputedStyle(el).borderLeftColor);
    assert(cardEdge === colours.header, `${status}: the run's end card is drawn ${cardEdge}, the header ${colours.header}`);
  }
  // The History lists each kept run's facts in its status's tone too.
  await openMode(page, 'history');
  await page.locator('.history').waitFor({ timeout: 10_000 });
  for (const [, status, tone] of TONES) {
    const facts = page.locator(`.history-entry[data-status="${status}"] .history-facts`).first();
    assert((await facts.getAttribute('class')).includes(`tone-${tone}`), `${status}: History draws its facts ${await facts.getAttribute('class')}`);
  }
  // One background per tone: two failures alike, and unlike a limit's, a
  // person's or the model's own stop.
  const { failed_verification: failure, model_error: alsoFailure, cancelled, turn_limit: limit, done } = backgrounds;
  assert(failure === alsoFailure, `failures differ: ${failure} and ${alsoFailure}`);
  assert(new Set([failure, cancelled, limit, done]).size === 4, `tones share a background: ${JSON.stringify(backgrounds)}`);
}, { ...WIDE, timeoutMs: 90_000 });

/** Types `text` into the field `selector` and returns its error line. */
async function typeInto(page, selector, text) {
  await page.locator(selector).fill(text);
  return page.locator(selector).locator('xpath=..').locator('.field-error').innerText();
}

const scenarioJson = (page) => page.locator('#scenario-json').inputValue().then((t) => JSON.parse(t));

test('truth three: the form takes 1e3, 1000.0 and 10e-1 as whole numbers and refuses one out of range with its range and the text typed', async ({ page }) => {
  await pick(page, 'context-limit');
  await page.locator('summary', { hasText: 'Limits' }).click();
  for (const [typed, value] of [['1e3', 1000], ['1E3', 1000], ['1000.0', 1000], ['10e-1', 1]]) {
    const error = await typeInto(page, '#limit-max_turns', typed);
    await page
      .waitForFunction((value) => JSON.parse(document.querySelector('#scenario-json').value).limits?.max_turns === value, value, { timeout: 5_000 })
      .catch(async () => {
        throw new Error(`Max turns "${typed}": the JSON has ${JSON.stringify((await scenarioJson(page)).limits)}; the field says "${error}"`);
      });
    assert(error.trim() === '', `Max turns "${typed}" is refused: ${error}`);
  }
  // Out of range: refused with the range and the text as typed, and the
  // field says the JSON kept its value.
  const negativeZero = await typeInto(page, '#limit-max_turns', '-0');
  assert(
    negativeZero === 'Max turns: a whole number from 1 to 1,000,000 turns; -0 is too small. Not written: the JSON keeps 1.',
    `Max turns "-0": ${negativeZero}`,
  );
  assert((await scenarioJson(page)).limits.max_turns === 1, 'the JSON changed for a refused value');
  assert(await button(page, 'Run').isDisabled(), 'Run is enabled while a field is refused');

  const section = page.locator('details[data-section="context"]');
  await section.locator('summary').click();
  const huge = '12345678901234567890123';
  const said = await typeInto(page, '#context-window_tokens', huge);
  assert(
    said === `Context window: a whole number from 1 to 100,000,000 tokens; ${huge} is too large. Not written: the JSON keeps 8000.`,
    `Context window "${huge}": ${said}`,
  );
  assert((await scenarioJson(page)).context.window_tokens === 8000, 'the JSON changed for a refused window');
}, WIDE);

test('truth three: the picker says a scenario pasted in whole was pasted, and names the file one came from', async ({ page }) => {
  await pick(page, 'deadline');
  const label = () => page.locator('#scenario-picker').evaluate((s) => s.selectedOptions[0].textContent.trim());
  const mine = {
    name: 'My own',
    description: 'Pasted from elsewhere.',
    task: 'Say hello.',
    model: { type: 'scripted', responses: [{ text: 'Hello.' }] },
  };
  const box = page.locator('#scenario-json');
  await box.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(JSON.stringify(mine, null, 2));
  await page.waitForFunction(() => document.querySelector('#scenario-picker').selectedOptions[0].textContent.trim() === 'Pasted', null, { timeout: 5_000 })
    .catch(async () => {
      throw new Error(`a pasted scenario: the picker says ${await label()}`);
    });
  // An edit of the pasted text says so, also after a reload.
  const edited = (await box.inputValue()).replace('Say hello.', 'Say hello twice.');
  await box.fill(edited);
  assert((await label()) === 'Pasted, then edited', `after an edit: ${await label()}`);
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  assert((await label()) === 'Pasted, then edited', `after a reload: ${await label()}`);

  // An imported file is named.
  const path = join(artifacts, 'my-own-scenario.json');
  await writeFile(path, JSON.stringify({ ...mine, name: 'From a file' }, null, 2));
  await page.getByRole('button', { name: 'Import scenario' }).setInputFiles(path);
  await page.locator('.arrival', { hasText: 'Imported the scenario my-own-scenario.json.' }).waitFor({ timeout: 10_000 });
  assert((await label()) === 'From file my-own-scenario.json', `after an import: ${await label()}`);
}, WIDE);
