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
import { formatSetting, formatSize, GiB, roundUp } from '../units.ts';
import { numberValue } from './settings.ts';
import type { Derivation } from './types.ts';

/** The result-size figures and a limit with 50% headroom, rounded up to a whole GiB. */
export const resultSize: Derivation = book => {
  if (stryMutAct_9fa48("695")) {
    {}
  } else {
    stryCov_9fa48("695");
    const values: Record<string, string> = {};
    const result = numberValue(book, stryMutAct_9fa48("696") ? "" : (stryCov_9fa48("696"), 'spark.max-result-size'), stryMutAct_9fa48("697") ? "" : (stryCov_9fa48("697"), 'resultBytes'));
    const limit = numberValue(book, stryMutAct_9fa48("698") ? "" : (stryCov_9fa48("698"), 'spark.max-result-size'), stryMutAct_9fa48("699") ? "" : (stryCov_9fa48("699"), 'limitBytes'));
    const tasks = numberValue(book, stryMutAct_9fa48("700") ? "" : (stryCov_9fa48("700"), 'spark.max-result-size'), stryMutAct_9fa48("701") ? "" : (stryCov_9fa48("701"), 'tasks'));
    if (stryMutAct_9fa48("704") ? result === undefined : stryMutAct_9fa48("703") ? false : stryMutAct_9fa48("702") ? true : (stryCov_9fa48("702", "703", "704"), result !== undefined)) values[stryMutAct_9fa48("705") ? "" : (stryCov_9fa48("705"), 'result.size')] = formatSize(result);
    if (stryMutAct_9fa48("708") ? limit === undefined : stryMutAct_9fa48("707") ? false : stryMutAct_9fa48("706") ? true : (stryCov_9fa48("706", "707", "708"), limit !== undefined)) values[stryMutAct_9fa48("709") ? "" : (stryCov_9fa48("709"), 'result.limit')] = formatSize(limit);
    if (stryMutAct_9fa48("712") ? tasks === undefined : stryMutAct_9fa48("711") ? false : stryMutAct_9fa48("710") ? true : (stryCov_9fa48("710", "711", "712"), tasks !== undefined)) values[stryMutAct_9fa48("713") ? "" : (stryCov_9fa48("713"), 'result.tasks')] = String(tasks);
    if (stryMutAct_9fa48("716") ? result !== undefined && tasks !== undefined || tasks > 0 : stryMutAct_9fa48("715") ? false : stryMutAct_9fa48("714") ? true : (stryCov_9fa48("714", "715", "716"), (stryMutAct_9fa48("718") ? result !== undefined || tasks !== undefined : stryMutAct_9fa48("717") ? true : (stryCov_9fa48("717", "718"), (stryMutAct_9fa48("720") ? result === undefined : stryMutAct_9fa48("719") ? true : (stryCov_9fa48("719", "720"), result !== undefined)) && (stryMutAct_9fa48("722") ? tasks === undefined : stryMutAct_9fa48("721") ? true : (stryCov_9fa48("721", "722"), tasks !== undefined)))) && (stryMutAct_9fa48("725") ? tasks <= 0 : stryMutAct_9fa48("724") ? tasks >= 0 : stryMutAct_9fa48("723") ? true : (stryCov_9fa48("723", "724", "725"), tasks > 0)))) values[stryMutAct_9fa48("726") ? "" : (stryCov_9fa48("726"), 'result.per-task')] = formatSize(stryMutAct_9fa48("727") ? result * tasks : (stryCov_9fa48("727"), result / tasks));
    if (stryMutAct_9fa48("730") ? result === undefined : stryMutAct_9fa48("729") ? false : stryMutAct_9fa48("728") ? true : (stryCov_9fa48("728", "729", "730"), result !== undefined)) values[stryMutAct_9fa48("731") ? "" : (stryCov_9fa48("731"), 'result.suggested-limit')] = formatSetting(roundUp(stryMutAct_9fa48("732") ? result / 1.5 : (stryCov_9fa48("732"), result * 1.5), GiB));
    if (stryMutAct_9fa48("735") ? result === undefined : stryMutAct_9fa48("734") ? false : stryMutAct_9fa48("733") ? true : (stryCov_9fa48("733", "734", "735"), result !== undefined)) values[stryMutAct_9fa48("736") ? "" : (stryCov_9fa48("736"), 'driver.suggested-memory')] = formatSetting(stryMutAct_9fa48("737") ? roundUp(result * 1.5, GiB) - 2 * GiB : (stryCov_9fa48("737"), roundUp(stryMutAct_9fa48("738") ? result / 1.5 : (stryCov_9fa48("738"), result * 1.5), GiB) + (stryMutAct_9fa48("739") ? 2 / GiB : (stryCov_9fa48("739"), 2 * GiB))));
    return values;
  }
};