// Part of the wasm-split post-build hook (scripts/wasm-split.mjs): fewer,
// larger split files for the modules a first visit loads anyway.
//
// wasm-split-cli puts every function that several split modules need into a
// shared chunk of its own, one per set of modules that need it: ~350 files,
// 163 of them for the run engine alone. Each is fetched on its own (a round
// trip each, on a classroom's 3G) and brotli compresses each alone, so the
// engine cost 307 KiB in 163 files where the same bytes in one file are 252.
//
// So each split module in FIRST_VISIT, in that order, takes into one file
// with itself every chunk it needs that an earlier one has not taken. A chunk
// no first-visit module needs stays as it is. A module that needs a chunk now
// inside such a group loads the whole group instead (a module the first
// visit loads anyway). Each chunk is still instantiated exactly once: its
// data segments initialise memory, and a second instance would overwrite
// what the program has since written there.
//
// The chunks link to nothing but the main module's memory, table and stack
// pointer (calls between modules go through the shared function table), so
// a group is the plain union of its members: binaryen's wasm-merge, with a
// small first module standing for the main module so that the union imports
// those three once.

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import binaryen from 'binaryen';

/**
 * The split modules a first visit with its first run fetches without any
 * other click, in the order the page asks for them (`node scripts/bench.mjs`
 * prints the waterfall): the loop diagram is painted right after the page,
 * so it comes before the engine and does not wait for it. The run files are
 * not here: they are fetched when their menu (in the trace's heading) first
 * opens.
 * Names are the `#[lazy]` functions' names; a list of names is one file for
 * all of them.
 */
export const FIRST_VISIT = [
  'loop_panel',
  'engine',
  // Not in one file with the engine: tried, and a first run ended later on
  // every profile (local 650 -> 767 ms, 3G 3.4 -> 3.8 s, medians of 3).
  'timeline',
  'rejections',
  'run_replay',
  'record_jsonl',
  // Fetched once no run needs the network (`Controller::quiet`): after a
  // first run clicked at once, while the person reads otherwise. A module
  // here must come after every module a first run fetches: an earlier
  // group takes the chunks it shares with a later one, and the later one
  // then fetches the earlier group's file too.
  'editor_form',
  'inspector_panel',
  'run_state_panel',
  'model_settings',
  'builtin_json',
];

/** The module name the split modules import the main module's exports from. */
const MAIN = '__wasm_split';
/** Same length as MAIN, so the merged module's import names can be put back in place. */
const STAND_IN = '__wasm_splix';

/**
 * Groups the files of `work` (wasm-split-cli's output, modules already
 * optimised in release builds) and rewrites its loader to fetch the groups.
 * `optimize(module)` runs on each merged module; `fail(message)` ends the build.
 */
export function groupSplitModules(work, loaderFile, wasmMerge, { optimize, fail }) {
  const loader = parseLoader(readFileSync(join(work, loaderFile), 'utf8'), fail);
  const owner = new Map(); // chunk variable → the group that took it
  const groups = [];
  for (const entry of FIRST_VISIT) {
    const names = [entry].flat();
    const splits = names.map((short) => {
      const split = loader.splits.find((s) => s.short === short);
      if (!split) fail(`FIRST_VISIT names "${short}", which is no #[lazy] function any more: update scripts/wasm-group.mjs`);
      return split;
    });
    const deps = [...new Set(splits.flatMap((split) => split.deps))];
    const taken = deps.filter((dep) => !owner.has(dep));
    const needs = [...new Set(deps.filter((dep) => owner.has(dep)).map((dep) => owner.get(dep)))];
    const group = { splits, names, variable: `__group_${names[0]}`, chunks: taken, needs };
    for (const dep of taken) owner.set(dep, group);
    groups.push(group);
    const members = [...splits.map((split) => split.file), ...taken.map((dep) => loader.chunks.get(dep).file)];
    merge(members.map((file) => join(work, file)), join(work, splits[0].file), wasmMerge, { optimize, fail });
    for (const file of members.slice(1)) rmSync(join(work, file));
  }
  const written = writeLoader(loader, groups, owner);
  // Each file fetched by exactly one loader: a file instantiated twice would
  // initialise its data again over what the program wrote since.
  const fetched = [...written.matchAll(/new URL\("\.\/([^"]+\.wasm)"/g)].map((m) => m[1]);
  const files = readdirSync(work).filter((f) => /^(split|chunk)_.*\.wasm$/.test(f));
  for (const file of new Set([...fetched, ...files])) {
    const times = fetched.filter((f) => f === file).length;
    if (times !== 1) fail(`the grouped loader fetches ${file} ${times} times`);
  }
  writeFileSync(join(work, loaderFile), written);
  return groups.map((g) => ({ short: g.names.join('+'), members: g.splits.length + g.chunks.length }));
}

/**
 * The loader wasm-split-cli writes: a prelude, then one `const __chunk_N =
 * makeLoad(fetcher, [])` per chunk and one `export const
 * __wasm_split_load_NAME = wrapAsyncCb(makeLoad(fetcher, [chunks]))` per
 * split module.
 */
function parseLoader(text, fail) {
  const firstChunk = text.search(/^\/\* .* \*\/\nconst __chunk_/m);
  const firstSplit = text.search(/^export const __wasm_split_load_/m);
  const start = Math.min(...[firstChunk, firstSplit].filter((i) => i >= 0));
  if (!Number.isFinite(start)) fail('the split loader has no modules: did wasm-split-cli change its output?');
  const fetcher = String.raw`makeLoad\(\(\) => \{\n    const src = fetch\(new URL\("\./([^"]+)", import\.meta\.url\)\);\n    return async \(imports\) => \(WebAssembly\.instantiateStreaming\(src, imports\)\);\n\}\n, \[([^\]]*)\]\)`;
  const chunks = new Map();
  for (const [, variable, file] of text.matchAll(new RegExp(String.raw`const (__chunk_\d+) = ${fetcher};`, 'g'))) {
    chunks.set(variable, { file });
  }
  const splits = [];
  for (const [, name, file, deps] of text.matchAll(new RegExp(String.raw`export const __wasm_split_load_(\w+) = wrapAsyncCb\(${fetcher}\);`, 'g'))) {
    splits.push({ name, short: name.replace(/_\d+$/, ''), file, deps: deps ? deps.split(', ') : [] });
  }
  const declared = (text.slice(start).match(/^(?:const __chunk_|export const )/gm) ?? []).length;
  if (declared !== chunks.size + splits.length) {
    fail(`read ${chunks.size + splits.length} of the split loader's ${declared} modules: did wasm-split-cli change its output?`);
  }
  for (const split of splits) for (const dep of split.deps) if (!chunks.has(dep)) fail(`the split loader's ${split.name} needs an unknown ${dep}`);
  return { prelude: text.slice(0, start), chunks, splits };
}

function writeLoader(loader, groups, owner) {
  const load = (file, deps) =>
    `makeLoad(() => {\n    const src = fetch(new URL("./${file}", import.meta.url));\n` +
    `    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));\n}\n, [${deps.join(', ')}])`;
  const lines = [loader.prelude.trimEnd()];
  for (const [variable, { file }] of loader.chunks) if (!owner.has(variable)) lines.push(`const ${variable} = ${load(file, [])};`);
  // Each group needs only groups before it, so declaring them in order is enough.
  for (const group of groups) lines.push(`const ${group.variable} = ${load(group.splits[0].file, group.needs.map((g) => g.variable))};`);
  for (const split of loader.splits) {
    const group = groups.find((g) => g.splits.includes(split));
    if (group) {
      lines.push(`export const __wasm_split_load_${split.name} = wrapAsyncCb(${group.variable});`);
      continue;
    }
    const deps = [...new Set(split.deps.map((dep) => owner.get(dep)?.variable ?? dep))];
    lines.push(`export const __wasm_split_load_${split.name} = wrapAsyncCb(${load(split.file, deps)});`);
  }
  return `${lines.join('\n')}\n`;
}

/** `files` merged into `out`: one module with their functions, table entries and data. */
function merge(files, out, wasmMerge, { optimize, fail }) {
  let features = 0;
  let tableMin = 0;
  let memoryMin = 0;
  for (const file of files) {
    const module = binaryen.readBinary(readFileSync(file));
    features |= module.getFeatures();
    for (let i = 0; i < module.getNumTables(); i += 1) tableMin = Math.max(tableMin, binaryen.getTableInfo(module.getTableByIndex(i)).initial);
    if (module.hasMemory()) memoryMin = Math.max(memoryMin, module.getMemoryInfo().initial);
    for (let i = 0; i < module.getNumFunctions(); i += 1) {
      const info = binaryen.getFunctionInfo(module.getFunctionByIndex(i));
      if (info.module) fail(`${file} imports the function ${info.module}.${info.base}: a group can only merge modules that link through the table`);
    }
    for (let i = 0; i < module.getNumExports(); i += 1) {
      fail(`${file} exports ${binaryen.getExportInfo(module.getExportByIndex(i)).name}: a group can only merge modules that export nothing`);
    }
    module.dispose();
  }
  // The main module's three exports, imported once and re-exported to the members.
  const standIn = binaryen.parseText(`(module
    (import "${STAND_IN}" "__wasm_split_shared0" (global $stack (mut i32)))
    (import "${STAND_IN}" "__indirect_function_table" (table $table ${tableMin} funcref))
    (import "${STAND_IN}" "memory" (memory $memory ${memoryMin}))
    (export "__wasm_split_shared0" (global $stack))
    (export "__indirect_function_table" (table $table))
    (export "memory" (memory $memory)))`);
  const standInFile = `${out}.main.wasm`;
  writeFileSync(standInFile, standIn.emitBinary());
  standIn.dispose();
  const args = [standInFile, MAIN];
  files.forEach((file, i) => args.push(file, `member${i}`));
  try {
    execFileSync(wasmMerge, [...args, ...featureFlags(features, fail), '-o', out], { stdio: ['ignore', 'inherit', 'inherit'] });
  } catch (err) {
    fail(`wasm-merge failed on ${files.length} modules for ${out} (${err.message}); scripts/setup.sh installs it`);
  } finally {
    rmSync(standInFile, { force: true });
  }
  // Put the imports' module name back (both names are 12 bytes, so the import section keeps its size).
  const bytes = Buffer.from(readFileSync(out).toString('latin1').replaceAll(`\x0c${STAND_IN}`, `\x0c${MAIN}`), 'latin1');
  const merged = binaryen.readBinary(bytes);
  try {
    merged.setFeatures(features);
    for (const name of ['__wasm_split_shared0', '__indirect_function_table', 'memory']) merged.removeExport(name);
    if (!merged.validate()) fail(`the merged ${out} is not valid wasm`);
    optimize(merged);
    writeFileSync(out, merged.emitBinary());
  } finally {
    merged.dispose();
  }
}

/** The wasm-merge flags that enable `features` (a binaryen.Features mask): the
 * stand-in comes first and has no target_features section, so the merged
 * module would otherwise validate as MVP wasm. */
function featureFlags(features, fail) {
  const flags = {
    Atomics: 'threads',
    MutableGlobals: 'mutable-globals',
    NontrappingFPToInt: 'nontrapping-float-to-int',
    SIMD128: 'simd',
    BulkMemory: 'bulk-memory',
    SignExt: 'sign-ext',
    ExceptionHandling: 'exception-handling',
    TailCall: 'tail-call',
    ReferenceTypes: 'reference-types',
    Multivalue: 'multivalue',
    GC: 'gc',
    Memory64: 'memory64',
    RelaxedSIMD: 'relaxed-simd',
    ExtendedConst: 'extended-const',
    Strings: 'strings',
    MultiMemory: 'multimemory',
    BulkMemoryOpt: 'bulk-memory-opt',
    CallIndirectOverlong: 'call-indirect-overlong',
  };
  const enabled = [];
  let known = 0;
  for (const [name, flag] of Object.entries(flags)) {
    known |= binaryen.Features[name];
    if (features & binaryen.Features[name]) enabled.push(`--enable-${flag}`);
  }
  if (features & ~known) fail(`the split modules use wasm features scripts/wasm-group.mjs cannot name (mask ${features & ~known})`);
  return enabled;
}
