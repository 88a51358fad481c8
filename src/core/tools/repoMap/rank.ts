import type { OutlineSymbol } from '../astGrep/outline/types';
import * as L from './limits';
import { matchesTerms } from './query';
import { referenceName, visible, type References } from './references';

/** What ranking needs of a file. */
export interface RankInput {
  display: string;
  mtimeMs: number;
  symbols: readonly OutlineSymbol[];
}

export interface RankedSymbol {
  symbol: OutlineSymbol;
  score: number;
  /** Distinct other files that name it (divided among the files defining the same name). */
  referencedBy: number;
  /** Members with their scores, best first. */
  members: { symbol: OutlineSymbol; score: number }[];
}

export interface RankedFile {
  index: number;
  display: string;
  /** The best symbol's score. */
  score: number;
  /** PageRank over the reference graph, mean 1. */
  rank: number;
  recent: boolean;
  queryMatch: boolean;
  /** Top-level symbols (imports left out), best first. */
  symbols: RankedSymbol[];
}

/**
 * The recently touched files: the RECENT_FILES newest modified within RECENT_WINDOW_MS of `now`,
 * and newer than the median file — so a fresh checkout, where every file has one time, has none.
 */
export function recentFiles(files: readonly { mtimeMs: number }[], now: number): Set<number> {
  const times = files.map((f) => f.mtimeMs).sort((a, b) => a - b);
  const median = times[Math.floor((times.length - 1) / 2)] ?? 0;
  const order = files.map((_, i) => i).sort((a, b) => (files[b] as { mtimeMs: number }).mtimeMs - (files[a] as { mtimeMs: number }).mtimeMs);
  const recent = new Set<number>();
  for (const i of order.slice(0, L.RECENT_FILES)) {
    const mtime = (files[i] as { mtimeMs: number }).mtimeMs;
    if (mtime > median && now - mtime <= L.RECENT_WINDOW_MS) recent.add(i);
  }
  return recent;
}

/**
 * How much a name's occurrences mean: a compound name (`parseConfig`, `load_rules`) is specific; a
 * one-word capitalised or upper-case one (`Checkpoint`, `Point`, `COMMA`) less so, the shorter the
 * less; one plain lowercase word (`text`, `generator`) is mostly other things spelled alike.
 */
export function nameWeight(name: string): number {
  if (/[a-z0-9][A-Z]|[A-Za-z0-9]_[A-Za-z0-9]/.test(name)) return 1;
  if (/^[A-Z]/.test(name)) return name.length >= 8 ? 1 : 0.5;
  return name.length >= 8 ? 0.25 : 0.1;
}

/**
 * Edge weights of the file graph: a file naming a top-level symbol of another file it can see links
 * to it with weight nameWeight × ln(1 + occurrences), shared among the files that define the name. Members
 * (fields, methods) give no edges: their names (`start`, `name`, `get`) are too often generic.
 */
function fileGraph(n: number, refs: References): Map<number, number>[] {
  const out = Array.from({ length: n }, () => new Map<number, number>());
  for (const [name, counts] of refs.byName) {
    const definitions = (refs.definers.get(name) ?? []).filter((d) => !d.member);
    if (definitions.length === 0) continue;
    const weight = nameWeight(name);
    for (const [from, count] of counts) {
      const targets = definitions.filter((d) => visible(d, from, refs));
      const edges = out[from] as Map<number, number>;
      for (const { file } of targets) edges.set(file, (edges.get(file) ?? 0) + (weight * Math.log1p(count)) / targets.length);
    }
  }
  return out;
}

/** Personalized PageRank (teleport in proportion to `personal`), scaled so the mean is 1. */
export function pageRank(out: readonly Map<number, number>[], personal: readonly number[]): number[] {
  const n = out.length;
  if (n === 0) return [];
  const personalSum = personal.reduce((a, b) => a + b, 0);
  const teleport = personal.map((p) => p / personalSum);
  const totals = out.map((edges) => [...edges.values()].reduce((a, b) => a + b, 0));
  let rank = teleport.slice();
  for (let iteration = 0; iteration < L.PAGERANK_ITERATIONS; iteration++) {
    const next = new Array<number>(n).fill(0);
    let dangling = 0;
    for (let from = 0; from < n; from++) {
      const r = rank[from] as number;
      const total = totals[from] as number;
      if (total === 0) {
        dangling += r;
        continue;
      }
      for (const [to, weight] of out[from] as Map<number, number>) next[to] = (next[to] as number) + (L.PAGERANK_DAMPING * r * weight) / total;
    }
    // A file that names nothing elsewhere hands its rank back as teleport, as does the damping.
    const spread = 1 - L.PAGERANK_DAMPING + L.PAGERANK_DAMPING * dangling;
    rank = next.map((v, i) => v + spread * (teleport[i] as number));
  }
  return rank.map((r) => r * n);
}

/** Distinct other files that name the symbol and can see it, divided among the definitions of the name, × nameWeight. */
function referencedBy(symbol: OutlineSymbol, file: number, member: boolean, refs: References): number {
  const name = referenceName(symbol);
  const counts = name === undefined ? undefined : refs.byName.get(name);
  const definitions = name === undefined ? undefined : refs.definers.get(name);
  const definition = definitions?.find((d) => d.file === file && d.member === member);
  if (counts === undefined || definitions === undefined || definition === undefined) return 0;
  let files = 0;
  for (const from of counts.keys()) if (from !== file && visible(definition, from, refs)) files++;
  return (files * nameWeight(name as string)) / definitions.length;
}

/** How much a symbol's own traits weigh: visibility, a leading underscore (private by convention), the query. */
function symbolWeight(symbol: OutlineSymbol, terms: readonly string[]): number {
  let weight = symbol.exported ? 1 : 0.5;
  if (symbol.name.startsWith('_')) weight *= 0.5;
  if (matchesTerms(symbol.name, terms)) weight *= L.QUERY_SYMBOL_BOOST;
  return weight;
}

/**
 * Ranks files and their symbols. A file's rank is its PageRank over the reference graph, teleporting
 * towards files whose path or symbols match the query or that were touched recently. A symbol's
 * score is ln(1 + distinct other files naming it) + ln(1 + its file's rank), times its own weight
 * and its file's boost (path matches the query, recently touched); a parent also gains half of its
 * best member's references. Files are ordered by their best symbol, then by rank.
 */
export function rankFiles(files: readonly RankInput[], refs: References, terms: readonly string[], now: number): RankedFile[] {
  const recent = recentFiles(files, now);
  const pathMatch = files.map((f) => matchesTerms(f.display, terms));
  const symbolMatch = files.map((f) => f.symbols.some((s) => !s.imported && (matchesTerms(s.name, terms) || s.members.some((m) => matchesTerms(m.name, terms)))));
  const boost = files.map((_, i) => (pathMatch[i] ? L.QUERY_FILE_BOOST : 1) * (recent.has(i) ? L.RECENT_BOOST : 1));
  const personal = files.map((_, i) => (boost[i] as number) * (symbolMatch[i] ? L.QUERY_FILE_BOOST : 1));
  const rank = pageRank(fileGraph(files.length, refs), personal);
  const ranked = files.map((file, index): RankedFile => {
    const fileRank = Math.log1p(rank[index] as number);
    const fileBoost = boost[index] as number;
    const scoreOf = (symbol: OutlineSymbol, by: number): number => (Math.log1p(by) + fileRank) * symbolWeight(symbol, terms) * fileBoost;
    const symbols = file.symbols
      .filter((s) => !s.imported)
      .map((symbol): RankedSymbol => {
        const members = symbol.members.map((member) => ({ symbol: member, by: referencedBy(member, index, true, refs) }));
        const bestMember = members.reduce((best, m) => Math.max(best, m.by), 0);
        const by = referencedBy(symbol, index, false, refs) + bestMember / 2;
        return {
          symbol,
          score: scoreOf(symbol, by),
          referencedBy: by,
          members: members.map((m) => ({ symbol: m.symbol, score: scoreOf(m.symbol, m.by) })).sort((a, b) => b.score - a.score),
        };
      })
      .sort((a, b) => b.score - a.score || a.symbol.range.start.line - b.symbol.range.start.line);
    return { index, display: file.display, score: symbols[0]?.score ?? 0, rank: rank[index] as number, recent: recent.has(index), queryMatch: (pathMatch[index] || symbolMatch[index]) as boolean, symbols };
  });
  return ranked.sort((a, b) => b.score - a.score || b.rank - a.rank || (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
}
