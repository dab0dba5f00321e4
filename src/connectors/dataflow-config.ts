import type { OAuth2Client } from 'google-auth-library';
import { z } from 'zod';

/**
 * Where memdoctor reads one Google Cloud project's Dataflow jobs. No secret is held here:
 * credentials are Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, the gcloud
 * application-default login, or the VM's or pod's service account), never connectors.yaml.
 */
export interface DataflowTarget {
  project: string;
  /** The job's regional endpoint, such as europe-west1. */
  location: string;
  /** Root URL of the API when not Google's (a private endpoint, or a test server). */
  endpoint?: string;
  /** Root URL of Cloud Monitoring, which holds the workers' memory, when not Google's. */
  monitoringEndpoint?: string;
  /** Deadline for one answer: every call and page of it. */
  timeoutMs: number;
  /** Largest answer read per call, counted while it is read. */
  maxBytes: number;
  /** Most pages of job messages read (the API pages them with nextPageToken). */
  maxPages: number;
  /**
   * An authenticated client to use instead of Application Default Credentials. connectors.yaml
   * cannot set it; tests give the client library an OAuth2Client holding a fixed access token.
   */
  auth?: OAuth2Client;
}

export const DEFAULT_DATAFLOW_PAGES = 10;

// Project ids: 6 to 30 lower-case letters, digits and hyphens, starting with a letter, not ending
// with a hyphen (Resource Manager, "Creating and managing projects").
const Project = z
  .string({ error: 'is required: the Google Cloud project id of the jobs, such as acme-data' })
  .regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, 'must be a Google Cloud project id such as acme-data');

// Dataflow regional endpoints are Compute Engine region names (europe-west1, us-central1).
const Location = z
  .string({ error: 'is required: the region the jobs run in, such as europe-west1' })
  .regex(/^[a-z]{2,12}-[a-z]{2,12}\d{1,2}$/, 'must be a Google Cloud region such as europe-west1');

const EndpointUrl = z
  .url({
    protocol: /^https?$/,
    error: 'must be an http:// or https:// URL such as https://dataflow.googleapis.com',
  })
  .refine((u) => !URL.canParse(u) || !new URL(u).username, {
    message: 'must not carry a user or password: credentials come from Application Default Credentials',
  });

/** connectors.yaml's `dataflow:` entry. */
export const DataflowSettings = z.strictObject({
  project: Project,
  location: Location,
  endpoint: EndpointUrl.optional(),
  monitoringEndpoint: EndpointUrl.optional(),
  timeoutMs: z.number().int().min(100).max(60_000).default(5_000),
  maxBytes: z
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(8 * 1024 * 1024),
  maxPages: z.number().int().min(1).max(100).default(DEFAULT_DATAFLOW_PAGES),
});

/** The settings as the connector uses them. */
export function dataflowTarget(settings: z.infer<typeof DataflowSettings>): DataflowTarget {
  const { endpoint, monitoringEndpoint, ...rest } = settings;
  return {
    ...rest,
    ...(endpoint ? { endpoint } : {}),
    ...(monitoringEndpoint ? { monitoringEndpoint } : {}),
  };
}
