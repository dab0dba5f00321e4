/** action_id and callback_id values: one place, so listeners and views cannot drift apart. */
// @ts-nocheck

export const ACTION = {
  startWalkthrough: 'memdoctor.walk.start',
  showAlternatives: 'memdoctor.diagnosis.alternatives',
  notMemory: 'memdoctor.diagnosis.not_memory',
  /** Shown only with a model configured: a model explains the diagnosis in plain words. */
  explain: 'memdoctor.diagnosis.explain',
  /** Step buttons share a prefix; the suffix keeps action_ids unique within one actions block. */
  stepAnswerPrefix: 'memdoctor.step.answer:',
} as const;

export const STEP_ANSWER_PATTERN = /^memdoctor\.step\.answer:/;

export const VIEW = {
  paste: 'memdoctor.paste',
} as const;

export const BLOCK = {
  diagnosisActions: 'memdoctor.diagnosis.actions',
  modalText: 'memdoctor.paste.text',
  modalEngine: 'memdoctor.paste.engine',
} as const;

export const INPUT = {
  text: 'text',
  engine: 'engine',
} as const;
