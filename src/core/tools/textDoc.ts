import { createHash } from 'node:crypto';
import { ToolError } from './errors';

/** Size of the read and write caps: 1 MiB per file. */
export const MAX_FILE_BYTES = 1024 * 1024;

/**
 * A text file split into lines, keeping what a faithful rewrite needs: each line's own terminator
 * (LF, CRLF or a lone CR; '' for a last line without one) and whether the file starts with a BOM.
 * Line 1 is `lines[0]`. An empty file has no lines.
 */
export interface TextDoc {
  bom: boolean;
  lines: string[];
  eols: string[];
}

const BOM = '\uFEFF';

export function parseText(text: string): TextDoc {
  const bom = text.startsWith(BOM);
  const body = bom ? text.slice(1) : text;
  const lines: string[] = [];
  const eols: string[] = [];
  const re = /\r\n|\n|\r/g;
  let start = 0;
  for (let m = re.exec(body); m !== null; m = re.exec(body)) {
    lines.push(body.slice(start, m.index));
    eols.push(m[0]);
    start = m.index + m[0].length;
  }
  if (start < body.length) {
    lines.push(body.slice(start));
    eols.push('');
  }
  return { bom, lines, eols };
}

export function serializeText(doc: TextDoc): string {
  let out = doc.bom ? BOM : '';
  for (let i = 0; i < doc.lines.length; i++) out += doc.lines[i] + (doc.eols[i] ?? '');
  return out;
}

/** The terminator new lines get: the file's most common one, LF for a file without any. */
export function dominantEol(doc: TextDoc): string {
  const counts = new Map<string, number>();
  for (const eol of doc.eols) if (eol) counts.set(eol, (counts.get(eol) ?? 0) + 1);
  let best = '\n';
  let bestCount = 0;
  for (const [eol, count] of counts) {
    if (count > bestCount) [best, bestCount] = [eol, count];
  }
  return best;
}

/** Width of a content tag in hex digits. */
export const TAG_LENGTH = 6;

/** Identifies a file's content as read: the first hex digits of its SHA-256, uppercase. */
export function contentTag(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, TAG_LENGTH).toUpperCase();
}

/**
 * Decodes file bytes as strict UTF-8. A NUL byte marks a binary file; invalid sequences are an
 * error too. Both messages name the file and say what to do instead.
 */
export function decodeUtf8(bytes: Uint8Array, displayPath: string): string {
  if (bytes.includes(0)) {
    throw new ToolError(`${displayPath} looks like a binary file (it contains NUL bytes); read only handles UTF-8 text.`, 'not_utf8');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ToolError(`${displayPath} is not valid UTF-8; read only handles UTF-8 text (convert the file or inspect it with bash).`, 'not_utf8');
  }
}
