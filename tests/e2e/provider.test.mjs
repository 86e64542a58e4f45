// Real providers, against `agent-loop serve` (scripted answers over HTTP).

import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { SECRET, artifacts, assert, bannerStatus, button, pick, rowTexts, runFiles, serveScenario, test, useOpenaiChat } from './lib.mjs';

test('a provider run over OpenAI Chat ends `done` and the key appears in no export, link, storage or log', async ({ page }) => {
  const logs = [];
  page.on('console', (msg) => logs.push(msg.text()));
  const server = await serveScenario('get-time');
  try {
    await pick(page, 'get-time');
    await useOpenaiChat(page, server.url);
    await button(page, 'Run').click();
    const status = await page.locator('.stop-banner').getAttribute('data-status', { timeout: 10_000 });
    assert(status === 'done', `the provider run ended ${status}`);
    await runFiles(page);
    const [traceFile] = await Promise.all([page.waitForEvent('download'), button(page, 'Export trace (JSONL)').click()]);
    const tracePath = join(artifacts, 'provider-trace.jsonl');
    await traceFile.saveAs(tracePath);
    const trace = await readFile(tracePath, 'utf8');
    assert(trace.includes('run_finished'), 'the exported trace is not a whole run');
    assert(!trace.includes(SECRET), 'the key is in the exported trace');
    const [scenarioFile] = await Promise.all([page.waitForEvent('download'), button(page, 'Export scenario').click()]);
    const scenarioPath = join(artifacts, 'provider-scenario.json');
    await scenarioFile.saveAs(scenarioPath);
    assert(!(await readFile(scenarioPath, 'utf8')).includes(SECRET), 'the key is in the exported scenario');
    await button(page, 'Copy link').click();
    const link = await page.locator('#share-link').inputValue();
    const decoded = Buffer.from(link.split('#s=')[1] ?? '', 'base64url').toString('utf8');
    assert(!link.includes(SECRET) && !decoded.includes(SECRET), 'the key is in the share link');
    const stored = await page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
    assert(!stored.includes(SECRET), 'the key is in localStorage without Remember');
    assert(!(await page.locator('body').innerText()).includes(SECRET), 'the key is shown on the page');
    // Remember stores it (with the warning shown); unchecking removes it.
    const remember = page.getByLabel('Remember the key on this device');
    assert(await page.getByText("stored unencrypted in this browser's localStorage").isVisible(), 'no storage warning');
    await remember.check();
    const kept = await page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
    assert(kept.includes(SECRET), 'Remember did not store the key');
    await remember.uncheck();
    const removed = await page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
    assert(!removed.includes(SECRET), 'unchecking Remember left the key in localStorage');
    // The settings (never the key) are autosaved and restored on reload.
    await page.reload();
    await page.locator('#scenario-picker').waitFor();
    assert((await page.getByLabel('Base URL').inputValue()) === server.url, 'the base URL was not restored');
    assert((await page.locator('#model-name').inputValue()) === 'scripted', 'the model was not restored');
    assert((await page.getByLabel('API key', { exact: true }).inputValue()) === '', 'the key survived a reload without Remember');
    const afterReload = await page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
    assert(!afterReload.includes(SECRET), 'the key is in localStorage after reload');
    assert(!logs.some((line) => line.includes(SECRET)), 'the key was logged to the console');
  } finally {
    server.stop();
  }
});

// Each adapter against the mock server: a 401 ends `model_error` with a clear message.
for (const label of ['OpenAI Chat Completions', 'Anthropic Messages', 'OpenAI Responses']) {
  test(`a refused API key over ${label} ends \`model_error\` and says so on the timeline`, async ({ page, errors }) => {
    const server = await serveScenario('model-error');
    try {
      await pick(page, 'get-time');
      await useProvider(page, label, server.url, 'scripted');
      await button(page, 'Run').click();
      const status = await page.locator('.stop-banner').getAttribute('data-status', { timeout: 10_000 });
      assert(status === 'model_error', `the 401 run ended ${status}`);
      await page.getByText('the API key was refused').first().waitFor({ timeout: 5_000 });
      // Chromium logs every 4xx response as a console error; that one is expected.
      dropStatusErrors(errors, [401]);
    } finally {
      server.stop();
    }
  });
}

/** Chooses `label` at `url` with `model` and the test key, streaming on. */
async function useProvider(page, label, url, model) {
  await page.getByLabel('Model source').selectOption({ label });
  await page.getByLabel('Base URL').fill(url);
  await page.locator('#model-name').fill(model);
  await page.getByLabel('API key', { exact: true }).fill(SECRET);
  assert(await page.getByLabel('Streaming').isChecked(), 'streaming is not on by default');
}

/** Drops the console errors Chromium logs for expected 4xx/5xx responses. */
function dropStatusErrors(errors, statuses) {
  const pattern = new RegExp(`status of (${statuses.join('|')})`);
  for (let i = errors.length - 1; i >= 0; i -= 1) {
    if (pattern.test(errors[i])) errors.splice(i, 1);
  }
}

/** The cost counter's dollars and the token counter's numbers. */
async function costAndTokens(page) {
  const cost = await page.locator('[data-counter="cost"] dd').innerText();
  const tokens = await page.locator('[data-counter="tokens"] dd').innerText();
  const spent = cost.match(/^\$(\d+)\.(\d+)/);
  const counts = tokens.replaceAll(',', '').match(/^(\d+) in \/ (\d+) out/);
  assert(spent && counts, `counters: cost ${cost}, tokens ${tokens}`);
  // The counter rounds to the digits it shows (harness::run::usd): half its
  // last digit is as close as it can be to the true cost.
  const rounding = 0.5 * 10 ** -spent[2].length + 1e-12;
  return { cost, usd: Number(`${spent[1]}.${spent[2]}`), rounding, input: Number(counts[1]), output: Number(counts[2]) };
}

/** Runs the refund scenario (a tool call, then a refund that needs approval)
 * against `agent-loop serve` over `label`, streamed, approving the refund;
 * returns the request bodies the page sent. */
async function refundOverProvider(page, label, path, model) {
  const server = await serveScenario('refund-with-approval');
  const bodies = [];
  page.on('request', (request) => {
    if (request.url().endsWith(path)) bodies.push(JSON.parse(request.postData() ?? '{}'));
  });
  try {
    await pick(page, 'refund-with-approval');
    await useProvider(page, label, server.url, model);
    return { server, bodies };
  } catch (err) {
    server.stop();
    throw err;
  }
}

async function approveUntilBanner(page) {
  const banner = page.locator('.stop-banner');
  const bar = page.locator('.approval-bar');
  let approvals = 0;
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    await banner.or(bar).first().waitFor({ timeout: deadline - Date.now() });
    if ((await banner.count()) > 0) return { status: await banner.getAttribute('data-status'), approvals };
    const text = await bar.innerText();
    assert(text.includes('issue_refund'), `approval bar: ${text}`);
    await bar.getByRole('button', { name: 'Approve', exact: true }).click();
    approvals += 1;
    await bar.waitFor({ state: 'detached' }).catch(() => {});
  }
  throw new Error('no stop banner within 15 s');
}

test('a streamed Anthropic run with a tool call and an approval ends `done`, costed at the listed price', async ({ page }) => {
  const { server, bodies } = await refundOverProvider(page, 'Anthropic Messages', '/v1/messages', 'claude-sonnet-4-20250514');
  try {
    // A listed model fills in its price, and says where it comes from.
    assert((await page.getByLabel('Input price').inputValue()) === '3', 'input price not prefilled');
    assert((await page.getByLabel('Output price').inputValue()) === '15', 'output price not prefilled');
    await page.getByText('Prefilled for claude-sonnet-4 from Anthropic').waitFor();
    await page.getByLabel('Max output tokens per call').fill('300');
    await button(page, 'Run').click();
    const { status, approvals } = await approveUntilBanner(page);
    assert(status === 'done', `the streamed run ended ${status}`);
    assert(approvals === 1, `${approvals} approvals`);
    const calls = await rowTexts(page, 'tool_call');
    assert(calls.some((t) => t.includes('get_order_status')) && calls.some((t) => t.includes('issue_refund')), `tool calls: ${calls}`);
    // Every request was streamed and carried the settings' output cap.
    assert(bodies.length === 3, `${bodies.length} requests`);
    for (const body of bodies) {
      assert(body.stream === true && body.max_tokens === 300, `request: stream ${body.stream}, max_tokens ${body.max_tokens}`);
      assert(body.model === 'claude-sonnet-4-20250514', `model ${body.model}`);
    }
    // The cost is the tokens at $3 / $15 per million, not the scenario's $0.25 / $2.
    const { cost, usd, rounding, input, output } = await costAndTokens(page);
    const expected = (input * 3 + output * 15) / 1e6;
    const scenarios = (input * 0.25 + output * 2) / 1e6;
    assert(input > 0 && output > 0, `tokens ${input} / ${output}`);
    assert(Math.abs(usd - expected) <= rounding, `cost ${cost}, expected $${expected} from ${input} in / ${output} out at $3 / $15`);
    assert(Math.abs(usd - scenarios) > rounding, `cost ${cost} is the scenario's pricing`);
    assert(cost.endsWith('/ $0.50'), `the budget is not shown: ${cost}`);
    const banner = await page.locator('.stop-banner').innerText();
    assert(banner.includes(cost.split(' /')[0]), `the banner does not show the cost ${cost}: ${banner}`);
  } finally {
    server.stop();
  }
});

test('a streamed OpenAI Responses run with an approval ends `done` at the price typed in, which drives the cost budget', async ({ page }) => {
  const { server, bodies } = await refundOverProvider(page, 'OpenAI Responses', '/v1/responses', 'my-local-model');
  try {
    // An unlisted model gets no price: it says so, and the user types one.
    await page.getByText('No listed price for this model').waitFor();
    await page.getByLabel('Input price').fill('2');
    await page.getByLabel('Output price').fill('8');
    await page.getByText('Your price: the run').waitFor();
    await button(page, 'Run').click();
    const { status } = await approveUntilBanner(page);
    assert(status === 'done', `the streamed run ended ${status}`);
    assert(bodies.length === 3 && bodies.every((b) => b.stream === true), `requests: ${JSON.stringify(bodies.map((b) => b.stream))}`);
    // No cap typed: the scenario's own (the default 1024) is sent.
    assert(bodies.every((b) => b.max_output_tokens === 1024), `max_output_tokens ${bodies.map((b) => b.max_output_tokens)}`);
    const { cost, usd, rounding, input, output } = await costAndTokens(page);
    const expected = (input * 2 + output * 8) / 1e6;
    assert(Math.abs(usd - expected) <= rounding, `cost ${cost}, expected $${expected}`);

    // A price high enough that the strict estimate of the first call is over
    // the scenario's $0.50 budget: the run stops before spending anything.
    await page.getByLabel('Input price').fill('10000');
    await button(page, 'Run').click();
    const limited = await page.locator('.stop-banner').getAttribute('data-status', { timeout: 10_000 });
    assert(limited === 'cost_limit', `with the high price the run ended ${limited}`);
  } finally {
    server.stop();
  }
});

// Each adapter against the mock server: a 429, then a 529, then success.
for (const label of ['Anthropic Messages', 'OpenAI Chat Completions', 'OpenAI Responses']) {
  test(`a 429 then a 529 over ${label} are retried and the run ends \`done\``, async ({ page, errors }) => {
    const server = await serveScenario('rate-limit-retry');
    try {
      await pick(page, 'rate-limit-retry');
      await useProvider(page, label, server.url, 'scripted');
      await button(page, 'Run').click();
      const status = await page.locator('.stop-banner').getAttribute('data-status', { timeout: 15_000 });
      assert(status === 'done', `the retried run ended ${status}`);
      const failures = (await rowTexts(page, 'model_error')).join('\n');
      assert(failures.includes('429') && failures.includes('529'), `model errors shown: ${failures}`);
      dropStatusErrors(errors, [429, 529]);
    } finally {
      server.stop();
    }
  });
}

test('a streamed OpenAI Chat run with a tool call and an approval ends `done` and sends the cap typed in', async ({ page }) => {
  const { server, bodies } = await refundOverProvider(page, 'OpenAI Chat Completions', '/v1/chat/completions', 'scripted');
  try {
    await page.getByLabel('Max output tokens per call').fill('512');
    await button(page, 'Run').click();
    const { status, approvals } = await approveUntilBanner(page);
    assert(status === 'done' && approvals === 1, `the streamed run ended ${status} after ${approvals} approvals`);
    assert(bodies.length === 3, `${bodies.length} requests`);
    for (const body of bodies) {
      assert(body.stream === true && body.max_completion_tokens === 512, `request: stream ${body.stream}, max_completion_tokens ${body.max_completion_tokens}`);
    }
    // No price for an unlisted model: the run costs $0, not the scenario's price.
    const { usd, input } = await costAndTokens(page);
    assert(input > 0 && usd === 0, `cost $${usd} for ${input} input tokens`);
  } finally {
    server.stop();
  }
});

test('Model settings refuse to run with a bad URL, no model, no key for an official API, or a bad price', async ({ page }) => {
  await pick(page, 'get-time');
  const run = button(page, 'Run');
  const blocker = page.locator('#run-blocker');
  await page.getByLabel('Model source').selectOption({ label: 'OpenAI Chat Completions' });
  // No model name and no key for the official API: the first is named, the other counted.
  assert(await run.isDisabled(), 'Run is enabled with no model and no key for api.openai.com');
  await blocker.getByText("Model: enter the model's name, e.g. claude-sonnet-4-20250514 or gpt-4o (and 1 more problem)").waitFor({ timeout: 2_000 });
  await page.locator('#model-name').fill('gpt-4o');
  await blocker.getByText('API key: api.openai.com needs a key; paste yours').waitFor({ timeout: 2_000 });
  assert(await run.isDisabled(), 'Run is enabled without a key for api.openai.com');
  await page.getByLabel('API key', { exact: true }).fill(SECRET);
  assert(await run.isEnabled(), `Run is disabled: ${await blocker.innerText()}`);
  for (const [label, value, says] of [
    ['Base URL', 'api.openai.com', 'Base URL: "api.openai.com" is not a URL; it must start with http:// or https://'],
    ['Max output tokens per call', '-3', 'Max output tokens: cannot be negative (-3)'],
    ['Max output tokens per call', 'lots', 'Max output tokens: "lots" is not a whole number of tokens'],
    ['Input price', '-1', 'Input price: a price cannot be negative (-1)'],
    ['Output price', 'ten', 'Output price: "ten" is not a number'],
  ]) {
    const field = page.getByLabel(label, { exact: true });
    const before = await field.inputValue();
    await field.fill(value);
    assert(await run.isDisabled(), `Run is enabled with ${label} = ${value}`);
    await blocker.getByText(says).waitFor({ timeout: 2_000 });
    // The same message under the field itself.
    await page.locator('.model-settings .field-error', { hasText: says }).waitFor({ timeout: 2_000 });
    assert((await field.getAttribute('aria-invalid')) === 'true', `${label} is not marked invalid`);
    await field.fill(before);
    assert(await run.isEnabled(), `Run stays disabled after fixing ${label}: ${await blocker.innerText()}`);
  }
});

test('a server that does not allow this page (CORS) ends `model_error` with advice on the turn card', async ({ page, errors }) => {
  // A real OpenAI-compatible answer, but without Access-Control-Allow-Origin:
  // the browser withholds it from the page, as it would for a misconfigured
  // local server.
  let hits = 0;
  const server = createServer((req, res) => {
    hits += 1;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'hi' } }] }));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    await pick(page, 'get-time');
    await useProvider(page, 'OpenAI Chat Completions', `http://127.0.0.1:${server.address().port}`, 'local-model');
    await page.getByLabel('Streaming').uncheck();
    await button(page, 'Run').click();
    assert((await bannerStatus(page)) === 'model_error', 'the CORS failure did not end model_error');
    const row = page.locator('.turn-card .event[data-kind="model_error"]').first();
    const text = await row.innerText();
    assert(text.includes('could not reach') && text.includes('CORS'), `the turn card says: ${text}`);
    assert(hits >= 1, 'the request never reached the server');
    assert(!text.includes(SECRET), 'the key is on the turn card');
    // Chromium reports the blocked response in the console; that is the point here.
    for (let i = errors.length - 1; i >= 0; i -= 1) {
      if (/CORS|Failed to fetch|ERR_FAILED/.test(errors[i])) errors.splice(i, 1);
    }
  } finally {
    server.close();
  }
});
