import type { Config } from '../../config.ts';
import { diagnoseText } from '../../engine/index.ts';
import { loadPlaybooks } from '../../playbooks/load.ts';
import { renderReport } from '../render/diagnosis.ts';

/** Reads all of stdin as one paste, diagnoses it and prints the report. */
export async function startConsole(_config: Config): Promise<number> {
  const playbooks = loadPlaybooks();
  process.stdout.write('memdoctor: paste an error, then press Ctrl-D.\n');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const { book: _book, ...report } = await diagnoseText(
    'paste',
    Buffer.concat(chunks).toString('utf8'),
    playbooks,
  );
  process.stdout.write(
    renderReport(
      report,
      playbooks.map((p) => p.id),
    ),
  );
  return 0;
}
