// Reads the conformance suite's results (each scenario's checks.json under
// DIR/<scenario>/) and prints one line per scenario. Exits 1 unless every
// check of every scenario is SUCCESS: a WARNING or FAILURE fails, and so
// does a scenario with no results or no SUCCESS at all. INFO entries are
// the suite's log of the messages exchanged, not checks, and are counted
// apart.
// Usage: node verdict.mjs DIR SCENARIO...
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";

const [dir, ...scenarios] = process.argv.slice(2);

// The suite writes DIR/<scenario>/<scenario>-<time>/checks.json, so a
// scenario named auth/x has its file two folders further down.
function checkFiles(base) {
  if (!existsSync(base)) return [];
  return readdirSync(base, { recursive: true })
    .filter((path) => path.endsWith("checks.json"))
    .map((path) => join(base, path));
}
let failed = 0;
for (const scenario of scenarios) {
  const checks = [];
  const base = join(dir, scenario);
  for (const file of checkFiles(base)) checks.push(...JSON.parse(readFileSync(file, "utf8")));
  const count = (status) => checks.filter((c) => c.status === status).length;
  const bad = checks.filter((c) => c.status !== "SUCCESS" && c.status !== "INFO");
  const ok = checks.length > 0 && bad.length === 0 && count("SUCCESS") > 0;
  const line = `${ok ? "PASS" : "FAIL"} ${scenario}: ${count("SUCCESS")} SUCCESS, ${count("WARNING")} WARNING, ${count("FAILURE")} FAILURE (${count("INFO")} INFO log entries)`;
  console.log(line);
  if (checks.length === 0) console.log(`    no checks.json under ${base}: the suite did not run it`);
  for (const c of bad) console.log(`    ${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
  if (!ok) failed += 1;
}
if (failed) {
  console.log(`${failed} of ${scenarios.length} conformance scenarios did not pass every check`);
  process.exit(1);
}
console.log(`all ${scenarios.length} conformance scenarios: every check SUCCESS`);
