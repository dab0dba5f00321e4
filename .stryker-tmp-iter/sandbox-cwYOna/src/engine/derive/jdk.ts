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
import type { Derivation } from './types.ts';

/** The JDK version as seen in the input. */
export const jdk: Derivation = (book): Record<string, string> => {
  if (stryMutAct_9fa48("685")) {
    {}
  } else {
    stryCov_9fa48("685");
    const version = stryMutAct_9fa48("687") ? book.find('jdk.version')[0].values?.version : stryMutAct_9fa48("686") ? book.find('jdk.version')[0]?.values.version : (stryCov_9fa48("686", "687"), book.find(stryMutAct_9fa48("688") ? "" : (stryCov_9fa48("688"), 'jdk.version'))[0]?.values?.version);
    return (stryMutAct_9fa48("691") ? typeof version !== 'string' : stryMutAct_9fa48("690") ? false : stryMutAct_9fa48("689") ? true : (stryCov_9fa48("689", "690", "691"), typeof version === (stryMutAct_9fa48("692") ? "" : (stryCov_9fa48("692"), 'string')))) ? stryMutAct_9fa48("693") ? {} : (stryCov_9fa48("693"), {
      'jdk.version': version
    }) : {};
  }
};