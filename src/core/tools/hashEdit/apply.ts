import { dominantEol, type TextDoc } from '../textDoc';
import type { Edit } from './plan';

/**
 * Applies sorted, non-overlapping edits to a document in one pass over arrays (no string building
 * per op), keeping line endings faithful:
 *  - every kept line keeps its own terminator (LF, CRLF or CR);
 *  - new lines get the file's dominant terminator (LF for a file without any);
 *  - whether the file ends with a terminator is preserved: a file without a final newline still
 *    ends without one (the old last line gains a terminator when lines are added after it), unless
 *    the new last line is empty (an empty row cannot be unterminated), and a file with one keeps it. An empty file counts as ending with a newline, so text inserted into
 *    it is newline-terminated;
 *  - the BOM is kept.
 */

/** One applied edit in both numberings, for the changed-line transcript. */
export interface Hunk {
  /** First old line replaced (1-based) and how many; `oldCount` 0 for inserts. */
  oldStart: number;
  oldCount: number;
  /** First new line written (1-based) and how many; `newCount` 0 for deletions. */
  newStart: number;
  newCount: number;
}

export interface Applied {
  doc: TextDoc;
  hunks: Hunk[];
  /** `oldToNew[k]` is the new 1-based number of old line k, or 0 when the line was replaced. Index 0 unused. */
  oldToNew: Int32Array;
  /**
   * A body ended with an empty row at the end of a file without a final newline. An empty last line
   * cannot be unterminated (read would not count it), so it keeps its place as a line and the file
   * now ends with a newline.
   */
  emptyLastRowKept: boolean;
}

export function applyEdits(doc: TextDoc, sorted: readonly Edit[]): Applied {
  const eol = dominantEol(doc);
  const oldCount = doc.lines.length;
  const lines: string[] = [];
  const eols: string[] = [];
  const hunks: Hunk[] = [];
  const oldToNew = new Int32Array(oldCount + 1);
  let cursor = 0; // 0-based index of the next old line to copy

  const copyUntil = (stop: number): void => {
    for (; cursor < stop; cursor++) {
      lines.push(doc.lines[cursor] ?? '');
      // An old last line without a terminator gets one here; the final fix-up below restores the file's ending.
      eols.push(doc.eols[cursor] || eol);
      oldToNew[cursor + 1] = lines.length;
    }
  };

  for (const edit of sorted) {
    copyUntil(edit.from);
    hunks.push({ oldStart: edit.from + 1, oldCount: edit.to - edit.from, newStart: lines.length + 1, newCount: edit.body.length });
    for (const text of edit.body) {
      lines.push(text);
      eols.push(eol);
    }
    cursor = Math.max(cursor, edit.to);
  }
  copyUntil(oldCount);

  const endedWithoutNewline = oldCount > 0 && doc.eols[oldCount - 1] === '';
  if (endedWithoutNewline && eols.length > 0) eols[eols.length - 1] = '';
  const emptyLastRowKept = endedWithoutNewline && lines.length > 0 && lines[lines.length - 1] === '';
  if (emptyLastRowKept) eols[eols.length - 1] = eol;
  return { doc: { bom: doc.bom, lines, eols }, hunks, oldToNew, emptyLastRowKept };
}

/**
 * The visible lines after the edit: previously visible lines that survived, at their new numbers,
 * plus every line the edit wrote (the model just wrote them, so it knows them).
 */
export function mapVisible(applied: Applied, previouslyVisible: Iterable<number>): number[] {
  const out = new Set<number>();
  for (const line of previouslyVisible) {
    const mapped = applied.oldToNew[line];
    if (mapped) out.add(mapped);
  }
  for (const hunk of applied.hunks) {
    for (let k = 0; k < hunk.newCount; k++) out.add(hunk.newStart + k);
  }
  return [...out].sort((a, b) => a - b);
}
