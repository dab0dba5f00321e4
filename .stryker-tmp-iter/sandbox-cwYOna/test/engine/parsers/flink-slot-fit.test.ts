// @ts-nocheck
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, parseText } from '../../../src/engine/parsers/parse-text.ts';

const read = (file: string) =>
  readFileSync(join(import.meta.dirname, 'fixtures', 'flink-slot-fit', file), 'utf8');

describe('the flink-slot-fit parser', () => {
  it('finds fragmentation: enough heap in total, but no TaskManager has 512 MB free on its own', () => {
    const out = parseText('flink-slot-fit', read('assembled-fragmentation.txt'));
    expect(out.values).toMatchObject({
      verdict: 'fragmentation',
      requests: 1,
      taskManagers: 2,
      unplaced: 1,
      short: '',
    });
    expect(out.summary).toMatch(/lower the request's taskHeapMemory to 300 MB/);
    expect(out.facts.map((f) => f.kind)).toEqual(['flink.fragmentation', 'parsed.flink-slot-fit']);
  });

  it('finds a cluster short of resources, and names what is short', () => {
    const out = parseText('flink-slot-fit', read('assembled-lacks-resources.txt'));
    expect(out.values).toMatchObject({ verdict: 'lacks-resources', short: 'cpuCores, taskHeapMemory' });
    expect(out.facts.map((f) => f.kind)).toEqual(['parsed.flink-slot-fit']);
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
    expect(detectFormat(read('assembled-fragmentation.txt').split('\n').slice(0, 50))).not.toBe(
      'flink-slot-fit',
    );
  });
});
