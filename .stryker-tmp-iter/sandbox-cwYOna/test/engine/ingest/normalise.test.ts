// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { evidenceText, isFence, normalise } from '../../../src/engine/ingest/normalise.ts';

describe('normalise', () => {
  it.each([
    ['\u001b[31mERROR\u001b[0m Executor lost', 'ERROR Executor lost'],
    ['\u001b[1;33;41mWARN\u001b[m done', 'WARN done'],
    ['\u001b]8;;http://example.com\u0007link\u001b]8;;\u0007 text', 'link text'],
    ['\u001b]0;title\u001b\\after', 'after'],
    ['&gt; java.lang.OutOfMemoryError: Java heap space', 'java.lang.OutOfMemoryError: Java heap space'],
    ['&gt;&gt; nested quote', 'nested quote'],
    ['> plain quote', 'plain quote'],
    ['  &gt; MemoryError', 'MemoryError'],
    ['a > b stays', 'a > b stays'],
    ['a &lt;b&gt; &amp; &quot;c&quot; &#39;d&#x27;', 'a <b> & "c" \'d\''],
    // One pass only: an escaped entity stays an entity, as the writer meant.
    ['&amp;gt; literally', '&gt; literally'],
    ['`java.lang.OutOfMemoryError: Java heap space`', 'java.lang.OutOfMemoryError: Java heap space'],
    ['```Container killed by YARN```', 'Container killed by YARN'],
    ['keep `inline` ticks', 'keep `inline` ticks'],
    ['null\u0000byte and bell\u0007', 'null byte and bell '],
    ['tab\tstays', 'tab\tstays'],
    ['unchanged line', 'unchanged line'],
  ])('%j -> %j', (raw, clean) => {
    expect(normalise(raw)).toBe(clean);
  });
});

describe('isFence', () => {
  it.each(['```', '```java', '  ```  ', '> ```', '```text-plain', '```shell_session'])(
    '%j is a fence',
    (line) => {
      expect(isFence(line)).toBe(true);
    },
  );

  it.each(['```java.lang.OutOfMemoryError```', 'code ```', '``', 'java'])('%j is not a fence', (line) => {
    expect(isFence(line)).toBe(false);
  });
});

describe('evidenceText', () => {
  it('trims and normalises', () => {
    expect(evidenceText('  &gt; \u001b[31mjava.lang.OutOfMemoryError\u001b[0m  \r')).toBe(
      'java.lang.OutOfMemoryError',
    );
  });

  it('cuts at 500 characters and says so', () => {
    const text = evidenceText(`start ${'x'.repeat(2000)}`);
    expect(text).toHaveLength(501);
    expect(text.startsWith('start x')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
  });
});
