import type { WebClient } from '@slack/web-api';
import { type Chart, type ChartData, drawCharts, renderPng } from '../usecases/chart-images.ts';
import type { SlackDeps } from './deps.ts';
import { explainFailure } from './failures.ts';
import { postThreadFile } from './upload.ts';

/** More pictures than this bury the answer: the first ones given are the most telling. */
export const MAX_CHARTS_PER_ANSWER = 2;
/** Slack reads at most this much alt text. */
const MAX_ALT_CHARS = 1000;

/** Where a chart goes: the diagnosis thread. */
export interface ChartThread {
  channel: string;
  threadTs: string;
}

/** A chart to post under a name of its own: the file a walkthrough's transcript refers to it by. */
export interface NamedChart {
  data: ChartData;
  /** `<step>-gc-heap.png`. */
  file: string;
}

type ChartDeps = Pick<SlackDeps, 'log'> & Partial<Pick<SlackDeps, 'fetch'>>;

/**
 * Posts the charts of an answer into its thread as PNGs, each with its alt text, after the answer
 * itself has gone out. Whatever fails (drawing, rasterising, the upload) is logged and the rest of the
 * charts still go: a picture never holds back or breaks the answer it illustrates. Answers how many went up.
 */
export async function postCharts(
  deps: ChartDeps,
  client: WebClient,
  data: readonly (ChartData | undefined)[],
  thread: ChartThread,
): Promise<number> {
  const named = data.filter((d): d is ChartData => d !== undefined).map((d) => ({ data: d }));
  return postNamedCharts(deps, client, named, thread);
}

/** As postCharts, each under the file name given (a walkthrough's transcript names them so). */
export async function postNamedCharts(
  deps: ChartDeps,
  client: WebClient,
  named: readonly (Pick<NamedChart, 'data'> & Partial<NamedChart>)[],
  thread: ChartThread,
): Promise<number> {
  let charts: { chart: Chart; file: string }[];
  try {
    charts = named.slice(0, MAX_CHARTS_PER_ANSWER).map(({ data, file }) => {
      const [chart] = drawCharts([data]) as [Chart];
      return { chart, file: file ?? `${chart.id}.png` };
    });
  } catch (error) {
    deps.log.warn({ ...thread, err: explainFailure(error).message }, 'chart not drawn');
    return 0;
  }
  let posted = 0;
  for (const { chart, file } of charts) if (await postOne(deps, client, chart, file, thread)) posted++;
  return posted;
}

/** One chart's PNG into the thread; false (and logged) when it could not be drawn or uploaded. */
async function postOne(
  deps: ChartDeps,
  client: WebClient,
  chart: Chart,
  filename: string,
  thread: ChartThread,
): Promise<boolean> {
  try {
    const bytes = await renderPng(chart);
    const file = {
      ...thread,
      filename,
      title: chart.title,
      bytes,
      what: 'the chart',
      altText: chart.alt.slice(0, MAX_ALT_CHARS),
    };
    await postThreadFile(client, file, deps.fetch ?? fetch);
    return true;
  } catch (error) {
    deps.log.warn({ ...thread, chart: chart.id, err: explainFailure(error).message }, 'chart not posted');
    return false;
  }
}
