// The schema form (in "Call a tool by hand" and in "Answer as the tool")
// says what is wrong with a field the way every other form does: when a
// wrong value is typed, the input is marked invalid and its description
// (the elements its aria-describedby names) holds the problem shown under
// it, in a paragraph that is announced as it appears; once the value is
// fixed, the input is no longer marked and no longer described by the
// problem. The tool bench's own inputs, the tool and the arguments' JSON,
// have no problem of their own: they are named by their labels and never
// marked invalid.

import { announcesProblem, assert, button, descriptionOf, loadScenario, openMode, test } from './lib.mjs';

// Inline tools, so the schemas under test are spelled out here.
const SCENARIO = {
  name: 'Fields linked to their problems',
  task: 'Book a room, then tell the weather.',
  tools: [
    {
      name: 'book_room',
      description: 'Books a hotel room.',
      input_schema: {
        type: 'object',
        properties: {
          room: { type: 'string', enum: ['single', 'double'], description: 'The kind of room.' },
          nights: { type: 'integer', minimum: 1, maximum: 14 },
        },
        required: ['room', 'nights'],
      },
      result: { booked: true },
    },
    {
      name: 'forecast',
      description: "Tomorrow's weather in a city.",
      input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      output_schema: {
        type: 'object',
        properties: { celsius: { type: 'number', minimum: -90, maximum: 60 } },
        required: ['celsius'],
      },
      result: { celsius: 21 },
    },
  ],
  model: {
    type: 'scripted',
    responses: [{ tool_calls: [{ name: 'forecast', args: { city: 'Oslo' } }] }, { text: 'Mild.' }],
  },
};

test('field two: the tool bench\'s schema form announces a number out of range with its field, and the bench\'s own inputs are labelled', async ({ page }) => {
  await loadScenario(page, SCENARIO);
  await openMode(page, 'scenario');
  const bench = page.locator('details.tool-bench');
  await bench.locator('summary').click();
  const form = bench.locator('.sf-form');
  await form.waitFor({ timeout: 10_000 });

  const nights = form.getByRole('spinbutton', { name: 'nights (required)', exact: true });
  await announcesProblem(nights, { wrong: '0', right: '3', says: 'too small' });
  // A field's description is read with it.
  const room = form.getByRole('combobox', { name: 'room (required)', exact: true });
  const hint = await descriptionOf(room);
  assert(hint.includes('The kind of room.'), `the room's description is "${hint}"`);

  // The bench's own fields: named by their labels, nothing to be wrong.
  for (const [label, id] of [['Tool', 'bench-tool'], ['Arguments (JSON)', 'bench-args']]) {
    const input = bench.getByLabel(label, { exact: true });
    assert((await input.getAttribute('id')) === id, `the field labelled "${label}" is #${await input.getAttribute('id')}`);
    assert((await input.getAttribute('aria-invalid')) !== 'true', `#${id} is marked invalid`);
  }
  await bench.locator('#bench-args').fill('{"room": "double", "nights": ');
  await form.locator('.sf-unshown').waitFor({ timeout: 3_000 });
  assert((await bench.locator('#bench-args').getAttribute('aria-invalid')) !== 'true', 'the JSON box is marked invalid though no problem is said under it');
});

test('field two: the answer panel\'s result form announces a value past its maximum with its field', async ({ page }) => {
  await loadScenario(page, SCENARIO);
  for (const where of ['Paused before model call (turn 1)', 'Paused before tool call forecast']) {
    await button(page, 'Step').click();
    await page.locator('.run-state', { hasText: where }).waitFor({ timeout: 10_000 });
  }
  const panel = page.locator('.answer-panel');
  await button(panel, 'Answer as the tool').click({ timeout: 10_000 });
  const form = panel.locator('.sf-form[aria-label="Result form"]');
  await form.waitFor({ timeout: 10_000 });
  await announcesProblem(form.locator('input#sf-celsius'), { wrong: '75', right: '12.5', says: 'too large' });
});
