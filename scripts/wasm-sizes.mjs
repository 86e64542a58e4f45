// Where the first paint's bytes go: splits cargo's release wasm the way the
// build does (wasm-split-cli, then wasm-bindgen), reads the main module's
// function names and body sizes, and prints them grouped by Rust path. The
// sizes are before wasm-opt and compression, so they rank, they do not add
// up to the budget (scripts/bundle-size.mjs measures that).
//
// Usage, after `trunk build --release`:
//   node scripts/wasm-sizes.mjs [--depth N] [--top N] [--save FILE] [--diff FILE]
// --depth: how many path segments to group by (default 2: `harness::event`);
// --save writes the grouped sizes as JSON; --diff prints the change against
// a saved file, largest first.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const depth = Number(option('--depth', '2'));
const top = Number(option('--top', '40'));
const raw = join(process.env.CARGO_TARGET_DIR ?? join(root, 'target'), 'wasm32-unknown-unknown', 'release', 'agent-loop-playground.wasm');

const work = mkdtempSync(join(tmpdir(), 'wasm-sizes-'));
let sizes;
try {
  execFileSync('wasm-split-cli', [raw, work, '--out-name', 'main', '--target', 'web'], { stdio: 'ignore' });
  execFileSync('wasm-bindgen', [join(work, 'main.wasm'), '--target', 'web', '--keep-lld-exports', '--no-demangle',
    '--no-typescript', '--keep-debug', '--out-dir', join(work, 'bindgen'), '--out-name', 'main'], { stdio: 'ignore' });
  sizes = functionSizes(readFileSync(join(work, 'bindgen', 'main_bg.wasm')));
} finally {
  rmSync(work, { recursive: true, force: true });
}

const groups = new Map();
for (const { name, bytes } of sizes) {
  const key = group(demangle(name), depth);
  groups.set(key, (groups.get(key) ?? 0) + bytes);
}
const total = sizes.reduce((t, f) => t + f.bytes, 0);
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const saveTo = option('--save');
if (saveTo) writeFileSync(saveTo, JSON.stringify(Object.fromEntries(groups), null, 1));
const diffFrom = option('--diff');
if (diffFrom) {
  const before = JSON.parse(readFileSync(diffFrom, 'utf8'));
  const keys = new Set([...Object.keys(before), ...groups.keys()]);
  const changes = [...keys]
    .map((k) => [k, (groups.get(k) ?? 0) - (before[k] ?? 0)])
    .filter(([, d]) => d !== 0)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
  const was = Object.values(before).reduce((t, n) => t + n, 0);
  console.log(`main module code: ${kib(was)} → ${kib(total)} (${total >= was ? '+' : ''}${kib(total - was)})`);
  for (const [k, d] of changes.slice(0, top)) console.log(`${(d > 0 ? '+' : '') + kib(d)}`.padStart(12), k);
} else {
  console.log(`main module code: ${kib(total)} in ${sizes.length} functions (before wasm-opt)`);
  for (const [k, n] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(kib(n).padStart(12), k);
  }
}

/** [{name, bytes}] of every function body in `bytes`, named by the name section. */
function functionSizes(bytes) {
  let at = 8;
  const u32 = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[at++];
      result |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result >>> 0;
      shift += 7;
    }
  };
  const names = new Map();
  let imported = 0;
  let bodies = [];
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = u32();
    const end = at + size;
    if (id === 2) {
      // Imports: functions among them take the first indices.
      const count = u32();
      for (let i = 0; i < count; i++) {
        at += u32(); // module
        at += u32(); // field
        const kind = bytes[at++];
        if (kind === 0) { u32(); imported++; }
        else if (kind === 1) { at++; const flags = u32(); u32(); if (flags & 1) u32(); }
        else if (kind === 2) { const flags = u32(); u32(); if (flags & 1) u32(); }
        else if (kind === 3) { at += 2; }
        else if (kind === 4) { at++; u32(); }
      }
    } else if (id === 10) {
      const count = u32();
      for (let i = 0; i < count; i++) {
        const length = u32();
        bodies.push(length);
        at += length;
      }
    } else if (id === 0) {
      const nameLength = u32();
      const section = new TextDecoder().decode(bytes.subarray(at, at + nameLength));
      at += nameLength;
      if (section === 'name') {
        while (at < end) {
          const sub = bytes[at++];
          const subSize = u32();
          const subEnd = at + subSize;
          if (sub === 1) {
            const count = u32();
            for (let i = 0; i < count; i++) {
              const index = u32();
              const length = u32();
              names.set(index, new TextDecoder().decode(bytes.subarray(at, at + length)));
              at += length;
            }
          }
          at = subEnd;
        }
      }
    }
    at = end;
  }
  return bodies.map((length, i) => ({ name: names.get(imported + i) ?? `func[${imported + i}]`, bytes: length }));
}

/** `_ZN7harness5event...17h<hash>E` → `harness::event::...`; others as they are. */
function demangle(name) {
  if (!name.startsWith('_ZN')) return name;
  const parts = [];
  let at = 3;
  while (at < name.length && name[at] !== 'E') {
    let digits = '';
    while (/[0-9]/.test(name[at])) digits += name[at++];
    if (!digits) break;
    const part = name.slice(at, at + Number(digits));
    at += Number(digits);
    if (!/^h[0-9a-f]{16}$/.test(part)) parts.push(part.replace(/\$LT\$/g, '<').replace(/\$GT\$/g, '>').replace(/\$u20\$/g, ' ').replace(/\.\./g, '::'));
  }
  return parts.join('::');
}

/** The first `depth` segments of a path, looking inside `<T as Trait>` to T. */
function group(path, depth) {
  const inner = path.match(/^_?<([^ >]+)/);
  const base = inner ? inner[1] : path;
  return base.split('::').slice(0, depth).join('::') || path;
}
