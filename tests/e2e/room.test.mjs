// Room for what is opened, and a header that does not move. Checked in
// Chromium at 1366×768 and 1440×900: a request opened from a card has at
// least half the page, its request and response read without sideways
// scrolling and, at 1440, side by side; the loop folds to where the run is
// (or, kept whole by the person, stays readable) and that choice outlives a
// reload; the header keeps its height and each counter its place idle,
// waiting, paused, finished and with an Undo offered; a long outcome reads
// whole on focus; axe finds nothing with the inspector open.

import { createRequire } from 'node:module';
import {
  assert, bannerStatus, button, inspect, pick, refundUntilApproval, runBuiltin, test, untilBanner,
} from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
];

/** The header's height and each counter's left edge, as drawn now. */
const headerPlaces = (page) =>
  page.evaluate(() => ({
    height: document.querySelector('.page-header').getBoundingClientRect().height,
    counters: Object.fromEntries(
      [...document.querySelectorAll('.counter')].map((c) => [c.dataset.counter, c.getBoundingClientRect().left]),
    ),
  }));

/** Whether two header measures agree within 2 px; the first difference if not. */
function moved(first, now) {
  if (Math.abs(first.height - now.height) > 2) return `height ${first.height} → ${now.height}`;
  for (const [name, left] of Object.entries(first.counters)) {
    if (Math.abs(left - now.counters[name]) > 2) return `the ${name} counter ${left} → ${now.counters[name]}`;
  }
  return null;
}

/** The smallest drawn text of the stage's loop, in CSS px on screen. */
const smallestLoopText = (page) =>
  page.locator('.stage-loop .loop-wide svg').evaluate((svg) => {
    const sizes = [...svg.querySelectorAll('text')]
      .filter((t) => t.textContent.trim() && t.getBoundingClientRect().width > 0)
      .map((t) => parseFloat(getComputedStyle(t).fontSize) * svg.getScreenCTM().a);
    return sizes.length ? Math.min(...sizes) : 0;
  });

async function axeViolations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

for (const viewport of SIZES) {
  const at = `${viewport.width}×${viewport.height}`;

  test(`room: at ${at} a request opened from a card has half the page, reads without sideways scrolling, and side by side where wide`, async ({ page }) => {
    assert((await runBuiltin(page, 'turn-limit')) === 'turn_limit', 'turn-limit did not end turn_limit');
    const panel = await inspect(page, 1);
    const width = await panel.evaluate((el) => el.getBoundingClientRect().width);
    assert(width >= viewport.width / 2, `the inspector is ${width} px wide of ${viewport.width}`);
    // The tabs stay on one line.
    for (const list of ['.inspector-views', '.wire-tabs']) {
      const tops = await panel.locator(`${list} [role="tab"]`).evaluateAll((tabs) => tabs.map((t) => t.getBoundingClientRect().top));
      assert(new Set(tops).size === 1, `the ${list} tabs wrap onto ${new Set(tops).size} lines`);
    }
    await panel.getByRole('tab', { name: 'Side by side' }).click();
    const request = panel.locator('.wire-side[data-side="request"]');
    const response = panel.locator('.wire-side[data-side="response"]');
    await response.locator('pre.wire-json').first().waitFor({ timeout: 5_000 });
    assert((await request.innerText()).includes('"messages"'), 'the request body is not shown');
    assert((await response.innerText()).includes('tool_use'), 'the response is not shown');
    for (const block of await panel.locator('pre.wire-json').all()) {
      const { scroll, client } = await block.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      assert(scroll <= client, `a body scrolls sideways: ${scroll} > ${client}`);
    }
    const [req, res] = [await request.boundingBox(), await response.boundingBox()];
    if (viewport.width >= 1440) {
      assert(Math.abs(req.y - res.y) <= 1 && res.x > req.x + req.width / 2, `request ${JSON.stringify(req)} and response ${JSON.stringify(res)} are not side by side`);
    }
    assert(res.x + res.width <= viewport.width && req.x >= 0, 'a side is off the page');
  }, { viewport });

  test(`room: at ${at} the loop folds beside an open request, comes back whole and readable with one button, and the choice outlives a reload`, async ({ page }) => {
    await runBuiltin(page, 'turn-limit');
    await inspect(page, 1);
    // Folded: where the run is, in words, with the button to bring it back.
    const show = button(page, 'Show the whole loop');
    await show.waitFor({ timeout: 5_000 });
    assert(await page.locator('.stage-loop .loop-wide svg').isHidden(), 'the drawn loop is still drawn beside the open request');
    const caption = await page.locator('.stage-loop .loop-caption').innerText();
    assert(caption.includes('turn_limit'), `the folded loop does not say where the run ended: ${caption}`);
    await show.click();
    await page.locator('.stage-loop .loop-wide svg').waitFor({ timeout: 5_000 });
    // Whole again, as large as without the inspector: at 900 px tall its
    // text reads at 11 px or more (768 px leaves the drawing less height).
    const smallest = await smallestLoopText(page);
    assert(smallest >= (viewport.height >= 900 ? 11 : 9), `the loop's smallest text is ${smallest.toFixed(1)} px`);
    await button(page, 'Fold the loop').waitFor();
    // Kept whole after a reload, the next time a request is opened.
    await page.reload();
    await page.locator('#scenario-picker').waitFor();
    await runBuiltin(page, 'turn-limit');
    await inspect(page, 1);
    await button(page, 'Fold the loop').waitFor({ timeout: 5_000 });
    assert(await page.locator('.stage-loop .loop-wide svg').isVisible(), 'the loop kept whole was folded after a reload');
    assert((await smallestLoopText(page)) >= smallest - 0.1, 'the loop kept whole is drawn smaller after a reload');
    // Closing the inspector gives the loop back its room: no fold button.
    await page.locator('.inspector-close').click();
    assert((await page.locator('.loop-fold').count()) === 0, 'the fold button stays with nothing open');
  }, { viewport });

  test(`room: at ${at} the header keeps its height and each counter its place idle, waiting, paused, finished and with an Undo offered`, async ({ page }) => {
    await page.locator('.counters').waitFor();
    const idle = await headerPlaces(page);
    const check = async (state) => {
      const why = moved(idle, await headerPlaces(page));
      assert(!why, `${state}: ${why}`);
    };
    await refundUntilApproval(page);
    await check('waiting for approval');
    await button(page, 'Stop').click();
    await bannerStatus(page);
    await pick(page, 'turn-limit');
    await button(page, 'Step').click();
    await page.locator('.run-state', { hasText: 'Paused' }).waitFor({ timeout: 5_000 });
    await page.locator('.clock-held').waitFor({ timeout: 5_000 });
    await check('paused');
    await button(page, 'Continue').click();
    assert((await untilBanner(page)) === 'turn_limit', 'the stepped run did not end turn_limit');
    await check('finished');
    // An Undo offered for a pick over edits: a notice under the header.
    await page.locator('#scenario-json').fill(JSON.stringify({ name: 'mine', task: 'x', script: [] }, null, 2));
    await pick(page, 'turn-limit');
    const undo = page.locator('.undo-pick');
    await undo.waitFor({ timeout: 5_000 });
    await check('with Undo offered');
    const header = await page.locator('.page-header').boundingBox();
    const offer = await undo.boundingBox();
    assert(offer.y >= header.y + header.height, 'the Undo offer is inside the header');
  }, { viewport, timeoutMs: 45_000 });

  test(`room: at ${at} a long outcome reads whole on focus without moving the header`, async ({ page }) => {
    await runBuiltin(page, 'turn-limit');
    const outcome = page.locator('.run-outcome .outcome');
    const before = await headerPlaces(page);
    const full = await outcome.textContent();
    assert(full.includes('still wanted to continue'), `the outcome: ${full}`);
    await outcome.focus();
    const shown = await outcome.evaluate((el) => ({
      cut: el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight,
      visible: el.getBoundingClientRect().height > 0,
    }));
    assert(shown.visible && !shown.cut, 'the focused outcome is still cut');
    const why = moved(before, await headerPlaces(page));
    assert(!why, `focusing the outcome moved the header: ${why}`);
  }, { viewport });
}

test('room: axe finds nothing with a request open side by side and the loop folded, nor with the Undo notice', async ({ page }) => {
  await runBuiltin(page, 'turn-limit');
  const panel = await inspect(page, 1);
  await panel.getByRole('tab', { name: 'Side by side' }).click();
  await panel.locator('.wire-side[data-side="response"] pre').first().waitFor({ timeout: 5_000 });
  const open = await axeViolations(page);
  assert(open.length === 0, `with the inspector open:\n${open.join('\n')}`);
  await page.locator('#scenario-json').fill(JSON.stringify({ name: 'mine', task: 'x', script: [] }, null, 2));
  await pick(page, 'turn-limit');
  await page.locator('.undo-notice').waitFor({ timeout: 5_000 });
  const offered = await axeViolations(page);
  assert(offered.length === 0, `with the Undo notice:\n${offered.join('\n')}`);
}, { viewport: { width: 1440, height: 900 }, bypassCSP: true, timeoutMs: 60_000 });
