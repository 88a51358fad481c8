import { parse, type SgNode } from '@ast-grep/napi';
import { lstatSync, type Stats } from 'node:fs';
import { treeComplexity } from '../astGrep/complexity';
import { napiLanguage } from '../astGrep/languages';
import type { ExtractOutline, OutlineSymbol } from '../astGrep/outline/types';
import type { SourceReader } from '../astGrep/source';
import type { TargetFile } from '../astGrep/targets';
import { unchanged, type CachedOutline } from './cache';
import type { MapSkipReason } from './collect';
import { GENERATED_MARKER, GENERATED_MARKER_SCAN } from './limits';

/** Whether the text carries a generated-file marker near its start. */
export function isGeneratedText(text: string): boolean {
  return GENERATED_MARKER.test(text.slice(0, GENERATED_MARKER_SCAN));
}

/** One file's text and symbols (`entry` is what the next call may reuse), or why it has none (`read`: whether it was read whole). */
export type Outlined = { ok: true; entry: CachedOutline } | { ok: false; read: boolean; reason: MapSkipReason };

/**
 * Reads, checks, parses and outlines files one at a time, synchronously (@ast-grep/napi's
 * parseAsync measured slower here than parse, one file or many at once), reusing the previous
 * call's outline of a file whose identity has not changed. Reused files count against the call's
 * byte limit as if read.
 */
export class FileOutliner {
  private reusedBytes = 0;

  constructor(
    private readonly reader: SourceReader,
    private readonly previous: ReadonlyMap<string, CachedOutline>,
    private readonly limits: { maxFileBytes: number; maxTotalBytes: number },
    private readonly extract: ExtractOutline,
  ) {}

  outline(file: TargetFile, step: () => boolean): Outlined {
    let stat: Stats | undefined;
    try {
      // Taken before the read, so that a change during the read shows as a change next time.
      stat = lstatSync(file.absolute);
    } catch {
      // Left to the read below, which reports why the file cannot be read.
      stat = undefined;
    }
    if (stat !== undefined && stat.size <= this.limits.maxFileBytes && this.reader.bytesRead + this.reusedBytes + stat.size > this.limits.maxTotalBytes) {
      return { ok: false, read: false, reason: 'read_cap' };
    }
    const cached = this.previous.get(file.absolute);
    if (stat !== undefined && cached !== undefined && unchanged(cached, stat)) {
      this.reusedBytes += stat.size;
      return { ok: true, entry: cached };
    }
    const source = this.reader.read(file.absolute);
    if (!source.ok) return { ok: false, read: false, reason: source.reason };
    if (stat === undefined) return { ok: false, read: true, reason: 'unreadable' };
    if (isGeneratedText(source.text)) return { ok: false, read: true, reason: 'generated' };
    if (!treeComplexity(source.text).ok) return { ok: false, read: true, reason: 'too_complex' };
    let root: SgNode;
    try {
      root = parse(napiLanguage(file.language), source.text).root();
    } catch {
      // The parser throws only on input it cannot take at all: counted, never a failure of the call.
      return { ok: false, read: true, reason: 'unparsable' };
    }
    const symbols: OutlineSymbol[] = this.extract(root, file.language, step);
    return { ok: true, entry: { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, text: source.text, symbols } };
  }
}
