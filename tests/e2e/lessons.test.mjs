// Lessons that check themselves: the Lessons mode lists the
// built-in course, opens a lesson with its goal in words, keeps edits to
// the lesson's editable paths, and Check judges the run with the harness's
// goal. Each kind of lesson is solved here by typing and clicking alone: a
// limit, a pair's fix, a schema edit, an approval, a protocol lesson by
// answering as the model, and a lesson opened from a link.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { artifacts, assert, bannerStatus, button, env, root, test } from './lib.mjs';

const LESSONS = join(root, 'crates/harness/lessons');

/** Opens the Lessons mode and the lesson titled `title` from the course. */
async function openLesson(page, title) {
  const panel = page.locator('.lessons-panel');
  if (!(await panel.isVisible().catch(() => false))) await button(page, 'Lessons').click();
  await panel.locator('.lesson-list').waitFor({ timeout: 10_000 });
  await button(panel, title).click();
  // A chapter's first lesson opens on the chapter's intro: start the chapter.
  await panel.locator('.lesson-goal, .chapter-intro').first().waitFor({ timeout: 5_000 });
  if (await panel.locator('.chapter-intro').count()) await button(panel, 'Start the chapter').click();
  await panel.locator('.lesson-goal').waitFor({ timeout: 5_000 });
  assert((await panel.locator('.lesson-title').innerText()).includes(title), 'the lesson did not open');
  return panel;
}

/** The scenario in the JSON editor, parsed. */
async function scenario(page) {
  return JSON.parse(await page.locator('#scenario-json').inputValue());
}

/** Types `value` (JSON) into the lesson's own box for `path`, the way to
 *  edit a path while the JSON box is read-only. */
async function editPart(page, path, value) {
  const id = `#lesson-part-${path.replace(/[.[\]]/g, '-')}`;
  await page.locator(id).fill(JSON.stringify(value, null, 2));
}

/** Presses Check and returns the verdict's text once it shows. */
async function check(page) {
  const panel = page.locator('.lessons-panel');
  await button(panel, 'Check').click();
  const verdict = panel.locator('.lesson-verdict');
  await verdict.waitFor({ timeout: 15_000 });
  return verdict.innerText();
}

/** Waits until the verdict is wholly in the window and in its column's view. */
async function verdictInView(page) {
  await page.waitForFunction(() => {
    const verdict = document.querySelector('.lessons-panel .lesson-verdict');
    if (!verdict) return false;
    const r = verdict.getBoundingClientRect();
    let box = { top: 0, bottom: window.innerHeight };
    for (let el = verdict.parentElement; el; el = el.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(el).overflowY)) {
        const c = el.getBoundingClientRect();
        box = { top: Math.max(box.top, c.top), bottom: Math.min(box.bottom, c.bottom) };
      }
    }
    return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
  }, null, { timeout: 3_000 });
}

async function expectSolved(page) {
  const text = await check(page);
  assert(text.includes('Solved: every part of the goal holds.'), `not solved: ${text}`);
  assert(!text.includes('✗'), `a part fails: ${text}`);
  await page.locator('.lesson-explain').waitFor({ timeout: 5_000 });
  return text;
}

test('lessons: a limit lesson is solved by editing its limit; a wrong Check says what does not hold; ✓ survives a reload', async ({ page }) => {
  const panel = await openLesson(page, 'Stop a runaway loop');
  const goal = await panel.locator('.lesson-goal').innerText();
  assert(goal.includes('The run ends with status turn_limit.') && goal.includes('At most 3 model calls.'), `goal: ${goal}`);
  assert(goal.includes('You may change only: limits.max_turns'), `what may change: ${goal}`);
  // Its start takes the built-in's max_turns away: the default applies.
  assert(!('max_turns' in (await scenario(page)).limits), 'the lesson did not load its starting scenario');
  // The picker says where the text came from, and the scenario's lesson line
  // is the lesson's intro, not the built-in's (which tells of a limit of 3).
  const picked = await page.locator('#scenario-picker').evaluate((select) => select.selectedOptions[0]?.textContent ?? '');
  assert(picked === 'From the lesson “Stop a runaway loop”', `the picker says ${picked}`);
  const line = await page.locator('.lesson').textContent();
  assert(line.startsWith('This agent never stops calling get_time') && !line.includes('after the third call'), `the scenario's lesson line: ${line}`);

  // As given, the default limit stops it after 10 calls: the run meets the
  // status and not the call count, and Check says so part by part.
  const wrong = await check(page);
  assert(wrong.includes('Not yet'), `a failing check: ${wrong}`);
  assert(/✗[^\n]*10/.test(wrong), `the failing part does not say what the run did: ${wrong}`);
  assert(wrong.includes('✓'), `the part that holds is not said to hold: ${wrong}`);
  // The status is shown as code, not with the command line's backticks.
  assert(!wrong.includes('`'), `backticks in the verdict: ${wrong}`);
  assert((await panel.locator('.lesson-verdict li code').first().innerText()) === 'turn_limit', 'the status is not code');
  // The answer Check was asked for is what ends up in view, not the end
  // of the run it started (the lesson sits atop the trace's column).
  await verdictInView(page);
  // The run is on the loop, as a run.
  assert((await bannerStatus(page)) === 'turn_limit', 'Check did not show its run');

  // One off is not solved: 2 turns stop the run turn_limit, within "at
  // most 3 model calls", but the lesson asks for 3 (its "Why" tells of the
  // third call's tools).
  await page.locator('#limit-max_turns').fill('2');
  const oneOff = await check(page);
  assert(oneOff.includes('Not yet') && oneOff.includes('✗'), `max_turns 2 was judged: ${oneOff}`);
  // The form's field for the limit is the one that can be typed in.
  await page.locator('#limit-max_turns').fill('3');
  await expectSolved(page);
  await verdictInView(page);
  const explain = await panel.locator('.lesson-explain').innerText();
  assert(explain.includes('max_turns counts model calls'), `explain: ${explain}`);
  await panel.screenshot({ path: join(artifacts, 'lesson-solved.png') });
  assert(await button(panel, 'Next lesson →').isVisible(), 'no next lesson offered');

  // A verdict is about the run it judged: another run takes it away.
  await page.locator('#limit-max_turns').fill('4');
  await button(page.locator('.actions'), 'Run').click();
  await page.locator('.stop-banner').waitFor();
  await page.waitForFunction(() => !document.querySelector('.lessons-panel .lesson-verdict'), null, { timeout: 5_000 });

  await page.reload();
  await button(page, 'Lessons').click();
  const item = page.locator('.lesson-item', { hasText: 'Stop a runaway loop' });
  await item.waitFor({ timeout: 10_000 });
  assert((await item.locator('.lesson-mark').innerText()).trim() === '✓', 'the ✓ did not survive the reload');
  assert((await page.locator('.course-progress').innerText()).match(/^1 of \d+ solved/), await page.locator('.course-progress').innerText());
});

test('lessons: hints come one at a time, the solution only after two failed checks, and only the editable fields can be edited', async ({ page }) => {
  const panel = await openLesson(page, 'Stop a runaway loop');
  const hint = panel.locator('.lesson-hint');
  assert((await hint.innerText()) === 'Hint (2 left)', await hint.innerText());
  await hint.click();
  assert((await panel.locator('.lesson-hints li').count()) === 1, 'a hint is not shown one at a time');
  assert((await panel.locator('.lesson-hints').innerText()).includes('Limits live under limits.'), 'the first hint');

  // Only limits.max_turns can change: the form says so once and marks the
  // field; every other field and the whole JSON box are read-only.
  const lock = await page.locator('.scenario .lesson-lock').innerText();
  assert(lock.includes('lets you change only limits.max_turns'), `lock note: ${lock}`);
  assert(await page.locator('#limit-max_turns').isEditable(), 'the editable limit is read-only');
  assert((await page.locator('.limit[data-limit="max_turns"] label').innerText()).includes('✎ editable in this lesson'), 'the editable limit is not marked');
  for (const field of ['#field-system', '#field-task', '#limit-max_tool_calls', '#scenario-json']) {
    assert(!(await page.locator(field).isEditable()), `${field} can be edited in the lesson`);
  }
  assert((await page.locator('label[for="scenario-json"]').innerText()).includes('read-only in this lesson'), 'the JSON box does not say it is read-only');
  // Its own JSON box edits the one path, and writes into the scenario.
  await editPart(page, 'limits.max_turns', 7);
  await page.waitForFunction(() => JSON.parse(document.getElementById('scenario-json').value).limits.max_turns === 7, null, { timeout: 5_000 });
  assert((await page.locator('#limit-max_turns').inputValue()) === '7', 'the form does not follow the part box');
  await page.locator('#lesson-part-limits-max_turns').fill('7x');
  const partError = await page.locator('.lesson-parts .field-error').innerText();
  assert(partError.startsWith('limits.max_turns: '), `a part that is not JSON: ${partError}`);
  await page.locator('#lesson-part-limits-max_turns').fill('10');

  // Closed, the lesson locks nothing; opened again, it locks again.
  await button(panel, 'Close Lessons').click();
  assert(await page.locator('#scenario-json').isEditable(), 'the JSON box stays read-only with Lessons closed');
  assert(await page.locator('#field-system').isEditable(), 'a field stays read-only with Lessons closed');
  await button(page, 'Lessons').click();
  await panel.locator('.lesson-goal').waitFor({ timeout: 5_000 });
  assert(!(await page.locator('#scenario-json').isEditable()), 'the lesson does not lock again when reopened');

  await check(page);
  assert((await panel.locator('.lesson-solution').count()) === 0, 'the solution is offered after one failed check');
  await check(page);
  const solution = button(panel, 'Show the solution');
  await solution.waitFor({ timeout: 5_000 });
  await solution.click();
  const applied = await panel.locator('.lesson-solution-note').innerText();
  assert(applied.includes('Applied the solution: it sets limits.max_turns.'), applied);
  assert((await scenario(page)).limits.max_turns === 3, 'the solution is not in the editor');
  await expectSolved(page);
});

test('lessons: a pair lesson (the naive budget) is solved by switching to strict', async ({ page }) => {
  await openLesson(page, 'A budget that is never overshot');
  await page.locator('#limit-cost_mode').selectOption('strict');
  const text = await expectSolved(page);
  assert(text.includes('cost_limit'), text);
});

test('lessons: a schema lesson is solved by editing the tool schema', async ({ page }) => {
  await openLesson(page, 'Say which words a tool accepts');
  const wrong = await check(page);
  assert(wrong.includes('Not yet') && wrong.includes('search_hotels'), `wrong: ${wrong}`);
  const schema = (await scenario(page)).tools[0].input_schema;
  schema.properties.place.enum = ['Paris', 'Lisbon', 'Kyoto'];
  await editPart(page, 'tools[0].input_schema', schema);
  const text = await expectSolved(page);
  assert(text.includes('Lisbon'), text);
});

test('lessons: an approval lesson is solved by denying in the approval bar', async ({ page }) => {
  const panel = await openLesson(page, 'Deny, and let the agent go on');
  assert((await panel.locator('.lesson-how').innerText()).includes('approval bar'), 'the lesson does not say how');
  await button(page, 'Run').click();
  const bar = page.locator('.approval-bar');
  await bar.waitFor({ timeout: 10_000 });
  await button(bar, 'Deny').click();
  assert((await bannerStatus(page)) === 'done', 'the run did not end done');
  await expectSolved(page);
});

test('lessons: a protocol lesson is solved by answering as the model', async ({ page }) => {
  const panel = await openLesson(page, 'A valid parallel call');
  // Nothing run yet: Check says what to do.
  await button(panel, 'Check').click();
  assert((await panel.locator('.lesson-note').innerText()).includes('Press Step'), 'Check without a run');
  await button(page, 'Step').click();
  await page.locator('.run-state', { hasText: 'Paused before model call (turn 1)' }).waitFor({ timeout: 10_000 });
  const answer = page.locator('.answer-panel');
  await button(answer, 'Answer as the model').click({ timeout: 10_000 });
  await answer.locator('.answer-form').waitFor({ state: 'visible', timeout: 5_000 });
  for (const [id, warehouse] of [['toolu_a', 'A'], ['toolu_b', 'B']]) {
    await button(answer, 'Add a tool call').click();
    const call = answer.locator('.answer-call').last();
    await call.locator('input.answer-call-id').fill(id);
    await call.locator('select').first().selectOption('check_stock');
    await call.locator('textarea.answer-args').fill(JSON.stringify({ warehouse }));
  }
  await answer.locator('.answer-ok').waitFor({ timeout: 5_000 });
  await button(answer, 'Send as the model').click();
  // The rest of the run goes on without pausing.
  await button(page, 'Continue').click();
  assert((await bannerStatus(page)) === 'done', 'the run did not end done');
  const text = await expectSolved(page);
  assert(text.includes('accept'), text);
});

test('lessons: a lesson opens from a link and is solved; a broken link says why', async ({ page }) => {
  const file = readFileSync(join(LESSONS, 'tool-call-limit.json'), 'utf8');
  const encoded = Buffer.from(file.trim()).toString('base64url');
  await page.goto(`${env.baseUrl}#lesson=${encoded}`);
  const panel = page.locator('.lessons-panel');
  await panel.locator('.lesson-goal').waitFor({ timeout: 10_000 });
  const lesson = JSON.parse(file);
  assert((await panel.locator('.lesson-title').innerText()).includes(lesson.lesson), 'the linked lesson did not open');
  for (const [key, value] of Object.entries(lesson.solution.limits)) {
    await page.locator(`#limit-${key}`).fill(String(value));
  }
  await expectSolved(page);

  await page.goto(`${env.baseUrl}#lesson=turn-limt`);
  await page.reload();
  const note = page.locator('.lessons-panel .lesson-note');
  await note.waitFor({ timeout: 10_000 });
  const said = await note.innerText();
  assert(said.includes('no built-in lesson is named “turn-limt”') && said.includes('turn-limit'), said);
});

test('lessons: at 360 px opening Lessons goes to them, and the goal is one tap away from the scenario editor', async ({ page }) => {
  // The panel is far below the Lessons button on a phone: opening the mode
  // brings it into view.
  await button(page, 'Lessons').click();
  await page.locator('.lessons-panel .lesson-list').waitFor({ timeout: 10_000 });
  const head = () => page.evaluate(() => {
    const r = document.querySelector('.lessons-panel').getBoundingClientRect();
    return { top: r.top, height: window.innerHeight, scrolled: window.scrollY };
  });
  await page.waitForFunction(() => {
    const r = document.querySelector('.lessons-panel').getBoundingClientRect();
    return r.top >= -1 && r.top < window.innerHeight / 2;
  }, null, { timeout: 5_000 }).catch(async () => assert(false, `opening Lessons did not bring them into view: ${JSON.stringify(await head())}`));
  await openLesson(page, 'Stop a runaway loop');
  // On a phone the scenario (where the learner edits) comes first and the
  // lesson, with the trace, far below it.
  await page.locator('#scenario-json').scrollIntoViewIfNeeded();
  const away = await page.evaluate(() => {
    const r = document.getElementById('lesson-goal').getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: window.innerHeight, scrolled: window.scrollY, page: document.body.scrollHeight };
  });
  assert(away.bottom < 0 || away.top > away.height, `the goal is in view beside the JSON box already: ${JSON.stringify(away)}`);
  const goal = button(page, 'Goal');
  assert(await goal.isVisible(), 'no Goal button in view beside the JSON box');
  const box = await goal.boundingBox();
  assert(box.width >= 24 && box.height >= 24, `the Goal button is too small to tap: ${JSON.stringify(box)}`);
  await goal.click();
  const shown = () => page.evaluate(() => {
    const r = document.getElementById('lesson-goal').getBoundingClientRect();
    return { top: r.top, height: window.innerHeight };
  });
  // Scrolled to its start, give or take the sub-pixel a scroll rounds to.
  await page.waitForFunction(() => {
    const r = document.getElementById('lesson-goal').getBoundingClientRect();
    return r.top >= -1 && r.top < window.innerHeight - 40;
  }, null, { timeout: 5_000 }).catch(async () => assert(false, `one tap did not bring the goal into view: ${JSON.stringify(await shown())}`));
  assert(await page.locator('#lesson-goal').isVisible(), 'the goal is not shown after one tap');
}, { viewport: { width: 360, height: 740 } });

test('lessons: a course file picked with Import scenario opens in Lessons; a broken lesson file says what is wrong', async ({ page }) => {
  const { writeFileSync } = await import('node:fs');
  const course = join(artifacts, 'week1.course.json');
  writeFileSync(course, JSON.stringify({ course: 'Week 1', lessons: ['schema-enum', 'turn-limit'] }));
  await page.getByRole('button', { name: 'Import scenario' }).setInputFiles(course);
  const panel = page.locator('.lessons-panel');
  await panel.locator('.course-title', { hasText: 'Week 1' }).waitFor({ timeout: 10_000 });
  const items = await panel.locator('.lesson-item .lesson-open').allInnerTexts();
  assert(items.length === 2 && items[0] === 'Say which words a tool accepts' && items[1] === 'Stop a runaway loop', `course: ${items}`);
  assert((await page.locator('.arrival').innerText()).includes('week1.course.json is a lesson or course file'), 'the editor does not say where the file went');

  const broken = join(artifacts, 'broken.lesson.json');
  const lesson = JSON.parse(readFileSync(join(LESSONS, 'turn-limit.json'), 'utf8'));
  lesson.goal = { status: 'turn_limt' };
  writeFileSync(broken, JSON.stringify(lesson));
  await panel.locator('.lesson-file input').setInputFiles(broken);
  const note = panel.locator('.lesson-note', { hasText: 'broken.lesson.json was not opened' });
  await note.waitFor({ timeout: 5_000 });
  const said = await note.innerText();
  assert(said.includes('goal.status') && said.includes('turn_limit'), said);

  // The wrong kind of file is named, in words, not in the parser's.
  const picture = join(artifacts, 'notes.txt');
  writeFileSync(picture, 'Lesson 1: stop the loop after 3 turns');
  await panel.locator('.lesson-file input').setInputFiles(picture);
  const wrong = panel.locator('.lesson-note', { hasText: 'notes.txt was not opened' });
  await wrong.waitFor({ timeout: 5_000 });
  const words = await wrong.innerText();
  assert(words.includes('not valid JSON at line 1, column 1') && !words.includes('expected value at line'), words);
});
