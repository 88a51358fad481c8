/**
 * find's scoring, as an editor's quick-open scores: a word that matches the file name beats one
 * that matches only the folders; exact, then stem, prefix and contiguous matches beat scattered
 * ones. String tests decide the contiguous tiers; fuzzysort scores the fuzzy ones.
 */
import { charFlags, fold, fuzzysort, type Entry, type FindIndex, type Name, type Prepared } from './entries';

/** One query word, folded. */
interface Word {
  text: string;
  flags: number;
  /** A word with `/` is matched against the path only. */
  slash: boolean;
}

/** A parsed query: whitespace-separated words, all of which must match (AND). */
export interface FindQuery {
  /** The whole query folded, for the exact-name and exact-path bonus. */
  whole: string;
  /** Longest first: the most selective word rejects an entry soonest. */
  words: readonly Word[];
}

/** Splits on whitespace; `\` reads as `/`; a leading `./` is dropped; words are folded (case, accents). */
export function parseQuery(query: string): FindQuery {
  const normal = query.trim().replace(/\\/g, '/');
  const texts = new Set(normal.split(/\s+/).map((w) => fold(w.replace(/^(\.\/)+/, ''))).filter((w) => w !== ''));
  const words = [...texts].sort((a, b) => b.length - a.length).map((text) => ({ text, flags: charFlags(text), slash: text.includes('/') }));
  return { whole: fold(normal.replace(/^(\.\/)+/, '').replace(/\/+$/, '')), words };
}

// A word scores its tier plus a 0..1 score within the tier, so a higher tier always wins.
/** Added when the whole query is the entry's base name or its whole path. */
const EXACT_WHOLE = 100;
const T_EXACT = 6;
/** Base name without extension (`find` → `find.ts`); for a `/` word: a suffix at a segment start. */
const T_STEM = 5;
const T_PREFIX = 4;
/** Contiguous in the base name; for a `/` word: contiguous from a segment start. */
const T_CONTAINS = 3;
const T_FUZZY_NAME = 2;
const T_PATH_CONTAINS = 1;
const T_PATH_FUZZY = 0;
/** fuzzysort gives 1 only to an exact match, which a higher tier has taken. */
export const MAX_FUZZY = 0.999;
const NO_NAME_MATCH = -2;

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c > 127;
}

/** Whether `word` occurs in `folded` where `original` has a word start: after a non-alphanumeric, or a camelCase hump. */
function atBoundary(folded: string, original: string, word: string): boolean {
  for (let at = folded.indexOf(word); at !== -1; at = folded.indexOf(word, at + 1)) {
    if (at === 0) return true;
    const before = original.charCodeAt(at - 1);
    const first = original.charCodeAt(at);
    if (!isAlnum(before) || (first >= 65 && first <= 90 && before >= 97 && before <= 122)) return true;
  }
  return false;
}

/**
 * How many leading characters of `word` occur in order in `text` from `from` on, starting with
 * the `matched`-th. Greedy matching finds the longest such prefix, so a folder's count can be
 * memoized and continued in each of its entries' names.
 */
function inOrder(word: string, matched: number, text: string, from: number): number {
  let j = matched;
  for (let i = from; i < text.length && j < word.length; i++) if (text.charCodeAt(i) === word.charCodeAt(j)) j++;
  return j;
}

/** fuzzysort's 0..1 score; 0 when it disagrees that the word matches (it folds a few characters differently). */
function fuzzy(word: string, target: Prepared): number {
  const result = fuzzysort.single(word, target);
  return result === null ? 0 : Math.min(result.score, MAX_FUZZY);
}

/**
 * A word's value against a base name alone: a contiguous tier with its score, exactly
 * T_FUZZY_NAME for a fuzzy match (scored later, only if it can still reach the page), or
 * NO_NAME_MATCH.
 */
function nameValue(w: Word, name: Name): number {
  const word = w.text;
  const base = name.lower;
  if (base === word) return T_EXACT + 1;
  if (base.includes(word)) {
    const ratio = word.length / base.length;
    if (name.stemLower === word) return T_STEM + ratio;
    if (base.startsWith(word)) return T_PREFIX + ratio;
    return T_CONTAINS + (atBoundary(base, name.base, word) ? 0.5 : 0) + 0.5 * ratio;
  }
  if ((w.flags & name.flags) !== w.flags || inOrder(word, 0, base, 0) < word.length) return NO_NAME_MATCH;
  return T_FUZZY_NAME;
}

/** A `/` word's contiguous value against a path, or T_PATH_FUZZY (to be scored) when it occurs only scattered. */
function slashValue(word: string, e: Entry): number {
  const path = e.pathLower;
  if (path === word || e.bareLower === word) return T_EXACT + 1;
  const at = path.indexOf(word);
  if (at === -1) return T_PATH_FUZZY;
  const ratio = word.length / path.length;
  const segment = word.startsWith('/');
  if (path.endsWith(word) && (segment || path.charCodeAt(path.length - word.length - 1) === 47)) return T_STEM + ratio;
  const start = at === 0 || segment ? at : path.indexOf(`/${word}`) + 1;
  if (start > 0 || at === 0) {
    // A match that also ends where a name ends ("tools/read" in tools/read/x.ts) beats one inside a longer name (tools/reader.ts).
    const after = path.charCodeAt(start + word.length);
    return T_CONTAINS + (Number.isNaN(after) || !isAlnum(after) ? 0.5 : 0) + 0.5 * ratio;
  }
  return T_PATH_CONTAINS + 0.5 * ratio;
}

/** A plain word that is not in the base name: its contiguous value in the path, or T_PATH_FUZZY (to be scored). */
function pathValue(word: string, e: Entry): number {
  const path = e.pathLower;
  if (!path.includes(word)) return T_PATH_FUZZY;
  return T_PATH_CONTAINS + (atBoundary(path, e.display, word) ? 0.5 : 0) + 0.5 * (word.length / path.length);
}

const SETTLED = 0;
const FUZZY_NAME = 1;
const FUZZY_PATH = 2;

/**
 * Scores entries against one query. Whether a word matches is decided by an in-order character
 * test; contiguous tiers are scored by string tests; fuzzysort scores the fuzzy tiers, and only
 * for entries that can still reach the page (`settle`). Per word, a base name's value is memoized
 * by interned name and a folder's in-order prefix by interned folder, so each distinct name and
 * folder is examined once however often it repeats.
 */
export class Scorer {
  private readonly nameMemos: Float64Array[];
  private readonly fuzzyNameMemos: Float64Array[];
  private readonly parentMemos: Int32Array[];
  /** Per word of the last `bound` call: SETTLED, FUZZY_NAME or FUZZY_PATH. */
  private readonly pending: Uint8Array;
  /** How many words of the last `bound` call await a fuzzy score. */
  unsettled = 0;

  constructor(
    private readonly query: FindQuery,
    index: FindIndex,
  ) {
    this.nameMemos = query.words.map(() => new Float64Array(index.names.length).fill(NaN));
    this.fuzzyNameMemos = query.words.map(() => new Float64Array(index.names.length).fill(NaN));
    this.parentMemos = query.words.map(() => new Int32Array(index.parents.length).fill(-1));
    this.pending = new Uint8Array(query.words.length);
  }

  /** Whether word `i`'s characters occur in order in the entry's path. */
  private possible(i: number, e: Entry): boolean {
    const word = (this.query.words[i] as Word).text;
    const memo = this.parentMemos[i] as Int32Array;
    let matched = memo[e.parent.id] as number;
    if (matched < 0) matched = memo[e.parent.id] = inOrder(word, 0, e.parent.lower, 0);
    return matched === word.length || inOrder(word, matched, e.pathLower, e.parent.lower.length) === word.length;
  }

  /**
   * The entry's rank with every fuzzy score still counted as 0 (a lower bound; the rank is at
   * most `unsettled * MAX_FUZZY` more), or -1 when some word does not match.
   */
  bound(e: Entry): number {
    const words = this.query.words;
    let total = 0;
    this.unsettled = 0;
    for (let i = 0; i < words.length; i++) {
      const w = words[i] as Word;
      if ((w.flags & e.pathFlags) !== w.flags) return -1;
      let value: number;
      if (w.slash) {
        if (!this.possible(i, e)) return -1;
        value = slashValue(w.text, e);
      } else {
        const memo = this.nameMemos[i] as Float64Array;
        value = memo[e.name.id] as number;
        if (Number.isNaN(value)) value = memo[e.name.id] = nameValue(w, e.name);
        if (value === NO_NAME_MATCH) {
          if (!this.possible(i, e)) return -1;
          value = pathValue(w.text, e);
        }
      }
      const kind = value === T_PATH_FUZZY ? FUZZY_PATH : value === T_FUZZY_NAME ? FUZZY_NAME : SETTLED;
      this.pending[i] = kind;
      if (kind !== SETTLED) this.unsettled++;
      total += value;
    }
    const whole = this.query.whole;
    if (whole !== '' && (e.name.lower === whole || e.bareLower === whole)) total += EXACT_WHOLE;
    return total;
  }

  /** The exact rank of the entry just bounded: its lower bound plus fuzzysort's scores. */
  settle(e: Entry, bound: number): number {
    let total = bound;
    for (let i = 0; i < this.pending.length; i++) {
      const word = (this.query.words[i] as Word).text;
      if (this.pending[i] === FUZZY_PATH) {
        total += fuzzy(word, (e.target ??= fuzzysort.prepare(e.display)));
      } else if (this.pending[i] === FUZZY_NAME) {
        const memo = this.fuzzyNameMemos[i] as Float64Array;
        let score = memo[e.name.id] as number;
        if (Number.isNaN(score)) score = memo[e.name.id] = fuzzy(word, (e.name.target ??= fuzzysort.prepare(e.name.base)));
        total += score;
      }
    }
    return total;
  }
}
