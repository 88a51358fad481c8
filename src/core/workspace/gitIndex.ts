/**
 * A reader of git's index file (`.git/index`, gitformat-index(5)) for the one thing the walker
 * needs from it: which paths are tracked, since an ignore rule never hides a tracked file. Versions
 * 2, 3 and 4, SHA-1 and SHA-256 object names; optional extensions (TREE, REUC, UNTR, EOIE …) are
 * skipped. A split index (`link`) and a sparse index (`sdir`, directory entries) are refused, as
 * is anything that does not parse: every length is checked against the buffer, so a truncated or
 * hostile file ends in a GitIndexError, never in a crash, a hang or a huge allocation (the order
 * of a version 2 or 3 index is trusted, as git trusts it; see parseGitIndex).
 * No npm package fits: isomorphic-git reads the index only inside a whole git implementation, and
 * the small parsers stop at version 2 or 3.
 */
import * as path from 'node:path';
import { objectNameBytes, type GitRepo } from './gitConfig';
import type { ListingCache } from './listingCache';
import { errnoOf } from '../fs/paths';

/** Larger indexes are refused without being read (100,000 tracked files take about 10 MiB). */
export const MAX_INDEX_BYTES = 64 * 1024 * 1024;
/** Version 4 stores paths prefix-compressed; rebuilt, they may take at most this much. */
const MAX_PATH_BYTES = 256 * 1024 * 1024;
/** ctime, mtime (8 bytes each), dev, ino, mode, uid, gid, size (4 bytes each). */
const STAT_BYTES = 40;
const EXTENDED = 0x4000;
const NAME_MASK = 0xfff;
/** The object type in bits 15–12 of an entry's mode: 0100 is a directory (a sparse index's entry). */
const TYPE_DIRECTORY = 0x4;

export type GitIndexProblem = 'too_large' | 'not_an_index' | 'unsupported_version' | 'unsupported_hash' | 'corrupt' | 'split_index' | 'sparse_index' | 'unknown_extension' | 'unreadable';

/** Why an index is not used; the message says what is wrong and, where there is one, the git command that changes it. */
export class GitIndexError extends Error {
  constructor(
    readonly code: GitIndexProblem,
    message: string,
  ) {
    super(message);
    this.name = 'GitIndexError';
  }
}

const corrupt = (detail: string): GitIndexError => new GitIndexError('corrupt', `it is not a valid git index (${detail}); \`git status\` says whether git can read it`);

/** Byte order of bytes[as, ae) against bytes[bs, be) (the two may be the same buffer). */
function compareRanges(a: Uint8Array, as: number, ae: number, b: Uint8Array, bs: number, be: number): number {
  const n = Math.min(ae - as, be - bs);
  for (let k = 0; k < n; k++) {
    const d = (a[as + k] as number) - (b[bs + k] as number);
    if (d !== 0) return d;
  }
  return ae - as - (be - bs);
}

let nextId = 1;

/**
 * The tracked paths of one index, relative to the worktree, in git's order (byte order; a path in
 * conflict appears once per stage). Immutable; `id` names it in cache keys.
 */
export class GitIndex {
  readonly id = nextId++;

  constructor(
    readonly version: number,
    /** Entries as the file counts them (each stage of a conflict is one). */
    readonly entries: number,
    private readonly bytes: Buffer,
    private readonly starts: Uint32Array,
    private readonly ends: Uint32Array,
  ) {}

  /** The first entry whose path is at or after `query` in byte order. */
  private lowerBound(query: Buffer): number {
    let lo = 0;
    let hi = this.entries;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareRanges(this.bytes, this.starts[mid] as number, this.ends[mid] as number, query, 0, query.length) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Whether `path` (relative to the worktree, with `/`) is tracked as a file, a symlink or a submodule. */
  has(path: string): boolean {
    const query = Buffer.from(path, 'utf8');
    const i = this.lowerBound(query);
    return i < this.entries && compareRanges(this.bytes, this.starts[i] as number, this.ends[i] as number, query, 0, query.length) === 0;
  }

  /** Whether any tracked path lies below the folder `dir` (relative to the worktree, with `/`, no trailing `/`). */
  hasUnder(dir: string): boolean {
    const query = Buffer.from(dir + '/', 'utf8');
    const i = this.lowerBound(query);
    if (i === this.entries) return false;
    const start = this.starts[i] as number;
    return (this.ends[i] as number) - start >= query.length && compareRanges(this.bytes, start, start + query.length, query, 0, query.length) === 0;
  }

  /** Every tracked path once, in order (conflict stages merged). */
  paths(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.entries; i++) {
      const path = this.bytes.toString('utf8', this.starts[i], this.ends[i]);
      if (out[out.length - 1] !== path) out.push(path);
    }
    return out;
  }

  /** Whether the two hold the same paths (a `git status` that only refreshed stat data rewrites the file, not the list). */
  samePaths(other: GitIndex): boolean {
    if (other.entries !== this.entries) return false;
    for (let i = 0; i < this.entries; i++) {
      if (compareRanges(this.bytes, this.starts[i] as number, this.ends[i] as number, other.bytes, other.starts[i] as number, other.ends[i] as number) !== 0) return false;
    }
    return true;
  }
}

/**
 * git's varint of index version 4 (varint.c): seven bits a byte, high bit set while more follow,
 * and one added before each shift. Returns the value and the offset after it.
 */
function readVarint(bytes: Buffer, at: number, end: number): [number, number] {
  let p = at;
  if (p >= end) throw corrupt('truncated entry');
  let c = bytes[p++] as number;
  let value = c & 0x7f;
  while (c & 0x80) {
    if (p >= end) throw corrupt('truncated entry');
    // Past 2^35 it is no path length: refuse before the arithmetic loses precision.
    if (value >= 2 ** 28) throw corrupt('prefix length out of range');
    c = bytes[p++] as number;
    value = (value + 1) * 128 + (c & 0x7f);
  }
  return [value, p];
}

/** The extensions after the entries, from `at` to the checksum at `end`: optional ones are skipped. */
function checkExtensions(bytes: Buffer, at: number, end: number): void {
  let p = at;
  while (p < end) {
    if (end - p < 8) throw corrupt('truncated extension');
    const signature = bytes.toString('latin1', p, p + 4);
    const size = bytes.readUInt32BE(p + 4);
    if (size > end - p - 8) throw corrupt(`extension ${JSON.stringify(signature)} runs past the end`);
    if (signature === 'link') throw new GitIndexError('split_index', 'it is a split index (its entries live in a sharedindex file), which Magi does not read; `git update-index --no-split-index` turns it back into one file');
    if (signature === 'sdir') throw new GitIndexError('sparse_index', 'it is a sparse index, which Magi does not read; `git sparse-checkout init --no-sparse-index` (or `git config index.sparse false` and `git sparse-checkout reapply`) expands it');
    // An extension whose signature starts with A–Z is optional: git's readers may skip it.
    const first = bytes[p] as number;
    if (first < 0x41 || first > 0x5a) throw new GitIndexError('unknown_extension', `it uses the extension ${JSON.stringify(signature)}, which git requires a reader to understand and Magi does not`);
    p += 8 + size;
  }
}

/**
 * Parses an index read whole; `hashBytes` is 20 (SHA-1) or 32 (SHA-256, extensions.objectFormat).
 * Throws GitIndexError only. The trailing checksum is not verified (a SHA-1 of the whole file
 * would cost more than the parse, and `index.skipHash` writes none); git writes the index to a
 * lock file and renames it, so a reader never sees a half-written one.
 */
export function parseGitIndex(bytes: Buffer, hashBytes: number): GitIndex {
  if (bytes.length > MAX_INDEX_BYTES) throw new GitIndexError('too_large', `it is larger than ${MAX_INDEX_BYTES / 1024 / 1024} MiB, more than Magi reads`);
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'DIRC') throw new GitIndexError('not_an_index', 'it does not start with the "DIRC" signature of a git index');
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) throw new GitIndexError('unsupported_version', `it is version ${version}; Magi reads versions 2 to 4 (\`git update-index --index-version 2\` rewrites it)`);
  const count = bytes.readUInt32BE(8);
  const end = bytes.length - hashBytes; // entries and extensions end where the checksum begins
  const fixed = STAT_BYTES + hashBytes + 2; // through the flags
  // The smallest entry is the fixed part, a one-byte path and its NUL: a count that cannot fit is refused before anything is allocated.
  if (end < 12 || count > (end - 12) / (fixed + 2)) throw corrupt(`${count} entries do not fit in ${bytes.length} bytes`);
  const starts = new Uint32Array(count);
  const ends = new Uint32Array(count);
  let paths = bytes;
  let pos = 12;
  if (version === 4) {
    // Rebuilt paths usually take less than the file (which also holds 62 bytes of stat data and name per entry); grown when not.
    paths = Buffer.allocUnsafe(Math.min(MAX_PATH_BYTES, Math.max(4096, bytes.length)));
  }
  let out = 0; // version 4: where the next rebuilt path goes in `paths`
  let misfit: string | undefined; // the first entry that parses but cannot be right
  for (let i = 0; i < count; i++) {
    if (end - pos < fixed) throw corrupt('truncated entry');
    const flags = ((bytes[pos + fixed - 2] as number) << 8) | (bytes[pos + fixed - 1] as number);
    let p = pos + fixed;
    if (flags & EXTENDED) {
      if (version < 3) throw corrupt('an extended entry in a version 2 index');
      p += 2;
    }
    if ((bytes[pos + 26] as number) >> 4 === TYPE_DIRECTORY) throw new GitIndexError('sparse_index', 'it is a sparse index (it holds directory entries), which Magi does not read; `git sparse-checkout init --no-sparse-index` expands it');
    const nameLength = flags & NAME_MASK;
    let start: number;
    let stop: number;
    let shared = 0; // leading bytes known to equal the previous path's
    if (version === 4) {
      const [strip, after] = readVarint(bytes, p, end);
      const nul = bytes.indexOf(0, after);
      if (nul === -1 || nul >= end) throw corrupt('unterminated path');
      const previous = i === 0 ? 0 : (ends[i - 1] as number) - (starts[i - 1] as number);
      if (strip > previous) throw corrupt('a path drops more of the previous path than it has');
      const keep = previous - strip;
      const length = keep + (nul - after);
      if (out + length > paths.length) {
        if (out + length > MAX_PATH_BYTES) throw new GitIndexError('too_large', `its paths take more than ${MAX_PATH_BYTES / 1024 / 1024} MiB, more than Magi reads`);
        const grown = Buffer.allocUnsafe(Math.min(MAX_PATH_BYTES, Math.max(out + length, paths.length * 2)));
        paths.copy(grown, 0, 0, out);
        paths = grown;
      }
      // Byte loops: paths are short, and a native copy per entry costs more than the bytes.
      const from = i === 0 ? 0 : (starts[i - 1] as number);
      for (let k = 0; k < keep; k++) paths[out + k] = paths[from + k] as number;
      for (let k = after, o = out + keep; k < nul; k++, o++) paths[o] = bytes[k] as number;
      start = out;
      stop = out + length;
      shared = keep;
      out = stop;
      pos = nul + 1;
    } else {
      start = p;
      if (nameLength < NAME_MASK) {
        stop = p + nameLength;
        if (stop >= end || bytes[stop] !== 0) throw corrupt('a path without its NUL');
      } else {
        stop = bytes.indexOf(0, p + NAME_MASK);
        if (stop === -1 || stop >= end) throw corrupt('unterminated path');
      }
      // 1–8 NULs pad the entry to a multiple of 8 bytes from its start.
      pos += (stop - pos + 8) & ~7;
      if (pos > end) throw corrupt('truncated entry');
    }
    // Judged once the extensions are known: a split index's own entries may have empty paths and
    // stand out of order. Versions 2 and 3 are trusted to be in order, as git trusts them outside
    // fsck (checking would treble the parse); a disordered one gives wrong answers, never a crash.
    // Version 4 checks it at no cost, past the prefix shared with the previous path.
    if (misfit === undefined) {
      if (stop === start) misfit = 'an empty path';
      else if (nameLength < NAME_MASK && stop - start !== nameLength) misfit = 'a path whose length disagrees with its flags';
      else if (version === 4 && i > 0 && compareRanges(paths, (starts[i - 1] as number) + shared, ends[i - 1] as number, paths, start + shared, stop) > 0) misfit = 'entries out of order';
    }
    starts[i] = start;
    ends[i] = stop;
  }
  checkExtensions(bytes, pos, end);
  if (misfit !== undefined) throw corrupt(misfit);
  return new GitIndex(version, count, paths, starts, ends);
}

/** What a walk gets from the repository's index: its tracked paths, or why it walks without them. */
export interface IndexRead {
  index: GitIndex | undefined;
  /** Set when an index exists but cannot be used; says what to do about it. */
  warning: string | undefined;
}

/** Runs a read of one of the index's files; a system error (EACCES …) becomes a GitIndexError. */
function readOrRefuse<T>(what: string, read: () => T): T | GitIndexError {
  try {
    return read();
  } catch (err) {
    const code = errnoOf(err);
    if (code === undefined) throw err;
    return new GitIndexError('unreadable', `${what} cannot be read (${code})`);
  }
}

/**
 * The tracked paths of the repository's index (this worktree's `index` file), cached in the
 * listing cache until the file changes. No index (a repository where nothing was ever added) is no
 * problem; one that cannot be read or used comes back as a warning, and the walk goes on with the
 * ignore rules alone. Never throws a system error.
 */
export function readIndex(repo: GitRepo, cache: ListingCache): IndexRead {
  const file = path.join(repo.gitDir, 'index');
  const hashBytes = readOrRefuse('the repository’s config', () => objectNameBytes(repo, cache));
  let outcome: GitIndex | GitIndexError | undefined;
  if (hashBytes instanceof GitIndexError) outcome = hashBytes;
  else if (hashBytes === undefined) outcome = new GitIndexError('unsupported_hash', 'the repository’s extensions.objectFormat is neither sha1 nor sha256');
  else {
    const previous = cache.previous(file);
    outcome = readOrRefuse('it', () => cache.derivedBytes(file, MAX_INDEX_BYTES, (bytes) => {
      if (bytes === null) return new GitIndexError('too_large', `it is larger than ${MAX_INDEX_BYTES / 1024 / 1024} MiB, more than Magi reads`);
      try {
        const index = parseGitIndex(bytes, hashBytes);
        // Unchanged paths keep the old index (and its id), so the walk's cached views stay valid.
        return previous instanceof GitIndex && previous.samePaths(index) ? previous : index;
      } catch (err) {
        if (err instanceof GitIndexError) return err;
        throw err;
      }
    }));
  }
  if (outcome === undefined || outcome instanceof GitIndex) return { index: outcome, warning: undefined };
  return { index: undefined, warning: `git index ${file}: ${outcome.message}. The walk uses the ignore rules alone: tracked files that an ignore rule matches are not listed.` };
}
