import { ToolError } from '../errors';
import type { ReadSnapshot, SnapshotStore } from '../snapshots';
import { contentTag, type TextDoc } from '../textDoc';
import { findBlock, type BlockOptions } from './blocks';
import { opLabel, type Section } from './parser';
import { checkOverlaps, type Edit } from './plan';

/**
 * The tag rules: a tag must have been created by this session for the file; it is applied as is
 * when it is the newest and still matches the file; an older or outdated tag is recovered only
 * when every line the ops rely on is unchanged at the same number.
 */

export interface TagState {
  /** The snapshot the tag names; undefined when it was dropped from the store (too old). */
  snapshot: ReadSnapshot | undefined;
  /** Newest tag for the path and equal to the current content's tag. */
  fresh: boolean;
}

function header(section: Section): string {
  return `hash_edit: [${section.path}#${section.tag}] (input line ${section.inputLine})`;
}

export function checkTag(store: SnapshotStore, canonical: string, section: Section, display: string, currentText: string): TagState {
  if (!store.created(canonical, section.tag)) {
    throw new ToolError(
      `${header(section)}: tag #${section.tag} was not produced for ${display} in this session. Read the file first (read ${display}) and use the tag from its [path#TAG] header.`,
      'unknown_tag',
    );
  }
  const newest = store.newest(canonical);
  // Comparing the text too guards against a 24-bit tag collision with content changed on disk.
  const fresh = newest?.tag === section.tag && contentTag(currentText) === section.tag && newest.text === currentText;
  return { snapshot: store.find(canonical, section.tag), fresh };
}

export function staleError(section: Section, display: string, why: string): ToolError {
  return new ToolError(`${header(section)}: the tag is stale (${why}). Re-read the file (read ${display}) and retry with the new tag and line numbers.`, 'stale_tag');
}

/** `3-5, 9` from sorted line numbers. */
export function compressLines(lines: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < lines.length; ) {
    const start = lines[i] ?? 0;
    let end = start;
    while (lines[i + 1] === end + 1) end = lines[++i] ?? end;
    parts.push(start === end ? `${start}` : `${start}-${end}`);
    i++;
  }
  return parts.join(', ');
}

/** Every anchored line must have been shown to the model under this tag. */
export function checkVisible(edits: readonly Edit[], visible: ReadonlySet<number>, section: Section, display: string): void {
  for (const edit of edits) {
    if (!edit.anchored) continue;
    const unseen: number[] = [];
    for (let line = edit.anchored.start; line <= edit.anchored.end; line++) if (!visible.has(line)) unseen.push(line);
    if (unseen.length === 0) continue;
    const first = unseen[0] ?? edit.anchored.start;
    const last = unseen[unseen.length - 1] ?? edit.anchored.end;
    throw new ToolError(
      `hash_edit: [${section.path}] input line ${edit.op.inputLine} (${opLabel(edit.op)}) relies on line${unseen.length === 1 ? '' : 's'} ${compressLines(unseen)}, which tag #${section.tag} did not show. Read ${unseen.length === 1 ? 'it' : 'them'} first (read ${display}:${first}-${last}), then retry with the tag from that read.`,
      'unseen_line',
    );
  }
}

/**
 * Moves edits planned on the tag's snapshot onto the current file, or says why that is unsafe:
 * anchored lines must read the same at the same numbers, blocks must still end where they did.
 * INS.TAIL follows the current end of the file. Returns the edits in apply order.
 */
export function rebaseEdits(seen: readonly Edit[], seenDoc: TextDoc, current: TextDoc, block: BlockOptions, section: Section, display: string): Edit[] {
  const rebased = seen.map((edit): Edit => {
    const span = edit.anchored;
    if (span) {
      for (let line = span.start; line <= span.end; line++) {
        if (line > current.lines.length) throw staleError(section, display, `line ${line}, used by ${opLabel(edit.op)}, no longer exists`);
        if (current.lines[line - 1] !== seenDoc.lines[line - 1]) throw staleError(section, display, `line ${line}, used by ${opLabel(edit.op)}, changed since that read`);
      }
      const op = edit.op;
      if (op.kind === 'SWAP.BLK' || op.kind === 'DEL.BLK' || op.kind === 'INS.BLK.POST') {
        const now = findBlock(current.lines, op.line, block);
        if (!now.ok || now.end !== span.end) throw staleError(section, display, `the block at line ${op.line} no longer ends where it did`);
      }
    }
    if (edit.op.kind === 'INS.TAIL') return { ...edit, from: current.lines.length, to: current.lines.length };
    return edit;
  });
  return checkOverlaps(rebased, section.path);
}

/** Lines the model saw under the old tag that still read the same in the current file. */
export function stillVisible(snapshot: ReadSnapshot, seenDoc: TextDoc, current: TextDoc): number[] {
  const out: number[] = [];
  for (const line of snapshot.visible) {
    if (line <= current.lines.length && current.lines[line - 1] === seenDoc.lines[line - 1]) out.push(line);
  }
  return out;
}
