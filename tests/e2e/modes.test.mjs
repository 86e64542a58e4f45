// Modes instead of one long scroll. Run is the whole stage; each
// other mode shows one group of panels at full size. Every mode opens from
// its link (`#mode=…`, also on a fresh load), the header's switch marks
// the open one, the back button moves between modes, and a mode's panels
// keep their state while another mode is open.

import { assert, env, runBuiltin, test } from './lib.mjs';

// What each mode shows, and what it must not.
const MODES = [
  { key: 'run', label: 'Run', shows: ['.stage-loop .loop-panel', '.layout > .trace .trace-heading', 'section.scenario'], hides: ['section.compare', '.tool-bench', '.layout > .trace .history'] },
  { key: 'compare', label: 'Compare', shows: ['section.compare'], hides: ['.stage-loop', '.layout > .trace', 'section.scenario'] },
  { key: 'scenario', label: 'Scenario', shows: ['section.scenario', '#scenario-json', '.tool-bench'], hides: ['.stage-loop', '.layout > .trace', 'section.compare'] },
  { key: 'history', label: 'History', shows: ['.layout > .trace .history'], hides: ['.stage-loop', '.layout > .trace .trace-heading', 'section.scenario', 'section.compare'] },
  { key: 'files', label: 'Import/Export', shows: ['.run-files', '.run-paste'], hides: ['.stage-loop', '.layout > .trace .history', 'section.scenario', 'section.compare'] },
];

async function checkMode(page, mode, how) {
  const link = page.locator('nav.modes a', { hasText: mode.label });
  await page.locator(`main.layout[data-mode="${mode.key}"]`).waitFor({ timeout: 3_000 })
    .catch(() => { throw new Error(`${how}: the page is not in mode ${mode.key}`); });
  assert((await link.getAttribute('aria-current')) === 'page', `${how}: the switch does not mark ${mode.label}`);
  for (const selector of mode.shows) {
    await page.locator(selector).first().waitFor({ state: 'visible', timeout: 10_000 })
      .catch(() => { throw new Error(`${how}: ${mode.key} does not show ${selector}`); });
  }
  for (const selector of mode.hides) {
    assert(await page.locator(selector).first().isHidden(), `${how}: ${mode.key} shows ${selector}`);
  }
}

test('modes: every mode opens from its link, on a fresh load too, and the back button moves between modes', async ({ page }) => {
  await checkMode(page, MODES[0], 'at first');
  // The other modes' own panels are not drawn until their mode first opens.
  await page.locator('.timeline').waitFor({ state: 'attached', timeout: 10_000 });
  for (const panel of ['section.compare', '.tool-bench', '.history']) {
    assert((await page.locator(panel).count()) === 0, `${panel} is drawn before its mode opened`);
  }
  // Followed from the switch, each in turn.
  for (const mode of MODES.slice(1)) {
    await page.locator('nav.modes a', { hasText: mode.label }).click();
    await checkMode(page, mode, `after its link`);
    assert(page.url().endsWith(`#mode=${mode.key}`), `the address says ${page.url()}`);
  }
  // Back walks the modes in reverse, to Run where the page began.
  for (const mode of MODES.slice(0, -1).reverse()) {
    await page.goBack();
    await checkMode(page, mode, `back to ${mode.key}`);
  }
  await page.goForward();
  await checkMode(page, MODES[1], 'forward again');
  // A link opens its mode on a fresh load.
  for (const mode of MODES.slice(1)) {
    await page.goto(`${env.baseUrl}#mode=${mode.key}`);
    await page.reload();
    await page.locator('#scenario-picker').waitFor();
    await checkMode(page, mode, `a fresh load of #mode=${mode.key}`);
  }
}, { viewport: { width: 1440, height: 900 }, timeoutMs: 90_000 });

test('modes: a mode keeps its state while another is open; at 360 px nothing scrolls sideways', async ({ page }) => {
  const ended = await runBuiltin(page, 'turn-limit');
  assert(ended === 'turn_limit', ended);
  const cards = await page.locator('.timeline .event').count();
  await page.locator('nav.modes a', { hasText: 'Compare' }).click();
  await checkMode(page, MODES[1], 'Compare');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(width <= 360, `Compare at 360 px scrolls sideways: ${width} px wide`);
  await page.locator('nav.modes a', { hasText: 'Run' }).click();
  await checkMode(page, MODES[0], 'back in Run');
  assert((await page.locator('.stop-banner .stop-status').innerText()).includes('turn_limit'), 'the run\'s banner is gone');
  assert((await page.locator('.timeline .event').count()) === cards, 'the trace lost cards');
}, { viewport: { width: 360, height: 800 }, timeoutMs: 40_000 });
