// tool_choice on the page: the form's picker writes it, the rules model
// honours it, each provider's request body says it in its own words, a
// named tool the scenario lacks is a problem under the picker, and a
// scripted turn that breaks it is a note.

import { assert, bodyHolding, button, inspect, loadScenario, rowTexts, tab, test, untilBanner } from './lib.mjs';

const WIDE = { viewport: { width: 1440, height: 900 } };

const tool = (name, description) => ({
  name,
  description,
  input_schema: { type: 'object' },
  result: { ok: name },
});

const SCENARIO = {
  name: 'Tool choice',
  task: 'Find order A1001 and tell the customer.',
  tools: [tool('lookup', 'Look up an order.'), tool('notify', 'Tell the customer about it.')],
  limits: { max_turns: 3 },
  model: { type: 'rules' },
};

/** The picker, with the form's Tools section open. */
async function picker(page) {
  const select = page.locator('select#field-tool_choice');
  await select.waitFor({ state: 'attached', timeout: 15_000 });
  const section = page.locator('details.form-section', { has: select });
  if ((await section.getAttribute('open')) === null) await section.locator('summary').click();
  return select;
}

test('tool choice: picking a tool in the form makes the rules model call it every turn, and each request body names it', async ({ page }) => {
  await loadScenario(page, SCENARIO);
  const select = await picker(page);
  const labels = await select.locator('option').allInnerTexts();
  assert(labels.includes('must call notify') && labels[0].startsWith('auto'), `options: ${labels}`);
  await select.selectOption('tool:notify');
  await page.waitForFunction(() => JSON.stringify(JSON.parse(document.querySelector('#scenario-json').value).tool_choice) === '{"tool":"notify"}');
  await button(page, 'Run').click();
  const status = await untilBanner(page);
  assert(status === 'turn_limit', `the run ended ${status}`);
  const calls = await rowTexts(page, 'tool_call');
  assert(calls.length === 3 && calls.every((c) => c.includes('notify') && !c.includes('lookup')), `calls: ${calls}`);
  const panel = await inspect(page, 1);
  const anthropic = await bodyHolding(panel, '"tool_choice"');
  assert(/"tool_choice": \{\s*"type": "tool",\s*"name": "notify"\s*\}/.test(anthropic), anthropic.slice(0, 900));
  await tab(panel, 'OpenAI Chat Completions');
  const chat = await bodyHolding(panel, '"max_completion_tokens"');
  assert(/"tool_choice": \{\s*"type": "function",\s*"function": \{\s*"name": "notify"\s*\}\s*\}/.test(chat), chat.slice(-700));
  await tab(panel, 'OpenAI Responses');
  const responses = await bodyHolding(panel, '"input"');
  assert(/"tool_choice": \{\s*"type": "function",\s*"name": "notify"\s*\}/.test(responses), responses.slice(-700));
}, WIDE);

test('tool choice: none answers in words without a tool, and the body says "none"', async ({ page }) => {
  await loadScenario(page, { ...SCENARIO, tool_choice: 'none' });
  const select = await picker(page);
  assert((await select.inputValue()) === 'none', `the picker shows ${await select.inputValue()}`);
  await button(page, 'Run').click();
  assert((await untilBanner(page)) === 'done', 'the run did not end done');
  assert((await rowTexts(page, 'tool_call')).length === 0, 'a tool was called');
  const panel = await inspect(page, 1);
  const anthropic = await bodyHolding(panel, '"tool_choice"');
  assert(/"tool_choice": \{\s*"type": "none"\s*\}/.test(anthropic), anthropic.slice(0, 900));
}, WIDE);

test('tool choice: a named tool the scenario lacks is a problem under the picker, with the tool it may mean', async ({ page }) => {
  await loadScenario(page, { ...SCENARIO, tool_choice: { tool: 'notfy' } });
  const select = await picker(page);
  assert((await select.inputValue()) === 'tool:notfy', `the picker shows ${await select.inputValue()}`);
  const said = 'tool_choice.tool: no tool is named "notfy" (did you mean `notify`?)';
  const under = page.locator('details.form-section', { has: select }).locator('li', { hasText: said });
  await under.waitFor({ timeout: 10_000 });
  assert(await button(page, 'Run').isDisabled(), 'Run is enabled for a scenario that does not load');
}, WIDE);

test('tool choice: a scripted turn that calls a tool under "none" is a note, not passed over in silence', async ({ page }) => {
  await loadScenario(page, {
    ...SCENARIO,
    tool_choice: 'none',
    model: { type: 'scripted', responses: [{ tool_calls: [{ name: 'lookup', args: {} }] }, { text: 'Done.' }] },
  });
  const note = page.locator('.notes li', {
    hasText: 'note: model.responses[0] calls lookup, but tool_choice "none" forbids tool calls; no provider would answer so, and the run plays it as written',
  });
  await note.waitFor({ timeout: 10_000 });
});
