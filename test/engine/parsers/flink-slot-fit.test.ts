import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { detectFormat, parseText } from '../../../src/engine/parsers/parse-text.ts';

const read = (file: string) =>
  readFileSync(join(import.meta.dirname, 'fixtures', 'flink-slot-fit', file), 'utf8');
// Three TaskManagers shaped like a real Flink-on-YARN one (totalResource 12 cores, 537 MB task heap as
// the REST API sends it, in MB), each with 1 core and 358 MB of task heap free.
const THREE_TMS = read('assembled-fragmentation-three-yarn-tms.txt');

describe('the flink-slot-fit parser', () => {
  it('finds fragmentation for 2 cores and 600 MB against three TaskManagers with 1 core and 358 MB free', () => {
    const out = parseText('flink-slot-fit', THREE_TMS);
    expect(out.values).toMatchObject({
      verdict: 'fragmentation',
      requests: 1,
      taskManagers: 3,
      unplaced: 1,
      short: '',
    });
    expect(out.summary).toMatch(/no single TaskManager has room for 1 request/);
    // 600 MB is more than a whole TaskManager's 537 MB of task heap: more of them cannot help.
    expect(out.summary).toMatch(
      /raise taskmanager\.memory\.task\.heap\.size to at least 600 MB \(now 537 MB\)/,
    );
    expect(out.summary).not.toMatch(/add \d+ TaskManagers/);
    expect(out.facts.map((f) => f.kind)).toEqual(['flink.fragmentation', 'parsed.flink-slot-fit']);
  });

  it('offers one more TaskManager when the request fits a whole one but no free part', () => {
    const smaller = THREE_TMS.replace(
      /taskHeapMemory=600\.000mb \(629145600 bytes\)/,
      'taskHeapMemory=300.000mb (314572800 bytes)',
    );
    const out = parseText('flink-slot-fit', smaller);
    expect(out.values).toMatchObject({ verdict: 'fragmentation' });
    expect(out.summary).toMatch(/add one TaskManager or lower the request's cpuCores to 1 core so it fits/);
  });

  it('finds a cluster short of task heap on a real /taskmanagers response, and how many TaskManagers cover it', () => {
    const out = parseText('flink-slot-fit', read('assembled-lacks-resources.txt'));
    // 4 x 128 MB requested, 358 MB free, 537 MB per TaskManager: 154 MB short, one more covers it.
    expect(out.values).toMatchObject({ verdict: 'lacks-resources', short: 'taskHeapMemory', requests: 4 });
    expect(out.summary).toMatch(
      /short of 154 MB of taskHeapMemory in total: add 1 TaskManager of the current size/,
    );
    expect(out.facts.map((f) => f.kind)).toEqual(['parsed.flink-slot-fit']);
  });

  it('reads the JSON even with log lines or a prompt after it', () => {
    const out = parseText('flink-slot-fit', `${THREE_TMS}user@jobmanager:~$ \n`);
    expect(out.values).toMatchObject({ verdict: 'fragmentation', taskManagers: 3 });
  });

  it('parses the JSON once however many lines follow it (each one cost another JSON.parse)', () => {
    const trailer = Array.from({ length: 300 }, (_, i) => `2024-05-01 10:00:${i % 60} INFO still waiting }`);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const out = parseText('flink-slot-fit', `${THREE_TMS.trimEnd()}\n${trailer.join('\n')}`);
      expect(out.values).toMatchObject({ verdict: 'fragmentation', taskManagers: 3 });
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('says what it needs when a part is missing', () => {
    expect(() => parseText('flink-slot-fit', read('truncated-json.txt'))).toThrow(
      /^could not parse: expected the complete JSON of GET \/taskmanagers/,
    );
    expect(() => parseText('flink-slot-fit', 'ResourceProfile{UNKNOWN}\n{"taskmanagers": []}')).toThrow(
      /a request for ResourceProfile\{UNKNOWN\} only needs a free slot/,
    );
  });

  it('is used only when a step names it', () => {
    expect(detectFormat(THREE_TMS.split('\n').slice(0, 50))).not.toBe('flink-slot-fit');
  });
});
