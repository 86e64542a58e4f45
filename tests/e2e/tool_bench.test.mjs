// Call a tool by hand, outside a run, as the MCP Inspector calls a
// server's tools: bad arguments are refused with their path, the tool's own
// rules answer as a model would be answered, and nothing reaches the trace.

import { assert, button, openMode, pick, test } from './lib.mjs';

async function callWith(bench, args) {
  await bench.locator('#bench-args').fill(args);
  await button(bench, 'Call').click();
  const result = bench.locator('.bench-result');
  await result.waitFor({ timeout: 10_000 });
  return { kind: await result.getAttribute('data-result'), text: await result.innerText() };
}

test('a tool called by hand: bad arguments refused with their path, the answer and the rules shown, the trace untouched', async ({ page }) => {
  await pick(page, 'refund-policy');
  // Calling a tool by hand is the Scenario mode's, drawn when it first opens.
  await openMode(page, 'scenario');
  const bench = page.locator('details.tool-bench');
  await bench.locator('summary').click();
  const tool = bench.getByLabel('Tool');
  await tool.waitFor({ timeout: 10_000 });
  assert((await tool.inputValue()) === 'get_order', `first tool: ${await tool.inputValue()}`);
  // The arguments start from the schema's required names.
  assert(JSON.parse(await bench.locator('#bench-args').inputValue()).order_id === '', 'no skeleton of the required arguments');

  let got = await callWith(bench, '{"order_id": 5}');
  assert(got.kind === 'refused' && got.text.includes('/order_id'), `a number for order_id: ${got.kind}: ${got.text}`);
  got = await callWith(bench, '{"order_id": "A1001"');
  assert(got.kind === 'refused' && got.text.includes('not valid JSON'), `broken JSON: ${got.kind}: ${got.text}`);
  got = await callWith(bench, '{"order_id": "A1001"}');
  assert(got.kind === 'answered' && got.text.includes('"A1001"'), `get_order: ${got.kind}: ${got.text}`);

  // The rule lives in the handler: no refund before the policy check.
  await tool.selectOption('refund_order');
  got = await callWith(bench, '{"order_id": "A1001"}');
  assert(got.kind === 'error' && got.text.includes('check_refund_policy'), `refund_order: ${got.kind}: ${got.text}`);

  assert((await page.locator('.timeline .event').count()) === 0, 'a call by hand reached the trace');
});
