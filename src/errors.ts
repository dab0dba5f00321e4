/**
 * Every error memdoctor raises on purpose. Each has a stable code (for logs, JSON and tests) and a
 * message written for the person who has to act on it: what was wrong and what to do.
 */
export enum ErrorCode {
  InputUnreadable = 'INPUT_UNREADABLE',
  InputBinary = 'INPUT_BINARY',
  InputTooLarge = 'INPUT_TOO_LARGE',
  PlaybookInvalid = 'PLAYBOOK_INVALID',
  PlaybookNotFound = 'PLAYBOOK_NOT_FOUND',
  ConfigInvalid = 'CONFIG_INVALID',
  UsageInvalid = 'USAGE_INVALID',
  ParseFailed = 'PARSE_FAILED',
  CalculationInvalid = 'CALCULATION_INVALID',
  WalkthroughNotFound = 'WALKTHROUGH_NOT_FOUND',
  WalkthroughConflict = 'WALKTHROUGH_CONFLICT',
  WalkthroughInvalidEvent = 'WALKTHROUGH_INVALID_EVENT',
  WalkthroughForbidden = 'WALKTHROUGH_FORBIDDEN',
  CaseConflict = 'CASE_CONFLICT',
  CaseInputInvalid = 'CASE_INPUT_INVALID',
  StoreUnavailable = 'STORE_UNAVAILABLE',
  LlmUnavailable = 'LLM_UNAVAILABLE',
  LlmInvalidAnswer = 'LLM_INVALID_ANSWER',
  SlackDownloadFailed = 'SLACK_DOWNLOAD_FAILED',
  ConnectorFailed = 'CONNECTOR_FAILED',
  FetchRefused = 'FETCH_REFUSED',
  Internal = 'INTERNAL',
}

/** Base class: a code and a message a person can act on. */
export class MemdoctorError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = 'MemdoctorError';
  }
}

/** An input file or stream could not be read (missing, permission, corrupt gzip...). */
export class InputUnreadableError extends MemdoctorError {
  constructor(source: string, reason: string, options?: { cause?: unknown }) {
    super(ErrorCode.InputUnreadable, `${source}: cannot read it: ${reason}`, options);
    this.name = 'InputUnreadableError';
  }
}

/** The input is not text (an image, an archive other than gzip, a heap dump...). */
export class InputBinaryError extends MemdoctorError {
  constructor(source: string, detail: string) {
    super(
      ErrorCode.InputBinary,
      `${source}: this is not a text log (${detail}). Give memdoctor the log or the command output as text, or a .gz of it.`,
    );
    this.name = 'InputBinaryError';
  }
}

function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / 1024 / 1024)} MiB`;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

/** The input is larger than the configured limit. */
export class InputTooLargeError extends MemdoctorError {
  constructor(source: string, limitBytes: number) {
    super(
      ErrorCode.InputTooLarge,
      `${source}: larger than the limit of ${sizeText(limitBytes)}. Cut it to the part around the failure and try again.`,
    );
    this.name = 'InputTooLargeError';
  }
}

/** A playbook file does not follow the schema; the message names the file and the field. */
export class PlaybookInvalidError extends MemdoctorError {
  constructor(file: string, detail: string) {
    super(ErrorCode.PlaybookInvalid, `${file}: invalid playbook:\n${detail}`);
    this.name = 'PlaybookInvalidError';
  }
}

/** A playbook id that no folder under playbooks/ provides. */
export class PlaybookNotFoundError extends MemdoctorError {
  constructor(id: string, known: readonly string[]) {
    super(ErrorCode.PlaybookNotFound, `no playbook "${id}". Known playbooks: ${known.join(', ')}.`);
    this.name = 'PlaybookNotFoundError';
  }
}

/** Environment configuration is missing or malformed; the message names the variable. */
export class ConfigInvalidError extends MemdoctorError {
  constructor(detail: string) {
    super(ErrorCode.ConfigInvalid, `configuration error:\n${detail}`);
    this.name = 'ConfigInvalidError';
  }
}

/** A command line or chat command that memdoctor does not understand. */
export class UsageError extends MemdoctorError {
  constructor(message: string) {
    super(ErrorCode.UsageInvalid, message);
    this.name = 'UsageError';
  }
}

/** Pasted command output that does not look like what was asked for. */
export class ParseFailedError extends MemdoctorError {
  constructor(message: string) {
    super(ErrorCode.ParseFailed, message);
    this.name = 'ParseFailedError';
  }
}

/** A walkthrough id that no store holds (never started, finished long ago and expired, or mistyped). */
export class WalkthroughNotFoundError extends MemdoctorError {
  constructor(id: string, hint = '') {
    super(ErrorCode.WalkthroughNotFound, `no walkthrough "${id}"${hint ? `: ${hint}` : '.'}`);
    this.name = 'WalkthroughNotFoundError';
  }
}

/** Someone else changed the walkthrough first (two people answered the same step at once). */
export class WalkthroughConflictError extends MemdoctorError {
  constructor(message: string) {
    super(ErrorCode.WalkthroughConflict, message);
    this.name = 'WalkthroughConflictError';
  }
}

/** A case changed between reading it and adding to it (another upload in the same thread). */
export class CaseConflictError extends MemdoctorError {
  constructor(message: string) {
    super(ErrorCode.CaseConflict, message);
    this.name = 'CaseConflictError';
  }
}

/** An input's facts cannot be stored in a case (malformed, or too large to keep); nothing was written. */
export class CaseInputInvalidError extends MemdoctorError {
  constructor(source: string, reason: string) {
    super(ErrorCode.CaseInputInvalid, `${source}: not added to the case: ${reason}`);
    this.name = 'CaseInputInvalidError';
  }
}

/** The person may not change this walkthrough: only its owner and the on-call engineers may. */
export class WalkthroughForbiddenError extends MemdoctorError {
  constructor(readonly owner: string) {
    super(
      ErrorCode.WalkthroughForbidden,
      `only ${owner}, who owns this walkthrough, and the on-call engineers may change it.`,
    );
    this.name = 'WalkthroughForbiddenError';
  }
}

/** An event that does not fit the walkthrough's current step or status (e.g. a number for a question). */
export class WalkthroughInvalidEventError extends MemdoctorError {
  constructor(message: string) {
    super(ErrorCode.WalkthroughInvalidEvent, message);
    this.name = 'WalkthroughInvalidEventError';
  }
}

/** Why Redis, where memdoctor keeps shared state, cannot be used right now. */
export enum StoreProblem {
  /** No connection: refused, closed, timed out. */
  Unreachable = 'UNREACHABLE',
  /** The cluster does not serve all its slots (CLUSTERDOWN, cluster_state:fail). */
  ClusterDown = 'CLUSTER_DOWN',
  /** The cluster is moving slots or failing over (TRYAGAIN, endless redirections). */
  ClusterMoving = 'CLUSTER_MOVING',
  /** The setting names the wrong kind of Redis: a cluster node in REDIS_URL (MOVED), or the reverse. */
  WrongMode = 'WRONG_MODE',
  /** Redis answered but refused: a password, permissions, out of memory, a read-only replica. */
  Refused = 'REFUSED',
}

/** What a chat user is told for each problem; the setting that names Redis is left to `message`. */
const STORE_PROBLEM_TEXT: Readonly<Record<StoreProblem, string>> = {
  [StoreProblem.Unreachable]: 'it does not answer',
  [StoreProblem.ClusterDown]: 'the Redis Cluster is down',
  [StoreProblem.ClusterMoving]: 'the Redis Cluster is failing over or moving data',
  [StoreProblem.WrongMode]: "memdoctor's Redis setting does not match the server",
  [StoreProblem.Refused]: 'it refused the request',
};

/**
 * Redis (the walkthrough store, claims, caches) cannot be used; nothing was written. `message` is
 * for the person who runs memdoctor (it names the setting); `summary` for anyone in a chat.
 */
export class StoreUnavailableError extends MemdoctorError {
  readonly problem: StoreProblem;
  /** What Redis or the client said (`CLUSTERDOWN The cluster is down`, `connect ECONNREFUSED ...`). */
  readonly reason: string;

  constructor(problem: StoreProblem, reason: string, message: string, options?: { cause?: unknown }) {
    super(ErrorCode.StoreUnavailable, message, options);
    this.name = 'StoreUnavailableError';
    this.problem = problem;
    this.reason = reason;
  }

  /** What went wrong, in a few words for a chat: `the Redis Cluster is down`. */
  get summary(): string {
    return STORE_PROBLEM_TEXT[this.problem];
  }
}

/** The model could not be asked or did not answer (timeout, HTTP error, rate limit, no key). */
export class LlmUnavailableError extends MemdoctorError {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(
      ErrorCode.LlmUnavailable,
      `the model is unavailable: ${reason}. The deterministic result stands; try again later.`,
      options,
    );
    this.name = 'LlmUnavailableError';
  }
}

/** The model answered, but the answer broke the schema or cited lines the input does not have. */
export class LlmInvalidAnswerError extends MemdoctorError {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(ErrorCode.LlmInvalidAnswer, `the model's answer was dropped: ${reason}.`, options);
    this.name = 'LlmInvalidAnswerError';
  }
}

/** A file shared in Slack could not be fetched (login page instead of the file, HTTP error, foreign URL). */
export class SlackDownloadError extends MemdoctorError {
  constructor(file: string, reason: string, options?: { cause?: unknown }) {
    super(ErrorCode.SlackDownloadFailed, `${file}: could not download it from Slack: ${reason}`, options);
    this.name = 'SlackDownloadError';
  }
}

/** Memory settings a calculator cannot turn into a budget (they contradict each other or leave nothing). */
export class CalculationInvalidError extends MemdoctorError {
  constructor(message: string) {
    super(ErrorCode.CalculationInvalid, message);
    this.name = 'CalculationInvalidError';
  }
}

/** Why a connector could not fetch: which permission, what was not found, or that the system did not answer. */
export class ConnectorError extends MemdoctorError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(ErrorCode.ConnectorFailed, message, options);
    this.name = 'ConnectorError';
  }
}

/** A fetch refused before any request: who may ask, where, or too many at once; the message says which. */
export class FetchRefusedError extends MemdoctorError {
  constructor(message: string) {
    super(ErrorCode.FetchRefused, message);
    this.name = 'FetchRefusedError';
  }
}

/** What went wrong, as text: an Error's message, or anything else thrown as a string. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Wraps anything unexpected at a boundary so callers always see a MemdoctorError. */
export function asMemdoctorError(error: unknown): MemdoctorError {
  if (error instanceof MemdoctorError) return error;
  const message = messageOf(error);
  return new MemdoctorError(ErrorCode.Internal, `unexpected error: ${message}`, { cause: error });
}

/** Why an input was not diagnosed by the pool; the message is for the person who sent it. */
export class EngineBusyError extends MemdoctorError {
  constructor(waiting: number) {
    super(
      ErrorCode.Internal,
      `memdoctor is busy: ${waiting} inputs are already waiting to be diagnosed. Try again in a minute.`,
    );
    this.name = 'EngineBusyError';
  }
}

export class EngineTimeoutError extends MemdoctorError {
  constructor(budgetMs: number) {
    super(
      ErrorCode.InputTooLarge,
      `the diagnosis took longer than ${Math.round(budgetMs / 1000)} s and was stopped; send the part of the log around the failure.`,
    );
    this.name = 'EngineTimeoutError';
  }
}
