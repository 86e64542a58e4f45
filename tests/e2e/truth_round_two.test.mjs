// Nothing false, nothing lost: each test is one item
// as a user meets it in the page. Step mode and a deadline agree; the tool
// calls are counted one way; a policy's denial is the harness's; verdicts
// count places in one numbering per view and say when a refusal is only
// reported; the inspector names the model a run used; a turn written as the
// model that calls tools but says end_turn is flagged; Step after the end
// says it starts a new run; an MCP server that gave no answer blocks Run
// where Run is; an imported body's result for a call it never made says so.

import { createServer } from 'node:net';

import { assert, axeCheck, bannerStatus, button, loadScenario, pick, runBuiltin, runFiles, stepTo, test } from './lib.mjs';

const WIDE = { viewport: { width: 1440, height: 900 } };

/** The header's elapsed counter, as shown. */
function elapsed(page) {
  return page.locator('.counter[data-counter="elapsed"] dd').innerText();
}

test('truth: step mode stops the run\'s clock, so no deadline passes while a person holds the run', async ({ page }) => {
  await pick(page, 'deadline-per-run');
  await stepTo(page, 'Paused before model call (turn 1)');
  await stepTo(page, 'Paused before tool call get_time');
  // Three seconds against a 2 s deadline, held by a person.
  await page.waitForTimeout(3_000);
  assert((await page.locator('.stop-banner').count()) === 0, 'the deadline passed while the run was paused');
  const shown = await elapsed(page);
  assert(shown.includes('‖ clock paused'), `the header does not say the clock is paused: ${shown}`);
  const value = shown.match(/^(\d+ ms|[\d.]+ s) \/ 2\.00 s/);
  assert(value && !value[1].endsWith(' s'), `the header counts the pause: ${shown}`);
  // The loop's deadline gate shows the header's number.
  const gate = await page.locator('.loop-wide [data-node="gate-deadline"]').getAttribute('aria-label');
  assert(gate.includes(`${value[1]} / 2.00 s`), `gate ${gate}, header ${shown}`);

  // Stop at the pause: the reason says where the run was, and the call it
  // held is "not run", never "cut short" nor "running".
  await button(page, 'Stop').click();
  assert((await bannerStatus(page)) === 'cancelled', 'Stop did not end the run');
  const reason = await page.locator('.stop-banner .stop-reason').innerText();
  assert(reason.includes('while paused before tool call get_time'), `reason: ${reason}`);
  const result = page.locator('.timeline .event[data-kind="tool_result"]');
  assert((await result.getAttribute('data-fate')) === 'not-run', `fate ${await result.getAttribute('data-fate')}`);
  assert((await result.getAttribute('data-why')) === 'stopped_before_start', `why ${await result.getAttribute('data-why')}`);
  const text = await result.innerText();
  assert(text.includes('Not run: get_time') && text.includes('not run: the run stopped before this call started'), text);
  const header = await page.locator('.counter[data-counter="tool-calls"] dd').innerText();
  assert(header === '1 requested (1 not run)', `header: ${header}`);
  // The header and the gate end on the outcome's time.
  const end = (await elapsed(page)).split(' / ')[0];
  const gateEnd = await page.locator('.loop-wide [data-node="gate-deadline"]').getAttribute('aria-label');
  assert(gateEnd.includes(`${end} / 2.00 s`), `gate ${gateEnd}, header ${end}`);
}, { ...WIDE, timeoutMs: 45_000 });

test('truth: after the first Step the loop says what runs next', async ({ page }) => {
  await pick(page, 'get-time');
  await stepTo(page, 'Paused before model call (turn 1)');
  const current = page.locator('.loop-wide [aria-current="step"]');
  await current.waitFor({ timeout: 5_000 });
  const name = await current.getAttribute('aria-label');
  assert(name.includes('next: model call, turn 1'), `the current node says ${name}`);
}, WIDE);

test('truth: a deny_all policy ends the run as the harness, not as a person', async ({ page }) => {
  assert((await runBuiltin(page, 'blocked')) === 'blocked', 'blocked did not end blocked');
  const banner = page.locator('.stop-banner');
  assert((await banner.getAttribute('data-tone')) === 'guard', `banner tone ${await banner.getAttribute('data-tone')}`);
  const said = await banner.innerText();
  assert(said.includes('ended by the harness\'s approval policy') && !said.includes('ended by a person'), said);
  assert((await page.locator('header .outcome').getAttribute('class')).includes('tone-guard'), 'the header outcome is not the guard tone');
  const exit = page.locator('.loop-wide [data-node="exit-blocked"]');
  assert((await exit.getAttribute('class')).includes('tone-guard'), `exit class ${await exit.getAttribute('class')}`);
  assert((await exit.textContent()).includes('⊘'), `exit reads ${await exit.textContent()}`);
}, WIDE);

test('truth: after a run ends, Step says it starts a new one', async ({ page }) => {
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
  const step = button(page, 'Step a new run');
  assert(await step.isEnabled(), 'Step a new run is off');
  assert((await button(page, 'Step').count()) === 0, 'a plain Step is offered after the end');
  await step.click();
  await page.locator('.run-state', { hasText: 'Paused before model call (turn 1)' }).waitFor({ timeout: 10_000 });
  assert((await page.locator('.stop-banner').count()) === 0, 'the old banner stayed');
  assert(await button(page, 'Step').isEnabled(), 'Step is not back while the new run goes');
});

test('truth: duplicate ids — Responses is said to refuse them as reported, and each view counts its own way', async ({ page }) => {
  await pick(page, 'protocol-duplicate-ids');
  const lesson = await page.locator('.lesson').first().innerText();
  assert(lesson.includes('OpenAI Responses is reported to refuse it too'), `lesson: ${lesson}`);
  assert((await runBuiltin(page, 'protocol-duplicate-ids')) === 'done', 'did not end done');
  const banner = page.locator('.stop-banner .stop-verdict li[data-provider="OpenAI Responses"]');
  await banner.waitFor({ timeout: 5_000 });
  const line = await banner.innerText();
  assert(line.startsWith('OpenAI Responses is reported to reject turn 2 (not documented): HTTP 400'), line);
  assert(line.includes('not documented'), line);
  // The card: places in the run's history.
  const card = page.locator('.timeline .turn-verdict li[data-provider="OpenAI Chat Completions"]');
  const cardText = await card.innerText();
  assert(cardText.includes("Where, in the run's history: the 3rd message (user), its 2nd block, a tool_result."), cardText);
  assert(!cardText.includes('4th message (tool)'), `the card mixes in the body's numbering: ${cardText}`);
  // The inspector: places in the provider's body, named as such.
  await button(card, 'Show it in the OpenAI Chat Completions request').click();
  const panel = page.locator('.inspector[data-open]');
  const pointed = panel.locator('.inspector-verdict li[data-pointed]');
  await pointed.waitFor({ timeout: 5_000 });
  const inspector = await pointed.innerText();
  assert(inspector.includes('Where, in this OpenAI Chat Completions body: the 4th message (tool) (messages[3]).'), inspector);
  await panel.getByRole('tab', { name: /^OpenAI Responses/ }).click();
  const verdict = panel.locator('.inspector-verdict[data-verdict="rejected"] > p');
  await verdict.waitFor({ timeout: 5_000 });
  const head = await verdict.innerText();
  assert(head.includes('OpenAI Responses is reported to refuse this request') && head.includes('not documented'), head);
  assert(!(await panel.innerText()).includes('OpenAI Responses would accept'), 'the inspector says Responses accepts');
}, WIDE);

test('truth: the inspector names the model a run used', async ({ page }) => {
  assert((await runBuiltin(page, 'rules-with-example')) === 'done', 'rules-with-example did not end done');
  await page.getByRole('button', { name: "Inspect turn 1's request and response" }).click();
  const note = page.locator('.inspector[data-open] .inspector-format');
  await note.waitFor({ timeout: 5_000 });
  const said = await note.innerText();
  assert(said.includes('This run used the rules model') && !said.includes('scripted'), said);
}, WIDE);

test('truth: an imported body with a result for a call it never made says so, and its request is estimated', async ({ page }) => {
  const body = {
    model: 'claude-sonnet-4-5',
    system: 'You check stock.',
    max_tokens: 256,
    messages: [
      { role: 'user', content: 'What is the stock of warehouse A? Please look it up.' },
      { role: 'assistant', content: 'Let me look.' },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_orphan', content: '12 units' }] },
    ],
  };
  await runFiles(page);
  await page.locator('.run-paste summary').click();
  await page.locator('#run-paste-text').fill(JSON.stringify(body));
  await button(page, 'Import pasted text').click();
  const result = page.locator('#run-timeline .event[data-kind="tool_result"]');
  await result.waitFor({ timeout: 5_000 });
  const title = await result.locator('.event-title').innerText();
  assert(title === 'Result for an unknown call (toolu_orphan)', `title: ${title}`);
  const requests = await page.locator('#run-timeline .event[data-kind="model_request"]').allInnerTexts();
  assert(requests.length === 2 && requests.every((r) => !/~0 input tokens/.test(r)), `requests: ${requests}`);
  // Its inspector speaks the body's format, not "the scripted model".
  await page.getByRole('button', { name: "Inspect turn 1's request and response" }).click();
  // The note is drawn once the turn's request is built (off the first
  // paint's path), so it is waited for, not read at the click.
  const format = page.locator('.inspector[data-open] .inspector-format');
  await format.filter({ hasText: /\S/ }).waitFor({ timeout: 5_000 });
  const note = await format.innerText();
  assert(note.includes('This run spoke Anthropic Messages to claude-sonnet-4-5'), note);
  // Its conversation says its one id link is broken, in agreeing numbers.
  await page.getByRole('button', { name: "Inspect turn 2's request and response" }).click();
  const panel = page.locator('.inspector[data-open]');
  await panel.locator('h2', { hasText: 'turn 2' }).waitFor({ timeout: 5_000 });
  await panel.getByRole('tab', { name: /^Conversation/ }).click();
  await panel.locator('.inspector-body', { hasText: '1 id link is broken' }).waitFor({ timeout: 5_000 });
}, WIDE);

test('truth: a turn written as the model that calls a tool but says end_turn is flagged before it is sent', async ({ page }) => {
  await pick(page, 'get-time');
  await stepTo(page, 'Paused before model call (turn 1)');
  const panel = page.locator('.answer-panel');
  await button(panel, 'Answer as the model').click({ timeout: 10_000 });
  await panel.locator('.answer-form').waitFor({ state: 'visible', timeout: 5_000 });
  await button(panel, 'Add a tool call').click();
  await panel.locator('select.answer-stop').selectOption('end_turn');
  const problems = panel.locator('.answer-problems');
  await problems.waitFor({ timeout: 5_000 });
  const text = await problems.innerText();
  assert(text.includes('stop_reason') && text.includes('says the turn is a final answer, but it has 1 tool call'), text);
  assert(await button(panel, 'Send as the model').isDisabled(), 'Send is on for end_turn with a tool call');
  // Sending it anyway stays possible, to show what the loop does with it.
  await panel.getByLabel('Send it anyway').check();
  assert(await button(panel, 'Send as the model').isEnabled(), 'Send it anyway does not turn Send on');
});

/** A port nothing listens on: one the system gave out, then closed. */
async function closedPort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

test('truth: an MCP server that gives no answer blocks Run, said beside Run with a link to the MCP panel', async ({ page, errors }) => {
  const url = `http://127.0.0.1:${await closedPort()}/mcp`;
  await loadScenario(page, {
    name: 'Tools from a server that is down',
    task: 'Echo hello.',
    mcp_servers: [{ name: 'down', url }],
    model: { type: 'scripted', responses: [{ text: 'done' }] },
  });
  const blocker = page.locator('#run-blocker');
  await blocker.filter({ hasText: 'MCP tools did not load' }).waitFor({ timeout: 10_000 });
  assert(await button(page, 'Run').isDisabled(), 'Run is on while the MCP server gave no answer');
  const link = blocker.getByRole('link', { name: 'Go to the MCP servers panel' });
  assert((await link.getAttribute('href')) === '#mcp-servers', `link: ${await link.getAttribute('href')}`);
  await link.click();
  await page.waitForFunction(() => {
    const panel = document.getElementById('mcp-servers');
    const r = panel?.getBoundingClientRect();
    return r && r.top < window.innerHeight && r.bottom > 0;
  }, null, { timeout: 5_000 });
  // The browser logs the refused connections; they are what this test makes.
  for (let i = errors.length - 1; i >= 0; i -= 1) {
    if (errors[i].includes(url) || /ERR_CONNECTION_REFUSED/.test(errors[i])) errors.splice(i, 1);
  }
}, WIDE);

/** A scenario whose Deadline gate reads "12.35 s shared" and whose Tokens
 *  gate reads in the millions: each wider than its box as written. */
const LONG_READINGS = {
  name: 'Long gate readings',
  task: 'What time is it right now, in UTC?',
  tools: ['get_time'],
  limits: { max_turns: 4, deadline_ms: 12345, deadline_scope: 'shared', max_total_tokens: 123456789 },
  model: { type: 'scripted', responses: [{ text: 'It is noon.' }] },
};

test('truth: every word drawn in a loop node fits inside its box (repeat rules, the max_tokens exit, long limits)', async ({ page }) => {
  for (const id of ['repeated-call', 'repeated-call-naive', 'max-tokens', 'get-time', LONG_READINGS]) {
    if (typeof id === 'string') {
      await runBuiltin(page, id);
    } else {
      await loadScenario(page, id);
      await button(page, 'Run').click();
      await bannerStatus(page);
    }
    const rule = await page.locator('.loop-wide [data-node="gate-repeat"] .loop-value').textContent();
    assert(typeof id !== 'string' || ['max-tokens', 'get-time'].includes(id) || rule.trim() !== '', `${id}: the repeat gate shows no rule`);
    const spills = await page.locator('.loop-wide .loop-node').evaluateAll((nodes) => nodes.flatMap((node) => {
      const box = node.querySelector('rect').getBBox();
      return [...node.querySelectorAll('text:not(.loop-where)')]
        .filter((text) => text.textContent.trim() !== '')
        .map((text) => ({ text: text.textContent, b: text.getBBox() }))
        .filter(({ b }) => b.x < box.x - 0.5 || b.x + b.width > box.x + box.width + 0.5)
        .map(({ text, b }) => `${node.dataset.node}: "${text}" is ${b.width.toFixed(0)} wide in a box of ${box.width}`);
    }));
    assert(spills.length === 0, `${id.name ?? id}: ${spills.join('; ')}`);
  }
  // The long readings are drawn whole, squeezed to their box, not cut.
  const limit = await page.locator('.loop-wide [data-node="gate-deadline"] .loop-limit').textContent();
  assert(limit === '12.35 s shared', `the shared deadline reads "${limit}"`);
}, WIDE);

test('truth: at 360×800 the gates listed, a shared deadline\'s too, are named with the words they show', async ({ page }) => {
  for (const id of ['deadline-shared', 'get-time']) {
    await runBuiltin(page, id);
    const gate = page.locator('.loop-narrow [data-node="gate-deadline"] > button');
    const [shown, name] = [await gate.innerText(), await gate.getAttribute('aria-label')];
    const words = (text) => text.replace(/[^\p{L}\p{N}.]+/gu, ' ').trim();
    assert(words(name).includes(words(shown)), `${id}: the Deadline gate shows "${shown}" but is named "${name}"`);
    const found = await axeCheck(page, id);
    assert(found.length === 0, found.join('\n'));
  }
}, { viewport: { width: 360, height: 800 }, bypassCSP: true, timeoutMs: 60_000 });
