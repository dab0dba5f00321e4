import type { IncomingMessage } from 'node:http';
import { OAuth2Client } from 'google-auth-library';
import type { DataflowTarget } from '../../../src/connectors/dataflow-config.ts';
import { signedBy, type TestServiceAccount } from './google-credentials.ts';
import { monitoringRoute } from './monitoring-fake.ts';
import { type Answer, fixture, RestFake, type Route } from './rest-fake.ts';

/** The project, region and job the fake holds (the job id is gcpdiag's recorded batch job). */
export const DF_PROJECT = 'gcpdiag-dataflow1-aaaa';
export const DF_LOCATION = 'us-central1';
export const DF_JOB = '2026-05-18_07_03_26-5088364741087117679';
/** The access token the test client holds; any other is answered 401, as Google answers it. */
export const TEST_TOKEN = 'ya29.memdoctor-test-token';
/** Messages per page the fake answers at most: the API "may choose" fewer than pageSize. */
export const FAKE_PAGE = 2;

interface Method {
  httpMethod: string;
  path: string;
  parameters: Record<string, { location: 'path' | 'query'; enum?: string[] }>;
}
interface Discovery {
  parameters: string[];
  methods: Record<string, Method>;
}

/** The three methods as Google's discovery document for dataflow v1b3 publishes them (SOURCES.md). */
const DISCOVERY: Discovery = JSON.parse(fixture('dataflow/discovery-v1b3-jobs-excerpt.json'));

// A real 401 of a Google API (SOURCES.md): the body every Google REST API answers a bad token with.
export const UNAUTHENTICATED = JSON.stringify({
  error: {
    code: 401,
    message:
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    status: 'UNAUTHENTICATED',
  },
});

/** `v1b3/projects/{projectId}/...` as a pattern whose groups are the path parameters, in order. */
function patternOf(path: string): RegExp {
  return new RegExp(`^/${path.replace(/\{[A-Za-z]+\}/g, '([^/]+)')}$`);
}

/** A test client for the real library: an OAuth2Client holding a fixed, unexpired access token. */
export function testAuth(token = TEST_TOKEN): OAuth2Client {
  const client = new OAuth2Client();
  client.setCredentials({ access_token: token, expiry_date: Date.now() + 3_600_000 });
  return client;
}

/** A dataflow target as connectors.yaml would give it, pointed at the fake, with the test client. */
export function dataflowTargetFor(url: string, overrides: Partial<DataflowTarget> = {}): DataflowTarget {
  return {
    project: DF_PROJECT,
    location: DF_LOCATION,
    endpoint: url,
    // The fake answers Cloud Monitoring's timeSeries.list on the same loopback server.
    monitoringEndpoint: url,
    timeoutMs: 5_000,
    maxBytes: 8 * 1024 * 1024,
    maxPages: 10,
    auth: testAuth(),
    ...overrides,
  };
}

export interface DataflowFixtures {
  job: string;
  messages: string;
  metrics: string;
  /** What Cloud Monitoring holds of the job's workers' memory; none answers `{}`. */
  memory?: string;
}

export const PYTHON_JOB: DataflowFixtures = {
  job: 'dataflow/assembled-job-python-2.50-failed.json',
  messages: 'dataflow/assembled-messages-workers-lost.json',
  metrics: 'dataflow/assembled-metrics-element-count.json',
  memory: 'dataflow/assembled-worker-memory-series.json',
};

/** One page of the fixture's messages from the offset the page token holds, as the API pages them. */
function messagesPage(file: string, url: URL): Answer {
  const all = (JSON.parse(fixture(file)) as { jobMessages: unknown[] }).jobMessages;
  const from = Number(url.searchParams.get('pageToken') ?? 0);
  const size = Math.min(Number(url.searchParams.get('pageSize') ?? FAKE_PAGE), FAKE_PAGE);
  const page = all.slice(from, from + size);
  const next = from + size < all.length ? { nextPageToken: String(from + size) } : {};
  return { body: JSON.stringify({ jobMessages: page, ...next }) };
}

/**
 * A loopback Dataflow API for the real googleapis client: each request is checked against the
 * discovery document (method, path, query names and enum values) and must carry the test token.
 */
export function dataflowFake(files: DataflowFixtures = PYTHON_JOB, account?: TestServiceAccount): RestFake {
  const answers: Record<string, (url: URL) => Answer> = {
    'dataflow.projects.locations.jobs.get': () => ({ body: fixture(files.job) }),
    'dataflow.projects.locations.jobs.messages.list': (url) => messagesPage(files.messages, url),
    'dataflow.projects.locations.jobs.getMetrics': () => ({ body: fixture(files.metrics) }),
  };
  const fake: RestFake = new RestFake([
    ...Object.entries(DISCOVERY.methods).map(([id, method]): Route => {
      const query = Object.entries(method.parameters)
        .filter(([, p]) => p.location === 'query')
        .map(([name]) => name);
      return {
        name: id,
        pattern: patternOf(method.path),
        query: [...query, ...DISCOVERY.parameters],
        answer: (match, url, headers) =>
          check(fake, id, method, match, url) ?? authorize(headers, account) ?? answerFor(match, url),
      };
    }),
    monitoringRoute(
      DF_PROJECT,
      files.memory,
      (why) => fake.violations.push(why),
      (headers) => authorize(headers, account),
    ),
  ]);
  const answerFor = (match: RegExpExecArray, url: URL): Answer => {
    const [, project, location, job] = match;
    if (project !== DF_PROJECT || location !== DF_LOCATION || job !== DF_JOB) return { status: 404 };
    const id = Object.entries(DISCOVERY.methods).find(([, m]) => patternOf(m.path).test(url.pathname))?.[0];
    return answers[id ?? '']?.(url) ?? { status: 404 };
  };
  return fake;
}

/** A request outside the published shape is a violation; a wrong token is Google's 401. */
function check(
  fake: RestFake,
  id: string,
  method: Method,
  match: RegExpExecArray,
  url: URL,
): Answer | undefined {
  const wrong = (why: string): Answer => {
    fake.violations.push(`${id}: ${why}`);
    return { status: 400, body: why };
  };
  if (method.httpMethod !== 'GET') return wrong(`is ${method.httpMethod}`);
  if (match.slice(1).some((part) => !part)) return wrong('a path parameter is empty');
  for (const [name, spec] of Object.entries(method.parameters)) {
    const value = url.searchParams.get(name);
    if (spec.location === 'query' && value !== null && spec.enum && !spec.enum.includes(value))
      return wrong(`${name}=${value} is not one of ${spec.enum.join(', ')}`);
  }
  return undefined;
}

/** The test token, or a JWT the test service account signed for this server: anything else is Google's 401. */
function authorize(headers: IncomingMessage['headers'], account?: TestServiceAccount): Answer | undefined {
  const token = headers.authorization?.replace(/^Bearer /, '') ?? '';
  if (token === TEST_TOKEN) return undefined;
  if (account && signedBy(token, account)) return undefined;
  return { status: 401, body: UNAUTHENTICATED };
}
