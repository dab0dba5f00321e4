// @ts-nocheck
import type { Finding } from '../facts.ts';
import type { Extractor } from './types.ts';

/** Exit codes that say something about memory, and what they mean where they are seen. */
const MEANINGS: Readonly<Record<string, { meaning: string; memory: 'strong' | 'weak' }>> = {
  '137': {
    meaning: 'killed with SIGKILL (128+9): on YARN and Kubernetes usually a memory kill',
    memory: 'weak',
  },
  '143': {
    meaning: 'stopped with SIGTERM (128+15): YARN sends it when it kills a container',
    memory: 'weak',
  },
  '-103': { meaning: 'YARN killed the container for exceeding its virtual memory limit', memory: 'strong' },
  '-104': { meaning: 'YARN killed the container for exceeding its physical memory limit', memory: 'strong' },
  '52': { meaning: 'a Spark executor exited because of an OutOfMemoryError', memory: 'strong' },
};

// "exit code 137", "Exit code:-103", "exitCode: -104", "exit status: 143", "exited with code 137".
// kubectl aligns its columns: "Exit Code:    137".
const EXIT = /\bexit(?:ed with)?[ _-]?(?:code|status)(?: is)?\s{0,8}[:=]?\s{0,8}(-?\d{1,3})\b/gi;

/** Exit codes of containers and processes that point at memory (137, 143, -103, -104, Spark's 52). */
export const exitCodes: Extractor = {
  id: 'exit-codes',
  description:
    'Exit codes that point at memory: 137/143 kills, YARN -103/-104 memory kills, Spark executor 52',
  triggers: ['exit'],
  extract(line) {
    const findings: Finding[] = [];
    const seen = new Set<string>();
    for (const match of line.matchAll(EXIT)) {
      const code = match[1] ?? '';
      const known = MEANINGS[code];
      if (!known || seen.has(code)) continue;
      seen.add(code);
      findings.push({ kind: `exit.${code}`, values: { code: Number(code), meaning: known.meaning } });
    }
    return findings;
  },
};
