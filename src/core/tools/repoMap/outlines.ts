import { lstatSync, type Stats } from 'node:fs';
import { treeComplexity } from '../astGrep/complexity';
import type { SourceReader } from '../astGrep/source';
import type { TargetFile } from '../astGrep/targets';
import { unchanged, type CachedOutline } from './cache';
import type { MapSkipReason } from './collect';
import { GENERATED_MARKER, GENERATED_MARKER_SCAN } from './limits';

/** Whether the text carries a generated-file marker near its start. */
export function isGeneratedText(text: string): boolean {
  return GENERATED_MARKER.test(text.slice(0, GENERATED_MARKER_SCAN));
}

/**
 * What one file needs before the parse workers see it: its outline from the previous call (file
 * unchanged), the text to parse, or why it has none (`read`: whether it was read whole).
 */
export type Prepared =
  | { kind: 'cached'; entry: CachedOutline }
  | { kind: 'parse'; stat: Stats; text: string }
  | { kind: 'skipped'; read: boolean; reason: MapSkipReason };

/**
 * Prepares files on the main thread, in path order, for the parse workers: stat, reuse of the
 * previous call's outline of a file whose identity has not changed, read, generated-file and tree
 * checks. Reused files count against the call's byte limit as if read.
 */
export class FilePreparer {
  private reusedBytes = 0;

  constructor(
    private readonly reader: SourceReader,
    private readonly previous: ReadonlyMap<string, CachedOutline>,
    private readonly limits: { maxFileBytes: number; maxTotalBytes: number },
  ) {}

  prepare(file: TargetFile): Prepared {
    let stat: Stats;
    try {
      // Taken before the read, so that a change during the read shows as a change next time.
      stat = lstatSync(file.absolute);
    } catch {
      // Gone or unreadable since the walk listed it: counted as unreadable, like a failed read.
      return { kind: 'skipped', read: false, reason: 'unreadable' };
    }
    if (stat.size <= this.limits.maxFileBytes && this.reader.bytesRead + this.reusedBytes + stat.size > this.limits.maxTotalBytes) {
      return { kind: 'skipped', read: false, reason: 'read_cap' };
    }
    const cached = this.previous.get(file.absolute);
    if (cached !== undefined && unchanged(cached, stat)) {
      this.reusedBytes += stat.size;
      return { kind: 'cached', entry: cached };
    }
    const source = this.reader.read(file.absolute);
    if (!source.ok) return { kind: 'skipped', read: false, reason: source.reason };
    if (isGeneratedText(source.text)) return { kind: 'skipped', read: true, reason: 'generated' };
    if (!treeComplexity(source.text).ok) return { kind: 'skipped', read: true, reason: 'too_complex' };
    return { kind: 'parse', stat, text: source.text };
  }
}
