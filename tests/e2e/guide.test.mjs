// The guide ships with the page: built into the same site (book/), linked
// from the panels it explains, and cached for offline use with the build.

import { assert, button, env, openCompare, openMode, test } from './lib.mjs';

/** Fetches `href` (relative to the page) and returns its status and text. */
async function follow(page, href) {
  const url = new URL(href, page.url()).href;
  const response = await page.request.get(url);
  return { status: response.status(), text: await response.text(), url };
}

test('the guide is served with the page, and Compare, History and the course link to their pages in it', async ({ page }) => {
  const index = await follow(page, 'book/index.html');
  assert(index.status === 200 && index.text.includes('Agent Loop Playground'), `book/index.html answered ${index.status}`);
  // mdBook draws the sidebar from one file every page loads.
  const toc = await follow(page, 'book/toc.html');
  for (const part of ['Teach a class', 'Learn the protocol', 'Reference', 'Contributing']) {
    assert(toc.text.includes(part), `the guide's sidebar has no "${part}"`);
  }

  const compare = await openCompare(page);
  const link = compare.locator('a.guide-link');
  assert((await link.innerText()) === 'Guide: pairs, A/B and forks', `Compare's link reads ${await link.innerText()}`);
  assert((await link.getAttribute('target')) === '_blank', 'the guide opens over the page, losing nothing on it');
  const comparePage = await follow(page, await link.getAttribute('href'));
  assert(comparePage.status === 200 && comparePage.text.includes('Compare: pairs, A/B and forks'),
    `Compare's guide link leads to ${comparePage.url} (${comparePage.status})`);

  await openMode(page, 'history');
  const history = page.locator('.history a.guide-link');
  await history.waitFor({ timeout: 10_000 });
  const historyPage = await follow(page, await history.getAttribute('href'));
  assert(historyPage.status === 200 && historyPage.text.includes('Run history and replay'),
    `History's guide link leads to ${historyPage.url} (${historyPage.status})`);

  await openMode(page, 'run');
  await button(page, 'Lessons').click();
  const course = page.locator('.lessons-panel a.guide-link');
  await course.waitFor({ timeout: 15_000 });
  const coursePage = await follow(page, await course.getAttribute('href'));
  assert(coursePage.status === 200 && coursePage.text.includes('Lessons in the page'),
    `the course's guide link leads to ${coursePage.url} (${coursePage.status})`);
});
