import { slotFit } from '../calculators/flink-slots.ts';
import { formatSize } from '../units.ts';
import { fact, output, parseFailed } from './common.ts';
import { jsonResourcesUnreported, taskManagersFromJson } from './flink-rest.ts';
import { requestedProfiles } from './resource-profile.ts';
import type { Parser, ParserRun } from './types.ts';

/** A /taskmanagers response is small; anything far larger is not one. */
const MAX_JSON_CHARS = 8 * 1024 * 1024;

/**
 * Where the first JSON object or array of a text ends (the index after its closing bracket), found
 * in one pass that skips strings; undefined when it never closes (a cut-off paste).
 */
function firstValueEnd(text: string, start: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
  }
  return undefined;
}

/**
 * The JSON with whatever follows it (a prompt, a log line) left out. One scan and one parse: trying
 * JSON.parse again for each trailing line cost 6.5 s on a 6 MB paste.
 */
function parseJsonWithTrailer(text: string): unknown {
  const start = text.search(/[{[]/);
  const end = start < 0 ? undefined : firstValueEnd(text, start);
  if (end === undefined) return undefined;
  try {
    return JSON.parse(text.slice(start, end));
  } catch {
    return undefined;
  }
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
    const first = requests[0];
    const asked = `${requests.length} request(s) (the first: ${first?.cpuCores} cores, ${formatSize(first?.taskHeapMemory ?? 0)} task heap) against ${tms.length} TaskManager(s)`;
    const line = this.firstLine || 1;
    const why = jsonResourcesUnreported(parsed);
    if (why) return unreported(why, asked, requests.length, tms.length, line);
    const fit = slotFit(requests, tms);
    const values = {
      verdict: fit.verdict,
      requests: requests.length,
      taskManagers: tms.length,
      unplaced: fit.unplaced.length,
      short: Object.keys(fit.shortfall).join(', '),
    };
    const summary = `${asked}: ${fit.advice}`;
    const facts = fit.verdict === 'fragmentation' ? [fact('flink.fragmentation', line, summary)] : [];
    return output('flink-slot-fit', values, summary, facts, undefined, line);
  }
}

/**
 * A /taskmanagers answer without resources (an older Flink), or with all of them 0 (Flink 1.11-1.12), cannot be compared with the requests: said
 * so, with what to compare by hand, rather than "0 B free" and a shortfall of everything requested.
 */
function unreported(why: string, asked: string, requests: number, taskManagers: number, line: number) {
  const values = { verdict: 'resources-unreported', requests, taskManagers, unplaced: 0, short: '' };
  const summary = `${asked}: ${why}, so the requests cannot be compared with what is free; compare them with the TaskManagers' configured memory (flink-conf.yaml) by hand.`;
  return output('flink-slot-fit', values, summary, [], undefined, line);
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
  // `curl /taskmanagers` prints minified JSON on one line: about 900 characters per TaskManager.
  maxLineChars: MAX_JSON_CHARS,
  detect: (head) => head.some((l) => l.includes('ResourceProfile{')),
  create: () => new SlotFitRun(),
};
