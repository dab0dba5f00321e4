import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { asMemdoctorError } from '../../errors.ts';
import type { LlmAssist } from '../../llm/assist.ts';
import { answerStep } from '../../usecases/answer-step.ts';
import { heapDumpStepEvent } from '../../usecases/heap-dump-step.ts';
import {
  answerFromText,
  type Conversation,
  optionByWord,
  type StepView,
  type WalkthroughEvent,
  type WalkthroughRecord,
  type WalkthroughService,
  walkthroughCharts,
} from '../../walkthrough/index.ts';
import { writeNamedCharts } from '../charts.ts';
import { openInput, seekableInput } from '../input.ts';
import type { ConsoleFetch } from './fetch.ts';
import { renderFetched, renderFetchPrompt } from './fetch.ts';
import type { LineReader } from './lines.ts';
import { readPaste } from './paste.ts';
import { renderProgress, renderStatusLine, renderStep } from './render-step.ts';

/** The console's conversation: one local workspace, one console channel. */
export const CONSOLE_CONVERSATION: Conversation = { workspace: 'local', conversation: 'console' };

export const WALK_HELP = `While walking through a procedure:
  1, 2, 3 ...   choose an answer by its number (done/skip/cant also work)
  a number      for a measurement, as the tool shows it: 0.85 or 85%, 3.5 GiB, 7.8 min / 1.2 h
  paste         for a paste step, paste the output, then type . on a line of its own (or press
                Ctrl-D); blank lines inside the output are kept. A file path reads the output from
                that file. A terminal that marks pastes ends the paste by itself.
  fetch         where a step offers it, fetch the output from the configured connector
                (MEMDOCTOR_CONNECTORS) instead of pasting it; \`fetch <job-id>\` gives an id it needs
  back          undo the last answer
  status        where this walkthrough stands, and the other active ones
  transcript    the walkthrough as Markdown, for incident notes; \`transcript notes/oom.md\` writes
                it to that file, with the charts it names (SVG and PNG) beside it
  abort         give up on this walkthrough
  quit          leave (with Redis set up, memdoctor resume <id> picks it up again)
`;

/** A typed answer: a number or measurement (95, 0.85, 85%, 3.5 GiB, 7.8 min) or an answer word. */
const ANSWER_LIKE = /^(?:[-+]?\d[\d.,]*\s*(?:%|[a-z]{1,3})?|done|skip|cant|can't|yes|no)$/i;

/** Drives one walkthrough from typed lines: answers, back, abort, status, transcript. */
export class WalkSession {
  record: WalkthroughRecord | undefined;

  constructor(
    private readonly service: WalkthroughService,
    private readonly reader: LineReader,
    private readonly write: (text: string) => void,
    private readonly actor: string,
    /** With a model configured, `transcript` at a conclusion also prints a draft incident note. */
    private readonly assist?: LlmAssist,
    /** With connectors configured, steps they can answer offer `fetch`. */
    private readonly fetcher?: ConsoleFetch,
    /** MEMDOCTOR_HEAP_DUMP_BUDGET for a dump given to a heap-dump step. */
    private readonly heapDumpBudget?: number,
  ) {}

  get active(): boolean {
    return this.record?.status === 'active';
  }

  /** Makes a walkthrough the current one and shows where it stands. */
  focus(record: WalkthroughRecord): void {
    this.record = record;
    const kept =
      this.service.storeKind === 'redis'
        ? `kept in Redis; resume it with: memdoctor resume ${record.id}`
        : 'kept in memory until you quit';
    this.write(`Walkthrough ${record.id} (${record.playbook.title}), ${kept}.\n`);
    this.write(renderProgress({ ...record, path: [] }, record));
    this.show(record);
  }

  private show(record: WalkthroughRecord): void {
    const view = this.service.view(record);
    if (view) this.write(renderStep(view));
    const offer = this.fetcher?.offer(record);
    if (offer) this.write(renderFetchPrompt(offer));
    if (record.status === 'done') this.write('Finished. Type transcript for the Markdown notes.\n');
    if (record.status === 'abandoned') this.write('This walkthrough was abandoned.\n');
  }

  /**
   * Handles `back`, `abort`, `status`, `transcript [FILE]`; false when the word is not one of them.
   * `arg` is the word after it.
   */
  async command(word: string, arg?: string): Promise<boolean> {
    if (word === 'status') {
      await this.status();
      return true;
    }
    if (!this.record) {
      if (['back', 'abort', 'transcript'].includes(word)) {
        this.write('No walkthrough yet: paste an error first, or type walk <playbook>.\n');
        return true;
      }
      return false;
    }
    if (word === 'transcript') {
      const transcript = await this.service.transcript(this.record.id);
      if (arg) await this.exportTranscript(this.record, transcript, arg);
      else this.write(`\n${transcript}`);
      if (this.record.status === 'done') await this.incidentDraft(transcript);
      return true;
    }
    if (word === 'back') return this.send({ type: 'back' }).then(() => true);
    if (word === 'abort')
      return this.send({ type: 'abort', reason: 'aborted at the console' }).then(() => true);
    return false;
  }

  /** The transcript into `file`, and the charts it names beside it under those names. */
  private async exportTranscript(record: WalkthroughRecord, transcript: string, file: string): Promise<void> {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, transcript);
    this.write(`transcript: ${file}\n`);
    await writeNamedCharts(dirname(file), walkthroughCharts(record), {
      said: this.write,
      failed: this.write,
    });
  }

  /** The model's draft incident note after the transcript, set apart and labelled as a draft. */
  private async incidentDraft(transcript: string): Promise<void> {
    if (!this.assist) return;
    const outcome = await this.assist.incidentNote({ workspace: 'console', transcript });
    if (outcome.value === undefined) {
      this.write(`(no incident draft: ${outcome.note})\n`);
      return;
    }
    this.write(
      `\n-- Draft incident note, written by a model from the transcript above; check it before filing --\n${outcome.value}`,
    );
  }

  private async status(): Promise<void> {
    const active = await this.service.listActive(CONSOLE_CONVERSATION);
    if (this.record) {
      const fresh = await this.service.get(this.record.id).catch(() => this.record);
      if (fresh) this.write(`Current:\n${renderStatusLine(fresh, this.service.view(fresh))}\n`);
    }
    this.write(
      active.length === 0
        ? 'No active walkthroughs.\n'
        : `Active walkthroughs:\n${active.map((r) => renderStatusLine(r, this.service.view(r))).join('\n')}\n`,
    );
  }

  /** Turns an answer line into an event for the current step (a paste reads the whole block). */
  private async eventFor(line: string, view: StepView): Promise<WalkthroughEvent | string> {
    const word = optionByWord(view, line);
    if (word && 'event' in word) return word.event;
    if (view.input === 'dump') return this.dumpEvent(line.trim(), view);
    let text = line;
    if (view.input === 'output') {
      const input = await readPaste(this.reader, line);
      if ('problem' in input) return input.problem;
      if (input.file) this.write(`  (read the output from ${input.file})\n`);
      text = input.text;
    }
    const answer = answerFromText(view, text);
    if ('refusal' in answer) return answer.refusal;
    if (answer.shown) this.write(`  read as ${answer.shown}\n`);
    return answer.event;
  }

  /** A heap dump named by its path, analysed here into the step's answer; a problem as a sentence. */
  private async dumpEvent(path: string, view: StepView): Promise<WalkthroughEvent | string> {
    const seekable = seekableInput(path);
    if (!seekable) return `no such file: ${path} (type the path of the .hprof or .hprof.gz file, or skip)`;
    this.write(`  reading the heap dump ${path} ...\n`);
    try {
      const dump = { source: path, chunks: openInput(path), seekable };
      const budget = this.heapDumpBudget === undefined ? {} : { budgetBytes: this.heapDumpBudget };
      return await heapDumpStepEvent(dump, budget, view.step);
    } catch (error) {
      return asMemdoctorError(error).message;
    }
  }

  /**
   * A step that wants a typed answer takes a one-line paste as typed; a longer paste is refused
   * whole, so its lines never answer this step or the ones after it.
   */
  private async notAPaste(line: string, view: StepView): Promise<string | undefined> {
    if (view.input === 'output' || !this.reader.lastPasted) return line;
    const text = await this.reader.block(line);
    if (!text.includes('\n')) return text;
    const count = text.split('\n').length;
    this.write(`! this step does not take pasted output; the ${count} pasted lines were not used.\n`);
    return undefined;
  }

  /**
   * After a walkthrough ends, a line that reads as an answer (a number, done, skip...) was meant for
   * it: say so, rather than take it as the first line of a paste that would swallow the commands
   * after it. False when the line is something else.
   */
  answerAfterEnd(line: string): boolean {
    if (!this.record || this.active || this.reader.lastPasted) return false;
    if (!ANSWER_LIKE.test(line.trim())) return false;
    const state = this.record.status === 'done' ? 'finished' : 'abandoned';
    this.write(
      `This walkthrough is ${state}: type transcript, status, walk to start again, or paste a new error.\n`,
    );
    return true;
  }

  /** Handles one answer line for the current step. */
  async answer(line: string): Promise<void> {
    if (!this.record) return;
    const view = this.service.view(this.record);
    if (!view) return;
    if (/^fetch(\s|$)/i.test(line.trim()) && this.fetcher?.offer(this.record))
      return this.fetch(this.fetcher, this.record, line);
    const typed = await this.notAPaste(line, view);
    if (typed === undefined) return;
    const event = await this.eventFor(typed, view);
    if (typeof event === 'string') {
      this.write(`! ${event}\n`);
      return;
    }
    await this.send(event);
  }

  /** Answers the step from its connector; a fault prints the connector's message and changes nothing. */
  private async fetch(fetcher: ConsoleFetch, before: WalkthroughRecord, line: string): Promise<void> {
    const result = await fetcher.run(before, line, this.actor);
    this.write(renderFetched(result));
    if (result.kind === 'answered') {
      this.record = result.after;
      this.write(renderProgress(before, result.after));
      this.show(result.after);
    } else if (result.kind !== 'not-fetched') this.write(`! ${result.error.message}\n`);
  }

  private async send(event: WalkthroughEvent): Promise<void> {
    const before = this.record;
    if (!before) return;
    const request = { walkthrough: before.id, event, actor: this.actor, expectedVersion: before.version };
    const result = await answerStep({ walkthroughs: this.service }, request).catch(
      (error: unknown) => ({ kind: 'failed', error: asMemdoctorError(error) }) as const,
    );
    if (result.kind === 'answered') {
      this.record = result.after;
      this.write(renderProgress(event.type === 'back' ? result.after : before, result.after));
      this.show(result.after);
      return;
    }
    this.write(`! ${result.error.message}\n`);
    // Someone else moved the walkthrough on: show where it is now rather than the stale step.
    if (result.kind === 'stale') {
      this.record = result.current ?? (await this.service.get(before.id));
      this.show(this.record);
    }
  }
}
