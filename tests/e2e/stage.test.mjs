// The loop is the stage. At 1024 px and wider the page is a
// fixed-height workspace: the loop diagram large and always in view, the
// trace and the detail pane scrolling on their own. Checked in Chromium at
// 1440×900 and 1920×1080 (and 360×800 for a phone): after a run the lit
// exit and the outcome are in view with no scroll by the test; clicking a
// node keeps the diagram where it was while its event scrolls into view in
// the trace; the diagram's text measures at least 12 px (node names 14 px)
// and exit targets at least 24×24 px; zoom and pan.

import { join } from 'node:path';
import { artifacts, assert, button, env, pick, runBuiltin, test } from './lib.mjs';

const WIDE = [
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
];

/** Whether the element is wholly inside the window (nothing scrolled by the test). */
const inView = (locator) =>
  locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
  });

/** The page itself does not scroll: it is exactly the window's height. */
const pageScrolls = (page) =>
  page.evaluate(() => ({
    y: scrollY,
    extra: document.scrollingElement.scrollHeight - innerHeight,
    sideways: document.scrollingElement.scrollWidth - innerWidth,
  }));

/** Each drawn text of the main diagram: its class, what it says, and its
 *  size on screen (computed font size times the SVG's scale). */
const textSizes = (page) =>
  page.locator('.stage-loop .loop-wide svg').evaluate((svg) => {
    const scale = svg.getScreenCTM().a;
    return [...svg.querySelectorAll('text')]
      .filter((t) => t.textContent.trim() && t.getBBox().width > 0)
      .map((t) => ({
        cls: t.getAttribute('class') ?? t.parentElement.getAttribute('class'),
        exit: !!t.closest('.kind-exit'),
        text: t.textContent.trim(),
        px: parseFloat(getComputedStyle(t).fontSize) * scale,
      }));
  });

for (const viewport of WIDE) {
  const at = `${viewport.width}×${viewport.height}`;

  test(`stage: at ${at} after a run the lit exit, the outcome beside the diagram and in the header are all in view, the page never scrolled`, async ({ page }) => {
    const ended = await runBuiltin(page, 'turn-limit');
    assert(ended === 'turn_limit', `turn-limit ended ${ended}`);
    const exit = page.locator('.stage-loop .loop-wide .loop-node.reached');
    assert((await exit.getAttribute('data-node')) === 'exit-turn_limit', 'the lit exit is not turn_limit');
    assert(await inView(exit), `the lit exit is off screen at ${at}`);
    assert(await inView(page.locator('.stage-loop .loop-exit-reason')), `the outcome beside the diagram is off screen at ${at}`);
    assert(await inView(page.locator('.run-outcome .outcome')), `the header's outcome is off screen at ${at}`);
    assert(await inView(page.locator('.stage-loop .loop-wide svg')), `the diagram is not wholly in view at ${at}`);
    // The banner came into view by scrolling the trace's column alone.
    assert(await inView(page.locator('.stop-banner .stop-status')), `the banner's status is off screen at ${at}`);
    const scrolled = await pageScrolls(page);
    assert(scrolled.y === 0 && scrolled.extra <= 0 && scrolled.sideways <= 0, `the page scrolls: ${JSON.stringify(scrolled)}`);
    await page.screenshot({ path: join(artifacts, `stage-${at}-ended.png`) });
  }, { viewport, timeoutMs: 40_000 });

  test(`stage: at ${at} clicking a node scrolls the trace to its event and leaves the diagram and its Previous / Next in view`, async ({ page }) => {
    await runBuiltin(page, 'turn-limit');
    const trace = page.locator('.layout > .trace');
    // The trace scrolled to its end, as after a run: the first request is far above.
    await trace.evaluate((t) => { t.scrollTop = t.scrollHeight; });
    const svg = page.locator('.stage-loop .loop-wide svg');
    const before = await svg.boundingBox();
    await page.locator('.stage-loop .loop-wide [data-node="model-call"]').click();
    const shown = await page.waitForFunction(() => {
      const row = document.querySelector('.timeline [data-shown]');
      const column = document.querySelector('.layout > .trace').getBoundingClientRect();
      const r = row?.getBoundingClientRect();
      return r && r.top >= column.top && r.bottom <= column.bottom && row.dataset.kind === 'model_request';
    }, null, { timeout: 3_000 }).then(() => true).catch(() => false);
    assert(shown, 'the model-call node did not bring its first request into view in the trace');
    const after = await svg.boundingBox();
    assert(JSON.stringify(before) === JSON.stringify(after), `the diagram moved: ${JSON.stringify(before)} → ${JSON.stringify(after)}`);
    const passes = page.locator('.stage-loop .loop-passes');
    await button(passes, 'Next ▶').click();
    assert(await inView(button(passes, '◀ Previous')), 'Previous is off screen after Next');
    assert(await inView(svg), 'the diagram left the screen after Next');
    assert((await pageScrolls(page)).y === 0, 'the page scrolled');
  }, { viewport, timeoutMs: 40_000 });

  test(`stage: at ${at} the diagram's text is at least 12 px, node names 14 px, exit targets 24×24 px`, async ({ page }) => {
    await runBuiltin(page, 'refusal');
    const sizes = await textSizes(page);
    assert(sizes.length > 30, `only ${sizes.length} texts drawn`);
    const small = sizes.filter((t) => t.px < 12);
    assert(small.length === 0, `under 12 px: ${small.map((t) => `${t.text} ${t.px.toFixed(1)}`).join(', ')}`);
    const names = sizes.filter((t) => t.cls === 'loop-label' && !t.exit);
    assert(names.length >= 10, `${names.length} node names`);
    const smallNames = names.filter((t) => t.px < 14);
    assert(smallNames.length === 0, `node names under 14 px: ${smallNames.map((t) => `${t.text} ${t.px.toFixed(1)}`).join(', ')}`);
    const targets = await page.locator('.stage-loop .loop-wide').evaluate((w) =>
      [...w.querySelectorAll('.kind-exit rect, .loop-lesson circle')].map((el) => {
        const r = el.getBoundingClientRect();
        return { what: el.closest('[aria-label]').getAttribute('aria-label').slice(0, 40), w: r.width, h: r.height };
      }));
    assert(targets.length >= 20, `${targets.length} exit targets`);
    const tiny = targets.filter((t) => t.w < 24 || t.h < 24);
    assert(tiny.length === 0, `targets under 24×24: ${tiny.map((t) => `${t.what} ${t.w.toFixed(0)}×${t.h.toFixed(0)}`).join(', ')}`);
  }, { viewport, timeoutMs: 40_000 });
}

test('stage: the trace and the detail pane scroll on their own; the diagram stays put', async ({ page }) => {
  await runBuiltin(page, 'turn-limit');
  const where = () => page.evaluate(() => ({
    loop: document.querySelector('.stage-loop svg').getBoundingClientRect().top,
    trace: document.querySelector('.layout > .trace').scrollTop,
    detail: document.querySelector('.layout > .detail').scrollTop,
    page: scrollY,
  }));
  const before = await where();
  const scrollable = await page.evaluate(() => ['.trace', '.detail'].map((c) => {
    const el = document.querySelector(`.layout > ${c}`);
    return el.scrollHeight > el.clientHeight;
  }));
  assert(scrollable.every(Boolean), `columns that overflow: trace ${scrollable[0]}, detail ${scrollable[1]}`);
  await page.locator('.layout > .trace').hover();
  await page.mouse.wheel(0, -2000);
  await page.waitForFunction((top) => document.querySelector('.layout > .trace').scrollTop < top, before.trace);
  const traced = await where();
  assert(traced.loop === before.loop && traced.detail === before.detail && traced.page === 0, `scrolling the trace moved others: ${JSON.stringify([before, traced])}`);
  await page.locator('.layout > .detail').hover();
  await page.mouse.wheel(0, 600);
  await page.waitForFunction(() => document.querySelector('.layout > .detail').scrollTop > 0);
  const detailed = await where();
  assert(detailed.loop === before.loop && detailed.trace === traced.trace && detailed.page === 0, `scrolling the detail pane moved others: ${JSON.stringify([traced, detailed])}`);
}, { viewport: { width: 1440, height: 900 }, timeoutMs: 40_000 });

test('stage: an opened request takes the detail pane\'s top, beside the trace', async ({ page }) => {
  await runBuiltin(page, 'get-time');
  await page.locator('.timeline .inspect').first().click();
  const inspector = page.locator('.detail > .inspector[data-open]');
  await inspector.waitFor({ timeout: 3_000 });
  const [detail, box, trace] = await Promise.all([
    page.locator('.layout > .detail').boundingBox(), inspector.boundingBox(), page.locator('.layout > .trace').boundingBox()]);
  assert(Math.abs(box.y - detail.y) < 2, `the inspector starts ${box.y - detail.y} px below the pane's top`);
  assert(box.x >= trace.x - 1 && detail.y >= trace.y + trace.height - 1, 'the detail pane is not under the trace at 1440');
  assert(await inView(page.locator('.inspector-heading')), 'the inspector heading is off screen');
}, { viewport: { width: 1440, height: 900 } });

test('stage: zoom and pan the diagram with the buttons, the keys, Ctrl+wheel and a drag', async ({ page }) => {
  await runBuiltin(page, 'turn-limit');
  const svg = page.locator('.stage-loop .loop-wide svg');
  const box = () => svg.getAttribute('viewBox').then((v) => v.split(' ').map(Number));
  assert((await box()).join(' ') === '0 0 1120 640', `viewBox at first: ${await box()}`);
  await button(page, 'Zoom in').click();
  const zoomed = await box();
  assert(zoomed[2] === 896 && zoomed[3] === 512, `after Zoom in: ${zoomed}`);
  // Keys, with a node focused.
  await page.locator('.stage-loop .loop-wide [data-node="model-call"]').focus();
  await page.keyboard.press('+');
  assert(Math.abs((await box())[2] - 716.8) < 0.01, `after +: ${await box()}`);
  const [x0] = await box();
  await page.keyboard.press('ArrowLeft');
  assert((await box())[0] < x0, `ArrowLeft did not pan: ${x0} → ${(await box())[0]}`);
  await page.keyboard.press('0');
  assert((await box()).join(' ') === '0 0 1120 640', `0 did not show the whole loop: ${await box()}`);
  // Ctrl + wheel zooms around the pointer; a drag pans.
  const r = await svg.boundingBox();
  await page.mouse.move(r.x + r.width * 0.25, r.y + r.height / 2);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -300);
  await page.keyboard.up('Control');
  await page.waitForFunction(() => document.querySelector('.stage-loop .loop-wide svg').getAttribute('viewBox').split(' ')[2] < 1120);
  const wheeled = await box();
  await page.mouse.down();
  await page.mouse.move(r.x + r.width * 0.25 + 120, r.y + r.height / 2 + 40, { steps: 4 });
  await page.mouse.up();
  const dragged = await box();
  assert(dragged[0] < wheeled[0] && dragged[1] < wheeled[1], `a drag did not pan: ${wheeled} → ${dragged}`);
  await button(page, 'Whole loop').click();
  assert((await box()).join(' ') === '0 0 1120 640', 'Whole loop did not reset');
  assert((await pageScrolls(page)).y === 0, 'the page scrolled');
}, { viewport: { width: 1440, height: 900 }, timeoutMs: 40_000 });

test('stage: at 360×800 the page is one column, loop before trace, nothing scrolls sideways', async ({ page }) => {
  const ended = await runBuiltin(page, 'turn-limit');
  assert(ended === 'turn_limit', ended);
  const order = await page.evaluate(() => ['.stage-loop', '.layout > .trace', '.layout > .detail']
    .map((s) => document.querySelector(s).getBoundingClientRect().top));
  assert(order[0] < order[1] && order[1] < order[2], `column order: ${order}`);
  const current = page.locator('.loop-narrow [aria-current="step"]');
  assert((await current.getAttribute('aria-label')).startsWith('Exit turn_limit'), 'the narrow list does not mark the exit');
  const scrolled = await pageScrolls(page);
  assert(scrolled.sideways <= 0, `the page scrolls sideways by ${scrolled.sideways} px`);
}, { viewport: { width: 360, height: 800 }, timeoutMs: 40_000 });

test('stage: a scenario the picker marks ⇄ pair runs beside its counterpart from beside the picker', async ({ page }) => {
  await pick(page, 'repeated-call-naive');
  const run = page.locator('.picker').getByRole('button', { name: '⇄ Run the pair side by side' });
  await run.click();
  const summary = page.locator('section.compare .compare-summary');
  await summary.waitFor({ timeout: 20_000 });
  const text = await summary.innerText();
  assert(text.includes('naive: repeated-call-naive') && text.includes('fixed: repeated-call'), text);
  // It ran in the Compare mode, which it opened (a link the back button leaves).
  assert((await page.locator('main.layout').getAttribute('data-mode')) === 'compare', 'the pair did not open the Compare mode');
  assert(page.url().endsWith('#mode=compare'), `the address says ${page.url()}`);
  // The Compare panel is on screen (it then shows the pair's first
  // difference, as it does when run from the panel).
  const onScreen = await page.locator('section.compare').evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top < innerHeight && r.bottom > 0 && r.height > 0;
  });
  assert(onScreen, 'the Compare panel is not on screen');
  assert((await pageScrolls(page)).y === 0, 'the page scrolled');
}, { viewport: { width: 1440, height: 900 }, timeoutMs: 40_000 });

/** The width of the main diagram and its smallest node name, on screen. */
async function diagramSize(page) {
  const width = (await page.locator('.stage-loop .loop-wide svg').boundingBox()).width;
  const names = (await textSizes(page)).filter((t) => t.cls === 'loop-label' && !t.exit);
  return { width, name: Math.min(...names.map((t) => t.px)) };
}

test('stage: Present shows the loop at projector size beside the trace, from its button or its #present link, and the back button ends it', async ({ page }) => {
  const ended = await runBuiltin(page, 'turn-limit');
  assert(ended === 'turn_limit', ended);
  const normal = await diagramSize(page);
  const present = page.getByRole('button', { name: 'Present' });
  assert((await present.getAttribute('aria-pressed')) === 'false', 'Present is pressed before it was pressed');
  await present.click();
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-present'), null, { timeout: 3_000 });
  assert(page.url().endsWith('#present'), `the address says ${page.url()}`);
  assert((await present.getAttribute('aria-pressed')) === 'true', 'Present is not marked pressed');
  // Full screen is asked for; headless Chromium grants it to a click.
  const full = await page.waitForFunction(() => !!document.fullscreenElement, null, { timeout: 3_000 }).then(() => true).catch(() => false);
  assert(full, 'the page did not go full screen');
  const big = await diagramSize(page);
  assert(big.width >= normal.width * 1.2, `the diagram is ${big.width.toFixed(0)} px wide presented, ${normal.width.toFixed(0)} px in Run`);
  assert(big.name >= 18, `a node name measures ${big.name.toFixed(1)} px presented`);
  // What the class reads is in view, the rest is not shown.
  assert(await inView(page.locator('.stage-loop .loop-wide .loop-node.reached')), 'the lit exit is off screen');
  assert(await inView(page.locator('.stage-loop .loop-wide svg')), 'the diagram is not wholly in view');
  const [svgBox, traceBox] = await Promise.all([page.locator('.stage-loop .loop-wide svg').boundingBox(), page.locator('.layout > .trace').boundingBox()]);
  assert(traceBox.x >= svgBox.x + svgBox.width && traceBox.y < svgBox.y + svgBox.height, 'the trace is not beside the diagram');
  for (const hidden of ['.layout > .detail', 'nav.modes', 'section.scenario', '.layout > .trace > .history']) {
    assert(await page.locator(hidden).first().isHidden(), `${hidden} shows while presenting`);
  }
  assert((await pageScrolls(page)).y === 0, 'the page scrolled');
  await page.screenshot({ path: join(artifacts, 'stage-present-1920.png') });
  // A request opened from a card shows beside the trace, alone.
  await page.locator('.timeline .inspect').first().click();
  const inspector = page.locator('.detail > .inspector[data-open]');
  await inspector.waitFor({ state: 'visible', timeout: 3_000 });
  assert(await page.locator('section.scenario').isHidden(), 'the editor shows beside the opened request');
  // Pressed again: the Run mode with its panels, out of full screen.
  await present.click();
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-present') && !document.fullscreenElement, null, { timeout: 3_000 });
  assert(page.url().endsWith('#mode=run'), `the address says ${page.url()}`);
  assert(await page.locator('section.scenario').isVisible(), 'the editor did not come back');
  // Back goes to the presentation, and back again to the page as opened.
  await page.goBack();
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-present'), null, { timeout: 3_000 });
  await page.goBack();
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-present'), null, { timeout: 3_000 });
  assert((await page.locator('.stop-banner').getAttribute('data-status')) === 'turn_limit', 'the run left the trace');
}, { viewport: { width: 1920, height: 1080 }, timeoutMs: 40_000 });

test('stage: a #present link opens the page presented, and a run shows its exit and outcome in view', async ({ page }) => {
  await page.goto(`${env.baseUrl}#present`);
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-present'), null, { timeout: 10_000 });
  assert((await page.getByRole('button', { name: 'Present' }).getAttribute('aria-pressed')) === 'true', 'Present is not marked pressed');
  const ended = await runBuiltin(page, 'cost-limit-strict');
  assert(ended === 'cost_limit', ended);
  // Run goes to the Run mode, which is shown: the class still sees it presented.
  assert(await page.evaluate(() => document.documentElement.hasAttribute('data-present') && location.hash === '#present'),
    'pressing Run ended the presentation');
  assert(await inView(page.locator('.stage-loop .loop-wide .loop-node.reached')), 'the lit exit is off screen');
  assert(await inView(page.locator('.run-outcome .outcome')), "the header's outcome is off screen");
  // The banner comes into view as the run ends, by the trace's own scroll.
  const banner = await page.waitForFunction(() => {
    const r = document.querySelector('.stop-banner .stop-status').getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
  }, null, { timeout: 3_000 }).then(() => true).catch(() => false);
  assert(banner, "the banner's status is off screen");
  assert((await pageScrolls(page)).y === 0, 'the page scrolled');
}, { viewport: { width: 1440, height: 900 }, timeoutMs: 40_000 });

test('stage: at 360×800 "See the loop drawn" lays the drawn loop over the whole screen, zoomable, until closed', async ({ page }) => {
  const ended = await runBuiltin(page, 'turn-limit');
  assert(ended === 'turn_limit', ended);
  const panel = page.locator('.stage-loop .loop-panel');
  assert(await page.locator('.stage-loop .loop-wide svg').isHidden(), 'the drawing shows on a phone before it is asked for');
  await page.getByRole('button', { name: '⤢ See the loop drawn, full screen' }).click();
  await page.locator('.stage-loop .loop-panel[data-full]').waitFor({ timeout: 3_000 });
  const box = await panel.boundingBox();
  assert(box.x === 0 && box.y === 0 && box.width === 360 && box.height === 800, `the panel covers ${JSON.stringify(box)}`);
  const svg = page.locator('.stage-loop .loop-wide svg');
  assert(await svg.isVisible(), 'the drawing is not shown');
  assert((await svg.boundingBox()).width >= 320, 'the drawing is not the screen\'s width');
  assert(await page.locator('.stage-loop .loop-wide .loop-node.reached[data-node="exit-turn_limit"]').isVisible(), 'the lit exit is not drawn');
  assert(await page.locator('.stage-loop .loop-narrow').isHidden(), 'the list shows over the drawing');
  const full = await page.waitForFunction(() => !!document.fullscreenElement, null, { timeout: 3_000 }).then(() => true).catch(() => false);
  assert(full, 'the page did not go full screen');
  // Its zoom, for a drawing this small.
  await button(page, 'Zoom in').click();
  assert((await svg.getAttribute('viewBox')) !== '0 0 1120 640', 'Zoom in did nothing');
  await page.screenshot({ path: join(artifacts, 'stage-phone-drawn.png') });
  await button(page, 'Close the drawn loop').click();
  await page.waitForFunction(() => !document.querySelector('.stage-loop .loop-panel[data-full]') && !document.fullscreenElement, null, { timeout: 3_000 });
  assert(await page.locator('.stage-loop .loop-narrow').isVisible(), 'the list did not come back');
  // Esc closes it too.
  await page.getByRole('button', { name: '⤢ See the loop drawn, full screen' }).click();
  await page.locator('.stage-loop .loop-panel[data-full]').waitFor({ timeout: 3_000 });
  await button(page, 'Close the drawn loop').focus();
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('.stage-loop .loop-panel[data-full]'), null, { timeout: 3_000 });
  assert((await pageScrolls(page)).sideways <= 0, 'the page scrolls sideways');
}, { viewport: { width: 360, height: 800 }, timeoutMs: 40_000 });
