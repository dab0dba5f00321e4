import type { types } from '@slack/bolt';
import { z } from 'zod';
import { FETCH_ID_BLOCK_PREFIX, FETCH_ID_INPUT, VIEW } from '../ids.ts';
import { packJson, readJson } from './codec.ts';
import { LIMITS } from './limits.ts';

/**
 * What the "Fetch from ..." button of a step that lacks ids carries, and then the form: the
 * walkthrough, the version its step was shown at, the ids to ask for and the connector's title.
 */
const FetchIdsSchema = z.strictObject({
  w: z.string().min(1),
  v: z.number().int().min(0),
  ids: z
    .array(z.string().regex(/^[A-Za-z]{1,40}$/))
    .min(1)
    .max(4),
  t: z.string().min(1).max(60),
});
export type FetchIdsValue = z.infer<typeof FetchIdsSchema>;

/** The form's metadata: the button's value and the thread the answer goes to. */
const FetchIdsMetaSchema = FetchIdsSchema.extend({ channel: z.string().min(1), thread: z.string().min(1) });
export type FetchIdsMeta = z.infer<typeof FetchIdsMetaSchema>;

export function readFetchIdsButton(value: string | undefined): FetchIdsValue | undefined {
  return readJson(FetchIdsSchema, value);
}

export function readFetchIdsMeta(raw: string | undefined): FetchIdsMeta | undefined {
  return readJson(FetchIdsMetaSchema, raw);
}

export function packFetchIds(value: FetchIdsValue): string {
  return packJson(value);
}

/** "jobId" as a person reads it: "job id"; "taskManagerId": "task manager id". */
export function idLabel(id: string): string {
  return id.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** The longest id any connector takes (a Glue job name: 255) with room to spare; longer is not an id. */
const MAX_ID_CHARS = 300;

function idInput(id: string): types.InputBlock {
  return {
    type: 'input',
    block_id: `${FETCH_ID_BLOCK_PREFIX}${id}`,
    label: { type: 'plain_text', text: idLabel(id) },
    element: { type: 'plain_text_input', action_id: FETCH_ID_INPUT, max_length: MAX_ID_CHARS },
  };
}

/** The form asking for the ids a step's fetch needs; submitting it fetches and answers the step. */
export function fetchIdsModal(meta: FetchIdsMeta): types.ModalView {
  return {
    type: 'modal',
    callback_id: VIEW.fetchIds,
    private_metadata: packJson(meta, LIMITS.privateMetadata),
    title: { type: 'plain_text', text: 'Fetch' },
    submit: { type: 'plain_text', text: 'Fetch' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: `memdoctor reads this step's answer from ${meta.t}, read-only. It needs:`,
        },
      },
      ...meta.ids.map(idInput),
    ],
  };
}

type StateValues = Record<string, Record<string, { value?: string | null }>>;

/**
 * The ids typed into the form, trimmed; or, per block, what is wrong with one (the form shows it
 * under the field). The connector checks each id's own format before building any request.
 */
export function readFetchIds(
  ids: readonly string[],
  values: StateValues,
): { ids: Record<string, string> } | { errors: Record<string, string> } {
  const typed: Record<string, string> = {};
  const errors: Record<string, string> = {};
  for (const id of ids) {
    const block = `${FETCH_ID_BLOCK_PREFIX}${id}`;
    const value = (values[block]?.[FETCH_ID_INPUT]?.value ?? '').trim();
    if (value === '') errors[block] = `Give the ${idLabel(id)}.`;
    else if (/\p{Cc}/u.test(value)) errors[block] = `A ${idLabel(id)} is one line of text.`;
    else typed[id] = value;
  }
  return Object.keys(errors).length > 0 ? { errors } : { ids: typed };
}
