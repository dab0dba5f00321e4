// @ts-nocheck
import { ENGINE_HINTS, type EngineHint } from '../engine/index.ts';

/** What a `/memdoctor ...` line asks for. */
export type SlashRequest =
  | { kind: 'modal'; engine?: EngineHint }
  | { kind: 'help' }
  | { kind: 'list' }
  | { kind: 'status' }
  | { kind: 'walk'; playbook: string }
  | { kind: 'calc'; args: string[] }
  | { kind: 'diagnose'; text: string; engine?: EngineHint };

/** Some Slack clients turn a typed `--` into a dash; flags need it back. */
function undoSmartDash(arg: string): string {
  return arg.replace(/^[\u2014\u2013]/, '--');
}

function isEngine(word: string): word is EngineHint {
  return (ENGINE_HINTS as readonly string[]).includes(word);
}

/**
 * Reads the text after `/memdoctor`. A known verb as the whole first word selects it; an engine
 * name as the first word is a hint for the paste after it; anything else is a paste to diagnose.
 */
export function parseSlashText(raw: string): SlashRequest {
  const text = raw.trim();
  if (text === '') return { kind: 'modal' };
  const match = /^(\S+)(?:\s+([\s\S]*))?$/.exec(text);
  const first = (match?.[1] ?? '').toLowerCase();
  const rest = (match?.[2] ?? '').trim();
  if (first === 'help' && rest === '') return { kind: 'help' };
  if (first === 'list' && rest === '') return { kind: 'list' };
  if (first === 'status' && rest === '') return { kind: 'status' };
  if (first === 'walk' && /^[a-z][a-z0-9-]*$/.test(rest)) return { kind: 'walk', playbook: rest };
  if (first === 'calc')
    return { kind: 'calc', args: rest === '' ? [] : rest.split(/\s+/).map(undoSmartDash) };
  if (isEngine(first))
    return rest === '' ? { kind: 'modal', engine: first } : { kind: 'diagnose', text: rest, engine: first };
  return { kind: 'diagnose', text };
}
