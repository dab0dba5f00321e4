import { describe, expect, it } from 'vitest';
import { flinkConnector } from '../../src/connectors/flink.ts';
import { EXTRACTORS } from '../../src/engine/extractors/registry.ts';
import { parseText } from '../../src/engine/parsers/parse-text.ts';
import { fixture } from './fakes/rest-fake.ts';
import { FLINK_JOB, FLINK_TM, flinkFake } from './fakes/systems.ts';
import { FIXED_NOW, targetFor, useFake } from './support.ts';

const pasted = (path: string) => fixture(`../../engine/parsers/fixtures/${path}`);

describe('Flink connector against a fake JobManager answering real responses', () => {
  const flink = useFake(flinkFake);
  const fetch = (resource: string, ids?: Record<string, string>) =>
    flinkConnector.fetch(
      { resource, ...(ids ? { ids } : {}) },
      { target: targetFor(flink.url), now: FIXED_NOW },
    );

  it('fetches /taskmanagers and judges it as the pasted output is judged', async () => {
    const got = await fetch('taskmanagers');
    expect(got.from).toEqual({
      connector: 'flink',
      path: '/taskmanagers',
      fetchedAt: '2026-12-03T11:00:00.000Z',
    });
    expect(got.parser).toBe('flink-rest');
    const paste = pasted('flink-rest/superzhc-yarn-taskmanagers.json');
    expect(parseText('flink-rest', got.paste)).toEqual(parseText('flink-rest', paste));
    // totalResource/freeResource are MiB: 358 is 358 MiB, not 358 bytes; memoryConfiguration is bytes.
    expect(got.citations).toEqual([
      'taskmanagers[0].freeSlots = 8 of slotsNumber = 12',
      'taskmanagers[0].freeResource.taskHeapMemory = 358 MiB',
      'taskmanagers[0].freeResource.managedMemory = 423 MiB',
      'taskmanagers[0].memoryConfiguration.totalProcessMemory = 2 GB',
    ]);
  });

  it('a fetched /taskmanagers after the pending request gives the slot fit the pasted pair gives', async () => {
    const got = await fetch('taskmanagers');
    const paste = pasted('flink-slot-fit/assembled-lacks-resources.txt');
    // The log lines with the pending ResourceProfile come from the JobManager log; the JSON is fetched.
    const logLines = paste
      .split('\n')
      .filter((l) => !l.trimStart().startsWith('{'))
      .join('\n');
    const fetchedPair = parseText('flink-slot-fit', `${logLines.trimEnd()}\n${got.paste}`);
    expect(fetchedPair).toEqual(parseText('flink-slot-fit', paste));
    expect(fetchedPair.values.verdict).not.toBe('');
  });

  it('fetches /overview as the flink-rest paste reads it', async () => {
    const got = await fetch('overview');
    const paste = pasted('flink-job-slots/sif-overview-flink-1.17.1.json');
    expect(parseText('flink-rest', got.paste)).toEqual(parseText('flink-rest', paste));
    expect(got.citations[0]).toBe('overview.slots-available = 4 of slots-total = 4');
  });

  it('fetches one TaskManager by id, escaping the id into the path', async () => {
    const got = await fetch('taskmanager', { taskManagerId: FLINK_TM });
    expect(flink.fake.seen.at(-1)?.path).toBe(`/taskmanagers/${encodeURIComponent(FLINK_TM)}`);
    const paste = pasted('flink-rest/flink-13547-taskmanager-detail.json');
    expect(parseText('flink-rest', got.paste)).toEqual(parseText('flink-rest', paste));
    expect(got.citations[0]).toBe('taskmanager.freeSlots = 0 of slotsNumber = 1');
  });

  it('fetches a job for the flink-job-slots judgement', async () => {
    const got = await fetch('job', { jobId: FLINK_JOB });
    expect(got.parser).toBe('flink-job-slots');
    expect(got.citations).toEqual(['job.state = FINISHED', 'job.vertices: 1, largest parallelism = 1']);
  });

  it('refuses a job id that is not one before any request is made', async () => {
    await expect(fetch('job', { jobId: '../taskmanagers' })).rejects.toThrow(
      /Flink JobManager: "..\/taskmanagers" is not a jobId/,
    );
    expect(flink.fake.seen).toEqual([]);
  });

  it('says what was not found on a 404', async () => {
    await expect(fetch('job', { jobId: 'f'.repeat(32) })).rejects.toThrow(
      `Flink JobManager has no job with that id (404 for GET /jobs/${'f'.repeat(32)})`,
    );
  });
  it('fetches /jobmanager/config: the memory settings in force, cited with their sizes in bytes, read as a pasted flink-conf.yaml', async () => {
    const got = await fetch('jobmanager-config');
    expect(got.from.path).toBe('/jobmanager/config');
    expect(got.parser).toBeUndefined();
    // MemorySize values as Flink prints them: "1600m" is 1600 MiB (1.56 GiB), "134217728b" bytes.
    expect(got.citations).toEqual([
      'jobmanager/config jobmanager.memory.heap.size = 1073741824b (1 GB)',
      'jobmanager/config jobmanager.memory.jvm-metaspace.size = 268435456b (256 MB)',
      'jobmanager/config jobmanager.memory.jvm-overhead.max = 201326592b (192 MB)',
      'jobmanager/config jobmanager.memory.jvm-overhead.min = 201326592b (192 MB)',
      'jobmanager/config jobmanager.memory.off-heap.size = 134217728b (128 MB)',
      'jobmanager/config jobmanager.memory.process.size = 1600m (1.56 GB)',
      'jobmanager/config taskmanager.memory.process.size = 1728m (1.69 GB)',
      'jobmanager/config taskmanager.numberOfTaskSlots = 3',
    ]);
    // What the engine reads from the fetched settings is what it reads from the same lines of flink-conf.yaml.
    const config = EXTRACTORS['config-values'];
    const settings = got.paste.split('\n').flatMap((line) => config?.extract(line) ?? []);
    expect(settings).toContainEqual({
      kind: 'config',
      values: { key: 'taskmanager.memory.process.size', value: '1728m' },
    });
    // The engine keeps Flink's memory, slot and port settings; a tmpdir or an address is no fact.
    expect(settings.map((f) => f.values?.key)).toEqual([
      'taskmanager.memory.process.size',
      'jobmanager.memory.off-heap.size',
      'jobmanager.memory.jvm-overhead.min',
      'jobmanager.memory.process.size',
      'jobmanager.rpc.port',
      'taskmanager.numberOfTaskSlots',
      'jobmanager.memory.jvm-metaspace.size',
      'jobmanager.memory.heap.size',
      'jobmanager.memory.jvm-overhead.max',
    ]);
  });
});
