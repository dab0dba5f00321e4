import { ConnectorError } from '../errors.ts';
import { beforeDeadline, currentDeadline } from './bounded.ts';
import { type Asked, faultError, faultOf } from './fetch-faults.ts';
import type { GlueService, GlueTarget } from './glue-config.ts';

/** What one AWS API call is about, so a failure can say what was missing or which permission. */
export interface AwsCall {
  /** "AWS Glue", "Amazon CloudWatch", "CloudWatch Logs" */
  service: string;
  /** "GetJobRun" */
  operation: string;
  /** What a not-found answer means: "job run jr_... of job "nightly"". */
  what: string;
  /** The IAM action it needs: "glue:GetJobRun". */
  action: string;
  /** The AWS CLI command whose output a person can paste instead. */
  cli: string;
}

/** The endpoint setting of each service a call names. */
const ENDPOINTS: Readonly<Record<string, GlueService>> = {
  'AWS Glue': 'glue',
  'Amazon CloudWatch': 'cloudwatch',
  'CloudWatch Logs': 'logs',
};

/** The SDK's error, as far as memdoctor reads it (@smithy ServiceException and Node's network errors). */
interface SdkError {
  name?: string;
  message?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number; attempts?: number };
}

const NOT_FOUND = new Set(['EntityNotFoundException', 'ResourceNotFoundException']);
const DENIED = new Set(['AccessDeniedException', 'AccessDenied', 'UnauthorizedOperation']);
const UNAUTHENTICATED = new Set([
  'UnrecognizedClientException',
  'InvalidClientTokenId',
  'InvalidSignatureException',
  'SignatureDoesNotMatch',
  'ExpiredTokenException',
  'ExpiredToken',
]);
const THROTTLED = new Set([
  'ThrottlingException',
  'Throttling',
  'TooManyRequestsException',
  'RequestLimitExceeded',
]);

const pasteInstead = (call: AwsCall) => `paste the output of \`${call.cli}\` instead`;

/** The sentence for an error the service answered with (it has a name and an HTTP status). */
function serviceFailure(e: SdkError, call: AwsCall, target: GlueTarget): string | undefined {
  const name = e.name ?? 'Error';
  const said = e.message && e.message !== 'UnknownError' ? `${name}: ${e.message}` : name;
  if (NOT_FOUND.has(name))
    return `${call.service} has no ${call.what} (${said}): check the names, and that ${target.region} is the region the job runs in.`;
  if (DENIED.has(name) || e.$metadata?.httpStatusCode === 403)
    return `${call.service} refused ${call.operation} (${said}): the credentials need ${call.action} (read-only; docs/connectors.md has the policy).`;
  if (UNAUTHENTICATED.has(name))
    return `${call.service} did not accept the credentials (${said}): check the profile or the SDK's default chain (AWS_PROFILE, ~/.aws, an instance role) for account and region ${target.region}.`;
  if (THROTTLED.has(name))
    return `${call.service} throttled ${call.operation} (${said}) after ${e.$metadata?.attempts ?? 1} attempt(s); try again in a minute, or ${pasteInstead(call)}.`;
  const status = e.$metadata?.httpStatusCode;
  if (status !== undefined && status >= 500)
    return `${call.service} did not answer ${call.operation} (HTTP ${status}, ${name}); ${pasteInstead(call)}.`;
  if (status !== undefined)
    return `${call.service} answered ${call.operation} with ${said} (HTTP ${status}); ${pasteInstead(call)}.`;
  return undefined;
}

/** The words of a fault sentence for this call (fetch-faults.ts). */
function askedOf(call: AwsCall, target: GlueTarget): Asked {
  const service = ENDPOINTS[call.service] ?? 'glue';
  const endpoint = target.endpoints[service];
  return {
    system: call.service,
    request: call.operation,
    settings: 'glue.',
    address: endpoint
      ? `glue.endpoint (${endpoint})`
      : `that the process reaches AWS's ${service} endpoint of ${target.region} (no proxy in between)`,
    instead: pasteInstead(call),
  };
}

/** A failure of an AWS call as a ConnectorError that says what to do; never names a credential. */
export function awsFailure(error: unknown, call: AwsCall, target: GlueTarget): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const fault = faultOf(error);
  if (fault) return faultError(fault, askedOf(call, target), error);
  const e = (error ?? {}) as SdkError;
  const known = serviceFailure(e, call, target);
  if (known) return new ConnectorError(known, { cause: error });
  if (e.name === 'CredentialsProviderError')
    return new ConnectorError(
      `memdoctor found no AWS credentials for ${call.service} (${e.message}): give the process a role, AWS_PROFILE or ~/.aws credentials, or name a profile in connectors.yaml (glue.profile).`,
      { cause: error },
    );
  const reason =
    e.name === 'AbortError' || e.name === 'TimeoutError'
      ? `no answer within ${target.timeoutMs} ms`
      : (e.code ?? e.message ?? String(error));
  return new ConnectorError(
    `${call.service} did not answer ${call.operation} (${reason}); ${pasteInstead(call)}.`,
    {
      cause: error,
    },
  );
}

/**
 * One AWS call within the answer's deadline (glue.ts starts it, one answer at a time per account
 * region): the call stops when it passes, retries and back-off included, and failures say what to do.
 */
export async function awsCall<T>(
  call: AwsCall,
  target: GlueTarget,
  send: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = currentDeadline(target.timeoutMs);
  try {
    return await beforeDeadline(send(deadline.signal), deadline);
  } catch (error) {
    throw awsFailure(error, call, target);
  }
}
