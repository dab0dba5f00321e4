/** What the first bytes of an input say about it. */
// @ts-nocheck

export type Sniffed = { kind: 'gzip' } | { kind: 'text' } | { kind: 'binary'; detail: string };

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/** Magic numbers of binary formats people upload by mistake, with a name they will recognise. */
const KNOWN_BINARY: ReadonlyArray<{ magic: readonly number[]; detail: string }> = [
  // Text, but not UTF-8: Windows PowerShell's `>` writes UTF-16. Its NUL bytes would read as binary.
  {
    magic: [0xff, 0xfe],
    detail:
      'UTF-16 text, as Windows PowerShell writes it: convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)',
  },
  {
    magic: [0xfe, 0xff],
    detail: 'UTF-16 text: convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)',
  },
  { magic: [0x50, 0x4b, 0x03, 0x04], detail: 'a zip archive: unzip it and give the log inside' },
  { magic: [0x4a, 0x41, 0x56, 0x41, 0x20, 0x50, 0x52, 0x4f, 0x46], detail: 'a Java heap dump (.hprof)' },
  { magic: [0x89, 0x50, 0x4e, 0x47], detail: 'a PNG image' },
  { magic: [0xff, 0xd8, 0xff], detail: 'a JPEG image' },
  { magic: [0x25, 0x50, 0x44, 0x46], detail: 'a PDF document' },
  { magic: [0x42, 0x5a, 0x68], detail: 'a bzip2 archive: decompress it first' },
  { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a], detail: 'an xz archive: decompress it first' },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], detail: 'a zstd archive: decompress it first' },
  { magic: [0x7f, 0x45, 0x4c, 0x46], detail: 'an executable (ELF)' },
];

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((b, i) => bytes[i] === b);
}

/** Share of bytes that no text log contains: NUL and C0 controls other than tab, LF, CR, ESC, FF. */
function controlShare(bytes: Uint8Array): number {
  let odd = 0;
  for (const b of bytes) {
    if (b === 0) return 1;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x1b && b !== 0x0c) odd++;
  }
  return bytes.length === 0 ? 0 : odd / bytes.length;
}

/**
 * Classifies an input by its first bytes (a few KiB are enough). A NUL byte or more than 1% control
 * characters means binary: logs never carry them, and decoding them as text gives garbage matches.
 */
export function sniff(head: Uint8Array): Sniffed {
  if (startsWith(head, GZIP_MAGIC)) return { kind: 'gzip' };
  for (const known of KNOWN_BINARY) {
    if (startsWith(head, known.magic)) return { kind: 'binary', detail: known.detail };
  }
  if (controlShare(head.subarray(0, 8192)) > 0.01) {
    return { kind: 'binary', detail: 'it contains bytes that never appear in text' };
  }
  return { kind: 'text' };
}
