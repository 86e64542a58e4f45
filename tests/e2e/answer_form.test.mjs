// A tool that declares an output_schema is answered in step mode through
// the form that schema gives: a choice for an enum, a number input, each
// wrong value refused under its field as it is typed, Send off until the
// result matches. What is sent is the JSON beside the form, digits as
// typed, and the model receives it as the tool_result's content.

import { createRequire } from 'node:module';
import { join } from 'node:path';

import { artifacts, assert, button, inspect, loadScenario, stepTo, test } from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

// An inline tool, so the output schema under test is spelled out here.
const SCENARIO = {
  name: 'Forecast answered by hand',
  task: 'Will it rain in Oslo tomorrow?',
  tools: [
    {
      name: 'forecast',
      description: "Tomorrow's weather in a city.",
      input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      output_schema: {
        type: 'object',
        properties: {
          sky: { enum: ['clear', 'cloudy', 'rain'], description: 'What the sky does.' },
          celsius: { type: 'number', minimum: -90, maximum: 60 },
          station: { type: 'integer', minimum: 0 },
        },
        required: ['sky', 'celsius'],
        additionalProperties: false,
      },
      result: { sky: 'clear', celsius: 21 },
    },
  ],
  model: {
    type: 'scripted',
    responses: [{ tool_calls: [{ name: 'forecast', args: { city: 'Oslo' } }] }, { text: 'Rain is forecast.' }],
  },
};

/** Waits until `read()` gives `want`; fails with what it gave last. */
async function until(read, want, what) {
  const deadline = Date.now() + 3_000;
  let got;
  while (Date.now() < deadline) {
    got = await read().catch(() => undefined);
    if (got === want) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what}: ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
}

test('answer as the tool: the output schema gives a form, a wrong value is refused under its field, and the JSON sent is what the model receives', async ({ page }) => {
  await loadScenario(page, SCENARIO);
  await stepTo(page, 'Paused before model call (turn 1)');
  await stepTo(page, 'Paused before tool call forecast');
  const panel = page.locator('.answer-panel');
  await button(panel, 'Answer as the tool').click({ timeout: 10_000 });
  const form = panel.locator('.sf-form[aria-label="Result form"]');
  await form.waitFor({ timeout: 10_000 });
  const note = await panel.locator('.answer-note').first().innerText();
  assert(note.includes('the model receives the text of the Result (JSON) box') && note.includes('tool_result'), `the panel does not say what is sent: ${note}`);

  // The enum is a choice, the numbers are number inputs; the JSON starts
  // from the required fields.
  const sky = form.locator('select#sf-sky');
  const celsius = form.locator('input#sf-celsius[type="number"]');
  const station = form.locator('input#sf-station[type="number"]');
  assert((await sky.locator('option').allInnerTexts()).join(',') === 'clear,cloudy,rain', 'the enum is not a choice of its values');
  await celsius.waitFor();
  await station.waitFor();
  const json = panel.locator('#answer-result-json');
  assert(JSON.stringify(JSON.parse(await json.inputValue())) === '{"sky":"clear","celsius":0}', `the starting JSON: ${await json.inputValue()}`);

  // A value past the schema's maximum is refused under its field.
  const send = button(panel, 'Send as the tool');
  await celsius.fill('75');
  const problem = form.locator('#sf-celsius-problem');
  await until(() => problem.innerText(), '75 is too large: it must be at most 60', 'the problem under celsius');
  assert((await celsius.getAttribute('aria-invalid')) === 'true', 'the field is not marked invalid');
  assert(await send.isDisabled(), 'Send is on with a result the schema refuses');
  const why = await panel.locator('#answer-send-why').innerText();
  assert(why.includes("output schema"), `why Send is off: ${why}`);
  await panel.screenshot({ path: join(artifacts, 'answer-form-refused.png') });

  // Fixed, with a number longer than a float holds and then a choice
  // made: the digits stay as typed in the box and in the JSON, through the
  // edits of the other fields.
  await station.fill('99999999999999999999');
  await celsius.fill('12.5');
  await sky.selectOption({ label: 'rain' });
  await until(() => problem.innerText(), '', 'the problem under celsius once fixed');
  await until(() => json.inputValue(), '{\n  "sky": "rain",\n  "celsius": 12.5,\n  "station": 99999999999999999999\n}', 'the JSON beside the form');
  assert((await station.inputValue()) === '99999999999999999999', `the station box: ${await station.inputValue()}`);
  await panel.locator('.answer-ok').waitFor({ timeout: 5_000 });
  assert(await send.isEnabled(), 'Send is off for a result that matches the schema');
  const sent = await json.inputValue();
  await send.click();
  await page.locator('.run-state', { hasText: 'Paused before model call (turn 2)' }).waitFor({ timeout: 10_000 });

  // The trace's tool_result is the typed JSON, marked as typed by you.
  const result = page.locator('.timeline .event[data-kind="tool_result"]');
  assert((await result.getAttribute('data-by-person')) === 'true', 'the result is not marked as typed by a person');
  const card = await result.innerText();
  assert(card.includes('"sky": "rain"') && card.includes('99999999999999999999'), `the tool_result card: ${card}`);

  // Turn 2's request carries that JSON as the tool_result's content.
  await button(page, 'Continue').click();
  await page.locator('.stop-banner').waitFor({ timeout: 10_000 });
  const wire = await inspect(page, 2);
  await wire.locator('pre.wire-json', { hasText: '"tool_result"' }).waitFor({ timeout: 5_000 });
  const body = JSON.parse(await wire.locator('pre.wire-json').innerText());
  const results = body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []).filter((b) => b.type === 'tool_result'));
  const content = results.length === 1 ? results[0].content : undefined;
  const text = typeof content === 'string' ? content : (content ?? []).map((b) => b.text ?? '').join('');
  assert(text === sent, `turn 2's tool_result content: ${JSON.stringify(results)}`);
});

test('answer as the tool: a tool without an output schema keeps the free-text answer', async ({ page }) => {
  const plain = structuredClone(SCENARIO);
  delete plain.tools[0].output_schema;
  await loadScenario(page, plain);
  await stepTo(page, 'Paused before model call (turn 1)');
  await stepTo(page, 'Paused before tool call forecast');
  const panel = page.locator('.answer-panel');
  await button(panel, 'Answer as the tool').click({ timeout: 10_000 });
  await panel.locator('textarea.answer-result').waitFor({ timeout: 5_000 });
  assert((await panel.locator('.sf-form').count()) === 0, 'a form without an output schema');
  assert((await panel.getByLabel('Result (JSON, or plain text)').count()) === 1, 'the free-text answer is gone');
});

test('answer as the tool: axe finds nothing in the answer panel with the result form shown and a problem under a field', async ({ page }) => {
  await loadScenario(page, SCENARIO);
  await stepTo(page, 'Paused before model call (turn 1)');
  await stepTo(page, 'Paused before tool call forecast');
  const panel = page.locator('.answer-panel');
  await button(panel, 'Answer as the tool').click({ timeout: 10_000 });
  const form = panel.locator('.sf-form[aria-label="Result form"]');
  await form.waitFor({ timeout: 10_000 });
  await form.locator('input#sf-celsius').fill('-100');
  await until(() => form.locator('#sf-celsius-problem').innerText(), '-100 is too small: it must be at least -90', 'the problem under celsius');
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    const result = await window.axe.run('.answer-panel', { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  assert(found.length === 0, `axe found:\n${found.join('\n')}`);
}, { bypassCSP: true });
