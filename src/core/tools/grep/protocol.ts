/** Messages between the search engine (main thread) and its matching workers; plain data only. */
import type { Label } from './labels';
import type { PatternSpec } from './patterns';

export interface SearchConfig {
  /** Joined (with the platform's separator) before each file path of a batch; '' when the paths are absolute. */
  base: string;
  patterns: PatternSpec[];
  mode: 'raw' | 'ranked';
  /** Context lines on either side of each returned primary line. */
  context: number;
  /**
   * Raw mode: a batch returns at most this many matching lines (offset + limit + 1: nothing past
   * them can be shown) and stops reading once it has them.
   */
  need: number;
  /** Ranked mode: a batch returns only its best `keepFiles` files (offset + limit); the rest are counted. */
  keepFiles: number;
  /** Ranked mode: primary lines returned per file. */
  hitsPerFile: number;
  fileReadCap: number;
  maxLineChars: number;
  /**
   * Shared by every worker of one call: [0] bytes read so far (a worker reserves a file's bytes
   * before reading it and never passes `callReadCap`), [1] a stop flag the engine raises when the
   * call no longer needs results.
   */
  shared: SharedArrayBuffer;
  callReadCap: number;
}

export const SHARED_BYTES = 0;
export const SHARED_STOP = 1;

export type ToWorker = { type: 'config'; config: SearchConfig } | { type: 'batch'; id: number; base: number; files: string[] };

/** Why a file was not searched (or searched with a caveat), counted per batch. */
export interface FileStats {
  searched: number;
  binary: number;
  /** Searched with invalid sequences read as U+FFFD. */
  invalidUtf8: number;
  special: number;
  symlink: number;
  unreadable: number;
  /** Searched in their first `fileReadCap` bytes only. */
  prefixOnly: number;
  bytes: number;
  clippedLines: number;
}

export function emptyStats(): FileStats {
  return { searched: 0, binary: 0, invalidUtf8: 0, special: 0, symlink: 0, unreadable: 0, prefixOnly: 0, bytes: 0, clippedLines: 0 };
}

export function addStats(into: FileStats, from: FileStats): void {
  for (const key of Object.keys(into) as (keyof FileStats)[]) into[key] += from[key];
}

/** One file's matches as returned: counts plus the lines that may be shown, with their context. */
export interface FileHits {
  /** Index of the file in the call's (path-ordered) list. */
  index: number;
  /** Matching lines found; all of them when `exact`. */
  count: number;
  exact: boolean;
  defs: number;
  imports: number;
  prefixOnly: boolean;
  /** Primary lines that may be shown, ascending. */
  lines: number[];
  labels: Label[];
  texts: string[];
  /** Context rows around them (primary lines excluded), ascending; `ctxMatch` marks lines that match too. */
  ctxLines: number[];
  ctxTexts: string[];
  ctxMatch: boolean[];
}

export interface BatchResult {
  type: 'result';
  id: number;
  /** Files with matches (raw: in order, until `need` lines; ranked: the batch's best `keepFiles`). */
  files: FileHits[];
  /** Every matching file and line of the batch, returned or not. */
  matchedFiles: number;
  matchedLines: number;
  /** Primary lines the batch offers: raw, every matching line; ranked, at most `hitsPerFile` per file. */
  primaryLines: number;
  /** False when a file's count stopped early or the batch stopped before its end. */
  exact: boolean;
  /** Files of the batch read and accounted for: the batch stopped before the rest (stop flag, enough lines, byte cap). */
  done: number;
  /** True when the batch stopped because the call's byte cap was reached. */
  byteCap: boolean;
  stats: FileStats;
  /** Indices of files searched in their prefix only (at most a few). */
  prefixOnly: number[];
}

export type FromWorker = BatchResult | { type: 'error'; id: number; message: string };
