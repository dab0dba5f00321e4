#!/usr/bin/env node
// Prints the per-file mutation score from Stryker's JSON report (mutation-testing-report-schema).
// Usage: node scripts/mutation-scores.mjs [reports/mutation/mutation.json] [--markdown] [--survivors]
// Score = (killed + timeout) / (killed + timeout + survived + no coverage), as Stryker computes it;
// ignored mutants (message text, see stryker-message-text.mjs) and compile errors do not count.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--')) ?? 'reports/mutation/mutation.json';
const markdown = args.includes('--markdown');
const survivors = args.includes('--survivors');
const report = JSON.parse(readFileSync(file, 'utf8'));

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

function count(mutants) {
  const c = { mutants: mutants.length, killed: 0, survived: 0, noCoverage: 0, ignored: 0 };
  for (const m of mutants) {
    if (DETECTED.has(m.status)) c.killed++;
    else if (m.status === 'Survived') c.survived++;
    else if (m.status === 'NoCoverage') c.noCoverage++;
    else if (m.status === 'Ignored') c.ignored++;
  }
  const valid = c.killed + c.survived + c.noCoverage;
  c.score = valid === 0 ? 100 : (100 * c.killed) / valid;
  return c;
}

const rows = Object.entries(report.files)
  .map(([name, f]) => ({ name, ...count(f.mutants) }))
  .sort((a, b) => a.name.localeCompare(b.name));
const total = count(Object.values(report.files).flatMap((f) => f.mutants));

const fmt = (n) => n.toFixed(1);
if (markdown) {
  console.log('| file | score | killed | survived | no coverage | ignored |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.name} | ${fmt(r.score)}% | ${r.killed} | ${r.survived} | ${r.noCoverage} | ${r.ignored} |`,
    );
  console.log(
    `| all | ${fmt(total.score)}% | ${total.killed} | ${total.survived} | ${total.noCoverage} | ${total.ignored} |`,
  );
} else {
  const width = Math.max(...rows.map((r) => r.name.length), 5);
  console.log(`${'file'.padEnd(width)}  score  killed  survived  nocov  ignored`);
  for (const r of [...rows, { name: 'all', ...total }])
    console.log(
      `${r.name.padEnd(width)}  ${fmt(r.score).padStart(5)}  ${String(r.killed).padStart(6)}  ${String(r.survived).padStart(8)}  ${String(r.noCoverage).padStart(5)}  ${String(r.ignored).padStart(7)}`,
    );
}

if (survivors) {
  for (const [name, f] of Object.entries(report.files)) {
    const lines = f.source.split('\n');
    for (const m of f.mutants.filter((x) => UNDETECTED.has(x.status))) {
      const at = m.location.start;
      const code = (lines[at.line - 1] ?? '').trim();
      console.log(`${name}:${at.line}:${at.column} ${m.status} ${m.mutatorName} -> ${m.replacement ?? ''}`);
      console.log(`    ${code.slice(0, 140)}`);
    }
  }
}
