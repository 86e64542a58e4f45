// Nothing false, round three, as a user meets it: what went on the wire, and
// histories a provider would refuse. A result the harness sent under an id it
// made up shows that id on its card, says it answers no call, and its
// request marks that very block; a run that ends `done` with requests a
// provider would refuse says so in the header and at the loop's exit, as
// its stop banner does.

import { assert, runBuiltin, test } from './lib.mjs';

const WIDE = { viewport: { width: 1440, height: 900 } };

test('wire truth: a result sent under a made-up id shows that id, answers no call, and its request marks that block', async ({ page }) => {
  assert((await runBuiltin(page, 'protocol-invented-result-ids')) === 'done', 'did not end done');
  const call = page.locator('.timeline .event[data-kind="tool_call"]').first();
  const result = page.locator('.timeline .event[data-kind="tool_result"]').first();
  assert((await call.getAttribute('data-call-ids')) === 'toolu_0001', `the call's id: ${await call.getAttribute('data-call-ids')}`);
  assert((await result.getAttribute('data-call-ids')) === 'call_0', `the result's id: ${await result.getAttribute('data-call-ids')}`);
  const ids = await result.locator('.call-ids').innerText();
  assert(ids.includes('tool_use_id: call_0 — answers no call'), `the result's id line: ${ids}`);

  // Pointing at the result's id marks it alone: nothing pairs with it.
  await result.locator('.call-id').hover();
  await result.locator('[data-partner]').first().waitFor({ timeout: 5_000 });
  assert((await call.getAttribute('data-partner')) === null, 'the call is marked as the partner of a result that answers no call');

  // The request that carried it marks the block with that id.
  await result.getByRole('button', { name: "See this result in turn 2's request" }).click();
  const panel = page.locator('.inspector[data-open]');
  await panel.locator('h2', { hasText: 'turn 2' }).waitFor({ timeout: 5_000 });
  await panel.locator('.seg[data-hit]').first().waitFor({ timeout: 5_000 });
  const marked = (await panel.locator('.seg[data-hit]').allInnerTexts()).join('');
  assert(marked.includes('"type": "tool_result"') && marked.includes('"tool_use_id": "call_0"'), `the marked block: ${marked}`);
  assert(!marked.includes('toolu_0001'), `the marked block is the call's, not the result's: ${marked}`);
}, WIDE);

test('wire truth: a done run a provider would refuse says so in the header and at the loop\'s exit', async ({ page }) => {
  assert((await runBuiltin(page, 'protocol-duplicate-ids')) === 'done', 'did not end done');
  const refusal = 'but Anthropic Messages and OpenAI Chat Completions would refuse turn 2; OpenAI Responses is reported to refuse turn 2';
  const header = page.locator('.run-outcome .outcome');
  await page.locator('.run-outcome .outcome[data-refused="true"]').waitFor({ timeout: 5_000 });
  const said = await header.innerText();
  assert(said.includes(`done — ${refusal}`), `the header: ${said}`);
  // The line may be cut short in the header: its title holds it whole, and the reason.
  const title = await header.getAttribute('title');
  assert(title === `done — ${refusal}; the model gave a final answer in turn 2`, `the header's title: ${title}`);
  // The banner lists the same providers at the same turn.
  const banner = await page.locator('.stop-verdict[data-verdict="rejected"]').innerText();
  assert(banner.includes('Anthropic Messages would reject turn 2') && banner.includes('OpenAI Responses is reported to reject turn 2'), `the banner: ${banner}`);

  const exit = page.locator('.loop-exit-reason[data-status="done"]');
  await page.locator('.loop-exit-reason[data-refused="true"]').waitFor({ timeout: 10_000 });
  const caption = await exit.innerText();
  assert(caption.includes(`Ended at done — ${refusal}`), `the loop's exit: ${caption}`);

  // A run no provider would refuse keeps its plain "done" and its reason.
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
  await page.locator('.stop-verdict[data-verdict="accepted"]').waitFor({ timeout: 5_000 });
  const plain = await header.innerText();
  assert(plain.includes('done — the model gave a final answer in turn 2') && !plain.includes('refuse'), `the header: ${plain}`);
  const plainExit = await exit.innerText();
  assert(!plainExit.includes('refuse'), `the loop's exit: ${plainExit}`);
}, WIDE);
