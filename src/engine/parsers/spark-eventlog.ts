import type { Fact } from '../facts.ts';
import { formatSize } from '../units.ts';
import { fact, maxOf, median, output, parseFailed, percent } from './common.ts';
import type { Parser, ParserRun } from './types.ts';

/** Settings worth carrying into the diagnosis as `config` facts. */
const CONFIG_KEYS = [
  'spark.executor.memory',
  'spark.executor.memoryOverhead',
  'spark.executor.cores',
  'spark.memory.fraction',
  'spark.driver.memory',
  'spark.driver.maxResultSize',
  'spark.sql.shuffle.partitions',
];
const MEMORY_REASON = /memory|OutOfMemory|exit code 137|-104|OOM/i;
/** Per-stage durations kept for the skew figure; beyond this a stage is sampled by its first tasks. */
const MAX_DURATIONS = 200_000;

interface Stage {
  id: number;
  name: string;
  tasks: number;
  peakExecution: number;
  memorySpilled: number;
  diskSpilled: number;
  runMs: number;
  gcMs: number;
  durations: number[];
  line: number;
  text: string;
}

/** The stage whose slowest task ran the most times its median. */
interface Skew {
  stage: Stage;
  ratio: number;
}

type Values = Record<string, number | string | boolean>;

/** One line: tasks and stages, peak execution memory, spill, GC share, removals, the worst skew. */
function summaryOf(values: Values, skew: Skew | undefined): string {
  return `${values.tasks} tasks in ${values.stages} stages; peak execution memory ${formatSize(Number(values.maxPeakExecutionMemoryBytes))}, spilled ${formatSize(Number(values.diskSpilledBytes))} to disk, GC ${percent(Number(values.gcTimeShare))} of task time, ${values.executorsRemoved} executor(s) removed${skew ? `, worst skew ${values.maxTaskSkew}x in stage ${skew.stage.id}` : ''}.`;
}

type Json = Record<string, unknown>;
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});

class EventLogRun implements ParserRun {
  private readonly stages = new Map<number, Stage>();
  private readonly facts: Fact[] = [];
  private readonly config: Record<string, string> = {};
  private events = 0;
  private malformed = 0;
  private failedTasks = 0;
  private removed = 0;
  private lostToMemory = 0;
  private firstReason = '';
  private firstLine = 0;

  push(line: string, lineNo: number): void {
    if (!line.startsWith('{')) return;
    let event: Json;
    try {
      event = JSON.parse(line) as Json;
    } catch {
      this.malformed++;
      return;
    }
    this.events++;
    this.firstLine ||= lineNo;
    const kind = String(event.Event ?? '');
    if (kind === 'SparkListenerTaskEnd') this.taskEnd(event, lineNo, line);
    else if (kind === 'SparkListenerExecutorRemoved')
      this.executorRemoved(String(event['Removed Reason'] ?? ''), lineNo, line);
    else if (kind === 'SparkListenerStageSubmitted' || kind === 'SparkListenerStageCompleted') {
      const info = obj(event['Stage Info']);
      this.stage(num(info['Stage ID']), lineNo, line).name ||= String(info['Stage Name'] ?? '');
    } else if (kind === 'SparkListenerEnvironmentUpdate') {
      const props = obj(event['Spark Properties']);
      for (const key of CONFIG_KEYS)
        if (typeof props[key] === 'string') this.config[key] = props[key] as string;
    }
  }

  private stage(id: number, line: number, text: string): Stage {
    let s = this.stages.get(id);
    if (!s) {
      s = {
        id,
        name: '',
        tasks: 0,
        peakExecution: 0,
        memorySpilled: 0,
        diskSpilled: 0,
        runMs: 0,
        gcMs: 0,
        durations: [],
        line,
        text,
      };
      this.stages.set(id, s);
    }
    return s;
  }

  private taskEnd(event: Json, line: number, text: string): void {
    const s = this.stage(num(event['Stage ID']), line, text);
    const info = obj(event['Task Info']);
    const metrics = obj(event['Task Metrics']);
    const reason = obj(event['Task End Reason']);
    s.tasks++;
    s.peakExecution = Math.max(s.peakExecution, num(metrics['Peak Execution Memory']));
    s.memorySpilled += num(metrics['Memory Bytes Spilled']);
    s.diskSpilled += num(metrics['Disk Bytes Spilled']);
    s.runMs += num(metrics['Executor Run Time']);
    s.gcMs += num(metrics['JVM GC Time']);
    const duration = num(info['Finish Time']) - num(info['Launch Time']);
    if (duration > 0 && s.durations.length < MAX_DURATIONS) s.durations.push(duration);
    if (info.Failed === true || (reason.Reason && reason.Reason !== 'Success')) {
      this.failedTasks++;
      const loss = String(reason['Loss Reason'] ?? reason.Description ?? '');
      if (reason.Reason === 'ExecutorLostFailure' && MEMORY_REASON.test(loss))
        this.executorRemoved(loss, line, text, false);
    }
  }

  private executorRemoved(reason: string, line: number, text: string, count = true): void {
    if (count) this.removed++;
    this.firstReason ||= reason;
    if (MEMORY_REASON.test(reason)) {
      this.lostToMemory++;
      if (this.facts.filter((f) => f.kind === 'spark.executor-lost-memory').length < 3)
        this.facts.push(fact('spark.executor-lost-memory', line, text, { reason: reason.slice(0, 200) }));
    }
  }

  finish() {
    const stages = [...this.stages.values()].filter((s) => s.tasks > 0);
    if (stages.length === 0 && this.removed === 0)
      throw parseFailed(
        `Spark event log lines like {"Event":"SparkListenerTaskEnd",...} (one JSON object per line, from spark.eventLog.dir); found ${this.events} events and no task or executor events${this.malformed ? `, ${this.malformed} broken lines (cut off?)` : ''}.`,
      );
    const skew = this.worstSkew(stages);
    const values = this.values(stages, skew);
    // The verdict adds its skew or spill fact, so it comes before the facts are gathered.
    const verdict = this.verdict(values, stages, skew);
    const configFacts = Object.entries(this.config).map(([key, value]) =>
      fact('config', this.firstLine, `${key}=${value}`, { key, value }),
    );
    return output(
      'spark-eventlog',
      values,
      summaryOf(values, skew),
      [...this.facts, ...configFacts],
      verdict,
      this.firstLine || 1,
    );
  }

  private values(stages: readonly Stage[], skew: Skew | undefined): Values {
    const run = stages.reduce((n, s) => n + s.runMs, 0);
    const gc = stages.reduce((n, s) => n + s.gcMs, 0);
    const peak = [...stages].sort((a, b) => b.peakExecution - a.peakExecution)[0];
    const values: Values = {
      events: this.events,
      malformedLines: this.malformed,
      stages: stages.length,
      tasks: stages.reduce((n, s) => n + s.tasks, 0),
      failedTasks: this.failedTasks,
      maxPeakExecutionMemoryBytes: peak?.peakExecution ?? 0,
      peakExecutionStage: peak?.id ?? -1,
      memorySpilledBytes: stages.reduce((n, s) => n + s.memorySpilled, 0),
      diskSpilledBytes: stages.reduce((n, s) => n + s.diskSpilled, 0),
      spillStages: stages.filter((s) => s.diskSpilled > 0 || s.memorySpilled > 0).length,
      gcTimeShare: run > 0 ? Number((gc / run).toFixed(4)) : 0,
      executorsRemoved: this.removed,
      executorsLostToMemory: this.lostToMemory,
      executorRemovalReason: this.firstReason.slice(0, 200),
      maxTaskSkew: skew ? Number(skew.ratio.toFixed(2)) : 0,
      skewStage: skew?.stage.id ?? -1,
    };
    for (const [key, value] of Object.entries(this.config)) values[`config.${key}`] = value;
    return values;
  }

  private worstSkew(stages: readonly Stage[]): Skew | undefined {
    let worst: Skew | undefined;
    for (const s of stages) {
      if (s.durations.length < 5) continue;
      const mid = median(s.durations);
      const ratio = mid > 0 ? maxOf(s.durations) / mid : 0;
      if (!worst || ratio > worst.ratio) worst = { stage: s, ratio };
    }
    return worst;
  }

  private verdict(v: Values, stages: readonly Stage[], skew?: Skew): string {
    // Skew is a fact of its own even when a memory kill leads the verdict: a case pairs it with the kill.
    const skewed = skew && skew.ratio >= 5;
    if (skewed)
      this.facts.push(
        fact('spark.task-skew', skew.stage.line, skew.stage.text, {
          stage: skew.stage.id,
          ratio: Number(skew.ratio.toFixed(2)),
        }),
      );
    if (Number(v.executorsLostToMemory) > 0) return 'executors lost to memory limits';
    if (skewed) {
      return `task skew: the slowest task in stage ${skew.stage.id} ran ${skew.ratio.toFixed(1)}x the median`;
    }
    const spilled = stages.filter((s) => s.diskSpilled > 0).sort((a, b) => b.diskSpilled - a.diskSpilled)[0];
    if (spilled) {
      this.facts.push(
        fact('spark.spill', spilled.line, spilled.text, {
          stage: spilled.id,
          diskBytes: spilled.diskSpilled,
        }),
      );
      return 'execution memory too small: tasks spilled to disk';
    }
    if (Number(v.gcTimeShare) >= 0.1) return `GC heavy: ${percent(Number(v.gcTimeShare))} of task time in GC`;
    return 'no memory pressure seen';
  }
}

/** Spark event logs (JSON lines): peak execution memory, spill, GC share, executor removals, skew. */
export const sparkEventLogParser: Parser = {
  id: 'spark-eventlog',
  title: 'Spark event log',
  howToGet: 'the application file from spark.eventLog.dir (or the Spark History Server download); .gz works',
  detect: (head) => head.some((l) => /^\{"Event":\s?"(SparkListener|org\.apache\.spark)/.test(l)),
  create: () => new EventLogRun(),
};
