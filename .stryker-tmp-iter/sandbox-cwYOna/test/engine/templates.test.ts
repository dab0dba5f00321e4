// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { fill, placeholders } from '../../src/engine/templates.ts';

describe('placeholders', () => {
  it('lists names in order, with repeats, whitespace inside braces ignored', () => {
    expect(
      placeholders('raise {{ overhead.current }} to {{overhead.suggested}}; was {{overhead.current}}'),
    ).toEqual(['overhead.current', 'overhead.suggested', 'overhead.current']);
  });

  it('ignores text that is not a placeholder', () => {
    expect(placeholders('no {placeholders} here, {{}} nor {{ two words }}')).toEqual([]);
  });
});

describe('fill', () => {
  const values = { 'container.used': '10.4 GB', 'container.limit': '10 GB', empty: '', dollar: '$& $1' };

  it('fills every placeholder', () => {
    expect(fill('used {{container.used}} of {{ container.limit }}', values)).toBe('used 10.4 GB of 10 GB');
  });

  it('is undefined when any placeholder has no value', () => {
    expect(fill('used {{container.used}} of {{missing}}', values)).toBeUndefined();
  });

  it('accepts an empty value as a value', () => {
    expect(fill('[{{empty}}]', values)).toBe('[]');
  });

  it('inserts values literally, even $ patterns', () => {
    expect(fill('x {{dollar}} y', values)).toBe('x $& $1 y');
  });

  it('returns text without placeholders unchanged', () => {
    expect(fill('nothing to fill', {})).toBe('nothing to fill');
  });

  it('gives the same result when called twice (no regex state leaks between calls)', () => {
    const template = '{{container.used}}/{{container.limit}}';
    expect(fill(template, values)).toBe(fill(template, values));
    expect(placeholders(template)).toEqual(placeholders(template));
  });
});
