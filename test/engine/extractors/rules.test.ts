import { describe, expect, it } from 'vitest';
import { MARKERS } from '../../../src/engine/extractors/engine-markers.ts';
import { triggersOf } from '../../../src/engine/extractors/rules.ts';
import { RULES } from '../../../src/engine/extractors/spark-executor-loss.ts';

describe('triggersOf', () => {
  // The engine drops a trigger from its scan once every kind listed under it is kept in full, so
  // the list must name each kind once, however many markers of that kind share the trigger.
  it('lists a kind once under a trigger two of its markers share', () => {
    const glueClasses = MARKERS.find((marker) => marker.triggers.includes('glue.'));
    expect(glueClasses?.kind).toBe('engine.glue');
    const { triggers, triggerKinds } = triggersOf([...MARKERS, ...(glueClasses ? [glueClasses] : [])]);
    expect(triggerKinds['glue.']).toEqual(['engine.glue']);
    expect({ triggers, triggerKinds }).toEqual(triggersOf(MARKERS));
  });

  // A rule without triggers adds none to its extractor's, so the engine would open the extractor on
  // that rule's lines only by chance.
  it('refuses a rule without triggers, naming its kind', () => {
    const [lostUnknown] = RULES;
    if (!lostUnknown) throw new Error('spark-executor-loss has no rules');
    const untriggered = { kind: lostUnknown.kind, re: lostUnknown.re };
    expect(() => triggersOf([...RULES, untriggered])).toThrow(
      'a rule of kind spark.executor-lost-unknown has no triggers',
    );
  });
});
