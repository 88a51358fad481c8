/**
 * What find keeps per walked listing: every path folded and classified once, base names interned
 * (a tree repeats `index.ts` thousands of times, so a query scores each distinct name once), and
 * fuzzysort's prepared targets made on first fuzzy use and kept for the next query.
 */
import type * as Fuzzysort from 'fuzzysort' with { 'resolution-mode': 'import' };

// fuzzysort ships only as an ES module; Node ≥ 20.19 (our engine floor) and esbuild load it through require.
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const fuzzysort = require('fuzzysort') as typeof Fuzzysort;
export type Prepared = Fuzzysort.Prepared;

/** A distinct base name (last path segment, without a directory's `/`). */
export interface Name {
  /** Position in `FindIndex.names`, the key of per-query memos. */
  readonly id: number;
  readonly base: string;
  readonly lower: string;
  /** The name before its last `.` (`find` of `find.ts`), folded. */
  readonly stemLower: string;
  readonly flags: number;
  target: Prepared | undefined;
}

/** A distinct parent folder of walked paths. */
export interface Dir {
  /** Position in `FindIndex.parents`, the key of per-query memos. */
  readonly id: number;
  /** Folded display form with its trailing `/`; '' for the top level. */
  readonly lower: string;
  readonly flags: number;
}

/** One walked path. */
export interface Entry {
  /** Output form: slash-normalized; directories end with `/`. */
  readonly display: string;
  /** Folded display form (directories keep their `/`). */
  readonly pathLower: string;
  /** Folded display form without a directory's `/`. */
  readonly bareLower: string;
  readonly pathFlags: number;
  readonly parent: Dir;
  readonly name: Name;
  target: Prepared | undefined;
}

/** Lower case with accents folded the way fuzzysort folds them, so our string tiers agree with its matches. */
export function fold(text: string): string {
  // eslint-disable-next-line no-control-regex
  return (/^[\x00-\x7f]*$/.test(text) ? text : text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '')).toLowerCase();
}

/** fuzzysort's character classes of a folded string: a-z one bit each, digits, other ASCII, non-ASCII; spaces ignored. */
export function charFlags(folded: string): number {
  let flags = 0;
  for (let i = 0; i < folded.length; i++) {
    const c = folded.charCodeAt(i);
    if (c === 32) continue;
    flags |= 1 << (c >= 97 && c <= 122 ? c - 97 : c >= 48 && c <= 57 ? 26 : c <= 127 ? 30 : 31);
  }
  return flags;
}

/** The class of `/` (other ASCII), which a directory's display form adds. */
const SLASH_FLAG = 1 << 30;

/** Windows display paths may still carry `\`; elsewhere a backslash is part of a name. */
const BACKSLASH_SEPARATOR = process.platform === 'win32';

/** The walk's files and directories, ready to rank. Build once per listing (see FindIndexCache). */
export class FindIndex {
  readonly files: readonly Entry[];
  readonly dirs: readonly Entry[];
  readonly names: Name[] = [];
  readonly parents: Dir[] = [];
  private readonly nameByBase = new Map<string, Name>();
  private readonly parentByDisplay = new Map<string, Dir>();

  constructor(
    /** The listing this index was built from, kept to recognise an unchanged one. */
    readonly sourceFiles: readonly string[],
    readonly sourceDirs: readonly string[],
  ) {
    this.files = sourceFiles.map((p) => this.entryOf(p, false));
    this.dirs = sourceDirs.map((p) => this.entryOf(p, true));
  }

  /** True when `files` and `dirs` list the same paths, in the same order, as this index. */
  matches(files: readonly string[], dirs: readonly string[]): boolean {
    return sameList(this.sourceFiles, files) && sameList(this.sourceDirs, dirs);
  }

  /** The folder of the previous entry: the walk lists a folder's entries together, so most lookups end here. */
  private lastParent: { display: string; dir: Dir } | undefined;

  private entryOf(raw: string, dir: boolean): Entry {
    let bare = BACKSLASH_SEPARATOR ? raw.replace(/\\/g, '/') : raw;
    if (bare.endsWith('/')) bare = bare.replace(/\/+$/, '');
    const slash = bare.lastIndexOf('/');
    const parent = this.parentFor(bare, slash);
    const name = this.intern(bare.slice(slash + 1));
    // Folded piecewise, so a path's folded form is exactly its folded folder then its folded name;
    // a path with nothing to fold keeps its own string.
    const folded = parent.lower.length === slash + 1 && name.lower === name.base && bare.startsWith(parent.lower) ? bare : parent.lower + name.lower;
    const pathLower = dir ? `${folded}/` : folded;
    return { display: dir ? `${bare}/` : bare, pathLower, bareLower: folded, pathFlags: parent.flags | name.flags | (dir ? SLASH_FLAG : 0), parent, name, target: undefined };
  }

  private parentFor(bare: string, slash: number): Dir {
    const last = this.lastParent;
    if (last !== undefined && last.display.length === slash + 1 && bare.startsWith(last.display)) return last.dir;
    const display = bare.slice(0, slash + 1);
    let parent = this.parentByDisplay.get(display);
    if (parent === undefined) {
      const lower = fold(display);
      parent = { id: this.parents.length, lower, flags: charFlags(lower) };
      this.parents.push(parent);
      this.parentByDisplay.set(display, parent);
    }
    this.lastParent = { display, dir: parent };
    return parent;
  }

  private intern(base: string): Name {
    let name = this.nameByBase.get(base);
    if (name === undefined) {
      const lower = fold(base);
      const dot = base.lastIndexOf('.');
      name = { id: this.names.length, base, lower, stemLower: dot > 0 ? fold(base.slice(0, dot)) : lower, flags: charFlags(lower), target: undefined };
      this.names.push(name);
      this.nameByBase.set(base, name);
    }
    return name;
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The indexes of recent walks: found by the walk result's identity, or, for a walk that rebuilt
 * equal lists (a warm listing cache may hand out new arrays), by comparing the lists, which costs
 * a small fraction of indexing them again.
 */
export class FindIndexCache {
  private readonly byResult = new WeakMap<object, FindIndex>();
  private readonly recent: FindIndex[] = [];
  /** Indexes built so far (a warm query on an unchanged tree builds none). */
  builds = 0;

  constructor(private readonly keep = 4) {}

  /** The index for a walk result; `reused` says whether an earlier one served. */
  get(result: object, files: readonly string[], dirs: readonly string[]): { index: FindIndex; reused: boolean } {
    const known = this.byResult.get(result);
    if (known) return { index: known, reused: true };
    const found = this.recent.find((i) => i.matches(files, dirs));
    const index = found ?? new FindIndex(files, dirs);
    if (found === undefined) this.builds++;
    this.byResult.set(result, index);
    const at = this.recent.indexOf(index);
    if (at !== -1) this.recent.splice(at, 1);
    this.recent.unshift(index);
    this.recent.length = Math.min(this.recent.length, this.keep);
    return { index, reused: found !== undefined };
  }
}
