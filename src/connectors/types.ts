import type { RestTarget } from './config.ts';

/** Where a fetched answer came from, recorded beside it (a transcript says "fetched", with this). */
export interface FetchedFrom {
  connector: string;
  /**
   * The path and query asked for, relative to the configured base URL (no host, no secrets); for a
   * connector on a client library, the API calls made ("GetJobRun JobName=... RunId=...").
   */
  path: string;
  /** ISO time the answer arrived. */
  fetchedAt: string;
}

/** One answer as the system gave it, and the text a person would have pasted for the same step. */
export interface Fetched {
  resource: string;
  from: FetchedFrom;
  /** The raw response body. */
  body: string;
  /** What the parser reads: the body itself, or the part of it a paste holds (YARN's diagnostics). */
  paste: string;
  /** The parser a paste of this output goes to; undefined when no parser reads it yet. */
  parser?: string;
  /** Fetched fields a diagnosis cites, e.g. `taskmanagers[2].freeResource.taskHeapMemory = 0 MiB`. */
  citations: string[];
}

/** What to fetch: one of the connector's resources, with the ids it needs (a job id, an app id). */
export interface FetchRequest {
  resource: string;
  ids?: Readonly<Record<string, string>>;
}

/** What a fetch runs with: the configured target, and a clock and fetch tests can replace. */
export interface FetchContext<Target = RestTarget> {
  target: Target;
  now?: () => Date;
}

/** One thing a connector can fetch: what it is, the ids it needs, and the parser its output goes to. */
export interface ResourceSpec {
  /** What it is, for 404 messages and `check` help: "the TaskManagers". */
  what: string;
  ids: readonly string[];
  parser?: string;
  /**
   * What an answer that holds nothing (blank, an empty list) means for this resource, said in place of
   * handing it to the parser: a valid empty answer is not the wrong output.
   */
  empty?: string;
}

/**
 * A read-only source of evidence. REST connectors take a RestTarget; connectors built on a client
 * library (Kubernetes, Glue, Dataflow) take their own settings as Target and keep this shape.
 */
export interface Connector<Target = RestTarget> {
  readonly name: string;
  /** The system's name in messages: "Flink JobManager". */
  readonly title: string;
  readonly resources: Readonly<Record<string, ResourceSpec>>;
  fetch(request: FetchRequest, context: FetchContext<Target>): Promise<Fetched>;
  /**
   * Throws the ConnectorError `fetch` would throw for the request's ids, asking nothing: ids that
   * come from elsewhere than a person (an alert's labels) are checked before they are queued.
   */
  checkIds(request: FetchRequest, target: Target): void;
}

/** A fetched path as a person reads it: "GET /overview" for a REST path, an API call as it is. */
export function requestText(path: string): string {
  return path.startsWith('/') ? `GET ${path}` : path;
}
