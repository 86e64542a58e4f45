// The loop on screen. A run lights its exit on the loop diagram
// (the exit carries aria-current="step" and names its status), how it ended
// is on screen without scrolling at 1440×900 and at 360×800, and the counter
// whose limit stopped it is marked. In step mode the diagram names the call
// about to run.

import { join } from 'node:path';
import { artifacts, assert, bannerStatus, button, pick, runBuiltin, test } from './lib.mjs';

/** Where each status is taught, and the header counter its limit trips. */
const ENDINGS = [
  ['turn-limit', 'turn_limit', 'turn'],
  ['cost-limit-strict', 'cost_limit', 'cost'],
  ['cost-limit-naive', 'cost_limit', 'cost'],
  ['tool-call-limit', 'tool_call_limit', 'tool-calls'],
  ['repeated-call', 'repeated_call', null],
  ['deadline', 'deadline', 'elapsed'],
  ['blocked', 'blocked', null],
  ['failed-verification', 'failed_verification', null],
  ['refusal', 'refusal', null],
  ['model-error', 'model_error', null],
  ['press-stop', 'cancelled', null],
];

/** Runs built-in `id` to its end, approving any call the person is asked about
 *  (and pressing Stop where the lesson asks for it). */
const runToEnd = (page, id) => runBuiltin(page, id, { approve: true });

/** Whether the element is wholly inside the window, as the page is scrolled now. */
const inView = (locator) =>
  locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
  });

/** The element the diagram marks as where the run is, in the layout shown. */
async function currentOnLoop(page) {
  const current = page.locator('.loop-panel [aria-current="step"]').filter({ visible: true });
  await current.first().waitFor({ timeout: 5_000 });
  return current.first();
}

for (const [id, status, counter] of ENDINGS) {
  test(`loop: ${id} lights the ${status} exit, its status is on screen without scrolling, the tripped counter is marked`, async ({ page }) => {
    const ended = await runToEnd(page, id);
    assert(ended === status, `${id} ended ${ended}, not ${status}`);
    const current = await currentOnLoop(page);
    const name = await current.getAttribute('aria-label');
    assert(name.startsWith(`Exit ${status}`) && name.includes('the run ended here'), `aria-current names: ${name}`);
    // 1440×900: the header is sticky, so its outcome line is on screen.
    const outcome = page.locator('.run-outcome .outcome');
    assert((await outcome.getAttribute('data-status')) === status, 'the header does not say how the run ended');
    assert(await inView(outcome), 'the header outcome is off screen at 1440×900');
    const tone = await page.locator('.stop-banner').getAttribute('data-tone');
    assert(['guard', 'model', 'failure', 'person'].includes(tone), `banner tone ${tone}`);
    assert((await outcome.getAttribute('class')).includes(`tone-${tone}`), 'the header and the banner disagree on the tone');
    const tripped = await page.locator('.counter[data-tripped="true"]').evaluateAll((cs) => cs.map((c) => c.dataset.counter));
    if (counter) {
      assert(tripped.length === 1 && tripped[0] === counter, `tripped counters: ${tripped.join(', ')} (expected ${counter})`);
      const described = await page.locator(`.counter[data-counter="${counter}"]`).evaluate((c) => {
        const id = c.getAttribute('aria-describedby');
        return id ? document.getElementById(id)?.textContent : '';
      });
      assert(described.includes('stopped the run'), `the tripped counter's description: ${described}`);
    } else {
      assert(tripped.length === 0, `no limit stopped ${id}, yet ${tripped.join(', ')} is marked`);
    }
  }, { viewport: { width: 1440, height: 900 }, timeoutMs: 40_000 });
}

// On a phone the header scrolls away: the banner is brought into view.
for (const [id, status, counter] of ENDINGS) {
  test(`loop: at 360×800 ${id}'s status is on screen without scrolling when it ends, on the loop and the counter`, async ({ page }) => {
    const ended = await runToEnd(page, id);
    assert(ended === status, `${id} ended ${ended}, not ${status}`);
    // A turn the run ended in before its answer does not say it still waits.
    const waiting = await page.locator('.turn-stats', { hasText: 'waiting' }).count();
    assert(waiting === 0, `${id}: ${waiting} turns still say they wait for the model`);
    const banner = page.locator('.stop-banner');
    await page.waitForFunction(() => {
      const r = document.querySelector('.stop-banner').getBoundingClientRect();
      return r.top >= 0 && r.top < window.innerHeight;
    }, null, { timeout: 3_000 }).catch(() => {});
    assert(await inView(banner.locator('.stop-status')), `${id}: the banner's status is off screen at 360×800`);
    // The narrow loop (a list of gates and exits) names the exit too.
    const name = await (await currentOnLoop(page)).getAttribute('aria-label');
    assert(name.startsWith(`Exit ${status}`), `${id}: aria-current names ${name}`);
    const tripped = await page.locator('.counter[data-tripped="true"]').evaluateAll((cs) => cs.map((c) => c.dataset.counter));
    assert(JSON.stringify(tripped) === JSON.stringify(counter ? [counter] : []), `${id}: tripped counters ${tripped}`);
    if (id === 'turn-limit') await page.screenshot({ path: join(artifacts, 'loop-360-ended.png') });
  }, { viewport: { width: 360, height: 800 }, timeoutMs: 40_000 });
}

test('loop: Stop during a run lights `cancelled`', async ({ page }) => {
  await pick(page, 'turn-limit');
  await button(page, 'Step').click();
  await page.locator('.run-state', { hasText: 'Paused' }).waitFor({ timeout: 5_000 });
  await button(page, 'Stop').click();
  assert((await bannerStatus(page)) === 'cancelled', 'Stop did not cancel');
  const name = await (await currentOnLoop(page)).getAttribute('aria-label');
  assert(name.startsWith('Exit cancelled'), `aria-current names: ${name}`);
}, { viewport: { width: 1440, height: 900 } });

test('loop: in step mode, before a tool call, the diagram names the tool call next', async ({ page }) => {
  await pick(page, 'get-time');
  await button(page, 'Step').click();
  await page.locator('.run-state', { hasText: 'Paused before model call' }).waitFor({ timeout: 5_000 });
  await button(page, 'Step').click();
  await page.locator('.run-state', { hasText: 'Paused before tool call get_time' }).waitFor({ timeout: 5_000 });
  const name = await (await currentOnLoop(page)).getAttribute('aria-label');
  assert(name.includes('next: tool call get_time'), `the current node: ${name}`);
  await page.screenshot({ path: join(artifacts, 'loop-step-tool-call.png') });
}, { viewport: { width: 1440, height: 900 } });

test('loop: with reduced motion nothing on the diagram animates', async ({ page }) => {
  await runToEnd(page, 'turn-limit');
  const moving = await page.locator('.loop-panel *').evaluateAll((els) =>
    els.filter((el) => {
      const s = getComputedStyle(el);
      const anim = s.animationName !== 'none' && parseFloat(s.animationDuration) > 0;
      const trans = s.transitionDuration.split(',').some((d) => parseFloat(d) > 0);
      return anim || trans;
    }).length,
  );
  assert(moving === 0, `${moving} elements animate under prefers-reduced-motion`);
}, { viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });

test('loop: clicking a node brings the first trace event that passed it into view', async ({ page }) => {
  await runToEnd(page, 'turn-limit');
  const model = page.locator('.loop-wide [role="button"][aria-label^="Model call"]').first();
  // The node in the middle of the window (clear of the sticky header), as
  // a person scrolls to it; the run's first request is then far above.
  await model.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  // A click on the node itself (its box's centre can fall on an edge label
  // drawn over it, which a pointer click would hit instead).
  await model.dispatchEvent('click');
  assert((await model.getAttribute('class')).includes('highlighted'), 'the picked node is not marked');
  const seq = await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('.timeline .event[data-kind="model_request"]')];
    const r = rows[0]?.getBoundingClientRect();
    return r && r.top >= 0 && r.bottom <= window.innerHeight;
  }, null, { timeout: 3_000 }).then(() => true).catch(() => false);
  assert(seq, 'the first model request is not in view after clicking the model-call node');
}, { viewport: { width: 1440, height: 900 } });

test('loop: clicking an event in the trace outlines where it happened on the loop', async ({ page }) => {
  await runToEnd(page, 'get-time');
  const call = page.locator('.timeline .event[data-kind="tool_call"]').first();
  await call.locator('.event-title').click();
  const outlined = page.locator('.loop-wide .highlighted');
  await outlined.first().waitFor({ timeout: 3_000 });
  const names = await outlined.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
  assert(names.length === 1, `outlined: ${names.join(' | ')}`);
  // A tool_call event is where the call's arguments were checked.
  assert(/^Validate/.test(names[0]), `the tool call is outlined at: ${names[0]}`);
  assert(await inView(outlined.first()), 'the outlined node is off screen');
}, { viewport: { width: 1440, height: 900 } });

test('loop: clicking an edge steps through the trace events that went that way', async ({ page }) => {
  await runToEnd(page, 'turn-limit');
  // The edge the run took most often: the way back from a turn's results.
  const edges = await page.locator('.loop-wide g.loop-edge.lit').evaluateAll((gs) =>
    gs.map((g) => ({ key: g.dataset.edge, name: g.getAttribute('aria-label') })));
  const times = (e) => Number(/taken (\d+) time/.exec(e.name)?.[1] ?? 0);
  const busiest = edges.sort((a, b) => times(b) - times(a))[0];
  const n = times(busiest);
  assert(n > 1, `no edge was taken more than once: ${edges.map((e) => e.name).join(' | ')}`);
  const edge = page.locator(`.loop-wide g.loop-edge[data-edge="${busiest.key}"]`);
  assert((await edge.getAttribute('tabindex')) === '0', 'a lit edge cannot be reached by keyboard');
  await edge.dispatchEvent('click');
  const passes = page.locator('.loop-passes');
  await passes.waitFor({ timeout: 3_000 });
  assert((await passes.innerText()).includes(`passed ${n} times; the trace shows pass 1 of ${n}`), await passes.innerText());
  const marked = page.locator('.timeline [data-shown]');
  const shown = async () => {
    await page.waitForFunction(() => {
      const r = document.querySelector('.timeline [data-shown]')?.getBoundingClientRect();
      return r && r.top >= 0 && r.bottom <= window.innerHeight;
    }, null, { timeout: 3_000 }).catch(() => assert(false, 'the event the loop points at is not on screen'));
    assert((await marked.count()) === 1, `${await marked.count()} events marked`);
    return Number(await marked.getAttribute('data-seq'));
  };
  const first = await shown();
  assert(await passes.getByRole('button', { name: '◀ Previous' }).isDisabled(), 'Previous is enabled at the first pass');
  await passes.getByRole('button', { name: 'Next ▶' }).click();
  assert((await passes.innerText()).includes(`pass 2 of ${n}`), await passes.innerText());
  const second = await shown();
  assert(second > first, `the second pass (event ${second}) is not after the first (${first})`);
}, { viewport: { width: 1440, height: 900 } });

test('loop: the header does not move when the picked name changes length or a message appears', async ({ page }) => {
  const header = page.locator('header.page-header');
  const where = async () => ({
    height: (await header.boundingBox()).height,
    run: (await button(page, 'Run').boundingBox()).x,
    stop: (await button(page, 'Stop').boundingBox()).x,
  });
  await pick(page, 'get-time');
  const before = await where();
  const same = (now, what) =>
    assert(now.height === before.height && now.run === before.run && now.stop === before.stop,
      `${what}: header ${before.height}→${now.height} px, Run x ${before.run}→${now.run}, Stop x ${before.stop}→${now.stop}`);
  await pick(page, 'whitespace-searches-canonical');
  same(await where(), 'a long scenario name');
  // A message: Run is held, saying why, while the JSON does not parse.
  await page.locator('#scenario-json').fill('{"name": ');
  await page.locator('#run-blocker').filter({ hasText: /./ }).waitFor({ timeout: 5_000 });
  same(await where(), 'the Run blocker');
}, { viewport: { width: 1440, height: 900 } });
