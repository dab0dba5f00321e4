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
import type { FactBook } from '../facts.ts';
import { parseSize } from '../units.ts';

/** The size of the first of `keys` set in the input (Spark and the JVM read bare numbers as MiB here). */
export function sizeSetting(book: FactBook, keys: readonly string[], defaultUnit = stryMutAct_9fa48("740") ? "" : (stryCov_9fa48("740"), 'm')): number | undefined {
  if (stryMutAct_9fa48("741")) {
    {}
  } else {
    stryCov_9fa48("741");
    for (const key of keys) {
      if (stryMutAct_9fa48("742")) {
        {}
      } else {
        stryCov_9fa48("742");
        const value = stryMutAct_9fa48("744") ? book.config(key).values?.value : stryMutAct_9fa48("743") ? book.config(key)?.values.value : (stryCov_9fa48("743", "744"), book.config(key)?.values?.value);
        if (stryMutAct_9fa48("747") ? typeof value === 'string' : stryMutAct_9fa48("746") ? false : stryMutAct_9fa48("745") ? true : (stryCov_9fa48("745", "746", "747"), typeof value !== (stryMutAct_9fa48("748") ? "" : (stryCov_9fa48("748"), 'string')))) continue;
        const bytes = parseSize(value, defaultUnit);
        if (stryMutAct_9fa48("751") ? bytes === undefined : stryMutAct_9fa48("750") ? false : stryMutAct_9fa48("749") ? true : (stryCov_9fa48("749", "750", "751"), bytes !== undefined)) return bytes;
      }
    }
    return undefined;
  }
}

/** A numeric value of the first fact of a kind. */
export function numberValue(book: FactBook, kind: string, key: string): number | undefined {
  if (stryMutAct_9fa48("752")) {
    {}
  } else {
    stryCov_9fa48("752");
    const value = stryMutAct_9fa48("754") ? book.find(kind)[0].values?.[key] : stryMutAct_9fa48("753") ? book.find(kind)[0]?.values[key] : (stryCov_9fa48("753", "754"), book.find(kind)[0]?.values?.[key]);
    return (stryMutAct_9fa48("757") ? typeof value !== 'number' : stryMutAct_9fa48("756") ? false : stryMutAct_9fa48("755") ? true : (stryCov_9fa48("755", "756", "757"), typeof value === (stryMutAct_9fa48("758") ? "" : (stryCov_9fa48("758"), 'number')))) ? value : undefined;
  }
}