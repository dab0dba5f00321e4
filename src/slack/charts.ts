import type { WebClient } from '@slack/web-api';
import { type ChartData, drawCharts, renderPng } from '../usecases/chart-images.ts';
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

/**
 * Posts the charts of an answer into its thread as PNGs, each with its alt text, after the answer
 * itself has gone out. Whatever fails (drawing, rasterising, the upload) is logged and the rest of the
 * charts still go: a picture never holds back or breaks the answer it illustrates. Answers how many went up.
 */
export async function postCharts(
  deps: Pick<SlackDeps, 'log'> & Partial<Pick<SlackDeps, 'fetch'>>,
  client: WebClient,
  data: readonly (ChartData | undefined)[],
  thread: ChartThread,
): Promise<number> {
  let charts: ReturnType<typeof drawCharts>;
  let posted = 0;
  try {
    charts = drawCharts(data).slice(0, MAX_CHARTS_PER_ANSWER);
  } catch (error) {
    deps.log.warn({ ...thread, err: explainFailure(error).message }, 'chart not drawn');
    return posted;
  }
  for (const chart of charts) {
    try {
      const bytes = await renderPng(chart);
      const file = {
        ...thread,
        filename: `${chart.id}.png`,
        title: chart.title,
        bytes,
        what: 'the chart',
        altText: chart.alt.slice(0, MAX_ALT_CHARS),
      };
      await postThreadFile(client, file, deps.fetch ?? fetch);
      posted++;
    } catch (error) {
      deps.log.warn({ ...thread, chart: chart.id, err: explainFailure(error).message }, 'chart not posted');
    }
  }
  return posted;
}
