import { performance } from 'node:perf_hooks';
import { processEnvironment } from './environment';
import { hasAgentsFile, prepareWalk, withOwnRules, type WalkContext } from './ignoreContext';
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
  next: number;
}

/** The entries a walk keeps from one listing: not hidden, not excluded by name, not ignored, no specials. */
function viewOf(ctx: WalkContext, listing: Listing, rel: string, layers: readonly Layer[], key: string): ListingView {
  if (listing.view?.key === key) return listing.view;
  const { names, kinds } = listing;
  const excluded = ctx.visibleExcluded;
  const relPrefix = rel === '' ? '' : rel + '/';
  const kept: number[] = [];
  const rels: string[] = [];
  let specials = 0;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (name.charCodeAt(0) === 0x2e || excluded?.has(name)) continue; // hidden (and .git)
    const kind = kinds[i];
    const entryRel = relPrefix + name;
    if (layers.length > 0 && ignoredBy(layers, entryRel, name, kind === DIR)) continue;
    if (kind === SPECIAL) {
      specials++;
      continue;
    }
    kept.push(i);
    rels.push(entryRel);
  }
  const view = { key, kept, rels, specials };
  listing.view = view;
  return view;
}

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Reads (or takes from the cache) one directory and judges its entries. `unverifiedOk` is false
 * below a directory that had to be read again (see ListingCache.cached). Throws filesystem errors.
 */
function enter(ctx: WalkContext, cache: ListingCache, abs: string, rel: string, layers: readonly Layer[], key: string, unverifiedOk: boolean): Frame {
  const cached = cache.cached(abs, unverifiedOk);
  const listing = cached.listing ?? cache.readSync(abs, cached.ino);
  const own = withOwnRules(ctx, cache, abs, rel, listing, layers, key);
  const view = viewOf(ctx, listing, rel, own.layers, own.key);
  return { abs, listing, view, layers: own.layers, key: own.key, reread: cached.listing === undefined, next: 0 };
}

/**
 * The shared workspace walker: a depth-first, gitignore-aware traversal (see WalkRequest and
 * WalkResult for the contract). Entries are visited and counted in output order — byte order of
 * their paths — so a scan cut by the entry limit returns a prefix of the full list, the same on
 * every run. Throws only when the signal aborts (with the signal's reason); filesystem errors are
 * counted in `walk_errors`.
 */
export async function walkWorkspace(request: WalkRequest, cache: ListingCache): Promise<WalkResult> {
  const { signal } = request;
  signal?.throwIfAborted();
  const deadline = performance.now() + (request.timeoutMs ?? WALK_TIMEOUT_MS);
  const maxEntries = request.maxEntries ?? WALK_MAX_ENTRIES;
  const ctx = prepareWalk(request.root, request.dir, cache, request.environment ?? processEnvironment());
  const prefix = ctx.displayPrefix;
  const files: string[] = [];
  const dirs: string[] = [];
  const agents = [...ctx.agents];
  let entries = 1; // the walked directory itself
  let walkErrors = 0;
  let specials = 0;
  let stopped: 'limit' | 'time' | undefined;
  const stack: Frame[] = [];

  const push = (abs: string, rel: string, layers: readonly Layer[], key: string, unverifiedOk: boolean): void => {
    let frame: Frame;
    try {
      frame = enter(ctx, cache, abs, rel, layers, key, unverifiedOk);
    } catch (err) {
      // A folder that vanished, became a file or cannot be read is counted, never fatal.
      if ((err as NodeJS.ErrnoException | undefined)?.code === undefined) throw err;
      walkErrors++;
      return;
    }
    specials += frame.view.specials;
    if (hasAgentsFile(frame.listing)) agents.push(childPath(abs, 'AGENTS.md'));
    stack.push(frame);
  };
  push(request.dir, ctx.dirRel, ctx.layers, ctx.key, true);

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
      push(childPath(frame.abs, listing.names[index] as string), rel, frame.layers, frame.key, !frame.reread);
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
  };
}
