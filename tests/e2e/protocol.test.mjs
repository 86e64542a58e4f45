// A run that breaks the protocol does not end looking green. The
// loop's status stays what the loop decided, and the banner says, in its
// own line and tone, which providers would have refused which turn, with
// their own HTTP 400 text.

import { assert, runBuiltin, test } from './lib.mjs';

/** The three protocol lessons, and the providers each is refused by at turn 2. */
const BROKEN = [
  ['protocol-duplicate-ids', ['Anthropic Messages', 'OpenAI Chat Completions', 'OpenAI Responses'], '`tool_use` ids must be unique'],
  ['protocol-text-before-results', ['Anthropic Messages', 'OpenAI Chat Completions'], 'Did not find 1 `tool_result` block(s) at the beginning of this message'],
  ['protocol-invented-result-ids', ['Anthropic Messages'], 'HTTP 400'],
];

for (const [id, providers, text] of BROKEN) {
  test(`protocol: ${id} ends done, and its banner says who would refuse turn 2 and why`, async ({ page }) => {
    assert((await runBuiltin(page, id)) === 'done', `${id} did not end done`);
    const verdict = page.locator('.stop-banner .stop-verdict');
    await verdict.waitFor({ timeout: 5_000 });
    assert((await verdict.getAttribute('data-verdict')) === 'rejected', `${id}: ${await verdict.innerText()}`);
    assert((await verdict.getAttribute('data-tone')) === 'failure', 'the verdict has no tone of its own');
    const lines = await verdict.locator('li').evaluateAll((lis) =>
      lis.map((li) => ({ provider: li.dataset.provider, turn: li.dataset.turn, text: li.innerText })));
    for (const provider of providers) {
      const line = lines.find((l) => l.provider === provider);
      assert(line, `${id}: ${provider} is not named: ${JSON.stringify(lines)}`);
      // A refusal known only from issue threads says so (Responses' duplicates).
      const said = provider === 'OpenAI Responses'
        ? `${provider} is reported to reject turn 2 (not documented): HTTP 400`
        : `${provider} would reject turn 2: HTTP 400`;
      assert(line.turn === '2' && line.text.startsWith(said), line.text);
      assert(/ — in the run's history, at the \d+(st|nd|rd|th) message \((user|assistant)\)/.test(line.text), `no plain place: ${line.text}`);
    }
    assert(lines.some((l) => l.text.includes(text)), `${id}: no line has "${text}": ${JSON.stringify(lines)}`);
    // The same verdict, inline on turn 2's card and on no other card.
    const cards = await page.locator('.timeline li:has(> .turn-header)').evaluateAll((cards) =>
      cards.map((c) => ({ turn: c.querySelector('h3').textContent, verdict: c.querySelector('.turn-verdict')?.innerText ?? '' })));
    const carrying = cards.filter((c) => c.verdict);
    assert(carrying.length === 1 && carrying[0].turn === 'Turn 2', `${id}: verdicts on ${JSON.stringify(carrying.map((c) => c.turn))}`);
    for (const provider of providers) {
      assert(carrying[0].verdict.includes(`${provider} `) && carrying[0].verdict.includes('turn 2'), `${id}: card lacks ${provider}: ${carrying[0].verdict}`);
    }
    // The card counts places in the run's history, and says so.
    assert(carrying[0].verdict.includes("Where, in the run's history: the "), `${id}: card place: ${carrying[0].verdict}`);
    assert(carrying[0].verdict.includes(text), `${id}: the card lacks "${text}"`);
  });
}

test('protocol: a run that keeps the rules says the checker found nothing to refuse', async ({ page }) => {
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
  const verdict = page.locator('.stop-banner .stop-verdict');
  await verdict.waitFor({ timeout: 5_000 });
  assert((await verdict.getAttribute('data-verdict')) === 'accepted', await verdict.innerText());
  assert((await verdict.innerText()).includes('finds nothing'), await verdict.innerText());
  assert((await page.locator('.timeline .turn-verdict').count()) === 0, 'a card of a clean run carries a verdict');
});

/** The rows marked as partners of the id chip `chip` points at, by kind. */
async function partnersOf(page, chip) {
  await chip.hover();
  return page.locator('.timeline .event[data-partner]').evaluateAll((rows) => rows.map((r) => r.dataset.kind));
}

test('protocol: a call and its result show the same id, and pointing at one marks its pair', async ({ page }) => {
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
  const call = page.locator('.timeline .event[data-kind="tool_call"]').first();
  const result = page.locator('.timeline .event[data-kind="tool_result"]').first();
  const id = await call.locator('.call-id').innerText();
  assert(/^toolu_\w+$/.test(id), `the call shows ${id}`);
  assert((await result.locator('.call-id').innerText()) === id, 'the result does not show its call\'s id');
  assert((await result.locator('.call-ids').innerText()).startsWith('tool_use_id'), 'the result does not name the field');
  const marked = await partnersOf(page, call.locator('.call-id'));
  assert(JSON.stringify(marked.sort()) === JSON.stringify(['model_response', 'tool_call', 'tool_result']), `marked: ${marked}`);
  await page.mouse.move(0, 0);
  await page.locator('.timeline .event[data-partner]').first().waitFor({ state: 'detached' }).catch(() => {});
  assert((await page.locator('.timeline .event[data-partner]').count()) === 0, 'the marks stay after the pointer left');
  // The keyboard does the same.
  await result.locator('.call-id').focus();
  assert((await page.locator('.timeline .event[data-partner]').count()) === 3, 'focus does not mark the pair');
});

test('protocol: a duplicated id marks every call and result that share it', async ({ page }) => {
  assert((await runBuiltin(page, 'protocol-duplicate-ids')) === 'done', 'did not end done');
  const chip = page.locator('.timeline .event[data-kind="tool_call"] .call-id').first();
  assert((await chip.innerText()) === 'toolu_dup', await chip.innerText());
  const marked = await partnersOf(page, chip);
  const count = (kind) => marked.filter((k) => k === kind).length;
  assert(count('tool_call') === 2 && count('tool_result') === 2, `marked: ${marked}`);
});

test('protocol: calls asked for at once read as one group, each call and result numbered', async ({ page }) => {
  assert((await runBuiltin(page, 'protocol-duplicate-ids')) === 'done', 'did not end done');
  const turn1 = page.locator('.timeline li', { has: page.locator('h3', { hasText: /^Turn 1$/ }) });
  const response = await turn1.locator('.event[data-kind="model_response"]').innerText();
  assert(response.includes('asks for 2 tool calls at once'), response);
  const rows = await turn1.locator('.event[data-parallel]').evaluateAll((rows) =>
    rows.map((r) => `${r.dataset.kind} ${r.dataset.parallel} ${r.querySelector('.parallel-tag').textContent}`));
  assert(JSON.stringify(rows) === JSON.stringify([
    'tool_call 1/2 call 1 of 2 asked at once',
    'tool_result 1/2 for call 1 of 2 asked at once',
    'tool_call 2/2 call 2 of 2 asked at once',
    'tool_result 2/2 for call 2 of 2 asked at once',
  ]), `grouped rows: ${JSON.stringify(rows)}`);
  const rule = await turn1.locator('.event[data-parallel] > .event-body').first().evaluate((b) => getComputedStyle(b).borderLeftStyle);
  assert(rule === 'double', `the group's rule is ${rule}`);
  // A turn with one call is no group.
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
  assert((await page.locator('.timeline .event[data-parallel]').count()) === 0, 'a single call is drawn as a group');
});
