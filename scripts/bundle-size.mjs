// Prints the release bundle's sizes (raw, gzip, brotli) and checks them for
// what the page loads at first paint. Sizes are deterministic for a given
// build, so this is the one performance figure CI fails on.
//
// What the first paint loads: index.html, the CSS, the main JS and wasm, and
// the split loader the main JS imports. The split modules (split_*.wasm and
// their shared chunk_*.wasm, see scripts/wasm-split.mjs) are fetched when a
// feature first needs them, as are the split panels' stylesheets
// (PANEL_STYLES, linked when each is first drawn), and the service worker (sw.js, see
// static/offline.js) once the page is idle, so they are listed apart and not
// counted.
//
// The budget: 250 KiB brotli for everything loaded at first paint.
// The page paints without the split modules; the run engine and the
// built-ins' files among them are fetched right after (README "Performance"
// gives that figure too, from scripts/browser-bench.mjs).
//
// Usage: node scripts/bundle-size.mjs [dist-dir]   (after `trunk build
// --release`). Exits 1 over the budget.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, extname } from 'node:path';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

// Everything index.html loads before the page paints: the main wasm and
// JS, app.css, the split loader, index.html and offline.js. (Raised to 256
// KiB for a day in 2026-12 and won back; see git log.)
const BUDGET_BROTLI_BYTES = 250 * 1024;

const dist = process.argv[2] ?? 'dist';
let files;
try {
  files = readdirSync(dist).filter((f) => statSync(join(dist, f)).isFile());
} catch (err) {
  console.error(`bundle-size: cannot read ${dist}: ${err.message} (run trunk build --release first)`);
  process.exit(2);
}
const bundled = new Set(['.wasm', '.js', '.css', '.html']);
// The split panels' own stylesheets, linked when each is first drawn
// (src/browser/stylesheet.rs).
export const PANEL_STYLES = ['lessons.css', 'modes.css', 'waterfall.css', 'loop-full.css', 'inspector.css'];
const onDemand = (f) => /^(split|chunk)_.*\.wasm$/.test(f) || f === 'sw.js' || PANEL_STYLES.includes(f);
const rows = files
  .filter((f) => bundled.has(extname(f)))
  .map((f) => {
    const bytes = readFileSync(join(dist, f));
    return {
      file: f,
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
      brotli: brotliCompressSync(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      }).length,
    };
  })
  .sort((a, b) => b.brotli - a.brotli);
const first = rows.filter((r) => !onDemand(r.file));
const later = rows.filter((r) => onDemand(r.file));
if (first.length === 0) {
  console.error(`bundle-size: no .wasm/.js/.css/.html files in ${dist}`);
  process.exit(2);
}
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const pad = (s, n) => String(s).padStart(n);
const width = Math.max(44, ...rows.map((r) => r.file.length));
const line = (label, r) =>
  console.log(`${label.padEnd(width)} ${pad(kib(r.raw), 11)} ${pad(kib(r.gzip), 11)} ${pad(kib(r.brotli), 11)}`);
const sum = (list) => list.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, brotli: t.brotli + r.brotli }),
  { raw: 0, gzip: 0, brotli: 0 });
console.log(`${'file'.padEnd(width)} ${pad('raw', 11)} ${pad('gzip', 11)} ${pad('brotli', 11)}`);
for (const r of first) line(r.file, r);
const total = sum(first);
line('total at first paint', total);
if (later.length > 0) {
  console.log('loaded when a feature first needs it (sw.js: once the page is idle):');
  for (const r of later) line(r.file, r);
  line(`total of ${later.length} files (split modules, sw.js)`, sum(later));
}
const withinBudget = total.brotli <= BUDGET_BROTLI_BYTES;
console.log(
  `budget: ${kib(total.brotli)} brotli at first paint of ${kib(BUDGET_BROTLI_BYTES)} — ${withinBudget ? 'within' : 'OVER THE BUDGET'}`,
);

// Rust's float parser (`str::parse::<f64>`) carries a 10 KiB table of powers
// of five that brotli cannot shrink, so code the first paint reaches reads
// numbers with `harness::float_text::parse_f64` instead. The table's first
// entry (the high half of 5^-342, little-endian) marks it in a module.
const FLOAT_PARSER_TABLE = Buffer.from('5ad63b92d653f4ee', 'hex');
const parserIn = first.filter((r) => r.file.endsWith('.wasm') && readFileSync(join(dist, r.file)).includes(FLOAT_PARSER_TABLE));
for (const r of parserIn) {
  console.log(
    `${r.file} carries Rust's float parser and its 10 KiB table: a \`parse::<f64>()\` in code the first paint ` +
      'reaches; read the number with harness::float_text::parse_f64',
  );
}
process.exit(withinBudget && parserIn.length === 0 ? 0 : 1);
