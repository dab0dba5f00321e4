import type { Finding } from '../engine/index.ts';
import type { DiagnosisFacts } from '../walkthrough/index.ts';
import type { DiagnosisResult } from './diagnose.ts';

function scalarValues(raw: unknown): Record<string, string> {
  const values: Record<string, string> = {};
  const entries = Object.entries((raw as { values?: Record<string, unknown> } | undefined)?.values ?? {});
  for (const [key, value] of entries)
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      values[key] = String(value);
  return values;
}

/**
 * What a walkthrough starts from: facts (without lines) and the named values of the diagnosis of
 * its playbook (`facts` of the contract's diagnosis), for prefill and templates.
 */
export function knownFacts(findings: readonly Finding[], diagnosisFacts: unknown): DiagnosisFacts {
  return {
    facts: findings.map((f) => (f.values ? { kind: f.kind, values: { ...f.values } } : { kind: f.kind })),
    values: scalarValues(diagnosisFacts),
  };
}

/**
 * What a walkthrough of `playbook` (the top diagnosis by default) starts from: every fact the input
 * showed, and the named values (derived settings, config values) of that playbook's diagnosis, for
 * prefill and templates.
 */
export function walkthroughStart(
  result: Pick<DiagnosisResult, 'report' | 'findings'>,
  playbook: string | undefined = result.report.diagnoses[0]?.playbook,
): DiagnosisFacts {
  const diagnosis = result.report.diagnoses.find((d) => d.playbook === playbook);
  return knownFacts(result.findings, diagnosis?.facts);
}
