import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PlaybookInvalidError } from '../../src/errors.ts';
import { loadPlaybook } from '../../src/playbooks/load.ts';
import { parseMeasurement, parseWalkthroughId } from '../../src/walkthrough/index.ts';
import { AT, newRecord, play } from './helpers.ts';

describe('parseMeasurement', () => {
  it.each([
    ['85', 'percent', 85],
    ['85 %', 'percent', 85],
    ['3.5 GiB', 'MiB', 3584],
    ['512m', 'GiB', 0.5],
    ['2g', 'bytes', 2 * 1024 ** 3],
    ['1200ms', 'seconds', 1.2],
    ['2 s', 'ms', 2000],
    ['1,024', 'count', 1024],
    ['0.8', 'ratio', 0.8],
  ] as const)('%s in %s is %s', (text, unit, value) => {
    expect(parseMeasurement(text, unit)).toBe(value);
  });

  it.each([
    ['lots', 'percent'],
    ['5 GiB', 'percent'],
    ['85%', 'count'],
  ] as const)('%s is not a %s', (text, unit) => {
    expect(parseMeasurement(text, unit)).toBeUndefined();
  });
});

describe('walkthrough ids', () => {
  it('carry their conversation', () => {
    expect(parseWalkthroughId('T01-C02-abc123')).toEqual({
      workspace: 'T01',
      conversation: 'C02',
      id: 'T01-C02-abc123',
    });
    expect(parseWalkthroughId('T01:C02:abc123')).toBeUndefined();
  });
});

describe('thread event', () => {
  it('links a walkthrough to a thread, in the audit trail, whatever its status', () => {
    const record = play(newRecord(), [
      { type: 'start' },
      { type: 'abort' },
      { type: 'thread', thread: '1700000000.5' },
    ]);
    expect(record.thread).toBe('1700000000.5');
    expect(record.audit.at(-1)).toEqual({
      at: AT,
      actor: 'U1',
      event: 'thread',
      step: 'which-limit',
      detail: 'linked to thread 1700000000.5',
    });
  });
});

describe('loading a playbook with a broken procedure', () => {
  it('stops with an error naming the procedure file and the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-proc-'));
    try {
      const folder = join(dir, 'test-walk');
      cpSync(new URL('../fixtures/playbooks/test-walk', import.meta.url), folder, { recursive: true });
      const file = join(folder, 'procedure.yaml');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace('next: no-leak\n    on_cant', 'next: nowhere\n    on_cant'),
      );
      expect(() => loadPlaybook(folder)).toThrow(PlaybookInvalidError);
      expect(() => loadPlaybook(folder)).toThrow(
        /procedure\.yaml: invalid playbook:\n {2}✖ no step "nowhere"\n {4}→ at steps\[2\]\.next/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
