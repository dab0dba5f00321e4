import { slotFit } from '../calculators/flink-slots.ts';
import { formatSize } from '../units.ts';
import { fact, output, parseFailed } from './common.ts';
import { taskManagersFromJson } from './flink-rest.ts';
import { requestedProfiles } from './resource-profile.ts';
import type { Parser, ParserRun } from './types.ts';

/** A /taskmanagers response is small; anything far larger is not one. */
const MAX_JSON_CHARS = 8 * 1024 * 1024;

/** JSON that a few lines after it (a prompt, a log line) keep from parsing: drop them, up to a limit. */
const MAX_TRAILING_LINES = 200;

function parseJsonWithTrailer(text: string): unknown {
  const lines = text.split('\n');
  for (let end = lines.length; end > 0 && lines.length - end <= MAX_TRAILING_LINES; end--) {
    try {
      return JSON.parse(lines.slice(0, end).join('\n'));
    } catch {
      // Not complete yet without the last line: try one line fewer.
    }
  }
  return undefined;
}

class SlotFitRun implements ParserRun {
  private profiles = '';
  private json = '';
  private firstLine = 0;

  push(line: string, lineNo: number): void {
    if (line.includes('ResourceProfile{')) {
      if (this.firstLine === 0) this.firstLine = lineNo;
      this.profiles += `${line}\n`;
      return;
    }
    // Log lines around the request ("Missing resources:", the job id) come before the JSON starts.
    const started = this.json !== '' || /^\s*[{[]/.test(line);
    if (started && this.json.length < MAX_JSON_CHARS) this.json += `${line}\n`;
  }

  finish() {
    const requests = requestedProfiles(this.profiles);
    if (requests.length === 0)
      throw parseFailed(
        'a sized ResourceProfile{cpuCores=..., taskHeapMemory=...} line before the JSON (a request for ResourceProfile{UNKNOWN} only needs a free slot: paste /taskmanagers alone)',
      );
    const parsed = parseJsonWithTrailer(this.json);
    const tms = parsed === undefined ? undefined : taskManagersFromJson(parsed);
    if (!tms || tms.length === 0)
      throw parseFailed('the complete JSON of GET /taskmanagers after the ResourceProfile line');
    const fit = slotFit(requests, tms);
    const values = {
      verdict: fit.verdict,
      requests: requests.length,
      taskManagers: tms.length,
      unplaced: fit.unplaced.length,
      short: Object.keys(fit.shortfall).join(', '),
    };
    const first = requests[0];
    const summary = `${requests.length} request(s) (the first: ${first?.cpuCores} cores, ${formatSize(first?.taskHeapMemory ?? 0)} task heap) against ${tms.length} TaskManager(s): ${fit.advice}`;
    const line = this.firstLine || 1;
    const facts = fit.verdict === 'fragmentation' ? [fact('flink.fragmentation', line, summary)] : [];
    return output('flink-slot-fit', values, summary, facts, undefined, line);
  }
}

/**
 * The slot-fit check of a walkthrough: pending ResourceProfiles (from the JobManager log; stock Flink has no Pending
 * Slots tab) followed by the JSON of GET /taskmanagers, decided by the Flink slot calculator.
 */
export const flinkSlotFitParser: Parser = {
  id: 'flink-slot-fit',
  title: 'pending ResourceProfiles with /taskmanagers JSON',
  howToGet:
    'the ResourceProfile line of a pending request, then `curl -s http://<jobmanager>:8081/taskmanagers`',
  // Two outputs pasted together only make sense where a step asks for them.
  explicitOnly: true,
  detect: (head) => head.some((l) => l.includes('ResourceProfile{')),
  create: () => new SlotFitRun(),
};
