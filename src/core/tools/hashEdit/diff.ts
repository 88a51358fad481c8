import { formatPatch, type StructuredPatchHunk } from 'diff';
import type { TextDoc } from '../textDoc';
import type { Hunk } from './apply';

const CONTEXT = 3;
const NO_NEWLINE = '\\ No newline at end of file';

/**
 * The display-only unified diff of an applied edit. The edit already knows exactly which lines it
 * replaced, so the hunks are built from those (linear in the changes) instead of re-discovering
 * them with a generic O(N·D) diff; jsdiff renders the standard text.
 */
export function unifiedDiff(display: string, before: TextDoc, after: TextDoc, hunks: readonly Hunk[]): string {
  const out: StructuredPatchHunk[] = [];
  let group: StructuredPatchHunk | undefined;
  let nextOld = 1;
  let nextNew = 1;

  const row = (prefix: ' ' | '-' | '+', doc: TextDoc, line: number): void => {
    if (!group) return;
    group.lines.push(prefix + (doc.lines[line - 1] ?? ''));
    if (prefix !== '+') group.oldLines++;
    if (prefix !== '-') group.newLines++;
    if (line === doc.lines.length && doc.eols[line - 1] === '') group.lines.push(NO_NEWLINE);
  };
  const context = (count: number): void => {
    for (let k = 0; k < count; k++) {
      const oldUnterminated = nextOld === before.lines.length && before.eols[nextOld - 1] === '';
      const newUnterminated = nextNew === after.lines.length && after.eols[nextNew - 1] === '';
      if (oldUnterminated !== newUnterminated) {
        // Same text, but the final newline came or went: in a unified diff that is a changed line.
        row('-', before, nextOld);
        row('+', after, nextNew);
      } else if (group) {
        group.lines.push(' ' + (before.lines[nextOld - 1] ?? ''));
        group.oldLines++;
        group.newLines++;
        if (oldUnterminated) group.lines.push(NO_NEWLINE);
      }
      nextOld++;
      nextNew++;
    }
  };

  for (const hunk of hunks) {
    const gap = hunk.oldStart - nextOld;
    if (group && gap <= 2 * CONTEXT) {
      context(gap);
    } else {
      if (group) context(Math.min(CONTEXT, gap));
      const lead = Math.min(CONTEXT, hunk.oldStart - nextOld);
      nextOld = hunk.oldStart - lead;
      nextNew = hunk.newStart - lead;
      group = { oldStart: nextOld, oldLines: 0, newStart: nextNew, newLines: 0, lines: [] };
      out.push(group);
      context(lead);
    }
    for (let k = 0; k < hunk.oldCount; k++) row('-', before, hunk.oldStart + k);
    for (let k = 0; k < hunk.newCount; k++) row('+', after, hunk.newStart + k);
    nextOld = hunk.oldStart + hunk.oldCount;
    nextNew = hunk.newStart + hunk.newCount;
  }
  if (group) context(Math.min(CONTEXT, before.lines.length - nextOld + 1));
  return formatPatch({ oldFileName: display, newFileName: display, oldHeader: undefined, newHeader: undefined, hunks: out });
}
