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
import { formatSize } from '../units.ts';

/** A Flink ResourceProfile: what a slot request needs or what a TaskManager has free (bytes, cores). */
export interface ResourceProfile {
  cpuCores: number;
  taskHeapMemory: number;
  taskOffHeapMemory: number;
  managedMemory: number;
  networkMemory: number;
}
export const PROFILE_DIMENSIONS = ['cpuCores', 'taskHeapMemory', 'taskOffHeapMemory', 'managedMemory', 'networkMemory'] as const satisfies readonly (keyof ResourceProfile)[];
type Dimension = (typeof PROFILE_DIMENSIONS)[number];

/** One TaskManager's free (and optionally total) resources. */
export interface TaskManagerResources {
  id: string;
  free: ResourceProfile;
  total?: ResourceProfile;
}
export type SlotFitVerdict = 'fits' | 'lacks-resources' | 'fragmentation';

/** Whether pending slot requests fit the cluster, and the smallest change that makes them fit. */
export interface SlotFit {
  verdict: SlotFitVerdict;
  /** Dimensions where the sum of free resources is below the sum requested, with the shortfall. */
  shortfall: Partial<Record<Dimension, number>>;
  /** Requests (by index) that found no TaskManager in a first-fit-decreasing placement. */
  unplaced: number[];
  advice: string;
}
function sum(profiles: readonly ResourceProfile[]): ResourceProfile {
  if (stryMutAct_9fa48("76")) {
    {}
  } else {
    stryCov_9fa48("76");
    const total: ResourceProfile = stryMutAct_9fa48("77") ? {} : (stryCov_9fa48("77"), {
      cpuCores: 0,
      taskHeapMemory: 0,
      taskOffHeapMemory: 0,
      managedMemory: 0,
      networkMemory: 0
    });
    for (const p of profiles) for (const d of PROFILE_DIMENSIONS) stryMutAct_9fa48("78") ? total[d] -= p[d] : (stryCov_9fa48("78"), total[d] += p[d]);
    return total;
  }
}
function fitsIn(need: ResourceProfile, free: ResourceProfile): boolean {
  if (stryMutAct_9fa48("79")) {
    {}
  } else {
    stryCov_9fa48("79");
    return stryMutAct_9fa48("80") ? PROFILE_DIMENSIONS.some(d => need[d] <= free[d] + 1e-9) : (stryCov_9fa48("80"), PROFILE_DIMENSIONS.every(stryMutAct_9fa48("81") ? () => undefined : (stryCov_9fa48("81"), d => stryMutAct_9fa48("85") ? need[d] > free[d] + 1e-9 : stryMutAct_9fa48("84") ? need[d] < free[d] + 1e-9 : stryMutAct_9fa48("83") ? false : stryMutAct_9fa48("82") ? true : (stryCov_9fa48("82", "83", "84", "85"), need[d] <= (stryMutAct_9fa48("86") ? free[d] - 1e-9 : (stryCov_9fa48("86"), free[d] + 1e-9))))));
  }
}

/** The largest request first, each into the first TaskManager with room, as a scheduler would try. */
function place(requests: readonly ResourceProfile[], tms: readonly TaskManagerResources[]): number[] {
  if (stryMutAct_9fa48("87")) {
    {}
  } else {
    stryCov_9fa48("87");
    const free = tms.map(stryMutAct_9fa48("88") ? () => undefined : (stryCov_9fa48("88"), tm => stryMutAct_9fa48("89") ? {} : (stryCov_9fa48("89"), {
      ...tm.free
    })));
    const order = stryMutAct_9fa48("90") ? requests.map((r, i) => ({
      r,
      i
    })) : (stryCov_9fa48("90"), requests.map(stryMutAct_9fa48("91") ? () => undefined : (stryCov_9fa48("91"), (r, i) => stryMutAct_9fa48("92") ? {} : (stryCov_9fa48("92"), {
      r,
      i
    }))).sort(stryMutAct_9fa48("93") ? () => undefined : (stryCov_9fa48("93"), (a, b) => stryMutAct_9fa48("94") ? b.r.taskHeapMemory + b.r.managedMemory + (a.r.taskHeapMemory + a.r.managedMemory) : (stryCov_9fa48("94"), (stryMutAct_9fa48("95") ? b.r.taskHeapMemory - b.r.managedMemory : (stryCov_9fa48("95"), b.r.taskHeapMemory + b.r.managedMemory)) - (stryMutAct_9fa48("96") ? a.r.taskHeapMemory - a.r.managedMemory : (stryCov_9fa48("96"), a.r.taskHeapMemory + a.r.managedMemory))))));
    const unplaced: number[] = stryMutAct_9fa48("97") ? ["Stryker was here"] : (stryCov_9fa48("97"), []);
    for (const {
      r,
      i
    } of order) {
      if (stryMutAct_9fa48("98")) {
        {}
      } else {
        stryCov_9fa48("98");
        const slot = free.find(stryMutAct_9fa48("99") ? () => undefined : (stryCov_9fa48("99"), f => fitsIn(r, f)));
        if (stryMutAct_9fa48("102") ? false : stryMutAct_9fa48("101") ? true : stryMutAct_9fa48("100") ? slot : (stryCov_9fa48("100", "101", "102"), !slot)) {
          if (stryMutAct_9fa48("103")) {
            {}
          } else {
            stryCov_9fa48("103");
            unplaced.push(i);
            continue;
          }
        }
        for (const d of PROFILE_DIMENSIONS) stryMutAct_9fa48("104") ? slot[d] += r[d] : (stryCov_9fa48("104"), slot[d] -= r[d]);
      }
    }
    return stryMutAct_9fa48("105") ? unplaced : (stryCov_9fa48("105"), unplaced.sort(stryMutAct_9fa48("106") ? () => undefined : (stryCov_9fa48("106"), (a, b) => stryMutAct_9fa48("107") ? a + b : (stryCov_9fa48("107"), a - b))));
  }
}
function show(d: Dimension, value: number): string {
  if (stryMutAct_9fa48("108")) {
    {}
  } else {
    stryCov_9fa48("108");
    return (stryMutAct_9fa48("111") ? d !== 'cpuCores' : stryMutAct_9fa48("110") ? false : stryMutAct_9fa48("109") ? true : (stryCov_9fa48("109", "110", "111"), d === (stryMutAct_9fa48("112") ? "" : (stryCov_9fa48("112"), 'cpuCores')))) ? stryMutAct_9fa48("113") ? `` : (stryCov_9fa48("113"), `${Number(value.toFixed(2))} cores`) : formatSize(value);
  }
}

/** How many more TaskManagers shaped like `shape` cover the shortfall in every dimension. */
function extraTaskManagers(shortfall: Partial<Record<Dimension, number>>, shape?: ResourceProfile): number {
  if (stryMutAct_9fa48("114")) {
    {}
  } else {
    stryCov_9fa48("114");
    if (stryMutAct_9fa48("117") ? false : stryMutAct_9fa48("116") ? true : stryMutAct_9fa48("115") ? shape : (stryCov_9fa48("115", "116", "117"), !shape)) return 0;
    let n = 0;
    for (const [d, missing] of Object.entries(shortfall) as [Dimension, number][]) {
      if (stryMutAct_9fa48("118")) {
        {}
      } else {
        stryCov_9fa48("118");
        if (stryMutAct_9fa48("122") ? shape[d] <= 0 : stryMutAct_9fa48("121") ? shape[d] >= 0 : stryMutAct_9fa48("120") ? false : stryMutAct_9fa48("119") ? true : (stryCov_9fa48("119", "120", "121", "122"), shape[d] > 0)) n = stryMutAct_9fa48("123") ? Math.min(n, Math.ceil(missing / shape[d])) : (stryCov_9fa48("123"), Math.max(n, Math.ceil(stryMutAct_9fa48("124") ? missing * shape[d] : (stryCov_9fa48("124"), missing / shape[d]))));
      }
    }
    return n;
  }
}

/**
 * Compares pending slot requests with the TaskManagers' free resources. Not enough in sum: the cluster
 * lacks resources. Enough in sum but some request fits no single TaskManager: fragmentation (a slot can
 * never span TaskManagers).
 */
export function slotFit(requests: readonly ResourceProfile[], tms: readonly TaskManagerResources[]): SlotFit {
  if (stryMutAct_9fa48("125")) {
    {}
  } else {
    stryCov_9fa48("125");
    const need = sum(requests);
    const have = sum(tms.map(stryMutAct_9fa48("126") ? () => undefined : (stryCov_9fa48("126"), t => t.free)));
    const shortfall: Partial<Record<Dimension, number>> = {};
    for (const d of PROFILE_DIMENSIONS) if (stryMutAct_9fa48("130") ? need[d] <= have[d] + 1e-9 : stryMutAct_9fa48("129") ? need[d] >= have[d] + 1e-9 : stryMutAct_9fa48("128") ? false : stryMutAct_9fa48("127") ? true : (stryCov_9fa48("127", "128", "129", "130"), need[d] > (stryMutAct_9fa48("131") ? have[d] - 1e-9 : (stryCov_9fa48("131"), have[d] + 1e-9)))) shortfall[d] = stryMutAct_9fa48("132") ? need[d] + have[d] : (stryCov_9fa48("132"), need[d] - have[d]);
    const unplaced = place(requests, tms);
    const short = Object.keys(shortfall) as Dimension[];
    if (stryMutAct_9fa48("136") ? short.length <= 0 : stryMutAct_9fa48("135") ? short.length >= 0 : stryMutAct_9fa48("134") ? false : stryMutAct_9fa48("133") ? true : (stryCov_9fa48("133", "134", "135", "136"), short.length > 0)) {
      if (stryMutAct_9fa48("137")) {
        {}
      } else {
        stryCov_9fa48("137");
        const shape = stryMutAct_9fa48("138") ? tms.find(t => t.total).total : (stryCov_9fa48("138"), tms.find(stryMutAct_9fa48("139") ? () => undefined : (stryCov_9fa48("139"), t => t.total))?.total);
        const n = extraTaskManagers(shortfall, shape);
        const missing = short.map(stryMutAct_9fa48("140") ? () => undefined : (stryCov_9fa48("140"), d => stryMutAct_9fa48("141") ? `` : (stryCov_9fa48("141"), `${show(d, stryMutAct_9fa48("142") ? shortfall[d] && 0 : (stryCov_9fa48("142"), shortfall[d] ?? 0))} of ${d}`))).join(stryMutAct_9fa48("143") ? "" : (stryCov_9fa48("143"), ', '));
        // Adding TaskManagers that have none of a resource cannot cover its shortfall.
        const absent = shape ? stryMutAct_9fa48("144") ? short : (stryCov_9fa48("144"), short.filter(stryMutAct_9fa48("145") ? () => undefined : (stryCov_9fa48("145"), d => stryMutAct_9fa48("149") ? shape[d] > 0 : stryMutAct_9fa48("148") ? shape[d] < 0 : stryMutAct_9fa48("147") ? false : stryMutAct_9fa48("146") ? true : (stryCov_9fa48("146", "147", "148", "149"), shape[d] <= 0)))) : stryMutAct_9fa48("150") ? ["Stryker was here"] : (stryCov_9fa48("150"), []);
        const sizeUp = (stryMutAct_9fa48("154") ? absent.length <= 0 : stryMutAct_9fa48("153") ? absent.length >= 0 : stryMutAct_9fa48("152") ? false : stryMutAct_9fa48("151") ? true : (stryCov_9fa48("151", "152", "153", "154"), absent.length > 0)) ? stryMutAct_9fa48("155") ? `` : (stryCov_9fa48("155"), ` (they have no ${absent.join(stryMutAct_9fa48("156") ? "" : (stryCov_9fa48("156"), ', '))}: give the TaskManagers some)`) : stryMutAct_9fa48("157") ? "Stryker was here!" : (stryCov_9fa48("157"), '');
        const scale = (stryMutAct_9fa48("161") ? n <= 0 : stryMutAct_9fa48("160") ? n >= 0 : stryMutAct_9fa48("159") ? false : stryMutAct_9fa48("158") ? true : (stryCov_9fa48("158", "159", "160", "161"), n > 0)) ? stryMutAct_9fa48("162") ? `` : (stryCov_9fa48("162"), `add ${n} TaskManager${(stryMutAct_9fa48("166") ? n <= 1 : stryMutAct_9fa48("165") ? n >= 1 : stryMutAct_9fa48("164") ? false : stryMutAct_9fa48("163") ? true : (stryCov_9fa48("163", "164", "165", "166"), n > 1)) ? stryMutAct_9fa48("167") ? "" : (stryCov_9fa48("167"), 's') : stryMutAct_9fa48("168") ? "Stryker was here!" : (stryCov_9fa48("168"), '')} of the current size${sizeUp}`) : (stryMutAct_9fa48("172") ? absent.length <= 0 : stryMutAct_9fa48("171") ? absent.length >= 0 : stryMutAct_9fa48("170") ? false : stryMutAct_9fa48("169") ? true : (stryCov_9fa48("169", "170", "171", "172"), absent.length > 0)) ? stryMutAct_9fa48("173") ? `` : (stryCov_9fa48("173"), `give the TaskManagers some ${absent.join(stryMutAct_9fa48("174") ? "" : (stryCov_9fa48("174"), ', '))}`) : stryMutAct_9fa48("175") ? "" : (stryCov_9fa48("175"), 'add TaskManagers');
        return stryMutAct_9fa48("176") ? {} : (stryCov_9fa48("176"), {
          verdict: stryMutAct_9fa48("177") ? "" : (stryCov_9fa48("177"), 'lacks-resources'),
          shortfall,
          unplaced,
          advice: stryMutAct_9fa48("178") ? `` : (stryCov_9fa48("178"), `The cluster is short of ${missing} in total: ${scale}, or lower the operators' resource requests by that much.`)
        });
      }
    }
    if (stryMutAct_9fa48("181") ? unplaced.length !== 0 : stryMutAct_9fa48("180") ? false : stryMutAct_9fa48("179") ? true : (stryCov_9fa48("179", "180", "181"), unplaced.length === 0)) return stryMutAct_9fa48("182") ? {} : (stryCov_9fa48("182"), {
      verdict: stryMutAct_9fa48("183") ? "" : (stryCov_9fa48("183"), 'fits'),
      shortfall,
      unplaced,
      advice: stryMutAct_9fa48("184") ? "" : (stryCov_9fa48("184"), 'Every request fits.')
    });
    return stryMutAct_9fa48("185") ? {} : (stryCov_9fa48("185"), {
      verdict: stryMutAct_9fa48("186") ? "" : (stryCov_9fa48("186"), 'fragmentation'),
      shortfall,
      unplaced,
      advice: fragmentationAdvice(requests, tms, unplaced)
    });
  }
}
function fragmentationAdvice(requests: readonly ResourceProfile[], tms: readonly TaskManagerResources[], unplaced: readonly number[]): string {
  if (stryMutAct_9fa48("187")) {
    {}
  } else {
    stryCov_9fa48("187");
    const first = requests[stryMutAct_9fa48("188") ? unplaced[0] && 0 : (stryCov_9fa48("188"), unplaced[0] ?? 0)];
    const best = stryMutAct_9fa48("189") ? [...tms][0] : (stryCov_9fa48("189"), (stryMutAct_9fa48("190") ? [] : (stryCov_9fa48("190"), [...tms])).sort(stryMutAct_9fa48("191") ? () => undefined : (stryCov_9fa48("191"), (a, b) => stryMutAct_9fa48("192") ? b.free.taskHeapMemory + a.free.taskHeapMemory : (stryCov_9fa48("192"), b.free.taskHeapMemory - a.free.taskHeapMemory)))[0]);
    const over = (stryMutAct_9fa48("195") ? first || best : stryMutAct_9fa48("194") ? false : stryMutAct_9fa48("193") ? true : (stryCov_9fa48("193", "194", "195"), first && best)) ? stryMutAct_9fa48("196") ? PROFILE_DIMENSIONS.map(d => `${d} to ${show(d, best.free[d])}`) : (stryCov_9fa48("196"), PROFILE_DIMENSIONS.filter(stryMutAct_9fa48("197") ? () => undefined : (stryCov_9fa48("197"), d => stryMutAct_9fa48("201") ? first[d] <= best.free[d] : stryMutAct_9fa48("200") ? first[d] >= best.free[d] : stryMutAct_9fa48("199") ? false : stryMutAct_9fa48("198") ? true : (stryCov_9fa48("198", "199", "200", "201"), first[d] > best.free[d]))).map(stryMutAct_9fa48("202") ? () => undefined : (stryCov_9fa48("202"), d => stryMutAct_9fa48("203") ? `` : (stryCov_9fa48("203"), `${d} to ${show(d, best.free[d])}`)))) : stryMutAct_9fa48("204") ? ["Stryker was here"] : (stryCov_9fa48("204"), []);
    const shrink = (stryMutAct_9fa48("208") ? over.length <= 0 : stryMutAct_9fa48("207") ? over.length >= 0 : stryMutAct_9fa48("206") ? false : stryMutAct_9fa48("205") ? true : (stryCov_9fa48("205", "206", "207", "208"), over.length > 0)) ? stryMutAct_9fa48("209") ? `` : (stryCov_9fa48("209"), ` or lower the request's ${over.join(stryMutAct_9fa48("210") ? "" : (stryCov_9fa48("210"), ', '))} so it fits ${stryMutAct_9fa48("211") ? best.id : (stryCov_9fa48("211"), best?.id)}`) : stryMutAct_9fa48("212") ? "Stryker was here!" : (stryCov_9fa48("212"), '');
    return stryMutAct_9fa48("213") ? `` : (stryCov_9fa48("213"), `There is enough free in total, but no single TaskManager has room for ${unplaced.length} request(s): add one TaskManager${shrink}.`);
  }
}