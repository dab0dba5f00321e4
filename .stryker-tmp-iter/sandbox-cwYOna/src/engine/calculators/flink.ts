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
import { CalculationInvalidError } from '../../errors.ts';
import { clamp, formatSize, GiB, MiB } from '../units.ts';

/** TaskManager memory options, named after their `taskmanager.memory.*` keys; sizes in bytes. */
export interface FlinkSettings {
  processSize?: number;
  flinkSize?: number;
  taskHeap?: number;
  managedSize?: number;
  frameworkHeap: number;
  frameworkOffHeap: number;
  taskOffHeap: number;
  managedFraction: number;
  networkMin: number;
  networkMax: number;
  networkFraction: number;
  metaspace: number;
  overheadMin: number;
  overheadMax: number;
  overheadFraction: number;
}

/** Flink's defaults for the TaskManager memory options (Flink 1.10+ memory model, 256m metaspace). */
export const FLINK_DEFAULTS: FlinkSettings = stryMutAct_9fa48("214") ? {} : (stryCov_9fa48("214"), {
  frameworkHeap: stryMutAct_9fa48("215") ? 128 / MiB : (stryCov_9fa48("215"), 128 * MiB),
  frameworkOffHeap: stryMutAct_9fa48("216") ? 128 / MiB : (stryCov_9fa48("216"), 128 * MiB),
  taskOffHeap: 0,
  managedFraction: 0.4,
  networkMin: stryMutAct_9fa48("217") ? 64 / MiB : (stryCov_9fa48("217"), 64 * MiB),
  networkMax: GiB,
  networkFraction: 0.1,
  metaspace: stryMutAct_9fa48("218") ? 256 / MiB : (stryCov_9fa48("218"), 256 * MiB),
  overheadMin: stryMutAct_9fa48("219") ? 192 / MiB : (stryCov_9fa48("219"), 192 * MiB),
  overheadMax: GiB,
  overheadFraction: 0.1
});

/** Every component of a TaskManager process and the JVM flags Flink starts it with. */
export interface FlinkBudget {
  frameworkHeap: number;
  taskHeap: number;
  frameworkOffHeap: number;
  taskOffHeap: number;
  network: number;
  managed: number;
  metaspace: number;
  overhead: number;
  flinkSize: number;
  processSize: number;
  jvm: {
    xmx: number;
    xms: number;
    maxDirectMemorySize: number;
    maxMetaspaceSize: number;
  };
}

/** Flink reads fractions as 32-bit floats and truncates the product to whole bytes. */
function fraction(bytes: number, f: number): number {
  if (stryMutAct_9fa48("220")) {
    {}
  } else {
    stryCov_9fa48("220");
    return Math.floor(stryMutAct_9fa48("221") ? bytes / Math.fround(f) : (stryCov_9fa48("221"), bytes * Math.fround(f)));
  }
}

/** A capped fraction of a total (e.g. network of total Flink memory), as Flink derives it. */
function capped(total: number, f: number, min: number, max: number): number {
  if (stryMutAct_9fa48("222")) {
    {}
  } else {
    stryCov_9fa48("222");
    return clamp(fraction(total, f), min, max);
  }
}

/** The same, when only the rest is known: part = rest x f / (1 - f), then capped. */
function cappedInverse(rest: number, f: number, min: number, max: number): number {
  if (stryMutAct_9fa48("223")) {
    {}
  } else {
    stryCov_9fa48("223");
    const ff = Math.fround(f);
    return clamp(Math.floor(stryMutAct_9fa48("224") ? rest * ff * (1 - ff) : (stryCov_9fa48("224"), (stryMutAct_9fa48("225") ? rest / ff : (stryCov_9fa48("225"), rest * ff)) / (stryMutAct_9fa48("226") ? 1 + ff : (stryCov_9fa48("226"), 1 - ff)))), min, max);
  }
}
function mb(bytes: number): string {
  if (stryMutAct_9fa48("227")) {
    {}
  } else {
    stryCov_9fa48("227");
    return stryMutAct_9fa48("228") ? `` : (stryCov_9fa48("228"), `${formatSize(bytes)} (${bytes} bytes)`);
  }
}
function checkRanges(s: FlinkSettings): void {
  if (stryMutAct_9fa48("229")) {
    {}
  } else {
    stryCov_9fa48("229");
    if (stryMutAct_9fa48("233") ? s.networkMin <= s.networkMax : stryMutAct_9fa48("232") ? s.networkMin >= s.networkMax : stryMutAct_9fa48("231") ? false : stryMutAct_9fa48("230") ? true : (stryCov_9fa48("230", "231", "232", "233"), s.networkMin > s.networkMax)) throw new CalculationInvalidError('taskmanager.memory.network.min is larger than network.max.');
    if (stryMutAct_9fa48("238") ? s.overheadMin <= s.overheadMax : stryMutAct_9fa48("237") ? s.overheadMin >= s.overheadMax : stryMutAct_9fa48("236") ? false : stryMutAct_9fa48("235") ? true : (stryCov_9fa48("235", "236", "237", "238"), s.overheadMin > s.overheadMax)) throw new CalculationInvalidError('taskmanager.memory.jvm-overhead.min is larger than jvm-overhead.max.');
  }
}
interface FlinkParts {
  taskHeap: number;
  managed: number;
  network: number;
  flinkSize: number;
}

/** Derives the inside of total Flink memory when task heap and managed memory are given. */
function fromExplicitParts(s: FlinkSettings, taskHeap: number, managed: number): FlinkParts {
  if (stryMutAct_9fa48("240")) {
    {}
  } else {
    stryCov_9fa48("240");
    const rest = stryMutAct_9fa48("241") ? s.frameworkHeap + s.frameworkOffHeap + taskHeap + s.taskOffHeap - managed : (stryCov_9fa48("241"), (stryMutAct_9fa48("242") ? s.frameworkHeap + s.frameworkOffHeap + taskHeap - s.taskOffHeap : (stryCov_9fa48("242"), (stryMutAct_9fa48("243") ? s.frameworkHeap + s.frameworkOffHeap - taskHeap : (stryCov_9fa48("243"), (stryMutAct_9fa48("244") ? s.frameworkHeap - s.frameworkOffHeap : (stryCov_9fa48("244"), s.frameworkHeap + s.frameworkOffHeap)) + taskHeap)) + s.taskOffHeap)) + managed);
    if (stryMutAct_9fa48("247") ? s.flinkSize !== undefined : stryMutAct_9fa48("246") ? false : stryMutAct_9fa48("245") ? true : (stryCov_9fa48("245", "246", "247"), s.flinkSize === undefined)) {
      if (stryMutAct_9fa48("248")) {
        {}
      } else {
        stryCov_9fa48("248");
        const network = cappedInverse(rest, s.networkFraction, s.networkMin, s.networkMax);
        return stryMutAct_9fa48("249") ? {} : (stryCov_9fa48("249"), {
          taskHeap,
          managed,
          network,
          flinkSize: stryMutAct_9fa48("250") ? rest - network : (stryCov_9fa48("250"), rest + network)
        });
      }
    }
    const network = stryMutAct_9fa48("251") ? s.flinkSize + rest : (stryCov_9fa48("251"), s.flinkSize - rest);
    if (stryMutAct_9fa48("254") ? network < s.networkMin && network > s.networkMax : stryMutAct_9fa48("253") ? false : stryMutAct_9fa48("252") ? true : (stryCov_9fa48("252", "253", "254"), (stryMutAct_9fa48("257") ? network >= s.networkMin : stryMutAct_9fa48("256") ? network <= s.networkMin : stryMutAct_9fa48("255") ? false : (stryCov_9fa48("255", "256", "257"), network < s.networkMin)) || (stryMutAct_9fa48("260") ? network <= s.networkMax : stryMutAct_9fa48("259") ? network >= s.networkMax : stryMutAct_9fa48("258") ? false : (stryCov_9fa48("258", "259", "260"), network > s.networkMax)))) {
      if (stryMutAct_9fa48("261")) {
        {}
      } else {
        stryCov_9fa48("261");
        throw new CalculationInvalidError(`the configured parts leave ${mb(network)} for network memory, outside network.min/max (${mb(s.networkMin)} .. ${mb(s.networkMax)}).`);
      }
    }
    return stryMutAct_9fa48("263") ? {} : (stryCov_9fa48("263"), {
      taskHeap,
      managed,
      network,
      flinkSize: s.flinkSize
    });
  }
}

/** Derives the inside of total Flink memory from its size, as TaskExecutorFlinkMemoryUtils does. */
function fromFlinkSize(s: FlinkSettings, flinkSize: number): FlinkParts {
  if (stryMutAct_9fa48("264")) {
    {}
  } else {
    stryCov_9fa48("264");
    const managed = stryMutAct_9fa48("265") ? s.managedSize && fraction(flinkSize, s.managedFraction) : (stryCov_9fa48("265"), s.managedSize ?? fraction(flinkSize, s.managedFraction));
    const fixed = stryMutAct_9fa48("266") ? s.frameworkHeap + s.frameworkOffHeap + s.taskOffHeap - managed : (stryCov_9fa48("266"), (stryMutAct_9fa48("267") ? s.frameworkHeap + s.frameworkOffHeap - s.taskOffHeap : (stryCov_9fa48("267"), (stryMutAct_9fa48("268") ? s.frameworkHeap - s.frameworkOffHeap : (stryCov_9fa48("268"), s.frameworkHeap + s.frameworkOffHeap)) + s.taskOffHeap)) + managed);
    if (stryMutAct_9fa48("271") ? s.taskHeap === undefined : stryMutAct_9fa48("270") ? false : stryMutAct_9fa48("269") ? true : (stryCov_9fa48("269", "270", "271"), s.taskHeap !== undefined)) return fromExplicitParts(stryMutAct_9fa48("272") ? {} : (stryCov_9fa48("272"), {
      ...s,
      flinkSize
    }), s.taskHeap, managed);
    const network = capped(flinkSize, s.networkFraction, s.networkMin, s.networkMax);
    const taskHeap = stryMutAct_9fa48("273") ? flinkSize - fixed + network : (stryCov_9fa48("273"), (stryMutAct_9fa48("274") ? flinkSize + fixed : (stryCov_9fa48("274"), flinkSize - fixed)) - network);
    if (stryMutAct_9fa48("278") ? taskHeap >= 0 : stryMutAct_9fa48("277") ? taskHeap <= 0 : stryMutAct_9fa48("276") ? false : stryMutAct_9fa48("275") ? true : (stryCov_9fa48("275", "276", "277", "278"), taskHeap < 0)) {
      if (stryMutAct_9fa48("279")) {
        {}
      } else {
        stryCov_9fa48("279");
        throw new CalculationInvalidError(`framework heap/off-heap, task off-heap, managed (${mb(managed)}) and network (${mb(network)}) memory exceed total Flink memory ${mb(flinkSize)}; raise taskmanager.memory.process.size or lower managed memory.`);
      }
    }
    return stryMutAct_9fa48("281") ? {} : (stryCov_9fa48("281"), {
      taskHeap,
      managed,
      network,
      flinkSize
    });
  }
}

/**
 * Computes a TaskManager's memory from `taskmanager.memory.process.size`, `.flink.size`, or task heap +
 * managed memory, with Flink's defaults, fractions and min/max caps.
 */
export function flinkBudget(settings: FlinkSettings): FlinkBudget {
  if (stryMutAct_9fa48("282")) {
    {}
  } else {
    stryCov_9fa48("282");
    const s = settings;
    checkRanges(s);
    let parts: FlinkParts;
    let overhead: number | undefined;
    if (stryMutAct_9fa48("285") ? s.taskHeap !== undefined || s.managedSize !== undefined : stryMutAct_9fa48("284") ? false : stryMutAct_9fa48("283") ? true : (stryCov_9fa48("283", "284", "285"), (stryMutAct_9fa48("287") ? s.taskHeap === undefined : stryMutAct_9fa48("286") ? true : (stryCov_9fa48("286", "287"), s.taskHeap !== undefined)) && (stryMutAct_9fa48("289") ? s.managedSize === undefined : stryMutAct_9fa48("288") ? true : (stryCov_9fa48("288", "289"), s.managedSize !== undefined)))) {
      if (stryMutAct_9fa48("290")) {
        {}
      } else {
        stryCov_9fa48("290");
        parts = fromExplicitParts(s, s.taskHeap, s.managedSize);
      }
    } else if (stryMutAct_9fa48("293") ? s.flinkSize === undefined : stryMutAct_9fa48("292") ? false : stryMutAct_9fa48("291") ? true : (stryCov_9fa48("291", "292", "293"), s.flinkSize !== undefined)) {
      if (stryMutAct_9fa48("294")) {
        {}
      } else {
        stryCov_9fa48("294");
        parts = fromFlinkSize(s, s.flinkSize);
      }
    } else if (stryMutAct_9fa48("297") ? s.processSize === undefined : stryMutAct_9fa48("296") ? false : stryMutAct_9fa48("295") ? true : (stryCov_9fa48("295", "296", "297"), s.processSize !== undefined)) {
      if (stryMutAct_9fa48("298")) {
        {}
      } else {
        stryCov_9fa48("298");
        overhead = capped(s.processSize, s.overheadFraction, s.overheadMin, s.overheadMax);
        const flinkSize = stryMutAct_9fa48("299") ? s.processSize - s.metaspace + overhead : (stryCov_9fa48("299"), (stryMutAct_9fa48("300") ? s.processSize + s.metaspace : (stryCov_9fa48("300"), s.processSize - s.metaspace)) - overhead);
        if (stryMutAct_9fa48("304") ? flinkSize > 0 : stryMutAct_9fa48("303") ? flinkSize < 0 : stryMutAct_9fa48("302") ? false : stryMutAct_9fa48("301") ? true : (stryCov_9fa48("301", "302", "303", "304"), flinkSize <= 0)) throw new CalculationInvalidError(`taskmanager.memory.process.size ${mb(s.processSize)} does not cover metaspace and JVM overhead.`);
        parts = fromFlinkSize(s, flinkSize);
      }
    } else {
      if (stryMutAct_9fa48("306")) {
        {}
      } else {
        stryCov_9fa48("306");
        throw new CalculationInvalidError('give taskmanager.memory.process.size, taskmanager.memory.flink.size, or both taskmanager.memory.task.heap.size and taskmanager.memory.managed.size.');
      }
    }
    stryMutAct_9fa48("308") ? overhead &&= overheadFor(s, parts.flinkSize) : (stryCov_9fa48("308"), overhead ??= overheadFor(s, parts.flinkSize));
    return assemble(s, parts, overhead);
  }
}
function overheadFor(s: FlinkSettings, flinkSize: number): number {
  if (stryMutAct_9fa48("309")) {
    {}
  } else {
    stryCov_9fa48("309");
    if (stryMutAct_9fa48("312") ? s.processSize !== undefined : stryMutAct_9fa48("311") ? false : stryMutAct_9fa48("310") ? true : (stryCov_9fa48("310", "311", "312"), s.processSize === undefined)) return cappedInverse(stryMutAct_9fa48("313") ? flinkSize - s.metaspace : (stryCov_9fa48("313"), flinkSize + s.metaspace), s.overheadFraction, s.overheadMin, s.overheadMax);
    const overhead = stryMutAct_9fa48("314") ? s.processSize - flinkSize + s.metaspace : (stryCov_9fa48("314"), (stryMutAct_9fa48("315") ? s.processSize + flinkSize : (stryCov_9fa48("315"), s.processSize - flinkSize)) - s.metaspace);
    if (stryMutAct_9fa48("318") ? overhead < s.overheadMin && overhead > s.overheadMax : stryMutAct_9fa48("317") ? false : stryMutAct_9fa48("316") ? true : (stryCov_9fa48("316", "317", "318"), (stryMutAct_9fa48("321") ? overhead >= s.overheadMin : stryMutAct_9fa48("320") ? overhead <= s.overheadMin : stryMutAct_9fa48("319") ? false : (stryCov_9fa48("319", "320", "321"), overhead < s.overheadMin)) || (stryMutAct_9fa48("324") ? overhead <= s.overheadMax : stryMutAct_9fa48("323") ? overhead >= s.overheadMax : stryMutAct_9fa48("322") ? false : (stryCov_9fa48("322", "323", "324"), overhead > s.overheadMax)))) {
      if (stryMutAct_9fa48("325")) {
        {}
      } else {
        stryCov_9fa48("325");
        throw new CalculationInvalidError(`process size minus Flink memory and metaspace leaves ${mb(overhead)} of JVM overhead, outside jvm-overhead.min/max.`);
      }
    }
    return overhead;
  }
}
function assemble(s: FlinkSettings, parts: FlinkParts, overhead: number): FlinkBudget {
  if (stryMutAct_9fa48("327")) {
    {}
  } else {
    stryCov_9fa48("327");
    const heap = stryMutAct_9fa48("328") ? s.frameworkHeap - parts.taskHeap : (stryCov_9fa48("328"), s.frameworkHeap + parts.taskHeap);
    return stryMutAct_9fa48("329") ? {} : (stryCov_9fa48("329"), {
      frameworkHeap: s.frameworkHeap,
      taskHeap: parts.taskHeap,
      frameworkOffHeap: s.frameworkOffHeap,
      taskOffHeap: s.taskOffHeap,
      network: parts.network,
      managed: parts.managed,
      metaspace: s.metaspace,
      overhead,
      flinkSize: parts.flinkSize,
      processSize: stryMutAct_9fa48("330") ? parts.flinkSize + s.metaspace - overhead : (stryCov_9fa48("330"), (stryMutAct_9fa48("331") ? parts.flinkSize - s.metaspace : (stryCov_9fa48("331"), parts.flinkSize + s.metaspace)) + overhead),
      jvm: stryMutAct_9fa48("332") ? {} : (stryCov_9fa48("332"), {
        xmx: heap,
        xms: heap,
        maxDirectMemorySize: stryMutAct_9fa48("333") ? s.frameworkOffHeap + s.taskOffHeap - parts.network : (stryCov_9fa48("333"), (stryMutAct_9fa48("334") ? s.frameworkOffHeap - s.taskOffHeap : (stryCov_9fa48("334"), s.frameworkOffHeap + s.taskOffHeap)) + parts.network),
        maxMetaspaceSize: s.metaspace
      })
    });
  }
}

/**
 * What one slot of a TaskManager offers when its resources are split evenly, as Flink's default slot
 * profile does: task heap, task off-heap, managed and network memory divided by the slot count (whole
 * bytes, rounded down), one CPU core each unless taskmanager.cpu.cores says otherwise.
 */
export function defaultSlotProfile(budget: FlinkBudget, slots: number, cpuCores = slots) {
  if (stryMutAct_9fa48("335")) {
    {}
  } else {
    stryCov_9fa48("335");
    if (stryMutAct_9fa48("338") ? false : stryMutAct_9fa48("337") ? true : stryMutAct_9fa48("336") ? Number.isInteger(slots) && slots > 0 : (stryCov_9fa48("336", "337", "338"), !(stryMutAct_9fa48("341") ? Number.isInteger(slots) || slots > 0 : stryMutAct_9fa48("340") ? false : stryMutAct_9fa48("339") ? true : (stryCov_9fa48("339", "340", "341"), Number.isInteger(slots) && (stryMutAct_9fa48("344") ? slots <= 0 : stryMutAct_9fa48("343") ? slots >= 0 : stryMutAct_9fa48("342") ? true : (stryCov_9fa48("342", "343", "344"), slots > 0)))))) throw new CalculationInvalidError('taskmanager.numberOfTaskSlots must be a positive whole number.');
    const per = stryMutAct_9fa48("346") ? () => undefined : (stryCov_9fa48("346"), (() => {
      const per = (bytes: number) => Math.floor(stryMutAct_9fa48("347") ? bytes * slots : (stryCov_9fa48("347"), bytes / slots));
      return per;
    })());
    return stryMutAct_9fa48("348") ? {} : (stryCov_9fa48("348"), {
      cpuCores: stryMutAct_9fa48("349") ? cpuCores * slots : (stryCov_9fa48("349"), cpuCores / slots),
      taskHeapMemory: per(budget.taskHeap),
      taskOffHeapMemory: per(budget.taskOffHeap),
      managedMemory: per(budget.managed),
      networkMemory: per(budget.network)
    });
  }
}