import type { Cluster, Redis } from 'ioredis';

/**
 * One Redis server or a Redis Cluster: every store takes either (their keys share hash tags). In a
 * file of its own so failure.ts and health.ts can name it without importing connect.ts, which imports them.
 */
export type RedisConnection = Redis | Cluster;
