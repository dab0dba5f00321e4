import { z } from 'zod';

/** The AWS services the Glue connector calls, each of which may have its own (VPC) endpoint. */
export const GLUE_SERVICES = ['glue', 'cloudwatch', 'logs'] as const;
export type GlueService = (typeof GLUE_SERVICES)[number];

/**
 * Where and how memdoctor reads one AWS account's Glue runs. No secret is held here: credentials
 * come from the SDK's default chain (environment, SSO, ~/.aws, an instance or task role) or the
 * named profile, never from connectors.yaml.
 */
export interface GlueTarget {
  region: string;
  /** A profile of ~/.aws/config to take credentials from, instead of the default chain's choice. */
  profile?: string;
  /** Endpoint per service, when not AWS's public one (a VPC endpoint, or a test server). */
  endpoints: Readonly<Partial<Record<GlueService, string>>>;
  /** Deadline for one answer: every call, retry and page of it. */
  timeoutMs: number;
  /** Largest answer read per call, counted while it is read. */
  maxBytes: number;
  /** Calls per request, the first included (the SDK retries throttling and 5xx with back-off). */
  maxAttempts: number;
  /** The error log group; by default the run's LogGroupName (from GetJobRun) + "/error". */
  logGroup?: string;
  /** Most error-log events read: the tail of the run's stream. */
  logEvents: number;
}

export const DEFAULT_LOG_EVENTS = 200;

const EndpointUrl = z
  .url({
    protocol: /^https?$/,
    error: 'must be an http:// or https:// URL such as https://glue.eu-west-1.amazonaws.com',
  })
  .refine((u) => !URL.canParse(u) || !new URL(u).username, {
    message:
      'must not carry a user or password: AWS credentials come from the SDK default chain or a profile',
  });

// AWS region names: two letters, a dash, words and a number (eu-west-1, us-gov-west-1, ap-southeast-5).
const Region = z
  .string({ error: 'is required: the AWS region of the Glue jobs, such as eu-west-1' })
  .regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/, 'must be an AWS region name such as eu-west-1');

/** connectors.yaml's `glue:` entry. */
export const GlueSettings = z.strictObject({
  region: Region,
  profile: z
    .string()
    .regex(/^[\w.@+-]{1,64}$/, 'must be the name of a profile in ~/.aws/config, such as memdoctor-readonly')
    .optional(),
  endpoint: z
    .union([
      EndpointUrl,
      z.strictObject({ glue: EndpointUrl, cloudwatch: EndpointUrl, logs: EndpointUrl }).partial(),
    ])
    .optional(),
  timeoutMs: z.number().int().min(100).max(60_000).default(5_000),
  maxAttempts: z.number().int().min(1).max(5).default(2),
  maxBytes: z
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(8 * 1024 * 1024),
  logGroup: z
    .string()
    .regex(/^[\w#/.-]{1,512}$/, 'must be a CloudWatch Logs group name such as /aws-glue/jobs/error')
    .optional(),
  logEvents: z.number().int().min(1).max(10_000).default(DEFAULT_LOG_EVENTS),
});

/** The settings as the connector uses them: one endpoint per service, when any is set. */
export function glueTarget(settings: z.infer<typeof GlueSettings>): GlueTarget {
  const { endpoint, profile, logGroup, ...rest } = settings;
  const endpoints =
    typeof endpoint === 'string'
      ? Object.fromEntries(GLUE_SERVICES.map((service) => [service, endpoint]))
      : { ...endpoint };
  return { ...rest, endpoints, ...(profile ? { profile } : {}), ...(logGroup ? { logGroup } : {}) };
}
