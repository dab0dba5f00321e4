import { randomBytes } from 'node:crypto';
import type { DiagnosisInput } from '../../diagnosis/index.ts';
import { asMemdoctorError } from '../../errors.ts';
import {
  addToCase,
  type CaseAnswer,
  type CaseLimits,
  type CaseStore,
  type CaseWhere,
  leadGroup,
} from '../../usecases/add-to-case.ts';
import type { EngineHint, Playbook } from '../../usecases/types.ts';
import type { DiagnosisFacts } from '../../walkthrough/index.ts';
import { renderCaseText } from '../commands/diagnose-together.ts';

/** A session's case takes the system named with its first input (cases/record.ts), so the hint says so. */
const CONSOLE_ENGINE_HINT = (engine: string) =>
  `type ${engine} before the first input of a new session (a session's case takes the system named with its first input)`;

/** Where the console keeps its cases, and how much one reads. */
export interface ConsoleCases {
  store: CaseStore;
  limits: CaseLimits;
}

/**
 * The inputs of one console session are one case (the same use case as a Slack thread): each input
 * is added, and from the second on the answer over all of them is shown, saying which were read
 * together and what the new one changed.
 */
export class ConsoleCase {
  private readonly where: CaseWhere;
  private answer: CaseAnswer | undefined;

  constructor(
    private readonly cases: ConsoleCases,
    private readonly playbooks: readonly Playbook[],
    private readonly write: (text: string) => void,
    /** MEMDOCTOR_HEAP_DUMP_BUDGET for a heap dump added to the case, as `diagnose --together` has it. */
    private readonly heapDumpBudget?: number,
  ) {
    this.where = {
      workspace: 'local',
      conversation: 'console',
      thread: `s${randomBytes(6).toString('hex')}`,
    };
  }

  /** Adds an input to the session's case; with two inputs or more, shows the case's answer. */
  async add(input: DiagnosisInput, engine: EngineHint | undefined): Promise<void> {
    const budget = this.heapDumpBudget;
    const context = {
      cases: this.cases.store,
      limits: this.cases.limits,
      playbooks: this.playbooks,
      ...(budget !== undefined ? { heapDumpBudget: budget } : {}),
    };
    try {
      this.answer = await addToCase({ where: this.where, input, ...(engine ? { engine } : {}) }, context);
    } catch (error) {
      this.write(`(not added to this session's case: ${asMemdoctorError(error).message})\n`);
      return;
    }
    const { report, change, record } = this.answer;
    if (record.inputs.length + record.leftOutCount < 2) return;
    this.write(`\n== Read together in this session: ${report.inputs.map((i) => i.source).join(', ')}\n`);
    this.write(renderCaseText(report, CONSOLE_ENGINE_HINT));
    this.write(`What changed: ${change.summary}\n`);
  }

  /** The playbook the case's answer leads with, once the session has two inputs or more. */
  leadPlaybook(): string | undefined {
    if (!this.answer || this.answer.record.inputs.length < 2) return undefined;
    return leadGroup(this.answer.report)?.diagnoses[0]?.playbook;
  }

  /** The whole case's facts, for a walkthrough of the playbook its answer leads with. */
  known(playbook: string): DiagnosisFacts | undefined {
    return this.leadPlaybook() === playbook ? this.answer?.known : undefined;
  }
}
