// @ts-nocheck
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import type { Fact, FactBook } from './facts.ts';
import type { FactRef, Playbook, Signal } from './playbook/schema.ts';

/** A signal that matched, with the facts that met it. */
export interface MatchedSignal {
  fact: string;
  weight: number;
  facts: Fact[];
}

/** How a playbook matched an input: the confidence and everything it rests on. */
export interface PlaybookMatch {
  playbook: Playbook;
  confidence: number;
  signals: MatchedSignal[];
  /** Facts that met the playbook's `requires` groups. */
  required: Fact[];
}
function refParts(ref: FactRef): {
  fact: string;
  where?: Record<string, string | number | boolean>;
} {
  if (stryMutAct_9fa48("759")) {
    {}
  } else {
    stryCov_9fa48("759");
    return (stryMutAct_9fa48("762") ? typeof ref !== 'string' : stryMutAct_9fa48("761") ? false : stryMutAct_9fa48("760") ? true : (stryCov_9fa48("760", "761", "762"), typeof ref === (stryMutAct_9fa48("763") ? "" : (stryCov_9fa48("763"), 'string')))) ? stryMutAct_9fa48("764") ? {} : (stryCov_9fa48("764"), {
      fact: ref
    }) : ref;
  }
}

/** Facts meeting a reference: the kind (or `prefix.*`) and every `where` condition. */
export function factsFor(book: FactBook, ref: FactRef | Signal): Fact[] {
  if (stryMutAct_9fa48("765")) {
    {}
  } else {
    stryCov_9fa48("765");
    const {
      fact,
      where
    } = (stryMutAct_9fa48("768") ? typeof ref !== 'string' : stryMutAct_9fa48("767") ? false : stryMutAct_9fa48("766") ? true : (stryCov_9fa48("766", "767", "768"), typeof ref === (stryMutAct_9fa48("769") ? "" : (stryCov_9fa48("769"), 'string')))) ? refParts(ref) : ref;
    const facts = book.find(fact);
    if (stryMutAct_9fa48("772") ? false : stryMutAct_9fa48("771") ? true : stryMutAct_9fa48("770") ? where : (stryCov_9fa48("770", "771", "772"), !where)) return facts;
    return stryMutAct_9fa48("773") ? facts : (stryCov_9fa48("773"), facts.filter(stryMutAct_9fa48("774") ? () => undefined : (stryCov_9fa48("774"), f => stryMutAct_9fa48("775") ? Object.entries(where).some(([key, value]) => f.values?.[key] === value) : (stryCov_9fa48("775"), Object.entries(where).every(stryMutAct_9fa48("776") ? () => undefined : (stryCov_9fa48("776"), ([key, value]) => stryMutAct_9fa48("779") ? f.values?.[key] !== value : stryMutAct_9fa48("778") ? false : stryMutAct_9fa48("777") ? true : (stryCov_9fa48("777", "778", "779"), (stryMutAct_9fa48("780") ? f.values[key] : (stryCov_9fa48("780"), f.values?.[key])) === value)))))));
  }
}
function requiredFacts(book: FactBook, playbook: Playbook): Fact[] | undefined {
  if (stryMutAct_9fa48("781")) {
    {}
  } else {
    stryCov_9fa48("781");
    const found: Fact[] = stryMutAct_9fa48("782") ? ["Stryker was here"] : (stryCov_9fa48("782"), []);
    for (const group of playbook.match.requires) {
      if (stryMutAct_9fa48("783")) {
        {}
      } else {
        stryCov_9fa48("783");
        const met = group.any.flatMap(stryMutAct_9fa48("784") ? () => undefined : (stryCov_9fa48("784"), ref => factsFor(book, ref)));
        if (stryMutAct_9fa48("787") ? met.length !== 0 : stryMutAct_9fa48("786") ? false : stryMutAct_9fa48("785") ? true : (stryCov_9fa48("785", "786", "787"), met.length === 0)) return undefined;
        found.push(...met);
      }
    }
    return found;
  }
}

/**
 * Confidence is a noisy-OR of the positive signals (each an independent reason to believe), scaled
 * down by each negative one. Rounded to two decimals so output is stable and readable.
 */
export function confidenceOf(signals: readonly MatchedSignal[]): number {
  if (stryMutAct_9fa48("788")) {
    {}
  } else {
    stryCov_9fa48("788");
    let disbelief = 1;
    let penalty = 1;
    for (const signal of signals) {
      if (stryMutAct_9fa48("789")) {
        {}
      } else {
        stryCov_9fa48("789");
        if (stryMutAct_9fa48("793") ? signal.weight <= 0 : stryMutAct_9fa48("792") ? signal.weight >= 0 : stryMutAct_9fa48("791") ? false : stryMutAct_9fa48("790") ? true : (stryCov_9fa48("790", "791", "792", "793"), signal.weight > 0)) stryMutAct_9fa48("794") ? disbelief /= 1 - signal.weight : (stryCov_9fa48("794"), disbelief *= stryMutAct_9fa48("795") ? 1 + signal.weight : (stryCov_9fa48("795"), 1 - signal.weight));else stryMutAct_9fa48("796") ? penalty /= 1 + signal.weight : (stryCov_9fa48("796"), penalty *= stryMutAct_9fa48("797") ? 1 - signal.weight : (stryCov_9fa48("797"), 1 + signal.weight));
      }
    }
    const confidence = stryMutAct_9fa48("798") ? Math.max(0.99, (1 - disbelief) * penalty) : (stryCov_9fa48("798"), Math.min(0.99, stryMutAct_9fa48("799") ? (1 - disbelief) / penalty : (stryCov_9fa48("799"), (stryMutAct_9fa48("800") ? 1 + disbelief : (stryCov_9fa48("800"), 1 - disbelief)) * penalty)));
    return stryMutAct_9fa48("801") ? Math.round(confidence * 100) * 100 : (stryCov_9fa48("801"), Math.round(stryMutAct_9fa48("802") ? confidence / 100 : (stryCov_9fa48("802"), confidence * 100)) / 100);
  }
}

/** Matches one playbook against the facts; undefined when it does not apply. */
export function matchPlaybook(book: FactBook, playbook: Playbook): PlaybookMatch | undefined {
  if (stryMutAct_9fa48("803")) {
    {}
  } else {
    stryCov_9fa48("803");
    if (stryMutAct_9fa48("806") ? playbook.match.excludes.every(ref => factsFor(book, ref).length > 0) : stryMutAct_9fa48("805") ? false : stryMutAct_9fa48("804") ? true : (stryCov_9fa48("804", "805", "806"), playbook.match.excludes.some(stryMutAct_9fa48("807") ? () => undefined : (stryCov_9fa48("807"), ref => stryMutAct_9fa48("811") ? factsFor(book, ref).length <= 0 : stryMutAct_9fa48("810") ? factsFor(book, ref).length >= 0 : stryMutAct_9fa48("809") ? false : stryMutAct_9fa48("808") ? true : (stryCov_9fa48("808", "809", "810", "811"), factsFor(book, ref).length > 0))))) return undefined;
    const required = requiredFacts(book, playbook);
    if (stryMutAct_9fa48("814") ? false : stryMutAct_9fa48("813") ? true : stryMutAct_9fa48("812") ? required : (stryCov_9fa48("812", "813", "814"), !required)) return undefined;
    const signals: MatchedSignal[] = stryMutAct_9fa48("815") ? ["Stryker was here"] : (stryCov_9fa48("815"), []);
    for (const signal of playbook.match.signals) {
      if (stryMutAct_9fa48("816")) {
        {}
      } else {
        stryCov_9fa48("816");
        const facts = factsFor(book, signal);
        if (stryMutAct_9fa48("820") ? facts.length <= 0 : stryMutAct_9fa48("819") ? facts.length >= 0 : stryMutAct_9fa48("818") ? false : stryMutAct_9fa48("817") ? true : (stryCov_9fa48("817", "818", "819", "820"), facts.length > 0)) signals.push(stryMutAct_9fa48("821") ? {} : (stryCov_9fa48("821"), {
          fact: signal.fact,
          weight: signal.weight,
          facts
        }));
      }
    }
    const confidence = confidenceOf(signals);
    if (stryMutAct_9fa48("825") ? confidence >= playbook.match.min_confidence : stryMutAct_9fa48("824") ? confidence <= playbook.match.min_confidence : stryMutAct_9fa48("823") ? false : stryMutAct_9fa48("822") ? true : (stryCov_9fa48("822", "823", "824", "825"), confidence < playbook.match.min_confidence)) return undefined;
    return stryMutAct_9fa48("826") ? {} : (stryCov_9fa48("826"), {
      playbook,
      confidence,
      signals,
      required
    });
  }
}

/** Every playbook that applies, best first; ties go to the more specific playbook, then by id. */
export function rankPlaybooks(book: FactBook, playbooks: readonly Playbook[]): PlaybookMatch[] {
  if (stryMutAct_9fa48("827")) {
    {}
  } else {
    stryCov_9fa48("827");
    return stryMutAct_9fa48("829") ? playbooks.map(playbook => matchPlaybook(book, playbook)).sort((a, b) => b.confidence - a.confidence || b.playbook.match.requires.length - a.playbook.match.requires.length || a.playbook.id.localeCompare(b.playbook.id)) : stryMutAct_9fa48("828") ? playbooks.map(playbook => matchPlaybook(book, playbook)).filter((m): m is PlaybookMatch => m !== undefined) : (stryCov_9fa48("828", "829"), playbooks.map(stryMutAct_9fa48("830") ? () => undefined : (stryCov_9fa48("830"), playbook => matchPlaybook(book, playbook))).filter(stryMutAct_9fa48("831") ? () => undefined : (stryCov_9fa48("831"), (m): m is PlaybookMatch => stryMutAct_9fa48("834") ? m === undefined : stryMutAct_9fa48("833") ? false : stryMutAct_9fa48("832") ? true : (stryCov_9fa48("832", "833", "834"), m !== undefined))).sort(stryMutAct_9fa48("835") ? () => undefined : (stryCov_9fa48("835"), (a, b) => stryMutAct_9fa48("838") ? (b.confidence - a.confidence || b.playbook.match.requires.length - a.playbook.match.requires.length) && a.playbook.id.localeCompare(b.playbook.id) : stryMutAct_9fa48("837") ? false : stryMutAct_9fa48("836") ? true : (stryCov_9fa48("836", "837", "838"), (stryMutAct_9fa48("840") ? b.confidence - a.confidence && b.playbook.match.requires.length - a.playbook.match.requires.length : stryMutAct_9fa48("839") ? false : (stryCov_9fa48("839", "840"), (stryMutAct_9fa48("841") ? b.confidence + a.confidence : (stryCov_9fa48("841"), b.confidence - a.confidence)) || (stryMutAct_9fa48("842") ? b.playbook.match.requires.length + a.playbook.match.requires.length : (stryCov_9fa48("842"), b.playbook.match.requires.length - a.playbook.match.requires.length)))) || a.playbook.id.localeCompare(b.playbook.id)))));
  }
}