// Room for calling a tool by hand and for a lesson, and the phone's drawn
// loop. Checked in Chromium: at 1366×768 and 1440×900 the tool bench and an
// open lesson each have at least half the page, the loop folded beside them
// to where the run is, with "Show the whole loop" to bring it back and the
// choice kept across a reload; at 360×800 the loop drawn full screen opens
// with where the run is mid-screen both ways, its zoom buttons never over
// its caption, full screen on the loop itself and turned to landscape where
// the device allows; and the Undo notice under the header leaves the loop's
// heading readable.

import { join } from 'node:path';

import { artifacts, assert, button, env, openMode, pick, runBuiltin, test } from './lib.mjs';

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
];
const PHONE = { width: 360, height: 800 };

/** `selector`'s first element's box in the window, or null when not drawn. */
const boxOf = (page, selector) =>
  page.evaluate((selector) => {
    const el = document.querySelector(selector);
    const r = el?.getBoundingClientRect();
    return r && r.width > 0 ? { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height } : null;
  }, selector);

const intersect = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** The smallest drawn text of the stage's loop, in CSS px on screen. */
const smallestLoopText = (page) =>
  page.locator('.stage-loop .loop-wide svg').evaluate((svg) => {
    const sizes = [...svg.querySelectorAll('text')]
      .filter((t) => t.textContent.trim() && t.getBoundingClientRect().width > 0)
      .map((t) => parseFloat(getComputedStyle(t).fontSize) * svg.getScreenCTM().a);
    return sizes.length ? Math.min(...sizes) : 0;
  });

/** Opens the Scenario mode's "Call a tool by hand" and returns it once its tools are listed. */
async function openBench(page) {
  await openMode(page, 'scenario');
  const bench = page.locator('details.tool-bench');
  await bench.locator('summary').click();
  await bench.getByLabel('Tool').waitFor({ timeout: 10_000 });
  return bench;
}

/** Elements of `scope` that scroll sideways: their selector-ish names. */
const sidewaysScrollers = (scope) =>
  scope.evaluate((root) => [root, ...root.querySelectorAll('*')]
    .filter((el) => el.getBoundingClientRect().width > 0 && el.scrollWidth > el.clientWidth + 1
      && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX) || (el.tagName === 'TEXTAREA' && el.scrollWidth > el.clientWidth + 1))
    .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${el.scrollWidth} > ${el.clientWidth}`));

for (const viewport of SIZES) {
  const at = `${viewport.width}×${viewport.height}`;

  test(`room two: at ${at} calling a tool by hand has half the page beside the folded loop, reads without sideways scrolling, and the loop kept whole outlives a reload`, async ({ page }) => {
    await pick(page, 'refund-policy');
    const bench = await openBench(page);
    const show = button(page, 'Show the whole loop');
    await show.waitFor({ timeout: 5_000 });
    const benchBox = await boxOf(page, 'details.tool-bench');
    assert(benchBox.width >= viewport.width / 2, `the tool bench is ${benchBox.width} px wide of ${viewport.width}`);
    // Folded beside it: the list of steps and exits, not the drawing.
    const loop = await boxOf(page, '.stage-loop');
    assert(loop && loop.right <= benchBox.left + 1, `the loop ${JSON.stringify(loop)} is not beside the bench ${JSON.stringify(benchBox)}`);
    assert(await page.locator('.stage-loop .loop-wide svg').isHidden(), 'the drawn loop is drawn whole beside the bench');
    assert(await page.locator('.stage-loop .loop-narrow').isVisible(), 'the folded loop does not list its steps');
    // Its form and its JSON read without sideways scrolling.
    await bench.locator('#bench-args').fill('{"order_id": "A1001", "note": "a longer note to be sure the box wraps rather than scrolls sideways at all"}');
    const scrolling = await sidewaysScrollers(bench);
    await page.screenshot({ path: join(artifacts, `room-two-bench-${viewport.width}.png`) });
    assert(scrolling.length === 0, `these scroll sideways: ${scrolling.join('; ')}`);
    // One button brings the loop back whole and readable.
    await show.click();
    await page.locator('.stage-loop .loop-wide svg').waitFor({ timeout: 5_000 });
    const smallest = await smallestLoopText(page);
    assert(smallest >= (viewport.height >= 900 ? 11 : 9), `the loop's smallest text is ${smallest.toFixed(1)} px`);
    await button(page, 'Fold the loop').waitFor();
    // Closed, the bench gives the room back: the Scenario mode as before.
    await bench.locator('summary').click();
    await page.waitForFunction(() => !document.querySelector('main.layout').hasAttribute('data-room'), null, { timeout: 3_000 });
    assert(await page.locator('.stage-loop').isHidden(), 'the loop stays in the Scenario mode with the bench closed');
    // Kept whole after a reload, the next time the bench is opened.
    await page.reload();
    await page.locator('#scenario-picker').waitFor();
    await pick(page, 'refund-policy');
    await openBench(page);
    await button(page, 'Fold the loop').waitFor({ timeout: 5_000 });
    assert(await page.locator('.stage-loop .loop-wide svg').isVisible(), 'the loop kept whole was folded after a reload');
  }, { viewport, timeoutMs: 45_000 });

  test(`room two: at ${at} an open lesson has half the page beside the folded loop, and one button shows the loop drawn`, async ({ page }) => {
    await page.goto(`${env.baseUrl}#lesson=token-limit`);
    await page.locator('.lessons-panel .lesson-goal').waitFor({ timeout: 15_000 });
    const show = button(page, 'Show the loop drawn');
    await show.waitFor({ timeout: 5_000 });
    const lesson = await boxOf(page, '.lessons-panel');
    assert(lesson.width >= viewport.width / 2, `the lesson's column is ${lesson.width} px wide of ${viewport.width}`);
    const loop = await boxOf(page, '.stage-loop');
    assert(loop && loop.right <= lesson.left + 1, `the loop ${JSON.stringify(loop)} is not beside the lesson ${JSON.stringify(lesson)}`);
    const caption = await page.locator('.stage-loop .loop-caption').innerText();
    assert(caption.trim().length > 0, 'the folded loop says nothing of where the run is');
    await show.click();
    await page.locator('.stage-loop .loop-wide svg').waitFor({ timeout: 5_000 });
    await button(page, 'Fold the loop').waitFor();
  }, { viewport, timeoutMs: 40_000 });
}

/** Opens the loop drawn full screen after a turn-limit run. */
async function openDrawnLoop(page) {
  assert((await runBuiltin(page, 'turn-limit')) === 'turn_limit', 'turn-limit did not end turn_limit');
  await button(page, '⤢ See the loop drawn, full screen').click();
  await page.locator('.stage-loop .loop-panel[data-full]').waitFor({ timeout: 3_000 });
}

test('room two: at 360×800 the loop drawn full screen opens with where the run is in the middle third both ways, its zoom buttons off its caption wherever it is scrolled', async ({ page }) => {
  await openDrawnLoop(page);
  const centred = await page
    .waitForFunction(() => {
      const box = document.querySelector('.stage-loop .loop-wide [data-node="exit-turn_limit"]')?.getBoundingClientRect();
      if (!box || box.width === 0) return false;
      const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
      return x > innerWidth / 3 && x < (innerWidth * 2) / 3 && y > innerHeight / 3 && y < (innerHeight * 2) / 3;
    }, null, { timeout: 5_000 })
    .then(() => true)
    .catch(() => false);
  const node = await boxOf(page, '.stage-loop .loop-wide [data-node="exit-turn_limit"]');
  assert(centred, `the exit the run ended at is not in the middle third of 360×800: ${JSON.stringify(node)}`);
  await page.screenshot({ path: join(artifacts, 'room-two-phone-loop.png') });
  // The zoom buttons never sit over the caption nor the legend: as opened,
  // and scrolled to each end both ways.
  const ends = [[0, 0], [1e6, 1e6], [0, 1e6], [1e6, 0]];
  for (const [x, y] of [[null, null], ...ends]) {
    if (x !== null) {
      await page.evaluate(([x, y]) => {
        for (const el of [document.querySelector('.loop-panel[data-full]'), ...document.querySelectorAll('.loop-panel[data-full] *')]) {
          el.scrollLeft = x;
          el.scrollTop = y;
        }
      }, [x, y]);
    }
    const zoom = await boxOf(page, '.loop-panel[data-full] .loop-zoom-controls');
    assert(zoom, 'no zoom buttons on the drawn loop');
    for (const part of ['.loop-caption', '.loop-legend']) {
      const box = await boxOf(page, `.loop-panel[data-full] ${part}`);
      assert(box && !intersect(zoom, box), `scrolled to ${x ?? 'as opened'},${y ?? ''}: the zoom buttons ${JSON.stringify(zoom)} cover the ${part} ${JSON.stringify(box)}`);
    }
  }
  // The drawing still scrolls: a node off screen can be brought in.
  const scrolls = await page.evaluate(() => [...document.querySelectorAll('.loop-panel[data-full], .loop-panel[data-full] *')]
    .some((el) => el.scrollWidth > el.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX)));
  assert(scrolls, 'the drawing cannot be scrolled sideways');
}, { viewport: PHONE, timeoutMs: 40_000 });

test('room two: at 360×800 the drawn loop goes full screen itself and asks for landscape, and gives both back on close', async ({ page }) => {
  // Headless Chromium cannot turn: a lock that records what it was asked.
  await page.addInitScript(() => {
    window.orientationAsked = [];
    ScreenOrientation.prototype.lock = function lock(to) {
      window.orientationAsked.push(`lock ${to}`);
      return Promise.resolve();
    };
    ScreenOrientation.prototype.unlock = function unlock() {
      window.orientationAsked.push('unlock');
    };
  });
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  await openDrawnLoop(page);
  const onLoop = await page
    .waitForFunction(() => document.fullscreenElement?.classList.contains('loop-panel'), null, { timeout: 3_000 })
    .then(() => true)
    .catch(() => false);
  const held = await page.evaluate(() => document.fullscreenElement?.tagName ?? 'nothing');
  assert(onLoop, `full screen is held by ${held}, not the drawn loop`);
  await page.waitForFunction(() => window.orientationAsked.includes('lock landscape'), null, { timeout: 3_000 }).catch(() => {});
  let asked = await page.evaluate(() => window.orientationAsked);
  assert(asked.includes('lock landscape'), `landscape was not asked for: ${JSON.stringify(asked)}`);
  await button(page, 'Close the drawn loop').click();
  await page.waitForFunction(() => !document.fullscreenElement && !document.querySelector('.loop-panel[data-full]'), null, { timeout: 3_000 });
  asked = await page.evaluate(() => window.orientationAsked);
  assert(asked.at(-1) === 'unlock', `the orientation was not given back: ${JSON.stringify(asked)}`);
}, { viewport: PHONE, timeoutMs: 40_000 });

test('room two: at 360×800 the drawn loop opens quietly where the device refuses landscape', async ({ page }) => {
  // Chromium on a desktop refuses the lock (NotSupportedError): nothing is said.
  await openDrawnLoop(page);
  await page.waitForFunction(() => !!document.fullscreenElement, null, { timeout: 3_000 });
  await page.waitForTimeout(300);
  await button(page, 'Close the drawn loop').click();
  await page.waitForFunction(() => !document.fullscreenElement, null, { timeout: 3_000 });
}, { viewport: PHONE, timeoutMs: 40_000 });

test('room two: at 360×800 the Undo notice under the header leaves the loop heading readable', async ({ page }) => {
  await page.locator('#scenario-json').fill(JSON.stringify({ name: 'mine', task: 'x', script: [] }, null, 2));
  await pick(page, 'turn-limit');
  await page.locator('.undo-pick').waitFor({ timeout: 5_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  const notice = await boxOf(page, '.undo-notice');
  await page.screenshot({ path: join(artifacts, 'room-two-phone-undo.png') });
  const heading = await boxOf(page, '.stage-loop .loop-heading');
  assert(notice && heading, `notice ${JSON.stringify(notice)}, heading ${JSON.stringify(heading)}`);
  assert(!intersect(notice, heading), `the Undo notice ${JSON.stringify(notice)} covers the loop heading ${JSON.stringify(heading)}`);
  // Nor its Undo button off screen.
  assert(notice.left >= 0 && notice.right <= PHONE.width, `the Undo notice is cut by the screen: ${JSON.stringify(notice)}`);
}, { viewport: PHONE });
