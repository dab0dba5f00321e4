import type { BookContents, Fact } from '../facts.ts';
import type { EngineHint } from '../hints.ts';
import { formatSize } from '../units.ts';
import { formatCite } from './diagnose-case.ts';
import { limitOf, untilLimit } from './refine/refine.ts';

/**
 * What a group of inputs no playbook matched still shows (a kill, a growth, a growing line), each
 * cited `input:line`, so "no known problem" is not all the answer says; and the system whose
 * playbook would read them, when the inputs show its process but cannot show the system.
 */
export interface Unmatched {
  shown: string[];
  ifEngine?: { engine: EngineHint; playbook: string; why: string };
}

interface Input {
  name: string;
  book: BookContents;
}

type Said = (fact: Fact, limit: number | undefined) => string | undefined;

const str = (v: unknown) => (typeof v === 'string' && v !== 'unknown' ? v : undefined);
const size = (v: unknown) => (typeof v === 'number' ? formatSize(v) : undefined);

/** One sentence per fact kind that says something about memory on its own; the first of each kind. */
const SAID: Readonly<Record<string, Said>> = {
  'os.oom-kill': (f) => {
    const process = str(f.values?.process);
    return process ? `the kernel's OOM killer ended ${process}` : undefined;
  },
  'os.memcg-limit': (f) => {
    const limit = size(f.values?.limitBytes);
    return limit ? `its memory cgroup was at its ${limit} limit` : undefined;
  },
  'container.killed-memory': (f) => {
    const [used, limit] = [size(f.values?.usedBytes), size(f.values?.limitBytes)];
    return used && limit ? `the container was killed using ${used} of its ${limit} limit` : undefined;
  },
  'memory.growing': (f, limit) => {
    const rate = size(f.values?.rateBytesPerSecond);
    const growth =
      typeof f.values?.growthShare === 'number' ? Math.round(f.values.growthShare * 100) : undefined;
    if (!rate) return growth !== undefined ? `memory climbs sample after sample (+${growth}%)` : undefined;
    return `memory climbs at ${rate}/s without levelling off${untilLimit(f, limit)}`;
  },
  'python.growing-allocator': (f) => {
    const [where, bytes] = [str(f.values?.location), size(f.values?.bytes)];
    return where && bytes
      ? `tracemalloc shows ${where} holding ${bytes} more than the earlier snapshot`
      : undefined;
  },
};

/** A process the inputs show is Python: the kernel named it, or a Python profiler wrote an input. */
function pythonProcess(facts: readonly Fact[]): boolean {
  return facts.some(
    (f) =>
      (f.kind === 'os.oom-kill' && /^python/i.test(str(f.values?.process) ?? '')) ||
      f.kind === 'python.growing-allocator' ||
      f.kind === 'parsed.tracemalloc' ||
      f.kind === 'parsed.memray',
  );
}

/** The engine to name: a Python process killed or leaking is what Beam's Python leak playbook reads. */
function engineFor(facts: readonly Fact[], engine: EngineHint | undefined): Unmatched['ifEngine'] {
  // A system the user named, or one an input names, was already given its playbooks.
  if (engine || facts.some((f) => f.kind.startsWith('engine.')) || !pythonProcess(facts)) return undefined;
  const memory = facts.some((f) =>
    ['os.oom-kill', 'memory.growing', 'python.growing-allocator'].includes(f.kind),
  );
  if (!memory) return undefined;
  return {
    engine: 'beam',
    playbook: 'beam-python-leak',
    why: 'Nothing in them names Beam (an SDK harness log would), so it was not applied.',
  };
}

/** What a group no playbook matched shows, from each input's own facts, in input order. */
export function unmatchedOf(inputs: readonly Input[], engine: EngineHint | undefined): Unmatched {
  const limit = limitOf(inputs);
  const shown: string[] = [];
  const all: Fact[] = [];
  for (const input of inputs)
    for (const group of input.book.groups) {
      all.push(...group.first);
      const say = SAID[group.kind];
      // The first fact of the kind that says something (the kernel's summary line names no process).
      const said = say && group.first.map((fact) => ({ fact, text: say(fact, limit) })).find((s) => s.text);
      if (said) shown.push(`${formatCite({ input: input.name, line: said.fact.line })}: ${said.text}`);
    }
  const ifEngine = engineFor(all, engine);
  return { shown, ...(ifEngine ? { ifEngine } : {}) };
}
