// In step mode a person writes the
// assistant turn or the tool's result. A typed turn is checked before it is
// sent (a reused tool call id is caught, Send stays off); a valid one runs
// to done, its card says a person wrote it, and the kept run replays; an
// error typed as the tool reaches the next request as is_error.

import { join } from 'node:path';

import { artifacts, assert, bannerStatus, button, pick, stepTo, test } from './lib.mjs';

/** The answer panel, with its form open. */
async function openAnswer(page, name) {
  const panel = page.locator('.answer-panel');
  await button(panel, name).click({ timeout: 10_000 });
  await panel.locator('.answer-form').waitFor({ state: 'visible', timeout: 5_000 });
  return panel;
}

test('answer as the model: a tool call id an earlier turn used is caught before sending, and Send stays off', async ({ page }) => {
  await pick(page, 'get-time');
  await stepTo(page, 'Paused before model call (turn 1)');
  await stepTo(page, 'Paused before tool call get_time');
  await stepTo(page, 'Paused before model call (turn 2)');
  const earlier = (await page.locator('.timeline .event[data-kind="tool_call"] .call-id').first().innerText()).trim();
  assert(earlier === 'toolu_0001', `the script's call id: ${earlier}`);

  const panel = await openAnswer(page, 'Answer as the model');
  await button(panel, 'Add a tool call').click();
  const call = panel.locator('.answer-call').first();
  const id = call.locator('input.answer-call-id');
  // A fresh id in the run's style, so a valid turn needs no edit.
  assert((await id.inputValue()) === 'toolu_by_you_1', `pre-filled id: ${await id.inputValue()}`);
  assert((await call.locator('select').inputValue()) === 'get_time', 'the call does not start on the scenario\'s tool');
  assert((await panel.locator('.answer-ok').count()) === 1, 'a valid turn is not said to be valid');
  const send = button(panel, 'Send as the model');
  assert(await send.isEnabled(), 'Send is off for a valid turn');

  await id.fill(earlier);
  const problems = panel.locator('.answer-problems');
  await problems.waitFor({ timeout: 5_000 });
  const text = await problems.innerText();
  assert(text.includes('tool_calls[0]') && text.includes('`tool_use` ids must be unique') && text.includes(earlier), `problems: ${text}`);
  assert(text.includes('Anthropic Messages') && text.includes('OpenAI Chat Completions'), `the providers are not named: ${text}`);
  assert(await send.isDisabled(), 'Send is on with a duplicate id');
  await panel.screenshot({ path: join(artifacts, 'answer-duplicate-id.png') });
  const why = await panel.locator('#answer-send-why').innerText();
  assert(why.startsWith('Send is off while') && why.includes('Send it anyway'), `why Send is off: ${why}`);
  // Nothing was sent: the run still waits before turn 2.
  assert((await page.locator('.run-state').innerText()).includes('Paused before model call (turn 2)'), 'the run moved on');
  assert((await page.locator('.timeline .event[data-kind="model_request"]').count()) === 1, 'a request was sent');

  // On purpose, after the warning: the run takes it as a model's turn.
  await panel.getByLabel('Send it anyway').check();
  assert(await send.isEnabled(), '“Send it anyway” does not turn Send on');
  await send.click();
  await page.locator('.run-state', { hasText: 'Paused before tool call get_time' }).waitFor({ timeout: 10_000 });
  // The run state and the trace are drawn apart: the new call's card may
  // come a frame after the state says the run paused before it.
  const calls = page.locator('.timeline .event[data-kind="tool_call"] .call-id');
  await calls.nth(1).waitFor({ timeout: 5_000 }).catch(() => {});
  const ids = await calls.allInnerTexts();
  assert(ids.length === 2 && ids.every((i) => i.trim() === earlier), `call ids: ${ids}`);
});

test('answer as the model: a valid typed turn runs to done, its card says you wrote it, and the run replays', async ({ page }) => {
  await pick(page, 'get-time');
  await stepTo(page, 'Paused before model call (turn 1)');
  const panel = await openAnswer(page, 'Answer as the model');
  await panel.locator('textarea.answer-text').fill('I will look at the clock.');
  await panel.locator('textarea.answer-thinking').fill('The user wants the time; get_time has it.');
  await button(panel, 'Add a tool call').click();
  // The schema's descriptions are there as hints.
  assert((await panel.locator('.answer-hints').innerText()).length > 0, 'no hint from the tool');
  assert((await panel.locator('.answer-stop').inputValue()) === 'tool_use', 'a turn with a call does not say tool_use');
  await panel.locator('.answer-ok').waitFor({ timeout: 5_000 });
  await button(panel, 'Send as the model').click();

  // The run goes on with it: the call runs, and the script answers turn 2.
  await page.locator('.run-state', { hasText: 'Paused before tool call get_time' }).waitFor({ timeout: 10_000 });
  await button(page, 'Continue').click();
  assert((await bannerStatus(page)) === 'done', 'the run did not end done');

  const written = page.locator('.timeline .event[data-kind="model_response"][data-by-person="true"]');
  assert((await written.count()) === 1, `${await written.count()} turns marked as written by a person`);
  const card = await written.innerText();
  await written.screenshot({ path: join(artifacts, 'answer-written-by-you.png') });
  assert(card.includes('Written by you, in the model\'s place') && card.includes('I will look at the clock.'), `the card: ${card}`);
  const result = await page.locator('.timeline .event[data-kind="tool_result"]').first().innerText();
  assert(result.includes('Result from get_time') && !result.includes('Typed by you'), `the call did not run: ${result}`);
  const responses = await page.locator('.timeline .event[data-kind="model_response"]').count();
  assert(responses === 2, `${responses} model turns`);

  await button(page, 'Replay against current tools').click();
  await page.locator('.replay-verdict').waitFor({ timeout: 10_000 });
  assert((await page.locator('.replay-verdict').getAttribute('data-passed')) === 'true', `replay: ${await page.locator('.replay-verdict').innerText()}`);
});

test('answer as the tool: an error typed as the result reaches the next model request with is_error', async ({ page }) => {
  await pick(page, 'get-time');
  await stepTo(page, 'Paused before model call (turn 1)');
  await stepTo(page, 'Paused before tool call get_time');
  const panel = await openAnswer(page, 'Answer as the tool');
  await panel.locator('textarea.answer-result').fill('the clock is broken');
  await panel.getByLabel('It is an error').check();
  await button(panel, 'Send as the tool').click();
  await page.locator('.run-state', { hasText: 'Paused before model call (turn 2)' }).waitFor({ timeout: 10_000 });

  const result = page.locator('.timeline .event[data-kind="tool_result"]');
  assert((await result.getAttribute('data-by-person')) === 'true', 'the result is not marked as typed by a person');
  const text = await result.innerText();
  assert(text.includes('Result typed for get_time') && text.includes('tool error: the clock is broken'), `the result: ${text}`);
  assert(text.includes('Typed by you, in the tool\'s place: the tool did not run'), `the result: ${text}`);

  // Turn 2's request, as each provider would get it, carries the error flag.
  await button(page, 'Continue').click();
  await bannerStatus(page);
  // The counts say the tool did not run, as its card does.
  const facts = await page.locator('.stop-banner .stop-facts').innerText();
  assert(facts.includes('tool calls: 1 requested (1 typed by a person)'), `banner facts: ${facts}`);
  const header = await page.locator('.counter[data-counter="tool-calls"] dd').innerText();
  assert(header === '1 requested (1 typed by a person)', `header: ${header}`);
  await page.getByRole('button', { name: "Inspect turn 2's request and response" }).click();
  const wire = page.locator('section.inspector[data-open]');
  await wire.locator('pre.wire-json', { hasText: '"is_error"' }).waitFor({ timeout: 5_000 });
  const body = JSON.parse(await wire.locator('pre.wire-json').innerText());
  const results = body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []).filter((b) => b.type === 'tool_result'));
  assert(results.length === 1 && results[0].is_error === true && JSON.stringify(results[0].content).includes('the clock is broken'),
    `turn 2's tool_result: ${JSON.stringify(results)}`);
});
