import type { types } from '@slack/bolt';
import { z } from 'zod';
import { ENGINE_HINTS, type EngineHint } from '../../usecases/types.ts';
import { BLOCK, INPUT, PRIVATE_IDS, VIEW } from '../ids.ts';
import { packJson, readJson } from './codec.ts';
import { LIMITS } from './limits.ts';

/** Where the modal's answer goes: the channel the command was typed in (the modal's private_metadata). */
const PasteModalMetaSchema = z.strictObject({ channel: z.string().min(1) });

export type PasteModalMeta = z.infer<typeof PasteModalMetaSchema>;

/** The metadata back from a submission, or undefined when it is not the paste modal's. */
export function readPasteModalMeta(raw: string | undefined): PasteModalMeta | undefined {
  return readJson(PasteModalMetaSchema, raw);
}

const AUTO = 'auto';

function option(value: string, label: string): types.PlainTextOption {
  return { text: { type: 'plain_text', text: label }, value };
}

function textInput(): types.InputBlock {
  return {
    type: 'input',
    block_id: BLOCK.modalText,
    label: { type: 'plain_text', text: 'Error, stack trace or log excerpt' },
    element: {
      type: 'plain_text_input',
      action_id: INPUT.text,
      multiline: true,
      max_length: LIMITS.plainTextInput,
    },
  };
}

function engineInput(engine?: EngineHint): types.InputBlock {
  const options = [option(AUTO, 'Detect from the text'), ...ENGINE_HINTS.map((e) => option(e, e))];
  const initial = options.find((o) => o.value === (engine ?? AUTO));
  return {
    type: 'input',
    block_id: BLOCK.modalEngine,
    label: { type: 'plain_text', text: 'System' },
    element: {
      type: 'static_select',
      action_id: INPUT.engine,
      options,
      ...(initial ? { initial_option: initial } : {}),
    },
  };
}

function privateInput(): types.InputBlock {
  return {
    type: 'input',
    block_id: PRIVATE_IDS.modalBlock,
    optional: true,
    label: { type: 'plain_text', text: 'Who sees the answer' },
    element: {
      type: 'checkboxes',
      action_id: PRIVATE_IDS.modalInput,
      options: [option(PRIVATE_IDS.modalOption, 'Only me (the walkthrough runs in a DM)')],
    },
  };
}

/** The bare `/memdoctor` form: a large text box and an engine select. */
export function pasteModal(meta: PasteModalMeta, engine?: EngineHint): types.ModalView {
  return {
    type: 'modal',
    callback_id: VIEW.paste,
    private_metadata: packJson(meta, LIMITS.privateMetadata),
    title: { type: 'plain_text', text: 'memdoctor' },
    submit: { type: 'plain_text', text: 'Diagnose' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [textInput(), engineInput(engine), privateInput()],
  };
}

/** Reads the engine select; "detect" and unknown values mean no hint. */
export function engineFrom(value: string | undefined | null): EngineHint | undefined {
  return (ENGINE_HINTS as readonly string[]).includes(value ?? '') ? (value as EngineHint) : undefined;
}
