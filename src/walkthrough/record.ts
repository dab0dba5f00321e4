import { z } from 'zod';
import { ProcedureSchema } from './procedure-schema.ts';
import { AnswerSchema } from './steps/registry.ts';
import { FindingSchema, RoundSchema } from './steps/step-schemas.ts';

/** Workspace and conversation parts: safe inside a Redis hash tag and inside an id. */
const namePart = z
  .string()
  .regex(/^[A-Za-z0-9_.]{1,64}$/, 'letters, digits, "_" and "." only (Slack ids fit)');
const stepId = z.string().min(1);
const at = z.iso.datetime();

/** One answered step on the way from `start` to where the walkthrough is now. */
export const PathEntrySchema = z.strictObject({
  step: stepId,
  answer: AnswerSchema,
  /** Where the answer led. */
  next: stepId,
  /** Who answered; `memdoctor` when a known fact answered it. */
  by: z.string().min(1),
  prefilled: z.boolean(),
  /** Why it went this way: the fact that answered it, or the branch's `because`. */
  because: z.string().optional(),
  at,
});

/** Who did what, when: every accepted event, including back and abort. */
export const AuditEntrySchema = z.strictObject({
  at,
  actor: z.string().min(1),
  event: z.string().min(1),
  step: z.string().optional(),
  detail: z.string(),
});

export const WalkthroughStatusSchema = z.enum(['active', 'done', 'abandoned']);

/**
 * A stored walkthrough. Stored JSON is a boundary, so it is parsed with this schema when read.
 * The procedure is a snapshot: a walkthrough started on one playbook version finishes on it.
 */
export const WalkthroughRecordSchema = z.strictObject({
  format: z.literal(1),
  id: z.string().min(1),
  workspace: namePart,
  conversation: namePart,
  /** The chat thread it lives in, when there is one (Slack `thread_ts`). */
  thread: namePart.optional(),
  playbook: z.strictObject({ id: z.string().min(1), version: z.string().min(1), title: z.string() }),
  procedure: ProcedureSchema,
  status: WalkthroughStatusSchema,
  /** The step waiting for an answer (or the conclusion reached); null before `start`. */
  current: stepId.nullable(),
  path: z.array(PathEntrySchema),
  /** Rounds of the bisection in progress at `current`. */
  rounds: z.array(RoundSchema),
  /** Facts from the diagnosis that started it. */
  facts: z.array(FindingSchema),
  /** Named values from the diagnosis (derived settings, config values), for templates and prefill. */
  values: z.record(z.string(), z.string()),
  owner: z.string().min(1),
  participants: z.array(z.string().min(1)),
  /** The most recent audit entries (see RECENT_AUDIT_ENTRIES); earlier ones are in the store's audit log. */
  audit: z.array(AuditEntrySchema),
  /** How many earlier audit entries the store's audit log holds; records written before it had none. */
  archivedAudit: z.number().int().min(0).default(0),
  createdAt: at,
  updatedAt: at,
  /** Increases by one on every accepted event; the stores write only over the version read. */
  version: z.number().int().min(0),
});

export type { Answer } from './steps/registry.ts';
export type { Finding, Round } from './steps/step-schemas.ts';
export type PathEntry = z.infer<typeof PathEntrySchema>;
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export type WalkthroughStatus = z.infer<typeof WalkthroughStatusSchema>;
export type WalkthroughRecord = z.infer<typeof WalkthroughRecordSchema>;

/** Where a walkthrough lives: a Slack workspace and channel, or `local` / `console`. */
export interface Conversation {
  workspace: string;
  conversation: string;
}

const ID = /^([A-Za-z0-9_.]{1,64})-([A-Za-z0-9_.]{1,64})-([a-z0-9]{6,32})$/;

/**
 * Ids carry their conversation (`T0123-C0456-k3h9x2m7qa`) so a store finds the record, and its
 * Redis hash slot, from the id alone.
 */
export function makeWalkthroughId(where: Conversation, random: string): string {
  return `${where.workspace}-${where.conversation}-${random}`;
}

/** The conversation an id belongs to; undefined when it is not a walkthrough id. */
export function parseWalkthroughId(id: string): (Conversation & { id: string }) | undefined {
  const match = ID.exec(id);
  if (!match?.[1] || !match[2]) return undefined;
  return { workspace: match[1], conversation: match[2], id };
}
