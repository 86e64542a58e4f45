// The inspector beside the trace (a turn's request and response as
// each provider sends them, the checker's verdict marking its block, Copy as
// curl without the key, the conversation with its id links) and the checker
// run live, turn by turn, on the cards.

import { SECRET, assert, bodyHolding, button, inspect, loadScenario, pick, runBuiltin, serveScenario, tab, test, useOpenaiChat } from './lib.mjs';

const WIDE = { viewport: { width: 1440, height: 900 } };

test('inspector: opens beside the trace from a request card and shows that turn\'s response', async ({ page }) => {
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
  const panel = await inspect(page, 1);
  // In the stage's detail pane (under the trace at 1440 px, beside the
  // diagram), and in view without scrolling.
  const loop = await page.locator('.stage-loop').boundingBox();
  const box = await panel.boundingBox();
  assert(box.x >= loop.x + loop.width - 1, `the inspector is not beside the diagram: ${JSON.stringify({ loop, box })}`);
  // The loop's column takes what its 12 px text needs; the pane keeps
  // about a quarter of the width (24vw, at least 20rem).
  assert(box.y < 900 && box.width > 320, `the inspector is not wide and in view: ${JSON.stringify(box)}`);
  assert((await panel.locator('.inspector-format').innerText()).includes('scripted model'), 'no note on the format');
  // The request: turn 1 carries the task and no result.
  const request = await bodyHolding(panel, '"model": "scripted"');
  assert(request.includes('"messages"') && !request.includes('tool_result'), request.slice(0, 400));
  assert(request.includes('✓ Anthropic Messages would accept this request'), 'no verdict for the request');
  // The response, as Anthropic sends it, then as OpenAI Chat does.
  await tab(panel, 'Response');
  const anthropic = await bodyHolding(panel, 'The response');
  assert(anthropic.includes('"stop_reason": "tool_use"') && anthropic.includes('"type": "tool_use"'), anthropic.slice(0, 600));
  await tab(panel, 'OpenAI Chat Completions');
  const chat = await bodyHolding(panel, '"finish_reason": "tool_calls"');
  assert(chat.includes('"tool_calls"'), chat.slice(0, 600));
  // Turn after: turn 2's request carries the result under the call's id.
  await button(panel, 'Turn after ›').click();
  await panel.locator('h2', { hasText: 'turn 2' }).waitFor();
  await tab(panel, 'Request');
  const id = await page.locator('.timeline .event[data-kind="tool_call"] .call-id').first().innerText();
  const turn2 = await bodyHolding(panel, '"role": "tool"');
  assert(turn2.includes(`"tool_call_id": "${id}"`), `turn 2's Chat request lacks ${id}`);
  await button(panel, 'Close').click();
  await page.locator('.inspector[data-open]').waitFor({ state: 'detached' });
}, WIDE);

test('inspector: Copy as curl gives a command that reads the key from the environment', async ({ page }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
  const panel = await inspect(page, 2);
  await bodyHolding(panel, '"tool_use_id"');
  await button(panel, 'Copy as curl').click();
  await panel.getByText('curl command copied').waitFor({ timeout: 5_000 });
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert(copied.startsWith('curl https://api.anthropic.com/v1/messages \\\n'), copied.slice(0, 200));
  assert(copied.includes('-H "x-api-key: $ANTHROPIC_API_KEY"'), copied.slice(0, 400));
  assert(copied.includes('"tool_use_id"') && copied.trimEnd().endsWith('JSON'), copied.slice(-200));
  await button(panel, 'Copy JSON').click();
  const json = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  assert(json.messages.length === 3, `the copied body has ${json.messages.length} messages`);
}, WIDE);

test('inspector: a verdict on the turn card marks its block in the request', async ({ page }) => {
  assert((await runBuiltin(page, 'protocol-duplicate-ids')) === 'done', 'did not end done');
  // The verdict is on turn 2's card, not turn 1's.
  const verdicts = page.locator('.timeline .turn-verdict');
  await verdicts.first().waitFor({ timeout: 5_000 });
  assert((await verdicts.count()) === 1, `${await verdicts.count()} cards carry a verdict`);
  const card = page.locator('.timeline li', { has: page.locator('h3', { hasText: /^Turn 2$/ }) });
  assert((await card.locator('.turn-verdict').count()) === 1, 'the verdict is not on turn 2\'s card');
  const line = card.locator('.turn-verdict li[data-provider="Anthropic Messages"]');
  const text = await line.innerText();
  assert(text.includes('Anthropic Messages would reject turn 2: HTTP 400') && text.includes('`tool_use` ids must be unique'), text);
  // The card counts in the run's history, and says so.
  assert(/Where, in the run's history: the \d+(st|nd|rd|th) message \(assistant\)/.test(text), `no plain place: ${text}`);
  await button(line, 'Show it in the Anthropic Messages request').click();
  const panel = page.locator('.inspector[data-open]');
  await panel.locator('h2', { hasText: 'turn 2' }).waitFor({ timeout: 5_000 });
  assert((await panel.getByRole('tab', { name: /^Anthropic Messages/ }).getAttribute('aria-selected')) === 'true', 'not on the Anthropic tab');
  const hit = panel.locator('.seg[data-hit]');
  await hit.first().waitFor({ timeout: 5_000 });
  const marked = await hit.allInnerTexts();
  assert(marked.join('').includes('"type": "tool_use"'), `the marked block: ${marked}`);
  assert((await hit.first().getAttribute('data-mark')) === '1.1', `marked ${await hit.first().getAttribute('data-mark')}`);
  // The inspector's own verdict points at the same block, in plain words.
  const pointed = await panel.locator('.inspector-verdict li[data-pointed]').innerText();
  assert(pointed.includes('Where, in this Anthropic Messages body: the 2nd message (assistant), its 2nd block, a tool_use (messages.1.content.1).'), pointed);
  // The marked block is brought into view.
  await page.waitForFunction(() => {
    const el = document.querySelector('.inspector .seg[data-hit]');
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight;
  }, null, { timeout: 5_000 });
}, WIDE);

test('inspector: the checker runs live, so a paused run already shows turn 2\'s verdict', async ({ page }) => {
  await pick(page, 'protocol-duplicate-ids');
  // One more tool turn, so the run is still paused after turn 2's request.
  const scenario = JSON.parse(await page.locator('#scenario-json').inputValue());
  scenario.model.responses.splice(1, 0, { tool_calls: [{ name: 'check_stock', args: { warehouse: 'C' } }] });
  await loadScenario(page, scenario);
  const step = button(page, 'Step');
  // Step until turn 2's request has been sent; the run is still going.
  for (let i = 0; i < 10 && (await page.locator('.timeline .event[data-kind="model_request"]').count()) < 2; i++) {
    await step.click();
    await page.waitForTimeout(150);
  }
  assert((await page.locator('.timeline .event[data-kind="model_request"]').count()) >= 2, 'turn 2 never asked the model');
  assert((await page.locator('.stop-banner').count()) === 0, 'the run had already ended');
  await page.locator('.timeline .turn-verdict li[data-provider="Anthropic Messages"]').waitFor({ timeout: 5_000 });
});

test('inspector: the conversation draws each id link, and a broken pair broken', async ({ page }) => {
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
  let panel = await inspect(page, 2);
  await tab(panel, 'Conversation');
  await bodyHolding(panel, 'is answered by one tool_result, in the next message');
  assert((await panel.locator('.conv-link[data-state="paired"]').count()) === 1, 'get-time turn 2 has no paired link');
  assert((await panel.locator('.conv-new').count()) > 0, 'the rows new in turn 2 are not marked');
  // Pointing at the result's id marks its call, in the conversation too.
  const chips = panel.locator('.conversation .call-id');
  await chips.last().hover();
  assert((await panel.locator('.conversation .conv-block[data-partner]').count()) === 2, 'the pair is not marked');

  assert((await runBuiltin(page, 'protocol-invented-result-ids')) === 'done', 'did not end done');
  panel = await inspect(page, 2);
  await tab(panel, 'Conversation');
  const text = await bodyHolding(panel, 'id links are broken');
  assert(text.includes('never answered') && text.includes('no tool_use has this id'), text);
  const states = await panel.locator('.conv-link').evaluateAll((links) => links.map((l) => l.dataset.state));
  assert(states.includes('unanswered') && states.includes('no-call'), `links: ${states}`);
  assert((await panel.locator('.conv-broken').count()) >= 2, 'no ✗ ends the broken links');
  const style = await panel.locator('.conv-link[data-state="unanswered"]').evaluate((l) => getComputedStyle(l).borderLeftStyle);
  assert(style === 'dashed', `a broken link is drawn ${style}`);
}, WIDE);

test('inspector: a streamed provider run shows its SSE events, and never the key', async ({ page }) => {
  const server = await serveScenario('get-time');
  try {
    await pick(page, 'get-time');
    await useOpenaiChat(page, server.url);
    await button(page, 'Run').click();
    const status = await page.locator('.stop-banner').getAttribute('data-status', { timeout: 10_000 });
    assert(status === 'done', `the provider run ended ${status}`);
    const panel = await inspect(page, 1);
    const note = await panel.locator('.inspector-format').innerText();
    assert(note.includes('OpenAI Chat Completions') && note.includes('streamed'), note);
    assert((await panel.getByRole('tab', { name: /OpenAI Chat Completions \(in use\)/ }).getAttribute('aria-selected')) === 'true',
      'the view does not follow the model in use');
    const request = await bodyHolding(panel, '"stream": true');
    assert(request.includes('"model": "scripted"'), request.slice(0, 300));
    await tab(panel, 'Response');
    const events = panel.locator('details.sse');
    await events.waitFor({ timeout: 5_000 });
    assert(await events.evaluate((d) => d.open), 'the SSE events are not shown open for a streamed run');
    const sse = await events.locator('pre').innerText();
    assert(sse.includes('data: {') && sse.includes('data: [DONE]'), sse.slice(0, 300));
    assert(!(await page.locator('body').innerText()).includes(SECRET), 'the key is on the page');
  } finally {
    server.stop();
  }
}, WIDE);

test('inspector: on a phone it opens right under the trace and is brought into view', async ({ page }) => {
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
  const panel = await inspect(page, 1);
  await page.waitForFunction(() => {
    const r = document.querySelector('.inspector').getBoundingClientRect();
    return r.top < window.innerHeight && r.bottom > 0;
  }, null, { timeout: 5_000 });
  const width = await panel.evaluate((p) => p.getBoundingClientRect().width);
  assert(width <= 360, `the inspector is ${width}px wide on a 360px screen`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(overflow <= 360, `the page scrolls sideways: ${overflow}px`);
}, { viewport: { width: 360, height: 800 } });

test('a call\'s and a result\'s card open the detail pane on the request that carried them, their block marked in the format shown', async ({ page }) => {
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
  const call = page.locator('.timeline .event[data-kind="tool_call"]').first();
  const id = await call.getAttribute('data-call-ids');
  assert(id, 'the call row names no id');
  await call.getByRole('button', { name: "See this call in turn 2's request" }).click();
  const panel = page.locator('.inspector[data-open]');
  await panel.locator('h2', { hasText: 'turn 2' }).waitFor({ timeout: 5_000 });
  const marked = () => panel.locator('.seg[data-hit]').allInnerTexts().then((t) => t.join(''));
  await panel.locator('.seg[data-hit]').first().waitFor({ timeout: 5_000 });
  let text = await marked();
  assert(text.includes('"tool_use"') && text.includes(id) && !text.includes('"tool_result"'), `the marked call (Anthropic): ${text}`);
  // The block stays marked in another format: OpenAI Chat's tool_calls entry.
  await tab(panel, 'OpenAI Chat Completions');
  await page.waitForFunction(() => document.querySelector('.inspector[data-open] .seg[data-hit]')?.textContent.includes('"function"'), null, { timeout: 5_000 });
  text = await marked();
  assert(text.includes(id) && text.includes('"function"') && !text.includes('"role": "tool"'), `the marked call (OpenAI Chat): ${text}`);
  // The result: OpenAI Chat's tool message, in the format chosen.
  const result = page.locator('.timeline .event[data-kind="tool_result"]').first();
  await result.getByRole('button', { name: "See this result in turn 2's request" }).click();
  await page.waitForFunction(() => document.querySelector('.inspector[data-open] .seg[data-hit]')?.textContent.includes('"role": "tool"'), null, { timeout: 5_000 });
  text = await marked();
  assert(text.includes(`"tool_call_id": "${id}"`), `the marked result (OpenAI Chat): ${text}`);
  // Marked as found, not as a fault: solid in the accent, not a verdict's dashed red.
  const style = await panel.locator('.seg[data-hit]').first().evaluate((el) => getComputedStyle(el).outlineStyle);
  assert(style === 'solid', `the pointed block is outlined ${style}`);
  // In view in the detail pane.
  const box = await panel.locator('.seg[data-hit]').first().boundingBox();
  assert(box && box.y >= 0 && box.y < 900, `the marked block is off screen: ${JSON.stringify(box)}`);

  // A result the run ended before sending has no request to show it in.
  assert((await runBuiltin(page, 'tool-call-limit')) === 'tool_call_limit', 'tool-call-limit did not stop');
  const notRun = page.locator('.timeline .event[data-kind="tool_result"]').last();
  await notRun.waitFor({ timeout: 5_000 });
  assert((await notRun.locator('.on-wire').count()) === 0, 'a result never sent offers to show its request');
}, WIDE);
