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
import { z } from 'zod';
import { InputTooLargeError, SlackDownloadError } from '../errors.ts';

/** The parts of a Slack file object (from a `file_share` or `app_mention` event) that a download uses. */
export const SlackFileSchema = z.looseObject(stryMutAct_9fa48("939") ? {} : (stryCov_9fa48("939"), {
  id: z.string(),
  name: z.string().optional(),
  size: z.number().optional(),
  url_private_download: z.string().optional()
}));
export type SlackFileRef = z.infer<typeof SlackFileSchema>;
export interface DownloadOptions {
  token: string;
  /** Largest download, in bytes (MEMDOCTOR_MAX_UPLOAD_BYTES). */
  maxBytes: number;
  /** Hosts the bot token may be sent to: Slack's file host plus the configured API host. */
  allowedHosts: readonly string[];
  fetch?: typeof fetch;
}

/** Slack's own file hosts; a token is never sent anywhere else. */
export const SLACK_FILE_HOSTS = stryMutAct_9fa48("940") ? [] : (stryCov_9fa48("940"), [stryMutAct_9fa48("941") ? "" : (stryCov_9fa48("941"), 'files.slack.com'), stryMutAct_9fa48("942") ? "" : (stryCov_9fa48("942"), 'files.slack-gov.com')]);

/** The hosts a download may use: Slack's file hosts plus the host of SLACK_API_URL (GovSlack, proxy, test). */
export function allowedFileHosts(slackApiUrl: string | undefined): string[] {
  if (stryMutAct_9fa48("943")) {
    {}
  } else {
    stryCov_9fa48("943");
    const hosts = stryMutAct_9fa48("944") ? [] : (stryCov_9fa48("944"), [...SLACK_FILE_HOSTS]);
    if (stryMutAct_9fa48("946") ? false : stryMutAct_9fa48("945") ? true : (stryCov_9fa48("945", "946"), slackApiUrl)) hosts.push(new URL(slackApiUrl).host);
    return hosts;
  }
}
function fileUrl(file: SlackFileRef, allowedHosts: readonly string[]): URL {
  if (stryMutAct_9fa48("947")) {
    {}
  } else {
    stryCov_9fa48("947");
    const label = stryMutAct_9fa48("948") ? file.name && file.id : (stryCov_9fa48("948"), file.name ?? file.id);
    if (stryMutAct_9fa48("951") ? false : stryMutAct_9fa48("950") ? true : stryMutAct_9fa48("949") ? file.url_private_download : (stryCov_9fa48("949", "950", "951"), !file.url_private_download)) throw new SlackDownloadError(label, 'the event carries no download URL');
    const url = new URL(file.url_private_download);
    if (stryMutAct_9fa48("955") ? false : stryMutAct_9fa48("954") ? true : stryMutAct_9fa48("953") ? allowedHosts.includes(url.host) : (stryCov_9fa48("953", "954", "955"), !allowedHosts.includes(url.host))) throw new SlackDownloadError(label, `the URL points at ${url.host}, which is not a Slack file host`);
    return url;
  }
}

/** An HTML page where a file was expected: Slack's sign-in page, which is what a wrong token gets. */
function looksLikeHtml(head: Uint8Array): boolean {
  if (stryMutAct_9fa48("957")) {
    {}
  } else {
    stryCov_9fa48("957");
    const start = stryMutAct_9fa48("959") ? Buffer.from(head.subarray(0, 512)).toString('utf8').trimEnd().toLowerCase() : stryMutAct_9fa48("958") ? Buffer.from(head.subarray(0, 512)).toString('utf8').trimStart().toUpperCase() : (stryCov_9fa48("958", "959"), Buffer.from(head.subarray(0, 512)).toString(stryMutAct_9fa48("960") ? "" : (stryCov_9fa48("960"), 'utf8')).trimStart().toLowerCase());
    return stryMutAct_9fa48("963") ? start.startsWith('<!doctype html') && start.startsWith('<html') : stryMutAct_9fa48("962") ? false : stryMutAct_9fa48("961") ? true : (stryCov_9fa48("961", "962", "963"), (stryMutAct_9fa48("964") ? start.endsWith('<!doctype html') : (stryCov_9fa48("964"), start.startsWith(stryMutAct_9fa48("965") ? "" : (stryCov_9fa48("965"), '<!doctype html')))) || (stryMutAct_9fa48("966") ? start.endsWith('<html') : (stryCov_9fa48("966"), start.startsWith(stryMutAct_9fa48("967") ? "" : (stryCov_9fa48("967"), '<html')))));
  }
}
const LOGIN_PAGE = (stryMutAct_9fa48("968") ? "" : (stryCov_9fa48("968"), 'Slack answered with its sign-in page instead of the file, so the bot token was refused. ')) + (stryMutAct_9fa48("969") ? "" : (stryCov_9fa48("969"), 'Check that SLACK_BOT_TOKEN belongs to this workspace and that the app has the files:read scope.'));
async function* limited(label: string, body: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  if (stryMutAct_9fa48("970")) {
    {}
  } else {
    stryCov_9fa48("970");
    let total = 0;
    let first = stryMutAct_9fa48("971") ? false : (stryCov_9fa48("971"), true);
    for await (const chunk of body) {
      if (stryMutAct_9fa48("972")) {
        {}
      } else {
        stryCov_9fa48("972");
        if (stryMutAct_9fa48("975") ? first || looksLikeHtml(chunk) : stryMutAct_9fa48("974") ? false : stryMutAct_9fa48("973") ? true : (stryCov_9fa48("973", "974", "975"), first && looksLikeHtml(chunk))) throw new SlackDownloadError(label, LOGIN_PAGE);
        first = stryMutAct_9fa48("976") ? true : (stryCov_9fa48("976"), false);
        stryMutAct_9fa48("977") ? total -= chunk.length : (stryCov_9fa48("977"), total += chunk.length);
        // Counted as the bytes arrive: Content-Length may be missing or wrong.
        if (stryMutAct_9fa48("981") ? total <= maxBytes : stryMutAct_9fa48("980") ? total >= maxBytes : stryMutAct_9fa48("979") ? false : stryMutAct_9fa48("978") ? true : (stryCov_9fa48("978", "979", "980", "981"), total > maxBytes)) throw new InputTooLargeError(label, maxBytes);
        yield chunk;
      }
    }
  }
}

/**
 * Streams a file shared in Slack with the bot token. Only the file's `url_private_download` is used,
 * only on a Slack host; the size limit is checked before the request (the event's `size`), against
 * Content-Length, and again while streaming. Gunzip and its expanded-size limit are the engine's job.
 */
export async function downloadSlackFile(file: SlackFileRef, options: DownloadOptions): Promise<AsyncIterable<Uint8Array>> {
  if (stryMutAct_9fa48("982")) {
    {}
  } else {
    stryCov_9fa48("982");
    const label = stryMutAct_9fa48("983") ? file.name && file.id : (stryCov_9fa48("983"), file.name ?? file.id);
    if (stryMutAct_9fa48("986") ? file.size !== undefined || file.size > options.maxBytes : stryMutAct_9fa48("985") ? false : stryMutAct_9fa48("984") ? true : (stryCov_9fa48("984", "985", "986"), (stryMutAct_9fa48("988") ? file.size === undefined : stryMutAct_9fa48("987") ? true : (stryCov_9fa48("987", "988"), file.size !== undefined)) && (stryMutAct_9fa48("991") ? file.size <= options.maxBytes : stryMutAct_9fa48("990") ? file.size >= options.maxBytes : stryMutAct_9fa48("989") ? true : (stryCov_9fa48("989", "990", "991"), file.size > options.maxBytes)))) throw new InputTooLargeError(label, options.maxBytes);
    const url = fileUrl(file, options.allowedHosts);
    const doFetch = stryMutAct_9fa48("992") ? options.fetch && fetch : (stryCov_9fa48("992"), options.fetch ?? fetch);
    const response = await doFetch(url, stryMutAct_9fa48("993") ? {} : (stryCov_9fa48("993"), {
      headers: stryMutAct_9fa48("994") ? {} : (stryCov_9fa48("994"), {
        authorization: stryMutAct_9fa48("995") ? `` : (stryCov_9fa48("995"), `Bearer ${options.token}`)
      })
    }));
    if (stryMutAct_9fa48("998") ? !response.ok && !response.body : stryMutAct_9fa48("997") ? false : stryMutAct_9fa48("996") ? true : (stryCov_9fa48("996", "997", "998"), (stryMutAct_9fa48("999") ? response.ok : (stryCov_9fa48("999"), !response.ok)) || (stryMutAct_9fa48("1000") ? response.body : (stryCov_9fa48("1000"), !response.body)))) {
      if (stryMutAct_9fa48("1001")) {
        {}
      } else {
        stryCov_9fa48("1001");
        await (stryMutAct_9fa48("1002") ? response.body.cancel() : (stryCov_9fa48("1002"), response.body?.cancel()));
        throw new SlackDownloadError(label, `Slack answered HTTP ${response.status}`);
      }
    }
    const length = Number(stryMutAct_9fa48("1004") ? response.headers.get('content-length') && Number.NaN : (stryCov_9fa48("1004"), response.headers.get(stryMutAct_9fa48("1005") ? "" : (stryCov_9fa48("1005"), 'content-length')) ?? Number.NaN));
    if (stryMutAct_9fa48("1009") ? length <= options.maxBytes : stryMutAct_9fa48("1008") ? length >= options.maxBytes : stryMutAct_9fa48("1007") ? false : stryMutAct_9fa48("1006") ? true : (stryCov_9fa48("1006", "1007", "1008", "1009"), length > options.maxBytes)) {
      if (stryMutAct_9fa48("1010")) {
        {}
      } else {
        stryCov_9fa48("1010");
        await response.body.cancel();
        throw new InputTooLargeError(label, options.maxBytes);
      }
    }
    if (stryMutAct_9fa48("1013") ? (response.headers.get('content-type') ?? '').endsWith('text/html') : stryMutAct_9fa48("1012") ? false : stryMutAct_9fa48("1011") ? true : (stryCov_9fa48("1011", "1012", "1013"), (stryMutAct_9fa48("1014") ? response.headers.get('content-type') && '' : (stryCov_9fa48("1014"), response.headers.get(stryMutAct_9fa48("1015") ? "" : (stryCov_9fa48("1015"), 'content-type')) ?? (stryMutAct_9fa48("1016") ? "Stryker was here!" : (stryCov_9fa48("1016"), '')))).startsWith(stryMutAct_9fa48("1017") ? "" : (stryCov_9fa48("1017"), 'text/html')))) {
      if (stryMutAct_9fa48("1018")) {
        {}
      } else {
        stryCov_9fa48("1018");
        await response.body.cancel();
        throw new SlackDownloadError(label, LOGIN_PAGE);
      }
    }
    return limited(label, response.body as AsyncIterable<Uint8Array>, options.maxBytes);
  }
}