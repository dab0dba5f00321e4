import { describe, expect, it } from 'vitest';
import { checkProcedure } from '../../src/walkthrough/lint.ts';
import { type MeasurementUnit, readMeasurement } from '../../src/walkthrough/measurement-units.ts';

describe('readMeasurement', () => {
  it.each([
    ['85', 'percent', 85, '85%'],
    ['85 %', 'percent', 85, '85%'],
    ['0.5%', 'percent', 0.5, '0.5%'],
    ['0', 'percent', 0, '0%'],
    ['0.85', 'ratio', 0.85, '85% (ratio 0.85)'],
    ['1', 'ratio', 1, '100% (ratio 1)'],
    ['3.5 GiB', 'MiB', 3584, '3584 MiB'],
    ['512m', 'GiB', 0.5, '0.5 GiB'],
    ['2g', 'bytes', 2 * 1024 ** 3, '2147483648 bytes (2 GB)'],
    ['1200ms', 'seconds', 1.2, '1.2 s'],
    ['2 s', 'ms', 2000, '2000 ms'],
    ['1.5 min', 'seconds', 90, '90 s'],
    ['1,024', 'count', 1024, '1024'],
    ['4.2x', 'multiple', 4.2, '4.2x'],
  ] as const)('%s in %s is %s, shown as %s', (text, unit, value, shown) => {
    expect(readMeasurement(text, unit)).toEqual({ ok: true, value, shown });
  });

  it.each([
    ['0.85', 'percent', /ambiguous: 0.85% or a ratio of 0.85 \(85%\)\? Add the % sign \(0.85% or 85%\)/],
    ['1', 'percent', /ambiguous/],
    ['101', 'percent', /outside 0% to 100%/],
    ['lots', 'percent', /is not a share/],
    ['5 GiB', 'percent', /is not a share/],
    ['85%', 'count', /is not a count/],
    ['2.5', 'count', /is not a whole number/],
    ['201326592', 'MiB', /looks like a number of bytes, not MiB: add its unit \(201326592 bytes\)/],
    ['3 apples', 'GiB', /is not a size/],
    ['7.8 min / 64 MiB', 'percent', /different kinds/],
    ['5 / 0', 'multiple', /divides by 0/],
    ['1,5', 'GiB', /has a comma/],
  ] as const)('refuses %s for %s', (text, unit, message) => {
    const read = readMeasurement(text, unit as MeasurementUnit);
    expect(read.ok ? 'accepted' : read.error).toMatch(message);
  });
});

describe('procedure lint for measurements', () => {
  const procedure = (measure: Record<string, unknown>) => ({
    start: 'm',
    steps: [
      { id: 'm', kind: 'measurement', title: 'Heap', text: 'Read it.', otherwise: 'end', ...measure },
      { id: 'end', kind: 'conclusion', title: 'End', text: 'Done.', fix: ['x'], verify: ['y'] },
    ],
  });

  it('says what to write when a measurement lacks its unit', () => {
    const check = checkProcedure(procedure({}), new Set());
    expect(check.ok ? '' : check.message).toMatch(
      /a measurement declares the unit its metric really has, as the tool shows it: one of ratio, percent, multiple/,
    );
    expect(check.ok ? '' : check.message).toContain('steps[0].unit');
  });

  it('refuses a threshold outside the unit, as a ratio step written in percent', () => {
    const check = checkProcedure(
      procedure({ unit: 'ratio', max: 100, branches: [{ when: [{ op: 'gte', to: 80 }], next: 'end' }] }),
      new Set(),
    );
    expect(check.ok ? '' : check.message).toContain(
      'threshold 80 is outside the range of ratio (0 to 1 (0% to 100%)); write it in the unit the metric shows',
    );
    expect(check.ok ? '' : check.message).toContain('max 100 is outside the range of ratio');
  });

  it('takes the same step written as the metric shows it', () => {
    const check = checkProcedure(
      procedure({ unit: 'ratio', max: 1, branches: [{ when: [{ op: 'gte', to: 0.8 }], next: 'end' }] }),
      new Set(),
    );
    expect(check.ok).toBe(true);
  });
});
