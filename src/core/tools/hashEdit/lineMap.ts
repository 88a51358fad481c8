/**
 * Maps the lines of one version of a file onto another, for stale-tag recovery: which old line is
 * which current line, when that is certain. Certain means: the line is part of every longest common
 * subsequence of the two versions, always at the same place. A line that could as well have slid
 * onto an identical neighbour (a blank line, `}`, `end`) after lines were added or removed nearby
 * is left unmapped instead of guessed.
 *
 * Patience-style: the lines that occur exactly once on both sides are matched first (kept in order
 * by a longest increasing subsequence), then the same again inside each gap between them; a gap
 * without such lines is settled exactly by the two-sided LCS tables, up to a size bound past which
 * its lines stay unmapped (refused, never guessed).
 */

/** `map[k]` is the 1-based current line of old line k, or 0 when it has none. Index 0 is unused. */
export type LineMap = Int32Array;

/** Why an old line has no mapping: it was changed or removed, or it repeats so its place is unclear. */
export type Unmapped = 'changed' | 'ambiguous';

export interface Alignment {
  map: LineMap;
  /** For each old line without a mapping, why; undefined for mapped lines. */
  why(line: number): Unmapped | undefined;
}

/** Cells of the LCS tables one gap may use (two tables of 16-bit counts: 16 MB at most). */
const MAX_GAP_CELLS = 4_000_000;
/** Nesting of unique-line passes before a gap is settled by the tables, so a crafted file cannot exhaust the stack. */
const MAX_DEPTH = 64;

export function alignLines(before: readonly string[], after: readonly string[]): Alignment {
  const map = new Int32Array(before.length + 1);
  const ambiguous = new Uint8Array(before.length + 1);
  matchRange({ a: before, b: after, map, ambiguous }, 0, before.length, 0, after.length, 0);
  return {
    map,
    why: (line) => (map[line] ? undefined : ambiguous[line] ? 'ambiguous' : 'changed'),
  };
}

/** The identity map of an unchanged file. */
export function identityMap(lineCount: number): LineMap {
  const map = new Int32Array(lineCount + 1);
  for (let k = 1; k <= lineCount; k++) map[k] = k;
  return map;
}

/** `first` then `second`: old → middle → current; a line unmapped on either step stays unmapped. */
export function composeMaps(first: LineMap, second: LineMap): LineMap {
  const out = new Int32Array(first.length);
  for (let k = 1; k < first.length; k++) {
    const middle = first[k] ?? 0;
    out[k] = middle ? (second[middle] ?? 0) : 0;
  }
  return out;
}

interface Work {
  a: readonly string[];
  b: readonly string[];
  map: LineMap;
  /** 1 for old lines that match somewhere on some longest alignment, but not at one certain place. */
  ambiguous: Uint8Array;
}

/** Aligns `a[aLo, aHi)` with `b[bLo, bHi)` (0-based, half-open) into `map`. */
function matchRange(work: Work, aLo: number, aHi: number, bLo: number, bHi: number, depth: number): void {
  if (aLo === aHi || bLo === bHi) return;
  const anchors = depth < MAX_DEPTH ? uniqueAnchors(work.a, work.b, aLo, aHi, bLo, bHi) : [];
  if (anchors.length === 0) {
    settleGap(work, aLo, aHi, bLo, bHi);
    return;
  }
  let prevA = aLo;
  let prevB = bLo;
  for (const [ai, bi] of anchors) {
    matchRange(work, prevA, ai, prevB, bi, depth + 1);
    work.map[ai + 1] = bi + 1;
    prevA = ai + 1;
    prevB = bi + 1;
  }
  matchRange(work, prevA, aHi, prevB, bHi, depth + 1);
}

/** Lines occurring once in each range, as [aIndex, bIndex] pairs forming the longest in-order chain. */
function uniqueAnchors(a: readonly string[], b: readonly string[], aLo: number, aHi: number, bLo: number, bHi: number): [number, number][] {
  const counts = new Map<string, { a: number; b: number; aAt: number; bAt: number }>();
  for (let i = aLo; i < aHi; i++) {
    const text = a[i] ?? '';
    const entry = counts.get(text);
    if (entry) entry.a++;
    else counts.set(text, { a: 1, b: 0, aAt: i, bAt: -1 });
  }
  for (let j = bLo; j < bHi; j++) {
    const entry = counts.get(b[j] ?? '');
    if (!entry) continue;
    entry.b++;
    entry.bAt = j;
  }
  const pairs: [number, number][] = [];
  for (const entry of counts.values()) if (entry.a === 1 && entry.b === 1) pairs.push([entry.aAt, entry.bAt]);
  pairs.sort((x, y) => x[0] - y[0]);
  return longestIncreasing(pairs);
}

/** Longest subsequence of pairs (sorted by a) whose b also increases: patience sorting, O(n log n). */
function longestIncreasing(pairs: readonly [number, number][]): [number, number][] {
  const tails: number[] = [];
  const previous = new Int32Array(pairs.length).fill(-1);
  for (let i = 0; i < pairs.length; i++) {
    const value = pairs[i]?.[1] ?? 0;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((pairs[tails[mid] ?? 0]?.[1] ?? 0) < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1] ?? -1;
    tails[lo] = i;
  }
  const out: [number, number][] = [];
  for (let i = tails[tails.length - 1] ?? -1; i >= 0; i = previous[i] ?? -1) {
    const pair = pairs[i];
    if (pair) out.push(pair);
  }
  return out.reverse();
}

/**
 * A gap without unique common lines. With F the LCS table of the prefixes and B that of the
 * suffixes, old line i is on some longest alignment at j when F[i][j] + 1 + B[i+1][j+1] equals the
 * total, and can be left out of one when F[i][j] + B[i+1][j] does for some j. It is mapped only when
 * it cannot be left out and has exactly one such j.
 */
function settleGap(work: Work, aLo: number, aHi: number, bLo: number, bHi: number): void {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const width = m + 1;
  if ((n + 1) * width > MAX_GAP_CELLS) {
    const present = new Set(work.b.slice(bLo, bHi));
    for (let i = aLo; i < aHi; i++) if (present.has(work.a[i] ?? '')) work.ambiguous[i + 1] = 1;
    return;
  }
  const same = (i: number, j: number): boolean => work.a[aLo + i] === work.b[bLo + j];
  const prefix = new Uint16Array((n + 1) * width);
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      prefix[i * width + j] = same(i - 1, j - 1) ? (prefix[(i - 1) * width + j - 1] ?? 0) + 1 : Math.max(prefix[(i - 1) * width + j] ?? 0, prefix[i * width + j - 1] ?? 0);
    }
  }
  const suffix = new Uint16Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      suffix[i * width + j] = same(i, j) ? (suffix[(i + 1) * width + j + 1] ?? 0) + 1 : Math.max(suffix[(i + 1) * width + j] ?? 0, suffix[i * width + j + 1] ?? 0);
    }
  }
  const total = prefix[n * width + m] ?? 0;
  for (let i = 0; i < n; i++) {
    let skippable = false;
    let place = -1;
    let places = 0;
    for (let j = 0; j <= m; j++) {
      if ((prefix[i * width + j] ?? 0) + (suffix[(i + 1) * width + j] ?? 0) === total) skippable = true;
      if (j < m && same(i, j) && (prefix[i * width + j] ?? 0) + 1 + (suffix[(i + 1) * width + j + 1] ?? 0) === total) {
        place = j;
        places++;
      }
    }
    if (places === 1 && !skippable) work.map[aLo + i + 1] = bLo + place + 1;
    else if (places > 0) work.ambiguous[aLo + i + 1] = 1;
  }
}
