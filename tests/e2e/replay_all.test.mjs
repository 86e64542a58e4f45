// "Replay all against the current scenario": every kept run of the scenario
// in the editor replayed against its tools as they are now, a row each.
//
// Three runs of one scenario (the rules model's refund) whose calls differ:
//   a: as built in, it refunds A1001 (done);
//   b: get_order's description without its example id: the model invents
//      ORD-1001, get_order answers that no such order exists (failed_verification);
//   c: asked about A1003, outside the refund window: refund_order refuses
//      (failed_verification).
// Then refund_order's schema requires a reason. A replay feeds each run's
// recorded model turns to the current tools: only a's refund_order call
// succeeded and now breaks the schema; b never called refund_order, and c's
// call was an error already, so their replays hold. `crates/cli/tests/
// replay_suite.rs` replays the same three with `agent-loop replay`.

import { join } from 'node:path';
import { artifacts, assert, button, loadScenario, openMode, pick, test, unlabelledControls } from './lib.mjs';

const SCENARIO = 'Description with an example id (rules model)';
const REPLAY_ALL = 'Replay all against the current scenario';

const entries = (page) => page.locator('.history-entry');
const rows = (page) => page.locator('.replay-all-row');

/** Opens the History mode (its panel is drawn the first time), unless open. */
async function showHistory(page) {
  if ((await page.locator('main.layout').getAttribute('data-mode')) !== 'history') await openMode(page, 'history');
  await page.locator('.history').waitFor({ timeout: 10_000 });
}

/** Waits, in the History mode, for `n` kept runs. */
async function waitForCount(page, n) {
  await showHistory(page);
  await page.waitForFunction((n) => document.querySelectorAll('.history-entry').length === n, n, { timeout: 10_000 });
}

/** Runs the scenario in the editor and waits until its run is kept. */
async function runKept(page, scenario, n) {
  await loadScenario(page, scenario);
  await button(page, 'Run').click();
  await waitForCount(page, n);
}

/** Presses "Replay all" and waits for that batch's end (the last table stays
 * in place until the new batch updates it, so its start is watched for
 * too); returns the table: [{ id, verdict, cells }] in the table's order. */
async function replayAll(page) {
  await showHistory(page);
  await page.evaluate(() => {
    window.__replayAllStarted = false;
    const section = document.querySelector('.replay-all');
    new MutationObserver((_, observer) => {
      if (section.querySelector('.replay-all-status[data-running="true"]')) {
        window.__replayAllStarted = true;
        observer.disconnect();
      }
    }).observe(section, { childList: true, subtree: true, attributes: true, characterData: true });
  });
  await button(page, REPLAY_ALL).click();
  await page.waitForFunction(
    () => window.__replayAllStarted && document.querySelector('.replay-all-status[data-running="false"]'),
    null,
    { timeout: 15_000 },
  );
  return rows(page).evaluateAll((trs) =>
    trs.map((tr) => ({
      id: tr.dataset.id,
      verdict: tr.dataset.verdict,
      cells: [...tr.cells].map((td) => td.innerText.trim()),
    })),
  );
}

function variants(base) {
  const a = structuredClone(base);
  const b = structuredClone(base);
  b.tools[0].input_schema.properties.order_id.description = 'The order id';
  const c = structuredClone(base);
  c.task = 'Please refund my order A1003, it arrived broken.';
  const edited = structuredClone(c);
  edited.tools[2] = {
    name: 'refund_order', builtin: 'refund_order',
    description: 'Refund an order. Give the reason the customer gave.',
    input_schema: {
      type: 'object',
      properties: { order_id: { type: 'string' }, reason: { type: 'string' } },
      required: ['order_id', 'reason'],
      additionalProperties: false,
    },
  };
  return { a, b, c, edited };
}

test('replay all: a schema edit fails exactly the kept run whose call it now rejects', async ({ page }) => {
  await pick(page, 'rules-with-example');
  const { a, b, c, edited } = variants(JSON.parse(await page.locator('#scenario-json').inputValue()));
  assert(a.name === SCENARIO, `the built-in is named ${a.name}`);
  await runKept(page, a, 1);
  await runKept(page, b, 2);
  await runKept(page, c, 3);
  const kept = await entries(page).evaluateAll((li) => li.map((e) => ({ id: e.dataset.id, status: e.dataset.status })));
  assert(
    kept.map((e) => e.status).join(',') === 'failed_verification,failed_verification,done',
    `the three runs ended ${JSON.stringify(kept)}`,
  );
  // Newest first, as the list: c, b, a.
  const [idC, idB, idA] = kept.map((e) => e.id);
  // The runs really differ: their first get_order calls named different orders.
  const calls = await page.evaluate(() =>
    Object.keys(localStorage)
      .filter((k) => k.startsWith('agent-loop-playground.run.'))
      .map((k) => localStorage.getItem(k).match(/"name":"get_order","args":\{"order_id":"([^"]+)"/)?.[1])
      .sort(),
  );
  assert(calls.join(',') === 'A1001,A1003,ORD-1001', `get_order was called with ${calls.join(',')}`);

  // Unedited, every kept run replays as it ran: the failure below is the edit's.
  const unedited = await replayAll(page);
  assert(unedited.length === 3 && unedited.every((r) => r.verdict === 'pass'), `unedited: ${JSON.stringify(unedited)}`);
  assert((await page.locator('.replay-all-status').innerText()) === '3 kept runs replayed: 3 pass, 0 fail', 'unedited summary');

  await loadScenario(page, edited);
  // Progress is shown while it runs: every status line is recorded as it changes.
  await page.evaluate(() => {
    window.__replayAllLines = [];
    new MutationObserver(() => {
      const line = document.querySelector('.replay-all-status')?.textContent;
      if (line && window.__replayAllLines.at(-1) !== line) window.__replayAllLines.push(line);
    }).observe(document.querySelector('.replay-all'), { childList: true, subtree: true, characterData: true });
  });
  const table = await replayAll(page);
  const lines = await page.evaluate(() => window.__replayAllLines);
  assert(
    ['Replaying 1 of 3…', 'Replaying 2 of 3…', 'Replaying 3 of 3…'].every((l) => lines.includes(l)),
    `no progress lines: ${JSON.stringify(lines)}`,
  );

  const found = await page.locator('.replay-all-found').innerText();
  assert(found === `Scenario in the editor: “${SCENARIO}”. Found 3 kept runs of it (of 3 kept).`, `found: ${found}`);
  assert(JSON.stringify(table.map((r) => r.id)) === JSON.stringify([idC, idB, idA]), `rows: ${JSON.stringify(table)}`);
  const [rowC, rowB, rowA] = table;
  // Cells: kept, ended, replay, first difference, trace.
  for (const [row, ended] of [[rowC, 'failed_verification'], [rowB, 'failed_verification']]) {
    assert(row.verdict === 'pass' && row.cells[2] === '✓ pass' && row.cells[3] === '', `a passing row: ${JSON.stringify(row)}`);
    assert(row.cells[0] === 'just now' && row.cells[1] === ended, `a passing row's facts: ${JSON.stringify(row)}`);
  }
  assert(rowA.verdict === 'fail' && rowA.cells[2] === '✗ FAIL' && rowA.cells[1] === 'done', `the failing row: ${JSON.stringify(rowA)}`);
  assert(
    rowA.cells[3] ===
      'status: expected done, got failed_verification (verifier check 2 (tool_called "refund_order") failed: refund_order never ran successfully in this run)',
    `the first difference: ${rowA.cells[3]}`,
  );
  const summary = page.locator('.replay-all-status');
  assert((await summary.innerText()) === '3 kept runs replayed: 2 pass, 1 fail', `summary: ${await summary.innerText()}`);
  assert((await summary.getAttribute('data-passed')) === 'false', 'the summary is not marked failed');
  const hint = await page.locator('.replay-all .hint').innerText();
  assert(hint.includes('In CI: agent-loop replay runs/ --scenario edited.json'), `hint: ${hint}`);
  const unlabelled = await unlabelledControls(page, '.replay-all button');
  assert(unlabelled.length === 0, `unlabelled: ${unlabelled.join(' | ')}`);
  await page.locator('.history').screenshot({ path: join(artifacts, 'replay-all-table.png') });

  // Open brings the failing run into the Trace and leaves the edit in the editor,
  // so "Replay against current tools" then lists every check of that run against it.
  await page.getByRole('button', { name: 'Open the run kept just now (done) in the Trace' }).click();
  // The Run mode shows it; the History's list marks it, hidden meanwhile.
  await page.locator(`.history-entry[data-id="${idA}"][aria-current="true"]`).waitFor({ state: 'attached', timeout: 5_000 });
  await page.locator('.stop-banner[data-status="done"]').waitFor({ timeout: 5_000 });
  const answer = await page.locator('.timeline').innerText();
  assert(answer.includes('rf_0001'), 'the opened trace is not the refunded run');
  const editor = JSON.parse(await page.locator('#scenario-json').inputValue());
  assert(JSON.stringify(editor) === JSON.stringify(edited), 'Open replaced the edited scenario in the editor');
  await button(page, 'Replay against current tools').click();
  const call = page.locator('.replay-verdict[data-passed="false"] .replay-row[data-assertion="same_errors"]');
  await call.waitFor({ timeout: 10_000 });
  const detail = await call.innerText();
  assert(
    detail.includes("call 3 (refund_order): the recording's result was ok, now it is an error") && detail.includes('reason'),
    `the opened run's call: ${detail}`,
  );
});

test('replay all: says which scenario it matched when none is kept, and shows problems instead of replaying', async ({ page }) => {
  await pick(page, 'rules-with-example');
  const { a } = variants(JSON.parse(await page.locator('#scenario-json').inputValue()));
  await runKept(page, a, 1);
  await runKept(page, a, 2);

  await pick(page, 'get-time');
  await button(page, REPLAY_ALL).click();
  const none = page.locator('.replay-all-none');
  await none.waitFor({ timeout: 10_000 });
  assert(
    (await none.innerText()) ===
      'Nothing to replay: none of the 2 kept runs is of “What time is it? (seed 001)”, the scenario in the editor (runs are matched by scenario name). Run it and its finished run is kept here.',
    `none found: ${await none.innerText()}`,
  );
  assert((await rows(page).count()) === 0, 'a table with nothing replayed');

  await openMode(page, 'run');
  await page.locator('#scenario-json').fill('{ "name": "Broken", "tools": 5 }');
  await showHistory(page);
  await button(page, REPLAY_ALL).click();
  await page.getByText('The scenario in the editor does not load, so nothing was replayed: ').waitFor({ timeout: 5_000 });
  const why = await none.innerText();
  assert(why.includes('tools'), `the problems are not shown: ${why}`);

  // A record storage lost is a row that says so; Stop stops before the next run.
  await loadScenario(page, a);
  const lost = await entries(page).nth(0).getAttribute('data-id');
  await page.evaluate((id) => localStorage.removeItem(`agent-loop-playground.run.${id}`), lost);
  const table = await replayAll(page);
  assert(table.length === 2 && table[0].id === lost, `rows: ${JSON.stringify(table)}`);
  assert(
    table[0].verdict === 'not-replayed' && table[0].cells[2] === '⚠ not replayed' &&
      table[0].cells[3] === "its record cannot be read: its record is no longer in this browser's storage",
    `the lost record's row: ${JSON.stringify(table[0])}`,
  );
  assert(table[1].verdict === 'pass', `the readable run: ${JSON.stringify(table[1])}`);
  assert(
    (await page.locator('.replay-all-status').innerText()) === '2 kept runs checked: 1 pass, 0 fail, 1 could not be replayed',
    'summary with a lost record',
  );

  // Stop, pressed the moment it appears, stops before the first kept run.
  await page.evaluate(() => {
    new MutationObserver((_, observer) => {
      const stop = document.querySelector('.replay-all-stop');
      if (stop) {
        observer.disconnect();
        stop.click();
      }
    }).observe(document.querySelector('.replay-all'), { childList: true, subtree: true });
  });
  await replayAll(page);
  assert(
    (await page.locator('.replay-all-status').innerText()) === 'Stopped after 0 of 2 kept runs: 0 pass, 0 fail',
    `stopped: ${await page.locator('.replay-all-status').innerText()}`,
  );
});

test('replay all: the table fits 360 px in dark mode, a failure still in words', async ({ page }) => {
  await pick(page, 'rules-with-example');
  const { a, b, edited } = variants(JSON.parse(await page.locator('#scenario-json').inputValue()));
  await runKept(page, a, 1);
  await runKept(page, b, 2);
  await loadScenario(page, edited);
  const table = await replayAll(page);
  assert(table.map((r) => r.verdict).join(',') === 'pass,fail', `rows: ${JSON.stringify(table)}`);
  assert(table[1].cells[2] === '✗ FAIL' && table[1].cells[3].startsWith('status: expected done'), `row: ${JSON.stringify(table[1])}`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
  await page.locator('.replay-all').screenshot({ path: join(artifacts, 'replay-all-360-dark.png') });
}, { viewport: { width: 360, height: 780 }, colorScheme: 'dark' });
