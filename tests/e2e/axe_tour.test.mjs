// A tour of every state a person can reach, with axe-core run in each: each
// run status the stop banner can show, a run waiting for approval (and its
// arguments edited wrong), step mode with both answer panels, the inspector
// on each tab, a replay, the Time view, the loop drawn full screen, the Run
// files menu, the Model settings, a broken scenario's problems, the Undo
// notice, the offline notice, every mode (Scenario with its form, tool bench
// and MCP panel; Compare with a pair and a fork; History with kept runs and
// replays; Import/Export) and the Lessons (the course, the glossary, a
// chapter's intro, a walk with Step, a predicting lesson, a failed and a
// passed Check, the solution). At a laptop's size and a phone's, in the
// light and the dark theme. One page per group of states; every state's
// violations are gathered, and the test fails listing them all.

import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  assert,
  axeCheck,
  button,
  CLI,
  env,
  loadScenario,
  openCompare,
  openMode,
  pick,
  refundUntilApproval,
  root,
  runBuiltin,
  runFiles,
  test,
  untilBanner,
  withTimeout,
} from './lib.mjs';

const LESSONS = join(root, 'crates/harness/lessons');
const CHAPTERS = readdirSync(join(LESSONS, 'chapters'))
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(LESSONS, 'chapters', f), 'utf8')));

const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 360, height: 800 };

/** Every state's violations, gathered so one run lists them all. */
function tour(page) {
  const found = [];
  return {
    async check(label) {
      found.push(...(await axeCheck(page, label)));
    },
    done() {
      assert(found.length === 0, `axe found violations:\n${found.join('\n')}`);
    },
  };
}

// Each built-in that ends with a status the stop banner shows, one of each.
const ENDINGS = [
  ['get-time', 'done'],
  ['turn-limit', 'turn_limit'],
  ['cost-limit-strict', 'cost_limit'],
  ['token-limit', 'token_limit'],
  ['tool-call-limit', 'tool_call_limit'],
  ['deadline', 'deadline'],
  ['repeated-call', 'repeated_call'],
  ['failed-verification', 'failed_verification'],
  ['blocked', 'blocked'],
  ['max-tokens', 'max_tokens'],
  ['refusal', 'refusal'],
  ['model-error', 'model_error'],
  ['context-limit', 'context_limit'],
  ['press-stop', 'cancelled'],
];

/** The stop banner for each ending, a run waiting for approval, and a denied one. */
async function endings(page, t) {
  for (const [id, status] of ENDINGS) {
    const ended = await runBuiltin(page, id);
    assert(ended === status, `${id} ended ${ended}, not ${status}`);
    await t.check(`stop banner: ${status}`);
  }
  const bar = await refundUntilApproval(page);
  await t.check('waiting for approval');
  await button(bar, 'Edit arguments').click();
  await bar.getByLabel(/Arguments \(JSON/).fill('{not json');
  await bar.locator('.edit-errors li').first().waitFor({ timeout: 3_000 });
  await t.check("approval, edited arguments that are not JSON");
  await button(bar, 'Discard edit').click();
  await button(bar, 'Deny').click();
  const denied = await untilBanner(page, { what: 'the denied refund' });
  await t.check(`stop banner after a denial: ${denied}`);
}

/** The Run mode's panels and notices around a run. */
async function runPanels(page, t) {
  // Step mode, paused, with each answer panel open.
  await pick(page, 'get-time');
  const stepTo = async (where) => {
    await button(page, 'Step').click();
    await page.locator('.run-state', { hasText: where }).waitFor({ timeout: 10_000 });
  };
  const answer = async (name) => {
    const panel = page.locator('.answer-panel');
    await button(panel, name).click({ timeout: 10_000 });
    await panel.locator('.answer-form').waitFor({ state: 'visible', timeout: 5_000 });
  };
  await stepTo('Paused before model call (turn 1)');
  await t.check('step mode, paused before the model');
  await answer('Answer as the model');
  await t.check('step mode, answering as the model');
  await stepTo('Paused before tool call get_time');
  await answer('Answer as the tool');
  await t.check('step mode, answering as the tool');
  await button(page, 'Stop').click();
  await untilBanner(page, { what: 'the stepped run' });

  // The inspector on each of its tabs and wire formats.
  assert((await runBuiltin(page, 'hotel-search')) === 'done', 'hotel-search did not end done');
  await page.getByRole('button', { name: "Inspect turn 1's request and response" }).click();
  const inspector = page.locator('.inspector[data-open]');
  await inspector.waitFor({ timeout: 5_000 });
  const views = await inspector.locator('.inspector-tab').count();
  for (let i = 0; i < views; i += 1) {
    const view = inspector.locator('.inspector-tab').nth(i);
    await view.click();
    const wires = await inspector.locator('.wire-tab').count();
    for (let j = 0; j < Math.max(wires, 1); j += 1) {
      if (wires) await inspector.locator('.wire-tab').nth(j).click();
      const what = wires ? `${await view.innerText()} / ${await inspector.locator('.wire-tab').nth(j).innerText()}` : await view.innerText();
      await t.check(`inspector: ${what}`);
    }
  }

  // A replay of the run against the current tools.
  await button(page, 'Replay against current tools').click();
  await page.locator('.replay-verdict').waitFor({ timeout: 10_000 });
  await t.check('replay verdict');

  // The Time view, and the loop drawn full screen.
  await button(page, 'Time view').click();
  await page.locator('.waterfall .wf-row').first().waitFor({ timeout: 10_000 });
  await t.check('Time view');
  await page.getByRole('button', { name: '⤢ See the loop drawn, full screen' }).click();
  await page.locator('.stage-loop .loop-panel[data-full]').waitFor({ timeout: 3_000 });
  await t.check('the loop drawn full screen');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('.stage-loop .loop-panel[data-full]'), null, { timeout: 3_000 }).catch(async () => {
    await page.getByRole('button', { name: /full screen|Close/ }).first().click();
  });

  // The Run files menu.
  await runFiles(page);
  await t.check('Run files menu open');

  // The Undo notice, after a pick replaced edits.
  await pick(page, 'get-time');
  const json = page.locator('#scenario-json');
  await json.fill((await json.inputValue()).replace('"task": "', '"task": "My edit: '));
  await pick(page, 'turn-limit');
  await page.locator('.undo-pick').waitFor({ timeout: 5_000 });
  await t.check('Undo notice after a pick');

  // Notes on a scenario that runs: a call to a tool it does not declare.
  await loadScenario(page, {
    name: 'Typo',
    task: 'What time is it?',
    tools: ['get_time'],
    model: { type: 'scripted', responses: [{ tool_calls: [{ name: 'get_tiem', args: {} }] }, { text: 'It is noon.' }] },
  });
  await page.locator('.notes li').first().waitFor({ timeout: 10_000 });
  await t.check("a scenario's notes");

  // A broken scenario's problem list.
  await json.fill('{ "name": "Broken", "task": 3, "tools": [{ "name": "" }] }');
  await page.locator('.problems[role="alert"] li').first().waitFor({ timeout: 5_000 });
  await t.check("a broken scenario's problems");

  // The Model settings, with a provider chosen and a base URL refused.
  await pick(page, 'get-time');
  await page.getByLabel('Model source').selectOption({ label: 'OpenAI Chat Completions' });
  await page.getByLabel('Base URL').fill('https://llm.example.com:8443/v1');
  await page.locator('.model-settings .field-error', { hasText: 'connect-src' }).waitFor({ timeout: 3_000 });
  await t.check('Model settings, a provider chosen, with a problem');
  await page.getByLabel('Model source').selectOption({ label: 'Scripted (offline)' });

  // The offline notice.
  await page.context().setOffline(true);
  await page.locator('.offline-notice p').waitFor({ timeout: 5_000 });
  await t.check('offline notice');
  await page.context().setOffline(false);
  await page.locator('.offline-notice p').waitFor({ state: 'detached', timeout: 5_000 });
}

/** `agent-loop serve --mcp` with the refund tools on a free port: { url, stop }. */
function mcpServer() {
  const child = spawn(CLI, ['serve', '--mcp', 'refund-with-approval', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const stop = () => child.exitCode === null && child.signalCode === null && child.kill();
  return withTimeout(new Promise((ok, fail) => {
    let out = '';
    child.on('error', fail);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (match) ok({ url: `${match[1]}/mcp`, stop });
    });
  }), 10_000, 'agent-loop serve --mcp').catch((err) => {
    stop();
    throw err;
  });
}

/** The modes other than Run, each in its states. */
async function modes(page, t) {
  // Scenario: the form, the JSON, the tool bench, the MCP panel.
  await openMode(page, 'scenario');
  await page.locator('.tool-bench').waitFor({ timeout: 10_000 });
  await t.check('Scenario mode');
  await page.locator('.tool-bench > summary').click();
  await page.locator('.tool-bench[open]').waitFor({ timeout: 3_000 });
  await t.check('Scenario mode, the tool bench open');
  const mcp = (extra) => ({
    name: 'Tools from a server',
    task: 'Echo hello.',
    mcp_servers: [{ name: 'nowhere', url: 'http://127.0.0.1:9/mcp', ...extra }],
    model: { type: 'scripted', responses: [{ text: 'Done.' }] },
  });
  await loadScenario(page, mcp({ headers: { Authorization: '[redacted]' } }));
  await openMode(page, 'scenario');
  await page.locator('.mcp-panel').waitFor({ timeout: 10_000 });
  await page.locator('.mcp-failed, .mcp-reach').first().waitFor({ timeout: 10_000 });
  await t.check('MCP panel, a header to fill in');
  await loadScenario(page, mcp({}));
  await openMode(page, 'scenario');
  await page.locator('.mcp-failed').waitFor({ timeout: 15_000 });
  await t.check('MCP panel, the server unreachable');
  const server = await mcpServer();
  try {
    await loadScenario(page, mcp({ name: 'shop', url: server.url }));
    await openMode(page, 'scenario');
    await page.locator('.mcp-reports li').first().waitFor({ timeout: 15_000 });
    await page.locator('.mcp-tools li').first().waitFor({ timeout: 15_000 });
    await t.check("MCP panel, a server's tools loaded");
  } finally {
    server.stop();
  }
  await pick(page, 'get-time');

  // Compare: a pair run side by side, then a fork from a turn card.
  const compare = await openCompare(page);
  await t.check('Compare mode');
  await pick(page, 'schema-tools-distinct');
  await button(compare, 'Run the pair side by side').click();
  await compare.locator('.compare-summary').waitFor({ timeout: 20_000 });
  await t.check('Compare, a pair run');
  const variant = compare.locator('#variant-json');
  await variant.fill('{ "name": "B", "task": 3 }');
  await compare.locator('.field-problems li').first().waitFor({ timeout: 3_000 });
  await t.check('Compare, a B that cannot run');
  await openMode(page, 'run');
  assert((await runBuiltin(page, 'rules-without-example')) === 'failed_verification', 'the parent run');
  await button(page.locator('.timeline .event[data-kind="model_request"]').first(), 'Go on from here with an edit').click();
  await page.locator('main.layout[data-mode="compare"]').waitFor({ state: 'attached', timeout: 5_000 });
  await compare.locator('#fork-here-heading').waitFor({ timeout: 10_000 });
  await t.check('Compare, a fork to edit');
  await button(compare, 'Run the fork beside the original').click();
  await compare.locator('.compare-summary').waitFor({ timeout: 20_000 });
  await t.check('Compare, a fork run');

  // History: the kept runs, replaying them all, and a kept run opened.
  await openMode(page, 'history');
  await page.locator('.history-entry').first().waitFor({ timeout: 10_000 });
  await t.check('History, kept runs');
  await button(page, 'Replay all against the current scenario').click();
  await page.locator('.replay-all-row').first().waitFor({ timeout: 20_000 });
  await t.check('History, replayed all');
  await page.locator('.history-entry').first().getByRole('button', { name: /^Open / }).click();
  await page.locator('main.layout[data-mode="run"]').waitFor({ state: 'attached', timeout: 5_000 });
  await page.locator('.stop-banner').waitFor({ timeout: 5_000 });
  await t.check('a kept run opened');

  // Import/Export.
  await openMode(page, 'files');
  await page.locator('.run-paste').waitFor({ timeout: 10_000 });
  await t.check('Import/Export mode');
  await page.locator('.run-paste > summary').click();
  await page.locator('.run-send > summary').click();
  await t.check('Import/Export, paste and send open');
}

/** The Lessons: the course, the glossary, a chapter's intro, a walk, predicting, failing, the solution, passing. */
async function lessons(page, t) {
  const panel = page.locator('.lessons-panel');
  await button(page, 'Lessons').click();
  await panel.locator('.course-chapters').waitFor({ timeout: 10_000 });
  await t.check('Lessons, the course');
  await button(panel, 'Glossary').click();
  await panel.locator('.glossary').waitFor({ timeout: 5_000 });
  await t.check('Lessons, the glossary');
  await button(panel, '← All lessons').click();
  await panel.locator(`.lesson-item[data-lesson="${CHAPTERS[1].lessons[0]}"] button.lesson-open`).click();
  await panel.locator('.chapter-intro').waitFor({ timeout: 5_000 });
  await t.check("Lessons, a chapter's intro");

  const check = async () => {
    await button(panel, 'Check').click();
    await panel.locator('.lesson-verdict').waitFor({ timeout: 20_000 });
  };
  // A lesson walked through with Step: its walk at the first pause.
  await page.goto(`${env.baseUrl}#lesson=loop-step-through`);
  await panel.locator('.lesson-walk').waitFor({ timeout: 10_000 });
  await t.check('a lesson with a walk, before stepping');
  await page.locator('.actions button.step').click();
  await page.locator('.lesson-walk[data-pause="1"] .walk-text').waitFor({ timeout: 10_000 });
  await t.check('a lesson with a walk, at its first pause');
  await button(page, 'Stop').click();

  await page.goto(`${env.baseUrl}#lesson=predict-turn-limit`);
  await panel.locator('.lesson-predict').waitFor({ timeout: 10_000 });
  await t.check('a lesson asking for a prediction');
  await panel.locator('.lesson-predict input[type="radio"]').first().check();
  await check();
  await panel.locator('.predict-result').waitFor({ timeout: 5_000 });
  await t.check('a prediction beside what the run did');

  await page.goto(`${env.baseUrl}#lesson=turn-limit`);
  await panel.locator('.lesson-goal').waitFor({ timeout: 10_000 });
  await t.check('a lesson, before a Check');
  const term = panel.locator('button.term').first();
  if (await term.count()) {
    await term.click();
    await panel.locator('.term-means').first().waitFor({ timeout: 3_000 });
    await t.check("a glossary term's meaning open in a lesson");
  }
  await check();
  await t.check('a failed Check');
  await check();
  await button(panel, 'Show the solution').waitFor({ timeout: 5_000 });
  await t.check('the solution offered');
  await button(panel, 'Show the solution').click();
  await panel.locator('.lesson-solution-note').waitFor({ timeout: 5_000 });
  await check();
  await panel.locator('.lesson-explain').waitFor({ timeout: 10_000 });
  await t.check('a passed Check');
}

const GROUPS = { 'every run ending': endings, 'the Run mode\'s panels and notices': runPanels, 'every other mode': modes, 'the Lessons': lessons };
const LOOKS = [
  { viewport: LAPTOP, colorScheme: 'light' },
  { viewport: LAPTOP, colorScheme: 'dark' },
  { viewport: PHONE, colorScheme: 'light' },
  { viewport: PHONE, colorScheme: 'dark' },
];

for (const [what, walk] of Object.entries(GROUPS)) {
  for (const { viewport, colorScheme } of LOOKS) {
    test(`axe tour: ${what}, at ${viewport.width}×${viewport.height}, ${colorScheme}: no violation in any state`, async ({ page, errors }) => {
      const t = tour(page);
      await walk(page, t);
      t.done();
      // The MCP server that is not there was meant to fail: the console says so.
      for (let i = errors.length - 1; i >= 0; i -= 1) {
        if (/127\.0\.0\.1:9\/|ERR_CONNECTION_REFUSED|Failed to fetch/.test(errors[i])) errors.splice(i, 1);
      }
    }, { viewport, colorScheme, bypassCSP: true, timeoutMs: 180_000 });
  }
}
