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
const KiB = 1024;
const MULTIPLIER: Readonly<Record<string, number>> = stryMutAct_9fa48("843") ? {} : (stryCov_9fa48("843"), {
  b: 1,
  k: KiB,
  kb: KiB,
  kib: KiB,
  m: KiB ** 2,
  mb: KiB ** 2,
  mib: KiB ** 2,
  g: KiB ** 3,
  gb: KiB ** 3,
  gib: KiB ** 3,
  t: KiB ** 4,
  tb: KiB ** 4,
  tib: KiB ** 4
});

/** Sizes as logs and configs print them: `4.5 GB`, `1024.0 MiB`, `8g`, `512m`, `65536 kB`, `1719m`. */
export const SIZE_PATTERN = stryMutAct_9fa48("853") ? /(\d+(?:\.\d+)?)\s?([kmgt]i?b|b)\b/i : stryMutAct_9fa48("852") ? /(\d+(?:\.\d+)?)\s?([kmgt]ib?|b)\b/i : stryMutAct_9fa48("851") ? /(\d+(?:\.\d+)?)\s?([^kmgt]i?b?|b)\b/i : stryMutAct_9fa48("850") ? /(\d+(?:\.\d+)?)\S?([kmgt]i?b?|b)\b/i : stryMutAct_9fa48("849") ? /(\d+(?:\.\d+)?)\s([kmgt]i?b?|b)\b/i : stryMutAct_9fa48("848") ? /(\d+(?:\.\D+)?)\s?([kmgt]i?b?|b)\b/i : stryMutAct_9fa48("847") ? /(\d+(?:\.\d)?)\s?([kmgt]i?b?|b)\b/i : stryMutAct_9fa48("846") ? /(\d+(?:\.\d+))\s?([kmgt]i?b?|b)\b/i : stryMutAct_9fa48("845") ? /(\D+(?:\.\d+)?)\s?([kmgt]i?b?|b)\b/i : stryMutAct_9fa48("844") ? /(\d(?:\.\d+)?)\s?([kmgt]i?b?|b)\b/i : (stryCov_9fa48("844", "845", "846", "847", "848", "849", "850", "851", "852", "853"), /(\d+(?:\.\d+)?)\s?([kmgt]i?b?|b)\b/i);

/**
 * Parses a size into bytes. Units are binary, as YARN, Spark, Flink and the JVM all mean them
 * (their "GB" is 1024^3). A bare number is taken in `defaultUnit`.
 */
export function parseSize(text: string, defaultUnit = stryMutAct_9fa48("854") ? "" : (stryCov_9fa48("854"), 'b')): number | undefined {
  if (stryMutAct_9fa48("855")) {
    {}
  } else {
    stryCov_9fa48("855");
    const match = (stryMutAct_9fa48("870") ? /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\S*$/i : stryMutAct_9fa48("869") ? /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s$/i : stryMutAct_9fa48("868") ? /^\s*(\d+(?:\.\d+)?)\s*([^a-z]*)\s*$/i : stryMutAct_9fa48("867") ? /^\s*(\d+(?:\.\d+)?)\s*([a-z])\s*$/i : stryMutAct_9fa48("866") ? /^\s*(\d+(?:\.\d+)?)\S*([a-z]*)\s*$/i : stryMutAct_9fa48("865") ? /^\s*(\d+(?:\.\d+)?)\s([a-z]*)\s*$/i : stryMutAct_9fa48("864") ? /^\s*(\d+(?:\.\D+)?)\s*([a-z]*)\s*$/i : stryMutAct_9fa48("863") ? /^\s*(\d+(?:\.\d)?)\s*([a-z]*)\s*$/i : stryMutAct_9fa48("862") ? /^\s*(\d+(?:\.\d+))\s*([a-z]*)\s*$/i : stryMutAct_9fa48("861") ? /^\s*(\D+(?:\.\d+)?)\s*([a-z]*)\s*$/i : stryMutAct_9fa48("860") ? /^\s*(\d(?:\.\d+)?)\s*([a-z]*)\s*$/i : stryMutAct_9fa48("859") ? /^\S*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i : stryMutAct_9fa48("858") ? /^\s(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i : stryMutAct_9fa48("857") ? /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*/i : stryMutAct_9fa48("856") ? /\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i : (stryCov_9fa48("856", "857", "858", "859", "860", "861", "862", "863", "864", "865", "866", "867", "868", "869", "870"), /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i)).exec(text);
    if (stryMutAct_9fa48("873") ? false : stryMutAct_9fa48("872") ? true : stryMutAct_9fa48("871") ? match : (stryCov_9fa48("871", "872", "873"), !match)) return undefined;
    const unit = stryMutAct_9fa48("874") ? (match[2] || defaultUnit).toUpperCase() : (stryCov_9fa48("874"), (stryMutAct_9fa48("877") ? match[2] && defaultUnit : stryMutAct_9fa48("876") ? false : stryMutAct_9fa48("875") ? true : (stryCov_9fa48("875", "876", "877"), match[2] || defaultUnit)).toLowerCase());
    const multiplier = MULTIPLIER[unit];
    if (stryMutAct_9fa48("880") ? multiplier !== undefined : stryMutAct_9fa48("879") ? false : stryMutAct_9fa48("878") ? true : (stryCov_9fa48("878", "879", "880"), multiplier === undefined)) return undefined;
    return Math.round(stryMutAct_9fa48("881") ? Number(match[1]) / multiplier : (stryCov_9fa48("881"), Number(match[1]) * multiplier));
  }
}

/** Bytes as a person reads them: `10.4 GB`, `512 MB` (binary units, as the tools print them). */
export function formatSize(bytes: number): string {
  if (stryMutAct_9fa48("882")) {
    {}
  } else {
    stryCov_9fa48("882");
    const units = stryMutAct_9fa48("883") ? [] : (stryCov_9fa48("883"), [stryMutAct_9fa48("884") ? "" : (stryCov_9fa48("884"), 'B'), stryMutAct_9fa48("885") ? "" : (stryCov_9fa48("885"), 'KB'), stryMutAct_9fa48("886") ? "" : (stryCov_9fa48("886"), 'MB'), stryMutAct_9fa48("887") ? "" : (stryCov_9fa48("887"), 'GB'), stryMutAct_9fa48("888") ? "" : (stryCov_9fa48("888"), 'TB')]);
    let value = bytes;
    let unit = 0;
    while (stryMutAct_9fa48("890") ? Math.abs(value) >= 1024 || unit < units.length - 1 : stryMutAct_9fa48("889") ? false : (stryCov_9fa48("889", "890"), (stryMutAct_9fa48("893") ? Math.abs(value) < 1024 : stryMutAct_9fa48("892") ? Math.abs(value) > 1024 : stryMutAct_9fa48("891") ? true : (stryCov_9fa48("891", "892", "893"), Math.abs(value) >= 1024)) && (stryMutAct_9fa48("896") ? unit >= units.length - 1 : stryMutAct_9fa48("895") ? unit <= units.length - 1 : stryMutAct_9fa48("894") ? true : (stryCov_9fa48("894", "895", "896"), unit < (stryMutAct_9fa48("897") ? units.length + 1 : (stryCov_9fa48("897"), units.length - 1)))))) {
      if (stryMutAct_9fa48("898")) {
        {}
      } else {
        stryCov_9fa48("898");
        stryMutAct_9fa48("899") ? value *= 1024 : (stryCov_9fa48("899"), value /= 1024);
        stryMutAct_9fa48("900") ? unit-- : (stryCov_9fa48("900"), unit++);
      }
    }
    let text = roundForDisplay(value);
    // 1023.97 KB rounds to "1024 KB": a person expects "1 MB".
    if (stryMutAct_9fa48("903") ? Math.abs(Number(text)) >= 1024 || unit < units.length - 1 : stryMutAct_9fa48("902") ? false : stryMutAct_9fa48("901") ? true : (stryCov_9fa48("901", "902", "903"), (stryMutAct_9fa48("906") ? Math.abs(Number(text)) < 1024 : stryMutAct_9fa48("905") ? Math.abs(Number(text)) > 1024 : stryMutAct_9fa48("904") ? true : (stryCov_9fa48("904", "905", "906"), Math.abs(Number(text)) >= 1024)) && (stryMutAct_9fa48("909") ? unit >= units.length - 1 : stryMutAct_9fa48("908") ? unit <= units.length - 1 : stryMutAct_9fa48("907") ? true : (stryCov_9fa48("907", "908", "909"), unit < (stryMutAct_9fa48("910") ? units.length + 1 : (stryCov_9fa48("910"), units.length - 1)))))) {
      if (stryMutAct_9fa48("911")) {
        {}
      } else {
        stryCov_9fa48("911");
        stryMutAct_9fa48("912") ? unit-- : (stryCov_9fa48("912"), unit++);
        text = roundForDisplay(stryMutAct_9fa48("913") ? value * 1024 : (stryCov_9fa48("913"), value / 1024));
      }
    }
    return stryMutAct_9fa48("914") ? `` : (stryCov_9fa48("914"), `${text} ${units[unit]}`);
  }
}

/** Two decimals below 10, one below 100, none above; parseFloat drops trailing zeros (8.20 -> 8.2). */
function roundForDisplay(value: number): string {
  if (stryMutAct_9fa48("915")) {
    {}
  } else {
    stryCov_9fa48("915");
    const size = Math.abs(value);
    const digits = (stryMutAct_9fa48("919") ? size < 100 : stryMutAct_9fa48("918") ? size > 100 : stryMutAct_9fa48("917") ? false : stryMutAct_9fa48("916") ? true : (stryCov_9fa48("916", "917", "918", "919"), size >= 100)) ? 0 : (stryMutAct_9fa48("923") ? size >= 10 : stryMutAct_9fa48("922") ? size <= 10 : stryMutAct_9fa48("921") ? false : stryMutAct_9fa48("920") ? true : (stryCov_9fa48("920", "921", "922", "923"), size < 10)) ? 2 : 1;
    return String(Number.parseFloat(value.toFixed(digits)));
  }
}

/** Bytes as a Spark/JVM setting: `2g` when whole gibibytes, else `1536m`. Rounds up to a mebibyte. */
export function formatSetting(bytes: number): string {
  if (stryMutAct_9fa48("924")) {
    {}
  } else {
    stryCov_9fa48("924");
    const mib = Math.ceil(stryMutAct_9fa48("925") ? bytes * KiB ** 2 : (stryCov_9fa48("925"), bytes / KiB ** 2));
    return (stryMutAct_9fa48("928") ? mib % 1024 !== 0 : stryMutAct_9fa48("927") ? false : stryMutAct_9fa48("926") ? true : (stryCov_9fa48("926", "927", "928"), (stryMutAct_9fa48("929") ? mib * 1024 : (stryCov_9fa48("929"), mib % 1024)) === 0)) ? stryMutAct_9fa48("930") ? `` : (stryCov_9fa48("930"), `${stryMutAct_9fa48("931") ? mib * 1024 : (stryCov_9fa48("931"), mib / 1024)}g`) : stryMutAct_9fa48("932") ? `` : (stryCov_9fa48("932"), `${mib}m`);
  }
}

/** Rounds bytes up to a multiple of `step` bytes. */
export function roundUp(bytes: number, step: number): number {
  if (stryMutAct_9fa48("933")) {
    {}
  } else {
    stryCov_9fa48("933");
    return stryMutAct_9fa48("934") ? Math.ceil(bytes / step) / step : (stryCov_9fa48("934"), Math.ceil(stryMutAct_9fa48("935") ? bytes * step : (stryCov_9fa48("935"), bytes / step)) * step);
  }
}
export const MiB = KiB ** 2;
export const GiB = KiB ** 3;

/** Keeps `value` within [min, max] (callers make sure min <= max). */
export function clamp(value: number, min: number, max: number): number {
  if (stryMutAct_9fa48("936")) {
    {}
  } else {
    stryCov_9fa48("936");
    return stryMutAct_9fa48("937") ? Math.min(min, Math.min(max, value)) : (stryCov_9fa48("937"), Math.max(min, stryMutAct_9fa48("938") ? Math.max(max, value) : (stryCov_9fa48("938"), Math.min(max, value))));
  }
}