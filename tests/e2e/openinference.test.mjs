// OpenInference spans (Arize Phoenix's conventions) in the page: the trace
// openinference-instrumentation-openai wrote for a tool loop (the committed
// fixture of the native tests) imports as the run it was, and the notice
// says which conventions it was read from and what was not read.

import { join } from 'node:path';
import { assert, root, runFiles, test } from './lib.mjs';

const FIXTURE = join(root, 'crates/harness/tests/fixtures/otel/openinference-openai-0.1.66.json');

test('an OpenInference trace imports as its run, and the notice says it was read as OpenInference spans', async ({ page }) => {
  await runFiles(page);
  await page.locator('.run-import input[type="file"]').setInputFiles(FIXTURE);
  const notice = page.locator('.run-file-notice');
  await notice.filter({ hasText: 'Imported openinference-openai-0.1.66.json' }).waitFor({ timeout: 5_000 });
  const said = await notice.innerText();
  assert(said.includes('Read from OpenTelemetry OpenInference spans written by another tool'), said);
  assert(said.includes('so the run replays and forks'), said);
  assert(said.includes('4 spans were read from the OpenInference conventions'), said);
  assert(said.includes('Not read from the OpenInference spans: the provider (llm.system)'), said);
  assert((await page.locator('.stop-banner').getAttribute('data-status')) === 'done', 'the imported run is not done');
  const calls = await page.locator('#run-timeline .event[data-kind="tool_call"]').allInnerTexts();
  assert(calls.length === 1 && calls[0].includes('issue_refund'), `calls: ${calls}`);
  const results = await page.locator('#run-timeline .event[data-kind="tool_result"]').allInnerTexts();
  assert(results.length === 1 && results[0].includes('re_0001'), `results: ${results}`);
}, { viewport: { width: 1440, height: 900 } });
