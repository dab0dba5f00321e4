// Turns cgroup-memory-series.sh samples into what Cloud Monitoring holds for a Dataflow job's workers:
// per worker, a dataflow.googleapis.com/worker/memory/bytes_used series (the cgroup's charged bytes)
// and a worker/memory/container_limit series (its limit), GAUGE INT64, points newest first with
// int64Value as a string, as timeSeries.list answers them. Each worker's samples are moved by one
// constant so its first lands OFFSET_S after the job's startTime (spacing and values unchanged);
// samples after the job's currentStateTime are left out.
// Usage: node cgroup-to-timeseries.mjs <job.json> <container> <offset s> <out.json> <worker id>=<samples.txt>...
import { readFileSync, writeFileSync } from 'node:fs';

const [jobFile, container, offset, out, ...workers] = process.argv.slice(2);
const job = JSON.parse(readFileSync(jobFile, 'utf8'));
const start = Math.floor(Date.parse(job.startTime) / 1000);
const end = Date.parse(job.currentStateTime) / 1000;

function samples(file) {
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => /^\d+ \d+ \d+$/.test(l))
    .map((l) => l.split(' ').map(Number));
  const first = rows[0][0];
  return rows
    .map(([t, used, limit]) => ({ t: t - first + start + Number(offset), used, limit }))
    .filter((r) => r.t <= end);
}

const iso = (s) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
function series(metric, workerId, rows, field) {
  return {
    metric: { labels: { container }, type: `dataflow.googleapis.com/worker/memory/${metric}` },
    resource: {
      type: 'dataflow_worker',
      labels: { project_id: job.projectId, job_name: job.name, job_id: job.id, worker_id: workerId },
    },
    metricKind: 'GAUGE',
    valueType: 'INT64',
    points: [...rows].reverse().map((r) => ({
      interval: { startTime: iso(r.t), endTime: iso(r.t) },
      value: { int64Value: String(r[field]) },
    })),
  };
}

const timeSeries = [];
for (const arg of workers) {
  const [workerId, file] = arg.split('=');
  const rows = samples(file);
  timeSeries.push(
    series('bytes_used', workerId, rows, 'used'),
    series('container_limit', workerId, rows, 'limit'),
  );
}
writeFileSync(out, `${JSON.stringify({ timeSeries }, null, 2)}\n`);
