// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { sniff } from '../../../src/engine/ingest/sniff.ts';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('sniff', () => {
  it.each([
    ['gzip', bytes(0x1f, 0x8b, 8, 0), 'gzip'],
    ['plain text', Buffer.from('INFO all good\n'), 'text'],
    ['text with tabs, CR, ESC and form feed', Buffer.from('a\tb\r\n\u001b[31mred\u001b[0m\f\n'), 'text'],
    ['empty input', bytes(), 'text'],
    ['UTF-8 text', Buffer.from('Ausführung fehlgeschlagen: 内存不足\n'), 'text'],
    ['a NUL byte', Buffer.from('text\u0000more'), 'binary'],
    ['zip', bytes(0x50, 0x4b, 0x03, 0x04, 1, 2), 'binary'],
    ['PNG', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a), 'binary'],
    ['heap dump', Buffer.from('JAVA PROFILE 1.0.2'), 'binary'],
    ['ELF', bytes(0x7f, 0x45, 0x4c, 0x46, 2, 1), 'binary'],
  ])('%s -> %s', (_name, head, kind) => {
    expect(sniff(head).kind).toBe(kind);
  });

  it('calls text with a few stray control bytes text, and many of them binary', () => {
    const few = Buffer.from(`${'a'.repeat(999)}\u0001`);
    const many = Buffer.from(`${'a'.repeat(90)}${'\u0001'.repeat(10)}`);
    expect(sniff(few).kind).toBe('text');
    expect(sniff(many).kind).toBe('binary');
  });

  it('tells UTF-16 text (PowerShell redirection) from binary, with what to do', () => {
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('java.lang.OutOfMemoryError\r\n', 'utf16le'),
    ]);
    expect(sniff(utf16)).toEqual({
      kind: 'binary',
      detail: expect.stringMatching(/UTF-16.*convert it to UTF-8/),
    });
  });

  it('names what a known binary is', () => {
    expect(sniff(bytes(0x50, 0x4b, 0x03, 0x04))).toEqual({
      kind: 'binary',
      detail: expect.stringContaining('zip'),
    });
  });
});
