// Long runs stay responsive: Stop during a fast endless run takes effect
// at once, and no frame of a fast run holds the page for long: the
// timeline draws a few new cards a frame. The timings are measured in the
// page and printed; the bounds asserted are wider than the goals (Stop
// within 200 ms, no task over 50 ms) so that a busier CI machine does not
// fail them, yet narrow enough to catch a cost that grows with the run's
// length. The cards drawn per frame are counted, which timing does not sway.

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

/** The longest task a 10,000-turn run may hold the page for on a loaded
 * 2-core CI machine, where builds beside it stretch every task: 229 ms was
 * seen there at a load average of 7.7, where the same build's tasks stay
 * near 50 ms on a quieter one (the goal: none over 50 ms). Printed each
 * time; what this bound catches is a cost that grows with the run. */
const LONGEST_TASK_MS = 400;

/** The most turn cards the timeline draws anew in one frame
 * (`card_window::NEW_PER_FRAME`): about 2 ms each. */
const NEW_CARDS_PER_FRAME = 8;

test('a fast 20-turn run draws its cards a few a frame, not all in one, and ends with every card drawn', async ({ page }) => {
  await loadScenario(page, endless(20));
  await page.locator('button.run:not([disabled])').waitFor();
  await page.evaluate(watchRun);
  // The cards added to the list between two frames, frame by frame.
  await page.evaluate(() => {
    window.__added = 0;
    window.__perFrame = [];
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) if (node.matches?.('[data-card]')) window.__added += 1;
      }
    }).observe(document.getElementById('run-timeline'), { childList: true });
    const frame = () => {
      if (window.__added) window.__perFrame.push(window.__added);
      window.__added = 0;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  await button(page, 'Run').click();
  await page.waitForFunction(() => window.__bannerMs !== undefined, null, { timeout: 10_000 });
  // A short run is read whole: the start, 20 turns and the end, all drawn.
  const all = await page
    .waitForFunction(() => document.querySelectorAll('#run-timeline > [data-card]').length === 22, null, { timeout: 5_000 })
    .then(() => true, () => false);
  assert(all, `${await page.locator('#run-timeline > [data-card]').count()} cards drawn, not 22`);
  await page.waitForTimeout(200);
  const { perFrame, tasks, from } = await page.evaluate(() => ({ perFrame: window.__perFrame, tasks: window.__tasks, from: window.__runClickMs }));
  const longest = Math.max(0, ...tasks.filter((t) => t.start + t.ms >= from).map((t) => t.ms));
  console.log(`    (cards drawn per frame: ${perFrame.join(', ')}; longest main-thread task ${Math.round(longest)} ms)`);
  assert(Math.max(...perFrame) <= NEW_CARDS_PER_FRAME, `a frame drew ${Math.max(...perFrame)} cards: ${perFrame.join(', ')}`);
});

test('a 10,000-turn run holds the page for no long task: its longest is printed', async ({ page }) => {
  await loadScenario(page, endless(10_000));
  await page.locator('button.run:not([disabled])').waitFor();
  await page.evaluate(watchRun);
  await button(page, 'Run').click();
  await page.waitForFunction(() => window.__bannerMs !== undefined, null, { timeout: 60_000, polling: 250 });
  assert((await page.locator('.stop-banner').getAttribute('data-status')) === 'turn_limit', 'the run did not end turn_limit');
  // Long tasks are reported after they end; the run's end, kept in the
  // history, is part of the run.
  await page.waitForTimeout(1_000);
  const { tasks, from, to } = await page.evaluate(() => ({ tasks: window.__tasks, from: window.__runClickMs, to: window.__bannerMs }));
  const during = tasks.filter((t) => t.start + t.ms >= from);
  const longest = Math.max(0, ...during.map((t) => t.ms));
  // Each as "duration at start", from the click on Run (the banner came at `to`).
  const listed = during.map((t) => `${Math.round(t.ms)} ms at +${Math.round(t.start - from)}`).join(', ');
  console.log(
    `    (longest main-thread task ${Math.round(longest)} ms; ${during.length} over 50 ms${listed ? `: ${listed}` : ''}; ` +
      `banner at +${Math.round(to - from)}; goal none over 50 ms)`,
  );
  assert(longest <= LONGEST_TASK_MS, `a task held the page for ${Math.round(longest)} ms`);
}, { timeoutMs: 90_000 });
