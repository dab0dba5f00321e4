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
import { numberValue } from './settings.ts';
import type { Derivation } from './types.ts';

/** The slot request timeout in seconds, as the user will set it (`slot.request.timeout` is in ms). */
export const flinkSlots: Derivation = (book): Record<string, string> => {
  if (stryMutAct_9fa48("614")) {
    {}
  } else {
    stryCov_9fa48("614");
    const ms = stryMutAct_9fa48("615") ? numberValue(book, 'flink.slot-timeout', 'timeoutMs') && numberValue(book, 'flink.no-slots', 'timeoutMs') : (stryCov_9fa48("615"), numberValue(book, stryMutAct_9fa48("616") ? "" : (stryCov_9fa48("616"), 'flink.slot-timeout'), stryMutAct_9fa48("617") ? "" : (stryCov_9fa48("617"), 'timeoutMs')) ?? numberValue(book, stryMutAct_9fa48("618") ? "" : (stryCov_9fa48("618"), 'flink.no-slots'), stryMutAct_9fa48("619") ? "" : (stryCov_9fa48("619"), 'timeoutMs')));
    if (stryMutAct_9fa48("622") ? ms !== undefined : stryMutAct_9fa48("621") ? false : stryMutAct_9fa48("620") ? true : (stryCov_9fa48("620", "621", "622"), ms === undefined)) return {};
    return stryMutAct_9fa48("623") ? {} : (stryCov_9fa48("623"), {
      'slots.timeout': stryMutAct_9fa48("624") ? `` : (stryCov_9fa48("624"), `${Math.round(stryMutAct_9fa48("625") ? ms * 1000 : (stryCov_9fa48("625"), ms / 1000))} s`),
      'slots.timeout-ms': String(ms)
    });
  }
};