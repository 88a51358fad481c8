import * as path from 'node:path';
import type { ToolContext } from '../definition';
import type { LanguageId } from '../astGrep/languages';
import { workInOrder, type WorkProgress } from '../astGrep/engine';
import type { OutlineSymbol } from '../astGrep/outline/types';
import type { ParsePool } from '../astGrep/workers';
import { SourceReader, type SkipReason } from '../astGrep/source';
import { Checkpoint, collectTargets, type TargetFile } from '../astGrep/targets';
import type { WalkFacts } from '../../workspace/types';
import { keepOutlines, previousOutlines, type CachedOutline } from './cache';
import * as L from './limits';
import { FilePreparer, type Prepared } from './outlines';
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
  /** Files read (parsed or not), reused outlines included. */
  scanned: number;
  /** Files parsed by this call (the others reused the previous call's outline or were skipped). */
  parsed: number;
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

/** Files between two progress reports. */
const PROGRESS_EVERY = 250;

function countSymbols(symbols: readonly OutlineSymbol[]): number {
  let n = 0;
  for (const symbol of symbols) n += 1 + symbol.members.length;
  return n;
}

/**
 * Walks the requested folder (or takes the one file), leaves out dependency, build and generated
 * code, keeps `maxFiles` of the rest (see withinFileLimit), then prepares files in path order on
 * the main thread (see FilePreparer: the previous call's outline of an unchanged file is reused)
 * while the ast_grep parse workers outline the others, under the file, byte, symbol and deadline
 * limits. What it outlined is kept for the session's next call. Cancellation throws; every other
 * reason a file is left out is counted.
 */
export async function collectSources(requested: string | undefined, terms: readonly string[], limits: CollectLimits, ctx: ToolContext, pool?: ParsePool): Promise<Collection> {
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
  const out: Collection = { files: [], scanned: 0, parsed: 0, skipped, symbols: 0, partial: targets.walk !== null && !targets.walk.scan_complete, walk: targets.walk };

  const preparer = new FilePreparer(new SourceReader(limits.maxTotalBytes, limits.maxFileBytes), previousOutlines(ctx.runtime), limits);
  const prepared = new Map<string, Prepared>();
  const prepare = (file: TargetFile): string | undefined => {
    if (prepared.size % PROGRESS_EVERY === 0) ctx.progress?.(`outlining files ${prepared.size + 1}–${Math.min(chosen.length, prepared.size + PROGRESS_EVERY)} of ${chosen.length}`);
    const outcome = preparer.prepare(file);
    prepared.set(file.absolute, outcome);
    return outcome.kind === 'parse' ? outcome.text : undefined;
  };
  const outlined = new Map<string, OutlineSymbol[]>();
  const progress: WorkProgress = { deadlineHit: false };
  for await (const { file, work } of workInOrder(chosen, { prepare, checkpoint, job: { kind: 'outline' }, pool }, progress)) {
    if (work.kind === 'outline') outlined.set(file.absolute, work.symbols);
  }

  const used = new Map<string, CachedOutline>();
  for (let i = 0; i < chosen.length; i++) {
    const file = chosen[i] as TargetFile;
    const outcome = prepared.get(file.absolute);
    const symbols = outcome?.kind === 'parse' ? outlined.get(file.absolute) : undefined;
    // Not prepared, or prepared but not outlined, before the deadline.
    if (outcome === undefined || (outcome.kind === 'parse' && symbols === undefined)) {
      out.partial = true;
      skip('deadline', chosen.length - i);
      break;
    }
    if (outcome.kind === 'skipped') {
      if (outcome.read) out.scanned++;
      skip(outcome.reason);
      continue;
    }
    out.scanned++;
    let entry: CachedOutline;
    if (outcome.kind === 'cached') {
      entry = outcome.entry;
    } else {
      const { stat, text } = outcome;
      entry = { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, text, symbols: symbols as OutlineSymbol[] };
      out.parsed++;
    }
    const count = countSymbols(entry.symbols);
    if (out.symbols + count > limits.maxSymbols) {
      skip('symbol_limit', chosen.length - i);
      break;
    }
    out.symbols += count;
    used.set(file.absolute, entry);
    out.files.push({ display: file.display, language: file.language, text: entry.text, mtimeMs: entry.mtimeMs, symbols: entry.symbols });
  }
  keepOutlines(ctx.runtime, used);
  return out;
}
