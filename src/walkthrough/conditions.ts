import type { Branch, Condition } from './steps/step-schemas.ts';

export type Scalar = number | string | boolean;

function asNumber(value: Scalar): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

/** One condition against the values at hand; a missing value never holds. */
export function holds(condition: Condition, values: Readonly<Record<string, Scalar>>): boolean {
  const value = values[condition.value];
  if (value === undefined) return false;
  const { op, to } = condition;
  if (op === 'eq' || op === 'neq') {
    const same = typeof to === 'number' ? asNumber(value) === to : String(value) === String(to);
    return op === 'eq' ? same : !same;
  }
  const left = asNumber(value);
  const right = asNumber(to);
  if (left === undefined || right === undefined) return false;
  if (op === 'lt') return left < right;
  if (op === 'lte') return left <= right;
  if (op === 'gt') return left > right;
  return left >= right;
}

/** The first branch whose conditions all hold, if any. */
export function firstBranch(
  branches: readonly Branch[],
  values: Readonly<Record<string, Scalar>>,
): Branch | undefined {
  return branches.find((b) => b.when.every((c) => holds(c, values)));
}
