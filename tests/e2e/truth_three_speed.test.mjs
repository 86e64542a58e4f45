// Long runs stay responsive: Stop during a fast endless run takes effect
// at once. A timing, measured in the page and printed; the bound asserted
// is wider than the goal (Stop within 200 ms on a loaded 2-core machine)
// so that a busier CI machine does not fail it, yet narrow enough to catch
// the cost that grew with the run's length.

import { assert, button, loadScenario, test } from './lib.mjs';

/** A scripted model that calls a trivial tool every turn until max_turns. */
function endless(maxTurns) {
  return {
    name: `Endless ${maxTurns}`,
    task: 'Keep going.',
    tools: [{ name: 'noop', description: 'Does nothing.', input_schema: { type: 'object' }, result: { ok: true } }],
    limits: { max_turns: maxTurns },
    model: { type: 'scripted', responses: [{ tool_calls: [{ name: 'noop', args: {} }] }], loop_from: 0 },
  };
}

/** Runs in the page: notes every main-thread task over 50 ms, the click on
 * Stop (the event's own time: when the browser took it, not when a busy
 * page got round to it) and when the stop banner appears. */
function watchRun() {
  window.__tasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__tasks.push({ start: entry.startTime, ms: entry.duration });
  }).observe({ type: 'longtask' });
  addEventListener(
    'click',
    (event) => {
      if (event.target.closest?.('button.stop')) window.__stopClickMs = event.timeStamp;
      if (event.target.closest?.('button.run')) window.__runClickMs = event.timeStamp;
    },
    true,
  );
  const trace = document.querySelector('section.trace');
  new MutationObserver(() => {
    if (window.__bannerMs === undefined && trace.querySelector(':scope > .stop-banner')) window.__bannerMs = performance.now();
  }).observe(trace, { childList: true });
}

const turnCounter = (page) => page.locator('.counter[data-counter="turn"] dd').innerText();

/** Stop must take effect within this, click to banner, on a loaded CI
 * machine (the goal is 200 ms). Before, it grew with the run: 2.6 s after
 * 50,000 turns. */
const STOP_WITHIN_MS = 1_000;
/** Stop is clicked once the endless run has taken this many turns. */
const STOP_AFTER_TURNS = 50_000;

test('Stop during a fast 1,000,000-turn run ends it within a second of the click, cancelled', async ({ page }) => {
  await loadScenario(page, endless(1_000_000));
  await page.locator('button.run:not([disabled])').waitFor();
  await page.evaluate(watchRun);
  // One mouse click where Stop sits, as a person clicks: no waiting for
  // the page to be idle first, as a locator's click would.
  const box = await button(page, 'Stop').boundingBox();
  await button(page, 'Run').click();
  await page.waitForFunction(
    (n) => parseInt(document.querySelector('.counter[data-counter="turn"] dd').textContent, 10) >= n,
    STOP_AFTER_TURNS,
    { timeout: 90_000, polling: 100 },
  );
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction(() => window.__bannerMs !== undefined, null, { timeout: 30_000 });
  const took = await page.evaluate(() => window.__bannerMs - window.__stopClickMs);
  const banner = page.locator('.stop-banner');
  const status = await banner.getAttribute('data-status');
  const turns = await turnCounter(page);
  console.log(`    (Stop after ${turns} turns: the banner ${Math.round(took)} ms after the click; goal 200 ms)`);
  assert(status === 'cancelled', `the run ended ${status}`);
  assert(took <= STOP_WITHIN_MS, `the stop banner came ${Math.round(took)} ms after the click`);
}, { timeoutMs: 150_000 });
