// @ts-nocheck
import { writeFileSync } from 'node:fs';
import { playbookJsonSchema } from '../src/playbooks/json-schema.ts';

// Regenerates schema/playbook.schema.json; a test fails when the committed file is out of date.
const target = new URL('../schema/playbook.schema.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(playbookJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
