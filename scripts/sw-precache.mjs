// Trunk post_build hook (after wasm-split and csp-hash, which change files):
// writes the service worker, sw.js, beside index.html from its template
// src/browser/sw.js, with the list of files to cache for offline use and the
// cache's version filled in from the build itself, so the list is never
// stale:
//   - the files: every file the build wrote (index.html as the page itself,
//     the CSS (the split panels' own stylesheets too), the main JS and wasm,
//     the split loader, every split wasm module, the JS sandbox, the
//     manifest and its icons); sw.js is not one;
//   - the version: the first 16 hex digits of a sha256 over every listed
//     file's path and content, so any change in any file is a new version
//     (and a new sw.js, which is what makes the browser update the worker).
// Release builds minify it with esbuild, as scripts/wasm-split.mjs does, and
// static/offline.js too (see below).
// It exits non-zero, failing the build, when the template or a placeholder is
// missing.
//
// Env: TRUNK_STAGING_DIR, TRUNK_PROFILE (set by Trunk).
// By hand (e.g. after changing a file in a built dist/): node scripts/sw-precache.mjs DIR

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TEMPLATE = join(root, 'src', 'browser', 'sw.js');
const WORKER = 'sw.js';
const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) fail('no TRUNK_STAGING_DIR and no directory argument');

/** Every file under `at`, as a path relative to `dir` with '/' separators. */
function files(at) {
  return readdirSync(at, { withFileTypes: true }).flatMap((entry) => {
    const path = join(at, entry.name);
    if (entry.isDirectory()) return files(path);
    return entry.isFile() ? [relative(dir, path).split(sep).join('/')] : [];
  });
}

// offline.js (static/, copied as written) is part of the first paint, whose
// budget is tight: a release build minifies it here, before the version is
// hashed from it.
// The split panels' stylesheets (static/, copied as written, linked when each
// panel is first drawn) are minified likewise, as Trunk minifies the first
// paint's CSS.
if (process.env.TRUNK_PROFILE === 'release') {
  for (const [file, loader] of [['offline.js', 'js'], ['lessons.css', 'css'], ['modes.css', 'css'], ['waterfall.css', 'css'], ['loop-full.css', 'css'], ['inspector.css', 'css']]) {
    const path = join(dir, file);
    try {
      writeFileSync(path, transformSync(readFileSync(path, 'utf8'), { loader, minify: true }).code);
    } catch (err) {
      fail(`could not minify ${path} (${err.message})`);
    }
  }
}

const listed = files(dir)
  .filter((file) => file !== WORKER)
  .sort();
if (!listed.includes('index.html')) fail(`${dir} has no index.html`);
const version = createHash('sha256');
for (const file of listed) version.update(`${file}\0`).update(readFileSync(join(dir, file))).update('\0');
// The page is cached under the scope's own URL: that is what a visit asks for.
const precache = listed.map((file) => (file === 'index.html' ? '' : file));

let worker;
try {
  worker = readFileSync(TEMPLATE, 'utf8');
} catch (err) {
  fail(`cannot read the template ${TEMPLATE}: ${err.message}`);
}
worker = fill(worker, "'__PRECACHE_VERSION__'", JSON.stringify(version.digest('hex').slice(0, 16)));
worker = fill(worker, '__PRECACHE_FILES__', JSON.stringify(precache));
if (process.env.TRUNK_PROFILE === 'release') {
  try {
    worker = transformSync(worker, { loader: 'js', minify: true }).code;
  } catch (err) {
    fail(`esbuild could not minify ${WORKER} (${err.message}); scripts/setup.sh installs it`);
  }
}
writeFileSync(join(dir, WORKER), worker);
console.log(`sw-precache: ${WORKER} caches ${precache.length} files for offline use`);

function fill(text, placeholder, value) {
  const count = text.split(placeholder).length - 1;
  if (count !== 1) fail(`expected ${placeholder} once in ${TEMPLATE}, found it ${count} times`);
  return text.replace(placeholder, value);
}

function fail(message) {
  console.error(`sw-precache: ${message}`);
  process.exit(1);
}
