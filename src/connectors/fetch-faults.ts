import { ConnectorError } from '../errors.ts';

/**
 * What went wrong with an answer on its way in, whichever transport read it: the fetch discipline
 * (bounded.ts) raises these, each connector turns them into the same sentences (faultMessage).
 */
export type Fault =
  | { kind: 'too-large'; maxBytes: number; decoded: boolean }
  | { kind: 'timeout'; ms: number }
  | { kind: 'redirect'; to: string | undefined }
  | { kind: 'html' }
  | { kind: 'not-json' }
  | { kind: 'too-deep'; maxDepth: number }
  | { kind: 'encoding'; encoding: string };

/**
 * A fault of the transport. Not a ConnectorError on purpose: client libraries decorate errors that
 * pass through them (the AWS SDK appends a deserialisation hint to the message), so each connector
 * reads `fault` from this class, or from the `cause` chain, and writes its own sentence.
 */
export class FetchFault extends Error {
  constructor(readonly fault: Fault) {
    super(`fetch fault: ${fault.kind}`);
    this.name = 'FetchFault';
  }
}

/** The fault inside an error a client library wrapped (gaxios keeps it as `cause`), if any. */
export function faultOf(error: unknown): Fault | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof FetchFault) return e.fault;
  return undefined;
}

/** What was asked of whom, and what the person can do instead: the words every fault sentence needs. */
export interface Asked {
  /** "Flink JobManager", "Kubernetes API server", "AWS Glue", "Dataflow" */
  system: string;
  /** "GET /overview", "GetJobRun", "jobs.get" */
  request: string;
  /** The connectors.yaml key the limits live under, with its dot: "kubernetes.", "glue.", "" for a REST entry. */
  settings: string;
  /** Where the address asked comes from: "the url in connectors.yaml", "the cluster's server in /etc/kubeconfig". */
  address: string;
  /** "paste the output of `kubectl get pod ...` instead" */
  instead: string;
}

/** The sentence a person reads for a fault: what happened, and what to do about it. */
export function faultMessage(fault: Fault, asked: Asked): string {
  const { system, request, settings, address, instead } = asked;
  switch (fault.kind) {
    case 'too-large':
      return `${system} answered more than ${fault.maxBytes} bytes${fault.decoded ? ' (once decompressed)' : ''} to ${request}; raise ${settings}maxBytes in connectors.yaml or ${instead}.`;
    case 'timeout':
      return `${system} did not answer ${request} (no answer within ${fault.ms} ms); ${instead}.`;
    case 'redirect':
      return `${system} redirected ${request} to ${fault.to ?? 'an unreadable location'}, outside ${address}; memdoctor only reads the configured address and sends its credentials nowhere else. Check ${address}, or ${instead}.`;
    case 'html':
      return `${system} answered ${request} with an HTML page, not the API's JSON (a login page or a proxy in front of it?); check ${address}, or ${instead}.`;
    case 'not-json':
      return `${system} answered ${request} with something that is not JSON (a proxy in front of it?); check ${address}, or ${instead}.`;
    case 'too-deep':
      return `${system} answered ${request} with JSON nested more than ${fault.maxDepth} levels deep, which no answer of its API is; memdoctor did not read it. Check ${address}, or ${instead}.`;
    case 'encoding':
      return `${system} answered ${request} in a ${fault.encoding} encoding memdoctor did not ask for; check ${address}, or ${instead}.`;
  }
}

/** A fault as the ConnectorError a surface shows. */
export function faultError(fault: Fault, asked: Asked, cause?: unknown): ConnectorError {
  return new ConnectorError(faultMessage(fault, asked), cause === undefined ? undefined : { cause });
}
