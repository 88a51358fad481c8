import * as path from 'node:path';
import { labelOf, type Label } from './labels';
import { LineMatcher, type LineMatches } from './matcher';
import { SHARED_BYTES, SHARED_STOP, emptyStats, type BatchResult, type FileHits, type SearchConfig } from './protocol';
import { decodeForSearch, readInto } from './reader';
import { MAX_LISTED_PATHS } from './limits';

/** One read buffer per thread, reused by every file. */
let scratch: Buffer | null = null;

function scratchOf(size: number): Buffer {
  if (scratch === null || scratch.length < size) scratch = Buffer.allocUnsafe(size);
  return scratch;
}

/** Ranked order of files: more def-like hits, then more non-import hits, then more hits, then path order. */
export function rankCompare(a: FileHits, b: FileHits): number {
  return b.defs - a.defs || b.count - b.imports - (a.count - a.imports) || b.count - a.count || a.index - b.index;
}

/** A line for display: without a trailing CR, and clipped to a window around `col` when too long. */
export function displayLine(line: string, col: number, max: number): { text: string; clipped: boolean } {
  const body = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (body.length <= max) return { text: body, clipped: false };
  let from = Math.max(0, Math.min(col - (max >> 2), body.length - max));
  if (from > 0 && /[\udc00-\udfff]/.test(body[from]!)) from--;
  let to = from + max;
  if (to < body.length && /[\ud800-\udbff]/.test(body[to - 1]!)) to--;
  return { text: (from > 0 ? '…' : '') + body.slice(from, to) + (to < body.length ? '…' : ''), clipped: true };
}

function emptyHits(index: number, m: LineMatches, labels: readonly Label[], prefixOnly: boolean): FileHits {
  let defs = 0;
  let imports = 0;
  for (const label of labels) {
    if (label === 'def-like') defs++;
    else if (label === 'import') imports++;
  }
  return { index, count: m.lines.length, exact: m.exact, defs, imports, prefixOnly, lines: [], labels: [], texts: [], ctxLines: [], ctxTexts: [], ctxMatch: [] };
}

/** Ranked mode's shown lines of a file: def-like hits first, then plain matches, then imports; shown in line order. */
export function pickRanked(labels: readonly Label[], max: number): number[] {
  const picked: number[] = [];
  for (const want of ['def-like', 'match', 'import'] as const) {
    for (let k = 0; k < labels.length && picked.length < max; k++) if (labels[k] === want) picked.push(k);
  }
  return picked.sort((a, b) => a - b);
}

/** The best `k` files by rank, without building the shown lines of files that cannot make it. */
class TopFiles {
  private files: FileHits[] = [];
  private worst: FileHits | null = null;

  constructor(private readonly k: number) {}

  wants(candidate: FileHits): boolean {
    return this.worst === null || rankCompare(candidate, this.worst) < 0;
  }

  add(hits: FileHits): void {
    this.files.push(hits);
    if (this.files.length >= 2 * this.k) this.prune();
  }

  private prune(): void {
    this.files = this.files.sort(rankCompare).slice(0, this.k);
    this.worst = this.files[this.k - 1] ?? null;
  }

  best(): FileHits[] {
    this.prune();
    return this.files;
  }
}

/** Searches batches of files for one call's configuration; runs inside a worker thread. */
export class BatchSearcher {
  private readonly matcher: LineMatcher;
  private readonly counters: Int32Array;
  private readonly prefix: string;
  private clipped = 0;

  constructor(private readonly config: SearchConfig) {
    this.matcher = new LineMatcher(config.patterns);
    this.counters = new Int32Array(config.shared);
    this.prefix = config.base === '' ? '' : config.base + path.sep;
  }

  /** Takes bytes from the call's budget (or gives them back, when negative); false when they are not there. */
  private reserve = (bytes: number): boolean => {
    const before = Atomics.add(this.counters, SHARED_BYTES, bytes);
    if (bytes <= 0 || before + bytes <= this.config.callReadCap) return true;
    Atomics.sub(this.counters, SHARED_BYTES, bytes);
    return false;
  };

  run(id: number, base: number, files: readonly string[]): BatchResult {
    const { config } = this;
    const result: BatchResult = { type: 'result', id, files: [], matchedFiles: 0, matchedLines: 0, primaryLines: 0, exact: true, done: files.length, byteCap: false, stats: emptyStats(), prefixOnly: [] };
    const { stats } = result;
    const buffer = scratchOf(config.fileReadCap + 1);
    let rawLines = 0;
    const top = new TopFiles(config.keepFiles);
    this.clipped = 0;
    for (let i = 0; i < files.length; i++) {
      if (Atomics.load(this.counters, SHARED_STOP) !== 0) {
        result.done = i;
        result.exact = false;
        break;
      }
      const read = readInto(this.prefix + files[i]!, buffer, config.fileReadCap, this.reserve);
      if (read.status === 'over-budget') {
        result.done = i;
        result.byteCap = true;
        result.exact = false;
        break;
      }
      if (read.status !== 'ok') {
        stats[read.status]++;
        continue;
      }
      stats.bytes += read.length;
      const decoded = decodeForSearch(buffer.subarray(0, read.length), read.prefixOnly, (b) => this.matcher.mayMatch(b));
      if (decoded.kind === 'binary') {
        stats.binary++;
        continue;
      }
      stats.searched++;
      if (decoded.invalidUtf8) stats.invalidUtf8++;
      if (read.prefixOnly) {
        stats.prefixOnly++;
        if (result.prefixOnly.length < MAX_LISTED_PATHS) result.prefixOnly.push(base + i);
      }
      if (decoded.kind === 'no-match') continue;

      const max = config.mode === 'raw' ? config.need - rawLines : Infinity;
      const matches = this.matcher.search(decoded.text, max);
      if (matches.lines.length === 0) continue;
      result.matchedFiles++;
      result.matchedLines += matches.lines.length;
      result.primaryLines += config.mode === 'ranked' ? Math.min(matches.lines.length, config.hitsPerFile) : matches.lines.length;
      if (!matches.exact) result.exact = false;
      if (config.mode === 'ranked') {
        const labels = matches.lines.map((_, k) => labelOf(decoded.text.slice(matches.starts[k], matches.ends[k])));
        const hits = emptyHits(base + i, matches, labels, read.prefixOnly);
        if (top.wants(hits)) top.add(this.fill(hits, decoded.text, matches, pickRanked(labels, config.hitsPerFile), labels));
      } else {
        const hits = this.fill(emptyHits(base + i, matches, [], read.prefixOnly), decoded.text, matches, matches.lines.map((_, k) => k), []);
        result.files.push(hits);
        rawLines += hits.lines.length;
        if (rawLines >= config.need) {
          // Nothing after this line can be shown; the rest of the batch is not read.
          if (i + 1 < files.length) result.exact = false;
          result.done = i + 1;
          break;
        }
      }
    }
    stats.clippedLines = this.clipped;
    if (config.mode === 'ranked') result.files = top.best();
    return result;
  }

  /** Adds the shown lines (`chosen`, indices into `m`) and their context to `hits`. */
  private fill(hits: FileHits, text: string, m: LineMatches, chosen: number[], labels: Label[]): FileHits {
    for (const k of chosen) {
      const shown = displayLine(text.slice(m.starts[k], m.ends[k]), m.cols[k]!, this.config.maxLineChars);
      hits.lines.push(m.lines[k]!);
      hits.texts.push(shown.text);
      if (shown.clipped) this.clipped++;
      if (labels.length) hits.labels.push(labels[k]!);
    }
    if (this.config.context > 0) this.addContext(hits, text, m, chosen);
    return hits;
  }

  /** Context rows around the chosen lines, each line once, primary lines left out. */
  private addContext(hits: FileHits, text: string, m: LineMatches, chosen: number[]): void {
    const c = this.config.context;
    const primary = new Set(hits.lines);
    const rows = new Map<number, string>();
    for (const k of chosen) {
      let start = m.starts[k]!;
      for (let d = 1; d <= c && start > 0; d++) {
        const end = start - 1;
        start = text.lastIndexOf('\n', end - 1) + 1;
        const line = m.lines[k]! - d;
        if (!primary.has(line)) rows.set(line, text.slice(start, end));
      }
      let end = m.ends[k]!;
      for (let d = 1; d <= c && end + 1 < text.length; d++) {
        const start2 = end + 1;
        end = text.indexOf('\n', start2);
        if (end === -1) end = text.length;
        const line = m.lines[k]! + d;
        if (!primary.has(line)) rows.set(line, text.slice(start2, end));
      }
    }
    for (const line of [...rows.keys()].sort((a, b) => a - b)) {
      const raw = rows.get(line)!;
      hits.ctxLines.push(line);
      hits.ctxTexts.push(displayLine(raw, 0, this.config.maxLineChars).text);
      hits.ctxMatch.push(this.matcher.matchesLine(raw));
    }
  }
}
