// Checks the built guide's internal links: every relative href or src in
// every page names a file of the build, and every #fragment an element id
// in the page it points at. Links out (http:, https:, mailto:) are not
// followed: CI has no network, and their words are the source they cite.
// Nor are links from the site's root (`/`, mdBook's 404 page's "home"):
// where they lead depends on where the site is hosted.
//
// Usage: node scripts/book-links.mjs BOOK_DIR   (after scripts/book-build.sh)
// Prints each broken link with the page it is on; exits 1 if there is any.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const book = resolve(process.argv[2] ?? 'docs/book');
if (!existsSync(join(book, 'index.html'))) {
  console.error(`book-links: no index.html in ${book} (build the guide first: sh scripts/book-build.sh DIR)`);
  process.exit(2);
}

const pages = (function walk(at) {
  return readdirSync(at).flatMap((name) => {
    const path = join(at, name);
    if (statSync(path).isDirectory()) return walk(path);
    return path.endsWith('.html') ? [path] : [];
  });
})(book);

const idsOf = new Map();
function ids(page) {
  if (!idsOf.has(page)) {
    const html = readFileSync(page, 'utf8');
    idsOf.set(page, new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1])));
  }
  return idsOf.get(page);
}

const broken = [];
let checked = 0;
for (const page of pages) {
  const html = readFileSync(page, 'utf8');
  for (const [, link] of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
    if (/^(?:[a-z]+:|\/)/i.test(link) || link === '') continue;
    checked += 1;
    const [path, fragment] = link.split('#');
    const target = path === '' ? page : resolve(dirname(page), decodeURIComponent(path));
    const where = relative(book, page).split(sep).join('/');
    if (!target.startsWith(book) || !existsSync(target)) {
      broken.push(`${where}: ${link} names no file of the guide`);
    } else if (fragment && target.endsWith('.html') && !ids(target).has(decodeURIComponent(fragment))) {
      broken.push(`${where}: ${link} names no heading or anchor in ${relative(book, target)}`);
    }
  }
}
for (const line of broken) console.error(`book-links: ${line}`);
console.log(`book-links: ${checked} internal links in ${pages.length} pages, ${broken.length} broken`);
process.exit(broken.length === 0 ? 0 : 1);
