// The context window is a gate of the loop. A request
// that cannot fit stops at the Context gate (its exit carries
// aria-current="step", at 1440×900 and at 360×800), the gate shows the
// request's size against the window, a strategy's edit is a card of its own
// with the sizes before and after, the inspector says the request went out
// edited, and the form sets the window and the strategy.

import { assert, button, pick, runBuiltin, test } from './lib.mjs';

/** The element the diagram marks as where the run is, in the layout shown. */
async function currentOnLoop(page) {
  const current = page.locator('.loop-panel [aria-current="step"]').filter({ visible: true });
  await current.first().waitFor({ timeout: 5_000 });
  return current.first();
}

test('context: a request that cannot fit stops at the Context gate, which shows ≈8,303 / 8,000 and is tripped (1440×900)', async ({ page }) => {
  const status = await runBuiltin(page, 'context-limit');
  assert(status === 'context_limit', `context-limit ended ${status}`);
  const current = await currentOnLoop(page);
  const name = await current.getAttribute('aria-label');
  assert(name.startsWith('Exit context_limit') && name.includes('≈7,279 input tokens + 1,024 output'), `aria-current names: ${name}`);
  const gate = page.locator('.loop-wide [data-node="gate-context"]');
  const gateName = await gate.getAttribute('aria-label');
  assert(gateName === 'Context: ≈8,303 / 8,000, a gate, tripped: it stopped the run', `the gate says: ${gateName}`);
  // In text on the drawing, not only in its accessible name or a colour.
  const drawn = (await gate.locator('text').allTextContents()).map((t) => t.trim());
  assert(drawn.includes('Context') && drawn.includes('≈8,303') && drawn.includes('/ 8,000'), `drawn: ${drawn.join(' | ')}`);
  assert((await gate.getAttribute('class')).includes('tripped'), 'the gate is not marked tripped');
  const way = page.locator('.loop-wide [data-edge="gate-context>exit-context_limit"]');
  assert((await way.getAttribute('class')).includes('lit'), 'the way from the gate to the exit is not lit');
  // The provider's own way to the exit is drawn, and not taken here.
  const provider = page.locator('.loop-wide [data-edge="response>exit-context_limit"]');
  assert(!(await provider.getAttribute('class')).includes('lit'), 'the provider\'s way is lit too');
}, { viewport: { width: 1440, height: 900 } });

test('context: at 360×800 the narrow loop marks the context_limit exit and lists the Context gate with its numbers', async ({ page }) => {
  const status = await runBuiltin(page, 'context-limit');
  assert(status === 'context_limit', `context-limit ended ${status}`);
  const current = await currentOnLoop(page);
  const name = await current.getAttribute('aria-label');
  assert(name.startsWith('Exit context_limit'), `aria-current names: ${name}`);
  const item = page.locator('.loop-narrow [data-node="gate-context"] button');
  const text = (await item.innerText()).trim();
  assert(text === 'Context: ≈8,303 / 8,000', `the narrow list says: ${text}`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(width <= 360, `the page scrolls sideways: ${width} px wide`);
}, { viewport: { width: 360, height: 800 } });

test('context: clear_tool_results is a card with the request before and after against the window, and the inspector says the request went out edited', async ({ page }) => {
  const status = await runBuiltin(page, 'context-clear-tool-results');
  assert(status === 'done', `context-clear-tool-results ended ${status}`);
  const card = page.locator('.timeline .event[data-kind="context_edited"]');
  assert((await card.count()) === 1, `${await card.count()} strategy cards`);
  const title = (await card.locator('.event-title').innerText()).trim();
  assert(title === '✂ Context gate: clear_tool_results made room', `title: ${title}`);
  const said = await card.innerText();
  assert(said.includes('cleared 2 tool results (get_checkout_log, get_inventory_log), 7,279 → 2,549 tokens; kept the newest 1 and get_policy'), said);
  const before = (await card.locator('.context-bar[data-when="before"]').innerText()).trim();
  const after = (await card.locator('.context-bar[data-when="after"]').innerText()).trim();
  assert(before === 'before: ≈7,279 input + 1,024 output = ≈8,303 — over the window', `before bar: ${before}`);
  assert(after === 'after: ≈2,549 input + 1,024 output = ≈3,573', `after bar: ${after}`);
  assert((await card.locator('.context-bar[data-when="before"]').getAttribute('data-over')) === 'true', 'the bar over the window is not marked');
  assert((await card.locator('.context-window-words').innerText()).includes('the window: 8,000 tokens'), 'the window is not named');
  // The bars are drawn to scale: the after bar is shorter than the before.
  const widths = await card.locator('.context-fill').evaluateAll((fills) => fills.map((f) => f.getBoundingClientRect().width));
  assert(widths[1] < widths[0] / 2, `bar widths ${widths.join(', ')}`);

  // On the loop the edit happened at the gate, which the run went through.
  const gate = page.locator('.loop-wide [data-node="gate-context"]');
  assert(!(await gate.getAttribute('class')).includes('tripped'), 'the gate says it stopped a run that ended done');
  const through = page.locator('.loop-wide [data-edge="gate-context>model-call"]');
  const throughName = await through.getAttribute('aria-label');
  assert(throughName === 'From Context to Model call: fits the window; taken 5 times', `the way through the gate: ${throughName}`);

  // Turn 5's request carries the edit: the inspector says so, and the body
  // holds the placeholder where the results were.
  const turn5 = page.locator('.timeline .turn-card').filter({ has: page.locator('h3', { hasText: 'Turn 5' }) });
  await turn5.getByRole('button', { name: "Inspect turn 5's request and response" }).click();
  const note = page.locator('.inspector-context');
  await note.waitFor({ timeout: 5_000 });
  const noted = await note.innerText();
  assert(noted.includes('before turn 5, clear_tool_results: cleared 2 tool results'), noted);
  // The body is built by a split module (lazy::turn_wire), a moment after
  // the note: wait for it, as a person would.
  const placeholder = await page
    .waitForFunction(() => document.querySelector('.inspector-body')?.innerText.includes('[tool result cleared to save context]'), null, { timeout: 5_000 })
    .then(() => true)
    .catch(() => false);
  assert(placeholder, `the request body does not show the placeholder: ${(await page.locator('.inspector-body').innerText()).slice(0, 200)}`);
  // Turn 4 went out before any edit: no note.
  await button(page, '‹ Turn before').click();
  await page.locator('#inspector-heading', { hasText: 'turn 4' }).waitFor();
  assert((await page.locator('.inspector-context').count()) === 0, 'turn 4 says it was edited');
}, { viewport: { width: 1440, height: 900 } });

test('context: the form sets the window\'s strategy, and the run that stopped at the gate now ends done', async ({ page }) => {
  await pick(page, 'context-limit');
  const section = page.locator('details[data-section="context"]');
  await section.locator('summary').click();
  const window = section.locator('input#context-window_tokens');
  assert((await window.inputValue()) === '8000', `the window field shows ${await window.inputValue()}`);
  await section.locator('select#context-strategy').selectOption('clear_tool_results');
  await page.waitForFunction(() => JSON.parse(document.querySelector('#scenario-json').value).context?.strategy === 'clear_tool_results');
  // A bad value says what it takes, under its field, and is not written.
  await section.locator('input#context-keep_tool_results').fill('two');
  const error = section.locator('[data-limit="keep_tool_results"] .field-error');
  assert((await error.innerText()).includes('Results kept: a whole number'), `error: ${await error.innerText()}`);
  await section.locator('input#context-keep_tool_results').fill('1');
  await page.waitForFunction(() => JSON.parse(document.querySelector('#scenario-json').value).context?.keep_tool_results === 1);
  await section.locator('input#context-exclude_tools').fill('get_policy, get_payments_log');
  await page.waitForFunction(() => JSON.stringify(JSON.parse(document.querySelector('#scenario-json').value).context?.exclude_tools) === '["get_policy","get_payments_log"]');
  await button(page, 'Run').click();
  const banner = page.locator('.stop-banner');
  await banner.waitFor({ timeout: 10_000 });
  const status = await banner.getAttribute('data-status');
  assert(status === 'done', `the edited scenario ended ${status}`);
  assert((await page.locator('.timeline .event[data-kind="context_edited"]').count()) >= 1, 'no strategy card');
}, { viewport: { width: 1440, height: 900 } });
