import { parse, type SgNode } from '@ast-grep/napi';
import { statSync } from 'node:fs';
import * as path from 'node:path';
import type { ToolContext } from '../definition';
import { treeComplexity } from '../astGrep/complexity';
import { napiLanguage, type LanguageId } from '../astGrep/languages';
import type { ExtractOutline, OutlineSymbol } from '../astGrep/outline/types';
import { SourceReader, type SkipReason } from '../astGrep/source';
import { Checkpoint, collectTargets, type TargetFile } from '../astGrep/targets';
import type { WalkFacts } from '../../workspace/types';
import * as L from './limits';
import { matchesTerms } from './query';

/** The languages repo_map maps (the seed's Rust/Python/TypeScript/TSX/Go). */
export const MAP_LANGUAGES: readonly LanguageId[] = ['rust', 'python', 'typescript', 'tsx', 'go'];

/** One parsed file: its text (for reference counting), modification time and symbols. */
export interface SourceFile {
  display: string;
  language: LanguageId;
  text: string;
  mtimeMs: number;
  symbols: OutlineSymbol[];
}

/** Why a file of a mapped language was left out; counted per reason in `skip_reasons`. */
export type MapSkipReason = SkipReason | 'vendored' | 'generated' | 'file_limit' | 'symbol_limit' | 'unparsable' | 'deadline';

export interface Collection {
  files: SourceFile[];
  /** Files read (parsed or not). */
  scanned: number;
  skipped: Map<MapSkipReason, number>;
  symbols: number;
  /** The deadline passed or the walk was incomplete: later files were not looked at. */
  partial: boolean;
  walk: WalkFacts | null;
}

export interface CollectLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
  maxSymbols: number;
  deadline: number;
}

export const DEFAULT_COLLECT_LIMITS: Omit<CollectLimits, 'deadline'> = {
  maxFiles: L.MAX_FILES,
  maxFileBytes: L.MAX_FILE_BYTES,
  maxTotalBytes: L.MAX_TOTAL_BYTES,
  maxSymbols: L.MAX_SYMBOLS,
};

/** Whether a path below the requested folder (`/`-separated) is dependency, build or generated code by its name. */
export function isSkippedPath(relative: string): boolean {
  const parts = relative.split('/');
  const name = parts.pop() ?? '';
  return parts.some((dir) => L.SKIPPED_DIRS.has(dir)) || L.SKIPPED_FILE.test(name);
}

/** Whether the text carries a generated-file marker near its start. */
export function isGeneratedText(text: string): boolean {
  return L.GENERATED_MARKER.test(text.slice(0, L.GENERATED_MARKER_SCAN));
}

/**
 * The files to parse when there are more than `maxFiles`: those whose path matches the query
 * first, then the shallowest, then path order; returned in path order.
 */
export function withinFileLimit<T extends { display: string }>(files: readonly T[], maxFiles: number, terms: readonly string[]): T[] {
  if (files.length <= maxFiles) return [...files];
  const depth = (file: T): number => file.display.split('/').length;
  const priority = files.map((file, index) => ({ index, match: matchesTerms(file.display, terms) ? 0 : 1, depth: depth(file) }));
  priority.sort((a, b) => a.match - b.match || a.depth - b.depth || a.index - b.index);
  return priority
    .slice(0, maxFiles)
    .sort((a, b) => a.index - b.index)
    .map((p) => files[p.index] as T);
}

function countSymbols(symbols: readonly OutlineSymbol[]): number {
  let n = 0;
  for (const symbol of symbols) n += 1 + symbol.members.length;
  return n;
}

/**
 * Walks the requested folder (or takes the one file), leaves out dependency, build and generated
 * code, keeps `maxFiles` of the rest (see withinFileLimit), then reads, checks and outlines files in path order under the file, byte, symbol and
 * deadline limits, yielding to the event loop every few milliseconds (Checkpoint.breathe).
 * Cancellation throws; every other reason a file is left out is counted.
 */
export async function collectSources(requested: string | undefined, terms: readonly string[], extract: ExtractOutline, limits: CollectLimits, ctx: ToolContext): Promise<Collection> {
  const targets = await collectTargets({ tool: 'repo_map', path: requested, language: undefined, languages: MAP_LANGUAGES, maxFiles: Number.MAX_SAFE_INTEGER, deadline: limits.deadline }, ctx);
  const skipped = new Map<MapSkipReason, number>();
  const skip = (reason: MapSkipReason, n = 1): void => {
    if (n > 0) skipped.set(reason, (skipped.get(reason) ?? 0) + n);
  };
  // Skipped folders count below the requested folder only, so asking for `vendor/x` maps it.
  const base = targets.walk === null ? undefined : requested === undefined ? ctx.runtime.root : (await ctx.runtime.resolve('repo_map', requested, 'read')).canonical;
  const kept = targets.files.filter((file) => {
    const vendored = base !== undefined && isSkippedPath(path.relative(base, file.absolute).split(path.sep).join('/'));
    if (vendored) skip('vendored');
    return !vendored;
  });
  const chosen = withinFileLimit(kept, limits.maxFiles, terms);
  skip('file_limit', kept.length - chosen.length);
  const checkpoint = new Checkpoint(ctx.signal, limits.deadline);
  const reader = new SourceReader(limits.maxTotalBytes, limits.maxFileBytes);
  const out: Collection = { files: [], scanned: 0, skipped, symbols: 0, partial: targets.walk !== null && !targets.walk.scan_complete, walk: targets.walk };
  const step = (): boolean => !checkpoint.expired();
  for (let i = 0; i < chosen.length; i++) {
    await checkpoint.breathe();
    if (checkpoint.expired()) {
      out.partial = true;
      skip('deadline', chosen.length - i);
      break;
    }
    const file = chosen[i] as TargetFile;
    const parsed = parseFile(file, reader);
    if (parsed.read) out.scanned++;
    if (!parsed.ok) {
      skip(parsed.reason);
      continue;
    }
    const symbols = extract(parsed.root, file.language, step);
    if (checkpoint.expired()) out.partial = true;
    const count = countSymbols(symbols);
    if (out.symbols + count > limits.maxSymbols) {
      skip('symbol_limit', chosen.length - i);
      break;
    }
    out.symbols += count;
    out.files.push({ display: file.display, language: file.language, text: parsed.text, mtimeMs: parsed.mtimeMs, symbols });
  }
  return out;
}

/** A file read, checked and parsed, or why it was not (`read`: whether it was read whole). */
type Parsed = { ok: true; read: true; text: string; root: SgNode; mtimeMs: number } | { ok: false; read: boolean; reason: MapSkipReason };

/**
 * Reads, checks and parses one file, synchronously: @ast-grep/napi's parseAsync measured slower
 * here than parse, one file or many at once.
 */
function parseFile(file: TargetFile, reader: SourceReader): Parsed {
  const source = reader.read(file.absolute);
  if (!source.ok) return { ok: false, read: false, reason: source.reason };
  if (isGeneratedText(source.text)) return { ok: false, read: true, reason: 'generated' };
  if (!treeComplexity(source.text).ok) return { ok: false, read: true, reason: 'too_complex' };
  let mtimeMs: number;
  let root: SgNode;
  try {
    mtimeMs = statSync(file.absolute).mtimeMs;
  } catch {
    // Gone since it was read: counted like any unreadable file.
    return { ok: false, read: true, reason: 'unreadable' };
  }
  try {
    root = parse(napiLanguage(file.language), source.text).root();
  } catch {
    // The parser throws only on input it cannot take at all: counted, never a failure of the call.
    return { ok: false, read: true, reason: 'unparsable' };
  }
  return { ok: true, read: true, text: source.text, root, mtimeMs };
}
