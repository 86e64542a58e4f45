// What changed from A to B is shown
// above the columns (words of a description, keywords of a schema); B is
// edited with the same form as A; built-in tools show what the model is told
// and can be overridden; the comparison fits a phone; with a provider, each
// side runs N times and the runs are counted.

import { assert, button, openCompare, openMode, pick, serveScenario, test, useOpenaiChat } from './lib.mjs';

const compare = (page) => page.locator('section.compare');

/** Starts a comparison with `name` and waits for its summary. */
async function runComparison(page, name) {
  await openCompare(page);
  const summary = compare(page).locator('.compare-summary');
  const old = (await summary.count()) ? await summary.elementHandle() : null;
  await compare(page).getByRole('button', { name }).click();
  if (old) await page.waitForFunction((el) => !el.isConnected, old, { timeout: 20_000 });
  await summary.waitFor({ timeout: 30_000 });
  return summary.innerText();
}

test('the change panel shows the words a pair\'s description lost, above the columns', async ({ page }) => {
  await pick(page, 'schema-precondition-unstated');
  await runComparison(page, 'Run the pair side by side');
  const change = compare(page).locator('.compare-change');
  const heading = await change.locator('h3').innerText();
  assert(heading === 'What changed from A: schema-precondition-stated to B: schema-precondition-unstated', heading);
  const items = change.locator('li.change');
  assert((await items.count()) === 1, `changes: ${await change.innerText()}`);
  assert((await items.locator('.change-what').innerText()) === "refund_order's description", await items.innerText());
  const removed = (await items.locator('del').allInnerTexts()).join('');
  assert(removed.includes('Only after check_refund_policy returned in_window=true for it.'), `removed: ${removed}`);
  assert((await items.locator('ins').count()) === 0, 'words were added');
  // In text and shape as well as colour: a mark before the removed words, struck through.
  const mark = await items.locator('del').first().evaluate((el) => [getComputedStyle(el, '::before').content, getComputedStyle(el).textDecorationLine]);
  assert(mark[0] === '"−"' && mark[1] === 'line-through', `removed words are shown as ${mark}`);
  // Above the columns.
  const changeBox = await change.boundingBox();
  const tableBox = await compare(page).locator('table.compare-table').boundingBox();
  assert(changeBox.y + changeBox.height <= tableBox.y, 'the change panel is not above the columns');
  // A schema pair's keyword-level change names the keyword.
  await pick(page, 'schema-place-free-string');
  await runComparison(page, 'Run the pair side by side');
  const keywords = await compare(page).locator('.compare-change .keyword-diff').innerText();
  assert(/properties\.\S+\.enum: removed in B/.test(keywords), `keyword changes: ${keywords}`);
});

test('B is edited with the same form as A, and its edit is what the comparison shows', async ({ page }) => {
  await pick(page, 'rules-without-example');
  const aText = await page.locator('#scenario-json').inputValue();
  await openCompare(page);
  await button(compare(page), 'Copy A into B').click();
  const form = compare(page).locator('.variant-form');
  await form.getByText('Tools', { exact: true }).click();
  const description = form.locator('#b-tool-0-description');
  assert((await description.inputValue()) === 'Look up an order: amount and days since delivery.', await description.inputValue());
  await description.fill('Look up an order: amount and days since delivery. Ids look like this, e.g. A1001.');
  // The edit went into B's JSON, and A is untouched.
  const b = JSON.parse(await compare(page).locator('#variant-json').inputValue());
  assert(b.tools[0].description.endsWith('e.g. A1001.'), `B's JSON: ${b.tools[0].description}`);
  assert((await page.locator('#scenario-json').inputValue()) === aText, 'editing B changed A');
  // B's limits are in its form too.
  await form.getByText('Limits', { exact: true }).click();
  await form.locator('#b-limit-max_turns').fill('6');
  assert(JSON.parse(await compare(page).locator('#variant-json').inputValue()).limits.max_turns === 6, 'the limit did not reach B');
  const summary = await runComparison(page, 'Run A and B');
  assert(summary.includes('A called get_order with order_id "ORD-1001"; B with order_id "A1001"'), summary);
  const change = await compare(page).locator('.compare-change').innerText();
  assert(change.includes("get_order's description") && change.includes('the limits'), change);
  const added = (await compare(page).locator('.compare-change ins').allInnerTexts()).join('');
  assert(added.includes('Ids look like this, e.g. A1001.'), `added words: ${added}`);
  assert(change.includes('max_turns: A: 8 · B: 6'), change);
});

test('a built-in tool shows its description and schema, and an edit overrides them for the run', async ({ page }) => {
  await pick(page, 'get-time');
  await page.locator('.form-section > summary', { hasText: 'Tools' }).first().click();
  const tool = page.locator('fieldset.tool[data-tool="get_time"]');
  assert((await tool.getAttribute('data-builtin')) !== null, 'get_time is not marked built-in');
  const description = page.locator('#tool-0-description');
  const shown = await description.inputValue();
  assert(shown.length > 10, `the built-in's description is not shown: "${shown}"`);
  const schema = JSON.parse(await page.locator('#tool-0-schema').inputValue());
  assert(schema.type === 'object' && schema.additionalProperties === false, `schema shown: ${JSON.stringify(schema)}`);
  await description.fill('Returns the current UTC time. Overridden in this scenario.');
  const entry = JSON.parse(await page.locator('#scenario-json').inputValue()).tools[0];
  assert(entry.builtin === 'get_time' && entry.name === 'get_time', `the entry: ${JSON.stringify(entry)}`);
  assert(entry.description === 'Returns the current UTC time. Overridden in this scenario.', entry.description);
  assert(JSON.stringify(entry.input_schema) === JSON.stringify(schema), 'the schema changed with the description');
  // The built-in handler still answers, under the edited description.
  await button(page, 'Run').click();
  const banner = page.locator('.stop-banner');
  await banner.waitFor({ timeout: 10_000 });
  assert((await banner.getAttribute('data-status')) === 'done', `ended ${await banner.getAttribute('data-status')}`);
  const result = await page.locator('.timeline .event[data-kind="tool_result"]').first().innerText();
  assert(result.includes('2026-11-29T12:00'), `the built-in did not answer: ${result}`);
  await page.getByRole('button', { name: "Inspect turn 1's request and response" }).click();
  const body = page.locator('.inspector[data-open] .inspector-body');
  await body.filter({ hasText: 'Overridden in this scenario.' }).waitFor({ timeout: 5_000 });
}, { viewport: { width: 1440, height: 900 } });

test('at 360 px the comparison stacks with no sideways scrolling, during and after', async ({ page }) => {
  const fits = () => page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  await pick(page, 'schema-tools-overlapping');
  await openCompare(page);
  const summary = compare(page).locator('.compare-summary');
  await compare(page).getByRole('button', { name: 'Run the pair side by side' }).click();
  const [during, width] = await fits();
  assert(during === width, `during the comparison the page is ${during} px wide at ${width}`);
  await summary.waitFor({ timeout: 20_000 });
  const [after] = await fits();
  assert(after === width, `after the comparison the page is ${after} px wide at ${width}`);
  // Stacked: each cell says whose step it is, and a cell is most of the width.
  const cell = compare(page).locator('td.compare-cell').first();
  const label = await cell.evaluate((el) => getComputedStyle(el, '::before').content);
  assert(label.startsWith('"A: schema-tools-distinct'), `the cell is labelled ${label}`);
  const box = await cell.boundingBox();
  assert(box.width > 250, `a stacked cell is only ${box.width} px wide`);
  const summaryBox = await summary.boundingBox();
  assert(summaryBox.x >= 0 && summaryBox.x + summaryBox.width <= width, `the summary overflows: ${JSON.stringify(summaryBox)}`);
}, { viewport: { width: 360, height: 800 } });

test('with a provider each side runs N times and the runs are counted by tools and status', async ({ page }) => {
  // The served scenario's rules model answers from each request's tools, so
  // A's description (the precondition stated) and B's lead to different calls.
  const server = await serveScenario('schema-precondition-stated');
  try {
    await pick(page, 'schema-precondition-stated');
    await openCompare(page);
    const times = compare(page).locator('#compare-times');
    assert(await times.isDisabled(), 'N can be set for the rules model');
    assert((await compare(page).locator('#compare-times-why').innerText()).startsWith('1: the scenario\'s own model'), 'no reason for N = 1');
    // The Model settings are the scenario's: the Scenario mode shows them.
    await openMode(page, 'scenario');
    await useOpenaiChat(page, server.url);
    await openCompare(page);
    // The field shows the count that applies, whatever is typed.
    for (const [typed, shown] of [['-1', '1'], ['1e300', '10'], ['99999999999999999999', '10'], ['2.4', '2']]) {
      await times.fill(typed);
      await times.dispatchEvent('change');
      const value = await times.inputValue();
      assert(value === shown, `typed ${typed}, the field shows ${value}, not the ${shown} that applies`);
    }
    await times.fill('3');
    await times.dispatchEvent('change');
    await runComparison(page, 'Run the pair side by side');
    const table = compare(page).locator('table.compare-repeats');
    const caption = await table.locator('caption').innerText();
    assert(caption.startsWith('How the runs went: 3 of A, 3 of B.'), caption);
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent.trim())));
    const key = rows.map((r) => r.join(' | ')).sort().join('\n');
    assert(
      key === [
        'get_order → check_refund_policy → refund_order | done | 3 of 3 | 0 of 3',
        // Served, the rules model reads the refusal as text and checks the
        // policy after it; still no refund, so B fails its verification.
        'get_order → refund_order → check_refund_policy | failed_verification | 0 of 3 | 3 of 3',
      ].join('\n'),
      key,
    );
    const labels = await compare(page).locator('thead .compare-label').allInnerTexts();
    assert(labels.join() === 'A: schema-precondition-stated, run 1 of 3,B: schema-precondition-unstated, run 1 of 3', labels.join());
  } finally {
    server.stop();
  }
}, { timeoutMs: 60_000 });
