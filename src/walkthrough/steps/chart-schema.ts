import { z } from 'zod';
import { compactChart, KEPT_CHART } from '../../engine/charts/compact.ts';
import type { ChartData } from '../../engine/charts/types.ts';

// The figures of a pasted output's chart, as a stored walkthrough keeps them (compactChart bounds
// them). Stored JSON is a boundary: a chart that does not fit is refused with the record, never drawn.

const text = z.string().max(KEPT_CHART.text);
const bytes = z.number().finite();
const index = z.number().int().min(0);
const TimePointSchema = z.strictObject({ t: z.number().finite(), bytes });
const series = z.array(TimePointSchema).max(KEPT_CHART.points);

const limit = { limitBytes: bytes.optional(), limitLabel: text.optional(), verdict: text.optional() };

const GcHeapSchema = z.strictObject({
  kind: z.literal('gc-heap'),
  after: series,
  floors: series,
  ...limit,
  limitLabel: text,
  timed: z.boolean(),
  floorRising: z.boolean(),
});

const SamplesSchema = z.strictObject({
  kind: z.literal('memory-samples'),
  title: text,
  points: series,
  timed: z.boolean(),
  ...limit,
  shape: text,
  bytesPerSecond: z.number().finite().optional(),
  bytesPerSample: z.number().finite(),
  secondsToLimit: z.number().finite().optional(),
  steps: z.array(index).max(KEPT_CHART.marks),
  plateaus: z.array(z.tuple([index, index])).max(KEPT_CHART.marks),
  count: index.optional(),
});

const BarsSchema = z.strictObject({
  kind: z.literal('bars'),
  id: text,
  title: text,
  valueLabel: text,
  bars: z
    .array(z.strictObject({ label: text, bytes, emphasis: z.boolean().optional() }))
    .max(KEPT_CHART.bars),
  ...limit,
});

const PeaksSchema = z.strictObject({
  kind: z.literal('peaks'),
  id: text,
  title: text,
  measures: z.array(text).max(8),
  rows: z
    .array(
      z.strictObject({
        label: text,
        // JSON has no undefined: a value not measured is kept as null.
        values: z.array(bytes.nullable()).max(8),
        emphasis: z.boolean().optional(),
      }),
    )
    .max(KEPT_CHART.rows),
  ...limit,
  note: text.optional(),
});

/** A kept chart: the kinds a parser draws a paste as (GC log, memory samples, NMT/pmap, Spark peaks). */
export const KeptChartSchema = z.discriminatedUnion('kind', [
  GcHeapSchema,
  SamplesSchema,
  BarsSchema,
  PeaksSchema,
]);
export type KeptChart = z.infer<typeof KeptChartSchema>;

/** The kept figures as the drawing takes them: a null peak is one that was not measured. */
export function chartOfKept(kept: KeptChart): ChartData {
  if (kept.kind !== 'peaks') return kept;
  return { ...kept, rows: kept.rows.map((r) => ({ ...r, values: r.values.map((v) => v ?? undefined) })) };
}

/**
 * A parser's chart as a record keeps it: bounded, in the stored form, and checked against the
 * schema the record is read back with. Undefined for a kind a paste does not keep, or figures the
 * schema refuses (not finite): a walkthrough goes on without a picture rather than store one it
 * could not read back.
 */
export function keptChart(data: ChartData | undefined): KeptChart | undefined {
  if (!data) return undefined;
  const compact = compactChart(data);
  const stored =
    compact.kind === 'peaks'
      ? { ...compact, rows: compact.rows.map((r) => ({ ...r, values: r.values.map((v) => v ?? null) })) }
      : compact;
  const checked = KeptChartSchema.safeParse(stored);
  return checked.success ? checked.data : undefined;
}
