import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Console } from '../../src/cli/console/console.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../src/walkthrough/index.ts';
import { corruptedDump } from '../support/heap-dumps.ts';

/** Real dumps from live JDK 17 JVMs (test/fixtures/heap-dumps/SOURCES.md). */
const DIR = 'test/fixtures/heap-dumps';
const playbooks = loadPlaybooks();

/** The console over typed lines, with the shipped playbooks and a heap dump budget; what it printed. */
async function consoleOver(lines: string[], heapDumpBudget = 2 * 1024 ** 3): Promise<string> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  const service = new WalkthroughService({ store: new MemoryWalkthroughStore() });
  const console = new Console(
    { stdin, stdout, stderr: stdout },
    { playbooks, service, actor: 'alice', heapDumpBudget },
  );
  stdin.end(`${lines.join('\n')}\n`);
  await console.run();
  return out;
}

describe('the console given a heap dump path', () => {
  let temp: string;
  beforeAll(() => {
    temp = mkdtempSync(join(tmpdir(), 'heapsurf-console-'));
  });
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it("names the thread from the dump, and prints the dump's numbered lines before the answer citing them", async () => {
    const out = await consoleOver([`${DIR}/local-variable-oom.hprof.gz`]);
    expect(out).toContain('of thread "ingest-worker"');
    expect(out).not.toContain('thread #');
    const reading = out.indexOf('(heap dump: 30500 objects');
    const answer = out.indexOf(`== ${DIR}/local-variable-oom.hprof.gz`);
    const citing = out.indexOf('  line 3: dominator: java.util.ArrayList retains 29.2 MB');
    expect(reading).toBeGreaterThan(-1);
    expect(answer).toBeGreaterThan(reading);
    expect(citing).toBeGreaterThan(answer);
  });

  it('refuses a dump over the budget, with the setting to raise', async () => {
    const out = await consoleOver([`${DIR}/static-cache-oom.hprof.gz`], 200 * 1024 ** 2);
    expect(out).toMatch(
      /! \S+static-cache-oom\.hprof\.gz: this heap dump is over \d+ MiB decompressed .*MEMDOCTOR_HEAP_DUMP_BUDGET=1g/,
    );
    expect(out).not.toContain('== ');
  });

  it('says where a dump cut short ends', async () => {
    const out = await consoleOver([`${DIR}/truncated-mid.hprof.gz`]);
    expect(out).toContain(
      '(heap dump cut short: read to byte 33496382: the dump is cut short inside a record',
    );
  });

  it('gives the offset of a corrupt record', async () => {
    const { bytes, offset } = corruptedDump();
    const path = join(temp, 'java_pid77.hprof');
    writeFileSync(path, bytes);
    const out = await consoleOver([path]);
    expect(out).toContain(
      `java_pid77.hprof: cannot read it: corrupt heap dump at byte ${offset}: expected a heap dump sub-record tag`,
    );
  });

  it('a text file named .hprof is read as a log, and the console says it is not a dump', async () => {
    const path = join(temp, 'app.hprof');
    writeFileSync(path, 'java.lang.OutOfMemoryError: Java heap space\n');
    const out = await consoleOver([path]);
    expect(out).toContain(
      'app.hprof is named like a heap dump but is not one (an HPROF file starts with "JAVA PROFILE 1.0"), so it was read as a text log',
    );
  });

  it('a binary file named .hprof that is not a dump is not read as one', async () => {
    const path = join(temp, 'notes.hprof');
    writeFileSync(path, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
    const out = await consoleOver([path]);
    expect(out).toMatch(/! \S+notes\.hprof: this is not a text log \(a PNG image\)/);
  });
});
