import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';

const read = (dir: string, file: string) =>
  readFileSync(join(import.meta.dirname, 'fixtures', dir, file), 'utf8');
// A real GET /taskmanagers of a Flink 1.3-era JobManager (SOURCES.md): slots, cpuCores and physicalMemory
// at the top level, and no totalResource or freeResource.
const OLD = read('flink-rest', 'dtstack-flink-1.3-taskmanagers.json');

describe('an old Flink /taskmanagers answer without resources (issue 21, item 5)', () => {
  it('counts the slots and says the resources are not reported, instead of "0 B" free', () => {
    const out = parseText('flink-rest', OLD);
    expect(out.values).toEqual({
      endpoint: 'taskmanagers',
      resourcesReported: false,
      taskManagers: 1,
      slotsTotal: 4,
      slotsFree: 4,
      verdict: '4 free slots',
    });
    expect(out.summary).toBe(
      '1 TaskManager(s), 4 of 4 slots free; this Flink version does not report resources (its /taskmanagers has no totalResource or freeResource), so only the slots can be compared.',
    );
    expect(out.summary).not.toContain('0 B');
  });

  it('does not call requests short of a core against it: the comparison cannot be made', () => {
    const out = parseText('flink-slot-fit', read('flink-slot-fit', 'assembled-old-flink-no-resources.txt'));
    expect(out.values).toEqual({
      verdict: 'resources-unreported',
      requests: 4,
      taskManagers: 1,
      unplaced: 0,
      short: '',
    });
    expect(out.summary).toContain('this Flink version does not report resources');
    expect(out.summary).not.toMatch(/short of|0 B/);
  });

  it('still compares a new Flink answer, which reports them', () => {
    const out = parseText('flink-rest', read('flink-rest', 'superzhc-yarn-taskmanagers.json'));
    expect(out.values).toMatchObject({ resourcesReported: true, slotsFree: 8 });
    expect(out.summary).toContain('free task heap');
  });
});

// A real /taskmanagers/<id> answer of a Flink 1.12 development build (FLINK-14406, SOURCES.md): its
// totalResource and freeResource are all 0 although the TaskManager has a 384 MiB task heap.
const ZEROS = read('flink-rest', 'flink-13547-taskmanager-detail.json');

describe('a Flink 1.11-1.12 answer whose resources are all 0 (issue 35, finding 12)', () => {
  it('says the figures were not measured instead of "0 B free"', () => {
    const out = parseText('flink-rest', ZEROS);
    expect(out.values).toMatchObject({ resourcesReported: false, slotsTotal: 1, slotsFree: 0 });
    expect(out.values).not.toHaveProperty('freeTaskHeapBytes');
    expect(out.summary).toBe(
      "1 TaskManager(s), 0 of 1 slots free; these TaskManagers report every resource as 0, figures Flink did not measure (Flink 1.11-1.12 do not know a standalone TaskManager's size), so only the slots can be compared.",
    );
  });

  it('does not conclude the cluster lacks resources from them', () => {
    const out = parseText(
      'flink-slot-fit',
      read('flink-slot-fit', 'assembled-flink-1.12-zero-resources.txt'),
    );
    expect(out.values).toEqual({
      verdict: 'resources-unreported',
      requests: 4,
      taskManagers: 1,
      unplaced: 0,
      short: '',
    });
    expect(out.summary).toContain('report every resource as 0, figures Flink did not measure');
    expect(out.summary).not.toMatch(/short of|lacks/);
  });

  it('reads a released Flink 1.11.2 /taskmanagers, resources all 0, the same way (a second real version)', () => {
    const out = parseText(
      'flink-rest',
      read('flink-rest', 'walkthrough-flink-1.11.2-taskmanagers-zero-resources.json'),
    );
    expect(out.values).toMatchObject({
      resourcesReported: false,
      taskManagers: 1,
      slotsTotal: 1,
      slotsFree: 0,
    });
    expect(out.values).not.toHaveProperty('freeTaskHeapBytes');
    expect(out.summary).toContain('report every resource as 0, figures Flink did not measure');
    expect(out.summary).not.toContain('0 B');
  });

  it('does not conclude the 1.11.2 cluster lacks resources for a pending request either', () => {
    // The pending request's log lines (assembled-lacks-resources.txt), then the real 1.11.2 answer.
    const request = read('flink-slot-fit', 'assembled-lacks-resources.txt')
      .split('\n')
      .slice(0, 4)
      .join('\n');
    const answer = read('flink-rest', 'walkthrough-flink-1.11.2-taskmanagers-zero-resources.json');
    const out = parseText('flink-slot-fit', `${request}\n${answer}`);
    expect(out.values).toMatchObject({ verdict: 'resources-unreported', taskManagers: 1, short: '' });
    expect(out.summary).not.toMatch(/short of|lacks/);
  });

  it('still compares a TaskManager with one real figure (1.13+ on YARN, in MiB)', () => {
    const out = parseText('flink-slot-fit', read('flink-slot-fit', 'assembled-lacks-resources.txt'));
    expect(out.values).toMatchObject({ verdict: 'lacks-resources' });
  });
});
