// What the page says of a run's requests is what the providers would say:
// a tool loop whose opening message lost its thinking block is refused by
// Anthropic when thinking is on (banner, card and inspector agree), and the
// OpenAI Chat Completions answer shows only OpenAI's own fields.

import { assert, bodyHolding, button, inspect, runBuiltin, tab, test } from './lib.mjs';

const WIDE = { viewport: { width: 1440, height: 900 } };
const REFUSAL = 'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`.';

test('truth three: a history that drops the thinking block is refused by Anthropic at turn 2, on the banner, the card and in the inspector', async ({ page }) => {
  assert((await runBuiltin(page, 'history-text-only')) === 'done', 'history-text-only did not end done');
  const verdict = page.locator('.stop-banner .stop-verdict');
  await verdict.waitFor({ timeout: 5_000 });
  assert((await verdict.getAttribute('data-verdict')) === 'rejected', await verdict.innerText());
  const lines = await verdict.locator('li').evaluateAll((lis) =>
    lis.map((li) => ({ provider: li.dataset.provider, turn: li.dataset.turn, text: li.innerText })));
  assert(lines.length === 1 && lines[0].provider === 'Anthropic Messages' && lines[0].turn === '2', JSON.stringify(lines));
  assert(lines[0].text.startsWith(`Anthropic Messages would reject turn 2: HTTP 400 ${REFUSAL}`), lines[0].text);
  const card = page.locator('.timeline li:has(> .turn-header)', { has: page.locator('h3', { hasText: /^Turn 2$/ }) });
  assert((await card.locator('.turn-verdict').innerText()).includes(REFUSAL), 'turn 2\'s card lacks the refusal');
  const panel = await inspect(page, 2);
  const request = await bodyHolding(panel, '"tool_result"');
  assert(request.includes(REFUSAL), `the inspector accepts what the banner refuses: ${request.slice(0, 1500)}`);
}, WIDE);

test('truth three: the run that keeps its thinking is accepted', async ({ page }) => {
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
  const verdict = page.locator('.stop-banner .stop-verdict');
  await verdict.waitFor({ timeout: 5_000 });
  assert((await verdict.getAttribute('data-verdict')) === 'accepted', await verdict.innerText());
});

test('truth three: the OpenAI Chat Completions response shows no reasoning_content, which is not an OpenAI field', async ({ page }) => {
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
  const panel = await inspect(page, 1);
  await tab(panel, 'Response');
  // Anthropic sends the thinking block back in its answer.
  const anthropic = await bodyHolding(panel, 'The response');
  assert(anthropic.includes('The user wants the current time.'), anthropic.slice(0, 600));
  await tab(panel, 'OpenAI Chat Completions');
  const chat = await bodyHolding(panel, '"finish_reason": "tool_calls"');
  assert(!chat.includes('reasoning_content'), chat.slice(0, 800));
  assert(!chat.includes('The user wants the current time.'), chat.slice(0, 800));
  await button(panel, 'Close').click();
}, WIDE);
