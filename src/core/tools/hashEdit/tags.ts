import { displayPath } from '../../fs/paths';
import { ToolError } from '../errors';
import type { ReadSnapshot, SnapshotStore } from '../snapshots';
import { TAG_LENGTH, contentTag } from '../textDoc';
import { opLabel, type Section } from './parser';
import type { Edit, Span } from './plan';

/**
 * The tag rules: a tag must have been created by this session for the file; it is applied as is
 * when it is the newest and still matches the file; an older or outdated tag goes through recovery
 * (recovery.ts).
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

export function checkTag(store: SnapshotStore, canonical: string, section: Section, display: string, currentText: string, root: string): TagState {
  if (!store.created(canonical, section.tag)) {
    const others = store.pathsWithTag(section.tag).map((other) => displayPath(root, other));
    const more = others.length > 1 ? ` and ${others.length - 1} other file${others.length > 2 ? 's' : ''} with the same content` : '';
    const owner = others.length
      ? ` (it was produced for ${others[0]}${more}, not for this file)`
      : section.tag.length !== TAG_LENGTH
        ? ` (tags are six hex digits, like 3FA9C1; #${section.tag} has ${section.tag.length})`
        : '';
    throw new ToolError(
      `${header(section)}: tag #${section.tag} was not produced for ${display} in this session${owner}. Read the file first (read ${display}) and use the tag from its own [path#TAG] header.`,
      'unknown_tag',
    );
  }
  const newest = store.newest(canonical);
  // Comparing the text too guards against a 24-bit tag collision with content changed on disk.
  const fresh = newest?.tag === section.tag && contentTag(currentText) === section.tag && newest.text === currentText;
  return { snapshot: store.find(canonical, section.tag), fresh };
}

/** `range`: the current lines that show the anchors again; a read of it gives the new tag. */
export function staleError(section: Section, display: string, why: string, range: Span): ToolError {
  const lines = range.start === range.end ? `line ${range.start}` : `lines ${range.start}-${range.end}`;
  return new ToolError(`${header(section)}: the tag is stale (${why}). Re-read ${lines} (read ${display}:${range.start}-${range.end}) and retry with the new tag and line numbers.`, 'stale_tag');
}

/** The lines an op names, as written (before any planning), for a stale message without a snapshot. */
export function namedRange(section: Section): Span | undefined {
  const lines = section.ops.flatMap((op) => ('start' in op ? [op.start, op.end] : 'line' in op ? [op.line] : []));
  return lines.length ? { start: Math.min(...lines), end: Math.max(...lines) } : undefined;
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
