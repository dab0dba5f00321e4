// @ts-nocheck
import { z } from 'zod';
import { PlaybookSchema } from '../engine/playbook/schema.ts';

/** The JSON Schema of playbook.yaml, for editors (yaml-language-server) to complete and check. */
export function playbookJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(PlaybookSchema, { io: 'input' }),
    title: 'memdoctor playbook',
    description:
      'playbooks/<id>/playbook.yaml: what a memory problem looks like, why it happens and what to do.',
  };
}
