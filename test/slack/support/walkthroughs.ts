import { randomBytes } from 'node:crypto';
import type { ParsedOutput } from '../../../src/engine/parsers/types.ts';
import type { Playbook } from '../../../src/engine/playbook/schema.ts';
import { ParseFailedError, WalkthroughNotFoundError } from '../../../src/errors.ts';
import type { SlackWalkthroughs, StartRequest } from '../../../src/slack/walkthroughs.ts';
import type { WalkthroughEvent } from '../../../src/walkthrough/events.ts';
import { createRecord, transition } from '../../../src/walkthrough/machine.ts';
import { ProcedureSchema } from '../../../src/walkthrough/procedure-schema.ts';
import { makeWalkthroughId, type WalkthroughRecord } from '../../../src/walkthrough/record.ts';

/** A test parser: `key=value` lines after a `# samples` header. */
export function parseKv(parserId: string, text: string): ParsedOutput {
  if (parserId !== 'test-kv') throw new ParseFailedError(`unknown parser "${parserId}"`);
  const lines = text.trim().split('\n');
  if (lines[0]?.trim() !== '# samples')
    throw new ParseFailedError('this does not look like memory samples: paste the sampler output.');
  const values: Record<string, number> = {};
  for (const line of lines.slice(1)) {
    const [k, v] = line.split('=');
    if (k && v) values[k.trim()] = Number(v);
  }
  return { format: 'test-kv', facts: [], values, summary: `growth ${values.growth ?? '?'}` };
}

/** Until the walkthrough service lands: the state machine over a Map, behind the Slack port. */
export class MapWalkthroughs implements SlackWalkthroughs {
  private readonly records = new Map<string, WalkthroughRecord>();

  constructor(private readonly playbooks: readonly Playbook[]) {}

  async start(request: StartRequest): Promise<WalkthroughRecord> {
    const playbook = this.playbooks.find((p) => p.id === request.playbook);
    if (!playbook?.procedure) throw new WalkthroughNotFoundError(request.playbook, 'no procedure');
    const at = new Date().toISOString();
    const record = createRecord({
      ...request.where,
      id: makeWalkthroughId(request.where, randomBytes(5).toString('hex')),
      thread: request.thread,
      playbook: { id: playbook.id, version: playbook.version, title: playbook.title },
      procedure: ProcedureSchema.parse(playbook.procedure),
      facts: request.facts,
      values: request.values,
      owner: request.owner,
      at,
    });
    return this.store(record, { type: 'start' }, request.owner);
  }

  async get(id: string) {
    return this.records.get(id);
  }

  async apply(id: string, event: WalkthroughEvent, actor: string) {
    const record = this.records.get(id);
    if (!record) throw new WalkthroughNotFoundError(id);
    return this.store(record, event, actor);
  }

  private store(record: WalkthroughRecord, event: WalkthroughEvent, actor: string) {
    const result = transition(record, event, { actor, at: new Date().toISOString(), parse: parseKv });
    if (!result.ok) throw result.error;
    this.records.set(result.record.id, result.record);
    return result.record;
  }

  async listActive(where: { workspace: string; conversation: string }) {
    return [...this.records.values()].filter(
      (r) =>
        r.status === 'active' && r.workspace === where.workspace && r.conversation === where.conversation,
    );
  }

  async transcript(id: string) {
    const record = this.records.get(id);
    if (!record) throw new WalkthroughNotFoundError(id);
    return record.audit.map((a) => `${a.at} ${a.actor} ${a.event} ${a.step ?? ''} ${a.detail}`).join('\n');
  }
}
