// The playground's own behaviour: runs, the stop banner, the editor, approvals,
// step mode, sharing, themes, long runs and the inspector's bodies.

import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { CANCEL_WITHIN_MS, artifacts, assert, bannerStatus, button, env, loadScenario, pick, refundUntilApproval, rowTexts, runBuiltin, runFiles, test, unlabelledControls } from './lib.mjs';

test('get-time runs to `done`, showing each step and the stop banner', async ({ page }) => {
  const status = await runBuiltin(page, 'get-time');
  assert(status === 'done', `expected done, got ${status}`);
  const banner = page.locator('div[role="status"].stop-banner');
  const text = await banner.innerText();
  assert(text.includes('done'), `banner does not name the status: ${text}`);
  assert(/turns?/.test(text) && /tokens/.test(text) && text.includes('$'), `banner lacks the numbers: ${text}`);
  const kinds = await page.locator('.timeline .event').evaluateAll((rows) => rows.map((r) => r.dataset.kind));
  for (const kind of ['run_started', 'model_request', 'model_response', 'tool_call', 'tool_result', 'run_finished']) {
    assert(kinds.includes(kind), `no ${kind} row in ${kinds.join(', ')}`);
  }
  assert(kinds[0] === 'run_started' && kinds.at(-1) === 'run_finished', `rows out of order: ${kinds.join(', ')}`);
  const call = await page.locator('.timeline .event[data-kind="tool_call"]').first().innerText();
  assert(call.includes('get_time') && call.includes('arguments valid'), `tool call row: ${call}`);
  // A short run draws every card, so a full-page screenshot shows them all:
  // no spacer stands in for an undrawn one.
  const spacers = await page.locator('#run-timeline > .gap').evaluateAll((gaps) => gaps.map((g) => g.offsetHeight));
  assert(spacers.every((h) => h === 0), `spacers in a short run: ${spacers}`);
  const turns = await page.locator('.timeline .event[data-kind="model_request"]').count();
  assert((await page.locator('#run-timeline > .turn-card').count()) === turns, 'a turn card is not drawn');
  await page.screenshot({ path: join(artifacts, 'get-time-done.png'), fullPage: true });
});

test('turn-limit stops `turn_limit` after three model calls', async ({ page }) => {
  const status = await runBuiltin(page, 'turn-limit');
  assert(status === 'turn_limit', `expected turn_limit, got ${status}`);
  const requests = await page.locator('.timeline .event[data-kind="model_request"]').count();
  assert(requests === 3, `expected 3 model requests, saw ${requests}`);
  const reason = await page.locator('.stop-banner .stop-reason').innerText();
  assert(reason.trim().length > 0, 'the banner has no reason');
});

test('broken JSON lists its problem in an alert and disables Run with the reason', async ({ page }) => {
  await page.locator('#scenario-json').fill('{"name": "broken",');
  assert((await page.locator('#scenario-picker').inputValue()) === 'custom', 'editing did not switch the picker to Custom');
  const alert = page.locator('.problems[role="alert"]');
  await alert.waitFor();
  const items = await alert.locator('li').allInnerTexts();
  assert(items.length === 1 && items[0].startsWith('not valid JSON'), `alert: ${JSON.stringify(items)}`);
  assert(await button(page, 'Run').isDisabled(), 'Run is enabled for broken JSON');
  assert(await button(page, 'Step').isDisabled(), 'Step is enabled for broken JSON');
  const reason = await page.locator('#run-blocker').innerText();
  assert(reason.startsWith('Run is disabled: not valid JSON'), `reason: ${reason}`);
  assert((await page.locator('.timeline .event').count()) === 0, 'a run happened');
  assert((await page.locator('.stop-banner').count()) === 0, 'a stop banner appeared');
});

test('a scenario with several problems lists every one with its path', async ({ page }) => {
  const bad = {
    name: 42,
    task: 'x',
    model: { type: 'scripted', responses: [{ tool_calls: [{ name: 't', args: 'oops' }] }] },
  };
  await loadScenario(page, bad);
  const items = page.locator('.problems[role="alert"] li');
  await items.first().waitFor();
  const texts = await items.allInnerTexts();
  assert(texts.length === 2, `expected 2 problems, got ${JSON.stringify(texts)}`);
  assert(texts.some((t) => t.startsWith('name: ')), `no problem at name: ${JSON.stringify(texts)}`);
  assert(
    texts.some((t) => t.startsWith('model.responses[0].tool_calls[0].args: ')),
    `no problem at the args path: ${JSON.stringify(texts)}`,
  );
  assert(await button(page, 'Run').isDisabled(), 'Run is enabled');
  // Fixing the scenario clears the alert and runs.
  const status = await runBuiltin(page, 'get-time');
  assert(status === 'done', `expected done after fixing, got ${status}`);
  assert((await page.locator('.problems[role="alert"] li').count()) === 0, 'the alert stayed after a good run');
});

test('an invalid tool schema is flagged under its tool and disables Run with the reason', async ({ page }) => {
  await pick(page, 'bad-arguments');
  const scenario = JSON.parse(await page.locator('#scenario-json').inputValue());
  const index = scenario.tools.findIndex((t) => typeof t === 'object');
  assert(index >= 0, 'bad-arguments has no inline tool');
  await page.locator('summary', { hasText: 'Tools' }).click();
  const schema = page.locator(`#tool-${index}-schema`);
  // Not JSON at all: flagged at once, Run disabled.
  await schema.fill('{"type": "object",');
  await page.locator('.tool .field-error').first().waitFor();
  assert(await button(page, 'Run').isDisabled(), 'Run is enabled with a schema that is not JSON');
  // JSON, but a type that does not exist.
  await schema.fill('{"type": "object", "properties": {"n": {"type": "integr"}}}');
  const problem = page.locator('.tool').nth(index).locator('.field-problems li');
  await problem.first().waitFor();
  const text = await problem.first().innerText();
  assert(text.startsWith(`tools[${index}].input_schema`), `problem under the tool: ${text}`);
  assert(await button(page, 'Run').isDisabled(), 'Run is enabled with a broken schema');
  const reason = await page.locator('#run-blocker').innerText();
  assert(reason.includes(`tools[${index}].input_schema`), `reason: ${reason}`);
  // The raw JSON follows the field.
  assert((await page.locator('#scenario-json').inputValue()).includes('integr'), 'the JSON did not follow the field');
  await schema.fill('{"type": "object"}');
  await page.waitForFunction(() => !document.querySelector('button.run').disabled);
});

test('structured fields edit the next run: task, a limit with its unit, the script', async ({ page }) => {
  await pick(page, 'get-time');
  await page.locator('#field-task').fill('What time is it in Lisbon?');
  await page.locator('summary', { hasText: 'Limits' }).click();
  const label = await page.locator('label[for="limit-max_turns"]').innerText();
  assert(label.includes('model calls'), `max_turns label has no unit: ${label}`);
  assert((await page.locator('.limit').count()) >= 12, 'not every limit is in the form');
  await page.locator('#limit-max_turns').fill('1');
  await page.locator('#limit-deadline_ms').fill('soon');
  await page.locator('.limit[data-limit="deadline_ms"] .field-error').waitFor();
  assert(await button(page, 'Run').isDisabled(), 'Run is enabled with a limit that is not a number');
  await page.locator('#limit-deadline_ms').fill('');
  await page.locator('summary', { hasText: 'Scripted responses' }).click();
  const responses = page.locator('#field-responses');
  const script = await responses.inputValue();
  await responses.fill('[{"tool_calls": [{"name": "get_time", "args": "oops"}]}]');
  const problem = page.locator('.form-section .field-problems li', { hasText: 'model.responses[0].tool_calls[0].args' });
  await problem.waitFor();
  await responses.fill(script);
  const json = JSON.parse(await page.locator('#scenario-json').inputValue());
  assert(json.task === 'What time is it in Lisbon?' && json.limits.max_turns === 1, `JSON: ${JSON.stringify(json).slice(0, 200)}`);
  await button(page, 'Run').click();
  assert((await bannerStatus(page)) === 'turn_limit', 'max_turns 1 did not apply to the run');
  const started = await page.locator('.timeline .event[data-kind="run_started"]').innerText();
  assert(started.includes('Lisbon'), `the run did not use the edited task: ${started}`);
});

test(`Stop during deadline's hung call ends \`cancelled\` within ${CANCEL_WITHIN_MS} ms`, async ({ page }) => {
  await pick(page, 'deadline');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  // The second model call is the one that hangs for 60 s.
  await page.locator('.timeline .event[data-kind="model_request"]').nth(1).waitFor({ timeout: 5_000 });
  assert((await page.locator('.stop-banner').count()) === 0, 'the run ended before Stop');
  const stop = page.getByRole('button', { name: 'Stop', exact: true });
  const clicked = Date.now();
  await stop.click();
  const banner = page.locator('.stop-banner');
  await banner.waitFor({ timeout: 5_000 });
  const took = Date.now() - clicked;
  const status = await banner.getAttribute('data-status');
  assert(status === 'cancelled', `expected cancelled, got ${status}`);
  assert(took <= CANCEL_WITHIN_MS, `cancelled ${took} ms after the click`);
  assert(await stop.isDisabled(), 'Stop is still enabled after the run ended');
  assert(await page.getByRole('button', { name: 'Run', exact: true }).isEnabled(), 'Run is still disabled');
  console.log(`    (banner ${took} ms after the click)`);
});

test('turn cards show per-turn numbers; long results start collapsed behind "Show all"', async ({ page }) => {
  const long = Array.from({ length: 40 }, (_, i) => `line ${i + 1} of the report`).join('\n');
  await loadScenario(page, {
    name: 'Long result',
    task: 'Fetch the report.',
    tools: [{ name: 'fetch_report', description: 'Returns a long report.', input_schema: { type: 'object' }, result: long }],
    model: { type: 'scripted', responses: [
      { thinking: 'I need the report.', tool_calls: [{ name: 'fetch_report', args: {} }] },
      { text: 'The report has 40 lines.' },
    ] },
  });
  await button(page, 'Run').click();
  assert((await bannerStatus(page)) === 'done', 'the run did not finish');
  const cards = page.locator('.turn-card');
  assert((await cards.count()) === 2, `expected 2 turn cards, got ${await cards.count()}`);
  const stats = await cards.first().locator('.turn-stats').innerText();
  assert(/in \/ \d+ out tokens · \$[\d.]+ · \d+ ms/.test(stats), `turn stats: ${stats}`);
  const first = await cards.first().innerText();
  assert(first.includes('thinking: I need the report.'), 'the thinking is not shown');
  const result = cards.first().locator('.event[data-kind="tool_result"]');
  const pre = result.locator('pre');
  assert(!(await pre.innerText()).includes('line 40'), 'the long result is not collapsed');
  const toggle = result.getByRole('button', { name: 'Show all' });
  assert((await toggle.getAttribute('aria-expanded')) === 'false', 'aria-expanded is not false');
  await toggle.click();
  assert((await pre.innerText()).includes('line 40 of the report'), 'Show all did not show everything');
  assert((await result.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')) === 'true', 'aria-expanded is not true');
});

test('refund-with-approval pauses on issue_refund and ends `done` after Approve', async ({ page }) => {
  const bar = await refundUntilApproval(page);
  assert((await page.locator('.stop-banner').count()) === 0, 'the run ended while waiting');
  await page.waitForTimeout(200);
  assert((await rowTexts(page, 'tool_result')).length === 1, 'issue_refund ran before the decision');
  await button(bar, 'Approve').click();
  const status = await bannerStatus(page);
  assert(status === 'done', `expected done, got ${status}`);
  const decided = await rowTexts(page, 'approval_decided');
  assert(decided.length === 1 && decided[0].includes('approve (by user)'), `decision row: ${decided}`);
  assert((await page.locator('.approval-bar').count()) === 0, 'the bar stayed after the decision');
  // A screenshot: the approved call, the answer and the banner, the trace
  // scrolled to turn 2 beside the loop.
  await page.setViewportSize({ width: 1280, height: 1180 });
  await page.evaluate(() => document.querySelector('.turn-card[data-turn="2"]').scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: join(artifacts, 'refund-approved.png') });
});

test('an approval bar that appears below the screen is scrolled into view', async ({ page }) => {
  // A short window: the bar for turn 2's issue_refund is drawn below the fold.
  await page.setViewportSize({ width: 1100, height: 560 });
  const bar = await refundUntilApproval(page);
  await page.waitForFunction(() => {
    const rect = document.querySelector('.approval-bar').getBoundingClientRect();
    const header = document.querySelector('.page-header').getBoundingClientRect().bottom;
    const column = document.querySelector('.layout > .trace').getBoundingClientRect();
    // Its start, in view: in the stage's trace column (about a quarter of
    // the width) the bar is taller than this short window.
    const bottom = Math.min(window.innerHeight, column.bottom);
    return rect.top >= Math.max(header, column.top) - 1 && rect.top < bottom - 60 && (rect.height > bottom - column.top || rect.bottom <= bottom + 1);
  }, null, { timeout: 2_000 }).catch(async () => {
    const box = await bar.boundingBox();
    throw new Error(`the bar is not in view: top ${box.y}, bottom ${box.y + box.height}, window 560`);
  });
  // On the stage the trace's own column scrolls, not the page.
  const scrolled = await page.evaluate(() => document.querySelector('.layout > .trace').scrollTop);
  assert(scrolled > 0, 'the trace did not scroll');
  await button(bar, 'Approve').click();
  assert((await bannerStatus(page)) === 'done', 'the run did not end done');
});

test('at 1440 px the approval bar spans its card, and every control and the reason box are in view', async ({ page }) => {
  // The stage's trace column is about a quarter of the window. The bar sat
  // under the row's text, beside its time column: 186 px wide, its title on
  // four lines and "Always allow" below the column's fold. Spanning the row,
  // its buttons took a line each, and the reason box fell below the fold.
  await page.setViewportSize({ width: 1440, height: 900 });
  const bar = await refundUntilApproval(page);
  const fit = await page.evaluate(() => {
    const bar = document.querySelector('.approval-bar').getBoundingClientRect();
    const card = document.querySelector('.approval-bar').closest('.turn-card').getBoundingClientRect();
    const column = document.querySelector('.layout > .trace').getBoundingClientRect();
    const bottom = Math.min(window.innerHeight, column.bottom);
    const inView = (el) => {
      const r = el.getBoundingClientRect();
      return r.top >= column.top && r.bottom <= bottom;
    };
    // By the words shown (innerText skips the hidden "Discard edit").
    const named = (name) => [...document.querySelectorAll('.approval-bar button')].find((x) => x.innerText.trim().startsWith(name));
    const seen = (name) => inView(named(name));
    const top = (name) => named(name).getBoundingClientRect().top;
    return {
      bar: bar.width, card: card.width, left: bar.left - card.left, right: card.right - bar.right,
      approve: seen('Approve'), deny: seen('Deny'), always: seen('Always allow'),
      reason: inView(document.querySelector('.approval-reason input')),
      oneLine: top('Approve') === top('Edit arguments') && top('Deny') === top('Deny and stop'),
    };
  });
  assert(fit.left >= 0 && fit.right >= 0 && fit.bar >= fit.card - 4, `the bar is ${fit.bar} px wide in a ${fit.card} px card: ${JSON.stringify(fit)}`);
  assert(fit.approve && fit.deny && fit.always && fit.reason, `not in the trace column's view: ${JSON.stringify(fit)}`);
  assert(fit.oneLine, `Approve and Edit, or the two Denys, are not on one line: ${JSON.stringify(fit)}`);
  await button(bar, 'Approve').click();
  assert((await bannerStatus(page)) === 'done', 'the run did not end done');
});

test('the `a` key approves and the `d` key denies, but not while typing', async ({ page }) => {
  const bar = await refundUntilApproval(page);
  // Typing a reason is not a shortcut.
  await bar.getByLabel(/Reason for a denial/).fill('ad');
  assert((await page.locator('.approval-bar').count()) === 1, 'typing in the reason decided');
  await page.locator('h1').click();
  await page.keyboard.press('a');
  assert((await bannerStatus(page)) === 'done', 'the a key did not approve');
  const second = await refundUntilApproval(page);
  await second.waitFor();
  await page.locator('h1').click();
  await page.keyboard.press('d');
  await page.locator('.stop-banner').waitFor();
  const decided = await rowTexts(page, 'approval_decided');
  assert(decided.some((d) => d.includes('deny (by user)')), `decision rows: ${decided}`);
});

test('a Deny with a reason reaches the model, which recovers and ends `done`', async ({ page }) => {
  await loadScenario(page, {
    name: 'Deny and recover',
    task: 'Clean up the temp folder.',
    tools: [{
      name: 'delete_folder', description: 'Deletes a folder.',
      input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      needs_approval: true, result: { ok: true },
    }],
    model: { type: 'scripted', responses: [
      { tool_calls: [{ name: 'delete_folder', args: { path: '/tmp' } }] },
      { text: 'Understood: I left /tmp alone because you asked me to keep it.' },
    ] },
  });
  await button(page, 'Run').click();
  const bar = page.locator('.approval-bar');
  await bar.waitFor({ timeout: 5_000 });
  await bar.getByLabel(/Reason for a denial/).fill('keep the logs');
  await button(bar, 'Deny').click();
  const status = await bannerStatus(page);
  assert(status === 'done', `expected done, got ${status}`);
  const results = await page.locator('.timeline .event[data-kind="tool_result"]').all();
  assert(results.length === 1, `expected 1 tool result, got ${results.length}`);
  const result = await results[0].innerText();
  assert(result.includes('keep the logs'), `the model did not see the reason: ${result}`);
  assert(await results[0].evaluate((li) => li.classList.contains('tone-error')), 'the denial is not marked as an error');
  const decided = await rowTexts(page, 'approval_decided');
  assert(decided[0].includes('deny (by user)') && decided[0].includes('keep the logs'), `decision: ${decided}`);
});

test('Deny and stop ends the run `blocked`', async ({ page }) => {
  const bar = await refundUntilApproval(page);
  await button(bar, 'Deny and stop').click();
  const status = await bannerStatus(page);
  assert(status === 'blocked', `expected blocked, got ${status}`);
  const reason = await page.locator('.stop-banner .stop-reason').innerText();
  assert(reason.includes('issue_refund'), `reason: ${reason}`);
  assert(await button(page, 'Run').isEnabled(), 'Run is disabled after the run');
});

test('Edit arguments refuses an edit that breaks the schema and runs a valid one', async ({ page }) => {
  // An inline tool, so the schema under test is spelled out here.
  await loadScenario(page, {
    name: 'Edit before approving',
    task: 'Refund order ord_f6g7h8i9j0.',
    tools: [{
      name: 'issue_refund', description: 'Refund an order in full.',
      input_schema: {
        type: 'object',
        properties: { order_id: { type: 'string', pattern: '^ord_[a-z0-9]{10}$' } },
        required: ['order_id'], additionalProperties: false,
      },
      needs_approval: true, result: { ok: true },
    }],
    verify: [{ tool_called: 'issue_refund' }],
    model: { type: 'scripted', responses: [
      { tool_calls: [{ name: 'issue_refund', args: { order_id: 'ord_f6g7h8i9j0' } }] },
      { text: 'Refund issued.' },
    ] },
  });
  await button(page, 'Run').click();
  const bar = page.locator('.approval-bar');
  await bar.waitFor({ timeout: 5_000 });
  await button(bar, 'Edit arguments').click();
  const box = bar.getByLabel(/Arguments \(JSON/);
  const prefilled = JSON.parse(await box.inputValue());
  assert(prefilled.order_id === 'ord_f6g7h8i9j0', `edit box prefilled with ${JSON.stringify(prefilled)}`);
  // Checked as it is typed: the problems show, and Approve stays off.
  await box.fill('{"order_id": "not-an-order"}');
  const errors = bar.locator('.edit-errors li');
  await errors.first().waitFor();
  const text = (await errors.allInnerTexts()).join(' ');
  assert(text.includes('/order_id'), `the error does not name the path: ${text}`);
  const approve = button(bar, 'Approve with these arguments');
  assert(await approve.isDisabled(), 'Approve is on for an edit that breaks the schema');
  assert((await page.locator('.timeline .event[data-kind="approval_decided"]').count()) === 0, 'the invalid edit was sent');
  await box.fill('{not json');
  await page.waitForFunction(() => document.querySelector('.edit-errors li')?.textContent.includes('not valid JSON'));
  assert(await approve.isDisabled(), 'Approve is on for an edit that is not JSON');
  await box.fill('{"order_id": "ord_a1b2c3d4e5"}');
  await approve.click();
  const status = await bannerStatus(page);
  assert(status === 'done', `expected done, got ${status}`);
  const decided = await rowTexts(page, 'approval_decided');
  assert(decided[0].includes('approve_edited') && decided[0].includes('ord_a1b2c3d4e5'), `decision: ${decided}`);
});

test('Always allow this tool approves this call and the later ones without asking', async ({ page }) => {
  const tool = {
    name: 'send_email', description: 'Sends an email.',
    input_schema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    needs_approval: true, result: { sent: true },
  };
  await loadScenario(page, {
    name: 'Always allow',
    task: 'Email Ana and Bo.',
    tools: [tool],
    model: { type: 'scripted', responses: [
      { tool_calls: [{ name: 'send_email', args: { to: 'ana@example.com' } }] },
      { tool_calls: [{ name: 'send_email', args: { to: 'bo@example.com' } }] },
      { text: 'Both emails are sent.' },
    ] },
  });
  await button(page, 'Run').click();
  const bar = page.locator('.approval-bar');
  await bar.waitFor({ timeout: 5_000 });
  // The bar is inside the turn card, under the call it is about.
  const inCard = await bar.evaluate((el) => el.closest('.turn-card')?.dataset.turn);
  assert(inCard === '1', `the bar is not in turn 1's card (${inCard})`);
  await button(bar, 'Always allow this tool in this run').click();
  assert((await bannerStatus(page)) === 'done', 'the run did not finish');
  const decided = await rowTexts(page, 'approval_decided');
  assert(decided.length === 2, `expected 2 decisions, got ${decided.length}`);
  assert(decided[0].includes('always_allow (by user)'), `first decision: ${decided[0]}`);
  assert(decided[1].includes('(by always_allow)'), `second decision: ${decided[1]}`);
});

/** Waits until the timeline draws `n` cards of `kind`; fails naming how many it drew. */
async function cards(page, kind, n) {
  await page
    .waitForFunction(([kind, n]) => document.querySelectorAll(`.timeline .event[data-kind="${kind}"]`).length === n, [kind, n], { timeout: 2_000 })
    .catch(async () => {
      const drawn = await page.locator(`.timeline .event[data-kind="${kind}"]`).count();
      throw new Error(`${drawn} ${kind} cards drawn, expected ${n}`);
    });
}

test('Step pauses before each model call and tool call; Run finishes', async ({ page }) => {
  await pick(page, 'get-time');
  const state = page.locator('.run-state');
  const step = button(page, 'Step');
  const count = (kind) => page.locator(`.timeline .event[data-kind="${kind}"]`).count();
  await step.click();
  await page.waitForFunction(() => document.querySelector('.run-state').textContent.includes('Paused before model call (turn 1)'));
  assert((await count('model_request')) === 0, 'the model was called before the first step');
  await step.click();
  await page.waitForFunction(() => document.querySelector('.run-state').textContent.includes('Paused before tool call get_time'));
  // The timeline draws a few new cards a frame, so a card may follow the
  // paused line by a frame: wait for the answer's card, then check that no
  // result came while paused.
  await cards(page, 'model_response', 1);
  assert((await count('tool_result')) === 0, 'not paused before the tool call');
  await step.click();
  await page.waitForFunction(() => document.querySelector('.run-state').textContent.includes('Paused before model call (turn 2)'));
  await cards(page, 'tool_result', 1);
  assert((await count('model_request')) === 1, 'not paused before turn 2');
  assert((await page.locator('.counter[data-counter="turn"] dd').innerText()).startsWith('1 /'), 'turn counter');
  // Paused, Run goes on with this run, and says so and whose run it is.
  const go = button(page, 'Continue');
  const title = await go.getAttribute('title');
  assert(title.startsWith('Run the rest of this run of “') && title.includes('without pausing'), `title: ${title}`);
  await go.click();
  assert((await bannerStatus(page)) === 'done', 'Run after stepping did not finish');
  assert(await button(page, 'Run').isEnabled(), 'Run is not back once the run has ended');
  assert((await state.innerText()).trim() === '', 'still says paused');
});

test(`Stop during a tool's long delay_ms ends \`cancelled\` within ${CANCEL_WITHIN_MS} ms; Reset clears`, async ({ page }) => {
  await loadScenario(page, {
    name: 'Slow tool',
    task: 'Fetch the report.',
    tools: [{ name: 'fetch_report', description: 'Slow.', input_schema: { type: 'object' }, result: { ok: true }, delay_ms: 60000 }],
    model: { type: 'scripted', responses: [
      { tool_calls: [{ name: 'fetch_report', args: {} }] },
      { text: 'Here it is.' },
    ] },
  });
  await button(page, 'Run').click();
  await page.locator('.timeline .event[data-kind="tool_call"]').waitFor({ timeout: 5_000 });
  await page.waitForTimeout(300);
  const clicked = Date.now();
  await button(page, 'Stop').click();
  const status = await bannerStatus(page);
  const took = Date.now() - clicked;
  assert(status === 'cancelled', `expected cancelled, got ${status}`);
  assert(took <= CANCEL_WITHIN_MS, `cancelled ${took} ms after the click`);
  console.log(`    (banner ${took} ms after the click)`);
  await button(page, 'Reset').click();
  await page.waitForFunction(() => document.querySelectorAll('.timeline .event').length === 0);
  assert((await page.locator('.stop-banner').count()) === 0, 'Reset left the banner');
});

test('Copy link puts the scenario in `#s=` and opening the link loads it', async ({ page }) => {
  const custom = {
    name: 'Shared café ☕',
    task: 'Say hello.',
    model: { type: 'scripted', responses: [{ text: 'Hello.' }] },
  };
  await loadScenario(page, custom);
  const text = await page.locator('#scenario-json').inputValue();
  await button(page, 'Copy link').click();
  const link = await page.locator('#share-link').inputValue();
  assert(link.includes('#s='), `link: ${link}`);
  assert(page.url() === link, `the address bar (${page.url()}) is not the link`);
  const encoded = link.split('#s=')[1];
  assert(/^[A-Za-z0-9_-]+$/.test(encoded), 'the fragment is not unpadded base64url');
  const decoded = Buffer.from(encoded, 'base64url').toString('utf8');
  assert(decoded === text.trim(), 'the fragment does not decode to the scenario');
  // A fresh browser context: no autosave to fall back on.
  const other = await env.browser.newContext();
  try {
    const fresh = await other.newPage();
    await fresh.goto(link);
    await fresh.locator('#scenario-picker').waitFor();
    const loaded = await fresh.locator('#scenario-json').inputValue();
    assert(loaded === text.trim(), `opened link shows: ${loaded.slice(0, 80)}`);
    assert((await fresh.locator('#scenario-picker').inputValue()) === 'custom', 'picker not on Custom');
    await button(fresh, 'Run').click();
    const status = await fresh.locator('.stop-banner').getAttribute('data-status');
    assert(status === 'done', `the shared scenario ended ${status}`);
  } finally {
    await other.close();
  }
});

/** Reloads the page with the built-ins' module held back until `release()`. */
async function holdBuiltins(page) {
  const held = [];
  let released = false;
  await page.route(/\/split_builtin_json_[^/]*\.wasm$/, (route) => (released ? route.continue() : held.push(route)));
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  return async () => {
    released = true;
    for (const route of held) await route.continue();
  };
}

test('a picked built-in holds Run, saying why, until its file arrives; an edit meanwhile wins', async ({ page }) => {
  const release = await holdBuiltins(page);
  await page.selectOption('#scenario-picker', 'turn-limit');
  const run = button(page, 'Run');
  await page.locator('#run-blocker', { hasText: 'the picked scenario is still loading' }).waitFor({ timeout: 5_000 });
  assert(await run.isDisabled(), 'Run is enabled before the picked scenario arrived');
  assert((await page.locator('.lesson').textContent()) === 'Loading the scenario…', 'no loading lesson');
  await release();
  const label = (await page.locator('#scenario-picker option[value="turn-limit"]').textContent()).trim();
  await page.waitForFunction((name) => JSON.parse(document.querySelector('#scenario-json').value).name === name, label, { timeout: 5_000 });
  await page.waitForFunction(() => !document.querySelector('button.run').disabled, null, { timeout: 5_000 });
  assert((await page.locator('#run-blocker').textContent()) === '', 'the blocker stays after the file arrived');
  await run.click();
  assert((await bannerStatus(page)) === 'turn_limit', 'the picked scenario did not run');

  // Typing while a pick is on its way: the typed text stays, the picker says Custom.
  const releaseAgain = await holdBuiltins(page);
  await page.selectOption('#scenario-picker', 'get-time');
  const typed = '{"name": "mine"}';
  await page.locator('#scenario-json').fill(typed);
  await releaseAgain();
  await page.waitForTimeout(300);
  assert((await page.locator('#scenario-json').inputValue()) === typed, 'the late file replaced the typed text');
  assert((await page.locator('#scenario-picker').inputValue()) === 'custom', 'the picker does not say Custom');
});

test('the scenario is autosaved and restored on reload', async ({ page }) => {
  await pick(page, 'turn-limit');
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  assert((await page.locator('#scenario-picker').inputValue()) === 'turn-limit', 'the picked built-in was not restored');
  const edited = (await page.locator('#scenario-json').inputValue()).replace('"task": "', '"task": "Edited: ');
  await page.locator('#scenario-json').fill(edited);
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  assert((await page.locator('#scenario-json').inputValue()) === edited, 'the edit was not restored');
  assert((await page.locator('#scenario-picker').inputValue()) === 'custom', 'picker not on Custom after reload');
});

test('a scenario exports and imports as a JSON file; the trace exports as JSON Lines', async ({ page }) => {
  await pick(page, 'get-time');
  const [scenarioFile] = await Promise.all([page.waitForEvent('download'), button(page, 'Export scenario').click()]);
  const path = join(artifacts, scenarioFile.suggestedFilename());
  await scenarioFile.saveAs(path);
  const exported = await readFile(path, 'utf8');
  assert(exported === (await page.locator('#scenario-json').inputValue()), 'the exported file differs from the editor');
  assert(scenarioFile.suggestedFilename().endsWith('.json'), scenarioFile.suggestedFilename());
  await pick(page, 'turn-limit');
  await page.getByRole('button', { name: 'Import scenario' }).setInputFiles(path);
  await page.waitForFunction(() => document.querySelector('#scenario-picker').value === 'get-time');
  assert((await page.locator('#scenario-json').inputValue()) === exported, 'import did not load the file');
  await runFiles(page);
  assert(await button(page, 'Export trace (JSONL)').isDisabled(), 'trace export enabled with no trace');
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not finish');
  const [traceFile] = await Promise.all([page.waitForEvent('download'), button(page, 'Export trace (JSONL)').click()]);
  const tracePath = join(artifacts, 'trace.jsonl');
  await traceFile.saveAs(tracePath);
  const lines = (await readFile(tracePath, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
  // A record: the scenario it ran, then every event of the run.
  assert(lines[0].type === 'scenario' && lines[1].type === 'run_started' && lines.at(-1).type === 'run_finished', 'trace is not a whole run');
  assert(lines.at(-1).status === 'done', `last line: ${JSON.stringify(lines.at(-1))}`);
  assert(lines.length - 1 === (await page.locator('.timeline .event').count()), 'trace and timeline disagree on the event count');
});

test('the theme switch overrides the system theme and is remembered', async ({ page }) => {
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await bg();
  await page.getByLabel('Theme').selectOption('dark');
  const dark = await bg();
  assert(dark !== light, `dark theme did not change the background (${dark})`);
  await page.reload();
  await page.locator('#scenario-picker').waitFor();
  assert((await bg()) === dark, 'the theme was not remembered');
  await page.getByLabel('Theme').selectOption('system');
  assert((await bg()) === light, 'system theme did not return to light');
});

const turnCounter = (page) => page.locator('.counter[data-counter="turn"] dd').innerText();

/** A scripted model that calls a trivial tool forever, for long runs. */
function endless(maxTurns) {
  return {
    name: `Endless ${maxTurns}`,
    task: 'Keep going.',
    tools: [{ name: 'noop', description: 'Does nothing.', input_schema: { type: 'object' }, result: { ok: true } }],
    limits: { max_turns: maxTurns },
    model: { type: 'scripted', responses: [{ tool_calls: [{ name: 'noop', args: {} }] }], loop_from: 0 },
  };
}

test('a 1,000-turn run streams without freezing the page and ends `turn_limit`, drawing only the cards near the window', async ({ page }) => {
  await loadScenario(page, endless(1000));
  // Frames keep coming while the run streams: record each gap between them
  // and the turns the counter showed as the frame began.
  await page.evaluate(() => {
    window.__gaps = [];
    let last = performance.now();
    const tick = (now) => {
      const turn = parseInt(document.querySelector('.counter[data-counter="turn"] dd')?.textContent ?? '0', 10);
      window.__gaps.push({ ms: now - last, turn });
      last = now;
      if (!document.querySelector('.stop-banner')) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const started = Date.now();
  await button(page, 'Run').click();
  await page.locator('.stop-banner').waitFor({ timeout: 25_000 });
  const status = await page.locator('.stop-banner').getAttribute('data-status');
  const took = Date.now() - started;
  assert(status === 'turn_limit', `expected turn_limit, got ${status}`);
  assert((await turnCounter(page)) === '1000 / 1000', `the turn counter says ${await turnCounter(page)}`);
  // The cards near the window are drawn, the rest stand in as spacers.
  const drawn = await page.locator('#run-timeline > .turn-card').count();
  assert(drawn > 0 && drawn < 60, `${drawn} turn cards drawn of 1,000`);
  // The frames that draw the first cards draw a few new ones each
  // (card_window::NEW_PER_FRAME); when they drew up to DRAW_ALL_UP_TO (30)
  // at once, that took 80-120 ms on an idle 2-core machine, a one-off. The frames after them, while the
  // run streams, draw only the cards near the window: 50-85 ms there. A gap
  // is the work of the frame before it: it counts as a first-cards frame
  // when that frame began with 30 turns or fewer shown. The bounds catch a
  // freeze (work that grows with the run, as a check of the whole history
  // on every frame did) with room for a loaded machine; the figures are
  // printed, as scripts/browser-bench.mjs prints them for long runs.
  const gaps = await page.evaluate(() => window.__gaps);
  const startup = gaps.filter((_, i) => i > 0 && gaps[i - 1].turn <= 30).map((g) => g.ms);
  const later = gaps.filter((_, i) => i > 0 && gaps[i - 1].turn > 30).map((g) => g.ms);
  const first = Math.max(0, ...startup);
  const streaming = Math.max(0, ...later);
  console.log(`    (${took} ms for 1,000 turns; longest frame while the first cards were drawn ${Math.round(first)} ms, after them ${Math.round(streaming)} ms; ${drawn} cards drawn)`);
  assert(first < 400, `drawing the first cards froze the page for ${Math.round(first)} ms`);
  assert(streaming < 250, `the page froze for ${Math.round(streaming)} ms while the run streamed`);
});

test(`Stop during a fast endless run ends it \`cancelled\` within ${CANCEL_WITHIN_MS} ms`, async ({ page }) => {
  await loadScenario(page, endless(100000));
  // One mouse click where Stop sits (the toolbar is sticky), as a person
  // would click: no scrolling or stability checks that wait for frames.
  const box = await button(page, 'Stop').boundingBox();
  await button(page, 'Run').click();
  await page.waitForFunction(() => parseInt(document.querySelector('.counter[data-counter="turn"] dd').textContent, 10) >= 100, null, { polling: 'raf' });
  // Stop stays where it was before Run: nothing beside it reflows as a run starts.
  const moved = await button(page, 'Stop').boundingBox();
  assert(moved.x === box.x && moved.y === box.y, `Stop moved from ${box.x},${box.y} to ${moved.x},${moved.y} as the run started`);
  const clicked = Date.now();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const status = await bannerStatus(page);
  const took = Date.now() - clicked;
  assert(status === 'cancelled', `expected cancelled, got ${status}`);
  assert(took <= CANCEL_WITHIN_MS, `cancelled ${took} ms after the click`);
  const turns = parseInt(await turnCounter(page), 10);
  assert(turns < 100000, 'the run reached its end before Stop');
  console.log(`    (banner ${took} ms after the click, at turn ${turns})`);
});

test('every built-in scenario ends with its expected status', async ({ page }) => {
  const options = await page
    .locator('#scenario-picker option[data-expected]')
    .evaluateAll((os) => os.map((o) => ({ id: o.value, expected: o.dataset.expected })));
  assert(options.length >= 10, `only ${options.length} built-ins in the picker`);
  const groups = await page.locator('#scenario-picker optgroup').count();
  assert(groups >= 2, `built-ins are not grouped (${groups} optgroups)`);
  const wrong = [];
  for (const { id, expected } of options) {
    // A fresh load per scenario, so one run's banner is never mistaken for the next's.
    await page.goto(env.baseUrl);
    await page.locator('#scenario-picker').waitFor();
    // Seed 002's shared deadline counts from page load (the option says how
    // old the page must be): wait, as anyone who reads the lesson first does.
    const age = Number(await page.locator(`#scenario-picker option[value="${id}"]`).getAttribute('data-clock-age-ms') ?? 0);
    if (age > 0) await page.waitForFunction((ms) => performance.now() > ms, age, { timeout: age + 5_000 });
    const got = await runBuiltin(page, id, { approve: true });
    if (got !== expected) wrong.push(`${id}: expected ${expected}, got ${got}`);
  }
  assert(wrong.length === 0, wrong.join('; '));
  // 65 built-ins, each a fresh load and a run: about a second apiece on an
  // idle machine, twice that under load. The limit only guards a hang.
}, { timeoutMs: 360_000 });

/** Opens the inspector on turn `turn` from its request card and returns it. */
async function openWire(page, turn) {
  await page.getByRole('button', { name: `Inspect turn ${turn}'s request and response` }).click();
  const wire = page.locator('section.inspector[data-open]');
  await wire.locator('.inspector-verdict').waitFor({ timeout: 5_000 });
  return wire;
}

test('the inspector shows turn 2 per provider with a Copy button, and every provider accepts', async ({ page }) => {
  const status = await runBuiltin(page, 'get-time');
  assert(status === 'done', `expected done, got ${status}`);
  const wire = await openWire(page, 2);
  const tabs = wire.locator('.wire-tabs').getByRole('tab');
  assert((await tabs.count()) === 3, 'expected three format tabs');
  const anthropicTab = wire.getByRole('tab', { name: 'Anthropic Messages' });
  assert((await anthropicTab.getAttribute('aria-selected')) === 'true', 'Anthropic is not the first tab');
  const body = JSON.parse(await wire.locator('pre.wire-json').innerText());
  const useIds = body.messages.flatMap((m) =>
    Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_use').map((b) => b.id) : []);
  const resultIds = body.messages.flatMap((m) =>
    Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : []);
  assert(useIds.length === 1 && resultIds.includes(useIds[0]), `tool_use ${useIds} answered by ${resultIds}`);
  const verdicts = [await wire.locator('.inspector-verdict').innerText()];
  await wire.getByRole('tab', { name: 'OpenAI Chat Completions' }).click();
  assert((await anthropicTab.getAttribute('aria-selected')) === 'false', 'Anthropic stays selected');
  await wire.locator('pre.wire-json', { hasText: '"role": "tool"' }).waitFor({ timeout: 5_000 });
  verdicts.push(await wire.locator('.inspector-verdict').innerText());
  await wire.getByRole('tab', { name: 'OpenAI Responses' }).click();
  await wire.locator('pre.wire-json', { hasText: 'function_call_output' }).waitFor({ timeout: 5_000 });
  verdicts.push(await wire.locator('.inspector-verdict').innerText());
  assert(verdicts.every((v) => v.includes('would accept this request')), `verdicts: ${verdicts.join(' | ')}`);
  await button(wire, 'Copy JSON').click();
  await wire.locator('.notice').filter({ hasText: /cop/i }).waitFor({ timeout: 5_000 });
});

test('the inspector shows the Anthropic 400 text for duplicate tool_use ids', async ({ page }) => {
  await runBuiltin(page, 'protocol-duplicate-ids');
  const wire = await openWire(page, 2);
  const anthropic = wire.locator('.inspector-verdict[data-verdict="rejected"]');
  const text = await anthropic.innerText();
  assert(text.includes('Anthropic Messages would refuse this request (HTTP 400)'), `Anthropic verdict: ${text}`);
  assert(text.includes('`tool_use` ids must be unique'), `Anthropic verdict: ${text}`);
  const colour = await anthropic.locator('.wire-error').first().evaluate((el) => getComputedStyle(el).color);
  const plain = await wire.locator('h2').evaluate((el) => getComputedStyle(el).color);
  assert(colour !== plain, 'the violation is not error-coloured');
});

test('works at 360 px in dark mode, every control labelled', async ({ page }) => {
  const status = await runBuiltin(page, 'bad-arguments');
  assert(status === 'done', `expected done, got ${status}`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
  const unlabelled = await unlabelledControls(page, 'select, textarea, button, input');
  assert(unlabelled.length === 0, `unlabelled controls: ${unlabelled.join(' | ')}`);
  const errorRows = await page.locator('.timeline .event.tone-error').count();
  assert(errorRows > 0, 'bad-arguments shows no error-marked row');
  await page.screenshot({ path: join(artifacts, 'bad-arguments-360-dark.png'), fullPage: true });
}, { viewport: { width: 360, height: 780 }, colorScheme: 'dark' });
