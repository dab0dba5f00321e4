// @ts-nocheck
import type { types } from '@slack/bolt';
import { ENGINE_HINTS, type EngineHint } from '../../engine/index.ts';
import { BLOCK, INPUT, VIEW } from '../ids.ts';

/** Where the modal's answer goes: the channel the command was typed in. */
export interface PasteModalMeta {
  channel: string;
}

const AUTO = 'auto';

function option(value: string, label: string): types.PlainTextOption {
  return { text: { type: 'plain_text', text: label }, value };
}

/** The bare `/memdoctor` form: a large text box and an engine select. */
export function pasteModal(meta: PasteModalMeta, engine?: EngineHint): types.ModalView {
  const options = [option(AUTO, 'Detect from the text'), ...ENGINE_HINTS.map((e) => option(e, e))];
  const initial = options.find((o) => o.value === (engine ?? AUTO));
  return {
    type: 'modal',
    callback_id: VIEW.paste,
    private_metadata: JSON.stringify(meta),
    title: { type: 'plain_text', text: 'memdoctor' },
    submit: { type: 'plain_text', text: 'Diagnose' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      {
        type: 'input',
        block_id: BLOCK.modalText,
        label: { type: 'plain_text', text: 'Error, stack trace or log excerpt' },
        element: { type: 'plain_text_input', action_id: INPUT.text, multiline: true, max_length: 3000 },
      },
      {
        type: 'input',
        block_id: BLOCK.modalEngine,
        label: { type: 'plain_text', text: 'System' },
        element: {
          type: 'static_select',
          action_id: INPUT.engine,
          options,
          ...(initial ? { initial_option: initial } : {}),
        },
      },
    ],
  };
}

/** Reads the engine select; "detect" and unknown values mean no hint. */
export function engineFrom(value: string | undefined | null): EngineHint | undefined {
  return (ENGINE_HINTS as readonly string[]).includes(value ?? '') ? (value as EngineHint) : undefined;
}
