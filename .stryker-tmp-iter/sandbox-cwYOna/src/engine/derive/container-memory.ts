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
import { SPARK_MIN_OVERHEAD } from '../calculators/spark.ts';
import { formatSetting, formatSize, GiB, MiB, roundUp } from '../units.ts';
import { numberValue, sizeSetting } from './settings.ts';
import type { Derivation } from './types.ts';

/**
 * The container's figures and a new memory overhead. Spark sizes a YARN/K8s executor container as heap +
 * overhead, overhead defaulting to max(384 MB, 10% of heap); we give the overhead what the container
 * overshot plus 5% of the limit as headroom, and never less than 1.5x what it had.
 */
export const containerMemory: Derivation = book => {
  if (stryMutAct_9fa48("539")) {
    {}
  } else {
    stryCov_9fa48("539");
    const values: Record<string, string> = {};
    const used = numberValue(book, stryMutAct_9fa48("540") ? "" : (stryCov_9fa48("540"), 'container.killed-memory'), stryMutAct_9fa48("541") ? "" : (stryCov_9fa48("541"), 'usedBytes'));
    const limit = numberValue(book, stryMutAct_9fa48("542") ? "" : (stryCov_9fa48("542"), 'container.killed-memory'), stryMutAct_9fa48("543") ? "" : (stryCov_9fa48("543"), 'limitBytes'));
    if (stryMutAct_9fa48("546") ? used === undefined : stryMutAct_9fa48("545") ? false : stryMutAct_9fa48("544") ? true : (stryCov_9fa48("544", "545", "546"), used !== undefined)) values[stryMutAct_9fa48("547") ? "" : (stryCov_9fa48("547"), 'container.used')] = formatSize(used);
    if (stryMutAct_9fa48("550") ? limit === undefined : stryMutAct_9fa48("549") ? false : stryMutAct_9fa48("548") ? true : (stryCov_9fa48("548", "549", "550"), limit !== undefined)) values[stryMutAct_9fa48("551") ? "" : (stryCov_9fa48("551"), 'container.limit')] = formatSize(limit);
    const heap = sizeSetting(book, stryMutAct_9fa48("552") ? [] : (stryCov_9fa48("552"), [stryMutAct_9fa48("553") ? "" : (stryCov_9fa48("553"), 'spark.executor.memory')]));
    if (stryMutAct_9fa48("556") ? heap === undefined : stryMutAct_9fa48("555") ? false : stryMutAct_9fa48("554") ? true : (stryCov_9fa48("554", "555", "556"), heap !== undefined)) values[stryMutAct_9fa48("557") ? "" : (stryCov_9fa48("557"), 'executor.memory')] = formatSetting(heap);
    const explicit = sizeSetting(book, stryMutAct_9fa48("558") ? [] : (stryCov_9fa48("558"), [stryMutAct_9fa48("559") ? "" : (stryCov_9fa48("559"), 'spark.executor.memoryOverhead'), stryMutAct_9fa48("560") ? "" : (stryCov_9fa48("560"), 'spark.yarn.executor.memoryOverhead')]));
    const current = stryMutAct_9fa48("561") ? explicit && currentOverhead(heap, limit) : (stryCov_9fa48("561"), explicit ?? currentOverhead(heap, limit));
    if (stryMutAct_9fa48("564") ? current !== undefined : stryMutAct_9fa48("563") ? false : stryMutAct_9fa48("562") ? true : (stryCov_9fa48("562", "563", "564"), current === undefined)) return values;
    values[stryMutAct_9fa48("565") ? "" : (stryCov_9fa48("565"), 'overhead.current')] = formatSetting(current);
    const overshoot = (stryMutAct_9fa48("568") ? used !== undefined || limit !== undefined : stryMutAct_9fa48("567") ? false : stryMutAct_9fa48("566") ? true : (stryCov_9fa48("566", "567", "568"), (stryMutAct_9fa48("570") ? used === undefined : stryMutAct_9fa48("569") ? true : (stryCov_9fa48("569", "570"), used !== undefined)) && (stryMutAct_9fa48("572") ? limit === undefined : stryMutAct_9fa48("571") ? true : (stryCov_9fa48("571", "572"), limit !== undefined)))) ? stryMutAct_9fa48("573") ? Math.min(0, used - limit) : (stryCov_9fa48("573"), Math.max(0, stryMutAct_9fa48("574") ? used + limit : (stryCov_9fa48("574"), used - limit))) : 0;
    const headroom = (stryMutAct_9fa48("577") ? limit === undefined : stryMutAct_9fa48("576") ? false : stryMutAct_9fa48("575") ? true : (stryCov_9fa48("575", "576", "577"), limit !== undefined)) ? stryMutAct_9fa48("578") ? 0.05 / limit : (stryCov_9fa48("578"), 0.05 * limit) : stryMutAct_9fa48("579") ? current / 0.5 : (stryCov_9fa48("579"), current * 0.5);
    const wanted = stryMutAct_9fa48("580") ? Math.min(current * 1.5, current + overshoot + headroom) : (stryCov_9fa48("580"), Math.max(stryMutAct_9fa48("581") ? current / 1.5 : (stryCov_9fa48("581"), current * 1.5), stryMutAct_9fa48("582") ? current + overshoot - headroom : (stryCov_9fa48("582"), (stryMutAct_9fa48("583") ? current - overshoot : (stryCov_9fa48("583"), current + overshoot)) + headroom)));
    // Settings people type are whole gibibytes once they are that large; halves below.
    values[stryMutAct_9fa48("584") ? "" : (stryCov_9fa48("584"), 'overhead.suggested')] = formatSetting(roundUp(wanted, (stryMutAct_9fa48("588") ? wanted <= GiB : stryMutAct_9fa48("587") ? wanted >= GiB : stryMutAct_9fa48("586") ? false : stryMutAct_9fa48("585") ? true : (stryCov_9fa48("585", "586", "587", "588"), wanted > GiB)) ? GiB : stryMutAct_9fa48("589") ? 512 / MiB : (stryCov_9fa48("589"), 512 * MiB)));
    return values;
  }
};
function currentOverhead(heap: number | undefined, limit: number | undefined): number | undefined {
  if (stryMutAct_9fa48("590")) {
    {}
  } else {
    stryCov_9fa48("590");
    if (stryMutAct_9fa48("593") ? heap !== undefined && limit !== undefined || limit > heap : stryMutAct_9fa48("592") ? false : stryMutAct_9fa48("591") ? true : (stryCov_9fa48("591", "592", "593"), (stryMutAct_9fa48("595") ? heap !== undefined || limit !== undefined : stryMutAct_9fa48("594") ? true : (stryCov_9fa48("594", "595"), (stryMutAct_9fa48("597") ? heap === undefined : stryMutAct_9fa48("596") ? true : (stryCov_9fa48("596", "597"), heap !== undefined)) && (stryMutAct_9fa48("599") ? limit === undefined : stryMutAct_9fa48("598") ? true : (stryCov_9fa48("598", "599"), limit !== undefined)))) && (stryMutAct_9fa48("602") ? limit <= heap : stryMutAct_9fa48("601") ? limit >= heap : stryMutAct_9fa48("600") ? true : (stryCov_9fa48("600", "601", "602"), limit > heap)))) return stryMutAct_9fa48("603") ? limit + heap : (stryCov_9fa48("603"), limit - heap);
    if (stryMutAct_9fa48("606") ? heap === undefined : stryMutAct_9fa48("605") ? false : stryMutAct_9fa48("604") ? true : (stryCov_9fa48("604", "605", "606"), heap !== undefined)) return stryMutAct_9fa48("607") ? Math.min(SPARK_MIN_OVERHEAD, 0.1 * heap) : (stryCov_9fa48("607"), Math.max(SPARK_MIN_OVERHEAD, stryMutAct_9fa48("608") ? 0.1 / heap : (stryCov_9fa48("608"), 0.1 * heap)));
    // Only the container limit is known: with the default factor, limit = heap * 1.1.
    if (stryMutAct_9fa48("611") ? limit === undefined : stryMutAct_9fa48("610") ? false : stryMutAct_9fa48("609") ? true : (stryCov_9fa48("609", "610", "611"), limit !== undefined)) return stryMutAct_9fa48("612") ? Math.min(SPARK_MIN_OVERHEAD, limit / 11) : (stryCov_9fa48("612"), Math.max(SPARK_MIN_OVERHEAD, stryMutAct_9fa48("613") ? limit * 11 : (stryCov_9fa48("613"), limit / 11)));
    return undefined;
  }
}