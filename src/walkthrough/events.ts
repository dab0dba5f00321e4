import { z } from 'zod';
import { FetchedFromSchema, FindingSchema } from './steps/step-schemas.ts';

/** Optional on every answer: the step it answers, so a stale button cannot answer a later step. */
const step = z.string().min(1).optional();

/**
 * What a person can do to a walkthrough. Chat buttons and console input become one of these; the
 * schema is the boundary for anything that arrives as JSON (a button's value).
 */
export const WalkthroughEventSchema = z.discriminatedUnion('type', [
  /** Enters the first step (the service sends it right after creating the record). */
  z.strictObject({ type: z.literal('start') }),
  /** Instruction carried out. */
  z.strictObject({ type: z.literal('done'), step }),
  /** Instruction, measurement or paste skipped (where the step allows it). */
  z.strictObject({ type: z.literal('skip'), step }),
  /** Instruction that cannot be carried out (where the step has `on_cant`). */
  z.strictObject({ type: z.literal('cant'), step }),
  /** One of a question's answers, by its id. */
  z.strictObject({ type: z.literal('choose'), answer: z.string().min(1), step }),
  /** A measurement, in the step's unit. `from` when a connector fetched it. */
  z.strictObject({
    type: z.literal('measure'),
    value: z.number().finite(),
    step,
    from: FetchedFromSchema.optional(),
  }),
  /** Command output for a paste step; parsed with the step's parser. `from` when a connector fetched it. */
  z.strictObject({
    type: z.literal('paste'),
    text: z.string().min(1),
    step,
    from: FetchedFromSchema.optional(),
  }),
  /**
   * A heap dump for a heap-dump step, as its analysis' facts (the machine never reads a dump: the
   * surface has it analysed by src/usecases/heap-dump-step.ts). `source` is the dump's name.
   */
  z.strictObject({
    type: z.literal('heap-dump'),
    source: z.string().min(1).max(300),
    summary: z.string().max(2000),
    facts: z.array(FindingSchema).max(500),
    step,
  }),
  /** A bisection round's result: did the symptom show with the candidates under test? */
  z.strictObject({ type: z.literal('bisect'), leak: z.boolean(), step }),
  /** Undo the last answer (or the last bisection round). */
  z.strictObject({ type: z.literal('back') }),
  /** Links the walkthrough to a chat thread (when the thread is known only after the first post). */
  z.strictObject({ type: z.literal('thread'), thread: z.string().regex(/^[A-Za-z0-9_.]{1,64}$/) }),
  /** Passes the walkthrough to the next owner (the next on-call person), who may then answer it. */
  z.strictObject({ type: z.literal('handover'), to: z.string().min(1).max(64) }),
  /** Give up; the walkthrough is kept as abandoned. */
  z.strictObject({ type: z.literal('abort'), reason: z.string().max(500).optional() }),
]);

export type WalkthroughEvent = z.infer<typeof WalkthroughEventSchema>;
