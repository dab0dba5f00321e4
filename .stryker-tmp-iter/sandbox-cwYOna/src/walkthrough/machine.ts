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
import { parseText } from '../engine/parsers/parse-text.ts';
import { asMemdoctorError, type MemdoctorError, WalkthroughConflictError, WalkthroughInvalidEventError } from '../errors.ts';
import { answerStep, type Effect, type ParseFn } from './answer.ts';
import type { WalkthroughEvent } from './events.ts';
import { answerText } from './known.ts';
import { enter, stepById } from './prefill.ts';
import type { Procedure } from './procedure-schema.ts';
import type { Conversation, Finding, WalkthroughRecord } from './record.ts';

/** Who acts, when, and how pastes are parsed (tests inject a parser; the default is parseText). */
export interface TransitionContext {
  actor: string;
  /** ISO timestamp of the event. */
  at: string;
  parse?: ParseFn;
}

/** A transition's result: the next record, or why the event was refused (the record is unchanged). */
export type TransitionResult = {
  ok: true;
  record: WalkthroughRecord;
} | {
  ok: false;
  error: MemdoctorError;
};

/** What a new walkthrough starts from. */
export interface NewWalkthrough extends Conversation {
  id: string;
  thread?: string;
  playbook: {
    id: string;
    version: string;
    title: string;
  };
  procedure: Procedure;
  facts?: Finding[];
  values?: Record<string, string>;
  owner: string;
  at: string;
}

/** A record before its `start` event: version 0, no current step. */
export function createRecord(input: NewWalkthrough): WalkthroughRecord {
  if (stryMutAct_9fa48("1019")) {
    {}
  } else {
    stryCov_9fa48("1019");
    return stryMutAct_9fa48("1020") ? {} : (stryCov_9fa48("1020"), {
      format: 1,
      id: input.id,
      workspace: input.workspace,
      conversation: input.conversation,
      ...(input.thread ? stryMutAct_9fa48("1021") ? {} : (stryCov_9fa48("1021"), {
        thread: input.thread
      }) : {}),
      playbook: input.playbook,
      procedure: input.procedure,
      status: stryMutAct_9fa48("1022") ? "" : (stryCov_9fa48("1022"), 'active'),
      current: null,
      path: stryMutAct_9fa48("1023") ? ["Stryker was here"] : (stryCov_9fa48("1023"), []),
      rounds: stryMutAct_9fa48("1024") ? ["Stryker was here"] : (stryCov_9fa48("1024"), []),
      facts: stryMutAct_9fa48("1025") ? input.facts && [] : (stryCov_9fa48("1025"), input.facts ?? (stryMutAct_9fa48("1026") ? ["Stryker was here"] : (stryCov_9fa48("1026"), []))),
      values: stryMutAct_9fa48("1027") ? input.values && {} : (stryCov_9fa48("1027"), input.values ?? {}),
      owner: input.owner,
      participants: stryMutAct_9fa48("1028") ? [] : (stryCov_9fa48("1028"), [input.owner]),
      audit: stryMutAct_9fa48("1029") ? ["Stryker was here"] : (stryCov_9fa48("1029"), []),
      createdAt: input.at,
      updatedAt: input.at,
      version: 0
    });
  }
}
function effectDetail(effect: Effect): string {
  if (stryMutAct_9fa48("1030")) {
    {}
  } else {
    stryCov_9fa48("1030");
    if (stryMutAct_9fa48("1032") ? false : stryMutAct_9fa48("1031") ? true : (stryCov_9fa48("1031", "1032"), (stryMutAct_9fa48("1033") ? "" : (stryCov_9fa48("1033"), 'round')) in effect)) {
      if (stryMutAct_9fa48("1034")) {
        {}
      } else {
        stryCov_9fa48("1034");
        const {
          tested,
          leak
        } = effect.round;
        return stryMutAct_9fa48("1035") ? `` : (stryCov_9fa48("1035"), `${leak ? stryMutAct_9fa48("1036") ? "" : (stryCov_9fa48("1036"), 'leak') : stryMutAct_9fa48("1037") ? "" : (stryCov_9fa48("1037"), 'no leak')} with ${tested.join(stryMutAct_9fa48("1038") ? "" : (stryCov_9fa48("1038"), ', '))}`);
      }
    }
    const {
      answer,
      because
    } = effect.outcome;
    const text = answerText(answer);
    const last = (stryMutAct_9fa48("1041") ? answer.kind !== 'bisection' : stryMutAct_9fa48("1040") ? false : stryMutAct_9fa48("1039") ? true : (stryCov_9fa48("1039", "1040", "1041"), answer.kind === (stryMutAct_9fa48("1042") ? "" : (stryCov_9fa48("1042"), 'bisection')))) ? answer.rounds.at(stryMutAct_9fa48("1043") ? +1 : (stryCov_9fa48("1043"), -1)) : undefined;
    const round = last ? stryMutAct_9fa48("1044") ? `` : (stryCov_9fa48("1044"), `${last.leak ? stryMutAct_9fa48("1045") ? "" : (stryCov_9fa48("1045"), 'leak') : stryMutAct_9fa48("1046") ? "" : (stryCov_9fa48("1046"), 'no leak')} with ${last.tested.join(stryMutAct_9fa48("1047") ? "" : (stryCov_9fa48("1047"), ', '))}; found `) : stryMutAct_9fa48("1048") ? "Stryker was here!" : (stryCov_9fa48("1048"), '');
    return stryMutAct_9fa48("1049") ? `` : (stryCov_9fa48("1049"), `${round}${text}${because ? stryMutAct_9fa48("1050") ? `` : (stryCov_9fa48("1050"), ` (${because})`) : stryMutAct_9fa48("1051") ? "Stryker was here!" : (stryCov_9fa48("1051"), '')}`);
  }
}
function back(record: WalkthroughRecord): {
  record: WalkthroughRecord;
  detail: string;
} {
  if (stryMutAct_9fa48("1052")) {
    {}
  } else {
    stryCov_9fa48("1052");
    if (stryMutAct_9fa48("1055") ? record.status === 'active' || record.rounds.length > 0 : stryMutAct_9fa48("1054") ? false : stryMutAct_9fa48("1053") ? true : (stryCov_9fa48("1053", "1054", "1055"), (stryMutAct_9fa48("1057") ? record.status !== 'active' : stryMutAct_9fa48("1056") ? true : (stryCov_9fa48("1056", "1057"), record.status === (stryMutAct_9fa48("1058") ? "" : (stryCov_9fa48("1058"), 'active')))) && (stryMutAct_9fa48("1061") ? record.rounds.length <= 0 : stryMutAct_9fa48("1060") ? record.rounds.length >= 0 : stryMutAct_9fa48("1059") ? true : (stryCov_9fa48("1059", "1060", "1061"), record.rounds.length > 0)))) return stryMutAct_9fa48("1062") ? {} : (stryCov_9fa48("1062"), {
      record: stryMutAct_9fa48("1063") ? {} : (stryCov_9fa48("1063"), {
        ...record,
        rounds: stryMutAct_9fa48("1064") ? record.rounds : (stryCov_9fa48("1064"), record.rounds.slice(0, stryMutAct_9fa48("1065") ? +1 : (stryCov_9fa48("1065"), -1)))
      }),
      detail: stryMutAct_9fa48("1066") ? "" : (stryCov_9fa48("1066"), 'undid the last bisection round')
    });
    const last = record.path.findLastIndex(stryMutAct_9fa48("1067") ? () => undefined : (stryCov_9fa48("1067"), e => stryMutAct_9fa48("1068") ? e.prefilled : (stryCov_9fa48("1068"), !e.prefilled)));
    const entry = record.path[last];
    if (stryMutAct_9fa48("1071") ? false : stryMutAct_9fa48("1070") ? true : stryMutAct_9fa48("1069") ? entry : (stryCov_9fa48("1069", "1070", "1071"), !entry)) throw new WalkthroughInvalidEventError('nothing to go back to: no step has been answered yet.');
    const rounds = (stryMutAct_9fa48("1075") ? entry.answer.kind !== 'bisection' : stryMutAct_9fa48("1074") ? false : stryMutAct_9fa48("1073") ? true : (stryCov_9fa48("1073", "1074", "1075"), entry.answer.kind === (stryMutAct_9fa48("1076") ? "" : (stryCov_9fa48("1076"), 'bisection')))) ? stryMutAct_9fa48("1077") ? entry.answer.rounds : (stryCov_9fa48("1077"), entry.answer.rounds.slice(0, stryMutAct_9fa48("1078") ? +1 : (stryCov_9fa48("1078"), -1))) : stryMutAct_9fa48("1079") ? ["Stryker was here"] : (stryCov_9fa48("1079"), []);
    const title = stepById(record, entry.step).title;
    return stryMutAct_9fa48("1080") ? {} : (stryCov_9fa48("1080"), {
      record: stryMutAct_9fa48("1081") ? {} : (stryCov_9fa48("1081"), {
        ...record,
        status: stryMutAct_9fa48("1082") ? "" : (stryCov_9fa48("1082"), 'active'),
        current: entry.step,
        path: stryMutAct_9fa48("1083") ? record.path : (stryCov_9fa48("1083"), record.path.slice(0, last)),
        rounds
      }),
      detail: stryMutAct_9fa48("1084") ? `` : (stryCov_9fa48("1084"), `back to "${title}"`)
    });
  }
}
function checkStep(record: WalkthroughRecord, event: WalkthroughEvent): void {
  if (stryMutAct_9fa48("1085")) {
    {}
  } else {
    stryCov_9fa48("1085");
    if (stryMutAct_9fa48("1088") ? (!('step' in event) || event.step === undefined) && event.step === record.current : stryMutAct_9fa48("1087") ? false : stryMutAct_9fa48("1086") ? true : (stryCov_9fa48("1086", "1087", "1088"), (stryMutAct_9fa48("1090") ? !('step' in event) && event.step === undefined : stryMutAct_9fa48("1089") ? false : (stryCov_9fa48("1089", "1090"), (stryMutAct_9fa48("1091") ? 'step' in event : (stryCov_9fa48("1091"), !((stryMutAct_9fa48("1092") ? "" : (stryCov_9fa48("1092"), 'step')) in event))) || (stryMutAct_9fa48("1094") ? event.step !== undefined : stryMutAct_9fa48("1093") ? false : (stryCov_9fa48("1093", "1094"), event.step === undefined)))) || (stryMutAct_9fa48("1096") ? event.step !== record.current : stryMutAct_9fa48("1095") ? false : (stryCov_9fa48("1095", "1096"), event.step === record.current)))) return;
    const answered = record.path.findLast(stryMutAct_9fa48("1097") ? () => undefined : (stryCov_9fa48("1097"), e => stryMutAct_9fa48("1100") ? e.step !== event.step : stryMutAct_9fa48("1099") ? false : stryMutAct_9fa48("1098") ? true : (stryCov_9fa48("1098", "1099", "1100"), e.step === event.step)));
    const what = answered ? stryMutAct_9fa48("1101") ? `` : (stryCov_9fa48("1101"), `was already answered by ${answered.by}`) : stryMutAct_9fa48("1102") ? "" : (stryCov_9fa48("1102"), 'is not the current step');
    throw new WalkthroughConflictError(`that step ${what}; the walkthrough is now at "${record.current}". Answer the current step instead.`);
  }
}
function step(record: WalkthroughRecord, event: WalkthroughEvent, ctx: TransitionContext): {
  record: WalkthroughRecord;
  detail: string;
} {
  if (stryMutAct_9fa48("1104")) {
    {}
  } else {
    stryCov_9fa48("1104");
    if (stryMutAct_9fa48("1107") ? event.type !== 'start' : stryMutAct_9fa48("1106") ? false : stryMutAct_9fa48("1105") ? true : (stryCov_9fa48("1105", "1106", "1107"), event.type === (stryMutAct_9fa48("1108") ? "" : (stryCov_9fa48("1108"), 'start')))) {
      if (stryMutAct_9fa48("1109")) {
        {}
      } else {
        stryCov_9fa48("1109");
        if (stryMutAct_9fa48("1112") ? record.current !== null && record.version !== 0 : stryMutAct_9fa48("1111") ? false : stryMutAct_9fa48("1110") ? true : (stryCov_9fa48("1110", "1111", "1112"), (stryMutAct_9fa48("1114") ? record.current === null : stryMutAct_9fa48("1113") ? false : (stryCov_9fa48("1113", "1114"), record.current !== null)) || (stryMutAct_9fa48("1116") ? record.version === 0 : stryMutAct_9fa48("1115") ? false : (stryCov_9fa48("1115", "1116"), record.version !== 0)))) throw new WalkthroughInvalidEventError('this walkthrough has already started.');
        return stryMutAct_9fa48("1118") ? {} : (stryCov_9fa48("1118"), {
          record: enter(record, record.procedure.start, ctx.at),
          detail: stryMutAct_9fa48("1119") ? `` : (stryCov_9fa48("1119"), `started ${record.playbook.id}`)
        });
      }
    }
    if (stryMutAct_9fa48("1122") ? event.type !== 'thread' : stryMutAct_9fa48("1121") ? false : stryMutAct_9fa48("1120") ? true : (stryCov_9fa48("1120", "1121", "1122"), event.type === (stryMutAct_9fa48("1123") ? "" : (stryCov_9fa48("1123"), 'thread')))) return stryMutAct_9fa48("1124") ? {} : (stryCov_9fa48("1124"), {
      record: stryMutAct_9fa48("1125") ? {} : (stryCov_9fa48("1125"), {
        ...record,
        thread: event.thread
      }),
      detail: stryMutAct_9fa48("1126") ? `` : (stryCov_9fa48("1126"), `linked to thread ${event.thread}`)
    });
    if (stryMutAct_9fa48("1129") ? event.type === 'back' || record.status !== 'abandoned' : stryMutAct_9fa48("1128") ? false : stryMutAct_9fa48("1127") ? true : (stryCov_9fa48("1127", "1128", "1129"), (stryMutAct_9fa48("1131") ? event.type !== 'back' : stryMutAct_9fa48("1130") ? true : (stryCov_9fa48("1130", "1131"), event.type === (stryMutAct_9fa48("1132") ? "" : (stryCov_9fa48("1132"), 'back')))) && (stryMutAct_9fa48("1134") ? record.status === 'abandoned' : stryMutAct_9fa48("1133") ? true : (stryCov_9fa48("1133", "1134"), record.status !== (stryMutAct_9fa48("1135") ? "" : (stryCov_9fa48("1135"), 'abandoned')))))) return back(record);
    if (stryMutAct_9fa48("1138") ? record.status !== 'active' && record.current === null : stryMutAct_9fa48("1137") ? false : stryMutAct_9fa48("1136") ? true : (stryCov_9fa48("1136", "1137", "1138"), (stryMutAct_9fa48("1140") ? record.status === 'active' : stryMutAct_9fa48("1139") ? false : (stryCov_9fa48("1139", "1140"), record.status !== (stryMutAct_9fa48("1141") ? "" : (stryCov_9fa48("1141"), 'active')))) || (stryMutAct_9fa48("1143") ? record.current !== null : stryMutAct_9fa48("1142") ? false : (stryCov_9fa48("1142", "1143"), record.current === null)))) throw new WalkthroughInvalidEventError(`this walkthrough is ${record.status === 'active' ? 'not started' : record.status}; start a new one to continue.`);
    if (stryMutAct_9fa48("1152") ? event.type !== 'abort' : stryMutAct_9fa48("1151") ? false : stryMutAct_9fa48("1150") ? true : (stryCov_9fa48("1150", "1151", "1152"), event.type === (stryMutAct_9fa48("1153") ? "" : (stryCov_9fa48("1153"), 'abort')))) return stryMutAct_9fa48("1154") ? {} : (stryCov_9fa48("1154"), {
      record: stryMutAct_9fa48("1155") ? {} : (stryCov_9fa48("1155"), {
        ...record,
        status: stryMutAct_9fa48("1156") ? "" : (stryCov_9fa48("1156"), 'abandoned')
      }),
      detail: stryMutAct_9fa48("1157") ? event.reason && 'abandoned' : (stryCov_9fa48("1157"), event.reason ?? (stryMutAct_9fa48("1158") ? "" : (stryCov_9fa48("1158"), 'abandoned')))
    });
    if (stryMutAct_9fa48("1161") ? event.type !== 'back' : stryMutAct_9fa48("1160") ? false : stryMutAct_9fa48("1159") ? true : (stryCov_9fa48("1159", "1160", "1161"), event.type === (stryMutAct_9fa48("1162") ? "" : (stryCov_9fa48("1162"), 'back')))) throw new WalkthroughInvalidEventError('unreachable');
    checkStep(record, event);
    const current = stepById(record, record.current);
    const effect = answerStep(record, current, event, stryMutAct_9fa48("1164") ? ctx.parse && parseText : (stryCov_9fa48("1164"), ctx.parse ?? parseText));
    if (stryMutAct_9fa48("1166") ? false : stryMutAct_9fa48("1165") ? true : (stryCov_9fa48("1165", "1166"), (stryMutAct_9fa48("1167") ? "" : (stryCov_9fa48("1167"), 'round')) in effect)) return stryMutAct_9fa48("1168") ? {} : (stryCov_9fa48("1168"), {
      record: stryMutAct_9fa48("1169") ? {} : (stryCov_9fa48("1169"), {
        ...record,
        rounds: stryMutAct_9fa48("1170") ? [] : (stryCov_9fa48("1170"), [...record.rounds, effect.round])
      }),
      detail: effectDetail(effect)
    });
    const entry = stryMutAct_9fa48("1171") ? {} : (stryCov_9fa48("1171"), {
      step: current.id,
      ...effect.outcome,
      by: ctx.actor,
      prefilled: stryMutAct_9fa48("1172") ? true : (stryCov_9fa48("1172"), false),
      at: ctx.at
    });
    const answered = stryMutAct_9fa48("1173") ? {} : (stryCov_9fa48("1173"), {
      ...record,
      path: stryMutAct_9fa48("1174") ? [] : (stryCov_9fa48("1174"), [...record.path, entry]),
      rounds: stryMutAct_9fa48("1175") ? ["Stryker was here"] : (stryCov_9fa48("1175"), [])
    });
    return stryMutAct_9fa48("1176") ? {} : (stryCov_9fa48("1176"), {
      record: enter(answered, effect.outcome.next, ctx.at),
      detail: effectDetail(effect)
    });
  }
}

/**
 * The walkthrough state machine: a pure function of the record and one event. An accepted event
 * bumps the version, stamps the time, adds the actor to the participants and to the audit trail.
 * A refused event (wrong kind, unparseable paste, stale step) returns an error; nothing changes.
 */
export function transition(record: WalkthroughRecord, event: WalkthroughEvent, ctx: TransitionContext): TransitionResult {
  if (stryMutAct_9fa48("1177")) {
    {}
  } else {
    stryCov_9fa48("1177");
    try {
      if (stryMutAct_9fa48("1178")) {
        {}
      } else {
        stryCov_9fa48("1178");
        const stepAt = stryMutAct_9fa48("1179") ? record.current && undefined : (stryCov_9fa48("1179"), record.current ?? undefined);
        const {
          record: next,
          detail
        } = step(record, event, ctx);
        const participants = next.participants.includes(ctx.actor) ? next.participants : stryMutAct_9fa48("1180") ? [] : (stryCov_9fa48("1180"), [...next.participants, ctx.actor]);
        const auditEntry = stryMutAct_9fa48("1181") ? {} : (stryCov_9fa48("1181"), {
          at: ctx.at,
          actor: ctx.actor,
          event: event.type,
          ...(stepAt ? stryMutAct_9fa48("1182") ? {} : (stryCov_9fa48("1182"), {
            step: stepAt
          }) : {}),
          detail
        });
        // The entry for the event goes before any prefill entries `enter` appended, in the order things happened.
        const added = stryMutAct_9fa48("1183") ? next.audit : (stryCov_9fa48("1183"), next.audit.slice(record.audit.length));
        return stryMutAct_9fa48("1184") ? {} : (stryCov_9fa48("1184"), {
          ok: stryMutAct_9fa48("1185") ? false : (stryCov_9fa48("1185"), true),
          record: stryMutAct_9fa48("1186") ? {} : (stryCov_9fa48("1186"), {
            ...next,
            participants,
            audit: stryMutAct_9fa48("1187") ? [] : (stryCov_9fa48("1187"), [...record.audit, auditEntry, ...added]),
            updatedAt: ctx.at,
            version: stryMutAct_9fa48("1188") ? record.version - 1 : (stryCov_9fa48("1188"), record.version + 1)
          })
        });
      }
    } catch (error) {
      if (stryMutAct_9fa48("1189")) {
        {}
      } else {
        stryCov_9fa48("1189");
        return stryMutAct_9fa48("1190") ? {} : (stryCov_9fa48("1190"), {
          ok: stryMutAct_9fa48("1191") ? true : (stryCov_9fa48("1191"), false),
          error: asMemdoctorError(error)
        });
      }
    }
  }
}