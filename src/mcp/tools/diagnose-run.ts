import { type DiagnosisInput, diagnose, diagnoseCase } from '../../diagnosis/index.ts';
import { openFile, seekableFile } from '../../file-input.ts';
import type { EngineHint } from '../../usecases/types.ts';
import type { McpDeps } from '../deps.ts';
import { caseText, resultText } from '../render.ts';
import { answer } from '../results.ts';
import type { SessionDiagnoses } from '../session.ts';

function hint(engine: EngineHint | undefined) {
  return engine ? { engine } : {};
}

/** One input (a paste or a file) diagnosed as `diagnose --json` diagnoses it, and kept for the session. */
async function one(deps: McpDeps, session: SessionDiagnoses, input: DiagnosisInput, engine?: EngineHint) {
  const result = await diagnose({ input, workspace: 'mcp', ...hint(engine) }, await deps.diagnosisContext());
  const json = result.suggestion ? { ...result.report, suggestion: result.suggestion } : result.report;
  const text = resultText(
    result,
    (await deps.playbooks()).map((p) => p.id),
  );
  const kept = session.addResult(input.source, result, json, text);
  return answer(`${text}\n(diagnosis ${kept.n}: memdoctor://diagnoses/${kept.n})`, json);
}

/** Several files read as one case, as `diagnose --together --json` reads them. */
async function together(
  deps: McpDeps,
  session: SessionDiagnoses,
  paths: readonly string[],
  engine?: EngineHint,
) {
  const inputs = paths.map((path) => ({ source: path, chunks: openFile(path) }));
  const report = await diagnoseCase({ inputs, ...hint(engine) }, await deps.diagnosisContext());
  const text = caseText(report);
  const kept = session.addCase(paths, report, text);
  return answer(`${text}\n(diagnosis ${kept.n}: memdoctor://diagnoses/${kept.n})`, report);
}

/** The pasted text, one file (streamed, its blocks read by the threads when large) or a case of files. */
export function runDiagnose(
  deps: McpDeps,
  session: SessionDiagnoses,
  request: { text?: string | undefined; paths: readonly string[]; engine?: EngineHint | undefined },
) {
  const { text, paths, engine } = request;
  if (text !== undefined) return one(deps, session, { source: 'paste', text }, engine);
  if (paths.length > 1) return together(deps, session, paths, engine);
  const [path = ''] = paths;
  const seekable = seekableFile(path);
  return one(
    deps,
    session,
    { source: path, chunks: openFile(path), ...(seekable ? { seekable } : {}) },
    engine,
  );
}
