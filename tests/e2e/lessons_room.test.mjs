// The Lessons mode's room to work and an honest Check: at 1366x768 the open
// lesson has a column of its own beside the loop with its intro, goal,
// editable fields and Check in view together; on a phone the lesson, the
// loop and the trace are each one tap away; the lessons' stylesheet comes
// when the mode first opens and the panel is never shown without it; Check
// says when an edit was not applied (and judges no run), and where to act
// while it waits for a run that waits for the learner; a field whose values
// are a closed set lists them beside it. Lessons are opened by their ids
// (`#lesson=<id>`), not by their place in the course.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { assert, button, env, test } from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const ROOM = { viewport: { width: 1366, height: 768 } };

/** Opens built-in lesson `id` from its link and returns the panel. */
async function openLesson(page, id) {
  await page.goto(`${env.baseUrl}#lesson=${id}`);
  const panel = page.locator('.lessons-panel');
  await panel.locator('.lesson-goal').waitFor({ timeout: 15_000 });
  return panel;
}

/** `selector`'s first element's box, and whether it is wholly inside the
 * window and inside every scrolling box that holds it (so seen, not
 * scrolled away). */
async function seen(page, selector) {
  return page.evaluate((selector) => {
    const el = document.querySelector(selector);
    if (!el) return { selector, missing: true };
    const r = el.getBoundingClientRect();
    let view = { top: 0, bottom: window.innerHeight, left: 0, right: window.innerWidth };
    for (let up = el.parentElement; up; up = up.parentElement) {
      if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(up).overflowY)) {
        const c = up.getBoundingClientRect();
        view = {
          top: Math.max(view.top, c.top), bottom: Math.min(view.bottom, c.bottom),
          left: Math.max(view.left, c.left), right: Math.min(view.right, c.right),
        };
      }
    }
    const inside = r.width > 0 && r.height > 0 && r.top >= view.top - 1 && r.bottom <= view.bottom + 1
      && r.left >= view.left - 1 && r.right <= view.right + 1;
    return { selector, inside, top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width };
  }, selector);
}

/** axe's violations in the page as it is now (or in the part `scope`
 * selects), one line each. */
async function violations(page, scope = null) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async (scope) => {
    const result = await window.axe.run(scope ?? document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  }, scope);
}

test('lessons room: at 1366x768 the token-limit lesson has a column of 400 px or more beside the loop, its intro, goal, field and Check in view together', async ({ page }) => {
  const panel = await openLesson(page, 'token-limit');
  await panel.locator('#lesson-part-limits-max_total_tokens').waitFor({ timeout: 5_000 });
  const column = await seen(page, '.lessons-panel');
  assert(column.width >= 400, `the lesson's column is ${column.width} px wide`);
  // Beside the loop: side by side, not above or below it.
  const loop = await seen(page, '.stage-loop');
  assert(loop.right <= column.left + 1 && loop.bottom > column.top, `the loop ${JSON.stringify(loop)} is not beside the lesson ${JSON.stringify(column)}`);
  // The trace beside (or below) the lesson, not under it.
  const trace = await seen(page, 'section.trace');
  assert(trace.left >= column.right - 1 || trace.top >= column.bottom - 1, `the trace ${JSON.stringify(trace)} overlaps the lesson ${JSON.stringify(column)}`);
  for (const part of ['.lessons-panel .lesson-intro', '.lessons-panel .lesson-goal', '.lessons-panel .lesson-parts', '#lesson-part-limits-max_total_tokens', '.lessons-panel .lesson-check']) {
    const box = await seen(page, part);
    assert(box.inside, `not in view at 1366x768 without scrolling: ${JSON.stringify(box)}`);
  }
  // The field is the lesson's: typing in it edits the scenario, and Check
  // right under it judges the edit.
  await page.locator('#lesson-part-limits-max_total_tokens').fill('10000');
  await button(panel, 'Check').click();
  const verdict = panel.locator('.lesson-verdict');
  await verdict.waitFor({ timeout: 15_000 });
  assert((await verdict.innerText()).includes('Solved'), await verdict.innerText());
  const found = await violations(page);
  assert(found.length === 0, `axe:\n${found.join('\n')}`);
}, { ...ROOM, bypassCSP: true, timeoutMs: 45_000 });

test('lessons room: at 360x800 the lesson, the loop and the trace are each one tap away', async ({ page }) => {
  await openLesson(page, 'token-limit');
  const top = (selector) => page.evaluate((s) => document.querySelector(s).getBoundingClientRect().top, selector);
  const inView = (selector) => page.waitForFunction((s) => {
    const r = document.querySelector(s).getBoundingClientRect();
    return r.top >= -1 && r.top < window.innerHeight / 2;
  }, selector, { timeout: 5_000 }).catch(async () => assert(false, `${selector} is not in view after one tap: top ${await top(selector)}`));
  // From the far end of the page, and from each other.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  for (const [name, target] of [['Trace', 'section.trace'], ['Loop', '.stage-loop'], ['Goal', '#lesson-goal'], ['Trace', 'section.trace'], ['Goal', '#lesson-goal'], ['Loop', '.stage-loop']]) {
    const tap = button(page, name);
    assert(await tap.isVisible(), `no ${name} button in view`);
    const box = await tap.boundingBox();
    assert(box.width >= 24 && box.height >= 24 && box.y + box.height <= 800, `${name} is not a thumb's target in view: ${JSON.stringify(box)}`);
    await tap.click();
    await inView(target);
  }
  const found = await violations(page);
  assert(found.length === 0, `axe at 360x800:\n${found.join('\n')}`);
}, { viewport: { width: 360, height: 800 }, bypassCSP: true });

test('lessons room: the lessons stylesheet is fetched when the mode first opens, the panel waits for it, and the service worker caches it', async ({ page }) => {
  const asked = [];
  page.on('request', (req) => {
    if (new URL(req.url()).pathname.endsWith('/lessons.css')) asked.push(req.url());
  });
  // Held for a while, to see the panel wait for it.
  let release;
  const held = new Promise((ok) => { release = ok; });
  await page.route('**/lessons.css', async (route) => {
    await held;
    await route.continue();
  });
  await page.locator('.loop-panel').waitFor({ timeout: 10_000 });
  assert(asked.length === 0, 'the first paint asked for lessons.css');
  await button(page, 'Lessons').click();
  await page.waitForFunction(() => [...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href.endsWith('/lessons.css')), null, { timeout: 10_000 });
  await page.waitForTimeout(500);
  assert(asked.length === 1, `lessons.css asked for ${asked.length} times`);
  assert((await page.locator('.lessons-panel').count()) === 0, 'the lessons panel showed before its stylesheet arrived');
  release();
  const panel = page.locator('.lessons-panel');
  await panel.locator('.lesson-list').waitFor({ timeout: 10_000 });
  const border = await panel.evaluate((el) => getComputedStyle(el).borderTopWidth);
  assert(border === '2px', `the panel is drawn without its styles (border ${border})`);
  // Offline, the course needs it: the service worker's list holds it.
  const worker = readFileSync(join(env.dist, 'sw.js'), 'utf8');
  assert(worker.includes('"lessons.css"'), 'sw.js does not precache lessons.css');
});

test('lessons room: Check says an edit in a lesson box that is not JSON was not applied, and runs and judges nothing', async ({ page }) => {
  const panel = await openLesson(page, 'max-tokens-is-not-done');
  const field = page.locator('#lesson-part-limits-stop_mode');
  await field.fill('strict');
  await button(panel, 'Check').click();
  const note = panel.locator('.lesson-note');
  await note.waitFor({ timeout: 5_000 });
  const said = await note.innerText();
  assert(said.includes('not applied') && said.includes('limits.stop_mode') && said.includes('not valid JSON'), `Check said: ${said}`);
  await page.waitForTimeout(1_000);
  assert((await panel.locator('.lesson-verdict').count()) === 0, 'a run was judged');
  assert((await page.locator('.stop-banner').count()) === 0, 'Check ran the scenario without the edit');
});

test('lessons room: Check says a value the scenario refuses was not applied, with its path, and judges no run', async ({ page }) => {
  const panel = await openLesson(page, 'max-tokens-is-not-done');
  // A first Check runs the start (not solved): a run is in view.
  await button(panel, 'Check').click();
  await panel.locator('.lesson-verdict').waitFor({ timeout: 15_000 });
  await page.locator('#lesson-part-limits-stop_mode').fill('"strictest"');
  await page.waitForFunction(() => JSON.parse(document.getElementById('scenario-json').value).limits.stop_mode === 'strictest', null, { timeout: 5_000 });
  await button(panel, 'Check').click();
  const note = panel.locator('.lesson-note');
  await note.waitFor({ timeout: 5_000 });
  const said = await note.innerText();
  assert(said.includes('not applied') && said.includes('limits.stop_mode') && said.includes('strict'), `Check said: ${said}`);
  assert(!said.includes('Error(') && !said.includes('serde'), `not plain words: ${said}`);
  await page.waitForTimeout(1_000);
  assert((await panel.locator('.lesson-verdict').count()) === 0, 'the earlier run was judged again');
});

test('lessons room: while Check waits on the deny-and-stop lesson it says to decide in the approval bar, its button focuses the bar, and deciding finishes the check', async ({ page }) => {
  const panel = await openLesson(page, 'approval-deny-and-stop');
  await button(panel, 'Check').click();
  const bar = page.locator('.approval-bar');
  await bar.waitFor({ timeout: 10_000 });
  const here = panel.locator('.lesson-act-here');
  await here.waitFor({ timeout: 5_000 });
  const words = await here.innerText();
  assert(words.includes('Decide in the approval bar') && words.includes('waiting for you'), `while Check waits: ${words}`);
  const found = await violations(page, '.lessons-panel');
  assert(found.length === 0, `axe, while Check waits:\n${found.join('\n')}`);
  await button(here, 'Go to the approval bar').click();
  const focused = await page.evaluate(() => Boolean(document.activeElement?.closest('.approval-bar')));
  assert(focused, 'the button did not move focus to the approval bar');
  await button(bar, 'Deny and stop').click();
  const verdict = panel.locator('.lesson-verdict');
  await verdict.waitFor({ timeout: 10_000 });
  const text = await verdict.innerText();
  assert(text.includes('Solved'), `deciding did not finish the check: ${text}`);
  assert((await here.count()) === 0, 'the notice stays after the check ended');
}, { ...ROOM, colorScheme: 'dark', bypassCSP: true });

test('lessons room: an editable path whose values are a closed set lists them beside its box, and picking one writes it', async ({ page }) => {
  const panel = await openLesson(page, 'max-tokens-is-not-done');
  const choices = panel.locator('#lesson-part-limits-stop_mode-choices');
  await choices.waitFor({ timeout: 5_000 });
  const listed = await choices.locator('button').allInnerTexts();
  assert(JSON.stringify(listed) === JSON.stringify(['"strict"', '"naive"']), `listed: ${listed}`);
  for (const part of ['#lesson-part-limits-stop_mode', '#lesson-part-limits-stop_mode-choices', '.lessons-panel .lesson-check']) {
    const box = await seen(page, part);
    assert(box.inside, `not in view with the box at 1366x768: ${JSON.stringify(box)}`);
  }
  const found = await violations(page);
  assert(found.length === 0, `axe, with the values listed:\n${found.join('\n')}`);
  await button(choices, '"strict"').click();
  await page.waitForFunction(() => JSON.parse(document.getElementById('scenario-json').value).limits.stop_mode === 'strict', null, { timeout: 5_000 });
  assert((await page.locator('#lesson-part-limits-stop_mode').inputValue()).trim() === '"strict"', 'the box does not show the value picked');
  await button(panel, 'Check').click();
  await panel.locator('.lesson-verdict', { hasText: 'Solved' }).waitFor({ timeout: 15_000 });
  // A free number lists nothing.
  await openLesson(page, 'token-limit');
  await page.locator('#lesson-part-limits-max_total_tokens').waitFor({ timeout: 5_000 });
  assert((await page.locator('.lesson-choices').count()) === 0, 'a number lists values');
}, { ...ROOM, bypassCSP: true });

test('lessons room: Check runs the edited scenario afresh even while another lesson\'s run is paused, and judges that run', async ({ page }) => {
  // A stepping lesson's run, paused before its first call.
  const stepping = await openLesson(page, 'loop-step-through');
  await page.locator('.actions button.step').click();
  await stepping.locator('.lesson-walk .walk-text').waitFor({ timeout: 10_000 });
  // Another lesson, opened by its link in the same page: its Check must not
  // continue the paused get-time run and judge it.
  await page.evaluate(() => { location.hash = '#lesson=token-limit'; });
  const panel = page.locator('.lessons-panel');
  const field = panel.locator('#lesson-part-limits-max_total_tokens');
  await field.waitFor({ timeout: 10_000 });
  await field.fill('10000');
  await button(panel, 'Check').click();
  const verdict = panel.locator('.lesson-verdict');
  await verdict.waitFor({ timeout: 20_000 });
  const text = await verdict.innerText();
  assert(text.includes('Solved') && text.includes('token_limit'), `Check judged another run: ${text}`);
}, { ...ROOM, timeoutMs: 45_000 });
