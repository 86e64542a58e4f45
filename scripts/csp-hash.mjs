// Trunk post_build hook: replaces the placeholder 'sha256-TRUNK-INLINE-SCRIPTS'
// in the Content-Security-Policy of the staged index.html with the sha256 of
// every inline <script> in that file (Trunk's module loader, which names the
// hashed file names, so its hash changes with every build), and the sha256 of
// sandbox/sandbox.js, the one inline script of the JavaScript tools' sandbox
// document (see src/browser/sandbox.rs).
//
// A CSP hash covers the script's exact text between <script ...> and
// </script>, so it is computed on the file as Trunk wrote it. It exits
// non-zero (failing the build) when the placeholder or the loader is missing,
// rather than ship a page whose policy blocks its own loader.
//
// Env: TRUNK_STAGING_DIR (set by Trunk). Usage by hand: node scripts/csp-hash.mjs DIR

import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const PLACEHOLDER = "'sha256-TRUNK-INLINE-SCRIPTS'";
const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('csp-hash: no TRUNK_STAGING_DIR and no directory argument');
  process.exit(1);
}
const file = join(dir, 'index.html');
const html = readFileSync(file, 'utf8');
const placeholders = html.split(PLACEHOLDER).length - 1;
if (placeholders !== 1) {
  console.error(`csp-hash: ${file} has ${placeholders} ${PLACEHOLDER}, expected one, in its Content-Security-Policy`);
  process.exit(1);
}
// Inline scripts only: a <script> with a src attribute is covered by 'self'.
const hashes = [];
for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
  if (/\bsrc\s*=/.test(match[1])) continue;
  const digest = createHash('sha256').update(match[2], 'utf8').digest('base64');
  hashes.push(`'sha256-${digest}'`);
}
if (hashes.length === 0) {
  console.error(`csp-hash: ${file} has no inline script; did Trunk's loader change?`);
  process.exit(1);
}
// The JavaScript tools' sandbox: src/browser/sandbox.rs loads it as the one
// inline script of a blob: document, which keeps this page's policy too.
const SANDBOX_SCRIPT = join(dir, 'sandbox', 'sandbox.js');
let sandbox;
try {
  sandbox = readFileSync(SANDBOX_SCRIPT);
} catch (err) {
  console.error(`csp-hash: cannot read ${SANDBOX_SCRIPT} (${err.message}); index.html's copy-dir of static/sandbox should write it`);
  process.exit(1);
}
hashes.push(`'sha256-${createHash('sha256').update(sandbox).digest('base64')}'`);
writeFileSync(file, html.replace(PLACEHOLDER, [...new Set(hashes)].join(' ')));
console.log(`csp-hash: ${hashes.length} inline script(s) allowed by hash in ${file} (the sandbox's among them)`);
