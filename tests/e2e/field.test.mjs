// Every form says what is wrong with a field in a way a screen reader reads
// with that field: when a wrong value is typed, the input is marked invalid
// (aria-invalid="true") and its description (the elements its
// aria-describedby names) holds the problem shown under it; once the value
// is fixed, both are gone. One field of each form: the scenario form's
// limits, a tool's schema and the scripted responses, the context window,
// the Model settings, a lesson's own box, and Compare's B form.

import { announcesProblem, assert, button, descriptionOf, openCompare, pick, test } from './lib.mjs';

test('field: a limit that is not a number is announced with its field, and cleared when fixed', async ({ page }) => {
  await pick(page, 'get-time');
  await page.locator('summary', { hasText: 'Limits' }).click();
  await announcesProblem(
    page.locator('#limit-deadline_ms'),
    { shown: page.locator('.limit[data-limit="deadline_ms"] .field-error'), wrong: 'soon', right: '', says: 'is not a number' },
  );
  // The unit is part of the field's name.
  const label = await page.locator('label[for="limit-deadline_ms"]').innerText();
  assert(label.includes('(ms)'), `the deadline's label has no unit: ${label}`);
});

test('field: a tool schema and the scripted responses that are not JSON are announced with their fields', async ({ page }) => {
  await pick(page, 'bad-arguments');
  const scenario = JSON.parse(await page.locator('#scenario-json').inputValue());
  const index = scenario.tools.findIndex((t) => typeof t === 'object');
  await page.locator('summary', { hasText: 'Tools' }).click();
  await announcesProblem(
    page.locator(`#tool-${index}-schema`),
    { shown: page.locator(`#tool-${index}-schema + .field-error`), wrong: '{"type": "object",', right: '{"type": "object"}', says: 'input_schema' },
  );
  await page.locator('summary', { hasText: 'Scripted responses' }).click();
  const script = await page.locator('#field-responses').inputValue();
  await announcesProblem(
    page.locator('#field-responses'),
    { shown: page.locator('#field-responses + .field-error'), wrong: '[{"text": ', right: script, says: 'model.responses' },
  );
});

test('field: the context window\'s field announces a count that is not a number', async ({ page }) => {
  await pick(page, 'context-limit');
  const section = page.locator('details[data-section="context"]');
  await section.locator('summary').click();
  await announcesProblem(
    section.locator('input#context-keep_tool_results'),
    { shown: section.locator('[data-limit="keep_tool_results"] .field-error'), wrong: 'two', right: '1', says: 'Results kept: a whole number' },
  );
});

test('field: the Model settings announce a problem with the field it is about', async ({ page }) => {
  await page.getByLabel('Model source').selectOption({ label: 'OpenAI Chat Completions' });
  const field = page.locator('#model-max-tokens');
  await announcesProblem(
    field,
    { shown: page.locator('#model-max-tokens + .field-error'), wrong: 'lots', right: '1000', says: 'Max output tokens' },
  );
  // A model name fixes the model's problem: it is no longer marked.
  await announcesProblem(
    page.locator('#model-name'),
    { shown: page.locator('#model-name + .field-error'), wrong: '', right: 'gpt-4o-mini', says: 'Model' },
  );
});

test('field: a lesson\'s own box announces a value that is not JSON', async ({ page }) => {
  const panel = page.locator('.lessons-panel');
  await button(page, 'Lessons').click();
  await panel.locator('.lesson-list').waitFor({ timeout: 10_000 });
  await button(panel, 'Stop a runaway loop').click();
  await panel.locator('.lesson-goal, .chapter-intro').first().waitFor({ timeout: 5_000 });
  if (await panel.locator('.chapter-intro').count()) await button(panel, 'Start the chapter').click();
  await page.locator('#lesson-part-limits-max_turns').waitFor({ timeout: 5_000 });
  await announcesProblem(
    page.locator('#lesson-part-limits-max_turns'),
    { shown: page.locator('.lesson-parts .field-error'), wrong: '7x', right: '10', says: 'limits.max_turns: ' },
  );
});

test('field: Compare\'s B form announces a limit that is not a number, and the runs per side field is described by its hint', async ({ page }) => {
  await pick(page, 'turn-limit');
  const compare = await openCompare(page);
  const form = compare.locator('details.variant-form');
  await form.locator('#b-field-task').waitFor({ timeout: 5_000 });
  await form.getByText('Limits', { exact: true }).click();
  await announcesProblem(
    form.locator('#b-limit-max_turns'),
    { shown: form.locator('.limit[data-limit="max_turns"] .field-error'), wrong: 'six', right: '6', says: 'is not a number' },
  );
  const times = compare.locator('#compare-times');
  const hint = await descriptionOf(times);
  assert(hint.includes('one run a side shows all it does'), `the runs per side field is described as "${hint}"`);
});
