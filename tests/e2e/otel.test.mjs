// OpenTelemetry in the page: a run exports as OTLP/JSON GenAI
// spans, the export imports back as the same run, and spans that another
// tool wrote (no agent-loop events in them) import as a run whose loop and
// cards show, with what the trace lacked said where the person looks.

import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { artifacts, assert, button, openMode, runBuiltin, runFiles, serveScenario, test, useOpenaiChat } from './lib.mjs';

async function exportOtel(page, name) {
  await runFiles(page);
  const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Export as OpenTelemetry').click()]);
  assert(download.suggestedFilename() === 'run.otlp.json', `export named ${download.suggestedFilename()}`);
  const path = join(artifacts, name);
  await download.saveAs(path);
  return path;
}

const cardKinds = (page) => page.locator('#run-timeline .event').evaluateAll((rows) => rows.map((r) => r.dataset.kind));

test('a run exports as OpenTelemetry GenAI spans and imports back as the same run', async ({ page }) => {
  assert((await runBuiltin(page, 'refund-policy')) === 'done', 'refund-policy did not end done');
  const kinds = await cardKinds(page);
  const path = await exportOtel(page, 'refund.otlp.json');
  const document = JSON.parse(readFileSync(path, 'utf8'));
  const spans = document.resourceSpans[0].scopeSpans[0].spans;
  const op = (s) => s.attributes.find((a) => a.key === 'gen_ai.operation.name')?.value.stringValue;
  assert(spans.filter((s) => op(s) === 'invoke_agent').length === 1, 'not one invoke_agent span');
  assert(spans.filter((s) => op(s) === 'chat').length === 4, 'not a chat span per model call');
  const tools = spans.filter((s) => op(s) === 'execute_tool').map((s) => s.attributes.find((a) => a.key === 'gen_ai.tool.call.id').value.stringValue);
  assert(tools.join() === 'toolu_0001,toolu_0002,toolu_0003', `tool call ids: ${tools}`);
  await button(page, 'Reset').click();
  await runFiles(page);
  await page.locator('.run-import input[type="file"]').setInputFiles(path);
  const notice = page.locator('.run-file-notice');
  await notice.filter({ hasText: 'Imported refund.otlp.json' }).waitFor({ timeout: 5_000 });
  assert((await page.locator('.stop-banner').getAttribute('data-status')) === 'done', 'the imported run is not done');
  assert((await cardKinds(page)).join() === kinds.join(), 'the imported run shows other cards');
}, { viewport: { width: 1440, height: 900 } });

test('spans another tool wrote import as a run with its loop, and say what they lacked', async ({ page }) => {
  assert((await runBuiltin(page, 'refund-policy')) === 'done', 'refund-policy did not end done');
  const document = JSON.parse(readFileSync(await exportOtel(page, 'ours.otlp.json'), 'utf8'));
  // As an SDK's instrumentation writes them: model calls only, each its own
  // trace, no agent-loop events, and no message content captured.
  const spans = document.resourceSpans[0].scopeSpans[0].spans
    .filter((s) => s.name.startsWith('chat'))
    .map((s, i) => ({
      ...s,
      traceId: (i + 1).toString(16).padStart(32, '0'),
      parentSpanId: '',
      events: [],
      attributes: s.attributes.filter((a) => !a.key.startsWith('agent_loop') && !a.key.endsWith('.messages')),
    }));
  document.resourceSpans[0].scopeSpans[0].spans = spans;
  const path = join(artifacts, 'foreign.otlp.json');
  writeFileSync(path, JSON.stringify(document));
  await button(page, 'Reset').click();
  await runFiles(page);
  await page.locator('.run-import input[type="file"]').setInputFiles(path);
  const notice = page.locator('.run-file-notice');
  await notice.filter({ hasText: 'Imported foreign.otlp.json' }).waitFor({ timeout: 5_000 });
  const said = await notice.innerText();
  assert(said.includes('another tool') && said.includes('no message content') && said.includes('its own trace'), said);
  // The loop diagram lit the model calls: four of them.
  const requests = await page.locator('#run-timeline .event[data-kind="model_request"]').count();
  assert(requests === 4, `${requests} model requests shown`);
  const node = await page.locator('.loop-diagram [data-node="model-call"]').first().getAttribute('aria-label');
  assert(node.startsWith('Model call, 4 events'), `the loop's model call node: ${node}`);
  const exit = await page.locator('.loop-diagram [data-node="exit-done"]').first().getAttribute('aria-label');
  assert(exit.includes('the run ended here'), `the loop's exit: ${exit}`);
}, { viewport: { width: 1440, height: 900 } });

/** An Anthropic request body the API refuses: two tool_use blocks share an id. */
const brokenBody = () => {
  const call = { type: 'tool_use', id: 'toolu_dup', name: 'get_time', input: {} };
  return {
    model: 'claude-sonnet-4-5',
    max_tokens: 256,
    tools: [{ name: 'get_time', description: 'The time now', input_schema: { type: 'object' } }],
    messages: [
      { role: 'user', content: 'What time is it?' },
      { role: 'assistant', content: [call, call] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_dup', content: '12:00' }, { type: 'tool_result', tool_use_id: 'toolu_dup', content: '12:00' }] },
    ],
  };
};

test('an Anthropic request body file that the API would refuse imports as a run, with the 400 on its turn', async ({ page }) => {
  const body = brokenBody();
  const path = join(artifacts, 'duplicate-ids-body.json');
  writeFileSync(path, JSON.stringify(body));
  await runFiles(page);
  await page.locator('.run-import input[type="file"]').setInputFiles(path);
  const notice = page.locator('.run-file-notice');
  await notice.filter({ hasText: 'Imported duplicate-ids-body.json' }).waitFor({ timeout: 5_000 });
  const said = await notice.innerText();
  assert(said.includes('Read as an Anthropic Messages request'), said);
  assert(said.includes('✗ Anthropic Messages would refuse this body: HTTP 400 messages.1.content.1: `tool_use` ids must be unique (at messages.1.content.1).'), said);
  // The imported run: its calls with the recorded results, and turn 2's
  // request carries the duplicate ids, so the checker's verdict is on it.
  const results = await page.locator('#run-timeline .event[data-kind="tool_result"]').allInnerTexts();
  assert(results.length === 2 && results.every((r) => r.includes('12:00')), `results: ${results}`);
  const verdict = page.locator('#run-timeline .turn-card[data-turn="2"]').getByText("A real provider would refuse turn 2's request");
  await verdict.waitFor({ timeout: 5_000 });
}, { viewport: { width: 1440, height: 900 } });

// The same body, pasted rather than picked: the page says which format it
// read, and the verdict's button marks the block it is about.
test('a pasted broken Anthropic body shows the 400 on its turn, and the verdict marks its block in the request', async ({ page }) => {
  await runFiles(page);
  await page.locator('.run-paste summary').click();
  const importPasted = button(page, 'Import pasted text');
  assert(await importPasted.isDisabled(), 'Import is offered with nothing pasted');
  await page.locator('#run-paste-text').fill(JSON.stringify(brokenBody(), null, 2));
  await importPasted.click();
  const notice = page.locator('.run-file-notice');
  await notice.filter({ hasText: 'Imported the pasted text' }).waitFor({ timeout: 5_000 });
  const said = await notice.innerText();
  assert(said.includes('Read as an Anthropic Messages request'), said);
  assert(said.includes('HTTP 400 messages.1.content.1: `tool_use` ids must be unique'), said);
  const card = page.locator('#run-timeline .turn-card[data-turn="2"]');
  const line = card.locator('.turn-verdict li[data-provider="Anthropic Messages"]');
  await line.waitFor({ timeout: 5_000 });
  await button(line, 'Show it in the Anthropic Messages request').click();
  const hit = page.locator('.inspector[data-open] .seg[data-hit]');
  await hit.first().waitFor({ timeout: 5_000 });
  assert((await hit.allInnerTexts()).join('').includes('"id": "toolu_dup"'), 'the marked block is not the duplicate tool_use');
  assert((await hit.first().getAttribute('data-mark')) === '1.1', `marked ${await hit.first().getAttribute('data-mark')}`);
}, { viewport: { width: 1440, height: 900 } });

test('a request body dropped on the run files imports like a picked one; pasted junk says why and keeps the run in view', async ({ page }) => {
  assert((await runBuiltin(page, 'get-time')) === 'done', 'get-time did not end done');
  const rows = await page.locator('#run-timeline .event').count();
  await runFiles(page);
  await page.locator('.run-paste summary').click();
  await page.locator('#run-paste-text').fill('{"messages": [ oops');
  await button(page, 'Import pasted text').click();
  const notice = page.locator('.run-file-notice');
  await notice.filter({ hasText: 'the pasted text' }).waitFor({ timeout: 5_000 });
  assert((await notice.innerText()).includes('line 1'), `junk: ${await notice.innerText()}`);
  assert((await page.locator('#run-timeline .event').count()) === rows, 'a broken paste changed the trace');
  // A drop carries a File in a DataTransfer, as the browser makes it.
  const transfer = await page.evaluateHandle((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], 'dropped-body.json', { type: 'application/json' }));
    return data;
  }, JSON.stringify(brokenBody()));
  await page.locator('.run-files').dispatchEvent('drop', { dataTransfer: transfer });
  await notice.filter({ hasText: 'Imported dropped-body.json' }).waitFor({ timeout: 5_000 });
  assert((await notice.innerText()).includes('Read as an Anthropic Messages request'), await notice.innerText());
  const results = await page.locator('#run-timeline .event[data-kind="tool_result"]').allInnerTexts();
  assert(results.length === 2 && results.every((r) => r.includes('12:00')), `results: ${results}`);
}, { viewport: { width: 1440, height: 900 } });

/** An Anthropic request body that ends on the tool's result: it waits for turn 2. */
const waitingBody = () => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 256,
  tools: [{ name: 'get_time', description: 'The time now', input_schema: { type: 'object' } }],
  messages: [
    { role: 'user', content: 'What time is it?' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_time', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '12:00' }] },
  ],
});

test('a fork of an imported body continues to done with a turn typed into its script', async ({ page }) => {
  const body = waitingBody();
  await runFiles(page);
  await page.locator('.run-paste summary').click();
  await page.locator('#run-paste-text').fill(JSON.stringify(body));
  await button(page, 'Import pasted text').click();
  await page.locator('.run-file-notice').filter({ hasText: 'Imported the pasted text' }).waitFor({ timeout: 5_000 });
  // The editor holds the imported scenario: its script plays the recorded
  // turn; the next turn is typed into it.
  const json = page.locator('#scenario-json');
  const scenario = JSON.parse(await json.inputValue());
  assert(scenario.model.type === 'scripted' && scenario.model.responses.length === 1, `imported model: ${JSON.stringify(scenario.model)}`);
  scenario.model.responses.push({ text: 'It is 12:00.' });
  await json.fill(JSON.stringify(scenario, null, 2));
  await openMode(page, 'compare');
  await page.locator('section.compare').waitFor({ timeout: 10_000 });
  const last = await page.locator('#fork-point option').evaluateAll((os) => os.at(-1).value);
  await page.selectOption('#fork-point', last);
  const compare = page.locator('section.compare');
  await compare.getByRole('button', { name: 'Fork and compare' }).click();
  await compare.locator('.compare-summary').waitFor({ timeout: 15_000 });
  const [, fork] = await compare.locator('thead .compare-side').evaluateAll((ths) => ths.map((th) => th.dataset.status));
  assert(fork === 'done', `the fork ended ${fork}`);
}, { viewport: { width: 1440, height: 900 } });

/** A stand-in OTLP/HTTP collector: keeps what is POSTed; with `cors`,
 * allows any page as the Collector's `cors.allowed_origins` does. */
async function collector({ cors }) {
  const received = [];
  const server = createServer((req, res) => {
    const allow = cors ? { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type' } : {};
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...allow, 'access-control-allow-methods': 'POST' });
      res.end();
      return;
    }
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ path: req.url, type: req.headers['content-type'], body });
      res.writeHead(200, { ...allow, 'content-type': 'application/json' });
      res.end('{"partialSuccess":{}}');
    });
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { base: `http://127.0.0.1:${server.address().port}`, received, close: () => server.close() };
}

test('Send the run POSTs it as OTLP/JSON to the endpoint named; a collector without CORS gets the explained message', async ({ page, errors }) => {
  assert((await runBuiltin(page, 'refund-policy')) === 'done', 'refund-policy did not end done');
  const good = await collector({ cors: true });
  const bad = await collector({ cors: false });
  try {
    await runFiles(page);
    await page.locator('.run-send summary').click();
    const endpoint = page.getByLabel('OTLP/HTTP traces endpoint (a collector, Jaeger, Phoenix, Langfuse)');
    assert((await endpoint.inputValue()) === 'http://127.0.0.1:4318/v1/traces', `default endpoint: ${await endpoint.inputValue()}`);
    await endpoint.fill(good.base);
    await button(page, 'Send the run').click();
    const notice = page.locator('.run-file-notice');
    await notice.filter({ hasText: 'Sent the run' }).waitFor({ timeout: 10_000 });
    const said = await notice.innerText();
    assert(good.received.length === 1, `${good.received.length} POSTs arrived`);
    const [post] = good.received;
    assert(post.path === '/v1/traces' && post.type === 'application/json', `POST ${post.path} as ${post.type}`);
    const spans = JSON.parse(post.body).resourceSpans[0].scopeSpans[0].spans;
    assert(said === `Sent the run to ${good.base}/v1/traces as OpenTelemetry: ${spans.length} spans, HTTP 200.`, said);
    assert(spans.some((s) => s.name.startsWith('invoke_agent')), 'no invoke_agent span arrived');
    await endpoint.fill(`${bad.base}/v1/traces`);
    await button(page, 'Send the run').click();
    await notice.filter({ hasText: 'Not sent' }).waitFor({ timeout: 10_000 });
    const refused = await notice.innerText();
    assert(refused.includes('does not allow this page (CORS)') && refused.includes('allowed_origins'), refused);
  } finally {
    good.close();
    bad.close();
  }
  for (let i = errors.length - 1; i >= 0; i -= 1) {
    if (/CORS|Failed to fetch|ERR_FAILED/.test(errors[i])) errors.splice(i, 1);
  }
}, { viewport: { width: 1440, height: 900 } });

test('a response pasted after its request becomes the turn the request waited for, shown in the inspector', async ({ page }) => {
  const body = waitingBody();
  // As the Anthropic API streams it, saved from the network tab.
  const stream = [
    ['message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, usage: { input_tokens: 40, output_tokens: 1 } } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'It is ' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '12:00.' } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7 } }],
    ['message_stop', { type: 'message_stop' }],
  ].map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
  await runFiles(page);
  await page.locator('.run-paste summary').click();
  const box = page.locator('#run-paste-text');
  await box.fill(JSON.stringify(body));
  await button(page, 'Import pasted text').click();
  const notice = page.locator('.run-file-notice');
  await notice.filter({ hasText: 'Imported the pasted text' }).waitFor({ timeout: 5_000 });
  await box.fill(stream);
  await button(page, 'Import pasted text').click();
  await notice.filter({ hasText: "turn 2's answer" }).waitFor({ timeout: 5_000 });
  assert((await notice.innerText()).includes('Read as an Anthropic Messages response (an SSE stream)'), await notice.innerText());
  assert((await page.locator('.stop-banner').getAttribute('data-status')) === 'done', 'the answered run is not done');
  await page.getByRole('button', { name: "Inspect turn 2's request and response" }).click();
  const inspector = page.locator('.inspector[data-open]');
  await inspector.getByRole('tab', { name: 'Response', exact: true }).click();
  await inspector.getByText('It is 12:00.').first().waitFor({ timeout: 5_000 });
}, { viewport: { width: 1440, height: 900 } });

test('a fork of an imported body continues with a real provider chosen in the Model settings', async ({ page }) => {
  // agent-loop serve answers as OpenAI Chat Completions from get-time's
  // script, by the number of assistant turns in the history it is sent.
  const server = await serveScenario('get-time');
  try {
    await runFiles(page);
    await page.locator('.run-paste summary').click();
    await page.locator('#run-paste-text').fill(JSON.stringify(waitingBody()));
    await button(page, 'Import pasted text').click();
    await page.locator('.run-file-notice').filter({ hasText: 'Imported the pasted text' }).waitFor({ timeout: 5_000 });
    await useOpenaiChat(page, server.url);
    await openMode(page, 'compare');
    const compare = page.locator('section.compare');
    await compare.waitFor({ timeout: 10_000 });
    assert((await compare.innerText()).includes('A fork runs once, with this provider.'), 'the panel does not say the fork uses the provider');
    const last = await page.locator('#fork-point option').evaluateAll((os) => os.at(-1).value);
    await page.selectOption('#fork-point', last);
    await compare.getByRole('button', { name: 'Fork and compare' }).click();
    await compare.locator('.compare-summary').waitFor({ timeout: 15_000 });
    const [, fork] = await compare.locator('thead .compare-side').evaluateAll((ths) => ths.map((th) => th.dataset.status));
    assert(fork === 'done', `the fork ended ${fork}`);
    // Turn 2 is the provider's answer, not the imported script's (which has none).
    assert((await compare.innerText()).includes('It is 12:00 UTC on 29 November 2026.'), 'the provider\'s answer is not in the fork');
  } finally {
    server.stop();
  }
}, { viewport: { width: 1440, height: 900 } });

const repoFile = (...parts) => join(import.meta.dirname, '..', '..', ...parts);

test('OpenLLMetry spans beside the Anthropic SDK\'s own import as one turn per call, and replay', async ({ page }) => {
  // Real spans (crates/harness/tests/fixtures/otel): each model call has two.
  const path = repoFile('crates', 'harness', 'tests', 'fixtures', 'otel', 'anthropic-openllmetry-0.62.4.json');
  await runFiles(page);
  await page.locator('.run-import input[type="file"]').setInputFiles(path);
  const notice = page.locator('.run-file-notice');
  await notice.filter({ hasText: 'Imported anthropic-openllmetry-0.62.4.json' }).waitFor({ timeout: 5_000 });
  const said = await notice.innerText();
  assert(said.includes('4 model calls were traced by more than one span') && said.includes('the scenario (system prompt, tools'), said);
  const turns = await page.locator('#run-timeline .event[data-kind="model_response"]').count();
  assert(turns === 4, `${turns} turns shown for 4 model calls`);
  const scenario = JSON.parse(await page.locator('#scenario-json').inputValue());
  assert(scenario.system.startsWith('You are a support agent.'), `system: ${scenario.system}`);
  assert(scenario.tools.map((t) => t.name).join() === 'get_order,check_refund_policy,refund_order', `tools: ${JSON.stringify(scenario.tools)}`);
  await button(page, 'Replay against current tools').click();
  await page.locator('.replay-verdict[data-passed="true"]').waitFor({ timeout: 10_000 });
});
