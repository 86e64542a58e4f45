// The last forms that wired their own labels say what is wrong with a
// field the way every other form does: the approval bar's edit box, the
// fields of a turn written as the model (a call's id and arguments, the
// stop_reason) and the Result (JSON) box of "Answer as the tool". When a
// wrong value is typed, the input is marked invalid and its description
// (the elements its aria-describedby names) holds the problem shown under
// it, announced as it appears; once fixed, the input is neither marked nor
// described by the problem.

import { announcesProblem, assert, button, descriptionOf, loadScenario, pick, refundUntilApproval, stepTo, test } from './lib.mjs';

// A tool with an output schema, so "Answer as the tool" has a Result (JSON) box.
const SCENARIO = {
  name: 'Result box linked to its problem',
  task: 'Tell the weather.',
  tools: [
    {
      name: 'forecast',
      description: "Tomorrow's weather in a city.",
      input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      output_schema: {
        type: 'object',
        properties: { celsius: { type: 'number' } },
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

test('field three: the approval bar\'s edit box announces arguments that are not JSON, or break the schema, with the box', async ({ page }) => {
  const bar = await refundUntilApproval(page);
  await button(bar, 'Edit arguments').click();
  const box = bar.getByLabel("Arguments (JSON, checked against the tool's schema)", { exact: true });
  const original = await box.inputValue();
  await announcesProblem(box, { wrong: '{not json', right: original, says: 'not valid JSON' });
  await announcesProblem(box, { wrong: '{}', right: original, says: 'order_id' });
  // What Approve sends is still read with the box.
  const note = await descriptionOf(box);
  assert(note.includes('Approve runs the tool with the arguments in this box'), `the box's description is "${note}"`);
});

test('field three: a turn written as the model announces a call\'s missing id, arguments that are no object, and a stop_reason without calls, each with its field', async ({ page }) => {
  await pick(page, 'get-time');
  await stepTo(page, 'Paused before model call (turn 1)');
  const panel = page.locator('.answer-panel');
  await button(panel, 'Answer as the model').click({ timeout: 10_000 });
  await panel.locator('.answer-form').waitFor({ state: 'visible', timeout: 5_000 });

  const stop = panel.locator('select.answer-stop');
  await announcesProblem(stop, {
    wrong: () => stop.selectOption('tool_use'),
    right: () => stop.selectOption('end_turn'),
    says: 'asks for tools',
  });

  await button(panel, 'Add a tool call').click();
  const call = panel.locator('.answer-call').first();
  const id = call.locator('input.answer-call-id');
  const fresh = await id.inputValue();
  await announcesProblem(id, { wrong: '', right: fresh, says: 'needs an id' });
  const args = call.locator('textarea.answer-args');
  const skeleton = await args.inputValue();
  await announcesProblem(args, { wrong: '[]', right: skeleton, says: 'must be a JSON object' });
});

test('field three: "Answer as the tool" announces a Result (JSON) that is not JSON with its box', async ({ page }) => {
  await loadScenario(page, SCENARIO);
  await stepTo(page, 'Paused before model call (turn 1)');
  await stepTo(page, 'Paused before tool call forecast');
  const panel = page.locator('.answer-panel');
  await button(panel, 'Answer as the tool').click({ timeout: 10_000 });
  const box = panel.getByLabel('Result (JSON)', { exact: true });
  await box.waitFor({ timeout: 10_000 });
  await announcesProblem(box, { wrong: '{"celsius": ', right: '{"celsius": 12}', says: 'not valid JSON' });
});
