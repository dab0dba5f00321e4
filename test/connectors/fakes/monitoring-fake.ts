import { type Answer, fixture, type Route } from './rest-fake.ts';

/** projects.timeSeries.list as googleapis' generated monitoring v3 client and the REST reference give it (SOURCES.md). */
interface ListMethod {
  id: string;
  httpMethod: string;
  parameters: Record<string, { location: 'path' | 'query'; required?: boolean; enum?: string[] }>;
}
const LIST: ListMethod = JSON.parse(fixture('dataflow/monitoring-v3-timeseries-list-excerpt.json'));

// What Cloud Monitoring answers a project the caller may not read (SOURCES.md).
const PERMISSION_DENIED = JSON.stringify({
  error: {
    code: 403,
    message: 'Permission monitoring.timeSeries.list denied (or the resource may not exist).',
    status: 'PERMISSION_DENIED',
  },
});

/** Series per page the fake answers: one, so a job's two containers take two pages (nextPageToken). */
export const SERIES_PAGE = 1;

interface Point {
  interval: { endTime: string; startTime?: string };
  value: Record<string, unknown>;
}
interface Series {
  metric: { type: string; labels?: Record<string, string> };
  resource: { type: string; labels: Record<string, string> };
  points: Point[];
}

/** What one filter asks for: a single metric type, the dataflow_worker resource, one job's name. */
function filterOf(filter: string): { metricType: string; jobName: string } | string {
  const types = [...filter.matchAll(/metric\.type\s*=\s*"([^"]+)"/g)];
  if (types.length !== 1) return 'the filter must specify a single metric type';
  if (!/resource\.type\s*=\s*"dataflow_worker"/.test(filter))
    return 'the filter names no resource.type "dataflow_worker"';
  const job = /resource\.labels?\."?job_name"?\s*=\s*"([^"]+)"/.exec(filter);
  if (!job) return "the filter names no job_name: every Dataflow job's workers would be listed";
  return { metricType: types[0]?.[1] ?? '', jobName: job[1] ?? '' };
}

/** Checks the request against the method's parameters; a reason when it breaks them. */
function wrongRequest(url: URL): string | undefined {
  for (const [name, spec] of Object.entries(LIST.parameters)) {
    const value = url.searchParams.get(name);
    if (spec.location !== 'query') continue;
    if (spec.required && !value) return `${name} is required`;
    if (value && spec.enum && !spec.enum.includes(value))
      return `${name}=${value} is not one of ${spec.enum.join(', ')}`;
  }
  const end = Date.parse(url.searchParams.get('interval.endTime') ?? '');
  const start = Date.parse(url.searchParams.get('interval.startTime') ?? '') || end;
  if (!Number.isFinite(end)) return 'interval.endTime is not an RFC 3339 time';
  if (start > end) return 'interval.startTime is after interval.endTime';
  return wrongAlignment(url);
}

/** The aggregation's rules (Aggregation in the REST reference): a period of 60s or more, with an aligner. */
function wrongAlignment(url: URL): string | undefined {
  const period = url.searchParams.get('aggregation.alignmentPeriod');
  const aligner = url.searchParams.get('aggregation.perSeriesAligner');
  if (period === null && aligner === null) return undefined;
  if (aligner !== 'ALIGN_MAX') return `the fake aligns with ALIGN_MAX only, not ${aligner}`;
  const seconds = /^(\d+)s$/.exec(period ?? '')?.[1];
  if (!seconds || Number(seconds) < 60)
    return `aggregation.alignmentPeriod ${period} is not a duration of 60s or more`;
  return undefined;
}

/** ALIGN_MAX: one point per period counted back from the interval's end, the period's maximum, newest first. */
function alignedMax(points: readonly Point[], url: URL): Point[] {
  const period =
    Number(/^(\d+)s$/.exec(url.searchParams.get('aggregation.alignmentPeriod') ?? '')?.[1]) * 1000;
  if (!period) return [...points];
  const end = Date.parse(url.searchParams.get('interval.endTime') ?? '');
  const buckets = new Map<number, number>();
  for (const p of points) {
    const at = end - Math.floor((end - Date.parse(p.interval.endTime)) / period) * period;
    buckets.set(at, Math.max(buckets.get(at) ?? Number.NEGATIVE_INFINITY, Number(p.value.int64Value)));
  }
  return [...buckets.entries()]
    .sort(([a], [b]) => b - a)
    .map(([at, max]) => ({
      interval: { startTime: new Date(at - period).toISOString(), endTime: new Date(at).toISOString() },
      value: { int64Value: String(max) },
    }));
}

/** The series of that metric and job with their points inside the interval; series left with none are left out. */
function matching(file: string, asked: { metricType: string; jobName: string }, url: URL): Series[] {
  const held = (JSON.parse(fixture(file)) as { timeSeries: Series[] }).timeSeries;
  const end = Date.parse(url.searchParams.get('interval.endTime') ?? '');
  const start = Date.parse(url.searchParams.get('interval.startTime') ?? '') || end;
  return held
    .filter((s) => s.metric.type === asked.metricType && s.resource.labels.job_name === asked.jobName)
    .map((s) => ({
      ...s,
      points: alignedMax(
        s.points.filter((p) => {
          const at = Date.parse(p.interval.endTime);
          return at >= start && at <= end;
        }),
        url,
      ),
    }))
    .filter((s) => s.points.length > 0);
}

/**
 * GET /v3/projects/{project}/timeSeries for the real googleapis client, answered from `file` (what
 * Cloud Monitoring holds, every series with its points newest first). A request that breaks the
 * method's published shape is a violation, as in the Dataflow fake; no series at all is `{}`.
 */
export function monitoringRoute(
  project: string,
  file: string | undefined,
  violation: (why: string) => void,
  authorize: (headers: Parameters<Route['answer']>[2]) => Answer | undefined,
): Route {
  return {
    name: LIST.id,
    pattern: /^\/v3\/projects\/([^/]+)\/timeSeries$/,
    query: Object.keys(LIST.parameters).filter((n) => LIST.parameters[n]?.location === 'query'),
    answer: (match, url, headers) => {
      const wrong = (why: string): Answer => {
        violation(`${LIST.id}: ${why}`);
        return {
          status: 400,
          body: JSON.stringify({ error: { code: 400, message: why, status: 'INVALID_ARGUMENT' } }),
        };
      };
      const why = wrongRequest(url);
      if (why) return wrong(why);
      const asked = filterOf(url.searchParams.get('filter') ?? '');
      if (typeof asked === 'string') return wrong(asked);
      const denied = authorize(headers);
      if (denied) return denied;
      if (match[1] !== project) return { status: 403, body: PERMISSION_DENIED };
      if (!file) return { body: '{}' };
      const all = matching(file, asked, url);
      const from = Number(url.searchParams.get('pageToken') ?? 0);
      const page = all.slice(from, from + SERIES_PAGE);
      const next = from + SERIES_PAGE < all.length ? { nextPageToken: String(from + SERIES_PAGE) } : {};
      return { body: page.length ? JSON.stringify({ timeSeries: page, ...next, unit: 'By' }) : '{}' };
    },
  };
}
