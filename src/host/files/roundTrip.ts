/**
 * Whether bytes survive a trip through a VS Code text document: plain functions, so the rule is
 * testable without an editor. See VsCodeFilePort for why it matters.
 */

const BOM = '\uFEFF';

/**
 * True when a clean document holding `onDisk` (its text `documentText`, its line ending `eol`)
 * would save exactly `next` after its text is replaced: both are UTF-8, the BOM does not change,
 * the document's text is the disk's (same encoding, not behind the disk), and every line ending of
 * `next` is `eol` (a document has one kind; it rewrites any other).
 */
export function documentKeepsBytes(documentText: string, eol: '\n' | '\r\n', onDisk: Uint8Array, next: Uint8Array): boolean {
  const before = decodeStrict(onDisk);
  const after = decodeStrict(next);
  if (before === undefined || after === undefined) return false;
  if (before.startsWith(BOM) !== after.startsWith(BOM)) return false;
  if (withEol(before.replace(/^\uFEFF/, ''), eol) !== documentText) return false;
  return after.match(/\r\n|\r|\n/g)?.every((ending) => ending === eol) ?? true;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

/**
 * The smallest single replacement turning `old` into `next`: offsets in `old` [start, oldEnd) are
 * replaced by `next` [start, newEnd). A CRLF or a surrogate pair is never split: a document
 * position cannot sit inside one.
 */
export function changedRange(old: string, next: string): { start: number; oldEnd: number; newEnd: number } {
  let start = 0;
  const shorter = Math.min(old.length, next.length);
  while (start < shorter && old.charCodeAt(start) === next.charCodeAt(start)) start++;
  // Never start between a CR and its LF, or inside a surrogate pair.
  if (start > 0 && ((old[start - 1] === '\r' && old[start] === '\n') || isHighSurrogate(old.charCodeAt(start - 1)))) start--;
  let suffix = 0;
  while (suffix < shorter - start && old.charCodeAt(old.length - 1 - suffix) === next.charCodeAt(next.length - 1 - suffix)) suffix++;
  const tail = old.length - suffix;
  if (suffix > 0 && ((old[tail] === '\n' && old[tail - 1] === '\r') || isLowSurrogate(old.charCodeAt(tail)))) suffix--;
  return { start, oldEnd: old.length - suffix, newEnd: next.length - suffix };
}

function decodeStrict(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (err) {
    if (err instanceof TypeError) return undefined;
    throw err;
  }
}

function withEol(text: string, eol: string): string {
  return text.replace(/\r\n|\r|\n/g, eol);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
