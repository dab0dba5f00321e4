import { type ResourceProfile, slotFit } from '../engine/calculators/flink-slots.ts';
import { taskManagersFromJson } from '../engine/parsers/flink-rest.ts';
import { parseResourceProfile, requestedProfiles } from '../engine/parsers/resource-profile.ts';
import { formatSize } from '../engine/units.ts';
import { UsageError } from '../errors.ts';
import { flinkSlotsChart } from './charts.ts';
import { type FileText, read } from './flags.ts';
import type { CalcSystem } from './system.ts';

function requests(pending?: FileText, request?: string, count = 1): ResourceProfile[] {
  if (pending) return requestedProfiles(pending.text);
  const profile = request ? parseResourceProfile(request.replace(/^ResourceProfile\{|\}$/g, '')) : undefined;
  if (!profile) return [];
  return Array.from({ length: count }, () => profile);
}

function show(p: ResourceProfile): string {
  return `${p.cpuCores} cores, heap ${formatSize(p.taskHeapMemory)}, off-heap ${formatSize(p.taskOffHeapMemory)}, managed ${formatSize(p.managedMemory)}, network ${formatSize(p.networkMemory)}`;
}

/** `memdoctor calc flink-slots`: do pending slot requests fit the TaskManagers' free resources? */
export const flinkSlotsCalc: CalcSystem = {
  name: 'flink-slots',
  summary: 'Flink slot fit: pending ResourceProfiles vs the TaskManagers free resources',
  flags: {
    taskmanagers: { kind: 'file', help: 'file with the JSON of GET /taskmanagers' },
    pending: { kind: 'file', help: 'file with the log or exception that lists the pending ResourceProfiles' },
    request: {
      kind: 'text',
      help: 'one profile instead of --pending, e.g. "cpuCores=1, taskHeapMemory=512m"',
    },
    count: { kind: 'int', help: 'how many slots of --request are pending (default 1)' },
  },
  run(v) {
    const tmFile = read.file(v, 'taskmanagers');
    if (!tmFile) throw new UsageError('--taskmanagers FILE (the JSON of GET /taskmanagers) is required.');
    let json: unknown;
    try {
      json = JSON.parse(tmFile.text);
    } catch {
      throw new UsageError(`--taskmanagers "${tmFile.path}" is not complete JSON.`);
    }
    const tms = taskManagersFromJson(json);
    if (!tms) throw new UsageError(`--taskmanagers "${tmFile.path}" is not the JSON of GET /taskmanagers.`);
    const wanted = requests(read.file(v, 'pending'), read.text(v, 'request'), read.num(v, 'count'));
    if (wanted.length === 0)
      throw new UsageError(
        'give the pending requests: --pending FILE with ResourceProfile{...} lines, or --request "cpuCores=..., taskHeapMemory=...".',
      );
    const fit = slotFit(wanted, tms);
    const text = [
      `${wanted.length} pending request(s), the first: ${show(wanted[0] as ResourceProfile)}.`,
      `${tms.length} TaskManager(s); verdict: ${fit.verdict}.`,
      fit.advice,
    ].join('\n');
    return {
      text: `${text}\n`,
      json: { system: 'flink-slots', requests: wanted.length, taskManagers: tms.length, fit },
      chart: flinkSlotsChart(wanted, tms, fit),
    };
  },
};
