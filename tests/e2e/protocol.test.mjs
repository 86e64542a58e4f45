// Issue 15: a run that breaks the protocol does not end looking green. The
// loop's status stays what the loop decided, and the banner says, in its
// own line and tone, which providers would have refused which turn, with
// their own HTTP 400 text.

import { assert, runBuiltin, test } from './lib.mjs';

/** The three protocol lessons, and the providers each is refused by at turn 2. */
const BROKEN = [
  ['protocol-duplicate-ids', ['Anthropic Messages', 'OpenAI Chat Completions'], '`tool_use` ids must be unique'],
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
      assert(line.turn === '2' && line.text.startsWith(`${provider} would reject turn 2: HTTP 400`), line.text);
      assert(/ — at the \d+(st|nd|rd|th) message \((user|assistant)\)/.test(line.text), `no plain place: ${line.text}`);
    }
    assert(lines.some((l) => l.text.includes(text)), `${id}: no line has "${text}": ${JSON.stringify(lines)}`);
  });
}

test('protocol: a run that keeps the rules says the checker found nothing to refuse', async ({ page }) => {
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
  const verdict = page.locator('.stop-banner .stop-verdict');
  await verdict.waitFor({ timeout: 5_000 });
  assert((await verdict.getAttribute('data-verdict')) === 'accepted', await verdict.innerText());
  assert((await verdict.innerText()).includes('finds nothing'), await verdict.innerText());
});
