/**
 * What a join key names. `process` families name one process (facts that share one are about it);
 * `application` names a whole job, whose processes are related but not the same.
 */
export type KeyFamily =
  | 'yarn-container'
  | 'yarn-application'
  | 'spark-executor'
  | 'flink-taskmanager'
  | 'k8s-pod'
  | 'pid';

/** One key an input names, e.g. `yarn-container container_e05_1700000000000_0001_01_000006`. */
export interface JoinKey {
  family: KeyFamily;
  value: string;
}

/**
 * What one line says: the keys it names; every key it names is about the same thing (e.g. "Lost
 * executor 4 ... container_..._000006" says executor 4 is that container).
 */
export type LineKeys = readonly JoinKey[];

/**
 * What a reader keeps between the lines of one input, under its own names: a table's header says
 * which column of the rows below is a pid (`ps -o pid,rss`). A new one for each input.
 */
export type KeyMemo = Map<string, number>;

/**
 * A key family's reader: the keys one line names (pure but for its memo, which only the lines before
 * of the same input have written; the line number is the caller's).
 */
export type KeyReader = (line: string, lineNo: number, memo: KeyMemo) => JoinKey[];

export function keyId(key: JoinKey): string {
  return `${key.family} ${key.value}`;
}
