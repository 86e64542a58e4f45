// The course as a learner meets it, at 1366x768: the list by chapter with
// each chapter's progress, a chapter's intro page before its first lesson,
// the loop drawn with only what the course has taught so far, glossary
// terms that show their meaning, a lesson stepped through with its walk, a
// lesson that asks for a prediction first, a chapter's last lesson leading
// to the next chapter's intro, the capstone and the end-of-course page, and
// a progress link opened in another browser. Lessons are found by id
// (`data-lesson`, `#lesson=<id>`) and their texts read from their files, so
// the course's content can change under these tests.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { assert, button, env, root, test } from './lib.mjs';

const LESSONS = join(root, 'crates/harness/lessons');
const CHAPTERS = readdirSync(join(LESSONS, 'chapters'))
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(LESSONS, 'chapters', f), 'utf8')));
const ALL_IDS = CHAPTERS.flatMap((c) => c.lessons);
const AT = { viewport: { width: 1366, height: 768 } };

function lessonFile(id) {
  return JSON.parse(readFileSync(join(LESSONS, `${id}.json`), 'utf8'));
}

/** A text as the page shows it: `[[term|shown]]` as its shown words. */
function plain(text) {
  return text.replace(/\[\[([^\]|]+)(?:\|([^\]]+))?\]\]/g, (_, term, shown) => (shown ?? term).trim());
}

/** The chapter that holds lesson `id`, and its index. */
function chapterOf(id) {
  const index = CHAPTERS.findIndex((c) => c.lessons.includes(id));
  return { index, chapter: CHAPTERS[index] };
}

async function openCourse(page) {
  const panel = page.locator('.lessons-panel');
  if (!(await panel.isVisible().catch(() => false))) await button(page, 'Lessons').click();
  await panel.locator('.course-chapters').waitFor({ timeout: 10_000 });
  return panel;
}

/** Opens lesson `id` from its link and waits for its card. */
async function openById(page, id) {
  await page.goto(`${env.baseUrl}#lesson=${id}`);
  const panel = page.locator('.lessons-panel');
  await panel.locator('.lesson-goal').waitFor({ timeout: 10_000 });
  assert((await panel.locator('.lesson-title').innerText()).includes(lessonFile(id).lesson), `lesson ${id} did not open`);
  return panel;
}

async function verdict(panel) {
  const box = panel.locator('.lesson-verdict');
  await box.waitFor({ timeout: 20_000 });
  return box.innerText();
}

async function check(panel) {
  await button(panel, 'Check').click();
  return verdict(panel);
}

/** Presses the header's Step and waits until the walk shows pause
 *  `pause` (1-based), or, with none, until it says the run has ended. */
async function step(page, pause) {
  await page.locator('.actions button.step').click();
  const walk = page.locator('.lesson-walk');
  if (pause) {
    await page.locator(`.lesson-walk[data-pause="${pause}"]`).waitFor({ timeout: 10_000 });
    await page.waitForFunction(() => document.querySelector('.lesson-walk .walk-text'), null, { timeout: 10_000 });
  } else {
    await walk.filter({ hasText: 'The run has ended' }).waitFor({ timeout: 10_000 });
  }
}

test('course: the list is by chapter with its progress; a chapter\'s first lesson opens on its intro; the loop folds what is not taught yet', async ({ page }) => {
  const panel = await openCourse(page);
  const chapters = panel.locator('.course-chapter');
  assert((await chapters.count()) === CHAPTERS.length, `${await chapters.count()} chapters listed, ${CHAPTERS.length} in the course`);
  for (const [i, c] of CHAPTERS.entries()) {
    const head = await chapters.nth(i).locator('.chapter-head').innerText();
    assert(head.includes(`Chapter ${i + 1}: ${c.chapter}`), `chapter ${i + 1}'s heading: ${head}`);
    assert(head.includes(`0 of ${c.lessons.length} solved`), `chapter ${i + 1}'s progress: ${head}`);
    const ids = await chapters.nth(i).locator('.lesson-item').evaluateAll((items) => items.map((li) => li.dataset.lesson));
    assert(JSON.stringify(ids) === JSON.stringify(c.lessons), `chapter ${i + 1} lists ${ids}`);
  }
  assert((await panel.locator('.course-progress').innerText()).startsWith(`0 of ${ALL_IDS.length} solved`), 'the course\'s count');

  // The second chapter's first lesson: its intro page comes first.
  const second = CHAPTERS[1];
  await panel.locator(`.lesson-item[data-lesson="${second.lessons[0]}"] button.lesson-open`).click();
  const intro = panel.locator('.chapter-intro');
  await intro.waitFor({ timeout: 5_000 });
  assert((await intro.locator('.chapter-title').innerText()) === second.chapter, 'the intro\'s title');
  const words = (await intro.locator('.chapter-text').innerText()).replace(/\s+/g, ' ').trim();
  assert(words === plain(second.intro).replace(/\s+/g, ' ').trim(), `the intro's text: ${words}`);
  assert((await intro.locator('.chapter-text p').count()) === second.intro.split('\n\n').length, 'the intro\'s paragraphs');
  assert(words.split(/\s+/).length <= 200, `the intro has ${words.split(/\s+/).length} words`);
  assert((await panel.locator('.lesson-goal').count()) === 0, 'the lesson opened before its chapter\'s intro');

  // The loop shows what chapters 1 and 2 reveal, and folds the rest.
  const revealed = new Set([...CHAPTERS[0].reveals, ...second.reveals]);
  const fold = (await page.evaluate(() => document.documentElement.getAttribute('data-fold') ?? '')).split(' ').filter(Boolean);
  assert(fold.length > 0, 'nothing is folded in chapter 2');
  for (const part of fold) assert(!revealed.has(part), `${part} is revealed by chapter 1 or 2, yet folded`);
  const note = await intro.locator('.loop-fold-note').innerText();
  assert(/not taught yet are folded away/.test(note), `the fold is not said: ${note}`);
  // A folded part the loop draws is not shown; "Show the whole loop" shows it.
  const drawn = (await page.locator('.loop-wide').isVisible()) ? '.loop-wide' : '.loop-narrow';
  let folded = null;
  for (const part of fold) {
    if (await page.locator(`${drawn} [data-node="${part}"]`).count()) { folded = page.locator(`${drawn} [data-node="${part}"]`); break; }
  }
  assert(folded, `none of the folded parts is drawn in ${drawn}: ${fold}`);
  assert(!(await folded.isVisible()), `${await folded.getAttribute('data-node')} is shown though not taught yet`);
  // A folded exit takes its "show a run" button along.
  if (drawn === '.loop-wide') {
    let shown = 0;
    for (const exit of fold.filter((p) => p.startsWith('exit-'))) {
      const show = page.locator(`.loop-wide [data-node="${exit}"] + .loop-lesson`);
      if (!(await show.count())) continue;
      shown += 1;
      assert(!(await show.isVisible()), `${exit}'s "show a run" button is drawn though ${exit} is folded`);
    }
    assert(shown > 0, 'no folded exit has a "show a run" button to fold');
  }
  await button(intro, 'Show the whole loop').click();
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-fold'), null, { timeout: 3_000 });
  assert(await folded.isVisible(), `${await folded.getAttribute('data-node')} stays folded after "Show the whole loop"`);
  await button(intro, 'Fold what is not taught yet').click();
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-fold'), null, { timeout: 3_000 });

  await button(intro, 'Start the chapter').click();
  await panel.locator('.lesson-goal').waitFor({ timeout: 5_000 });
  assert((await panel.locator('.lesson-title').innerText()).includes(lessonFile(second.lessons[0]).lesson), 'Start the chapter did not open its first lesson');
  assert((await panel.locator('.lesson-chapter').innerText()).includes(`Chapter 2 of ${CHAPTERS.length}: ${second.chapter}`), 'the lesson does not say its chapter');

  // Closing Lessons draws the whole loop again.
  await button(panel, 'Close Lessons').click();
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-fold'), null, { timeout: 3_000 });
}, AT);

test('course: glossary terms in a lesson show their meaning, and the glossary lists every term by chapter', async ({ page }) => {
  const first = CHAPTERS[0];
  const id = first.lessons[0];
  const panel = await openById(page, id);
  const text = lessonFile(id).intro;
  const term = /\[\[([^\]|]+)/.exec(text)?.[1]?.trim();
  assert(term, `the first lesson's intro links no term: ${text}`);
  const defined = CHAPTERS.flatMap((c) => c.terms).find((t) => t.term.toLowerCase() === term.toLowerCase());
  const link = panel.locator(`.lesson-intro button.term[data-term="${term}"]`).first();
  assert((await link.getAttribute('aria-expanded')) === 'false', 'the term starts open');
  await link.click();
  const means = await panel.locator('.lesson-intro .term-means').first().innerText();
  assert(means.includes(plain(defined.means)), `the meaning shown: ${means}`);
  assert((await panel.locator('.lesson-intro').innerText()).includes(plain(text).slice(0, 40)), 'the intro reads as its words');

  await button(panel, '← All lessons').click();
  await button(panel, 'Glossary').click();
  const glossary = panel.locator('.glossary');
  await glossary.waitFor({ timeout: 5_000 });
  const terms = await glossary.locator('dt').allInnerTexts();
  const all = CHAPTERS.flatMap((c) => c.terms.map((t) => t.term));
  assert(terms.length === all.length, `the glossary lists ${terms.length} terms of ${all.length}`);
  assert(terms.includes(term), `the glossary lacks ${term}`);
}, AT);

test('course: a stepping lesson shows its walk at each pause and is solved by stepping; Run instead is not solved', async ({ page }) => {
  const id = 'loop-step-through';
  const lesson = lessonFile(id);
  const { index } = chapterOf(id);
  // The chapter's first lesson, from the list: its intro first.
  const panel = await openCourse(page);
  await panel.locator(`.lesson-item[data-lesson="${id}"] button.lesson-open`).click();
  await panel.locator(`.chapter-intro[data-chapter="${index}"]`).waitFor({ timeout: 5_000 });
  await button(panel, 'Start the chapter').click();
  const walk = panel.locator('.lesson-walk');
  await walk.waitFor({ timeout: 5_000 });
  assert((await walk.innerText()).includes('Press Step'), `the walk does not say to press Step: ${await walk.innerText()}`);

  // Run instead: the run ends as the goal's status asks, but it was not stepped.
  await page.locator('.actions button.run').click();
  await page.locator('.stop-banner').waitFor({ timeout: 10_000 });
  const ran = await check(panel);
  assert(ran.includes('Not yet') && /✗[^\n]*Step was not pressed/.test(ran), `a run let go was judged: ${ran}`);

  // Stepped: each pause shows its entry of the walk.
  for (const [i, entry] of lesson.walk.entries()) {
    await step(page, i + 1);
    const shown = await walk.innerText();
    assert(shown.includes(`Pause ${i + 1} of ${lesson.walk.length}`), `pause ${i + 1}: ${shown}`);
    assert(shown.includes(plain(entry).slice(0, 60)), `pause ${i + 1} does not show its walk entry: ${shown}`);
    assert(shown.includes(`Step pressed ${i} time`), `the steps counted at pause ${i + 1}: ${shown}`);
  }
  await step(page);
  await page.locator('.stop-banner').waitFor({ timeout: 10_000 });
  const solved = await check(panel);
  assert(solved.includes('Solved: every part of the goal holds.'), `not solved by stepping: ${solved}`);
  // "Why" is the student's run, not placeholders.
  const why = await panel.locator('.lesson-explain').innerText();
  assert(!/\{[a-z_:.]+\}/.test(why), `placeholders in the explanation: ${why}`);
  assert(why.includes('status done after 2 model calls') || /after \d+ model calls/.test(why), `the explanation is not the run's: ${why}`);

  // Where the run ended stays drawn, even were its exit not taught yet.
  if (await page.locator('.loop-wide').isVisible()) {
    await page.evaluate(() => document.documentElement.setAttribute('data-fold', 'exit-done exit-turn_limit'));
    assert(await page.locator('.loop-wide [data-node="exit-done"]').isVisible(), 'the exit the run ended at is folded');
    assert(!(await page.locator('.loop-wide [data-node="exit-turn_limit"]').isVisible()), 'a folded exit the run did not reach is drawn');
  }
}, AT);

test('course: a predicting lesson waits for a prediction, records it, and sets it beside what the run did', async ({ page }) => {
  const id = 'predict-turn-limit';
  const lesson = lessonFile(id);
  const panel = await openById(page, id);
  const predict = panel.locator('.lesson-predict');
  assert((await predict.innerText()).includes(plain(lesson.predict.question)), 'the question is not shown');
  // The scenario's lesson line is the intro in words, without `[[term]]` marks.
  const line = await page.locator('.lesson').first().textContent();
  assert(!line.includes('[['), `the scenario's lesson line shows term marks: ${line}`);
  const radios = predict.locator('input[type="radio"]');
  assert((await radios.count()) === lesson.predict.choices.length, 'the choices are not radio buttons');
  // Run, Step and Check wait, saying why.
  assert(await page.locator('.actions button.run').isDisabled(), 'Run is enabled before a prediction');
  assert(await page.locator('.actions button.step').isDisabled(), 'Step is enabled before a prediction');
  assert(await panel.locator('button.lesson-check').isDisabled(), 'Check is enabled before a prediction');
  assert((await page.locator('#run-blocker').innerText()).includes('wait for your prediction'), 'Run does not say why it waits');

  // Predict, run, and read the run's true value; predict again if it was right.
  let guess = lesson.predict.choices[0];
  await predict.getByLabel(guess, { exact: true }).check();
  assert(await page.locator('.actions button.run').isEnabled(), 'Run stays disabled after a prediction');
  let said = await check(panel).then(() => predict.locator('.predict-result').innerText());
  let actual = /the run: (.*?)\./.exec(said)?.[1];
  assert(lesson.predict.choices.includes(actual), `the run's value ${actual} is not a choice: ${said}`);
  if (actual === guess) {
    await page.locator('.actions button.reset').click();
    guess = lesson.predict.choices.find((c) => c !== actual);
    await predict.getByLabel(guess, { exact: true }).check();
    said = await check(panel).then(() => predict.locator('.predict-result').innerText());
  }
  assert(said.startsWith(`You predicted ${guess}; the run: ${actual}.`), `the comparison: ${said}`);
  assert(said.includes('The run did otherwise'), `a wrong prediction is not said to differ: ${said}`);
  // Recorded before the run: it cannot be changed while the run is in view.
  assert(await radios.first().isDisabled(), 'the prediction can be changed after the run');
  const text = await verdict(panel);
  assert(text.includes('Solved'), `the lesson asks for a prediction, not a right one: ${text}`);
  assert(text.includes(`you predicted ${guess}; the run: ${actual}`), `the verdict does not say the prediction: ${text}`);
  const why = await panel.locator('.lesson-explain').innerText();
  assert(!/\{[a-z_:.]+\}/.test(why), `placeholders in the explanation: ${why}`);
}, AT);

test('course: a predicting lesson opened while another lesson\'s run is paused takes a prediction, and sets it beside no run but its own', async ({ page }) => {
  await openById(page, 'loop-step-through');
  await page.locator('.actions button.step').click();
  await page.locator('.lesson-walk .walk-text').waitFor({ timeout: 10_000 });
  const id = 'predict-turn-limit';
  const panel = await openById(page, id);
  const predict = panel.locator('.lesson-predict');
  const choice = predict.getByLabel(lessonFile(id).predict.choices[0], { exact: true });
  assert(await choice.isEnabled(), 'the choices are locked by another lesson\'s run');
  await choice.check();
  assert((await predict.locator('.predict-result').count()) === 0, 'the prediction is set beside another lesson\'s run');
  assert((await predict.locator('.predict-locked').count()) === 0, 'the prediction is said to be recorded for another lesson\'s run');
}, AT);

test('course: a prediction is set beside the lesson as it starts, also once the learner has edited it', async ({ page }) => {
  // tool-choice: predict how many tool calls the start makes (any: 6), run
  // it, then fix tool_choice: the comparison stays with the start's 6, not
  // the fixed run's 1.
  const id = 'tool-choice';
  const lesson = lessonFile(id);
  assert(lesson.by === 'predicting' && lesson.editable.includes('tool_choice'), `${id} changed: update this test`);
  const panel = await openById(page, id);
  const predict = panel.locator('.lesson-predict');
  await predict.getByLabel('6', { exact: true }).check();
  await page.locator('.actions button.run').click();
  const result = predict.locator('.predict-result');
  await result.waitFor({ timeout: 20_000 });
  assert((await result.innerText()).startsWith('You predicted 6; the run: 6.'), `after the start: ${await result.innerText()}`);
  await page.locator('#lesson-part-tool_choice').fill('"auto"');
  const text = await check(panel);
  assert(text.includes('Solved'), `not solved: ${text}`);
  assert(text.includes('you predicted 6; the lesson as it starts: 6'), `the verdict compares with the fixed run: ${text}`);
  assert((await result.innerText()).startsWith('You predicted 6; the lesson as it starts: 6.'), `after the fix: ${await result.innerText()}`);
}, AT);

test('course: a chapter\'s last lesson, solved, leads to the next chapter\'s intro', async ({ page }) => {
  const first = CHAPTERS[0];
  const id = first.lessons[first.lessons.length - 1];
  const lesson = lessonFile(id);
  assert(lesson.by === 'predicting' && lesson.solution.prediction, `${id} is no longer a predicting lesson: update this test`);
  const panel = await openById(page, id);
  await panel.locator('.lesson-predict').getByLabel(lesson.solution.prediction, { exact: true }).check();
  const text = await check(panel);
  assert(text.includes('Solved: every part of the goal holds.'), `not solved: ${text}`);
  await button(panel, 'Next lesson →').click();
  const intro = panel.locator('.chapter-intro[data-chapter="1"]');
  await intro.waitFor({ timeout: 5_000 });
  assert((await intro.locator('.chapter-title').innerText()) === CHAPTERS[1].chapter, 'Next did not open chapter 2\'s intro');
  await button(intro, '← All lessons').click();
  const head = await panel.locator('.course-chapter[data-chapter="0"] .chapter-head').innerText();
  assert(head.includes(`1 of ${first.lessons.length} solved`), `chapter 1's progress: ${head}`);
  const mark = await panel.locator(`.lesson-item[data-lesson="${id}"] .lesson-mark`).innerText();
  assert(mark.trim() === '✓', 'the solved lesson is not marked');
}, AT);

/** A merge patch's leaves as dotted paths and values. */
function leaves(patch, prefix = '') {
  return Object.entries(patch).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return value && typeof value === 'object' && !Array.isArray(value) ? leaves(value, path) : [[path, value]];
  });
}

test('course: the capstone is solved through the page, and after it comes "What you learned"', async ({ page }) => {
  const id = ALL_IDS[ALL_IDS.length - 1];
  const lesson = lessonFile(id);
  const panel = await openById(page, id);
  const { prediction, decisions = [], turns, steps, stop_after_ms: stop, ...edits } = lesson.solution;
  assert(!turns && !steps && stop === undefined, 'the capstone asks for work this test does not do: update it');
  if (prediction) await panel.locator('.lesson-predict').getByLabel(prediction, { exact: true }).check();
  // Each edit in the lesson's own box for its path (the longest editable path that holds it).
  for (const [path, value] of leaves(edits)) {
    const box = [...lesson.editable].sort((a, b) => b.length - a.length).find((p) => path === p || path.startsWith(`${p}.`));
    assert(box, `the solution sets ${path}, which is not editable`);
    const scenario = JSON.parse(await page.locator('#scenario-json').inputValue());
    const current = box.split('.').reduce((v, k) => v?.[k], scenario);
    const next = box === path ? value : structuredClone(current ?? {});
    if (box !== path) path.slice(box.length + 1).split('.').reduce((o, k, i, keys) => (i === keys.length - 1 ? (o[k] = value) : (o[k] ??= {})), next);
    await page.locator(`#lesson-part-${box.replace(/[.[\]]/g, '-')}`).fill(JSON.stringify(next, null, 2));
  }
  await button(panel, 'Check').click();
  for (const { decision } of decisions) {
    const bar = page.locator('.approval-bar');
    await bar.waitFor({ timeout: 10_000 });
    const label = { deny: 'Deny', approve: 'Approve' }[decision];
    assert(label, `the capstone asks for the decision ${decision}: update this test`);
    await button(bar, label).click();
  }
  const text = await verdict(panel);
  assert(text.includes('Solved: every part of the goal holds.'), `the capstone is not solved: ${text}`);
  assert((await panel.locator('button.lesson-next', { hasText: 'Next lesson' }).count()) === 0, 'a lesson after the last');
  await button(panel, 'What you learned →').click();
  const end = panel.locator('.course-end');
  await end.waitFor({ timeout: 5_000 });
  assert((await end.locator('h3').innerText()) === 'What you learned', 'the end page\'s title');
  assert((await end.locator('.course-end-chapter').count()) === CHAPTERS.length, 'the end page is not by chapter');
  const items = end.locator('.takeaway');
  assert((await items.count()) === ALL_IDS.length, `${await items.count()} takeaways for ${ALL_IDS.length} lessons`);
  const capstone = end.locator(`.takeaway[data-lesson="${id}"]`);
  assert((await capstone.locator('.lesson-mark').innerText()).trim() === '✓', 'the capstone is not marked solved');
  assert((await capstone.innerText()).includes(plain(lesson.takeaway).slice(0, 50)), `its takeaway: ${await capstone.innerText()}`);
  assert((await end.locator('.course-end-count').innerText()).startsWith(`1 of ${ALL_IDS.length}`), 'the count of solved lessons');
}, { ...AT, timeoutMs: 60_000 });

test('course: a progress link opens, in another browser, a read-only view of the lessons solved', async ({ page }) => {
  const solved = [CHAPTERS[1].lessons[0], CHAPTERS[1].lessons[1], CHAPTERS[2].lessons[0]];
  await page.evaluate((keys) => localStorage.setItem('agent-loop-playground.lessons-solved', JSON.stringify(keys)), solved);
  await page.reload();
  const panel = await openCourse(page);
  await button(panel, 'Copy a progress link').click();
  const link = await panel.locator('.progress-url input').inputValue();
  assert(link.includes('#progress='), `the link: ${link}`);
  assert(!link.includes('localStorage') && link.startsWith(env.baseUrl), `the link is not this page's: ${link}`);

  // Another browser (its own storage) opens it.
  const other = await env.browser.newContext({ ...AT, serviceWorkers: 'block' });
  try {
    const them = await other.newPage();
    await them.goto(link);
    const view = them.locator('.progress-view');
    await view.waitFor({ timeout: 10_000 });
    const head = await view.locator('.progress-head').innerText();
    assert(head === `A student's progress: ${solved.length} of ${ALL_IDS.length} solved`, `the head: ${head}`);
    const second = await view.locator('.progress-chapter').nth(1).locator('h4').innerText();
    assert(second.includes(`2 of ${CHAPTERS[1].lessons.length} solved`), `chapter 2: ${second}`);
    const marks = await view.locator('.lesson-item.solved').evaluateAll((items) => items.map((li) => li.dataset.lesson));
    assert(JSON.stringify(marks.sort()) === JSON.stringify([...solved].sort()), `marked solved: ${marks}`);
    // Their own progress is untouched.
    assert((await them.evaluate(() => localStorage.getItem('agent-loop-playground.lessons-solved'))) === null, 'the link wrote progress');
    await button(view, '← This browser\'s lessons').click();
    const own = await them.locator('.course-progress').innerText();
    assert(own.startsWith(`0 of ${ALL_IDS.length} solved`), `this browser's own count: ${own}`);
  } finally {
    await other.close();
  }
}, AT);

test('course: axe finds nothing on the course list, a chapter intro, a lesson with a prediction and a walk, the glossary, the end page and a progress view', async ({ page }) => {
  const { createRequire } = await import('node:module');
  const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
  const violations = async (where) => {
    if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
    const found = await page.evaluate(async () => {
      const result = await window.axe.run(document.querySelector('.lessons-panel'), { resultTypes: ['violations'] });
      return result.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
    });
    assert(found.length === 0, `${where}:\n${found.join('\n')}`);
  };
  const panel = await openCourse(page);
  await violations('the course list');
  await panel.locator('.course-chapter[data-chapter="0"] button.chapter-open').click();
  await panel.locator('.chapter-intro').waitFor({ timeout: 5_000 });
  await panel.locator('.chapter-intro button.term').first().click();
  await violations('a chapter intro with a term open');
  await button(panel, 'Start the chapter').click();
  await page.locator('.actions button.step').click();
  await panel.locator('.lesson-walk .walk-text').waitFor({ timeout: 10_000 });
  await violations('a stepping lesson, paused');
  const predicting = ALL_IDS.find((id) => lessonFile(id).by === 'predicting');
  await openById(page, predicting);
  await violations('a predicting lesson before its prediction');
  await button(panel, '← All lessons').click();
  await button(panel, 'Glossary').click();
  await panel.locator('.glossary').waitFor({ timeout: 5_000 });
  await violations('the glossary');
  await button(panel, '← All lessons').click();
  await button(panel, 'What the course teaches').click();
  await panel.locator('.course-end').waitFor({ timeout: 5_000 });
  await violations('the end page');
  await page.goto(`${env.baseUrl}#progress=${ALL_IDS.slice(0, 2).join(',')}`);
  await panel.locator('.progress-view').waitFor({ timeout: 10_000 });
  await violations('a progress view');
}, { ...AT, bypassCSP: true, timeoutMs: 60_000 });
