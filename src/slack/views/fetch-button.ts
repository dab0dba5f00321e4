import { z } from 'zod';
import type { FetchOffer } from '../../usecases/fetch-step.ts';
import type { StepView } from '../../walkthrough/index.ts';
import { ACTION } from '../ids.ts';
import { actions, type Block, button, context } from './blocks.ts';
import { packJson, readJson } from './codec.ts';
import { packFetchIds } from './fetch-ids-modal.ts';
import { LIMITS } from './limits.ts';

/** What a Fetch button carries: the walkthrough and the version its step was shown at. */
const FetchButtonSchema = z.strictObject({ w: z.string().min(1), v: z.number().int().min(0) });
export type FetchButtonValue = z.infer<typeof FetchButtonSchema>;

/** A Fetch button's value back from a click, or undefined when it is not one. */
export function readFetchButton(value: string | undefined): FetchButtonValue | undefined {
  return readJson(FetchButtonSchema, value);
}

/**
 * The blocks under a step a configured connector can answer: a "Fetch from ..." button when the
 * walkthrough knows every id it needs; otherwise a line naming the ids and a button opening a form that
 * asks for them. Pasting stays the other way.
 */
export function fetchBlocks(view: Pick<StepView, 'walkthrough' | 'version'>, offer: FetchOffer): Block[] {
  const blockId = `memdoctor.step.fetch:${view.walkthrough}`.slice(0, LIMITS.blockId);
  if (offer.missingIds.length > 0) {
    const ids = packFetchIds({ w: view.walkthrough, v: view.version, ids: offer.missingIds, t: offer.title });
    return [
      context(
        `${offer.title} could answer this step, but needs ${offer.missingIds.join(', ')}, which this walkthrough does not know yet: give ${offer.missingIds.length > 1 ? 'them' : 'it'}, or answer by hand.`,
      ),
      actions(blockId, [button(`Fetch from ${offer.title}…`, ACTION.fetchStepIds, ids)]),
    ];
  }
  const value = packJson({ w: view.walkthrough, v: view.version } satisfies FetchButtonValue);
  return [actions(blockId, [button(`Fetch from ${offer.title}`, ACTION.fetchStep, value)])];
}
