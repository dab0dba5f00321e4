import { describe, expect, it } from 'vitest';
import { FETCH_ID_BLOCK_PREFIX, FETCH_ID_INPUT, VIEW } from '../../../src/slack/ids.ts';
import {
  fetchIdsModal,
  idLabel,
  packFetchIds,
  readFetchIds,
  readFetchIdsButton,
  readFetchIdsMeta,
} from '../../../src/slack/views/fetch-ids-modal.ts';

const typed = (values: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(values).map(([id, value]) => [
      `${FETCH_ID_BLOCK_PREFIX}${id}`,
      { [FETCH_ID_INPUT]: { value } },
    ]),
  );

describe('the fetch-ids form', () => {
  it('asks for each missing id under its readable name, and carries where the answer goes', () => {
    const meta = { w: 'wt1', v: 3, ids: ['jobName', 'runId'], t: 'AWS Glue', channel: 'C1', thread: '1.2' };
    const modal = fetchIdsModal(meta);
    expect(modal.callback_id).toBe(VIEW.fetchIds);
    expect(modal.blocks.map((b) => ('label' in b ? b.label.text : b.type))).toEqual([
      'section',
      'job name',
      'run id',
    ]);
    expect(readFetchIdsMeta(modal.private_metadata)).toEqual(meta);
  });

  it('reads ids trimmed; an empty or multi-line one is shown under its field', () => {
    expect(readFetchIds(['jobName', 'runId'], typed({ jobName: ' nightly rollup ', runId: 'jr_1' }))).toEqual(
      {
        ids: { jobName: 'nightly rollup', runId: 'jr_1' },
      },
    );
    expect(readFetchIds(['jobName', 'runId'], typed({ jobName: 'a\nb', runId: '' }))).toEqual({
      errors: {
        [`${FETCH_ID_BLOCK_PREFIX}jobName`]: 'A job name is one line of text.',
        [`${FETCH_ID_BLOCK_PREFIX}runId`]: 'Give the run id.',
      },
    });
  });

  it('refuses a button value that is not its own, and names ids as people say them', () => {
    const value = { w: 'wt1', v: 0, ids: ['jobId'], t: 'Flink JobManager' };
    expect(readFetchIdsButton(packFetchIds(value))).toEqual(value);
    expect(readFetchIdsButton(JSON.stringify({ ...value, ids: ['job id; rm'] }))).toBeUndefined();
    expect(readFetchIdsButton('{"w":"wt1","v":0}')).toBeUndefined();
    expect(idLabel('taskManagerId')).toBe('task manager id');
  });
});
