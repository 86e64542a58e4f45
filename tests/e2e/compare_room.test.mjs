// Compare explains itself: B starts as a copy of A with its form open; a
// pair's B has the fields where it differs from A marked in words; B
// follows the pair picked or run, and an edited B put aside can be brought
// back; a rewritten description reads as a before line and an after line.
// And a fork from the loop: "Go on from here with an edit" on a turn card
// or a node of the drawn loop opens the scenario that ran, and its edit
// runs beside the original.

import { createRequire } from 'node:module';
import { assert, button, openCompare, pick, runBuiltin, test } from './lib.mjs';

const compare = (page) => page.locator('section.compare');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe's violations in the page as it is now, one line each. */
async function violations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

/** B's JSON once its `name` is `name`. */
async function bNamed(page, name) {
  await page.waitForFunction((name) => {
    try {
      return JSON.parse(document.getElementById('variant-json').value).name === name;
    } catch {
      return false;
    }
  }, name, { timeout: 10_000 }).catch(async () => {
    throw new Error(`B is not ${name}: ${(await page.locator('#variant-json').inputValue()).slice(0, 120)}`);
  });
  return JSON.parse(await page.locator('#variant-json').inputValue());
}

/** The built-in `id`'s `name`, as its file says. */
async function nameOf(page, id) {
  return (await page.locator(`#scenario-picker option[value="${id}"]`).textContent()).trim().replace(/ ⇄ pair$/, '');
}

async function sideStatuses(page) {
  await compare(page).locator('.compare-summary').waitFor({ timeout: 20_000 });
  return compare(page).locator('thead .compare-side').evaluateAll((ths) => ths.map((th) => th.dataset.status));
}

test('compare room: opening Compare shows B as a copy of A, its form open and nothing marked', async ({ page }) => {
  await pick(page, 'turn-limit');
  const a = await page.locator('#scenario-json').inputValue();
  await openCompare(page);
  await page.waitForFunction((a) => document.getElementById('variant-json')?.value === a, a, { timeout: 5_000 })
    .catch(() => assert(false, 'B is not a copy of A'));
  const form = compare(page).locator('details.variant-form');
  assert((await form.getAttribute('open')) !== null, 'B\'s form is not open');
  assert(await compare(page).locator('#b-field-task').isVisible(), 'B\'s task field is not shown');
  assert((await compare(page).locator('.differs-from-a').count()) === 0, 'a copy of A has a field marked as differing');
});

test('compare room: choosing a pair puts its other half in B, the differing field marked in words', async ({ page }) => {
  await openCompare(page);
  await pick(page, 'rules-with-example');
  const b = await bNamed(page, await nameOf(page, 'rules-without-example'));
  assert(b.tools.length > 0, 'B has no tools');
  const notice = await compare(page).locator('.variant-notice').innerText();
  assert(notice.includes('rules-without-example') && notice.includes('the other half of'), notice);
  // The pair differs in get_order's schema (the example id in its
  // property's description): that field's label says so (not colour only),
  // and so does its accessible name; its section is open to show it.
  const marks = compare(page).locator('.variant-form .differs-from-a');
  await marks.first().waitFor({ timeout: 5_000 });
  assert((await marks.count()) === 1, `${await marks.count()} fields marked`);
  const schema = compare(page).getByRole('textbox', { name: /^Input schema \(JSON Schema\)\s*≠ differs from A$/ });
  assert((await schema.count()) === 1, 'B\'s schema is not named as differing from A');
  assert(await schema.isVisible(), 'the differing schema is not in view: its section is closed');
  assert((await schema.getAttribute('id')) === 'b-tool-0-schema', await schema.getAttribute('id'));
  for (const same of ['b-field-task', 'b-tool-0-description']) {
    const label = await compare(page).locator(`label[for="${same}"]`).innerText();
    assert(!label.includes('differs'), `${same}, the same in both, is marked: ${label}`);
  }
});

test('compare room: picking or running another pair replaces B, and an edited B can be brought back', async ({ page }) => {
  await openCompare(page);
  await pick(page, 'rules-with-example');
  await bNamed(page, await nameOf(page, 'rules-without-example'));
  const description = compare(page).locator('#b-tool-0-description');
  await description.fill('My own words about orders.');
  // Another pair picked: its other half replaces B; the edit is put aside.
  await pick(page, 'schema-place-enum');
  await bNamed(page, await nameOf(page, 'schema-place-free-string'));
  const notice = compare(page).locator('.variant-notice');
  assert((await notice.innerText()).includes('One edited B of yours is put aside.'), await notice.innerText());
  await button(notice, 'Bring back my edited B').click();
  const back = await compare(page).locator('#variant-json').inputValue();
  assert(back.includes('My own words about orders.'), 'the edited B did not come back');
  assert((await notice.innerText()).includes('Your edited B is back.'), await notice.innerText());
  // Running the pair picked brings its other half into B again.
  await button(compare(page), 'Run the pair side by side').click();
  await bNamed(page, await nameOf(page, 'schema-place-free-string'));
  assert((await notice.innerText()).includes('One edited B of yours is put aside.'), await notice.innerText());
  await compare(page).locator('.compare-summary').waitFor({ timeout: 20_000 });
  // A second edit put aside keeps the first: both come back, the latest first.
  await compare(page).locator('#variant-json').fill((await compare(page).locator('#variant-json').inputValue()).replace('"name": "', '"name": "Second edit: '));
  await pick(page, 'schema-nights-required');
  await bNamed(page, await nameOf(page, 'schema-nights-default'));
  assert((await notice.innerText()).includes('2 edited Bs of yours are put aside, the latest first.'), await notice.innerText());
  await button(notice, 'Bring back my edited B').click();
  assert((await compare(page).locator('#variant-json').inputValue()).includes('Second edit: '), 'the latest edit did not come back first');
  assert((await notice.innerText()).includes('One edited B of yours is put aside.'), await notice.innerText());
  await button(notice, 'Bring back my edited B').click();
  assert((await compare(page).locator('#variant-json').inputValue()).includes('My own words about orders.'), 'the first edit did not come back');
  // The B it replaced, the second edit, is put aside in its turn.
  assert((await notice.innerText()).includes('One edited B of yours is put aside.'), await notice.innerText());
});

test('compare room: a rewritten description is a before line and an after line, the changed words marked', async ({ page }) => {
  await openCompare(page);
  await pick(page, 'schema-tools-distinct');
  await button(compare(page), 'Run the pair side by side').click();
  await compare(page).locator('.compare-summary').waitFor({ timeout: 20_000 });
  const item = compare(page).locator('li.change', { hasText: "search_hotels's description" });
  const before = item.locator('.diff-before');
  const after = item.locator('.diff-after');
  assert((await before.count()) === 1 && (await after.count()) === 1, await item.innerText());
  const beforeText = await before.innerText();
  const afterText = await after.innerText();
  assert(beforeText.startsWith('Before (A):') && afterText.startsWith('After (B):'), `${beforeText} / ${afterText}`);
  // Each line holds one side's words: removed ones only before, added ones only after.
  assert((await before.locator('ins').count()) === 0 && (await after.locator('del').count()) === 0, 'the lines interleave');
  const removed = (await before.locator('del').allInnerTexts()).join(' ');
  const added = (await after.locator('ins').allInnerTexts()).join(' ');
  assert(removed.includes('Search') && added.includes('Find'), `removed: ${removed}; added: ${added}`);
  assert(afterText.includes('Find hotels in a city: names, prices and details.'), afterText);
  // Marked in text and shape as well as colour.
  const cue = await after.locator('ins').first().evaluate((el) => [getComputedStyle(el, '::before').content, getComputedStyle(el).textDecorationLine]);
  assert(cue[0] === '"+"' && cue[1] === 'underline', `added words are shown as ${cue}`);
});

/** The fork editor asked from a step: edits the description so the rules
 * model uses the example id, runs the fork and checks it beside the run. */
async function editAndRunFork(page) {
  const heading = compare(page).locator('#fork-here-heading');
  await heading.waitFor({ timeout: 10_000 });
  assert((await heading.innerText()) === 'Go on from before turn 1 with an edit', await heading.innerText());
  const form = compare(page).locator('.fork-draft-form');
  await form.locator('.form-section > summary', { hasText: 'Tools' }).click();
  const description = form.locator('#fork-tool-0-description');
  assert((await description.inputValue()) === 'Look up an order: amount and days since delivery.', await description.inputValue());
  await description.fill('Look up an order: amount and days since delivery. Ids look like this, e.g. A1001.');
  await button(compare(page), 'Run the fork beside the original').click();
  const [parent, fork] = await sideStatuses(page);
  assert(parent === 'failed_verification' && fork === 'done', `parent ended ${parent}, fork ended ${fork}`);
  const sides = await compare(page).locator('thead .compare-side').allInnerTexts();
  assert(sides[0].includes('parent') && sides[1].includes('fork before turn 1'), sides.join(' | '));
  const summary = await compare(page).locator('.compare-summary').innerText();
  assert(summary.includes('ORD-1001') && summary.includes('A1001'), summary);
}

test('compare room: from a turn card, Go on from here with an edit runs the edited fork beside the run', async ({ page }) => {
  assert((await runBuiltin(page, 'rules-without-example')) === 'failed_verification', 'the parent run');
  const card = page.locator('.timeline .event[data-kind="model_request"]').first();
  await button(card, 'Go on from here with an edit').click();
  await page.locator('main.layout[data-mode="compare"]').waitFor({ state: 'attached', timeout: 5_000 });
  await editAndRunFork(page);
  const found = await violations(page);
  assert(found.length === 0, `the fork view:\n${found.join('\n')}`);
}, { viewport: { width: 1440, height: 900 }, bypassCSP: true, timeoutMs: 60_000 });

test('compare room: from a node of the drawn loop, Go on from here with an edit runs the edited fork', async ({ page }) => {
  assert((await runBuiltin(page, 'rules-without-example')) === 'failed_verification', 'the parent run');
  await page.locator('.loop-wide [data-node="model-call"]').first().dispatchEvent('click');
  const passes = page.locator('.loop-passes').first();
  await passes.waitFor({ timeout: 3_000 });
  await button(passes, 'Go on from here with an edit').click();
  await page.locator('main.layout[data-mode="compare"]').waitFor({ state: 'attached', timeout: 5_000 });
  await editAndRunFork(page);
}, { viewport: { width: 1440, height: 900 }, timeoutMs: 60_000 });

test('compare room: axe finds nothing in Compare with a pair\'s B marked', async ({ page }) => {
  await openCompare(page);
  await pick(page, 'rules-with-example');
  await compare(page).locator('.variant-form .differs-from-a').first().waitFor({ timeout: 10_000 });
  const found = await violations(page);
  assert(found.length === 0, `Compare:\n${found.join('\n')}`);
}, { viewport: { width: 1440, height: 900 }, bypassCSP: true });

test('compare room: a fork of a broken edit says why in view, under the button pressed', async ({ page }) => {
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not finish');
  await page.locator('#scenario-json').fill('{"name": "broken", "tools": [');
  const compare = await openCompare(page);
  await button(compare, 'Fork and compare').click();
  const problems = page.locator('.compare-problems');
  await problems.waitFor({ timeout: 10_000 });
  const reasons = await problems.locator('li').allInnerTexts();
  assert(reasons.length > 0 && reasons.every((r) => r.startsWith('the edited scenario: ')), `reasons: ${reasons}`);
  await page.waitForTimeout(300);
  const box = await problems.boundingBox();
  const viewport = page.viewportSize();
  assert(box && box.y >= 0 && box.y + box.height <= viewport.height, `the refusal is out of view: ${JSON.stringify(box)}`);
});
