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
import { GiB } from '../units.ts';

/** A Compute Engine machine type's size. */
export interface MachineType {
  vcpu: number;
  memoryBytes: number;
}

/** GiB per vCPU of the predefined families Dataflow workers commonly use. */
const FAMILY_GIB_PER_VCPU: Readonly<Record<string, number>> = stryMutAct_9fa48("0") ? {} : (stryCov_9fa48("0"), {
  'n1-standard': 3.75,
  'n1-highmem': 6.5,
  'n1-highcpu': 0.9,
  'n2-standard': 4,
  'n2-highmem': 8,
  'n2-highcpu': 1,
  'n2d-standard': 4,
  'n2d-highmem': 8,
  'e2-standard': 4,
  'e2-highmem': 8,
  'e2-highcpu': 1,
  'c2-standard': 4,
  'c3-standard': 4,
  'm1-ultramem': 24.025
});

/**
 * Sizes a machine type: predefined `family-N` (e.g. n1-standard-4) or custom `[family-]custom-CPUS-MEMORY_MB`
 * (e.g. custom-4-16384, n2-custom-8-65536).
 */
export function machineType(name: string): MachineType {
  if (stryMutAct_9fa48("1")) {
    {}
  } else {
    stryCov_9fa48("1");
    const custom = (stryMutAct_9fa48("11") ? /^(?:[a-z0-9]+-)?custom-(\d+)-(\d+)(?:-ext)$/i : stryMutAct_9fa48("10") ? /^(?:[a-z0-9]+-)?custom-(\d+)-(\D+)(?:-ext)?$/i : stryMutAct_9fa48("9") ? /^(?:[a-z0-9]+-)?custom-(\d+)-(\d)(?:-ext)?$/i : stryMutAct_9fa48("8") ? /^(?:[a-z0-9]+-)?custom-(\D+)-(\d+)(?:-ext)?$/i : stryMutAct_9fa48("7") ? /^(?:[a-z0-9]+-)?custom-(\d)-(\d+)(?:-ext)?$/i : stryMutAct_9fa48("6") ? /^(?:[^a-z0-9]+-)?custom-(\d+)-(\d+)(?:-ext)?$/i : stryMutAct_9fa48("5") ? /^(?:[a-z0-9]-)?custom-(\d+)-(\d+)(?:-ext)?$/i : stryMutAct_9fa48("4") ? /^(?:[a-z0-9]+-)custom-(\d+)-(\d+)(?:-ext)?$/i : stryMutAct_9fa48("3") ? /^(?:[a-z0-9]+-)?custom-(\d+)-(\d+)(?:-ext)?/i : stryMutAct_9fa48("2") ? /(?:[a-z0-9]+-)?custom-(\d+)-(\d+)(?:-ext)?$/i : (stryCov_9fa48("2", "3", "4", "5", "6", "7", "8", "9", "10", "11"), /^(?:[a-z0-9]+-)?custom-(\d+)-(\d+)(?:-ext)?$/i)).exec(stryMutAct_9fa48("12") ? name : (stryCov_9fa48("12"), name.trim()));
    if (stryMutAct_9fa48("14") ? false : stryMutAct_9fa48("13") ? true : (stryCov_9fa48("13", "14"), custom)) return stryMutAct_9fa48("15") ? {} : (stryCov_9fa48("15"), {
      vcpu: Number(custom[1]),
      memoryBytes: stryMutAct_9fa48("16") ? Number(custom[2]) / 1024 ** 2 : (stryCov_9fa48("16"), Number(custom[2]) * 1024 ** 2)
    });
    const predefined = (stryMutAct_9fa48("24") ? /^([a-z0-9]+-[a-z]+)-(\D+)$/i : stryMutAct_9fa48("23") ? /^([a-z0-9]+-[a-z]+)-(\d)$/i : stryMutAct_9fa48("22") ? /^([a-z0-9]+-[^a-z]+)-(\d+)$/i : stryMutAct_9fa48("21") ? /^([a-z0-9]+-[a-z])-(\d+)$/i : stryMutAct_9fa48("20") ? /^([^a-z0-9]+-[a-z]+)-(\d+)$/i : stryMutAct_9fa48("19") ? /^([a-z0-9]-[a-z]+)-(\d+)$/i : stryMutAct_9fa48("18") ? /^([a-z0-9]+-[a-z]+)-(\d+)/i : stryMutAct_9fa48("17") ? /([a-z0-9]+-[a-z]+)-(\d+)$/i : (stryCov_9fa48("17", "18", "19", "20", "21", "22", "23", "24"), /^([a-z0-9]+-[a-z]+)-(\d+)$/i)).exec(stryMutAct_9fa48("25") ? name : (stryCov_9fa48("25"), name.trim()));
    const perVcpu = predefined ? FAMILY_GIB_PER_VCPU[stryMutAct_9fa48("26") ? predefined[1]?.toLowerCase() && '' : (stryCov_9fa48("26"), (stryMutAct_9fa48("28") ? predefined[1].toLowerCase() : stryMutAct_9fa48("27") ? predefined[1]?.toUpperCase() : (stryCov_9fa48("27", "28"), predefined[1]?.toLowerCase())) ?? (stryMutAct_9fa48("29") ? "Stryker was here!" : (stryCov_9fa48("29"), '')))] : undefined;
    if (stryMutAct_9fa48("32") ? !predefined && perVcpu === undefined : stryMutAct_9fa48("31") ? false : stryMutAct_9fa48("30") ? true : (stryCov_9fa48("30", "31", "32"), (stryMutAct_9fa48("33") ? predefined : (stryCov_9fa48("33"), !predefined)) || (stryMutAct_9fa48("35") ? perVcpu !== undefined : stryMutAct_9fa48("34") ? false : (stryCov_9fa48("34", "35"), perVcpu === undefined)))) {
      if (stryMutAct_9fa48("36")) {
        {}
      } else {
        stryCov_9fa48("36");
        throw new CalculationInvalidError(`unknown machine type "${name}": use a predefined type (${Object.keys(FAMILY_GIB_PER_VCPU).join(', ')} followed by -N) or custom-CPUS-MEMORY_MB.`);
      }
    }
    const vcpu = Number(predefined[2]);
    return stryMutAct_9fa48("39") ? {} : (stryCov_9fa48("39"), {
      vcpu,
      memoryBytes: Math.round(stryMutAct_9fa48("40") ? vcpu * perVcpu / GiB : (stryCov_9fa48("40"), (stryMutAct_9fa48("41") ? vcpu / perVcpu : (stryCov_9fa48("41"), vcpu * perVcpu)) * GiB))
    });
  }
}

/** The Dataflow worker setup, in Beam pipeline option names. */
export interface BeamSettings {
  machineType: string;
  sdk: 'python' | 'java' | 'go';
  streaming: boolean;
  /** --number_of_worker_harness_threads, when set. */
  harnessThreads?: number;
  /** --experiments=no_use_multiple_sdk_containers: one SDK process per worker instead of one per vCPU. */
  noMultipleSdkContainers: boolean;
}

/** Memory each SDK process and each harness thread can count on. */
export interface BeamBudget {
  machine: MachineType;
  /** Held back for the OS and Dataflow's own worker processes (the guide puts it at up to 1 GB). */
  operational: number;
  sdkProcesses: number;
  threadsPerProcess: number;
  perProcess: number;
  perThread: number;
}
const OPERATIONAL = GiB;

/**
 * Default harness threads per SDK process, from Dataflow's out-of-memory guide: Python runs 12 threads
 * per process when streaming and one per vCPU-process in batch; Java and Go share one process with
 * one thread per vCPU in batch and up to 300 (Streaming Engine) when streaming.
 */
function defaultThreads(s: BeamSettings, vcpu: number, processes: number): number {
  if (stryMutAct_9fa48("42")) {
    {}
  } else {
    stryCov_9fa48("42");
    if (stryMutAct_9fa48("45") ? s.sdk !== 'python' : stryMutAct_9fa48("44") ? false : stryMutAct_9fa48("43") ? true : (stryCov_9fa48("43", "44", "45"), s.sdk === (stryMutAct_9fa48("46") ? "" : (stryCov_9fa48("46"), 'python')))) return s.streaming ? 12 : stryMutAct_9fa48("47") ? Math.min(1, Math.round(vcpu / processes)) : (stryCov_9fa48("47"), Math.max(1, Math.round(stryMutAct_9fa48("48") ? vcpu * processes : (stryCov_9fa48("48"), vcpu / processes))));
    return s.streaming ? 300 : vcpu;
  }
}

/** Splits a Dataflow worker's memory across its SDK processes and their harness threads. */
export function beamBudget(s: BeamSettings): BeamBudget {
  if (stryMutAct_9fa48("49")) {
    {}
  } else {
    stryCov_9fa48("49");
    const machine = machineType(s.machineType);
    if (stryMutAct_9fa48("52") ? s.harnessThreads !== undefined || !(Number.isInteger(s.harnessThreads) && s.harnessThreads > 0) : stryMutAct_9fa48("51") ? false : stryMutAct_9fa48("50") ? true : (stryCov_9fa48("50", "51", "52"), (stryMutAct_9fa48("54") ? s.harnessThreads === undefined : stryMutAct_9fa48("53") ? true : (stryCov_9fa48("53", "54"), s.harnessThreads !== undefined)) && (stryMutAct_9fa48("55") ? Number.isInteger(s.harnessThreads) && s.harnessThreads > 0 : (stryCov_9fa48("55"), !(stryMutAct_9fa48("58") ? Number.isInteger(s.harnessThreads) || s.harnessThreads > 0 : stryMutAct_9fa48("57") ? false : stryMutAct_9fa48("56") ? true : (stryCov_9fa48("56", "57", "58"), Number.isInteger(s.harnessThreads) && (stryMutAct_9fa48("61") ? s.harnessThreads <= 0 : stryMutAct_9fa48("60") ? s.harnessThreads >= 0 : stryMutAct_9fa48("59") ? true : (stryCov_9fa48("59", "60", "61"), s.harnessThreads > 0)))))))) throw new CalculationInvalidError('--number_of_worker_harness_threads must be a positive whole number.');
    // Only the Python SDK runs one container per vCPU; the experiment folds them into one.
    const sdkProcesses = (stryMutAct_9fa48("65") ? s.sdk === 'python' || !s.noMultipleSdkContainers : stryMutAct_9fa48("64") ? false : stryMutAct_9fa48("63") ? true : (stryCov_9fa48("63", "64", "65"), (stryMutAct_9fa48("67") ? s.sdk !== 'python' : stryMutAct_9fa48("66") ? true : (stryCov_9fa48("66", "67"), s.sdk === (stryMutAct_9fa48("68") ? "" : (stryCov_9fa48("68"), 'python')))) && (stryMutAct_9fa48("69") ? s.noMultipleSdkContainers : (stryCov_9fa48("69"), !s.noMultipleSdkContainers)))) ? machine.vcpu : 1;
    const threadsPerProcess = stryMutAct_9fa48("70") ? s.harnessThreads && defaultThreads(s, machine.vcpu, sdkProcesses) : (stryCov_9fa48("70"), s.harnessThreads ?? defaultThreads(s, machine.vcpu, sdkProcesses));
    const available = stryMutAct_9fa48("71") ? Math.min(0, machine.memoryBytes - OPERATIONAL) : (stryCov_9fa48("71"), Math.max(0, stryMutAct_9fa48("72") ? machine.memoryBytes + OPERATIONAL : (stryCov_9fa48("72"), machine.memoryBytes - OPERATIONAL)));
    const perProcess = stryMutAct_9fa48("73") ? available * sdkProcesses : (stryCov_9fa48("73"), available / sdkProcesses);
    return stryMutAct_9fa48("74") ? {} : (stryCov_9fa48("74"), {
      machine,
      operational: OPERATIONAL,
      sdkProcesses,
      threadsPerProcess,
      perProcess,
      perThread: stryMutAct_9fa48("75") ? perProcess * threadsPerProcess : (stryCov_9fa48("75"), perProcess / threadsPerProcess)
    });
  }
}