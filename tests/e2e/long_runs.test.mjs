// Long runs: the timeline draws only the cards near the window,
// so a 10,000-turn run ends quickly and leaves a small page; a card far
// back is drawn when scrolled to, the card holding focus stays drawn for the
// keyboard, and the jumps to an event (the comparison's "Show step N in the
// Trace", the history's Open) draw their card first.

import { assert, button, loadScenario, openMode, test } from './lib.mjs';

/** The bound on the page's nodes, whatever the run's length. */
const MAX_NODES = 5_000;

/** A scripted model that calls a trivial tool every turn until max_turns. */
function endless(maxTurns, result = { ok: true }) {
  return {
    name: `Endless ${maxTurns}`,
    task: 'Keep going.',
    tools: [{ name: 'noop', description: 'Does nothing.', input_schema: { type: 'object' }, result }],
    limits: { max_turns: maxTurns },
    model: { type: 'scripted', responses: [{ tool_calls: [{ name: 'noop', args: {} }] }], loop_from: 0 },
  };
}

/** Every node in the page: elements, text and comments. */
function nodeCount(page) {
  return page.evaluate(() => {
    const walker = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
    let nodes = 1;
    while (walker.nextNode()) nodes += 1;
    return nodes;
  });
}

const drawnCards = (page) => page.locator('#run-timeline > [data-card]');
const turnCounter = (page) => page.locator('.counter[data-counter="turn"] dd').innerText();

/** Runs the scenario in the editor to its stop banner; returns its status. */
async function runToEnd(page, timeout = 30_000) {
  await button(page, 'Run').click();
  const banner = page.locator('.stop-banner');
  await banner.waitFor({ timeout });
  return banner.getAttribute('data-status');
}

/** The turn and text of the first turn card whose top is on screen, once
 * one is drawn there. */
async function cardOnScreen(page) {
  const handle = await page.waitForFunction(() => {
    const onScreen = [...document.querySelectorAll('#run-timeline > .turn-card')].find((card) => {
      const box = card.getBoundingClientRect();
      return box.top >= 0 && box.top < innerHeight - 50;
    });
    return onScreen ? { turn: Number(onScreen.dataset.turn), text: onScreen.innerText } : null;
  }, null, { timeout: 5_000 });
  return handle.jsonValue();
}

/** Scrolls what holds the timeline (the trace's own column on the wide
 * stage, the page on a phone) so the list's point `at` (0 its top, 1 its
 * bottom) comes to the middle of what shows, as dragging its scrollbar does. */
function scrollTimeline(page, at) {
  return page.evaluate((at) => {
    const list = document.getElementById('run-timeline').getBoundingClientRect();
    const column = document.getElementById('run-timeline').closest('.trace');
    const scroller = column && getComputedStyle(column).overflowY === 'auto' ? column : null;
    const shown = scroller ? scroller.getBoundingClientRect() : { top: 0, height: innerHeight };
    (scroller ?? window).scrollBy(0, list.top + list.height * at - (shown.top + shown.height / 2));
  }, at);
}

/** Whether `locator`'s element is inside the window. */
const onScreen = (locator) =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.bottom > 0 && box.top < innerHeight;
  });

test('a 10,000-turn run ends `turn_limit` with a small page, and a card far back can be scrolled to and read', async ({ page }) => {
  await loadScenario(page, endless(10_000));
  const started = Date.now();
  const status = await runToEnd(page);
  const took = Date.now() - started;
  assert(status === 'turn_limit', `expected turn_limit, got ${status}`);
  assert((await turnCounter(page)) === '10000 / 10000', `the turn counter says ${await turnCounter(page)}`);
  // A check of the whole history would hold the page as the banner is
  // painted: the banner says it was not run here, rather than freezing.
  const verdict = page.locator('.stop-banner .stop-verdict');
  await verdict.waitFor({ timeout: 5_000 });
  assert((await verdict.getAttribute('data-verdict')) === 'unchecked' && (await verdict.innerText()).includes('sent 10000 requests'), await verdict.innerText());
  const nodes = await nodeCount(page);
  const drawn = await drawnCards(page).count();
  console.log(`    (${took} ms for 10,000 turns; ${nodes} DOM nodes, ${drawn} cards drawn)`);
  assert(nodes <= MAX_NODES, `${nodes} DOM nodes after 10,000 turns`);
  assert(drawn < 60, `${drawn} cards drawn`);

  // The middle of the run, where dragging the trace's scrollbar half way down puts it.
  await scrollTimeline(page, 0.5);
  const { turn, text } = await cardOnScreen(page);
  assert(turn > 4_000 && turn < 6_000, `half way down the run shows turn ${turn}`);
  assert(text.includes(`Turn ${turn}`) && text.includes('Tool call noop') && text.includes('Result from noop'), `turn ${turn} reads: ${text}`);
  // It stays put while the cards around it are measured.
  await page.waitForTimeout(300);
  assert((await cardOnScreen(page)).turn === turn, 'the card on screen changed by itself');
  assert((await nodeCount(page)) <= MAX_NODES, 'scrolling added nodes without bound');

  // The very start and the very end are drawn when scrolled to as well.
  await page.evaluate(() => document.getElementById('run-timeline').scrollIntoView({ block: 'start' }));
  await page.locator('#run-timeline > .turn-card[data-turn="1"]').waitFor({ timeout: 5_000 });
  assert(await onScreen(page.locator('.timeline .event[data-kind="run_started"]')), 'the run start is not on screen');
  await scrollTimeline(page, 1);
  const finished = page.locator('.timeline .event[data-kind="run_finished"]');
  await finished.waitFor({ timeout: 5_000 });
  assert((await finished.innerText()).includes('Run finished: turn_limit'), 'the last card is not the run end');
  assert(await page.locator('#run-timeline > .turn-card[data-turn="10000"]').count() === 1, 'turn 10,000 is not drawn at the end');
}, { timeoutMs: 60_000 });

test('Tab goes card to card through a long run, and the card holding focus stays drawn when the page scrolls away', async ({ page }) => {
  // Each result is long enough to start collapsed behind "Show all".
  const long = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n');
  await loadScenario(page, endless(300, long));
  assert((await runToEnd(page)) === 'turn_limit', 'the run did not end turn_limit');
  // The run's end came into view as it ended: back to its start.
  await page.evaluate(() => document.getElementById('run-timeline').scrollIntoView({ block: 'start' }));
  const first = page.locator('#run-timeline > .turn-card[data-turn="1"] button.show-all');
  await first.focus({ timeout: 5_000 });
  const focusedTurn = () => page.evaluate(() => Number(document.activeElement.closest('[data-turn]')?.dataset.turn));
  const onShowAll = () => page.evaluate(() => document.activeElement.matches('button.show-all'));
  // Tab walks each card's controls in order (its calls' and results' id
  // chips, then its Show all) and on into the next card, never back.
  for (let turn = 2; turn <= 40; turn += 1) {
    let presses = 0;
    do {
      await page.keyboard.press('Tab');
      presses += 1;
      const now = await focusedTurn();
      assert(now === turn - 1 || now === turn, `Tab from turn ${turn - 1} went to turn ${now}`);
    } while (!(await onShowAll()) && presses < 10);
    assert((await focusedTurn()) === turn && (await onShowAll()), `Tab did not reach turn ${turn}'s Show all`);
  }
  assert(await onScreen(page.locator(':focus')), 'the focused button is off screen');
  // Scrolled far away (as with the scrollbar), the card with focus is kept.
  await scrollTimeline(page, 1);
  await page.locator('#run-timeline > .turn-card[data-turn="300"]').waitFor({ timeout: 5_000 });
  assert((await focusedTurn()) === 40, 'focus left turn 40 when the page scrolled away');
  await page.keyboard.press('Enter');
  const expanded = await page.locator('#run-timeline > .turn-card[data-turn="40"] button.show-all').getAttribute('aria-expanded');
  assert(expanded === 'true', 'Enter on the kept card\'s Show all did not expand it');
  assert(await page.locator('#run-timeline > .turn-card[data-turn="20"]').count() === 0, 'cards between were drawn');
});

test('history: opening a kept 1,000-turn run shows its first card, in view, and draws its last when scrolled to', async ({ page }) => {
  await loadScenario(page, endless(1_000));
  assert((await runToEnd(page)) === 'turn_limit', 'the long run did not end turn_limit');
  const entries = page.locator('.history-entry');
  await openMode(page, 'history');
  await page.waitForFunction(() => document.querySelectorAll('.history-entry').length === 1, null, { timeout: 10_000 });
  await openMode(page, 'run');
  await loadScenario(page, endless(2));
  assert((await runToEnd(page)) === 'turn_limit', 'the short run did not end turn_limit');
  // Open is pressed in the History mode, which shows the Trace once pressed.
  await openMode(page, 'history');
  await page.waitForFunction(() => document.querySelectorAll('.history-entry').length === 2, null, { timeout: 10_000 });
  await entries.nth(1).getByRole('button', { name: /^Open / }).click();
  const first = page.locator('#run-timeline > .turn-card[data-turn="1"]');
  await first.waitFor({ timeout: 5_000 });
  await page.waitForFunction(() => document.activeElement?.id === 'run-timeline', null, { timeout: 5_000 });
  assert(await onScreen(first), 'the opened run\'s first card is not in view');
  assert((await turnCounter(page)) === '1000 / 1000', `the turn counter says ${await turnCounter(page)}`);
  assert((await nodeCount(page)) <= MAX_NODES, 'the opened run filled the page');
  await scrollTimeline(page, 1);
  await page.locator('#run-timeline > .turn-card[data-turn="1000"]').waitFor({ timeout: 5_000 });
}, { timeoutMs: 60_000 });

test('compare: "Show step N in the Trace" draws the card of a step far back in the Trace and moves focus to it', async ({ page }) => {
  await loadScenario(page, endless(1_000));
  assert((await runToEnd(page)) === 'turn_limit', 'the parent run did not end turn_limit');
  // The fork runs under a tool that answers otherwise.
  await loadScenario(page, endless(1_000, { ok: false }));
  await openMode(page, 'compare');
  const compare = page.locator('section.compare');
  // 2,000 steps: the picker lists one turn's at a time.
  await compare.locator('#fork-turn').fill('900');
  await compare.locator('#fork-turn').press('Tab');
  const options = await compare.locator('#fork-point option').allInnerTexts();
  assert(options[0] === 'before turn 900' && options.length === 2, `turn 900's steps: ${JSON.stringify(options)}`);
  await compare.getByRole('button', { name: 'Fork and compare' }).click();
  const summary = compare.locator('.compare-summary');
  await summary.waitFor({ timeout: 30_000 });
  const step = Number((await summary.innerText()).match(/^The runs part at step (\d+)\./)?.[1]);
  assert(step > 0, `summary: ${await summary.innerText()}`);
  assert((await page.locator('#run-timeline > .turn-card[data-turn="900"]').count()) === 0, 'turn 900 was drawn before the jump');
  const show = compare.getByRole('button', { name: `Show step ${step} in the Trace` });
  // The step's event that differs: the one the Trace shows.
  const seq = await show.getAttribute('data-seq');
  await show.click();
  await page.waitForFunction(() => document.activeElement?.closest?.('#run-timeline .event'), null, { timeout: 5_000 });
  const row = page.locator('#run-timeline .event:focus');
  assert((await row.getAttribute('data-seq')) === seq, `focus is on event ${await row.getAttribute('data-seq')}, not ${seq}`);
  const cell = compare.locator(`tr.compare-row.divergence td[data-side="0"] .compare-event[data-seq="${seq}"]`);
  assert((await cell.count()) === 1, `event ${seq} is not in step ${step}'s cell`);
  assert((await row.getAttribute('data-kind')) === 'tool_result', `step ${step} is a ${await row.getAttribute('data-kind')}`);
  assert((await row.innerText()).includes('Result from noop'), await row.innerText());
  const turn = await row.evaluate((el) => el.closest('.turn-card').dataset.turn);
  assert(turn === '900', `the step is in turn ${turn}`);
  assert(await onScreen(row), 'the step is not in view');
}, { timeoutMs: 90_000 });

test('loop: after a 1,000-turn run, clicking the model-call node draws turn 1, far back, and brings its first request into view', async ({ page }) => {
  await loadScenario(page, endless(1_000));
  assert((await runToEnd(page)) === 'turn_limit', 'the run did not end turn_limit');
  // The run's end came into view as it ended: turn 1 is far above, not drawn.
  const first = page.locator('#run-timeline > .turn-card[data-turn="1"]');
  await first.waitFor({ state: 'detached', timeout: 5_000 });
  const model = page.locator('.loop-wide [role="button"][aria-label^="Model call"]').first();
  await model.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  // A click on the node itself (an edge label can be drawn over its centre).
  await model.dispatchEvent('click');
  const request = first.locator('.event[data-kind="model_request"]');
  await request.waitFor({ timeout: 5_000 });
  await page
    .waitForFunction(() => {
      const row = document.querySelector('#run-timeline > .turn-card[data-turn="1"] .event[data-kind="model_request"]');
      const box = row?.getBoundingClientRect();
      return box && box.top >= 0 && box.bottom <= innerHeight && document.activeElement === row;
    }, null, { timeout: 5_000 })
    .catch(async () => {
      const box = await request.boundingBox();
      throw new Error(`turn 1's request is not in view with focus: ${JSON.stringify(box)}`);
    });
  assert((await request.innerText()).includes('Request to the model'), await request.innerText());
  assert((await nodeCount(page)) <= MAX_NODES, 'the jump filled the page');
}, { viewport: { width: 1440, height: 900 }, timeoutMs: 60_000 });
