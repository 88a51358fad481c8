import type { ReadSnapshot, SnapshotStore } from '../snapshots';
import { parseText, type TextDoc } from '../textDoc';
import { findBlock, type BlockOptions } from './blocks';
import { alignLines, composeMaps, identityMap, type LineMap, type Unmapped } from './lineMap';
import { opLabel, type Section } from './parser';
import { checkOverlaps, type Edit, type Span } from './plan';
import { staleError } from './tags';

/**
 * Stale-tag recovery: edits planned on the tagged version move to the lines those became in the
 * current file. Where the current file came from this session's own edits the mapping is exact (each
 * edit records where every line went); changes from elsewhere are found with a line diff. An edit
 * applies only when every line it relies on maps one-to-one, in order and without a gap, onto
 * unchanged lines; otherwise the call is refused naming the line and the range to re-read.
 */

export interface Mapping {
  map: LineMap;
  why(line: number): Unmapped;
}

/** Where each line of the tagged snapshot is in the current file. */
export function mapSnapshot(store: SnapshotStore, canonical: string, snapshot: ReadSnapshot, seenDoc: TextDoc, current: TextDoc, currentText: string): Mapping {
  const steps = store.lineageTo(canonical, snapshot.tag);
  const newest = store.newest(canonical);
  if (!steps || !newest) return fromAlignment(seenDoc, current);
  const own = steps.reduce(composeMaps, identityMap(seenDoc.lines.length));
  if (newest.text === currentText) return { map: own, why: () => 'changed' };
  const outside = alignLines(parseText(newest.text).lines, current.lines);
  return {
    map: composeMaps(own, outside.map),
    why: (line) => {
      const middle = own[line] ?? 0;
      return middle ? (outside.why(middle) ?? 'changed') : 'changed';
    },
  };
}

function fromAlignment(seenDoc: TextDoc, current: TextDoc): Mapping {
  const alignment = alignLines(seenDoc.lines, current.lines);
  return { map: alignment.map, why: (line) => alignment.why(line) ?? 'changed' };
}

/** The current-file lines to re-read so that every anchor of the section is shown again. */
export function staleRange(edits: readonly Edit[], mapping: Mapping, currentLines: number): Span {
  const spans = edits.map((edit) => edit.anchored ?? { start: edit.from + 1, end: Math.max(edit.from + 1, edit.to) });
  const start = Math.min(...spans.map((span) => span.start));
  const end = Math.max(...spans.map((span) => span.end));
  let lo = 1;
  for (let k = start; k >= 1; k--) if (mapping.map[k]) {
    lo = mapping.map[k] ?? 1;
    break;
  }
  let hi = currentLines;
  for (let k = end; k < mapping.map.length; k++) if (mapping.map[k]) {
    hi = mapping.map[k] ?? currentLines;
    break;
  }
  return paddedRange(lo, hi, currentLines);
}

/** `lo..hi` widened by two lines each side, clipped to the file (at least line 1). */
export function paddedRange(lo: number, hi: number, lineCount: number): Span {
  const last = Math.max(1, lineCount);
  return { start: Math.max(1, Math.min(lo, last) - 2), end: Math.min(last, Math.max(hi, lo) + 2) };
}

function moved(line: number, why: Unmapped, label: string): string {
  return why === 'ambiguous'
    ? `line ${line}, used by ${label}, repeats nearby and lines were added or removed around it, so where it is now is unclear`
    : `line ${line}, used by ${label}, changed or was removed since that read`;
}

/**
 * Moves edits planned on the tag's snapshot onto the current file, or refuses: each anchored line
 * must map, consecutive anchored lines must stay consecutive, and a block must still end where it
 * did. INS.HEAD and INS.TAIL follow the current start and end. Returns the edits in apply order.
 */
export function rebaseEdits(seen: readonly Edit[], mapping: Mapping, current: TextDoc, block: BlockOptions, section: Section, display: string): Edit[] {
  const { map } = mapping;
  const refuse = (why: string): never => {
    throw staleError(section, display, why, staleRange(seen, mapping, current.lines.length));
  };
  const rebased = seen.map((edit): Edit => {
    const label = opLabel(edit.op);
    if (edit.op.kind === 'INS.HEAD') return edit;
    if (edit.op.kind === 'INS.TAIL') return { ...edit, from: current.lines.length, to: current.lines.length };
    const span = edit.anchored;
    if (!span) return edit;
    for (let line = span.start; line <= span.end; line++) {
      const at = map[line] ?? 0;
      if (!at) refuse(moved(line, mapping.why(line), label));
      if (line > span.start && at !== (map[line - 1] ?? 0) + 1) refuse(`lines were added or removed between lines ${line - 1} and ${line}, used by ${label}`);
    }
    const shift = (map[span.start] ?? 0) - span.start;
    const op = edit.op;
    if (op.kind === 'SWAP.BLK' || op.kind === 'DEL.BLK' || op.kind === 'INS.BLK.POST') {
      const now = findBlock(current.lines, op.line + shift, block);
      if (!now.ok || now.end !== span.end + shift) refuse(`the block at line ${op.line} no longer ends where it did`);
    }
    return { ...edit, from: edit.from + shift, to: edit.to + shift, keep: edit.keep === null ? null : edit.keep + shift };
  });
  return checkOverlaps(rebased, section.path);
}

/** Lines the model saw under the old tag that map onto the current file, at their current numbers. */
export function stillVisible(snapshot: ReadSnapshot, mapping: Mapping): number[] {
  const out: number[] = [];
  for (const line of snapshot.visible) {
    const at = mapping.map[line] ?? 0;
    if (at) out.push(at);
  }
  return out;
}
