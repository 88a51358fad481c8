import { performance } from 'node:perf_hooks';
import { processEnvironment } from './environment';
import { hasAgentsFile, prepareWalk, withOwnRules, type WalkContext } from './ignoreContext';
import type { GitIndex } from './gitIndex';
import { ignoredBy, type Layer } from './ignoreRules';
import { DIR, SPECIAL, childPath, type Listing, type ListingCache, type ListingView } from './listingCache';
import { WALK_MAX_ENTRIES, WALK_TIMEOUT_MS, type WalkRequest, type WalkResult } from './types';

/**
 * The walk calls the filesystem synchronously: measured here, a thread-pool `stat` or `readdir`
 * costs more in dispatch (10–25 µs) than a cached `stat` itself, and reading ahead in the pool
 * made a cold walk slower, not faster. Instead the loop hands the event loop back every SLICE_MS,
 * which is also when an abort can arrive; the clock is read every CLOCK_EVERY directories.
 */
const SLICE_MS = 8;
const CLOCK_EVERY = 16;

/** A directory being walked: its listing, what it keeps, and the next of those to visit. */
interface Frame {
  abs: string;
  listing: Listing;
  view: ListingView;
  /** Layers and cache key for its entries (its own rule files included), passed on to its subfolders. */
  layers: readonly Layer[];
  key: string;
  /** Whether the listing had to be read in this walk (see ListingCache.cached). */
  reread: boolean;
  /** An ignore rule excludes this folder (or one above it): only its tracked files and the folders holding them are kept. */
  trackedOnly: boolean;
  next: number;
}

/**
 * Whether the index holds `rel` (base-relative) as a file, or for a folder any file below it. An
 * ignore rule never hides a tracked file, so an ignored folder that holds some is entered for them.
 */
function tracked(ctx: WalkContext, index: GitIndex, rel: string, isDir: boolean): boolean {
  const path = ctx.indexPrefix + rel;
  return isDir ? index.hasUnder(path) : index.has(path);
}

/**
 * The entries a walk keeps from one listing: not hidden, not excluded by name, no specials, and
 * either not ignored or tracked (a folder: holding tracked files). In a `trackedOnly` folder the
 * rules are not consulted: nothing untracked below an ignored folder comes back, as in git.
 */
function viewOf(ctx: WalkContext, listing: Listing, rel: string, layers: readonly Layer[], key: string, trackedOnly: boolean): ListingView {
  if (listing.view?.key === key) return listing.view;
  const { names, kinds } = listing;
  const excluded = ctx.visibleExcluded;
  const index = ctx.index;
  const relPrefix = rel === '' ? '' : rel + '/';
  const kept: number[] = [];
  const rels: string[] = [];
  let onlyTracked: Uint8Array | undefined;
  let specials = 0;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (name.charCodeAt(0) === 0x2e || excluded?.has(name)) continue; // hidden (and .git)
    const kind = kinds[i];
    const isDir = kind === DIR;
    const entryRel = relPrefix + name;
    let enterTrackedOnly = trackedOnly;
    if (trackedOnly) {
      if (!tracked(ctx, index as GitIndex, entryRel, isDir)) continue;
    } else if (layers.length > 0 && ignoredBy(layers, entryRel, name, isDir)) {
      if (index === undefined || !tracked(ctx, index, entryRel, isDir)) continue;
      enterTrackedOnly = true;
    }
    if (kind === SPECIAL) {
      specials++;
      continue;
    }
    if (enterTrackedOnly && isDir) (onlyTracked ??= new Uint8Array(names.length))[kept.length] = 1;
    kept.push(i);
    rels.push(entryRel);
  }
  const view = { key, kept, rels, trackedOnly: onlyTracked, specials };
  listing.view = view;
  return view;
}

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Reads (or takes from the cache) one directory and judges its entries. `unverifiedOk` is false
 * below a directory that had to be read again (see ListingCache.cached). Throws filesystem errors.
 */
function enter(ctx: WalkContext, cache: ListingCache, abs: string, rel: string, layers: readonly Layer[], key: string, unverifiedOk: boolean, trackedOnly: boolean): Frame {
  const cached = cache.cached(abs, unverifiedOk);
  const listing = cached.listing ?? cache.readSync(abs, cached.ino);
  // Below an ignored folder no rule can matter (its rule files are not even read).
  const own = trackedOnly ? { layers, key: key.endsWith('\0tracked') ? key : key + '\0tracked' } : withOwnRules(ctx, cache, abs, rel, listing, layers, key);
  const view = viewOf(ctx, listing, rel, own.layers, own.key, trackedOnly);
  return { abs, listing, view, layers: own.layers, key: own.key, reread: cached.listing === undefined, trackedOnly, next: 0 };
}

/** Whether the folder's AGENTS.md applies: it exists, and below an ignored folder it is tracked. */
function agentsFileOf(ctx: WalkContext, frame: Frame, rel: string): boolean {
  if (!hasAgentsFile(frame.listing)) return false;
  return !frame.trackedOnly || tracked(ctx, ctx.index as GitIndex, rel === '' ? 'AGENTS.md' : rel + '/AGENTS.md', false);
}

/**
 * The shared workspace walker: a depth-first, gitignore-aware traversal that, like git, never
 * hides a tracked file (see WalkRequest and WalkResult for the contract). Entries are visited and
 * counted in output order — byte order of their paths — so a scan cut by the entry limit returns a
 * prefix of the full list, the same on every run. Throws only when the signal aborts (with the
 * signal's reason); filesystem errors are counted in `walk_errors`.
 */
export async function walkWorkspace(request: WalkRequest, cache: ListingCache): Promise<WalkResult> {
  const { signal } = request;
  signal?.throwIfAborted();
  const deadline = performance.now() + (request.timeoutMs ?? WALK_TIMEOUT_MS);
  const maxEntries = request.maxEntries ?? WALK_MAX_ENTRIES;
  const ctx = prepareWalk(request.root, request.dir, cache, request.environment ?? processEnvironment(), request.gitIndex ?? true);
  const prefix = ctx.displayPrefix;
  const files: string[] = [];
  const dirs: string[] = [];
  const agents = [...ctx.agents];
  let entries = 1; // the walked directory itself
  let walkErrors = 0;
  let specials = 0;
  let stopped: 'limit' | 'time' | undefined;
  const stack: Frame[] = [];

  const push = (abs: string, rel: string, layers: readonly Layer[], key: string, unverifiedOk: boolean, trackedOnly: boolean): void => {
    let frame: Frame;
    try {
      frame = enter(ctx, cache, abs, rel, layers, key, unverifiedOk, trackedOnly);
    } catch (err) {
      // A folder that vanished, became a file or cannot be read is counted, never fatal.
      if ((err as NodeJS.ErrnoException | undefined)?.code === undefined) throw err;
      walkErrors++;
      return;
    }
    specials += frame.view.specials;
    if (agentsFileOf(ctx, frame, rel)) agents.push(childPath(abs, 'AGENTS.md'));
    stack.push(frame);
  };
  // The walked folder itself is not judged (a tool may walk an ignored folder it is asked for).
  push(request.dir, ctx.dirRel, ctx.layers, ctx.key, true, false);

  let sliceEnd = performance.now() + SLICE_MS;
  for (let step = 0; stack.length > 0; step++) {
    if (step % CLOCK_EVERY === 0) {
      const now = performance.now();
      if (now >= deadline) {
        stopped = 'time';
        break;
      }
      if (now >= sliceEnd) {
        await yieldToLoop();
        signal?.throwIfAborted();
        sliceEnd = performance.now() + SLICE_MS;
      }
    }
    const frame = stack[stack.length - 1] as Frame;
    const { view, listing } = frame;
    if (frame.next === view.kept.length) {
      stack.pop();
      continue;
    }
    if (entries >= maxEntries) {
      stopped = 'limit';
      break;
    }
    const i = frame.next++;
    entries++;
    const rel = view.rels[i] as string;
    const index = view.kept[i] as number;
    if (listing.kinds[index] === DIR) {
      dirs.push(prefix === '' ? rel : prefix + rel);
      push(childPath(frame.abs, listing.names[index] as string), rel, frame.layers, frame.key, !frame.reread, view.trackedOnly?.[i] === 1);
    } else {
      files.push(prefix === '' ? rel : prefix + rel);
    }
  }
  signal?.throwIfAborted();

  let omitted = 0;
  for (const frame of stack) omitted += frame.view.kept.length - frame.next;
  return {
    files,
    dirs,
    agents,
    base: ctx.insideRoot ? request.root : '',
    specials,
    facts: {
      scan_complete: stopped === undefined && walkErrors + ctx.errors === 0,
      entries_scanned: entries,
      entry_limit_reached: stopped === 'limit',
      timed_out: stopped === 'time',
      walk_errors: walkErrors + ctx.errors,
      walk_entries_omitted: omitted,
    },
    warnings: ctx.warnings,
  };
}
