// @ts-nocheck
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { ParsedOutput, Parser } from '../../src/engine/parsers/types.ts';
import type { Playbook } from '../../src/engine/playbook/schema.ts';
import { ParseFailedError } from '../../src/errors.ts';
import { loadPlaybook } from '../../src/playbooks/load.ts';
import type { WalkthroughEvent } from '../../src/walkthrough/events.ts';
import { checkProcedure } from '../../src/walkthrough/lint.ts';
import { createRecord, transition } from '../../src/walkthrough/machine.ts';
import type { Procedure } from '../../src/walkthrough/procedure-schema.ts';
import type { Finding, WalkthroughRecord } from '../../src/walkthrough/record.ts';

/** The raw test procedure, as YAML loads it. */
export function rawProcedure(): unknown {
  return parseYaml(readFileSync(new URL('./fixtures/procedure.yaml', import.meta.url), 'utf8'));
}

/** Parsers a test procedure may name. */
export const TEST_PARSERS = new Set(['test-kv']);

/** The test procedure, validated and linted. */
export function testProcedure(): Procedure {
  const check = checkProcedure(rawProcedure(), TEST_PARSERS);
  if (!check.ok) throw new Error(check.message);
  return check.procedure;
}

/**
 * A test-only parser: `key=value` lines, starting with a `# samples` header. Reports `growth` and
 * the other keys as values, and a fact `samples.growth` when growth is over 10.
 */
export function parseKv(parserId: string, text: string): ParsedOutput {
  if (parserId !== 'test-kv') throw new ParseFailedError(`unknown parser "${parserId}"`);
  const lines = text.split('\n');
  if (lines[0]?.trim() !== '# samples')
    throw new ParseFailedError(
      'this does not look like memory samples: run sample-memory --every 10s and paste what it prints.',
    );
  const values: Record<string, number | string> = {};
  for (const line of lines.slice(1)) {
    const [key, value] = line.split('=');
    if (key && value !== undefined)
      values[key.trim()] = Number.isNaN(Number(value)) ? value.trim() : Number(value);
  }
  const growth = typeof values.growth === 'number' ? values.growth : 0;
  return {
    format: 'test-kv',
    facts:
      growth > 10
        ? [{ kind: 'samples.growth', values: { percent: growth }, line: 1, text: lines[1] ?? '' }]
        : [],
    values,
    summary: `memory grew ${growth}% over the samples`,
  };
}

export const AT = '2026-03-01T10:00:00.000Z';

/** A fresh record of the test procedure, before `start`. */
export function newRecord(facts: Finding[] = [], values: Record<string, string> = {}): WalkthroughRecord {
  return createRecord({
    id: 'local-test-abc123',
    workspace: 'local',
    conversation: 'test',
    playbook: { id: 'test-leak', version: 'v1', title: 'Test leak' },
    procedure: testProcedure(),
    facts,
    values,
    owner: 'U1',
    at: AT,
  });
}

/** Applies events in order as `actor`, failing the test on a refused one. */
export function play(record: WalkthroughRecord, events: WalkthroughEvent[], actor = 'U1'): WalkthroughRecord {
  let current = record;
  for (const event of events) {
    const result = transition(current, event, { actor, at: AT, parse: parseKv });
    if (!result.ok) throw new Error(`${event.type} refused: ${result.error.message}`);
    current = result.record;
  }
  return current;
}

/** The test parser as a registry entry, for services and views. */
export const TEST_PARSER_REGISTRY: Readonly<Record<string, Parser>> = {
  'test-kv': {
    id: 'test-kv',
    title: 'memory samples',
    howToGet: 'sample-memory --every 10s',
    detect: (head) => head[0]?.trim() === '# samples',
    create: () => {
      const lines: string[] = [];
      return {
        push: (line) => {
          lines.push(line);
        },
        finish: () => parseKv('test-kv', lines.join('\n')),
      };
    },
  },
};

/** A loaded playbook whose procedure is the test procedure (every step kind). */
export function testPlaybook(): Playbook {
  const base = loadPlaybook(fileURLToPath(new URL('../fixtures/playbooks/test-walk', import.meta.url)));
  return { ...base, id: 'test-leak', title: 'Test leak', procedure: rawProcedure() };
}
