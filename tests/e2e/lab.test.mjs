// The lab: the Run state panel (confirmed facts, tool stores) and the
// side-by-side comparison (pitfall pairs, A/B tool variants, forks).

import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { artifacts, assert, button, loadScenario, openCompare, pick, runBuiltin, test } from './lib.mjs';

const compare = (page) => page.locator('section.compare');

/** Waits for the comparison's summary and returns its text. */
async function comparisonSummary(page) {
  const summary = compare(page).locator('.compare-summary');
  await summary.waitFor({ timeout: 15_000 });
  return summary.innerText();
}

async function sideStatuses(page) {
  return compare(page).locator('thead .compare-side').evaluateAll((ths) => ths.map((th) => th.dataset.status));
}

test('the Run state panel lists confirmed ids and the store after each write', async ({ page }) => {
  const panel = page.locator('section.state-panel');
  await pick(page, 'refund-policy');
  // Before a run there is no trace, so no store and no facts.
  assert((await panel.locator('.facts-empty').count()) === 1, 'facts shown before any run');
  assert((await runBuiltin(page, 'refund-policy', { approve: true })) === 'done', 'refund-policy did not end done');
  const facts = await panel.locator('.fact').allInnerTexts();
  assert(facts.some((f) => f.includes('order_id = A1001') && f.includes('from get_order')), `facts: ${JSON.stringify(facts)}`);
  const store = panel.locator('figure.store[data-store="shop"]');
  const caption = await store.locator('figcaption').innerText();
  assert(/after refund_order at event \d+/.test(caption), `store caption: ${caption}`);
  const state = JSON.parse(await store.locator('pre').innerText());
  const order = state.orders.find((o) => o.order_id === 'A1001');
  assert(order.refunded === true && state.refunds_issued === 1, `store after the refund: ${JSON.stringify(state)}`);
  assert(state.policy_checked.A1001.in_window === true, 'the policy check is not in the store');
  // The refund's own result row carries the store as it was right after it.
  const row = page.locator('.timeline .event[data-kind="tool_result"]').filter({ hasText: 'refund_order' }).last();
  await row.locator('details.tool-state summary').click();
  const after = JSON.parse(await row.locator('details.tool-state pre').innerText());
  assert(after.refunds_issued === 1, `the row's store: ${JSON.stringify(after)}`);
  // Reset empties the trace, and the panel with it.
  await button(page, 'Reset').click();
  await panel.locator('.facts-empty').waitFor();
});

test('a pitfall pair runs side by side and the first divergence is highlighted and in view', async ({ page }) => {
  await pick(page, 'repeated-call-naive');
  await openCompare(page);
  await compare(page).getByRole('button', { name: 'Run the pair side by side' }).click();
  const summary = await comparisonSummary(page);
  assert(/^The runs part at step \d+\./.test(summary), `summary: ${summary}`);
  assert(summary.includes('naive: repeated-call-naive') && summary.includes('fixed: repeated-call'), summary);
  const [naive, fixed] = await sideStatuses(page);
  assert(naive && fixed && naive !== fixed, `the pair ended ${naive} and ${fixed}`);
  assert(fixed === 'repeated_call', `the fixed side ended ${fixed}`);
  const divergence = compare(page).locator('tr.compare-row.divergence');
  assert((await divergence.count()) === 1, 'no single highlighted divergence row');
  const step = Number(await divergence.locator('th').innerText());
  assert(summary.startsWith(`The runs part at step ${step}.`), `row ${step} vs summary ${summary}`);
  const before = await compare(page).locator('tr.compare-row.same').count();
  assert(before === step - 1, `${before} identical rows before step ${step}`);
  // Its start, in the window: on the stage the row can be taller than the
  // detail pane it scrolls in.
  await page.waitForFunction(() => {
    const r = document.getElementById('compare-divergence').getBoundingClientRect();
    return r.top >= 0 && r.top < window.innerHeight - 40;
  }, null, { timeout: 3_000 });
  await page.screenshot({ path: join(artifacts, 'compare-pitfall-pair.png'), fullPage: false });
});

test('a comparison draws each run\'s own loop, lit to its own exit; picking a node brings that column\'s step into view', async ({ page }) => {
  await pick(page, 'repeated-call-naive');
  await openCompare(page);
  await compare(page).getByRole('button', { name: 'Run the pair side by side' }).click();
  await comparisonSummary(page);
  const [naive, fixed] = await sideStatuses(page);
  const exitOf = (side) => compare(page).locator(`.compare-loop[data-side="${side}"] .loop-wide [aria-current="step"]`);
  for (const [side, status] of [[0, naive], [1, fixed]]) {
    const name = await exitOf(side).getAttribute('aria-label');
    assert(name.startsWith(`Exit ${status}`), `column ${side + 1}'s loop names ${name}, not its own ${status}`);
  }
  // The fixed run's exit: its last step (run_finished) in the second column.
  await exitOf(1).dispatchEvent('click');
  const marked = compare(page).locator('[data-shown]');
  await page.waitForFunction(() => {
    const r = document.querySelector('.compare-table [data-shown]')?.getBoundingClientRect();
    return r && r.top >= 0 && r.bottom <= window.innerHeight;
  }, null, { timeout: 3_000 });
  assert((await marked.getAttribute('data-kind')) === 'run_finished', `marked a ${await marked.getAttribute('data-kind')} cell`);
  const column = await marked.evaluate((td) => [...td.parentElement.children].indexOf(td));
  assert(column === 2, `the marked cell is in column ${column}, not the fixed run's`);
}, { viewport: { width: 1440, height: 900 } });

test('A/B: removing the example id from a description makes the rules model invent ORD-1001', async ({ page }) => {
  await pick(page, 'rules-with-example');
  await openCompare(page);
  await compare(page).getByRole('button', { name: 'Copy A into B' }).click();
  const variant = page.locator('#variant-json');
  const a = await variant.inputValue();
  assert(a.includes('e.g. A1001'), 'B is not a copy of A');
  await variant.fill(a.replace('The order id, e.g. A1001', 'The order id'));
  await compare(page).getByRole('button', { name: 'Run A and B' }).click();
  const summary = await comparisonSummary(page);
  assert(summary.includes('A1001') && summary.includes('ORD-1001'), `summary: ${summary}`);
  const [left, right] = await sideStatuses(page);
  assert(left === 'done' && right === 'failed_verification', `A ended ${left}, B ended ${right}`);
  const cells = await compare(page).locator('tr.compare-row.divergence td').allInnerTexts();
  assert(cells[0].includes('get_order') && cells[0].includes('A1001'), `A's cell: ${cells[0]}`);
  assert(cells[1].includes('get_order') && cells[1].includes('ORD-1001'), `B's cell: ${cells[1]}`);
});

test('a comparison\'s approvals are answered by its setting, and no card says a person decided', async ({ page }) => {
  await pick(page, 'refund-with-approval');
  await openCompare(page);
  await compare(page).locator('#compare-approvals').selectOption('deny');
  await compare(page).getByRole('button', { name: 'Copy A into B' }).click();
  await compare(page).getByRole('button', { name: 'Run A and B' }).click();
  await comparisonSummary(page);
  const decisions = compare(page).locator('.compare-event[data-kind="approval_decided"]');
  assert((await decisions.count()) === 2, `${await decisions.count()} decisions, not one a side`);
  for (const text of await decisions.allInnerTexts()) {
    assert(text.includes('deny (by setting)') && !text.includes('by user'), `decision: ${text}`);
    assert(text.includes('Nobody saw this call'), `decision: ${text}`);
  }
  // The model is told it was denied, not that a user denied it.
  const results = await compare(page).locator('.compare-event[data-kind="tool_result"]').allInnerTexts();
  const refunds = results.filter((t) => t.includes('issue_refund'));
  assert(refunds.length === 2 && refunds.every((t) => t.includes('denied: ') && !t.includes('by the user')), `results: ${refunds}`);
});

test('variant B is kept across a reload, as the editor\'s text is', async ({ page }) => {
  await pick(page, 'get-time');
  await openCompare(page);
  await compare(page).getByRole('button', { name: 'Copy A into B' }).click();
  const variant = page.locator('#variant-json');
  const edited = (await variant.inputValue()).replace('"max_turns": 10', '"max_turns": 1');
  assert(edited !== (await variant.inputValue()), 'the copy has no "max_turns": 10 to edit');
  await variant.fill(edited);
  await page.reload();
  await openCompare(page);
  await page.waitForFunction((text) => document.getElementById('variant-json')?.value === text, edited, { timeout: 5_000 });
  // An emptied B stays empty.
  await variant.fill('');
  await page.reload();
  await openCompare(page);
  await compare(page).getByText('B is empty: copy A into it to start from A.').waitFor({ timeout: 5_000 });
});

test('A/B with a broken variant lists its problems, prefixed B, and runs nothing', async ({ page }) => {
  await pick(page, 'get-time');
  await openCompare(page);
  await compare(page).getByRole('button', { name: 'Copy A into B' }).click();
  await page.locator('#variant-json').fill('{"task": 3}');
  await compare(page).getByRole('button', { name: 'Run A and B' }).click();
  const alert = compare(page).locator('.compare-problems[role="alert"]');
  await alert.waitFor({ timeout: 5_000 });
  const items = await alert.locator('li').allInnerTexts();
  assert(items.length > 0 && items.every((i) => i.startsWith('B: ')), `problems: ${JSON.stringify(items)}`);
  assert((await compare(page).locator('.compare-table').count()) === 0, 'a comparison table appeared');
});

test('a fork from a step continues under the edited scenario, earlier steps untouched', async ({ page }) => {
  assert((await runBuiltin(page, 'rules-without-example')) === 'failed_verification', 'the parent run');
  const parentEvents = await page.locator('.timeline .event').count();
  // Edit the description in the editor: the fork runs under the edited scenario.
  const json = page.locator('#scenario-json');
  await json.fill((await json.inputValue()).replace('"The order id"', '"The order id, e.g. A1001"'));
  await openCompare(page);
  const options = await page.locator('#fork-point option').allInnerTexts();
  assert(options[0] === 'before turn 1' && options.length > 2, `fork points: ${JSON.stringify(options)}`);
  await page.selectOption('#fork-point', { label: 'before turn 1' });
  await compare(page).getByRole('button', { name: 'Fork and compare' }).click();
  const summary = await comparisonSummary(page);
  const [parent, fork] = await sideStatuses(page);
  assert(parent === 'failed_verification' && fork === 'done', `parent ended ${parent}, fork ended ${fork}`);
  // Step 1 is the start, step 2 turn 1's model call: where the id is chosen.
  assert(summary.startsWith('The runs part at step 2.'), summary);
  assert(summary.includes('ORD-1001') && summary.includes('A1001'), summary);
  // The steps before the fork point are the parent's, unchanged.
  const same = await compare(page).locator('tr.compare-row.same').count();
  assert(same === 1, `${same} identical steps before the divergence`);
  // The fork exports as a record linked to its parent: the scenario it ran
  // (the edited one) and the parent's event it continued from.
  const forkSeq = Number(await page.locator('#fork-point').inputValue());
  const exportFork = compare(page).locator('thead .compare-side').nth(1).getByRole('button', { name: 'Export' });
  const [download] = await Promise.all([page.waitForEvent('download'), exportFork.click()]);
  assert(download.suggestedFilename() === 'fork-before-turn-1.jsonl', download.suggestedFilename());
  const path = join(artifacts, download.suggestedFilename());
  await download.saveAs(path);
  const lines = (await readFile(path, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
  assert(lines[0].type === 'scenario' && lines[0].forked_at === forkSeq, `first line: ${JSON.stringify(lines[0]).slice(0, 200)}`);
  assert(JSON.stringify(lines[0].scenario).includes('e.g. A1001'), 'the fork record lacks the edited scenario');
  assert(lines.at(-1).type === 'run_finished' && lines.at(-1).status === 'done', 'the fork record does not end done');
  // The parent run in the Trace is untouched by the fork.
  assert((await page.locator('.timeline .event').count()) === parentEvents, 'the fork changed the Trace');
});
