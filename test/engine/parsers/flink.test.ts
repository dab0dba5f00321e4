import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLINK_DEFAULTS, flinkBudget } from '../../../src/engine/calculators/flink.ts';
import { slotFit } from '../../../src/engine/calculators/flink-slots.ts';
import { taskManagersFromJson } from '../../../src/engine/parsers/flink-rest.ts';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';
import { PROFILE_PATTERN, parseResourceProfile } from '../../../src/engine/parsers/resource-profile.ts';
import { MiB } from '../../../src/engine/units.ts';

const fixture = (file: string) =>
  readFileSync(join(import.meta.dirname, 'fixtures', 'flink-resource-profile', file), 'utf8');

describe('Flink ResourceProfiles and the REST API', () => {
  // The slot a default TaskManager (process.size 1728m, one slot) hands out, as the TaskExecutor logged
  // it, must equal what the calculator derives for that TaskManager.
  it('agrees with the calculator on a default TaskManager slot', () => {
    const [m] = fixture('default-slot-allocated.txt').matchAll(PROFILE_PATTERN);
    const profile = parseResourceProfile(m?.[1] ?? '');
    const b = flinkBudget({ ...FLINK_DEFAULTS, processSize: 1728 * MiB });
    expect(profile).toEqual({
      cpuCores: 1,
      taskHeapMemory: b.taskHeap,
      taskOffHeapMemory: b.taskOffHeap,
      managedMemory: b.managed,
      networkMemory: b.network,
    });
  });

  it('feeds parsed profiles to the slot-fit check', () => {
    const [available, total] = [...fixture('fine-grained-missing-resources.txt').matchAll(PROFILE_PATTERN)]
      .map((m) => parseResourceProfile(m[1] ?? ''))
      .filter((p) => p !== undefined);
    const request = parseResourceProfile('cpuCores=0.1, taskHeapMemory=64.000mb (67108864 bytes)');
    if (!available || !total || !request) throw new Error('fixture profiles missing');
    const fit = slotFit([request], [{ id: 'busy-job-taskmanager-1-1', free: available, total }]);
    expect(fit.verdict).toBe('lacks-resources');
    expect(fit.advice).toMatch(/add 1 TaskManager/);
  });

  // Flink's ResourceProfileInfo sends memory as int MiB (getMebiBytes), memoryConfiguration as bytes:
  // the real response has taskHeapMemory 537 in totalResource and taskHeap 563714445 (537.6 MiB) in bytes.
  it('reads REST resource figures as MB and memoryConfiguration as bytes (real Flink-on-YARN response)', () => {
    const text = readFileSync(
      join(import.meta.dirname, 'fixtures', 'flink-rest', 'superzhc-yarn-taskmanagers.json'),
      'utf8',
    );
    const out = parseText('flink-rest', text);
    expect(out.values).toMatchObject({
      freeTaskHeapBytes: 358 * MiB,
      freeManagedBytes: 423 * MiB,
      freeNetworkBytes: 105 * MiB,
      'memory.taskHeap': 563714445,
    });
    const [tm] = taskManagersFromJson(JSON.parse(text)) ?? [];
    // getMebiBytes() rounds down: the total is never more than the configured bytes.
    expect(tm?.total?.taskHeapMemory).toBe(537 * MiB);
    expect(tm?.total?.taskHeapMemory).toBeLessThanOrEqual(563714445);
    expect(563714445 - (tm?.total?.taskHeapMemory ?? 0)).toBeLessThan(MiB);
    expect(out.summary).toMatch(/free task heap 358 MB/);
  });

  it('reads an UNKNOWN profile (-1 in every field) as no resources, not as negative ones', () => {
    const unknown = {
      cpuCores: -1,
      taskHeapMemory: -1,
      taskOffHeapMemory: -1,
      managedMemory: -1,
      networkMemory: -1,
    };
    const [tm] = taskManagersFromJson({ id: 'a', slotsNumber: 1, freeSlots: 1, freeResource: unknown }) ?? [];
    expect(tm?.free).toEqual({
      cpuCores: 0,
      taskHeapMemory: 0,
      taskOffHeapMemory: 0,
      managedMemory: 0,
      networkMemory: 0,
    });
  });

  it.each([
    [
      'a /taskmanagers list',
      {
        taskmanagers: [
          {
            id: 'a',
            slotsNumber: 2,
            freeSlots: 1,
            freeResource: { cpuCores: 1, taskHeapMemory: 300, managedMemory: 0 },
          },
          {
            id: 'b',
            slotsNumber: 2,
            freeSlots: 1,
            freeResource: { cpuCores: 1, taskHeapMemory: 200, managedMemory: 0 },
          },
        ],
      },
      {
        endpoint: 'taskmanagers',
        taskManagers: 2,
        slotsFree: 2,
        freeTaskHeapBytes: 500 * MiB,
        maxFreeTaskHeapBytes: 300 * MiB,
      },
    ],
    [
      '/overview',
      {
        taskmanagers: 3,
        'slots-total': 6,
        'slots-available': 0,
        'jobs-running': 2,
        'flink-version': '1.17.1',
      },
      { endpoint: 'overview', slotsAvailable: 0, flinkVersion: '1.17.1', verdict: 'no free slots' },
    ],
    [
      '/jobs/<id>/exceptions',
      {
        'root-exception':
          'java.lang.OutOfMemoryError: Direct buffer memory\n\tat java.nio.Bits.reserveMemory',
        'all-exceptions': [{}],
        truncated: false,
      },
      { endpoint: 'exceptions', rootExceptionClass: 'java.lang.OutOfMemoryError', exceptionCount: 1 },
    ],
  ])('reads %s (shapes as the Flink REST API documents them; resources in MB)', (_name, json, expected) => {
    const out = parseText('flink-rest', JSON.stringify(json, null, 2));
    expect(out.values).toMatchObject(expected);
  });
});
