import * as fs from 'node:fs';
import type { Dirent, Stats } from 'node:fs';
import * as path from 'node:path';
import { compareBytes, needsByteCompare } from './pathOrder';
import { RuleSet } from './ignoreRules';

/** Entry kinds of a listing. Symlinks are never followed: git lists them as files. */
export const FILE = 0;
export const DIR = 1;
export const SYMLINK = 2;
export const SPECIAL = 3;

/** The walker's filtered view of a listing under one ignore context (`key`); derived, never file bytes. */
export interface ListingView {
  key: string;
  /** Indices into the listing of the entries kept, in listing order. */
  kept: number[];
  /** Their paths relative to the walk base, with `/`. */
  rels: string[];
  /**
   * Per kept entry, 1 for a folder that an ignore rule excludes but that holds tracked files: it is
   * entered for those alone. Undefined when there is none (the usual case).
   */
  trackedOnly: Uint8Array | undefined;
  specials: number;
}

/** One directory's direct children, sorted in path byte order (a directory `d` sorts as `d/`). */
export interface Listing {
  readonly names: readonly string[];
  readonly kinds: Uint8Array;
  /** Set by the walker; replaced when the ignore context differs. */
  view: ListingView | undefined;
}

export interface ListingCacheOptions {
  /** A listing older than this is read again even when the directory's mtime is unchanged. Default 5 minutes. */
  ttlMs?: number;
  /**
   * A listing read less than this long after the directory's mtime is not trusted: a change in the
   * same timestamp tick would keep the mtime (git's "racy" entries). Default 2 s, which covers
   * filesystems with one- or two-second timestamps.
   */
  racyMs?: number;
  /** Entry names kept across all listings before the oldest listings are dropped. Default 2,000,000. */
  maxNames?: number;
  /** Wall clock in ms (tests move it). */
  now?: () => number;
}

interface Stamp {
  /** 0 until a `stat` has seen the directory (listings are first read without one). */
  ino: number;
  /** Files only: what the `stat` before the read saw. */
  mtimeMs: number;
  size: number;
  /** Wall-clock time just before the content was read. */
  readAt: number;
}

interface Cached<T> {
  stamp: Stamp;
  value: T;
}

/** Rule and configuration files are read only this far (the seeds ask for bounded reads). */
export const MAX_RULE_FILE_BYTES = 1024 * 1024;
export const MAX_CONFIG_FILE_BYTES = 64 * 1024;

function kindOf(entry: Dirent): number {
  if (entry.isFile()) return FILE;
  if (entry.isSymbolicLink()) return SYMLINK;
  return SPECIAL;
}

/**
 * Sorts by path key — a directory `d` as `d/` — so that a depth-first walk emits paths in byte
 * order. The keys are sorted as plain strings (the engine's fast path); only listings holding
 * characters where UTF-16 and byte order disagree take the slower comparator.
 */
function sortedListing(entries: Dirent[]): Listing {
  const keys = new Array<string>(entries.length);
  let others: Map<string, number> | undefined;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as Dirent;
    if (entry.isDirectory()) keys[i] = entry.name + '/';
    else {
      keys[i] = entry.name;
      const kind = kindOf(entry);
      if (kind !== FILE) (others ??= new Map()).set(entry.name, kind);
    }
  }
  if (needsByteCompare(keys)) keys.sort(compareBytes);
  else keys.sort();
  const names = keys; // reused in place: directory keys lose their slash below
  const kinds = new Uint8Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key.charCodeAt(key.length - 1) === 0x2f) {
      names[i] = key.slice(0, -1);
      kinds[i] = DIR;
    } else if (others) {
      kinds[i] = others.get(key) ?? FILE;
    }
  }
  return { names, kinds, view: undefined };
}

/** Reads at most `limit` bytes; a cut file keeps its complete lines only. */
function readBounded(file: string, limit: number): string {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(limit + 1);
    const bytesRead = fs.readSync(fd, buffer, 0, limit + 1, 0);
    if (bytesRead <= limit) return buffer.toString('utf8', 0, bytesRead);
    const lastNewline = buffer.lastIndexOf(0x0a, limit - 1);
    return buffer.toString('utf8', 0, lastNewline + 1);
  } finally {
    fs.closeSync(fd);
  }
}

/** A whole file, or null when it is larger than `limit` (then nothing is read). */
function readWhole(file: string, limit: number): Buffer | null {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    if (size > limit) return null;
    const buffer = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const n = fs.readSync(fd, buffer, filled, size - filled, filled);
      if (n === 0) break; // cut while read: what was read is what there is
      filled += n;
    }
    return buffer.subarray(0, filled);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The `fs_cache` of the seeds: directory listings keyed by path and checked on every use against
 * the directory's mtime (and inode), with a TTL; never file bytes. A listing is trusted while the
 * directory's mtime is older than the moment its read began (by `racyMs`, so that a change in the
 * same timestamp tick is never missed, as git treats "racily clean" entries): no stat is needed
 * when a listing is first read, and a warm walk needs one `stat` per directory and reads nothing.
 * It also keeps the parsed rules of ignore files, the tracked paths of the git index and the few
 * values read from git and Perforce configuration files, keyed by each file's mtime, size and
 * inode. One per ToolRuntime, shared by every tool of the session.
 */
export class ListingCache {
  private readonly listings = new Map<string, Cached<Listing>>();
  private readonly files = new Map<string, Cached<unknown>>();
  private names = 0;
  private readonly ttlMs: number;
  private readonly racyMs: number;
  private readonly maxNames: number;
  private readonly now: () => number;

  constructor(options: ListingCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.racyMs = options.racyMs ?? 2000;
    this.maxNames = options.maxNames ?? 2_000_000;
    this.now = options.now ?? Date.now;
  }

  /** Whether a listing of the directory is cached (valid or not); no system call. */
  has(dir: string): boolean {
    return this.listings.has(dir);
  }

  /** Directories currently cached. */
  get size(): number {
    return this.listings.size;
  }

  clear(): void {
    this.listings.clear();
    this.files.clear();
    this.names = 0;
  }

  private unchangedSince(stamp: Stamp, stat: Stats): boolean {
    return stat.mtimeMs < stamp.readAt - this.racyMs && this.now() - stamp.readAt <= this.ttlMs;
  }

  /**
   * The cached listing of a directory if it is still valid, checked with one synchronous `stat`
   * (see walker.ts on why synchronous); undefined when there is none or it is stale. A listing read without a `stat` has no inode yet: it is trusted only when
   * `unverifiedOk` (the walker passes false below a directory it had to read again, where a
   * directory moved in from elsewhere could carry an old mtime). Throws what `stat` throws.
   */
  cached(dir: string, unverifiedOk: boolean): { listing: Listing | undefined; ino: number } {
    const cached = this.listings.get(dir);
    if (!cached) return { listing: undefined, ino: 0 };
    const stat = fs.statSync(dir);
    const stamp = cached.stamp;
    const sameDir = stamp.ino === 0 ? unverifiedOk : stamp.ino === stat.ino;
    if (!sameDir || !this.unchangedSince(stamp, stat)) return { listing: undefined, ino: stat.ino };
    stamp.ino = stat.ino;
    return { listing: cached.value, ino: stat.ino };
  }

  /** Reads a directory now and caches it; `ino` is the inode a `stat` just before saw, or 0. */
  readSync(dir: string, ino: number): Listing {
    const readAt = this.now();
    return this.store(dir, ino, readAt, sortedListing(fs.readdirSync(dir, { withFileTypes: true })));
  }

  /** The listing of a directory, from the cache or read now (after a `stat`, so its inode is known); throws what readdir throws. */
  list(dir: string): Listing {
    const { listing, ino } = this.cached(dir, true);
    return listing ?? this.readSync(dir, ino || fs.statSync(dir).ino);
  }

  private store(dir: string, ino: number, readAt: number, listing: Listing): Listing {
    const old = this.listings.get(dir);
    if (old) {
      this.names -= old.value.names.length;
      this.listings.delete(dir);
    }
    this.listings.set(dir, { stamp: { ino, mtimeMs: 0, size: 0, readAt }, value: listing });
    this.names += listing.names.length;
    for (const [key, entry] of this.listings) {
      if (this.names <= this.maxNames) break;
      this.names -= entry.value.names.length;
      this.listings.delete(key);
    }
    return listing;
  }

  /**
   * A small file's derived value (parsed rules, a configuration value), recomputed only when the
   * file changed; undefined when the file does not exist or is not a regular file.
   */
  derived<T>(file: string, limit: number, derive: (text: string, file: string) => T): T | undefined {
    return this.derivedFrom(file, () => derive(readBounded(file, limit), file));
  }

  /**
   * The same for a binary file read whole (the git index): `derive` gets its bytes, or null when
   * it is larger than `limit`, which is then not read at all.
   */
  derivedBytes<T>(file: string, limit: number, derive: (bytes: Buffer | null, file: string) => T): T | undefined {
    return this.derivedFrom(file, () => derive(readWhole(file, limit), file));
  }

  private derivedFrom<T>(file: string, compute: () => T): T | undefined {
    const readAt = this.now();
    const stat = statIfExists(file);
    if (!stat?.isFile()) return undefined;
    const cached = this.files.get(file) as Cached<T> | undefined;
    const s = cached?.stamp;
    if (cached && s && s.ino === stat.ino && s.size === stat.size && s.mtimeMs === stat.mtimeMs && this.unchangedSince(s, stat)) return cached.value;
    const value = compute();
    this.files.set(file, { stamp: { ino: stat.ino, mtimeMs: stat.mtimeMs, size: stat.size, readAt }, value });
    return value;
  }

  /** The value last derived from `file`, valid or not (so that an unchanged result can keep its identity). */
  previous(file: string): unknown {
    return this.files.get(file)?.value;
  }

  /**
   * The parsed rules of an ignore file, or undefined when it is missing or has no rules. Unchanged
   * text keeps the same RuleSet (and id), so a touched but identical file keeps the cached views.
   */
  rules(file: string): RuleSet | undefined {
    const previous = this.previous(file);
    const rules = this.derived(file, MAX_RULE_FILE_BYTES, (text, source) =>
      previous instanceof RuleSet && previous.text === text ? previous : new RuleSet(source, text));
    return rules && !rules.empty ? rules : undefined;
  }
}

/** `stat`, or undefined when the path (or a folder on it) does not exist. */
export function statIfExists(file: string): Stats | undefined {
  try {
    return fs.statSync(file, { throwIfNoEntry: false });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw err;
  }
}

/** Joins a directory and an entry name without `path.join`'s normalisation cost. */
export function childPath(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}
