import type { Cite } from '../join.ts';

/** What refined a case diagnosis' cause: the rule, the cause it proves, and the input line that proved it. */
export interface RefinedBy {
  rule: string;
  cause: string;
  title: string;
  /** One sentence: what the input shows and why it decides the cause. */
  because: string;
  /** The line that refined it, `input:line` and its text. */
  evidence: Cite & { text: string };
  /** The cause the diagnosis had before (the playbook's own choice), null when it had none. */
  was: string | null;
  source: string;
}
