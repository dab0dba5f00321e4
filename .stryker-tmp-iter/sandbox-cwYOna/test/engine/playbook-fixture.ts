// @ts-nocheck
import { type Playbook, PlaybookSchema } from '../../src/engine/playbook/schema.ts';

/** A minimal valid playbook for engine tests; `match` and the rest can be overridden. */
export function testPlaybook(
  id: string,
  match: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Playbook {
  const spec = PlaybookSchema.parse({
    id,
    title: `Title of ${id}`,
    engine: 'jvm',
    summary: 'A test playbook.',
    explanation: 'Explains nothing; exists for tests.',
    match,
    actions: [{ text: 'Do the thing.' }],
    ...extra,
  });
  return { ...spec, version: 'test', dir: `/nonexistent/${id}` };
}
