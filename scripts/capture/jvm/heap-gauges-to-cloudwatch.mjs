// Turns the heap gauges heap-gauges.sh captured into what CloudWatch holds for a Glue run: the driver's
// series from the leak, the executors' (glue.ALL) from the steady allocator, each sample moved by one
// constant so the first lands 30 s after the run's StartedOn (spacing and values unchanged).
// heap.used is the sampled bytes; heap.usage is used / max, as Dropwizard's MemoryUsageGaugeSet
// computes it. Writes two files:
//   <series.json>  every sample by metric name, for the test's fake CloudWatch
//   <cli.json>     what `aws cloudwatch get-metric-data` prints for the four heap queries of the run
//                  with Period 60 and Stat Maximum (points aligned to the start time, ISO timestamps)
// Usage: node heap-gauges-to-cloudwatch.mjs <leak.txt> <steady.txt> <startedOn epoch s> <end epoch s> <series.json> <cli.json>
import { readFileSync, writeFileSync } from 'node:fs';

const [leakFile, steadyFile, startedOn, endedOn, seriesOut, cliOut] = process.argv.slice(2);
const start = Number(startedOn);

function samples(file) {
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => /^\d+ \d+ \d+$/.test(l))
    .map((l) => l.split(' ').map(Number));
  const first = rows[0][0];
  return rows.map(([t, used, max]) => ({ t: t - first + Math.floor(start) + 30, used, max }));
}

const owners = { driver: samples(leakFile), ALL: samples(steadyFile) };
const series = {};
for (const [owner, rows] of Object.entries(owners)) {
  series[`glue.${owner}.jvm.heap.usage`] = {
    Timestamps: rows.map((r) => r.t),
    Values: rows.map((r) => r.used / r.max),
  };
  series[`glue.${owner}.jvm.heap.used`] = {
    Timestamps: rows.map((r) => r.t),
    Values: rows.map((r) => r.used),
  };
}
writeFileSync(seriesOut, `${JSON.stringify(series, null, 2)}\n`);

const PERIOD = 60;
const from = Math.floor(start / PERIOD) * PERIOD;
const to = Math.ceil(Number(endedOn) / PERIOD + 1) * PERIOD;
const iso = (s) => new Date(s * 1000).toISOString().replace('.000Z', '+00:00');
function maxPerPeriod({ Timestamps, Values }) {
  const buckets = new Map();
  Timestamps.forEach((t, i) => {
    if (t < from || t >= to) return;
    const at = from + Math.floor((t - from) / PERIOD) * PERIOD;
    buckets.set(at, Math.max(buckets.get(at) ?? Number.NEGATIVE_INFINITY, Values[i]));
  });
  const times = [...buckets.keys()].sort((a, b) => a - b);
  return { Timestamps: times.map(iso), Values: times.map((t) => buckets.get(t)) };
}
const queries = [
  ['driverHeapUsage', 'glue.driver.jvm.heap.usage'],
  ['allHeapUsage', 'glue.ALL.jvm.heap.usage'],
  ['driverHeapUsed', 'glue.driver.jvm.heap.used'],
  ['allHeapUsed', 'glue.ALL.jvm.heap.used'],
];
const cli = {
  MetricDataResults: queries.map(([Id, name]) => ({
    Id,
    Label: name,
    ...maxPerPeriod(series[name]),
    StatusCode: 'Complete',
  })),
  Messages: [],
};
writeFileSync(cliOut, `${JSON.stringify(cli, null, 4)}\n`);
