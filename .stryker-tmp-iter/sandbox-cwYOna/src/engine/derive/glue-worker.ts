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
import { findWorkerType, GLUE_WORKER_TYPES } from '../calculators/glue.ts';
import type { Derivation } from './types.ts';

/** The general-purpose (G.*) worker types, smallest memory first: the usual path up. */
const G_WORKERS = stryMutAct_9fa48("627") ? GLUE_WORKER_TYPES.sort((a, b) => a.memoryGB - b.memoryGB) : stryMutAct_9fa48("626") ? GLUE_WORKER_TYPES.filter(w => w.type.startsWith('G.')) : (stryCov_9fa48("626", "627"), GLUE_WORKER_TYPES.filter(stryMutAct_9fa48("628") ? () => undefined : (stryCov_9fa48("628"), w => stryMutAct_9fa48("629") ? w.type.endsWith('G.') : (stryCov_9fa48("629"), w.type.startsWith(stryMutAct_9fa48("630") ? "" : (stryCov_9fa48("630"), 'G.'))))).sort(stryMutAct_9fa48("631") ? () => undefined : (stryCov_9fa48("631"), (a, b) => stryMutAct_9fa48("632") ? a.memoryGB + b.memoryGB : (stryCov_9fa48("632"), a.memoryGB - b.memoryGB))));

/** The Glue worker type seen in the input and the next larger general-purpose one. */
export const glueWorker: Derivation = (book): Record<string, string> => {
  if (stryMutAct_9fa48("633")) {
    {}
  } else {
    stryCov_9fa48("633");
    const raw = stryMutAct_9fa48("634") ? book.config('glue.workerType')?.values?.value && book.config('glue.worker-type')?.values?.value : (stryCov_9fa48("634"), (stryMutAct_9fa48("636") ? book.config('glue.workerType').values?.value : stryMutAct_9fa48("635") ? book.config('glue.workerType')?.values.value : (stryCov_9fa48("635", "636"), book.config(stryMutAct_9fa48("637") ? "" : (stryCov_9fa48("637"), 'glue.workerType'))?.values?.value)) ?? (stryMutAct_9fa48("639") ? book.config('glue.worker-type').values?.value : stryMutAct_9fa48("638") ? book.config('glue.worker-type')?.values.value : (stryCov_9fa48("638", "639"), book.config(stryMutAct_9fa48("640") ? "" : (stryCov_9fa48("640"), 'glue.worker-type'))?.values?.value)));
    const current = (stryMutAct_9fa48("643") ? typeof raw !== 'string' : stryMutAct_9fa48("642") ? false : stryMutAct_9fa48("641") ? true : (stryCov_9fa48("641", "642", "643"), typeof raw === (stryMutAct_9fa48("644") ? "" : (stryCov_9fa48("644"), 'string')))) ? findWorkerType(raw) : undefined;
    if (stryMutAct_9fa48("647") ? false : stryMutAct_9fa48("646") ? true : stryMutAct_9fa48("645") ? current : (stryCov_9fa48("645", "646", "647"), !current)) return {};
    const next = G_WORKERS.find(stryMutAct_9fa48("648") ? () => undefined : (stryCov_9fa48("648"), w => stryMutAct_9fa48("652") ? w.memoryGB <= current.memoryGB : stryMutAct_9fa48("651") ? w.memoryGB >= current.memoryGB : stryMutAct_9fa48("650") ? false : stryMutAct_9fa48("649") ? true : (stryCov_9fa48("649", "650", "651", "652"), w.memoryGB > current.memoryGB)));
    return next ? stryMutAct_9fa48("653") ? {} : (stryCov_9fa48("653"), {
      'glue.worker': current.type,
      'glue.worker.next': next.type
    }) : stryMutAct_9fa48("654") ? {} : (stryCov_9fa48("654"), {
      'glue.worker': current.type
    });
  }
};