import type { CaseReport, DiagnosisResult } from '../diagnosis/index.ts';

/** How many diagnoses a session keeps as resources: enough to look back on, bounded however long it runs. */
export const KEPT_DIAGNOSES = 20;

/** One diagnosis this server made, as its resource shows it. */
export interface SessionDiagnosis {
  /** 1, 2, 3 ... in the order they were made: `memdoctor://diagnoses/<n>`. */
  n: number;
  at: string;
  /** What was diagnosed: `paste`, a path, or the paths of a case. */
  sources: string[];
  /** The tool's structured output: `diagnose --json` (one input) or `diagnose --together --json`. */
  json: object;
  text: string;
  /** One input's result: a walkthrough started after it is prefilled from its facts. */
  result?: DiagnosisResult;
}

/** The diagnoses of this session (one stdio server is one session), newest last. */
export class SessionDiagnoses {
  private readonly kept: SessionDiagnosis[] = [];
  private count = 0;

  constructor(private readonly onChange: () => void = () => {}) {}

  /** Keeps one input's diagnosis. */
  addResult(source: string, result: DiagnosisResult, json: object, text: string): SessionDiagnosis {
    return this.keep({ sources: [source], json, text, result });
  }

  /** Keeps a case's answer. */
  addCase(sources: readonly string[], report: CaseReport, text: string): SessionDiagnosis {
    return this.keep({ sources: [...sources], json: report, text });
  }

  private keep(entry: Omit<SessionDiagnosis, 'n' | 'at'>): SessionDiagnosis {
    this.count += 1;
    const kept = { n: this.count, at: new Date().toISOString(), ...entry };
    this.kept.push(kept);
    if (this.kept.length > KEPT_DIAGNOSES) this.kept.shift();
    this.onChange();
    return kept;
  }

  /** Every kept diagnosis, oldest first. */
  list(): readonly SessionDiagnosis[] {
    return this.kept;
  }

  get(n: number): SessionDiagnosis | undefined {
    return this.kept.find((d) => d.n === n);
  }

  /** The newest diagnosis of one input (what a walkthrough starts from, as in the console). */
  lastResult(): SessionDiagnosis | undefined {
    return this.kept.findLast((d) => d.result !== undefined);
  }
}
