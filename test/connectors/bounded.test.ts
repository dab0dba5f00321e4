import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  checkedJson,
  currentDeadline,
  decoded,
  isHtml,
  jsonDepth,
  MAX_JSON_DEPTH,
  readCapped,
  redirectWithin,
  withinDeadline,
} from '../../src/connectors/bounded.ts';
import { type Fault, FetchFault, faultMessage, faultOf } from '../../src/connectors/fetch-faults.ts';
import { fixture } from './fakes/rest-fake.ts';

const faultFrom = (f: () => unknown): Fault | undefined => {
  try {
    f();
  } catch (error) {
    return faultOf(error);
  }
  return undefined;
};

describe('the fetch discipline, piece by piece', () => {
  it('counts JSON depth outside strings, without parsing', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":2}]}')).toBe(3);
    // Brackets and escaped quotes inside strings do not count.
    expect(jsonDepth('{"a":"[[[{{\\"[["}')).toBe(1);
    expect(jsonDepth(fixture('kubernetes/pod-aiops-memhog-oomkilled.json'))).toBe(11);
    expect(jsonDepth('['.repeat(1_000_000))).toBe(MAX_JSON_DEPTH + 1);
  });

  it('refuses JSON nested past the limit, an HTML page, and what is not JSON, each by its fault', () => {
    expect(checkedJson(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).toBeInstanceOf(Array);
    expect(faultFrom(() => checkedJson('['.repeat(MAX_JSON_DEPTH + 1)))).toEqual({
      kind: 'too-deep',
      maxDepth: MAX_JSON_DEPTH,
    });
    expect(faultFrom(() => checkedJson('  <!DOCTYPE html><html></html>'))).toEqual({ kind: 'html' });
    expect(faultFrom(() => checkedJson('{}', 'text/html; charset=utf-8'))).toEqual({ kind: 'html' });
    expect(faultFrom(() => checkedJson('{"a":'))).toEqual({ kind: 'not-json' });
    expect(isHtml('{"html": "<html>"}', 'application/json')).toBe(false);
    // Knox's SSO page (fixtures/html) opens with its licence in a comment: a page all the same, whatever its type says.
    const knox = fixture('html/knoxsso-login.html');
    expect(isHtml(knox)).toBe(true);
    expect(faultFrom(() => checkedJson(knox, 'application/json'))).toEqual({ kind: 'html' });
    expect(isHtml('<!-- a comment --> {"a": 1}')).toBe(false);
  });

  it('follows a redirect only on the same origin and under the base path', () => {
    const base = new URL('https://rancher.example/k8s/clusters/c-1');
    const at = new URL('https://rancher.example/k8s/clusters/c-1/api/v1/pods');
    expect(redirectWithin('/k8s/clusters/c-1/api/v1/pods?x=1', at, base).href).toBe(
      'https://rancher.example/k8s/clusters/c-1/api/v1/pods?x=1',
    );
    for (const [location, to] of [
      ['/k8s/clusters/c-2/api', 'https://rancher.example'],
      ['/k8s/clusters/c-1x/api', 'https://rancher.example'],
      ['https://rancher.example:8443/k8s/clusters/c-1/api', 'https://rancher.example:8443'],
      ['http://rancher.example/k8s/clusters/c-1/api', 'http://rancher.example'],
      ['https://evil.example/k8s/clusters/c-1/api', 'https://evil.example'],
      [null, undefined],
    ] as const)
      expect(faultFrom(() => redirectWithin(location, at, base))).toEqual({ kind: 'redirect', to });
  });

  it('reads a body up to maxBytes and cuts it at the first chunk over, after decompression', async () => {
    const deadline = currentDeadline(5_000);
    const body = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
    await expect(readCapped(body, 1_200, deadline)).resolves.toHaveLength(1_200);
    const over = Readable.from([Buffer.alloc(600), Buffer.alloc(601)]);
    await expect(readCapped(over, 1_200, deadline)).rejects.toEqual(
      new FetchFault({ kind: 'too-large', maxBytes: 1_200, decoded: false }),
    );
    const bomb = decoded(Readable.from([gzipSync(Buffer.alloc(10 * 1024 * 1024))]), 'gzip');
    const fault = await readCapped(bomb, 1_024 * 1_024, deadline, true).catch(faultOf);
    expect(fault).toEqual({ kind: 'too-large', maxBytes: 1_048_576, decoded: true });
    expect(faultFrom(() => decoded(Readable.from([]), 'zstd'))).toEqual({
      kind: 'encoding',
      encoding: 'zstd',
    });
  });

  it('gives every call inside an answer the same deadline', async () => {
    await withinDeadline(1_000, async (deadline) => {
      await new Promise((r) => setTimeout(r, 5));
      expect(currentDeadline(60_000)).toBe(deadline);
    });
    expect(currentDeadline(60_000).ms).toBe(60_000);
  });

  it('writes each fault as a sentence with what to do', () => {
    const asked = {
      system: 'AWS Glue',
      request: 'GetJobRun',
      settings: 'glue.',
      address: 'glue.endpoint (http://127.0.0.1:4566)',
      instead: 'paste the output of `aws glue get-job-run ...` instead',
    };
    expect(faultMessage({ kind: 'too-large', maxBytes: 10, decoded: true }, asked)).toBe(
      'AWS Glue answered more than 10 bytes (once decompressed) to GetJobRun; raise glue.maxBytes in connectors.yaml or paste the output of `aws glue get-job-run ...` instead.',
    );
    expect(faultMessage({ kind: 'timeout', ms: 300 }, asked)).toBe(
      'AWS Glue did not answer GetJobRun (no answer within 300 ms); paste the output of `aws glue get-job-run ...` instead.',
    );
  });
});
