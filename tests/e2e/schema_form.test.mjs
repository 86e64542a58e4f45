// "Call a tool by hand" builds a form from the tool's input_schema, as the
// MCP Inspector does: a choice for an enum, a number input with its bounds,
// a fieldset for a nested object. A wrong value is refused under its field,
// the JSON beside the form follows each edit and the form follows the JSON,
// and a schema the form cannot express keeps the JSON box alone.

import { createRequire } from 'node:module';
import { assert, button, loadScenario, openMode, test } from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

// Inline tools, so the schemas under test are spelled out here.
const SCENARIO = {
  name: 'Book a room by hand',
  task: 'Book a room.',
  tools: [
    {
      name: 'book_room',
      description: 'Books a hotel room.',
      input_schema: {
        type: 'object',
        properties: {
          room: { type: 'string', enum: ['single', 'double', 'suite'], description: 'The kind of room.' },
          nights: { type: 'integer', minimum: 1, maximum: 14 },
          requests: { type: 'array', description: 'Anything asked for.', items: { type: 'string', minLength: 3 } },
          guest: {
            type: 'object',
            description: 'Who stays.',
            properties: { name: { type: 'string', minLength: 1 }, email: { type: 'string', format: 'email' } },
            required: ['name'],
          },
        },
        required: ['room', 'nights', 'guest'],
        additionalProperties: false,
      },
      result: { booked: true, confirmation: 'BK-4711' },
    },
    {
      name: 'remind_me',
      description: 'Sets a reminder.',
      input_schema: {
        type: 'object',
        properties: { when: { oneOf: [{ type: 'string', format: 'date-time' }, { type: 'integer' }] } },
        required: ['when'],
      },
      result: { ok: true },
    },
  ],
  model: { type: 'scripted', responses: [{ text: 'Done.' }] },
};

async function openBench(page) {
  await loadScenario(page, SCENARIO);
  await openMode(page, 'scenario');
  const bench = page.locator('details.tool-bench');
  await bench.locator('summary').click();
  await bench.locator('.sf-form').waitFor({ timeout: 10_000 });
  return bench;
}

const argsOf = async (bench) => JSON.parse(await bench.locator('#bench-args').inputValue());
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** Waits until the JSON box holds `want` (the form writes it as it is typed). */
async function untilJson(bench, want, what) {
  const deadline = Date.now() + 3_000;
  let got;
  while (Date.now() < deadline) {
    got = await argsOf(bench).catch(() => null);
    if (same(got, want)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what}: the JSON is ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
}

async function call(bench) {
  await button(bench, 'Call').click();
  const result = bench.locator('.bench-result');
  await result.waitFor({ timeout: 10_000 });
  return { kind: await result.getAttribute('data-result'), text: await result.innerText() };
}

test('schema form: a tool\'s schema gives a choice, a number and a nested fieldset, kept in sync with its JSON both ways', async ({ page }) => {
  const bench = await openBench(page);
  const form = bench.locator('.sf-form');
  const room = form.getByRole('combobox', { name: 'room (required)', exact: true });
  const nights = form.getByRole('spinbutton', { name: 'nights (required)', exact: true });
  const guest = form.getByRole('group', { name: 'guest (required)', exact: true });
  const name = guest.getByRole('textbox', { name: 'name (required)', exact: true });
  const email = guest.getByRole('textbox', { name: 'email', exact: true });

  const choices = await room.locator('option').allInnerTexts();
  assert(same(choices, ['single', 'double', 'suite']), `the enum's choices: ${choices}`);
  assert((await nights.getAttribute('min')) === '1' && (await nights.getAttribute('max')) === '14', 'the number input lacks its bounds');
  assert((await form.innerText()).includes('The kind of room.'), 'the description is not shown as help');
  assert((await guest.innerText()).includes('Who stays.'), "the nested object's description is not shown");
  // The form and the JSON start from the same arguments.
  await untilJson(bench, { room: 'single', nights: 1, guest: { name: '' } }, 'at the start');

  // Form → JSON, as it is typed.
  await room.selectOption({ label: 'suite' });
  await nights.fill('0');
  await untilJson(bench, { room: 'suite', nights: 0, guest: { name: '' } }, 'after picking suite and typing 0');
  // Each wrong value is refused under its own field, in plain words.
  const nightsProblem = await page.locator(`#${await nights.getAttribute('id')}-problem`).innerText();
  assert(nightsProblem.includes('0 is too small: it must be at least 1'), `under nights: ${nightsProblem}`);
  assert((await nights.getAttribute('aria-invalid')) === 'true', 'nights is not marked invalid');
  const nameProblem = await page.locator(`#${await name.getAttribute('id')}-problem`).innerText();
  assert(nameProblem.length > 0, 'the empty required name has no message under it');
  await email.fill('not an email');
  await page.waitForFunction(() => document.querySelector('#sf-guest-email-problem')?.textContent.includes('email'), null, { timeout: 3_000 });
  // The call is not sent while the arguments break the schema.
  let got = await call(bench);
  assert(got.kind === 'refused' && got.text.includes('/nights'), `a call with 0 nights: ${got.kind}: ${got.text}`);

  await nights.fill('3');
  await name.fill('Ada');
  await email.fill('');
  await untilJson(bench, { room: 'suite', nights: 3, guest: { name: 'Ada' } }, 'after the right values');
  assert((await form.locator('.sf-problem:not(:empty)').count()) === 0, `problems left: ${await form.locator('.sf-problem:not(:empty)').allInnerTexts()}`);
  got = await call(bench);
  assert(got.kind === 'answered' && got.text.includes('BK-4711'), `a right call: ${got.kind}: ${got.text}`);

  // JSON → form: an edit of the JSON box shows in the fields.
  await bench.locator('#bench-args').fill('{"room": "double", "nights": 5, "guest": {}}');
  await page.waitForFunction((id) => document.getElementById(id)?.value === '5', await nights.getAttribute('id'), { timeout: 3_000 });
  const picked = await room.evaluate((s) => s.selectedOptions[0]?.textContent);
  assert(picked === 'double', `the choice shown after the JSON edit: ${picked}`);
  assert((await name.inputValue()) === '', `name after the JSON dropped it: ${await name.inputValue()}`);
  // A missing required nested field is refused under that field.
  await page.waitForFunction((id) => document.getElementById(`${id}-problem`)?.textContent.includes('required'), await name.getAttribute('id'), { timeout: 3_000 });

  // A JSON the form cannot show says so, and the JSON box stays usable.
  await bench.locator('#bench-args').fill('{"room": "double", "nights": "5", "guest": {"name": "Bo"}}');
  const unshown = form.locator('.sf-unshown');
  await unshown.waitFor({ timeout: 3_000 });
  const says = await unshown.innerText();
  assert(says.includes('nights is a string ("5"); its field takes a number'), `the note: ${says}`);
  got = await call(bench);
  assert(got.kind === 'refused' && got.text.includes('/nights'), `a string for nights: ${got.kind}: ${got.text}`);
  await bench.locator('#bench-args').fill('{"room": "double", "nights": 5, "guest": {"name": "Bo"}}');
  await unshown.waitFor({ state: 'detached', timeout: 3_000 });
  assert((await name.inputValue()) === 'Bo', 'the form did not come back with the JSON it can show');

  // A list: items added and removed one by one, each typed by `items`.
  const requests = form.getByRole('group', { name: 'requests', exact: true });
  await button(requests, 'Add an item to requests').click();
  const first = requests.getByRole('textbox', { name: 'requests, item 1', exact: true });
  await untilJson(bench, { room: 'double', nights: 5, guest: { name: 'Bo' }, requests: [''] }, 'after adding an item');
  await page.waitForFunction((id) => document.getElementById(`${id}-problem`)?.textContent.includes('3 characters'), await first.getAttribute('id'), { timeout: 3_000 });
  await first.fill('late checkout');
  await button(requests, 'Add an item to requests').click();
  await requests.getByRole('textbox', { name: 'requests, item 2', exact: true }).fill('quiet room');
  await untilJson(bench, { room: 'double', nights: 5, guest: { name: 'Bo' }, requests: ['late checkout', 'quiet room'] }, 'after two items');
  await requests.getByRole('button', { name: 'Remove requests, item 1', exact: true }).click();
  await untilJson(bench, { room: 'double', nights: 5, guest: { name: 'Bo' }, requests: ['quiet room'] }, 'after removing the first item');
  assert((await first.inputValue()) === 'quiet room', `the item left: ${await first.inputValue()}`);
});

test('schema form: a schema beyond a form keeps the JSON box alone and says why in one line', async ({ page }) => {
  const bench = await openBench(page);
  await bench.locator('#bench-tool').selectOption('remind_me');
  const none = bench.locator('.sf-none');
  await none.waitFor({ timeout: 3_000 });
  const says = await none.innerText();
  assert(says === 'No form for this tool: the argument "when" uses oneOf. Type its arguments as JSON.', `the line: ${says}`);
  assert((await bench.locator('.sf-form').count()) === 0, 'a form is drawn for a schema it cannot express');
  await bench.locator('#bench-args').fill('{"when": 5}');
  const got = await call(bench);
  assert(got.kind === 'answered', `remind_me by JSON: ${got.kind}: ${got.text}`);
});

test('schema form: axe finds nothing with the form shown, a problem under a field', async ({ page }) => {
  const bench = await openBench(page);
  await bench.locator('.sf-form').getByRole('spinbutton', { name: 'nights (required)' }).fill('0');
  await bench.locator('.sf-problem:not(:empty)').first().waitFor({ timeout: 3_000 });
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
  assert(found.length === 0, `axe:\n${found.join('\n')}`);
}, { bypassCSP: true });
