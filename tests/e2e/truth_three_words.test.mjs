// "Nothing false", round three, the harness's words: a run a person stopped
// while paused replays as it ended (cancelled, with its reason), not as a
// model error; the editor notes a script's call to a tool no tool declares
// and a stop_reason the loop does not know, and still lets the scenario
// run; a JavaScript tool stopped at its time limit is counted cut short.

import { assert, bannerStatus, button, loadScenario, openMode, pick, stepTo, test } from './lib.mjs';

/** Opens History, waits for `n` kept runs, presses "Replay all" and waits
 * for that batch's end; returns its rows as { verdict, text }. */
async function replayAll(page, n) {
  await openMode(page, 'history');
  await page.locator('.history').waitFor({ timeout: 10_000 });
  await page.waitForFunction((n) => document.querySelectorAll('.history-entry').length === n, n, { timeout: 10_000 });
  await page.evaluate(() => {
    window.__replayAllStarted = false;
    const section = document.querySelector('.replay-all');
    new MutationObserver((_, observer) => {
      if (section.querySelector('.replay-all-status[data-running="true"]')) {
        window.__replayAllStarted = true;
        observer.disconnect();
      }
    }).observe(section, { childList: true, subtree: true, attributes: true, characterData: true });
  });
  await button(page, 'Replay all against the current scenario').click();
  await page.waitForFunction(
    () => window.__replayAllStarted && document.querySelector('.replay-all-status[data-running="false"]'),
    null,
    { timeout: 15_000 },
  );
  return page.locator('.replay-all-row').evaluateAll((trs) =>
    trs.map((tr) => ({ verdict: tr.dataset.verdict, text: tr.innerText })),
  );
}

test('replay all: a run stopped while paused replays cancelled with its reason, and passes', async ({ page }) => {
  await pick(page, 'get-time');
  await stepTo(page, 'Paused before model call (turn 1)');
  await stepTo(page, 'Paused before tool call get_time');
  await button(page, 'Stop').click();
  assert((await bannerStatus(page)) === 'cancelled', 'Stop while paused did not end the run cancelled');
  const reason = await page.locator('.stop-banner .stop-reason').innerText();
  assert(reason.includes('while paused before tool call get_time'), `reason: ${reason}`);

  const rows = await replayAll(page, 1);
  assert(rows.length === 1, `${rows.length} rows`);
  const [row] = rows;
  assert(row.verdict === 'pass', `the stopped run's replay: ${row.text}`);
  assert(!row.text.includes('model_error'), `the replay speaks of a model error: ${row.text}`);
  const summary = await page.locator('.replay-all-status').innerText();
  assert(summary === '1 kept run replayed: 1 pass, 0 fail', `summary: ${summary}`);
});

test('editor: a call to an undeclared tool and an unknown stop_reason are notes, and Run still runs it', async ({ page }) => {
  await loadScenario(page, {
    name: 'Typo',
    task: 'What time is it?',
    tools: ['get_time'],
    model: {
      type: 'scripted',
      responses: [
        { tool_calls: [{ name: 'get_tiem', args: {} }] },
        { text: 'It is noon.', stop_reason: 'finished' },
      ],
    },
  });
  const notes = page.locator('.notes li');
  await page.waitForFunction(() => document.querySelectorAll('.notes li').length === 2, null, { timeout: 10_000 });
  const texts = await notes.allInnerTexts();
  assert(
    texts[0] === 'note: the script calls get_tiem, which no tool declares: the harness will answer it as an unknown tool',
    `first note: ${texts[0]}`,
  );
  assert(
    texts[1] ===
      'note: stop_reason "finished" is none of end_turn, stop, stop_sequence, completed, tool_use, tool_calls, function_call, tool_call, pause_turn, max_tokens, length, max_output_tokens, model_context_window_exceeded, refusal, content_filter: the run will end model_error',
    `second note: ${texts[1]}`,
  );
  // Notes are not problems: nothing says the scenario cannot run, and Run runs it.
  assert((await page.locator('.problems').count()) === 0, 'the notes are shown as problems');
  const run = button(page, 'Run');
  assert(await run.isEnabled(), 'Run is held by the notes');
  await run.click();
  assert((await bannerStatus(page)) === 'model_error', 'the run did not end as the note says');
});

test('header: a JavaScript tool stopped at its time limit is counted cut short, not ran', async ({ page }) => {
  await pick(page, 'js-tool-infinite-loop');
  await button(page, 'Run').click();
  assert((await bannerStatus(page)) === 'done', 'the run did not go on to its answer');
  const header = await page.locator('.counter[data-counter="tool-calls"] dd').innerText();
  assert(header.startsWith('1 requested (1 cut short)'), `header: ${header}`);
  const result = page.locator('.timeline .event[data-kind="tool_result"]');
  assert((await result.getAttribute('data-fate')) === 'cut-short', `fate ${await result.getAttribute('data-fate')}`);
});
