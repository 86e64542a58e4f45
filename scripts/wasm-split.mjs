// Trunk post_build hook: code splitting. A function marked `#[lazy]` (Leptos)
// moves, with the code only it reaches, into its own wasm file that is fetched
// the first time the function is called, so the first paint loads less.
//
// Trunk cannot split wasm (trunk-rs/trunk#1022), so after Trunk's build this
// redoes its last steps the way cargo-leptos does:
//   1. wasm-split-cli splits cargo's raw output (linked with --emit-relocs, see
//      .cargo/config.toml) into the main module, one module per split point,
//      shared chunks, and the loader __wasm_split.js;
//   2. wasm-bindgen processes the main module with --keep-lld-exports (the
//      split modules link against its exports) and replaces Trunk's JS and
//      wasm under the same hashed names, so Trunk's loader stays as it is;
//   3. in release builds binaryen's -O2 shrinks every module (index.html sets
//      data-wasm-opt="0": Trunk's own pass would be thrown away), in this
//      process through binaryen's JS API: the wasm-opt command is the same
//      binaryen compiled to JS, and starting it once per module (~290 of
//      them) cost half a second each, five of the hook's six minutes;
//   4. in release builds the modules a first visit loads anyway each take,
//      into one file, the shared chunks they need (scripts/wasm-group.mjs:
//      one file fetched and compressed whole instead of up to 163), and the
//      loader is rewritten;
//   5. the split files get a content hash in their names, so a new build is
//      never served from a stale cache;
//   6. in release builds esbuild minifies the JS it writes (Trunk's own
//      minifier only saw the files this replaces);
//   7. the subresource-integrity hashes Trunk wrote into index.html are
//      recomputed for the files that changed.
// It exits non-zero, failing the build, on any step that fails.
//
// Env: TRUNK_STAGING_DIR and TRUNK_PROFILE (set by Trunk), CARGO_TARGET_DIR;
// WASM_KEEP_NAMES=1 keeps function names in release modules, for a profile
// that names Rust functions (the modules grow; never for a shipped build).

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import binaryen from 'binaryen';
import { transformSync } from 'esbuild';
import { groupSplitModules } from './wasm-group.mjs';

const CRATE = 'agent-loop-playground';
const LOADER = '__wasm_split.js';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const staging = process.env.TRUNK_STAGING_DIR;
const profile = process.env.TRUNK_PROFILE === 'release' ? 'release' : 'debug';
if (!staging) fail('no TRUNK_STAGING_DIR: run it as a Trunk hook');

const targetDir = process.env.CARGO_TARGET_DIR ? resolve(root, process.env.CARGO_TARGET_DIR) : join(root, 'target');
const raw = join(targetDir, 'wasm32-unknown-unknown', profile, `${CRATE}.wasm`);
const js = readdirSync(staging).find((f) => new RegExp(`^${CRATE}-[0-9a-f]+\\.js$`).test(f));
if (!js) fail(`no ${CRATE}-<hash>.js in ${staging}: did Trunk's output change?`);
const name = js.slice(0, -'.js'.length);

const work = mkdtempSync(join(tmpdir(), 'wasm-split-'));
try {
  run('wasm-split-cli', [raw, work, '--out-name', name, '--target', 'web']);
  const bindgen = join(work, 'bindgen');
  run('wasm-bindgen', [join(work, `${name}.wasm`), '--target', 'web', '--keep-lld-exports', '--no-demangle',
    '--no-typescript', '--out-dir', bindgen, '--out-name', name]);

  const wasmFiles = () => readdirSync(work).filter((f) => f.endsWith('.wasm') && f !== `${name}.wasm`);
  const modules = [join(bindgen, `${name}_bg.wasm`), ...wasmFiles().map((f) => join(work, f))];
  if (profile === 'release') for (const module of modules) shrink(module);
  setOptimizerOptions();
  // Release builds only, like -O2: a debug build's modules also import
  // wasm-split's canary, and its loader wraps each instantiation to explain
  // a canary mismatch; nothing ships from it.
  const groups =
    profile === 'release'
      ? groupSplitModules(work, LOADER, join(root, 'node_modules', '.bin', 'wasm-merge'), {
          optimize: (module) => module.optimize(),
          fail,
        })
      : [];
  const splits = wasmFiles();

  // Content-hashed split files, named in the loader; then the loader itself,
  // named in the main JS.
  let loader = readFileSync(join(work, LOADER), 'utf8');
  for (const file of splits) {
    const hashed = hashedName(file, readFileSync(join(work, file)));
    loader = replaceOnce(loader, `"./${file}"`, `"./${hashed}"`, LOADER);
    copyFileSync(join(work, file), join(staging, hashed));
  }
  let mainJs = readFileSync(join(bindgen, `${name}.js`), 'utf8');
  // Without a #[lazy] function the main module imports no loader.
  if (splits.length > 0) {
    loader = minified(loader, LOADER);
    const loaderName = hashedName(LOADER, Buffer.from(loader));
    writeFileSync(join(staging, loaderName), loader);
    // One import per split point, all of the same loader.
    mainJs = replaceAll(mainJs, `from "./${LOADER}"`, `from "./${loaderName}"`, `${name}.js`);
  }
  writeFileSync(join(staging, `${name}.js`), minified(mainJs, `${name}.js`));
  copyFileSync(join(bindgen, `${name}_bg.wasm`), join(staging, `${name}_bg.wasm`));

  fixIntegrity([`${name}.js`, `${name}_bg.wasm`]);
  const grouped = groups.map((g) => `${g.short} (${g.members})`).join(', ') || 'none';
  console.log(`wasm-split: ${splits.length} split file(s) beside ${name}_bg.wasm (${profile}); grouped: ${grouped}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

function run(command, args) {
  try {
    execFileSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  } catch (err) {
    fail(`${command} failed (${err.message}); scripts/setup.sh installs it`);
  }
}

/**
 * `wasm-opt -O2 --low-memory-unused module -o module` (see
 * `setOptimizerOptions`), with binaryen 132 from npm (Trunk.toml pins
 * the same version; Debian's 108 breaks the module). The features are the
 * ones the module's target_features section names, as wasm-opt reads them.
 */
function shrink(module) {
  setOptimizerOptions();
  let wasm;
  try {
    wasm = binaryen.readBinary(readFileSync(module));
    if (!wasm.validate()) fail(`${module} is not valid wasm before optimizing`);
    wasm.optimize();
    writeFileSync(module, wasm.emitBinary());
  } catch (err) {
    fail(`binaryen could not optimize ${module} (${err.message}); scripts/setup.sh installs it`);
  } finally {
    wasm?.dispose();
  }
}

/**
 * -O2, not -Oz: what is measured is the compressed size, and -Oz's smaller
 * output compresses worse. On this page -O2's main module is 7% larger raw
 * but 1.2 KiB smaller brotli than -Oz's, and a first visit 4 KiB smaller.
 *
 * And `--low-memory-unused`: the first 1 KiB of memory is never read
 * or written, so a constant address offset can fold into a load or store
 * (about 1 KiB brotli off the main module alone). True of Rust's wasm
 * output: wasm-ld puts the 1 MiB stack first, growing down towards 0, and
 * the data after it (the main module's data starts at 1048576), so only a
 * stack overflow reaches that low. The option is binaryen's
 * `lowMemoryUnused` (https://github.com/WebAssembly/binaryen/blob/main/src/pass.h).
 */
function setOptimizerOptions() {
  binaryen.setOptimizeLevel(2);
  binaryen.setShrinkLevel(0);
  binaryen.setLowMemoryUnused(true);
  binaryen.setDebugInfo(process.env.WASM_KEEP_NAMES === '1');
}

/** Release builds minify the JS they write, as Trunk's `minify` does its own. */
function minified(code, where) {
  if (profile !== 'release') return code;
  try {
    return transformSync(code, { loader: 'js', format: 'esm', minify: true }).code;
  } catch (err) {
    fail(`esbuild could not minify ${where} (${err.message}); scripts/setup.sh installs it`);
  }
}

function hashedName(file, bytes) {
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const dot = file.lastIndexOf('.');
  return `${file.slice(0, dot)}-${hash}${file.slice(dot)}`;
}

function replaceOnce(text, from, to, where) {
  const count = text.split(from).length - 1;
  if (count !== 1) fail(`expected ${from} once in ${where}, found it ${count} times`);
  return text.replace(from, to);
}

function replaceAll(text, from, to, where) {
  if (!text.includes(from)) fail(`expected ${from} in ${where}`);
  return text.replaceAll(from, to);
}

/** Trunk hashed the files it wrote; these were replaced, so hash them again. */
function fixIntegrity(files) {
  const file = join(staging, 'index.html');
  let html = readFileSync(file, 'utf8');
  for (const changed of files) {
    const digest = createHash('sha384').update(readFileSync(join(staging, changed))).digest('base64');
    // Quoted as Trunk writes it, or bare as its release minifier does.
    const link = new RegExp(`(href="?[^"\\s>]*/${changed.replace(/\./g, '\\.')}"?[^>]*integrity="?)sha384-[^"\\s>]*`);
    if (!link.test(html)) fail(`index.html has no integrity for ${changed}: did Trunk's output change?`);
    html = html.replace(link, `$1sha384-${digest}`);
  }
  writeFileSync(file, html);
}

function fail(message) {
  console.error(`wasm-split: ${message}`);
  process.exit(1);
}
