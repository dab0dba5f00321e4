/**
 * One-line pictures for the terminal: a sparkline of a series and a bar of a share, in Unicode block
 * characters, so a figure has its shape beside it where colours are allowed.
 */

const LEVELS = '▁▂▃▄▅▆▇█';

/** `width` characters of the series' shape (each the highest value of its slice), low to high. */
export function sparkline(values: readonly number[], width = 24): string {
  if (values.length === 0) return '';
  const cells = Math.min(width, values.length);
  const maxes: number[] = [];
  for (let c = 0; c < cells; c++) {
    const from = Math.floor((c * values.length) / cells);
    const to = Math.max(from + 1, Math.floor(((c + 1) * values.length) / cells));
    let m = Number.NEGATIVE_INFINITY;
    for (let i = from; i < to; i++) m = Math.max(m, values[i] ?? m);
    maxes.push(m);
  }
  const lo = Math.min(...maxes);
  const hi = Math.max(...maxes);
  return maxes.map((v) => LEVELS[hi === lo ? 3 : Math.round(((v - lo) / (hi - lo)) * 7)]).join('');
}

/** A bar `width` characters long, filled to `share` (0..1) in eighths of a character. */
export function shareBar(share: number, width = 20): string {
  const eighths = Math.round(Math.min(1, Math.max(0, share)) * width * 8);
  const full = Math.floor(eighths / 8);
  const part = eighths % 8;
  const partial = part ? ' ▏▎▍▌▋▊▉'[part] : '';
  return `${'█'.repeat(full)}${partial}`.padEnd(width, '·');
}
