/** action_id and callback_id values: one place, so listeners and views cannot drift apart. */
export const ACTION = {
  startWalkthrough: 'memdoctor.walk.start',
  showAlternatives: 'memdoctor.diagnosis.alternatives',
  notMemory: 'memdoctor.diagnosis.not_memory',
  /** Shown only with a model configured: a model explains the diagnosis in plain words. */
  explain: 'memdoctor.diagnosis.explain',
  /** Step buttons share a prefix; the suffix keeps action_ids unique within one actions block. */
  stepAnswerPrefix: 'memdoctor.step.answer:',
  /** "Fetch from Flink JobManager" on a step a configured connector can answer. */
  fetchStep: 'memdoctor.step.fetch',
  /** The same, where the walkthrough lacks an id the fetch needs: it opens a form asking for it. */
  fetchStepIds: 'memdoctor.step.fetch_ids',
} as const;

export const STEP_ANSWER_PATTERN = /^memdoctor\.step\.answer:/;

export const VIEW = {
  paste: 'memdoctor.paste',
  /** The form asking for the ids a fetch needs (a Flink job id, a Glue job name and run id). */
  fetchIds: 'memdoctor.fetch.ids_modal',
} as const;

/** One input block per id in the fetch-ids form: `memdoctor.fetch.id:<jobId>`, its input `id`. */
export const FETCH_ID_BLOCK_PREFIX = 'memdoctor.fetch.id:';
export const FETCH_ID_INPUT = 'id';

export const BLOCK = {
  diagnosisActions: 'memdoctor.diagnosis.actions',
  modalText: 'memdoctor.paste.text',
  modalEngine: 'memdoctor.paste.engine',
} as const;

export const INPUT = {
  text: 'text',
  engine: 'engine',
} as const;

/** "Did this fix it?" at a conclusion: one button per answer, then "Add a note" and its modal. */
export const FEEDBACK_IDS = {
  answerPrefix: 'memdoctor.feedback.answer:',
  note: 'memdoctor.feedback.note',
  noteView: 'memdoctor.feedback.note_modal',
  noteBlock: 'memdoctor.feedback.note_text',
  noteInput: 'note',
  actionsBlock: 'memdoctor.feedback.actions',
} as const;

export const FEEDBACK_ANSWER_PATTERN = /^memdoctor\.feedback\.answer:/;

/** The message shortcut's callback_id, as manifest.yaml declares it. */
export const SHORTCUT = { diagnoseMessage: 'memdoctor.diagnose_message' } as const;

/** A private diagnosis (ephemeral): its Start button runs the walkthrough in the person's DM. */
export const PRIVATE_IDS = {
  startInDm: 'memdoctor.walk.start_dm',
  modalBlock: 'memdoctor.paste.private',
  modalInput: 'private',
  modalOption: 'only-me',
} as const;
