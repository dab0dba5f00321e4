import { WalkthroughForbiddenError } from '../errors.ts';
import type { Conversation, WalkthroughRecord, WalkthroughService } from '../walkthrough/index.ts';

/** Who takes a walkthrough over, from whom, where. */
export interface HandOverRequest {
  where: Conversation;
  actor: string;
  to: string;
  /** The walkthrough named; unset: the actor's only active one in `where`. */
  walkthrough?: string;
  /** Whether `actor` may pass on a walkthrough `owner` owns (owner, on-call); anyone when unset. */
  mayHandOver?: (owner: string) => Promise<boolean>;
}

export type HandOverResult =
  | { kind: 'handed'; before: WalkthroughRecord; after: WalkthroughRecord }
  | { kind: 'not-found'; walkthrough: string }
  | { kind: 'none-owned' }
  | { kind: 'several-owned'; ids: string[] }
  | { kind: 'not-allowed'; owner: string };

type Picked = { record: WalkthroughRecord } | Exclude<HandOverResult, { kind: 'handed' | 'not-allowed' }>;

/** The walkthrough meant: the one named, or the actor's only active one in this conversation. */
async function pick(walkthroughs: WalkthroughService, request: HandOverRequest): Promise<Picked> {
  const active = await walkthroughs.listActive(request.where);
  if (request.walkthrough) {
    const named = active.find((r) => r.id === request.walkthrough);
    return named ? { record: named } : { kind: 'not-found', walkthrough: request.walkthrough };
  }
  const own = active.filter((r) => r.owner === request.actor);
  if (own.length === 1 && own[0]) return { record: own[0] };
  if (own.length === 0) return { kind: 'none-owned' };
  return { kind: 'several-owned', ids: own.map((r) => r.id) };
}

/**
 * Passes a walkthrough to someone else: only its owner or an on-call engineer may, checked on the
 * record the one `apply` call reads; the machine records it in the audit trail. Store errors are thrown.
 */
export async function handOver(
  context: { walkthroughs: WalkthroughService },
  request: HandOverRequest,
): Promise<HandOverResult> {
  const picked = await pick(context.walkthroughs, request);
  if (!('record' in picked)) return picked;
  let before = picked.record;
  const check = async (current: WalkthroughRecord) => {
    before = current;
    if (request.mayHandOver && !(await request.mayHandOver(current.owner)))
      throw new WalkthroughForbiddenError(current.owner);
  };
  try {
    const event = { type: 'handover', to: request.to } as const;
    const after = await context.walkthroughs.apply(before.id, event, request.actor, undefined, check);
    return { kind: 'handed', before, after };
  } catch (error) {
    if (error instanceof WalkthroughForbiddenError) return { kind: 'not-allowed', owner: error.owner };
    throw error;
  }
}
