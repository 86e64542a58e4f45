// An edit of a call's
// arguments is what Approve runs, by button or by the `a` key, and the card
// says what ran and what the model's history keeps; opening a kept run brings
// its trace into view; the tool-call counts of the header, the stop banner and
// the cards agree.

import { assert, bannerStatus, button, loadScenario, openMode, pick, refundUntilApproval, rowTexts, runBuiltin, test } from './lib.mjs';

const ASKED = 'ord_f6g7h8i9j0';
const EDITED = 'ord_k1l2m3n4o5';

/** Opens the edit box of `bar` and returns it, after checking it is in view and focused. */
async function openEdit(page, bar) {
  await button(bar, 'Edit arguments').click();
  const box = bar.getByLabel(/Arguments \(JSON/);
  await box.waitFor();
  await page
    .waitForFunction(() => {
      const box = document.querySelector('#approval-edit-args');
      const rect = box.getBoundingClientRect();
      const header = document.querySelector('.page-header').getBoundingClientRect().bottom;
      return document.activeElement === box && rect.top >= header - 1 && rect.bottom <= window.innerHeight + 1;
    }, null, { timeout: 2_000 })
    .catch(() => {
      throw new Error('the opened edit box is not focused and in view');
    });
  return box;
}

/** The only approve control of the bar, checked to be the first of its buttons. */
async function firstApprove(bar) {
  const approves = bar.locator('button.approve');
  assert((await approves.count()) === 1, `${await approves.count()} approve buttons while editing`);
  const first = bar.locator('.approval-actions button').first();
  assert(await first.evaluate((b) => b.classList.contains('approve')), 'the first button is not Approve');
  return first;
}

/** Asserts the run ran issue_refund with the edit and the cards say so. */
async function assertEditedRunShown(page) {
  // The scripted answer still names the order asked for; the verifier
  // checks the order that was refunded, and the banner says so.
  const status = await bannerStatus(page);
  const banner = await page.locator('.stop-banner').innerText();
  assert(status === 'failed_verification', `a refund of another order ended ${status}: ${banner}`);
  assert(banner.includes(`order_id "${EDITED}" (wanted "${ASKED}")`), `the banner does not name the order refunded: ${banner}`);
  const decided = await rowTexts(page, 'approval_decided');
  assert(decided.length === 1 && decided[0].includes('approve_edited (by user)'), `decision row: ${decided}`);
  assert(
    decided[0].includes(`The tool runs with your edit: {"order_id":"${EDITED}"}`),
    `the decision does not say what the tool runs with: ${decided[0]}`,
  );
  assert(
    decided[0].includes(`The model's history keeps its own request: {"order_id":"${ASKED}"}`),
    `the decision does not say what the history keeps: ${decided[0]}`,
  );
  const refund = page.locator('.timeline .event[data-kind="tool_result"]').filter({ hasText: 'issue_refund' });
  assert((await refund.count()) === 1, `${await refund.count()} issue_refund results`);
  const text = await refund.innerText();
  assert(text.includes(`"order_id":"${EDITED}"`) && !text.includes(ASKED), `the tool did not run with the edit: ${text}`);
  assert(text.includes("ran with your edited arguments, not the model's"), `the result does not say it ran with the edit: ${text}`);
  assert((await refund.getAttribute('data-fate')) === 'ran', 'the edited call is not counted as ran');
  // The model's own request is still the call row it sent.
  const calls = await rowTexts(page, 'tool_call');
  assert(calls.some((c) => c.includes('issue_refund') && c.includes(ASKED)), `the call row lost the model's request: ${calls}`);
}

test('truth: with an edit open, the first Approve runs the edit; a bad edit says why and runs nothing', async ({ page }) => {
  await page.setViewportSize({ width: 1100, height: 560 });
  const bar = await refundUntilApproval(page);
  const box = await openEdit(page, bar);
  const approve = await firstApprove(bar);
  assert((await approve.innerText()).startsWith('Approve with these arguments'), `approve reads ${await approve.innerText()}`);
  const always = button(bar, 'Always allow this tool in this run');
  assert(await always.isDisabled(), 'Always allow (the model’s arguments) is available while editing');
  assert((await bar.innerText()).includes('Always allow stays off until you discard the edit'), 'no word on why Always allow is off');

  // The edit is checked as it is typed: the problems show before any
  // click, and Approve stays off while there are any.
  await box.fill('{not json');
  const errors = bar.locator('.edit-errors li');
  await errors.first().waitFor({ timeout: 2_000 });
  assert((await errors.innerText()).includes('not valid JSON'), `bad JSON: ${await errors.allInnerTexts()}`);
  assert(await approve.isDisabled(), 'Approve is on while the edit is not JSON');
  await box.fill('{"order_id": 5}');
  await page.waitForFunction(() => document.querySelector('.edit-errors li')?.textContent.includes('order_id'), null, { timeout: 2_000 });
  assert(await approve.isDisabled(), 'Approve is on while the edit breaks the schema');
  assert((await rowTexts(page, 'approval_decided')).length === 0, 'an invalid edit was approved');

  await box.fill(`{"order_id": "${EDITED}"}`);
  await page.waitForFunction(() => !document.querySelector('.approval-bar button.approve').disabled, null, { timeout: 2_000 });
  await approve.click();
  await assertEditedRunShown(page);
});

test('truth: the `a` key approves the open edit, not the model’s arguments, and refuses a bad one', async ({ page }) => {
  const bar = await refundUntilApproval(page);
  const box = await openEdit(page, bar);
  await box.fill('{"order": "x"}');
  await page.locator('h1').click();
  await page.keyboard.press('a');
  await bar.locator('.edit-errors li').first().waitFor({ timeout: 2_000 });
  assert((await rowTexts(page, 'approval_decided')).length === 0, 'the a key approved an invalid edit');
  assert((await page.locator('.approval-bar').count()) === 1, 'the bar went away after a refused edit');

  await box.fill(`{"order_id": "${EDITED}"}`);
  await page.locator('h1').click();
  await page.keyboard.press('a');
  await assertEditedRunShown(page);

  // Discarding the edit gives Approve back its plain meaning.
  const again = await refundUntilApproval(page);
  await openEdit(page, again);
  await button(again, 'Discard edit').click();
  assert((await again.getByLabel(/Arguments \(JSON/).count()) === 0, 'the edit box stayed open');
  assert(await button(again, 'Always allow this tool in this run').isEnabled(), 'Always allow stayed off after the discard');
  await page.locator('h1').click();
  await page.keyboard.press('a');
  await bannerStatus(page);
  const decided = await rowTexts(page, 'approval_decided');
  assert(decided.length === 1 && decided[0].includes('approve (by user)') && !decided[0].includes('edit'), `decision: ${decided}`);
});

test('truth: a second call waiting for approval shows one bar, under its own request', async ({ page }) => {
  await loadScenario(page, {
    name: 'Two approvals',
    task: 'Email Ana, then Bo.',
    tools: [{
      name: 'send_email', description: 'Sends an email.',
      input_schema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
      needs_approval: true, result: { sent: true },
    }],
    model: { type: 'scripted', responses: [
      { tool_calls: [{ name: 'send_email', args: { to: 'ana@example.com' } }] },
      { tool_calls: [{ name: 'send_email', args: { to: 'bo@example.com' } }] },
      { text: 'Both are sent.' },
    ] },
  });
  await button(page, 'Run').click();
  const bars = page.locator('.approval-bar');
  await bars.first().waitFor({ timeout: 5_000 });
  await button(bars.first(), 'Approve').click();
  await page.waitForFunction(() => document.querySelector('.approval-bar')?.textContent.includes('bo@example.com'), null, { timeout: 5_000 });
  const where = await bars.evaluateAll((all) => all.map((bar) => bar.closest('.turn-card')?.dataset.turn));
  assert(where.length === 1 && where[0] === '2', `bars for the second call in turns ${JSON.stringify(where)}`);
  await button(bars.first(), 'Approve').click();
  assert((await bannerStatus(page)) === 'done', 'the run did not finish');
});

test('truth: opening a kept run brings its trace into view and moves focus to it', async ({ page }) => {
  await page.setViewportSize({ width: 1100, height: 600 });
  assert((await runBuiltin(page, 'tool-call-limit')) === 'tool_call_limit', 'tool-call-limit did not stop');
  assert((await runBuiltin(page, 'turn-limit')) === 'turn_limit', 'turn-limit did not stop');
  // Open is pressed in the History mode, which does not show the Trace.
  await openMode(page, 'history');
  await page.waitForFunction(() => document.querySelectorAll('.history-entry').length === 2, null, { timeout: 10_000 });
  const open = page.locator('.history-entry').nth(1).getByRole('button', { name: /^Open / });
  await open.scrollIntoViewIfNeeded();
  assert(await page.locator('.timeline').isHidden(), 'the History mode shows the Trace');

  await open.click();
  await page.locator('.stop-banner[data-status="tool_call_limit"]').waitFor({ timeout: 5_000 });
  await page
    .waitForFunction(() => {
      const first = document.querySelector('.timeline > [data-card]').getBoundingClientRect();
      const header = document.querySelector('.page-header').getBoundingClientRect().bottom;
      return first.top >= header - 1 && first.top < window.innerHeight && document.activeElement?.id === 'run-timeline';
    }, null, { timeout: 2_000 })
    .catch(async () => {
      const where = await page.evaluate(() => ({
        top: document.querySelector('.timeline > [data-card]').getBoundingClientRect().top,
        header: document.querySelector('.page-header').getBoundingClientRect().bottom,
        height: window.innerHeight,
        focus: document.activeElement?.id || document.activeElement?.tagName,
      }));
      throw new Error(`the opened trace is not in view and focused: ${JSON.stringify(where)}`);
    });
  const first = await page.locator('.timeline > [data-card]').first().innerText();
  assert(first.includes('Run started: Tool call limit'), `the first card in view is not the opened run's: ${first}`);
});

test('truth: a tool_call_limit run counts its tool calls the same in the header, the banner and the cards', async ({ page }) => {
  await pick(page, 'tool-call-limit');
  await button(page, 'Run').click();
  assert((await bannerStatus(page)) === 'tool_call_limit', 'the run did not stop on its tool-call limit');
  const header = await page.locator('.counter[data-counter="tool-calls"] dd').innerText();
  const counted = header.match(/^(\d+) requested \((\d+) ran, (\d+) not run\) · (\d+) checked, limit (\d+)$/);
  assert(counted, `header counter: ${header}`);
  const [requested, ran, notRun, checked, limit] = counted.slice(1).map(Number);
  assert(requested === 8 && ran === 6 && notRun === 2 && checked === 7 && limit === 6, `header counter: ${header}`);
  // The loop's gate counts what the limit counts, by the header's word.
  const gateName = await page.locator('.loop-wide [data-node="gate-tool-calls"]').getAttribute('aria-label');
  assert(gateName.includes(`${checked} checked / ${limit}`), `tool-call gate: ${gateName}`);

  const facts = await page.locator('.stop-banner .stop-facts').innerText();
  assert(facts.includes(`tool calls: ${requested} requested (${ran} ran, ${notRun} not run)`), `banner facts: ${facts}`);

  const rows = (selector) => page.locator(`.timeline .event${selector}`).count();
  assert((await rows('[data-kind="tool_call"]')) === requested, `${await rows('[data-kind="tool_call"]')} call rows, ${requested} requested`);
  assert((await rows('[data-kind="tool_result"][data-fate="ran"]')) === ran, `${await rows('[data-fate="ran"]')} ran rows, header ${ran}`);
  assert((await rows('[data-kind="tool_result"][data-fate="not-run"]')) === notRun, `${await rows('[data-fate="not-run"]')} not-run rows, header ${notRun}`);
  const notRunTitles = await page.locator('.timeline .event[data-fate="not-run"] .event-title').allInnerTexts();
  assert(notRunTitles.every((t) => t === 'Not run: check_stock'), `not-run rows: ${notRunTitles}`);
  // What the model asked for, turn by turn, adds up to the same number.
  const asked = (await rowTexts(page, 'model_response'))
    .map((t) => Number(t.match(/asks for (\d+) tool calls?/)?.[1] ?? 0))
    .reduce((a, b) => a + b, 0);
  assert(asked === requested, `the model's turns ask for ${asked} calls, the header says ${requested}`);
  const reason = await page.locator('.stop-banner .stop-reason').innerText();
  assert(reason.includes(`tool call #${ran + 1}`), `the reason names another call: ${reason}`);
});
