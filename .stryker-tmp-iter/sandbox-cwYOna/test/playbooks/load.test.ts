// @ts-nocheck
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PlaybookInvalidError, PlaybookNotFoundError } from '../../src/errors.ts';
import { playbookJsonSchema } from '../../src/playbooks/json-schema.ts';
import { findPlaybook, loadPlaybook, loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';

const VALID = readFileSync(join(PLAYBOOKS_DIR, 'spark-heap-oom', 'playbook.yaml'), 'utf8');

function folderWith(id: string, yaml: string): string {
  const root = mkdtempSync(join(tmpdir(), 'memdoctor-playbooks-'));
  mkdirSync(join(root, id));
  writeFileSync(join(root, id, 'playbook.yaml'), yaml);
  return join(root, id);
}

function loadError(dir: string): PlaybookInvalidError {
  try {
    loadPlaybook(dir);
  } catch (error) {
    if (error instanceof PlaybookInvalidError) return error;
    throw error;
  }
  throw new Error('expected the playbook to be rejected');
}

describe('loading playbooks', () => {
  it('loads a valid playbook with a stable version hash', () => {
    const dir = folderWith('spark-heap-oom', VALID);
    const first = loadPlaybook(dir);
    expect(first.id).toBe('spark-heap-oom');
    expect(first.version).toMatch(/^[0-9a-f]{16}$/);
    expect(loadPlaybook(dir).version).toBe(first.version);
  });

  it('changes the version when the file changes', () => {
    const a = loadPlaybook(folderWith('spark-heap-oom', VALID));
    const b = loadPlaybook(
      folderWith('spark-heap-oom', VALID.replace('Spark driver or executor', 'A Spark JVM')),
    );
    expect(b.version).not.toBe(a.version);
  });

  it('names the file and the field of a schema error', () => {
    const error = loadError(folderWith('spark-heap-oom', VALID.replace('weight: 0.75', 'weight: 7.5')));
    expect(error.message).toContain('playbook.yaml');
    expect(error.message).toMatch(/match\.signals\[0\]\.weight/);
  });

  it('rejects an unknown field, naming it', () => {
    const error = loadError(folderWith('spark-heap-oom', `${VALID}\nseverity: high\n`));
    expect(error.message).toContain('severity');
  });

  it('reports YAML syntax errors with the file', () => {
    const error = loadError(folderWith('spark-heap-oom', 'id: [unclosed\n'));
    expect(error.message).toContain('YAML syntax');
  });

  it('requires the id to equal the folder name', () => {
    expect(loadError(folderWith('other-name', VALID)).message).toContain('must equal its folder name');
  });

  it('rejects an unknown derivation', () => {
    const yaml = VALID.replace('derive: [heap-size]', 'derive: [heap-sise]');
    expect(loadError(folderWith('spark-heap-oom', yaml)).message).toContain('unknown derivation "heap-sise"');
  });

  it('says which playbooks exist when one is not found', () => {
    expect(() => findPlaybook(loadPlaybooks(), 'spark-oom')).toThrow(PlaybookNotFoundError);
    expect(() => findPlaybook(loadPlaybooks(), 'spark-oom')).toThrow(/spark-heap-oom/);
  });

  it('keeps schema/playbook.schema.json in step with the zod schema (npm run schema)', () => {
    const committed = JSON.parse(
      readFileSync(new URL('../../schema/playbook.schema.json', import.meta.url), 'utf8'),
    );
    expect(committed).toEqual(JSON.parse(JSON.stringify(playbookJsonSchema())));
  });
});
