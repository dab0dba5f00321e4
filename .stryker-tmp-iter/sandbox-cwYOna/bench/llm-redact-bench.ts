/**
 * Redaction and line-selection cost, on ordinary lines and on adversarial ones (long runs of the
 * characters the rules' quantifiers accept), so a quadratic regex shows up here and not in a
 * test's timing. Run: npx tsx bench/llm-redact-bench.ts
 */
// @ts-nocheck

import { REDACTION_RULES, redact } from '../src/llm/redact.ts';
import { LineSelector } from '../src/llm/select.ts';

const N = 16_384; // the engine's longest line

const ADVERSARIAL: Record<string, string> = {
  'dotted word': 'a.'.repeat(N / 2),
  'e-mail-like': `a@${'b.'.repeat(N / 2 - 1)}`,
  'scheme-like': `${'a+'.repeat(N / 2)}@`,
  'sk- runs': 'sk-'.repeat(N / 3),
  'JWT-like': 'eyJaaaaaaaaa.'.repeat(N / 13),
  'PEM headers': '-----BEGIN PRIVATE KEY-----'.repeat(N / 27),
  'password=': 'password='.repeat(N / 9),
};

function time(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

for (const [name, text] of Object.entries(ADVERSARIAL)) {
  const total = time(() => redact(text));
  const worst = REDACTION_RULES.map((rule) => ({
    kind: rule.kind,
    ms: time(() => text.replace(rule.pattern, (m) => m)),
  })).sort((a, b) => b.ms - a.ms)[0];
  console.log(
    `${name.padEnd(14)} ${total.toFixed(1).padStart(7)} ms   slowest rule ${worst?.kind} ${worst?.ms.toFixed(1)} ms`,
  );
}

const ordinary = Array.from({ length: 100_000 }, (_, i) =>
  i % 97 === 0
    ? `26/11/29 10:00:00 ERROR Executor: task ${i} failed, 7.5 GB of 8 GB used`
    : `26/11/29 10:00:00 INFO TaskSetManager: Finished task ${i}.0 in stage 3.0 (TID ${i}) in 512 ms on 10.0.0.${i % 250}`,
);
const redactMs = time(() => {
  for (const line of ordinary) redact(line);
});
console.log(
  `redact, 100k ordinary lines: ${redactMs.toFixed(0)} ms (${((redactMs * 1000) / ordinary.length).toFixed(1)} µs/line)`,
);
const selectMs = time(() => new LineSelector().push(ordinary));
console.log(
  `select, 100k ordinary lines: ${selectMs.toFixed(0)} ms (${((selectMs * 1000) / ordinary.length).toFixed(1)} µs/line)`,
);
