import type { BookContents, Fact } from '../../facts.ts';
import { formatSize } from '../../units.ts';
import { formatCite } from '../diagnose-case.ts';
import type { KeyCites } from '../join.ts';

/**
 * Below this share of the kill's figure, a process snapshot (pmap -x) is not the process as it was
 * killed: one process's resident size does not halve between a kill and a snapshot of it.
 */
const SMALLER = 0.5;
/** Above the kill's figure by more than rounding (YARN prints one decimal), it is not the same moment either. */
const LARGER = 1.1;

interface Sized {
  input: string;
  fact: Fact;
  bytes: number;
}

function sized(inputs: readonly { name: string; book: BookContents }[], kind: string, key: string): Sized[] {
  return inputs.flatMap(({ name, book }) =>
    book.groups
      .filter((g) => g.kind === kind)
      .flatMap((g) => g.first)
      .flatMap((fact) => {
        const bytes = fact.values?.[key];
        return typeof bytes === 'number' && bytes > 0 ? [{ input: name, fact, bytes }] : [];
      }),
  );
}

function cite(s: Sized): string {
  return formatCite({ input: s.input, line: s.fact.line });
}

function sentence(kill: Sized, snapshot: Sized): string | undefined {
  const ratio = snapshot.bytes / kill.bytes;
  const what = `${cite(kill)} says the container used ${formatSize(kill.bytes)} when it was killed; ${cite(snapshot)} shows the process resident at ${formatSize(snapshot.bytes)}`;
  if (ratio < SMALLER)
    return `The inputs disagree: ${what}, ${Math.round(ratio * 100)}% of it. They are not averaged: the snapshot was taken before the memory grew (earlier than the kill), or of one process of a container that held others (PySpark workers, a sidecar); its proportions describe that moment, not the kill.`;
  if (ratio > LARGER)
    return `The inputs disagree: ${what}, more than the kill counted. The snapshot is not of the killed process at the kill's time: another process, or a later one given the same pid.`;
  return undefined;
}

/**
 * Where inputs of one process disagree on its size (a kill's "used" figure against a pmap's total
 * resident), one sentence each saying so and what it means, instead of a figure between them.
 */
export function contradictions(
  inputs: readonly { name: string; book: BookContents }[],
  processes: readonly (readonly KeyCites[])[],
): string[] {
  const out: string[] = [];
  for (const process of processes) {
    const names = new Set(process.flatMap((k) => k.cites.map((c) => c.input)));
    const members = inputs.filter((input) => names.has(input.name));
    const kills = sized(members, 'container.killed-memory', 'usedBytes').filter(
      (k) => k.fact.values?.resource !== 'virtual',
    );
    const snapshots = sized(members, 'process.resident', 'rssBytes');
    for (const snapshot of snapshots) {
      const kill = kills.find((k) => k.input !== snapshot.input);
      const said = kill && sentence(kill, snapshot);
      if (said && !out.includes(said)) out.push(said);
    }
  }
  return out;
}
