import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readCompiledPlaybooks, sourcesHash, writeCompiledPlaybooks } from '../../src/playbooks/compiled.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';

const temps: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'memdoctor-compiled-'));
  temps.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the shipped playbooks and its compiled JSON, in a folder the test may edit. */
function compiledCopy(): { root: string; json: string } {
  const root = join(tempDir(), 'playbooks');
  cpSync(PLAYBOOKS_DIR, root, { recursive: true });
  const json = join(tempDir(), 'playbooks.json');
  writeCompiledPlaybooks(root, json);
  return { root, json };
}

describe('compiled playbooks', () => {
  it('give exactly what validating the YAML gives', () => {
    const { root, json } = compiledCopy();
    expect(readCompiledPlaybooks(root, json)).toStrictEqual(JSON.parse(JSON.stringify(loadPlaybooks(root))));
    expect(readCompiledPlaybooks(root, json)?.map((p) => p.dir)).toEqual(
      loadPlaybooks(root).map((p) => p.dir),
    );
  });

  it('are not used once a playbook file changed: the caller falls back to the YAML', () => {
    const { root, json } = compiledCopy();
    const [first] = loadPlaybooks(root);
    if (!first) throw new Error('no shipped playbooks');
    writeFileSync(join(first.dir, 'playbook.yaml'), '# edited\n', { flag: 'a' });
    expect(readCompiledPlaybooks(root, json)).toBeUndefined();
  });

  it('are not used for another folder, nor when the JSON is missing or broken', () => {
    const { json } = compiledCopy();
    const other = tempDir();
    expect(readCompiledPlaybooks(other, json)).toBeUndefined();
    expect(readCompiledPlaybooks(PLAYBOOKS_DIR, join(other, 'absent.json'))).toBeUndefined();
    writeFileSync(join(other, 'broken.json'), '{');
    expect(readCompiledPlaybooks(PLAYBOOKS_DIR, join(other, 'broken.json'))).toBeUndefined();
  });

  it('hash a removed procedure differently from an empty one', () => {
    const { root } = compiledCopy();
    const before = sourcesHash(root);
    const [first] = loadPlaybooks(root);
    if (!first) throw new Error('no shipped playbooks');
    rmSync(join(first.dir, 'procedure.yaml'), { force: true });
    expect(sourcesHash(root)).not.toBe(before);
  });
});
