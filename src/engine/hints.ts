/** Systems a user can name when the input alone does not show it (`--engine`, `/memdoctor glue ...`). */
export const ENGINE_HINTS = ['glue', 'spark', 'flink', 'beam'] as const;
export type EngineHint = (typeof ENGINE_HINTS)[number];
