import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnoseBookGroup } from '../../../src/engine/case/diagnose-case.ts';
import { joinInputs, type KeyCites } from '../../../src/engine/case/join.ts';
import { contradictions } from '../../../src/engine/case/refine/contradictions.ts';
import { refineDiagnoses, sameProcess } from '../../../src/engine/case/refine/refine.ts';
import { REFINEMENTS } from '../../../src/engine/case/refine/rules.ts';
import { storedInput } from '../../../src/engine/case/stored.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../../src/playbooks/load.ts';

/*
 * Every file here is real (playbooks/*\/fixtures, test/engine/parsers/fixtures, test/fixtures/case;
 * sources in their SOURCES.md). A base file gives the diagnosis, a refining file the verdict. Most
 * pairs come from different incidents, so the test says they are one process (a pod both name), as
 * the join would when they name one: what is tested is the rule, not the join (keys.test.ts).
 */
const ROOT = join(import.meta.dirname, '..', '..', '..');
const PLAYBOOK = (id: string, file: string) => join(ROOT, 'playbooks', id, 'fixtures', file);
const PARSED = (file: string) => join(ROOT, 'test', 'engine', 'parsers', 'fixtures', file);
const CASE = (file: string) => join(ROOT, 'test', 'fixtures', 'case', file);
const playbooks = loadPlaybooks(PLAYBOOKS_DIR);

function input(path: string) {
  const lines = readFileSync(path, 'utf8').split('\n');
  const name = basename(path);
  return {
    name,
    lines: lines.length,
    book: storedInput({ name, lines, stats: { bytes: 0, lines: 0 } }).book,
  };
}

function oneProcess(...names: string[]): { processes: KeyCites[][] } {
  return {
    processes: [
      [{ key: { family: 'k8s-pod', value: 'one-pod' }, cites: names.map((n) => ({ input: n, line: 1 })) }],
    ],
  };
}

/** The base's diagnoses over both files, refined as a case refines them when the two are one process. */
function refinedCase(basePath: string, refiningPath: string, rules = REFINEMENTS) {
  const [base, refining] = [input(basePath), input(refiningPath)];
  const books = [base, refining];
  return refineDiagnoses(
    diagnoseBookGroup(books, playbooks),
    books,
    oneProcess(base.name, refining.name),
    rules,
  );
}

const SPARK_KILL = PLAYBOOK('spark-executor-overhead-killed', 'corpus-p004.txt');
const SPARK_K8S_KILL = PLAYBOOK('spark-executor-overhead-killed', 'k8s-exit-137.log');
const FLINK_KILL = PLAYBOOK('flink-container-oom-killed', 'hadoop3-physical-limit.log');
const JVM_OOM = CASE('jvm-heap-oom/console.txt');
const SPARK_HEAP = PLAYBOOK('spark-heap-oom', 'task-line-heap.log');
const BEAM_KILL = PLAYBOOK('beam-python-leak', 'dataflow-oom-killer.log');

// [rule, the diagnosis it refines, base file, refining file, the cause it proves]
const PAIRINGS: [string, string, string, string, string][] = [
  [
    'pmap-arenas',
    'spark-executor-overhead-killed',
    SPARK_KILL,
    PARSED('pmap/jdk17-zlib-in-32-threads-x.txt'),
    'glibc-arenas',
  ],
  [
    'pmap-arenas',
    'flink-container-oom-killed',
    FLINK_KILL,
    PARSED('pmap/jdk17-zlib-in-32-threads-x.txt'),
    'glibc-arenas',
  ],
  [
    'jdk8-membername',
    'spark-executor-overhead-killed',
    SPARK_KILL,
    PARSED('java-version/codebrag-58-openjdk-8u66.txt'),
    'jdk8-native-leak',
  ],
  [
    'nmt-native-growth',
    'spark-executor-overhead-killed',
    SPARK_KILL,
    PARSED('nmt/jdk17-summary-diff-direct-growth.txt'),
    'native-leak',
  ],
  [
    'nmt-threads',
    'spark-executor-overhead-killed',
    SPARK_KILL,
    PARSED('nmt/jdk17-thread-leak-1500-xss-default.txt'),
    'thread-leak',
  ],
  [
    'gc-floor-rising',
    'jvm-oom',
    JVM_OOM,
    PARSED('gc-log/jdk17-parallel-leak-oom-128m-xlog-gc-uptime.log'),
    'heap-leak',
  ],
  ['gc-full-after-gc', 'jvm-oom', JVM_OOM, CASE('jvm-heap-oom/gc-21442.log'), 'heap'],
  [
    'eventlog-skew',
    'spark-heap-oom',
    SPARK_HEAP,
    PARSED('spark-eventlog/assembled-yarn-kill-skew-spill.jsonl'),
    'skew',
  ],
  [
    'tracemalloc-growth',
    'beam-python-leak',
    BEAM_KILL,
    PARSED('tracemalloc/python311-compare-to-cache-leak.txt'),
    'python-leak',
  ],
  [
    'samples-growth',
    'beam-python-leak',
    BEAM_KILL,
    PARSED('memory-samples/live-ps-climb-2mibs-1s.txt'),
    'steady-growth',
  ],
  [
    'tracemalloc-growth',
    'beam-python-leak',
    BEAM_KILL,
    CASE('python-leak/tracemalloc-11304.txt'),
    'python-leak',
  ],
  ['samples-growth', 'beam-python-leak', BEAM_KILL, CASE('python-leak/top-11304.txt'), 'steady-growth'],
  [
    'kill-not-jvm',
    'spark-executor-overhead-killed',
    SPARK_K8S_KILL,
    PARSED('k8s-pod/aiops-memhog-get-pod-yaml.txt'),
    'not-the-jvm',
  ],
];

describe('each pairing refines the cause of the diagnosis it names (refine/rules.ts)', () => {
  it.each(PAIRINGS)('%s refines %s', (rule, playbook, base, refining, cause) => {
    const diagnosis = refinedCase(base, refining).find((d) => d.playbook === playbook);
    expect(diagnosis?.refinedBy).toMatchObject({ rule, cause, evidence: { input: basename(refining) } });
    expect(diagnosis?.cause).toBe(cause);
    // Its evidence leads with the line that refined it, so the answer cites the input.
    expect(diagnosis?.evidence.some((e) => e.input === basename(refining))).toBe(true);
    // Without the rule, that input does not decide the cause.
    const without = refinedCase(
      base,
      refining,
      REFINEMENTS.filter((r) => r.id !== rule),
    );
    expect(without.find((d) => d.playbook === playbook)?.refinedBy?.rule).not.toBe(rule);
  });

  it('covers every rule of the table', () => {
    // heap-dump-suspect needs a dump read by the heap analysis: test/diagnosis/case.test.ts.
    const tested = new Set([...PAIRINGS.map(([rule]) => rule), 'heap-dump-suspect']);
    expect(tested).toEqual(new Set(REFINEMENTS.map((r) => r.id)));
  });

  it('turns an overhead kill into arenas: MALLOC_ARENA_MAX leads, "raise the overhead" is gone', () => {
    const [top] = refinedCase(SPARK_KILL, PARSED('pmap/jdk17-zlib-in-32-threads-x.txt'));
    expect(top?.playbook).toBe('spark-executor-overhead-killed');
    expect(top?.refinedBy?.was).toBe('overhead');
    expect(top?.refinedBy?.because).toContain('15 glibc-arena-shaped regions');
    expect(top?.refinedBy?.because).toContain('87% of the process');
    expect(top?.actions[0]).toContain('MALLOC_ARENA_MAX=4');
    expect(top?.actions.some((a) => /^Raise spark\.executor\.memoryOverhead/.test(a))).toBe(false);
  });

  it("says how long the samples' growth takes to reach the limit the kill names", () => {
    const [top] = refinedCase(SPARK_KILL, PARSED('memory-samples/live-ps-climb-2mibs-1s.txt'));
    expect(top?.refinedBy?.rule).toBe('samples-growth');
    // 4.5 GB limit, last sample 55.8 MB, 1,890,143 bytes/s: (4831838208 - 58519552) / 1890143 = 2525 s.
    expect(top?.refinedBy?.because).toContain(
      'climb at 1.8 MB/s without levelling off; at that rate the last sample (55.8 MB) reaches the 4.5 GB limit in about 42 min',
    );
  });

  it('leaves a diagnosis alone when the verdict is of another process', () => {
    const [base, pmap] = [input(SPARK_KILL), input(PARSED('pmap/jdk17-zlib-in-32-threads-x.txt'))];
    const books = [base, pmap];
    const [top] = refineDiagnoses(diagnoseBookGroup(books, playbooks), books, { processes: [] });
    expect(top?.refinedBy).toBeUndefined();
    expect(top?.cause).toBe('overhead');
  });
});

/*
 * One process captured here (test/fixtures/case/python-leak): a DoFn-shaped cache leak killed by its
 * memory cgroup. Its inputs are joined by the case's own join (pid 11304), not said to be one. The
 * process is not Beam (apache_beam cannot be installed here), so the person says the engine, as
 * `diagnose --engine beam --together` does.
 */
describe('the captured Python leak: the cause changes when its tracemalloc diff is added', () => {
  const files = ['dmesg.txt', 'top-11304.txt', 'tracemalloc-11304.txt'];
  function beamCase(names: readonly string[], rules = REFINEMENTS) {
    const inputs = names.map((n) => input(CASE(`python-leak/${n}`)));
    const read = names.map((n) => ({
      name: n,
      lines: readFileSync(CASE(`python-leak/${n}`), 'utf8').split('\n'),
    }));
    const [group] = joinInputs(read);
    const diagnoses = diagnoseBookGroup(inputs, playbooks, 'beam');
    return refineDiagnoses(diagnoses, inputs, { processes: group?.processes ?? [] }, rules).find(
      (d) => d.playbook === 'beam-python-leak',
    );
  }

  it('the kill and the samples alone: a steady climb, from the samples', () => {
    const diagnosis = beamCase(files.slice(0, 2));
    expect(diagnosis?.cause).toBe('steady-growth');
    expect(diagnosis?.refinedBy).toMatchObject({
      rule: 'samples-growth',
      evidence: { input: 'top-11304.txt' },
    });
    expect(diagnosis?.refinedBy?.because).toContain('climb at 4.28 MB/s');
  });

  it('with the tracemalloc diff: the growing line leads, cited from that input', () => {
    const diagnosis = beamCase(files);
    expect(diagnosis?.cause).toBe('python-leak');
    expect(diagnosis?.refinedBy).toMatchObject({
      rule: 'tracemalloc-growth',
      evidence: { input: 'tracemalloc-11304.txt', line: 1 },
    });
    expect(diagnosis?.refinedBy?.because).toContain('leaky_dofn.py:24 holding 39.7 MB more');
    expect(diagnosis?.evidence[0]?.input).toBe('tracemalloc-11304.txt');
    expect(diagnosis?.actions[0]).toContain('leaky_dofn.py:24 appends to or caches');
  });

  it('without the tracemalloc rule the same three inputs stay a steady climb', () => {
    const without = beamCase(
      files,
      REFINEMENTS.filter((r) => r.id !== 'tracemalloc-growth'),
    );
    expect(without?.cause).toBe('steady-growth');
    expect(without?.refinedBy?.rule).toBe('samples-growth');
  });
});

describe('which inputs are the same process', () => {
  const key = (family: 'pid' | 'yarn-container', value: string, ...inputs: string[]): KeyCites => ({
    key: { family, value },
    cites: inputs.map((name) => ({ input: name, line: 1 })),
  });
  const process = [
    key('yarn-container', 'container_1_0001_01_000002', 'nm.log', 'driver.log'),
    key('pid', '7', 'nm.log', 'pmap.txt'),
  ];

  it('joins a pmap to the driver log through the NodeManager line naming both', () => {
    expect(sameProcess('pmap.txt', new Set(['driver.log']), { processes: [process] })).toBe(true);
  });

  it('does not use a pmap of another container than the one the evidence is about', () => {
    const group = { processes: [process], container: 'container_1_0001_01_000003' };
    expect(sameProcess('pmap.txt', new Set(['driver.log']), group)).toBe(false);
  });
});

describe('contradictions between inputs of one process', () => {
  it('says a pmap of 883 MB against a 4.5 GB kill, and what it means, instead of averaging', () => {
    const [kill, pmap] = [input(SPARK_KILL), input(PARSED('pmap/jdk17-zlib-in-32-threads-x.txt'))];
    const [said, ...more] = contradictions([kill, pmap], oneProcess(kill.name, pmap.name).processes);
    expect(more).toEqual([]);
    expect(said).toContain('corpus-p004.txt:4 says the container used 4.5 GB');
    expect(said).toContain('jdk17-zlib-in-32-threads-x.txt:');
    expect(said).toContain('883 MB');
    expect(said).toContain('taken before the memory grew');
  });

  it('says nothing when the inputs are not one process', () => {
    const [kill, pmap] = [input(SPARK_KILL), input(PARSED('pmap/jdk17-zlib-in-32-threads-x.txt'))];
    expect(contradictions([kill, pmap], [])).toEqual([]);
  });
});
