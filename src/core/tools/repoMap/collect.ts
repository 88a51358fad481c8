import { parse } from '@ast-grep/napi';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { ToolContext } from '../definition';
import { treeComplexity } from '../astGrep/complexity';
import { napiLanguage, type LanguageId } from '../astGrep/languages';
import type { ExtractOutline, OutlineSymbol } from '../astGrep/outline/types';
import { SourceReader, type SkipReason } from '../astGrep/source';
import { Checkpoint, collectTargets, type TargetFile } from '../astGrep/targets';
import type { WalkFacts } from '../../workspace/types';
import * as L from './limits';

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

function countSymbols(symbols: readonly OutlineSymbol[]): number {
  let n = 0;
  for (const symbol of symbols) n += 1 + symbol.members.length;
  return n;
}

/**
 * Walks the requested folder (or takes the one file), leaves out dependency, build and generated
 * code, then reads, checks and outlines files in path order under the file, byte, symbol and
 * deadline limits. Cancellation throws; every other reason a file is left out is counted.
 */
export async function collectSources(requested: string | undefined, extract: ExtractOutline, limits: CollectLimits, ctx: ToolContext): Promise<Collection> {
  const targets = await collectTargets({ tool: 'repo_map', path: requested, language: undefined, languages: MAP_LANGUAGES, maxFiles: Number.MAX_SAFE_INTEGER, deadline: limits.deadline }, ctx);
  const skipped = new Map<MapSkipReason, number>();
  const skip = (reason: MapSkipReason, n = 1): void => {
    skipped.set(reason, (skipped.get(reason) ?? 0) + n);
  };
  // Skipped folders count below the requested folder only, so asking for `vendor/x` maps it.
  const base = targets.walk === null ? undefined : requested === undefined ? ctx.runtime.root : (await ctx.runtime.resolve('repo_map', requested, 'read')).canonical;
  const chosen: TargetFile[] = [];
  for (const file of targets.files) {
    if (base !== undefined && isSkippedPath(path.relative(base, file.absolute).split(path.sep).join('/'))) skip('vendored');
    else if (chosen.length >= limits.maxFiles) skip('file_limit');
    else chosen.push(file);
  }
  const checkpoint = new Checkpoint(ctx.signal, limits.deadline);
  const reader = new SourceReader(limits.maxTotalBytes, limits.maxFileBytes);
  const out: Collection = { files: [], scanned: 0, skipped, symbols: 0, partial: targets.walk !== null && !targets.walk.scan_complete, walk: targets.walk };
  const step = (): boolean => !checkpoint.expired();
  for (let i = 0; i < chosen.length; i++) {
    const file = chosen[i] as TargetFile;
    if (checkpoint.expired()) {
      out.partial = true;
      skip('deadline', chosen.length - i);
      break;
    }
    if (out.symbols >= limits.maxSymbols) {
      skip('symbol_limit', chosen.length - i);
      break;
    }
    const read = await reader.read(file.absolute);
    ctx.signal.throwIfAborted();
    if (!read.ok) {
      skip(read.reason);
      continue;
    }
    out.scanned++;
    if (isGeneratedText(read.text)) {
      skip('generated');
      continue;
    }
    if (!treeComplexity(read.text).ok) {
      skip('too_complex');
      continue;
    }
    const symbols = outlineOf(read.text, file.language, extract, step);
    if (symbols === undefined) {
      skip('unparsable');
      continue;
    }
    if (checkpoint.expired()) out.partial = true;
    const count = countSymbols(symbols);
    if (out.symbols + count > limits.maxSymbols) {
      skip('symbol_limit', chosen.length - i);
      break;
    }
    const stat = await fsp.stat(file.absolute).catch((err: NodeJS.ErrnoException) => err);
    if (stat instanceof Error) {
      skip('unreadable');
      continue;
    }
    out.symbols += count;
    out.files.push({ display: file.display, language: file.language, text: read.text, mtimeMs: stat.mtimeMs, symbols });
  }
  return out;
}

/** The file's symbols, or undefined when the parser rejects the text (counted, never thrown to the model). */
function outlineOf(text: string, language: LanguageId, extract: ExtractOutline, step: () => boolean): OutlineSymbol[] | undefined {
  let root;
  try {
    root = parse(napiLanguage(language), text).root();
  } catch {
    // The parser throws only on input it cannot take at all; the caller counts the file as unparsable.
    return undefined;
  }
  return extract(root, language, step);
}
