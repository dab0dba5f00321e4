import type { ConnectorsConfig } from '../../../src/connectors/config.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../../src/playbooks/load.ts';
import { FETCH_ID_BLOCK_PREFIX, FETCH_ID_INPUT, VIEW } from '../../../src/slack/ids.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../../src/walkthrough/index.ts';
import { showAnswersIn } from '../support/access.ts';
import { click, startWalk, threadReplies } from '../support/clicks.ts';
import { type Harness, startHarness, waitFor } from '../support/harness.ts';
import { viewSubmission } from '../support/payloads.ts';

// The walk both fetch-ids tests take: flink-pending-slots up to job-slots, whose fetch needs the job id
// a walkthrough started by hand does not know, and its "Fetch from ...…" form.

export const OWNER = 'UALICE01';
export const CHANNEL = 'CFETCH02';
const PLAYBOOKS = loadPlaybooks(PLAYBOOKS_DIR);

export function startWith(connectors: ConnectorsConfig): Promise<Harness> {
  return startHarness({
    walkthroughs: new WalkthroughService({ store: new MemoryWalkthroughStore() }),
    extend: (base) => ({ ...base, playbooks: PLAYBOOKS, connectors: showAnswersIn(connectors, CHANNEL) }),
  });
}

export const stepTitled = (h: Harness, root: { ts: string }, title: string) =>
  waitFor(() => threadReplies(h, CHANNEL, root.ts).find((m) => m.text?.includes(title)));

const TO_JOB_SLOTS: [string, string][] = [
  ['Are all tasks of the job running?', 'Some tasks are not running'],
  ["What do the job's exceptions show?", 'Empty, or only slot timeouts'],
  ['Does the JobManager say the job waits for slots?', 'Yes, it waits'],
  ['Did TaskManagers go away while the job ran?', 'No, they stayed up'],
];

/** /memdoctor walk flink-pending-slots up to job-slots, its "Fetch from ...…" clicked: the form opened. */
export async function toJobSlotsForm(h: Harness) {
  const root = await startWalk(h, 'flink-pending-slots', { user: OWNER, channel: CHANNEL });
  for (const [title, label] of TO_JOB_SLOTS) await click(h, await stepTitled(h, root, title), label, OWNER);
  const jobSlots = await stepTitled(h, root, 'Does the cluster have as many slots');
  await click(h, jobSlots, 'Fetch from Flink JobManager…', OWNER);
  const opened = await waitFor(() => h.fake.callsTo('views.open')[0]);
  const view = JSON.parse(String(opened.args.view)) as {
    callback_id: string;
    private_metadata: string;
    blocks: { label?: { text: string } }[];
  };
  const submit = (jobId: string) => submitFetchForm(h, view, 'jobId', jobId);
  return { root, jobSlots, view, submit };
}

/** Submits a "Fetch from ...…" form with one id typed into its field, as the person would. */
function submitFetchForm(h: Harness, view: { private_metadata: string }, id: string, value: string) {
  return h.sender.interaction(
    viewSubmission({
      user: OWNER,
      callbackId: VIEW.fetchIds,
      privateMetadata: view.private_metadata,
      values: {
        [`${FETCH_ID_BLOCK_PREFIX}${id}`]: { [FETCH_ID_INPUT]: { type: 'plain_text_input', value } },
      },
    }),
  );
}

/** Clicks "Fetch from <system>…" on a step and submits its form with the one id it asks for. */
export async function fetchWithId(
  h: Harness,
  step: Parameters<typeof click>[1],
  system: string,
  id: { name: string; value: string },
) {
  const opened = h.fake.callsTo('views.open').length;
  await click(h, step, `Fetch from ${system}…`, OWNER);
  const call = await waitFor(() => h.fake.callsTo('views.open')[opened]);
  const view = JSON.parse(String(call.args.view)) as { callback_id: string; private_metadata: string };
  if (view.callback_id !== VIEW.fetchIds) throw new Error(`opened ${view.callback_id}, not the fetch form`);
  await submitFetchForm(h, view, id.name, id.value);
}
