import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MemoryCaseStore } from '../../src/cases/store/memory.ts';
import { Console } from '../../src/cli/console/console.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../src/walkthrough/index.ts';

// Real inputs: test/fixtures/case/SOURCES.md.
const CASES = join(import.meta.dirname, '..', 'fixtures', 'case');
const JOBMANAGER = join(CASES, 'hudi-9339', 'jobmanager.log');
const NODEMANAGER = join(CASES, 'hudi-9339', 'nodemanager.log');
const JVM_A = ['gc-23908.log', 'nmt.txt', 'pmap.txt'].map((f) => join(CASES, 'jvm-threads-a', f));
const NMT_B = join(CASES, 'jvm-threads-b', 'nmt.txt');
const playbooks = loadPlaybooks(PLAYBOOKS_DIR);

/** The console over piped lines, its session's inputs one case; everything it printed. */
async function session(lines: readonly string[], cases = true): Promise<string> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  const service = new WalkthroughService({ store: new MemoryWalkthroughStore() });
  const store = new MemoryCaseStore();
  const options = { playbooks, service, actor: 'alice' };
  const console = new Console(
    { stdin, stdout, stderr: stdout },
    cases ? { ...options, cases: { store, limits: { maxInputs: 8, maxBytes: 1 << 26 } } } : options,
  );
  stdin.end(`${lines.join('\n')}\n`);
  await console.run();
  return out;
}

describe('the console session is one case', () => {
  it('reads a JobManager log and a NodeManager log together, saying which and citing both', async () => {
    const out = await session([JOBMANAGER, NODEMANAGER]);
    expect(out).toContain(`== Read together in this session: ${JOBMANAGER}, ${NODEMANAGER}`);
    expect(out).toContain(
      `${NODEMANAGER}:1  Container [pid=8296,containerID=container_e07_1669378398064_0904_01_000002]`,
    );
    expect(out).toMatch(new RegExp(`${JOBMANAGER.replace(/[.]/g, '\\.')}:\\d+ `));
    expect(out).toMatch(/What changed: Added .*nodemanager\.log; .*new evidence from .*nodemanager\.log/);
  });

  it('reads a GC log, NMT and pmap of one JVM as one process, and another JVM’s NMT apart', async () => {
    const out = await session([...JVM_A, NMT_B]);
    expect(out).toContain(`one process: pid 23908 (${JVM_A[0]}, ${JVM_A[1]}:1, ${JVM_A[2]}:1)`);
    expect(out).toMatch(
      /nmt\.txt shares no container, application, executor, TaskManager, pod or process id with .*, so it is read apart/,
    );
  });

  it('shows a single input exactly as before', async () => {
    expect(await session([JOBMANAGER])).toBe(await session([JOBMANAGER], false));
  });

  it('starts a walkthrough of the case’s lead playbook from every input’s facts', async () => {
    const out = await session([JOBMANAGER, NODEMANAGER, 'walk', 'quit']);
    expect(out).toMatch(/Walkthrough local-console-\w+ \(A JVM ran out of memory\)/);
    // Answered from the input that gave the fact, and said so.
    expect(out).toMatch(
      /\(known from the facts: container\.killed-memory \(resource=virtual\) \(from .*nodemanager\.log\)\)/,
    );
  });
});
