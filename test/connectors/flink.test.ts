import { describe, expect, it } from 'vitest';
import { flinkConnector } from '../../src/connectors/flink.ts';
import { EXTRACTORS } from '../../src/engine/extractors/registry.ts';
import { diagnoseText } from '../../src/engine/index.ts';
import { parseText } from '../../src/engine/parsers/parse-text.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';
import { fixture } from './fakes/rest-fake.ts';
import { FLINK_DOCS_JOB, FLINK_JOB, FLINK_TM, flinkFake } from './fakes/systems.ts';
import { FIXED_NOW, targetFor, useFake } from './support.ts';

const pasted = (path: string) => fixture(`../../engine/parsers/fixtures/${path}`);
const PLAYBOOKS = loadPlaybooks();

/** What the engine makes of a text: the playbooks it names and the lines it cites (docker-compose prefix cut). */
async function judged(text: string, engine?: 'flink') {
  const { report } = await diagnoseText('paste', text, PLAYBOOKS, engine ? { engine } : {});
  return report.diagnoses.map((d) => ({
    playbook: d.playbook,
    evidence: d.evidence.map((e) => e.text.replace(/^\S+\s+\|\s+/, '').trim()),
  }));
}

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
    // A Flink 1.12 build: every resource 0, cited as not measured rather than "0 MiB" free.
    expect(got.citations).toEqual([
      'taskmanager.freeSlots = 0 of slotsNumber = 1',
      'taskmanager.totalResource and freeResource are all 0, not measured (Flink 1.11-1.12): slots only',
      'taskmanager.memoryConfiguration.totalProcessMemory = 1.69 GB',
    ]);
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
  it("fetches a TaskManager's memory gauges, asks only the gauges it reads, and judges them as the pasted curl output", async () => {
    const got = await fetch('taskmanager-metrics', { taskManagerId: FLINK_TM });
    expect(flink.fake.seen.at(-1)?.path).toBe(
      `/taskmanagers/${encodeURIComponent(FLINK_TM)}/metrics?get=Status.JVM.Memory.Heap.Used,Status.JVM.Memory.Heap.Committed,Status.JVM.Memory.Heap.Max,Status.JVM.Memory.Metaspace.Used,Status.JVM.Memory.Metaspace.Max,Status.JVM.Memory.Direct.Count,Status.JVM.Memory.Direct.MemoryUsed,Status.JVM.Memory.Direct.TotalCapacity`,
    );
    expect(got.parser).toBe('flink-tm-metrics');
    const paste = pasted('flink-tm-metrics/assembled-direct-200m.json');
    const fetchedJudgement = parseText('flink-tm-metrics', got.paste);
    expect(fetchedJudgement).toEqual(parseText('flink-tm-metrics', paste));
    // Piped through jq (indented) it is the same answer.
    expect(parseText('flink-tm-metrics', JSON.stringify(JSON.parse(paste), null, 2)).values).toEqual(
      fetchedJudgement.values,
    );
    expect(fetchedJudgement.verdict).toBe('heap far below its max (16%)');
    // Values arrive as strings of bytes: "84856832" is 80.9 MiB, not 84856832 MiB.
    expect(got.citations).toEqual([
      `taskmanagers/${FLINK_TM}/metrics Status.JVM.Memory.Heap.Used = 80.9 MB (84856832 bytes)`,
      `taskmanagers/${FLINK_TM}/metrics Status.JVM.Memory.Heap.Committed = 512 MB (536870912 bytes)`,
      `taskmanagers/${FLINK_TM}/metrics Status.JVM.Memory.Heap.Max = 512 MB (536870912 bytes)`,
      `taskmanagers/${FLINK_TM}/metrics Status.JVM.Memory.Metaspace.Used = 620 KB (634640 bytes)`,
      `taskmanagers/${FLINK_TM}/metrics Status.JVM.Memory.Metaspace.Max = 256 MB (268435456 bytes)`,
      `taskmanagers/${FLINK_TM}/metrics Status.JVM.Memory.Direct.Count = 201`,
      `taskmanagers/${FLINK_TM}/metrics Status.JVM.Memory.Direct.MemoryUsed = 200 MB (209723392 bytes)`,
      `taskmanagers/${FLINK_TM}/metrics Status.JVM.Memory.Direct.TotalCapacity = 200 MB (209723392 bytes)`,
      `taskmanagers/${FLINK_TM}/metrics Status.JVM.Memory.Heap.Used is 16% of Heap.Max`,
    ]);
  });

  it("fetches a job's exception history as the trace a person copies, and the engine cites its OutOfMemoryError as in the pasted log", async () => {
    const got = await fetch('exceptions', { jobId: FLINK_JOB });
    expect(got.from.path).toBe(`/jobs/${FLINK_JOB}/exceptions`);
    expect(got.paste).toMatch(
      /^java\.lang\.OutOfMemoryError: Java heap space\n\tat java\.io\.ByteArrayOutputStream/,
    );
    expect(got.citations).toEqual([
      `jobs/${FLINK_JOB}/exceptions exceptionHistory.entries[0] = java.lang.OutOfMemoryError: Java heap space (IcebergStreamWriter (1/1) on 192.168.165.5:33911-ca8437 at 2024-08-28T14:13:15.833Z)`,
    ]);
    // The same failure as the JobManager logged it (DataSQRL#780, pasted with its docker-compose prefix).
    const log = fixture('../../../playbooks/flink-jvm-oom/fixtures/corpus-p033.txt');
    // Fetched from Flink, the text carries no Flink log line: check tells the engine, as --engine flink would.
    const fromFetch = await judged(got.paste, 'flink');
    const fromPaste = await judged(log);
    expect(fromFetch[0]?.playbook).toBe(fromPaste[0]?.playbook);
    expect(fromFetch[0]?.evidence).toContain('java.lang.OutOfMemoryError: Java heap space');
    expect(fromPaste[0]?.evidence).toContain('java.lang.OutOfMemoryError: Java heap space');
  });

  it('reads the exceptions of a Flink before the exception history (root-exception, all-exceptions)', async () => {
    const got = await fetch('exceptions', { jobId: FLINK_DOCS_JOB });
    expect(got.citations).toEqual([
      `jobs/${FLINK_DOCS_JOB}/exceptions root-exception = java.io.IOException: File already exists:/tmp/abzs/2`,
    ]);
    // The root exception and then each of all-exceptions (the docs cut their traces differently, so all three differ).
    expect(got.paste.split('\n').filter((l) => l.startsWith('java.io.IOException'))).toEqual([
      'java.io.IOException: File already exists:/tmp/abzs/2',
      'java.io.IOException: File already exists:/tmp/abzs/1',
      'java.io.IOException: File already exists:/tmp/abzs/2',
    ]);
  });

  it('says which job or TaskManager was not found on a 404', async () => {
    await expect(fetch('exceptions', { jobId: 'e'.repeat(32) })).rejects.toThrow(
      `Flink JobManager has no job with that id (404 for GET /jobs/${'e'.repeat(32)}/exceptions)`,
    );
  });

  it('reads the empty list Flink answers for a TaskManager it holds no metrics of as that, not as the wrong output', async () => {
    // AbstractMetricsHandler: 200 with [] for an id its MetricStore does not know (or not fetched yet).
    const got = await fetch('taskmanager-metrics', { taskManagerId: 'gone-tm' });
    expect(got.paste).toBe('[]');
    expect(() => parseText('flink-tm-metrics', got.paste)).toThrow(
      /^the answer is an empty list: Flink holds no metrics for that TaskManager, either because the id is not one \/taskmanagers lists/,
    );
    expect(() => parseText('flink-tm-metrics', got.paste)).not.toThrow(/does not look like/);
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

describe('Flink connector: /overview of another version (1.9.0, a standalone cluster of three TaskManagers)', () => {
  const flink = useFake(() => flinkFake('flink/overview-flink-1.9.0.json'));

  it('judges it as its paste is judged: 6 free slots of 6, not a cluster short of slots', async () => {
    const got = await flinkConnector.fetch(
      { resource: 'overview' },
      { target: targetFor(flink.url), now: FIXED_NOW },
    );
    const judged = parseText('flink-rest', got.paste);
    expect(judged).toEqual(
      parseText('flink-rest', pasted('flink-job-slots/notes-overview-flink-1.9.0.json')),
    );
    expect(judged.values).toMatchObject({
      taskManagers: 3,
      slotsTotal: 6,
      slotsAvailable: 6,
      flinkVersion: '1.9.0',
    });
    expect(judged.verdict).toBe('6 free slots');
    expect(got.citations[0]).toBe('overview.slots-available = 6 of slots-total = 6');
  });
});

describe('Flink connector: /taskmanagers of a released Flink 1.11.2, every resource 0', () => {
  const flink = useFake(() =>
    flinkFake('flink/overview-sif-flink-1.17.1.json', 'flink/taskmanagers-flink-1.11.2-zero-resources.json'),
  );

  it('cites the zeros as not measured and the slots only, as the pasted answer is judged', async () => {
    const got = await flinkConnector.fetch(
      { resource: 'taskmanagers' },
      { target: targetFor(flink.url), now: FIXED_NOW },
    );
    const paste = pasted('flink-rest/walkthrough-flink-1.11.2-taskmanagers-zero-resources.json');
    expect(parseText('flink-rest', got.paste)).toEqual(parseText('flink-rest', paste));
    expect(got.citations).toEqual([
      'taskmanagers[0].freeSlots = 0 of slotsNumber = 1',
      'taskmanagers[0].totalResource and freeResource are all 0, not measured (Flink 1.11-1.12): slots only',
    ]);
  });
});
