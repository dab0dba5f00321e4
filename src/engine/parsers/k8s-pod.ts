import { z } from 'zod';
import { yaml } from '../../lazy-yaml.ts';
import type { Fact } from '../facts.ts';
import { formatSize } from '../units.ts';
import { fact, output, parseFailed } from './common.ts';
import { PodShape } from './k8s-pod-shape.ts';
import { parseQuantity } from './k8s-quantity.ts';
import type { Parser, ParserRun } from './types.ts';

interface Container {
  name: string;
  /** What the container runs (image, command, args, environment), as far as it was given: a JVM or not. */
  runs: string;
  limit?: number;
  request?: number;
  reason?: string;
  exitCode?: number;
  restarts?: number;
  line: number;
  text: string;
}

const PodJson = PodShape.extend({
  kind: z.literal('Pod'),
  // Optional: people cut metadata (names, labels) from a pod before pasting it, as Argo Workflows'
  // own test pods are cut; the containers and their statuses are what is judged.
  metadata: z.looseObject({ name: z.string() }).optional(),
});

/** Longest description of what a container runs kept per container: a JVM shows itself early. */
const MAX_RUNS_CHARS = 8192;
/**
 * A JVM in what a container runs: a JDK image or launcher, JVM flags or their environment variables, a
 * jar, or a JVM system's image (Flink, Spark, Kafka, Hadoop...). A killed container without one (Go's
 * metrics-server, a Python worker) is not judged a JVM: -Xmx and mapreduce.*.memory.mb advice would be wrong.
 */
const JVM_SIGN =
  /\bjava\b|openjdk|temurin|corretto|zulu|graalvm|\bjdk|\bjre\b|-Xm[sx]\d|JAVA_OPTS|JAVA_TOOL_OPTIONS|JDK_JAVA_OPTIONS|\.jar\b|flink|spark|kafka|hadoop|zookeeper|cassandra|elasticsearch|opensearch|tomcat|jenkins|keycloak|trino|presto|\bhive\b/i;

const runsJvm = (runs: string): boolean => JVM_SIGN.test(runs);

const quantity = (v: string | number | undefined) => (v === undefined ? undefined : parseQuantity(String(v)));

/** The first line of `kubectl get pod -o yaml`: "apiVersion: v1" (or "kind: Pod" where it comes first). */
const YAML_START = /^(apiVersion:\s*v1|kind:\s*Pod)\s*$/;
/**
 * A pod object is small: etcd refuses requests over 1.5 MiB by default (--max-request-bytes, etcd
 * docs "System limits"), and YAML's indentation adds less than as much again. Far more is not a pod.
 */
const MAX_OBJECT_CHARS = 3 * 1024 * 1024;
/**
 * Deeper bracket nesting than this is not a pod (flow `[]`/`{}` and the JSON of an annotation nest a
 * few levels): the YAML parser's time grows with the nesting, 3.7 s for 600 KB of `{`.
 */
const MAX_FLOW_DEPTH = 64;

/** The deepest `[`/`{` nesting of a text; brackets in strings count too, which only errs high. */
function flowDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return deepest;
}

/** The kill, and that the killed container shows no JVM when it does not (no -Xmx advice for Go). */
function killFacts(c: Container): Fact[] {
  const kill = fact('container.killed-memory', c.line, c.text, {
    resource: 'physical',
    manager: 'kubernetes',
    ...(c.limit ? { limitBytes: c.limit } : {}),
  });
  if (runsJvm(c.runs)) return [kill];
  return [
    kill,
    fact('container.no-jvm-sign', c.line, `${c.name}: no JVM in its image, command or environment`),
  ];
}

/**
 * Reads `kubectl describe pod` line by line; JSON and YAML (`kubectl get pod -o json|yaml`) are buffered
 * and parsed at the end.
 */
class PodRun implements ParserRun {
  private readonly containers: Container[] = [];
  private json = '';
  private yaml = '';
  private inContainers = false;
  private block?: 'limits' | 'requests';
  private pod = '';

  push(line: string, lineNo: number): void {
    const fresh = this.containers.length === 0 && !this.pod && !this.json && !this.yaml;
    if (this.json || (fresh && line.trim().startsWith('{'))) {
      if (this.json.length < MAX_OBJECT_CHARS) this.json += `${line}\n`;
      return;
    }
    if (this.yaml || (fresh && YAML_START.test(line))) {
      if (this.yaml.length < MAX_OBJECT_CHARS) this.yaml += `${line}\n`;
      return;
    }
    const name = /^Name:\s+(\S+)/.exec(line);
    if (name && !this.pod) this.pod = name[1] ?? '';
    if (/^(Init Containers|Containers):/.test(line)) this.inContainers = true;
    else if (/^\S/.test(line) && !/^(Init Containers|Containers):/.test(line)) this.inContainers = false;
    if (!this.inContainers) return;
    this.containerLine(line, lineNo);
  }

  /** A line of the Containers: section: a container's name starts one, any other line describes it. */
  private containerLine(line: string, lineNo: number): void {
    const container = /^ {2}([\w.-]+):\s*$/.exec(line);
    if (container) {
      this.containers.push({ name: container[1] ?? '', runs: '', line: lineNo, text: line });
      return;
    }
    const last = this.containers[this.containers.length - 1];
    if (last && last.runs.length < MAX_RUNS_CHARS) last.runs += `${line.trim()}\n`;
    this.field(line, lineNo);
  }

  private field(line: string, lineNo: number): void {
    const c = this.containers[this.containers.length - 1];
    if (!c) return;
    const trimmed = line.trim();
    if (/^Limits:/.test(trimmed)) this.block = 'limits';
    else if (/^Requests:/.test(trimmed)) this.block = 'requests';
    else if (!/^(cpu|memory|ephemeral-storage|[\w.-]+\/[\w.-]+):/.test(trimmed)) this.block = undefined;
    const memory = /^memory:\s+(\S+)/.exec(trimmed);
    if (memory && this.block === 'limits') c.limit = parseQuantity(memory[1] ?? '');
    if (memory && this.block === 'requests') c.request = parseQuantity(memory[1] ?? '');
    const reason = /^Reason:\s+(\S+)/.exec(trimmed);
    if (reason && (!c.reason || reason[1] === 'OOMKilled')) {
      c.reason = reason[1];
      if (reason[1] === 'OOMKilled') Object.assign(c, { line: lineNo, text: line });
    }
    const exit = /^Exit Code:\s+(-?\d+)/.exec(trimmed);
    if (exit && (c.exitCode === undefined || exit[1] === '137')) c.exitCode = Number(exit[1]);
    const restarts = /^Restart Count:\s+(\d+)/.exec(trimmed);
    if (restarts) c.restarts = Number(restarts[1]);
  }

  private fromJson(): void {
    let data: unknown;
    try {
      data = JSON.parse(this.json);
    } catch {
      throw parseFailed(
        'complete pod JSON (kubectl get pod <name> -o json); this JSON is cut off or malformed.',
      );
    }
    this.fromObject(data);
  }

  private fromYaml(): void {
    const depth = flowDepth(this.yaml);
    if (depth > MAX_FLOW_DEPTH)
      throw parseFailed(
        `pod YAML as kubectl prints it (kubectl get pod <name> -o yaml); this one nests brackets ${depth} deep.`,
      );
    let data: unknown;
    try {
      // No duplicate-key check: it is quadratic in the keys (25 s for 40,000), and kubectl prints none.
      data = yaml().parse(this.yaml, { uniqueKeys: false });
    } catch {
      throw parseFailed(
        'complete pod YAML (kubectl get pod <name> -o yaml); this YAML is cut off or malformed.',
      );
    }
    this.fromObject(data);
  }

  /** The same object from `-o json` or `-o yaml`. */
  private fromObject(data: unknown): void {
    const pod = PodJson.safeParse(data);
    if (!pod.success) throw parseFailed('a Kubernetes Pod object (kind: Pod with spec.containers).');
    this.pod = pod.data.metadata?.name ?? '';
    const statuses = pod.data.status?.containerStatuses ?? [];
    for (const spec of pod.data.spec.containers) {
      const status = statuses.find((s) => s.name === spec.name);
      // Restarted, the end is in lastState; not restarted (restartPolicy Never), in state. A kill wins.
      const ends = [status?.state?.terminated, status?.lastState?.terminated];
      const term = ends.find((t) => t?.reason === 'OOMKilled') ?? ends.find((t) => t !== undefined);
      const { image, command, args, env } = spec;
      this.containers.push({
        name: spec.name,
        runs: JSON.stringify({ image, command, args, env }).slice(0, MAX_RUNS_CHARS),
        limit: quantity(spec.resources?.limits?.memory),
        request: quantity(spec.resources?.requests?.memory),
        reason: term?.reason,
        exitCode: term?.exitCode,
        restarts: status?.restartCount,
        line: 1,
        text: `${spec.name}: ${term?.reason ?? 'running'}${term?.exitCode !== undefined ? ` (exit ${term.exitCode})` : ''}`,
      });
    }
  }

  /** Pod objects pasted whole are read at the end; describe output was read line by line. */
  private readObject(): void {
    if (this.json) this.fromJson();
    else if (this.yaml) this.fromYaml();
  }

  finish() {
    this.readObject();
    if (this.containers.length === 0)
      throw parseFailed('`kubectl describe pod` output with a "Containers:" section, or pod JSON or YAML.');
    const hit =
      this.containers.find((c) => c.reason === 'OOMKilled') ??
      this.containers.find((c) => c.exitCode === 137) ??
      this.containers[0];
    const c = hit as Container;
    const oom = c.reason === 'OOMKilled';
    const values = {
      pod: this.pod,
      container: c.name,
      containers: this.containers.length,
      oomKilled: oom,
      exitCode: c.exitCode ?? -1,
      reason: c.reason ?? '',
      memoryLimitBytes: c.limit ?? 0,
      memoryRequestBytes: c.request ?? 0,
      restartCount: c.restarts ?? 0,
    };
    const facts = oom || c.exitCode === 137 ? killFacts(c) : [];
    const limit = c.limit ? `memory limit ${formatSize(c.limit)}` : 'no memory limit';
    const verdict = oom
      ? 'OOMKilled at the container memory limit'
      : c.exitCode === 137
        ? 'killed with SIGKILL (exit 137)'
        : 'no memory kill recorded';
    const whose = this.pod ? `pod ${this.pod}` : 'a pod pasted without its name';
    const summary = `Container ${c.name} of ${whose}: ${c.reason ?? 'no termination reason'}${c.exitCode !== undefined ? `, exit code ${c.exitCode}` : ''}, ${limit}${c.request ? `, request ${formatSize(c.request)}` : ''}, ${c.restarts ?? 0} restarts.`;
    return output('k8s-pod', values, summary, facts, verdict, c.line);
  }
}

/** `kubectl describe pod` and `kubectl get pod -o json|yaml`: OOMKilled, exit 137, limits and requests. */
export const k8sPodParser: Parser = {
  id: 'k8s-pod',
  title: 'kubectl describe pod',
  howToGet: '`kubectl describe pod <pod>` (or `kubectl get pod <pod> -o yaml` / `-o json`)',
  detect(head) {
    const describe =
      head.some((l) => /^Name:\s+\S/.test(l)) && head.some((l) => /^(Namespace|Containers|Node):/.test(l));
    const section =
      head.some((l) => /^Containers:/.test(l)) &&
      head.some((l) => /^\s+(Last State|Restart Count|State):/.test(l));
    const yaml =
      head.some((l) => /^kind:\s*Pod\s*$/.test(l)) && head.some((l) => /^apiVersion:\s*v1\s*$/.test(l));
    return describe || section || yaml || head.some((l) => /"kind":\s*"Pod"/.test(l));
  },
  create: () => new PodRun(),
};
