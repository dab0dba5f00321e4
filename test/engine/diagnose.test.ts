import { describe, expect, it } from 'vitest';
import { FactCollector } from '../../src/engine/collector.ts';
import { diagnoseFacts } from '../../src/engine/diagnose.ts';
import { diagnoseText } from '../../src/engine/index.ts';
import { testPlaybook } from './playbook-fixture.ts';

const heap = testPlaybook(
  'test-heap',
  {
    requires: [{ label: 'heap OOM', any: ['oom.java-heap'] }],
    signals: [
      { fact: 'oom.java-heap', weight: 0.7 },
      { fact: 'engine.spark', weight: 0.3 },
    ],
  },
  {
    derive: ['heap-size'],
    causes: [
      {
        id: 'driver-collect',
        title: 'collect',
        when: ['cause.driver-collect'],
        explanation: 'The driver collected too much.',
        actions: [{ text: 'Stop collecting.' }],
      },
    ],
    actions: [
      {
        text: 'Raise spark.executor.memory from {{heap.executor}} to {{heap.executor.suggested}}.',
        otherwise: 'Raise the heap.',
      },
      { text: 'Only with Spark.', when: ['engine.spark'] },
      { text: 'Never: {{no.such.value}}.' },
    ],
  },
);

describe('FactCollector', () => {
  it('numbers facts by raw input line, counting blank and fence lines', () => {
    const collector = new FactCollector();
    collector.push(['```', '', 'java.lang.OutOfMemoryError: Java heap space']);
    collector.push(['```', 'Killed']);
    expect(collector.book.find('oom.java-heap').map((f) => f.line)).toEqual([3]);
    expect(collector.book.find('process.killed').map((f) => f.line)).toEqual([5]);
  });

  it('reads Slack-escaped, coloured, quoted lines and cites them cleaned', () => {
    const collector = new FactCollector();
    collector.push(['&gt; \u001b[31mjava.lang.OutOfMemoryError: Java heap space\u001b[0m  ']);
    expect(collector.book.find('oom.java-heap')).toEqual([
      { kind: 'oom.java-heap', line: 1, text: 'java.lang.OutOfMemoryError: Java heap space' },
    ]);
  });

  it('skips a fence line even when it carries a trigger word', () => {
    const collector = new FactCollector();
    collector.push(['```java', '```']);
    expect(collector.book.kinds()).toEqual([]);
  });

  it('records an engine hint at line 0', () => {
    const collector = new FactCollector(undefined, 'glue');
    expect(collector.book.find('engine.*').map((f) => [f.kind, f.line])).toEqual([
      ['engine.glue', 0],
      ['engine.spark', 0],
    ]);
  });
});

describe('diagnoseText', () => {
  it('diagnoses, cites lines, picks the cause and fills actions from the input', async () => {
    const text = [
      'INFO starting',
      '--conf spark.executor.memory=4g',
      'at org.apache.spark.sql.Dataset.collectFromPlan(Dataset.scala:3696)',
      'java.lang.OutOfMemoryError: Java heap space',
    ].join('\r\n');
    const { diagnoses, input } = (await diagnoseText('paste', text, [heap])).report;
    expect(input).toEqual({ bytes: Buffer.byteLength(text), lines: 4 });
    expect(diagnoses).toHaveLength(1);
    const [d] = diagnoses;
    expect(d?.playbook).toBe('test-heap');
    expect(d?.confidence).toBe(0.79);
    expect(d?.cause).toBe('driver-collect');
    expect(d?.evidence.map((e) => e.line)).toEqual([2, 3, 4]);
    expect(d?.actions).toEqual([
      'Stop collecting.',
      'Raise spark.executor.memory from 4g to 6g.',
      'Only with Spark.',
    ]);
  });

  it('falls back to `otherwise` when a value is missing and leaves out `when` actions', async () => {
    const { diagnoses } = (
      await diagnoseText('paste', 'java.lang.OutOfMemoryError: Java heap space\n', [heap])
    ).report;
    expect(diagnoses[0]?.actions).toEqual(['Raise the heap.']);
    expect(diagnoses[0]?.cause).toBeNull();
  });

  it('cites only the first few lines, in order (facts kept per kind are bounded)', async () => {
    const text = Array.from({ length: 30 }, () => 'java.lang.OutOfMemoryError: Java heap space').join('\n');
    const { diagnoses } = (await diagnoseText('paste', text, [heap])).report;
    expect(diagnoses[0]?.evidence.map((e) => e.line)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('gives no diagnosis for unrelated input', async () => {
    const { diagnoses } = (await diagnoseText('paste', 'INFO all good\nWARN disk 80% full\n', [heap])).report;
    expect(diagnoses).toEqual([]);
  });

  it('does not diagnose from a hint alone (no evidence line)', async () => {
    const hinted = testPlaybook('hinted', {
      requires: [{ label: 'spark', any: ['engine.spark'] }],
      signals: [{ fact: 'engine.spark', weight: 0.9 }],
    });
    const { report } = await diagnoseText('paste', 'nothing here\n', [hinted], { engine: 'spark' });
    expect(report.diagnoses).toEqual([]);
  });

  it('is deterministic', async () => {
    const text =
      'at x.collect(Foo.scala:1)\n--conf spark.executor.memory=4g\njava.lang.OutOfMemoryError: Java heap space\n';
    const a = await diagnoseText('paste', text, [heap]);
    const b = await diagnoseText('paste', text, [heap]);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const collector = new FactCollector();
    collector.push(text.split('\n'));
    collector.finish();
    expect(diagnoseFacts(collector.book, [heap])).toEqual(a.report.diagnoses);
  });
});
