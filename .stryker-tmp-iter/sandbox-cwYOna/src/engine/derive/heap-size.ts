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
import { formatSetting, GiB, roundUp } from '../units.ts';
import { sizeSetting } from './settings.ts';
import type { Derivation } from './types.ts';

/**
 * The heap sizes seen in the input and a next step up: 1.5x, rounded to a whole GiB. Half again is
 * enough to tell a too-small heap (the job then passes) from a leak (it fails later, at a higher floor).
 */
export const heapSize: Derivation = book => {
  if (stryMutAct_9fa48("655")) {
    {}
  } else {
    stryCov_9fa48("655");
    const values: Record<string, string> = {};
    const sizes: Array<[string, string[]]> = stryMutAct_9fa48("656") ? [] : (stryCov_9fa48("656"), [stryMutAct_9fa48("657") ? [] : (stryCov_9fa48("657"), [stryMutAct_9fa48("658") ? "" : (stryCov_9fa48("658"), 'executor'), stryMutAct_9fa48("659") ? [] : (stryCov_9fa48("659"), [stryMutAct_9fa48("660") ? "" : (stryCov_9fa48("660"), 'spark.executor.memory')])]), stryMutAct_9fa48("661") ? [] : (stryCov_9fa48("661"), [stryMutAct_9fa48("662") ? "" : (stryCov_9fa48("662"), 'driver'), stryMutAct_9fa48("663") ? [] : (stryCov_9fa48("663"), [stryMutAct_9fa48("664") ? "" : (stryCov_9fa48("664"), 'spark.driver.memory')])]), stryMutAct_9fa48("665") ? [] : (stryCov_9fa48("665"), [stryMutAct_9fa48("666") ? "" : (stryCov_9fa48("666"), 'jvm'), stryMutAct_9fa48("667") ? [] : (stryCov_9fa48("667"), [stryMutAct_9fa48("668") ? "" : (stryCov_9fa48("668"), 'jvm.Xmx')])]), stryMutAct_9fa48("669") ? [] : (stryCov_9fa48("669"), [stryMutAct_9fa48("670") ? "" : (stryCov_9fa48("670"), 'taskmanager'), stryMutAct_9fa48("671") ? [] : (stryCov_9fa48("671"), [stryMutAct_9fa48("672") ? "" : (stryCov_9fa48("672"), 'taskmanager.memory.process.size'), stryMutAct_9fa48("673") ? "" : (stryCov_9fa48("673"), 'taskmanager.memory.flink.size')])]), stryMutAct_9fa48("674") ? [] : (stryCov_9fa48("674"), [stryMutAct_9fa48("675") ? "" : (stryCov_9fa48("675"), 'taskheap'), stryMutAct_9fa48("676") ? [] : (stryCov_9fa48("676"), [stryMutAct_9fa48("677") ? "" : (stryCov_9fa48("677"), 'taskmanager.memory.task.heap.size')])])]);
    for (const [name, keys] of sizes) {
      if (stryMutAct_9fa48("678")) {
        {}
      } else {
        stryCov_9fa48("678");
        const bytes = sizeSetting(book, keys);
        if (stryMutAct_9fa48("681") ? bytes !== undefined : stryMutAct_9fa48("680") ? false : stryMutAct_9fa48("679") ? true : (stryCov_9fa48("679", "680", "681"), bytes === undefined)) continue;
        values[stryMutAct_9fa48("682") ? `` : (stryCov_9fa48("682"), `heap.${name}`)] = formatSetting(bytes);
        values[stryMutAct_9fa48("683") ? `` : (stryCov_9fa48("683"), `heap.${name}.suggested`)] = formatSetting(roundUp(stryMutAct_9fa48("684") ? bytes / 1.5 : (stryCov_9fa48("684"), bytes * 1.5), GiB));
      }
    }
    return values;
  }
};