// axe-core (the npm package, run in the page) finds no
// accessibility violation on the stage, before and after a run, in the
// light and the dark theme, at 1440×900 and on a phone.

import { createRequire } from 'node:module';
import { assert, env, runBuiltin, test } from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe's violations in the page as it is now, one line each. */
async function violations(page) {
  // The page's Content-Security-Policy allows no injected script: the
  // context bypasses it (see the options below), for this check only.
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
  return found;
}

for (const colorScheme of ['light', 'dark']) {
  for (const viewport of [{ width: 1440, height: 900 }, { width: 360, height: 800 }]) {
    const at = `${viewport.width}×${viewport.height}`;
    test(`a11y: axe finds nothing on the stage at ${at}, ${colorScheme}, before and after a run`, async ({ page }) => {
      // Let the split modules (the diagram, the timeline, the panels) arrive.
      await page.locator('.loop-panel').waitFor({ timeout: 10_000 });
      await page.locator('.inspector').waitFor({ state: 'attached', timeout: 10_000 });
      const before = await violations(page);
      assert(before.length === 0, `before a run:\n${before.join('\n')}`);
      await runBuiltin(page, 'turn-limit');
      const after = await violations(page);
      assert(after.length === 0, `after a run:\n${after.join('\n')}`);
    }, { viewport, colorScheme, bypassCSP: true, timeoutMs: 60_000 });
  }
}

// The other modes (src/modes/state.rs), each opened from its link, with its
// own panel drawn (a mode's panels come when it first opens), before and
// after a run, and the presented page after it, in both themes.
const MODE_PANELS = { compare: 'section.compare', scenario: '.tool-bench', history: '.history', files: '.run-paste' };
for (const colorScheme of ['light', 'dark']) {
  test(`a11y: axe finds nothing in the Compare, Scenario, History and Import/Export modes, ${colorScheme}, before and after a run`, async ({ page }) => {
    for (const [mode, panel] of Object.entries(MODE_PANELS)) {
      await page.goto(`${env.baseUrl}#mode=${mode}`);
      await page.locator(`main[data-mode="${mode}"]`).waitFor({ timeout: 3_000 });
      await page.locator(panel).waitFor({ timeout: 10_000 });
      const found = await violations(page);
      assert(found.length === 0, `${mode}, before a run:\n${found.join('\n')}`);
    }
    await page.goto(`${env.baseUrl}#mode=run`);
    await runBuiltin(page, 'turn-limit');
    for (const [mode, panel] of Object.entries(MODE_PANELS)) {
      await page.goto(`${env.baseUrl}#mode=${mode}`);
      await page.locator(`main[data-mode="${mode}"]`).waitFor({ timeout: 3_000 });
      await page.locator(panel).waitFor({ timeout: 10_000 });
      const found = await violations(page);
      assert(found.length === 0, `${mode}, after a run:\n${found.join('\n')}`);
    }
    // Presented to a class, with the run in view.
    await page.goto(`${env.baseUrl}#present`);
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-present'), null, { timeout: 3_000 });
    const presented = await violations(page);
    assert(presented.length === 0, `presented, after a run:\n${presented.join('\n')}`);
  }, { viewport: { width: 1440, height: 900 }, colorScheme, bypassCSP: true, timeoutMs: 60_000 });
}
