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
import { containerMemory } from './container-memory.ts';
import { flinkSlots } from './flink-slots.ts';
import { glueWorker } from './glue-worker.ts';
import { heapSize } from './heap-size.ts';
import { jdk } from './jdk.ts';
import { resultSize } from './result-size.ts';
import type { Derivation } from './types.ts';

/** Calculations a playbook can name under `derive:`. Adding one: one file, one line here. */
export const DERIVATIONS: Readonly<Record<string, Derivation>> = stryMutAct_9fa48("694") ? {} : (stryCov_9fa48("694"), {
  'container-memory': containerMemory,
  'result-size': resultSize,
  'heap-size': heapSize,
  'flink-slots': flinkSlots,
  'glue-worker': glueWorker,
  jdk
});