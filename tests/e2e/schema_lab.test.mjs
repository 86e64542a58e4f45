// The schema lab: every scenario with a counterpart (a pitfall's naive and
// fixed halves, a tool-schema effect's A and B) is marked in the picker and
// runs beside it in one click; the comparison's rows are steps, and the first
// divergence is said in words that name the call that differs.

import { join } from 'node:path';
import { artifacts, assert, openCompare, pick, test } from './lib.mjs';

const compare = (page) => page.locator('section.compare');
const MARK = ' ⇄ pair';

/** Runs the picked scenario's pair and returns the comparison's summary. */
async function runPair(page) {
  await openCompare(page);
  const summary = compare(page).locator('.compare-summary');
  // The comparison shown before goes when the new one starts.
  const old = (await summary.count()) ? await summary.elementHandle() : null;
  await compare(page).getByRole('button', { name: 'Run the pair side by side' }).click();
  if (old) await page.waitForFunction((el) => !el.isConnected, old, { timeout: 20_000 });
  await summary.waitFor({ timeout: 20_000 });
  return summary.innerText();
}

/** The tools the divergent row's cells call, by their events' titles and details. */
async function divergentCalls(page) {
  return compare(page).locator('tr.compare-row.divergence td').evaluateAll((tds) =>
    tds.flatMap((td) => {
      if (td.dataset.kind === 'tool_call') {
        const title = td.querySelector('.compare-event .cell-title')?.textContent ?? '';
        return [title];
      }
      const details = [...td.querySelectorAll('.compare-event[data-kind="model_response"] .cell-detail')].map((d) => d.textContent);
      return details.flatMap((d) => [...d.matchAll(/→ ([A-Za-z0-9_]+)\(/g)].map((m) => m[1]));
    }),
  );
}

test('the picker marks, in words, every scenario that has a counterpart, without making the header taller', async ({ page }) => {
  const options = await page.locator('#scenario-picker option[data-expected]').evaluateAll((os) =>
    os.map((o) => ({ id: o.value, text: o.textContent.trim(), group: o.parentElement.label })),
  );
  const schema = options.filter((o) => o.group === 'Tool-schema effects');
  assert(schema.length >= 14, `only ${schema.length} tool-schema scenarios`);
  for (const o of schema) assert(o.text.endsWith(MARK), `${o.id} is not marked: ${o.text}`);
  const pitfalls = options.filter((o) => o.group === 'Pitfalls: naive vs fixed');
  for (const o of pitfalls) assert(o.text.endsWith(MARK), `${o.id} is not marked: ${o.text}`);
  const turnLimit = options.find((o) => o.id === 'turn-limit');
  assert(!turnLimit.text.includes('⇄'), `turn-limit is marked: ${turnLimit.text}`);
  const header = page.locator('header.page-header');
  const before = (await header.boundingBox()).height;
  await pick(page, 'schema-tools-overlapping');
  const after = (await header.boundingBox()).height;
  assert(after === before, `the header grew from ${before} to ${after} px`);
});

test('every pair runs side by side in one click, and its first divergence names the call that differs', async ({ page }) => {
  const marked = await page.locator('#scenario-picker option[data-expected]').evaluateAll((os) =>
    os.filter((o) => o.textContent.trim().endsWith(' ⇄ pair')).map((o) => o.value),
  );
  const seen = new Set();
  let pairs = 0;
  for (const id of marked) {
    if (seen.has(id)) continue;
    await pick(page, id);
    await openCompare(page);
    const about = await compare(page).locator('.compare-way').first().locator('p').first().innerText();
    const halves = about.match(/: (\S+) \((?:naive|A)\) and (\S+) \((?:fixed|B)\)\.$/);
    assert(halves, `${id}: the panel says ${about}`);
    const [, a, b] = halves;
    assert(a === id || b === id, `${id}'s pair is ${a} and ${b}`);
    seen.add(a).add(b);
    pairs += 1;
    const summary = await runPair(page);
    assert(summary.includes(a) && summary.includes(b), `${a}/${b}: ${summary}`);
    if (a === 'history-text-only') {
      // Its lesson is in the requests (the Wire view); the agent does the same.
      assert(summary.endsWith('made no difference to what the agent did.'), summary);
      continue;
    }
    const at = summary.match(/^The runs part at step (\d+)\. (In turn \d+|At the start|At the end), /);
    assert(at, `${a}/${b}: ${summary}`);
    const divergence = compare(page).locator('tr.compare-row.divergence');
    assert((await divergence.count()) === 1, `${a}/${b}: ${await divergence.count()} divergence rows`);
    assert((await divergence.locator('th').innerText()) === at[1], `${a}/${b}: row vs ${summary}`);
    const calls = await divergentCalls(page);
    for (const call of calls) {
      const name = call.split(/\s+/).find((w) => /^[a-z][a-z0-9_]*_[a-z0-9_]+$/.test(w)) ?? call;
      assert(summary.includes(name), `${a}/${b}: the summary does not name ${name}: ${summary}`);
    }
    // Its start, in the window: on the stage the row can be taller than the
    // detail pane it scrolls in.
    await page.waitForFunction(() => {
      const r = document.getElementById('compare-divergence')?.getBoundingClientRect();
      return r && r.top >= 0 && r.top < window.innerHeight - 40;
    }, null, { timeout: 3_000 });
  }
  assert(pairs >= 19, `only ${pairs} pairs ran`);
}, { timeoutMs: 180_000 });

test('the precondition pair parts at the refund call, its approval inside that step', async ({ page }) => {
  await pick(page, 'precondition-in-code');
  const summary = await runPair(page);
  assert(
    summary.includes('both naive: precondition-in-description and fixed: precondition-in-code called issue_refund with order_id "ord_a1b2c3d4e5"'),
    summary,
  );
  const cells = compare(page).locator('tr.compare-row.divergence td');
  const kinds = await cells.evaluateAll((tds) => tds.map((td) => td.dataset.kind));
  assert(kinds.join() === 'tool_call,tool_call', `the divergent row holds ${kinds}`);
  const titles = await cells.locator('.compare-event:first-child .cell-title').allInnerTexts();
  assert(titles.every((t) => t.includes('issue_refund')), `titles: ${titles}`);
  // The fixed run's refund is approved (by its policy), the naive one's is
  // not: that extra event stays in the call's step, not a row of its own.
  const approval = cells.nth(1).locator('.compare-event[data-kind="approval_decided"]');
  assert((await approval.count()) === 1, 'the approval is not in the refund step');
  assert((await cells.nth(0).locator('.compare-event[data-kind^="approval"]').count()) === 0, 'the naive refund was approved');
  assert(summary.includes('in fixed: precondition-in-code it was approved, then failed: '), summary);
  const rowsOfApprovals = await compare(page).locator('td[data-kind^="approval"]').count();
  assert(rowsOfApprovals === 0, `${rowsOfApprovals} cells are an approval alone`);
  await page.screenshot({ path: join(artifacts, 'schema-lab-precondition.png'), fullPage: false });
});

test('a tool-schema pair says the lesson call in plain words: B invents ORD-1001, A takes A1001', async ({ page }) => {
  await pick(page, 'rules-without-example');
  const summary = await runPair(page);
  assert(
    summary === 'The runs part at step 2. In turn 1, A: rules-with-example called get_order with order_id "A1001"; B: rules-without-example with order_id "ORD-1001".',
    summary,
  );
  const statuses = await compare(page).locator('thead .compare-side').evaluateAll((ths) => ths.map((th) => th.dataset.status));
  assert(statuses.join() === 'done,failed_verification', `the pair ended ${statuses}`);
  await pick(page, 'schema-name-vague-id');
  const names = await runPair(page);
  assert(names.includes('called open_return with order_id "A1001"; B: schema-name-vague-id with id "C-4821"'), names);
  await page.screenshot({ path: join(artifacts, 'schema-lab-vague-id.png'), fullPage: false });
});
