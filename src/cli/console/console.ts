import { userInfo } from 'node:os';
import {
  type DiagnosisInput,
  type DiagnosisResult,
  diagnose,
  walkthroughStart,
} from '../../diagnosis/index.ts';
import { asMemdoctorError } from '../../errors.ts';
import type { LlmAssist } from '../../llm/assist.ts';
import { findPlaybook } from '../../playbooks/load.ts';
import { startWalkthrough } from '../../usecases/start-walkthrough.ts';
import { ENGINE_HINTS, type EngineHint, type Playbook } from '../../usecases/types.ts';
import type { DiagnosisFacts, WalkthroughService } from '../../walkthrough/index.ts';
import type { CliIo } from '../command.ts';
import { openInput, seekableInput } from '../input.ts';
import { renderReport } from '../render/diagnosis.ts';
import { renderSuggestion } from '../render/suggestion.ts';
import { ConsoleCase, type ConsoleCases } from './case.ts';
import { ConsoleFetch, type ConsoleFetching } from './fetch.ts';
import { BRACKETED_END, LineReader, PASTE_TERMINATOR } from './lines.ts';
import { readBlockOrPath } from './paste.ts';
import { CONSOLE_CONVERSATION, WALK_HELP, WalkSession } from './session.ts';

const HELP = `memdoctor console
  paste an error    then type . on a line of its own (or press Ctrl-D); memdoctor diagnoses it
                    (a terminal that marks pastes ends the paste by itself)
  a file path       diagnoses that log file (plain or .gz)
  glue <error>      the same with an engine hint (glue, spark, flink or beam), when the paste alone
                    does not show the system; glue <file path> works too
  walk              step through the procedure of the last diagnosis
  walk <playbook>   step through a playbook's procedure without a diagnosis
  walk suggested    step through the playbook a model suggested for the last diagnosis
  resume <id>       pick up a walkthrough again
  status            the active walkthroughs
  help              this text
  quit              leave
${WALK_HELP}`;

/** What the console needs: playbooks, the walkthrough service, and who is typing. */
export interface ConsoleOptions {
  playbooks: readonly Playbook[];
  service: WalkthroughService;
  /** Defaults to the OS user name. */
  actor?: string;
  /** The optional model help (docs/llm.md); without it the console never calls a model. */
  assist?: LlmAssist;
  /**
   * The connectors.yaml in force (MEMDOCTOR_CONNECTORS) and the gate of its fetches (the configured
   * caps, src/console.ts); without it no step offers a fetch.
   */
  fetching?: ConsoleFetching;
  /** The session's inputs are one case (docs/cases.md); without it each input stands alone. */
  cases?: ConsoleCases;
  /** MEMDOCTOR_HEAP_DUMP_BUDGET: a heap dump whose analysis would need more is refused (also in a walkthrough's heap-dump step). */
  heapDumpBudget?: number;
}

/** The person at the keyboard, as a walkthrough actor name. */
export function localActor(): string {
  try {
    return userInfo().username || 'local';
  } catch {
    return 'local';
  }
}

function isEngine(word: string): word is EngineHint {
  return (ENGINE_HINTS as readonly string[]).includes(word);
}

/** The interactive console: diagnose pastes and files, then walk through the procedure. */
export class Console {
  private readonly reader: LineReader;
  private readonly session: WalkSession;
  /** The last diagnosis: its facts prefill the next walkthrough, whichever playbook it is. */
  private last: { top: Playbook | undefined; result: DiagnosisResult; suggested?: Playbook } | undefined;
  /** An engine hint typed alone (`glue`), for the paste or path that follows. */
  private hint: EngineHint | undefined;
  /** The session's case: every input diagnosed here, read together. */
  private readonly case: ConsoleCase | undefined;

  constructor(
    private readonly io: CliIo,
    private readonly options: ConsoleOptions,
  ) {
    this.reader = new LineReader(io.stdin, io.stdout as NodeJS.WritableStream);
    this.session = new WalkSession(
      options.service,
      this.reader,
      (t) => io.stdout.write(t),
      options.actor ?? localActor(),
      options.assist,
      options.fetching ? new ConsoleFetch(options.service, options.fetching) : undefined,
      options.heapDumpBudget,
    );
    this.case = options.cases
      ? new ConsoleCase(options.cases, options.playbooks, (t) => this.write(t), options.heapDumpBudget)
      : undefined;
  }

  private write(text: string): void {
    this.io.stdout.write(text);
  }

  /** Reads lines until the input ends or the user quits. `stopWhenFinished` ends after a conclusion. */
  async run(stopWhenFinished = false): Promise<void> {
    for (;;) {
      if (this.reader.isTerminal) this.write(this.session.active ? 'answer> ' : '> ');
      const line = await this.reader.next();
      // Ctrl-D on a terminal ends a paste; at the prompt with nothing to answer it leaves.
      if (line === undefined || (line === null && !this.session.active)) break;
      // A `.` with no paste open (say, after a paste the terminal already ended) is dropped.
      if (line === null || line === BRACKETED_END || line.trim() === PASTE_TERMINATOR) continue;
      if ((await this.safely(line)) === 'quit') break;
      if (stopWhenFinished && this.session.record && !this.session.active) break;
    }
    this.reader.close();
    const open = this.session.record;
    if (open?.status === 'active' && this.options.service.storeKind === 'redis')
      this.write(`Walkthrough ${open.id} is saved; continue with: memdoctor resume ${open.id}\n`);
  }

  /** One line; an error is shown and the console goes on. */
  private async safely(line: string): Promise<'quit' | undefined> {
    try {
      return await this.handle(line);
    } catch (error) {
      this.write(`! ${asMemdoctorError(error).message}\n`);
      return undefined;
    }
  }

  private async handle(line: string): Promise<'quit' | undefined> {
    const [word = '', arg] = line.trim().split(/\s+/);
    const verb = word.toLowerCase();
    if (verb === 'quit' || verb === 'exit') return 'quit';
    if (verb === 'help' || verb === '?') this.write(HELP);
    else if (await this.session.command(verb, arg)) return undefined;
    else if (this.session.active) await this.session.answer(line);
    else if (this.session.answerAfterEnd(line)) return undefined;
    else await this.idle(line, verb, arg);
    return undefined;
  }

  /** Input while no walkthrough waits for an answer: start or resume one, or diagnose. */
  private async idle(line: string, verb: string, arg: string | undefined): Promise<void> {
    if (verb === 'walk' || verb === 'start') return this.walk(arg);
    if (verb === 'resume' && arg) return this.resume(arg);
    if (line.trim() === '') return;
    // `glue <paste>`, as `/memdoctor glue <paste>` in Slack: the hint first, then the error.
    if (isEngine(verb)) {
      const rest = line.trim().slice(verb.length).trim();
      if (rest === '') {
        this.hint = verb;
        this.write(
          `Engine hint ${verb}: now paste the error (then . on a line of its own) or type a file path.\n`,
        );
        return;
      }
      return this.diagnose(rest, verb);
    }
    const engine = this.hint;
    this.hint = undefined;
    return this.diagnose(line, engine);
  }

  /** Diagnoses a file named by `first`, or the block pasted from `first` on. */
  private async diagnose(first: string, engine: EngineHint | undefined): Promise<void> {
    const input = await readBlockOrPath(this.reader, first);
    if ('path' in input) {
      if (input.missing) this.write(`! no such file: ${first.trim()}\n`);
      else await this.diagnoseFile(input.path, engine);
      return;
    }
    await this.diagnoseInput({ source: 'paste', text: input.text }, engine);
    await this.case?.add({ source: 'paste', text: input.text }, engine);
  }

  /** Diagnoses a log file and shows the report; its facts go to the next `walk`. */
  async diagnoseFile(path: string, engine?: EngineHint): Promise<void> {
    // Seekable: a heap dump is read a second time for its threads' names.
    const seekable = seekableInput(path);
    await this.diagnoseInput(
      { source: path, chunks: openInput(path), ...(seekable ? { seekable } : {}) },
      engine,
    );
    await this.case?.add({ source: path, chunks: openInput(path) }, engine);
  }

  /** The report as soon as the engine has it; then, apart from it, the model's suggestion. */
  private async diagnoseInput(input: DiagnosisInput, engine: EngineHint | undefined): Promise<void> {
    const { playbooks, assist, heapDumpBudget } = this.options;
    let printed = 0;
    const onReport = (report: DiagnosisResult) => {
      // A heap dump's notes are its numbered evidence lines: before the answer that cites them.
      if (report.heap) {
        for (const note of report.notes) this.write(`(${note})\n`);
        printed = report.notes.length;
      }
      this.show(report);
    };
    const result = await diagnose(
      { input, workspace: 'console', onReport, ...(engine ? { engine } : {}) },
      {
        playbooks,
        ...(assist ? { assist } : {}),
        ...(heapDumpBudget !== undefined ? { heapDumpBudget } : {}),
      },
    );
    for (const note of result.notes.slice(printed)) this.write(`(${note})\n`);
    this.showSuggestion(result);
  }

  private showSuggestion({ suggestion }: DiagnosisResult): void {
    if (!suggestion || !this.last) return;
    this.write(renderSuggestion(suggestion, 'none'));
    const playbook = this.options.playbooks.find((p) => p.id === suggestion.playbook);
    if (playbook?.procedure === undefined) return;
    this.last.suggested = playbook;
    this.write(`Type walk suggested to go through "${playbook.title}" step by step.\n`);
  }

  private show(result: DiagnosisResult): void {
    this.write(
      renderReport(
        result.report,
        this.options.playbooks.map((p) => p.id),
      ),
    );
    const top = result.report.diagnoses[0];
    const playbook = top ? findPlaybook(this.options.playbooks, top.playbook) : undefined;
    this.last = { top: playbook, result };
    if (!playbook) return;
    this.write(
      playbook.procedure === undefined
        ? 'This playbook has no step-by-step procedure yet.\n'
        : `Type walk to go through "${playbook.title}" step by step.\n`,
    );
  }

  /** The last diagnosis' facts, with the values of its diagnosis for this playbook. */
  private factsFor(playbook: Playbook): DiagnosisFacts | undefined {
    const fromCase = this.case?.known(playbook.id);
    if (fromCase) return fromCase;
    return this.last ? walkthroughStart(this.last.result, playbook.id) : undefined;
  }

  /** Starts a walkthrough of a playbook by id, or of the last diagnosis; the last diagnosis' facts prefill it. */
  async walk(id?: string): Promise<void> {
    const playbook =
      id === 'suggested'
        ? this.last?.suggested
        : id
          ? findPlaybook(this.options.playbooks, id)
          : (this.caseLead() ?? this.last?.top);
    if (!playbook && id === 'suggested') {
      this.write('No model suggestion to walk through: the last diagnosis got none.\n');
      return;
    }
    if (!playbook) {
      this.write('Nothing diagnosed yet: paste an error first, or type walk <playbook>.\n');
      return;
    }
    const diagnosis = this.factsFor(playbook);
    const record = await startWalkthrough(
      { playbooks: this.options.playbooks, walkthroughs: this.options.service },
      {
        playbook,
        where: CONSOLE_CONVERSATION,
        owner: this.options.actor ?? localActor(),
        ...(diagnosis ? { diagnosis } : {}),
      },
    );
    this.session.focus(record);
  }

  /** The playbook the session's case leads with, once it holds two inputs or more. */
  private caseLead(): Playbook | undefined {
    const id = this.case?.leadPlaybook();
    return id ? this.options.playbooks.find((p) => p.id === id) : undefined;
  }

  /** Continues an existing walkthrough. */
  async resume(id: string): Promise<void> {
    this.session.focus(await this.options.service.get(id));
  }
}
