// Time, and the loop on a phone. The Time view beside the trace draws the
// run as a waterfall: the deadline as a line labelled with its value, a
// call the deadline cut ending at that line and saying so, each row linked
// both ways with the trace and the loop, a long run drawn a window at a
// time, and axe finding nothing with it open. On a phone the loop drawn
// full screen fills the screen's height with readable text and brings
// where the run is to the middle; a cut-off share link's message is in view.

import { createRequire } from 'node:module';
import { join } from 'node:path';
import { artifacts, assert, button, env, loadScenario, runBuiltin, test } from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Opens the Time view and waits until its rows are drawn. */
async function openTime(page) {
  await button(page, 'Time view').click();
  await page.locator('.waterfall .wf-row').first().waitFor({ timeout: 10_000 });
  return page.locator('.waterfall');
}

test('waterfall: at 360×800 the loop drawn full screen fills the height, its smallest text is 12 px or more, and where the run is sits mid-screen', async ({ page }) => {
  const ended = await runBuiltin(page, 'turn-limit');
  assert(ended === 'turn_limit', ended);
  await page.getByRole('button', { name: '⤢ See the loop drawn, full screen' }).click();
  await page.locator('.stage-loop .loop-panel[data-full]').waitFor({ timeout: 3_000 });
  const node = page.locator('.stage-loop .loop-wide [data-node="exit-turn_limit"]');
  // Laid out by its stylesheet, then scrolled: wait until the exit the run
  // ended at is in the screen's middle third, side to side.
  const centred = await page
    .waitForFunction(() => {
      const el = document.querySelector('.stage-loop .loop-wide [data-node="exit-turn_limit"]');
      const box = el?.getBoundingClientRect();
      if (!box) return false;
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      return x > innerWidth / 3 && x < (innerWidth * 2) / 3 && y > 0 && y < innerHeight;
    }, null, { timeout: 5_000 })
    .then(() => true)
    .catch(() => false);
  const box = await node.boundingBox();
  assert(centred, `the exit the run ended at is not mid-screen: ${JSON.stringify(box)}`);
  const sizes = await page.evaluate(() => {
    const svg = document.querySelector('.stage-loop .loop-wide svg');
    const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() && t.getBBox().width > 0);
    const rendered = texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
    const rect = svg.getBoundingClientRect();
    return { smallest: Math.min(...rendered), count: texts.length, height: rect.height, width: rect.width };
  });
  assert(sizes.count > 20, `only ${sizes.count} texts in the drawing`);
  assert(sizes.smallest >= 12, `the smallest text is drawn at ${sizes.smallest.toFixed(1)} px`);
  assert(sizes.height >= 600 && sizes.height <= 800, `the drawing is ${sizes.height} px tall on an 800 px screen`);
  await page.screenshot({ path: join(artifacts, 'waterfall-phone-loop.png') });
}, { viewport: { width: 360, height: 800 }, timeoutMs: 40_000 });

test('waterfall: at 360×800 a cut-off share link says so where it can be read', async ({ page }) => {
  const text = JSON.stringify({ name: 'Cut', task: 'x', tools: [], model: { type: 'scripted', responses: [{ text: 'hi' }] } }, null, 2);
  const whole = `${env.baseUrl}#s=${Buffer.from(text, 'utf8').toString('base64url')}`;
  const context = await env.browser.newContext({ viewport: { width: 360, height: 800 } });
  try {
    const fresh = await context.newPage();
    await fresh.goto(whole.slice(0, whole.length - 12));
    const arrival = fresh.locator('.arrival', { hasText: 'the link is cut off' });
    await arrival.waitFor({ timeout: 5_000 });
    // The loop and the trace arrive above it after the page paints.
    await fresh.locator('.loop-panel').waitFor({ timeout: 10_000 });
    const inView = await fresh
      .waitForFunction(() => {
        const box = document.querySelector('.arrival').getBoundingClientRect();
        // Within a pixel: scrolled to the screen's edge, it may end a fraction past it.
        return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight + 1;
      }, null, { timeout: 3_000 })
      .then(() => true)
      .catch(() => false);
    const box = await arrival.boundingBox();
    assert(inView, `the message is off screen: ${JSON.stringify(box)}`);
    await fresh.waitForTimeout(500);
    const still = await arrival.boundingBox();
    assert(still.y >= 0 && still.y + still.height <= 801, `the message moved off screen: ${JSON.stringify(still)}`);
  } finally {
    await context.close();
  }
}, { timeoutMs: 30_000 });

test('waterfall: a deadline run shows its deadline line and the hung call cut at it, in words', async ({ page }) => {
  const ended = await runBuiltin(page, 'deadline-interrupts-tool');
  assert(ended === 'deadline', ended);
  const time = await openTime(page);
  const label = await time.locator('.wf-deadline-label').innerText();
  assert(label === 'deadline 1.50 s', `the deadline's label: ${label}`);
  const cut = time.locator('.wf-row[data-kind="tool"][data-cut]');
  const words = await cut.innerText();
  assert(/^tool slow_lookup · 1\.\d\d s, cut off at the deadline$/.test(words), `the cut call says: ${words}`);
  const ends = await cut.evaluate((row) => ({
    bar: row.querySelector('.wf-bar').getBoundingClientRect().right,
    line: row.querySelector('.wf-deadline').getBoundingClientRect().left,
  }));
  assert(Math.abs(ends.bar - ends.line) <= 3, `the cut bar ends at ${ends.bar}, the deadline is at ${ends.line}`);
  const model = await time.locator('.wf-row[data-kind="model"]').allInnerTexts();
  assert(model.length === 1 && model[0].startsWith('model call 1 (turn 1) · '), `model rows: ${model.join(' | ')}`);
  await page.screenshot({ path: join(artifacts, 'waterfall-deadline.png') });
}, { viewport: { width: 1440, height: 900 }, timeoutMs: 30_000 });

test('waterfall: picking a bar shows its card and lights its node; picking a trace row marks its bar', async ({ page }) => {
  assert((await runBuiltin(page, 'deadline-interrupts-tool')) === 'deadline', 'the run did not end deadline');
  const time = await openTime(page);
  assert((await page.locator('.loop-wide .loop-node.highlighted').count()) === 0, 'a node is lit before any pick');
  const tool = time.locator('.wf-row[data-kind="tool"]');
  const seq = await tool.getAttribute('data-seq');
  // By keyboard: Down from the model call's row reaches the tool's, Enter picks it.
  await time.locator('.wf-row[data-kind="model"] button').focus();
  await page.keyboard.press('ArrowDown');
  const focused = await page.evaluate(() => document.activeElement.closest('.wf-row')?.dataset.kind);
  assert(focused === 'tool', `Down moved focus to ${focused}`);
  await page.keyboard.press('Enter');
  const shown = page.locator('.timeline [data-shown]');
  await shown.waitFor({ timeout: 3_000 });
  assert((await shown.getAttribute('data-seq')) === seq, `the trace shows event ${await shown.getAttribute('data-seq')}, the bar is event ${seq}`);
  await page.locator('.loop-wide .loop-node.highlighted').waitFor({ timeout: 3_000 });
  assert((await tool.locator('button').getAttribute('aria-current')) === 'true', 'the picked bar is not marked');
  // The other way: a trace row picked marks the bar it belongs to.
  await page.locator('.timeline .event[data-kind="model_response"] .event-title').first().click();
  const model = time.locator('.wf-row[data-kind="model"] button');
  await page.waitForFunction(() => document.querySelector('.wf-row[data-kind="model"] button')?.getAttribute('aria-current') === 'true', null, { timeout: 3_000 });
  assert((await tool.locator('button').getAttribute('aria-current')) === null, 'the tool bar stays marked');
  assert((await model.innerText()).startsWith('model call 1'), 'the marked bar is not the model call');
}, { viewport: { width: 1440, height: 900 }, timeoutMs: 30_000 });

test('waterfall: a 10,000-turn run draws a window of its rows, and scrolling reaches the last', async ({ page }) => {
  await loadScenario(page, {
    name: 'Endless 10000',
    task: 'Keep going.',
    tools: [{ name: 'noop', description: 'Does nothing.', input_schema: { type: 'object' }, result: { ok: true } }],
    limits: { max_turns: 10_000 },
    model: { type: 'scripted', responses: [{ tool_calls: [{ name: 'noop', args: {} }] }], loop_from: 0 },
  });
  await button(page, 'Run').click();
  await page.locator('.stop-banner').waitFor({ timeout: 60_000 });
  const time = await openTime(page);
  const drawn = await time.locator('.wf-row').count();
  assert(drawn > 5 && drawn <= 40, `${drawn} rows drawn`);
  await time.locator('.wf-scroll').evaluate((box) => {
    box.scrollTop = box.scrollHeight;
  });
  await time.locator('.wf-row', { hasText: 'model call 10000 (turn 10000)' }).waitFor({ timeout: 5_000 });
  const after = await time.locator('.wf-row').count();
  assert(after <= 40, `${after} rows drawn at the end`);
}, { viewport: { width: 1440, height: 900 }, timeoutMs: 90_000 });

for (const [colorScheme, viewport] of [['light', { width: 1440, height: 900 }], ['dark', { width: 360, height: 800 }]]) {
  test(`waterfall: axe finds nothing with the Time view open, ${colorScheme}, ${viewport.width}×${viewport.height}`, async ({ page }) => {
    assert((await runBuiltin(page, 'deadline-interrupts-tool')) === 'deadline', 'the run did not end deadline');
    await openTime(page);
    await page.addScriptTag({ path: AXE });
    const found = await page.evaluate(async () => {
      const result = await window.axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
    });
    assert(found.length === 0, found.join('\n'));
  }, { viewport, colorScheme, bypassCSP: true, timeoutMs: 60_000 });
}
