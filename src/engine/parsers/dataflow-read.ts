import { z } from 'zod';

/** One Dataflow job message (JobMessage of the v1b3 API): when, how important, what it says. */
export interface JobMessage {
  time: string;
  importance: string;
  text: string;
  /** The input line it starts on. */
  line: number;
}

/** What a Dataflow job says about itself (Job of the v1b3 API), as far as memory needs it. */
export interface JobSummary {
  name?: string;
  state?: string;
  type?: string;
  sdkName?: string;
  sdkVersion?: string;
  sdkSupport?: string;
  line: number;
}

// Field names as the v1b3 discovery document (and googleapis' generated dataflow_v1b3) defines them.
const Message = z.looseObject({
  time: z.string().optional(),
  messageImportance: z.string().optional(),
  messageText: z.string().optional(),
});
const MessagesResponse = z.looseObject({ jobMessages: z.array(Message) });
const Job = z.looseObject({
  name: z.string().optional(),
  type: z.string().optional(),
  currentState: z.string().optional(),
  jobMetadata: z
    .looseObject({
      sdkVersion: z
        .looseObject({
          version: z.string().optional(),
          versionDisplayName: z.string().optional(),
          sdkSupportStatus: z.string().optional(),
        })
        .optional(),
    })
    .optional(),
  environment: z
    .looseObject({
      userAgent: z.looseObject({ name: z.string().optional(), version: z.string().optional() }).optional(),
    })
    .optional(),
});

/**
 * A job message as Beam's DataflowRunner logs it while it waits for the job ("2022-02-22T18:43:20.001Z:
 * JOB_MESSAGE_ERROR: Workflow failed. ..."), after whatever prefix the launcher's logging adds.
 */
export const RUNNER_LINE =
  /(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z): (JOB_MESSAGE_(?:DEBUG|DETAILED|BASIC|WARNING|ERROR|IMPORTANCE_UNKNOWN)): (.*)/;

/** A new record of the launcher's own logging ("INFO:root:...", "WARNING[transport.py]: ..."): a message ends there. */
const LOG_RECORD = /^(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)[:[]/;

/** Tracks where a JSON value pasted over several lines ends: brackets outside strings, in one pass. */
class JsonDepth {
  depth = 0;
  feed(line: string): void {
    let inString = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') this.depth++;
      else if (c === '}' || c === ']') this.depth--;
    }
  }
}

/** Reads job messages and the job from what a person pastes or the connector fetched. */
export class DataflowReader {
  readonly messages: JobMessage[] = [];
  job?: JobSummary;
  /** JSON values that were neither messages nor a job: said in the failure when nothing else was read. */
  unknownJson = 0;
  private json?: { text: string; line: number; depth: JsonDepth };
  private open?: JobMessage;

  constructor(private readonly maxChars: number) {}

  push(line: string, lineNo: number): void {
    const start = line.trimStart()[0];
    if (!this.json && (start === '{' || start === '[')) {
      this.open = undefined;
      this.json = { text: '', line: lineNo, depth: new JsonDepth() };
    }
    if (this.json) {
      this.continueJson(line);
      return;
    }
    const m = RUNNER_LINE.exec(line);
    if (m) {
      this.open = { time: m[1] ?? '', importance: m[2] ?? '', text: m[3] ?? '', line: lineNo };
      this.messages.push(this.open);
    } else if (LOG_RECORD.test(line)) this.open = undefined;
    else if (this.open && line.trim()) this.open.text += `\n${line}`;
  }

  /** Takes in a JSON value cut off by the end of the input, if it parses. */
  finish(): void {
    if (this.json) this.take(this.json.text, this.json.line);
    this.json = undefined;
  }

  private continueJson(line: string): void {
    const json = this.json;
    if (!json) return;
    if (json.text.length <= this.maxChars) json.text += `${line}\n`;
    json.depth.feed(line);
    if (json.depth.depth > 0) return;
    this.json = undefined;
    this.take(json.text, json.line);
  }

  private take(text: string, line: number): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.unknownJson++;
      return;
    }
    const list = Array.isArray(value) ? value : MessagesResponse.safeParse(value).data?.jobMessages;
    if (list) {
      this.takeMessages(list, line);
      return;
    }
    const job = Job.safeParse(value).data;
    if (job && (job.currentState || job.jobMetadata || job.type?.startsWith('JOB_TYPE_')))
      this.job = jobSummary(job, line);
    else this.unknownJson++;
  }

  private takeMessages(list: readonly unknown[], line: number): void {
    for (const item of list) {
      const m = Message.safeParse(item).data;
      if (m?.messageText === undefined) continue;
      this.messages.push({
        time: m.time ?? '',
        importance: m.messageImportance ?? 'JOB_MESSAGE_IMPORTANCE_UNKNOWN',
        text: m.messageText,
        line,
      });
    }
  }
}

function jobSummary(job: z.infer<typeof Job>, line: number): JobSummary {
  const sdk = job.jobMetadata?.sdkVersion;
  const agent = job.environment?.userAgent;
  const sdkName = sdk?.versionDisplayName ?? agent?.name;
  const sdkVersion = sdk?.version ?? agent?.version;
  return {
    line,
    ...(job.name ? { name: job.name } : {}),
    ...(job.currentState ? { state: job.currentState } : {}),
    ...(job.type ? { type: job.type } : {}),
    ...(sdkName ? { sdkName } : {}),
    ...(sdkVersion ? { sdkVersion } : {}),
    ...(sdk?.sdkSupportStatus ? { sdkSupport: sdk.sdkSupportStatus } : {}),
  };
}
