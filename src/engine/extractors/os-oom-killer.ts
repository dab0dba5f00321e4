import { applyRules, type LineRule } from './rules.ts';
import type { Extractor } from './types.ts';

const RULES: readonly LineRule[] = [
  {
    // Kernel: "Out of memory: Killed process 1882 (python) total-vm:..."
    re: /Out of memory: Kill(?:ed)? process \d+ \(([^)\s]{1,64})\)/i,
    kind: 'os.oom-kill',
    values: (m) => ({ process: m[1] ?? 'unknown' }),
  },
  {
    re: /invoked oom-killer|oom-kill:|\bOOM killer\b/i,
    kind: 'os.oom-kill',
    values: () => ({ process: 'unknown' }),
  },
  // Dataflow's worker log when the VM's OOM killer ended an SDK or harness process.
  {
    re: /had to shut down one or more processes due to lack of memory/i,
    kind: 'os.oom-kill',
    values: () => ({ process: 'dataflow-worker' }),
  },
  // What a shell prints when its child got SIGKILL, alone on a line (maybe behind a docker-compose
  // service prefix); most often the OOM killer.
  { re: /^\s*(?:[\w.-]{1,64}\s+\|\s*)?Killed(?::\s*9)?\s*$/, kind: 'process.killed' },
  {
    re: /\b(?:died|exited|terminated|killed) (?:with|by) signal (?:9|SIGKILL)\b|\bSIGKILL\b/i,
    kind: 'process.killed',
  },
];

/** The operating system's OOM killer ending a process, and the shell's bare "Killed". */
export const osOomKiller: Extractor = {
  id: 'os-oom-killer',
  description:
    'Linux OOM killer messages, Dataflow "lack of memory" worker messages, and a bare "Killed" line',
  triggers: ['out of memory', 'oom-kill', 'oom killer', 'lack of memory', 'killed', 'signal', 'sigkill'],
  extract: (line) => applyRules(RULES, line),
};
