// Replay's ids_exist finds an id the model
// invented. The exact case: refund-with-approval scripted the old way (its
// answer names re_0001 whatever happens), the refund denied, then Replay.

import { assert, bannerStatus, button, pick, test } from './lib.mjs';

test('replay fails ids_exist on an id no tool returned (a denied refund "issued" as re_0001)', async ({ page }) => {
  await pick(page, 'refund-with-approval');
  const scenario = JSON.parse(await page.locator('#scenario-json').inputValue());
  // The old script: one answer for every path, naming a refund id.
  for (const response of scenario.model.responses) delete response.branches;
  const last = scenario.model.responses.at(-1);
  assert(/re_0001/.test(last.text), `the approved answer does not name re_0001: ${last.text}`);
  await page.locator('#scenario-json').fill(JSON.stringify(scenario, null, 2));
  await button(page, 'Run').click();
  const bar = page.locator('.approval-bar');
  await bar.waitFor({ timeout: 5_000 });
  await button(bar, 'Deny').click();
  await bannerStatus(page);
  const answer = await page.locator('.timeline .event[data-kind="model_response"]').last().innerText();
  assert(answer.includes('re_0001'), `the lying answer is not in the trace: ${answer}`);

  await button(page, 'Replay against current tools').click();
  await page.locator('.replay-verdict[data-passed="false"]').waitFor({ timeout: 10_000 });
  const row = page.locator('.replay-row[data-assertion="ids_exist"]');
  assert((await row.getAttribute('data-passed')) === 'false', 'ids_exist passed an invented id');
  const detail = await row.innerText();
  assert(detail.includes('re_0001 is in the answer but no tool result contains it'), `ids_exist row: ${detail}`);
  const summary = await page.locator('.replay-summary').innerText();
  assert(summary.startsWith('Replay failed:') && summary.includes('First difference: ids_exist'), `summary: ${summary}`);
});

test('replay of an honest approved refund says how many ids it checked', async ({ page }) => {
  await pick(page, 'refund-with-approval');
  await button(page, 'Run').click();
  const bar = page.locator('.approval-bar');
  await bar.waitFor({ timeout: 5_000 });
  await button(bar, 'Approve').click();
  assert((await bannerStatus(page)) === 'done', 'the approved refund did not end done');
  await button(page, 'Replay against current tools').click();
  await page.locator('.replay-verdict[data-passed="true"]').waitFor({ timeout: 10_000 });
  const detail = await page.locator('.replay-row[data-assertion="ids_exist"]').innerText();
  assert(/\d+ ids? in the answer, (all )?found in (a )?tool results?/.test(detail), `ids_exist row: ${detail}`);
});
