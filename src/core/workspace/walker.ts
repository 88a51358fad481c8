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

interface DirNode {
  abs: string;
  /** Relative to the walk base with `/`; '' for the base. */
  rel: string;
  /** Layers and cache key inherited from the parent (the node's own rule files are added when read). */
  layers: readonly Layer[];
  key: string;
  /** False below a directory that had to be read again (see ListingCache.cached). */
  unverifiedOk: boolean;
  /** Set once processed: the listing, its view and how many kept entries the entry budget allowed. */
  listing?: Listing;
  view?: ListingView;
  counted: number;
  children: DirNode[];
}

/** The entries a walk keeps from one listing: not hidden, not excluded by name, not ignored, no specials. */
function viewOf(ctx: WalkContext, listing: Listing, rel: string, layers: readonly Layer[], key: string): ListingView {
  if (listing.view?.key === key) return listing.view;
  const { names, kinds } = listing;
  const excluded = ctx.excluded;
  const relPrefix = rel === '' ? '' : rel + '/';
  const kept: number[] = [];
  const rels: string[] = [];
  let specials = 0;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (name.charCodeAt(0) === 0x2e || excluded.has(name)) continue; // hidden (and .git)
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

/** The node's listing, and whether it had to be read (not taken from the cache) in this walk. */
function listingOf(cache: ListingCache, node: DirNode): { listing: Listing; reread: boolean } {
  const cached = cache.cached(node.abs, node.unverifiedOk);
  if (cached.listing) return { listing: cached.listing, reread: false };
  return { listing: cache.readSync(node.abs, cached.ino), reread: true };
}

/** Files and directories of the processed nodes in path byte order (pre-order, children sorted as paths). */
function collect(top: DirNode, prefix: string): { files: string[]; dirs: string[]; specials: number } {
  const files: string[] = [];
  const dirs: string[] = [];
  let specials = 0;
  const emit = (node: DirNode): void => {
    const { listing, view } = node;
    if (!listing || !view) return;
    specials += view.specials;
    let child = 0;
    for (let i = 0; i < node.counted; i++) {
      const rel = view.rels[i] as string;
      const shown = prefix === '' ? rel : prefix + rel;
      if (listing.kinds[view.kept[i] as number] === DIR) {
        dirs.push(shown);
        emit(node.children[child++] as DirNode);
      } else {
        files.push(shown);
      }
    }
  };
  emit(top);
  return { files, dirs, specials };
}

/**
 * The shared workspace walker: a depth-first, gitignore-aware traversal (see WalkRequest and
 * WalkResult for the contract). Entries are counted in one fixed order, so a scan cut by the entry
 * limit is the same on every run. Throws only when the signal aborts (with the signal's reason);
 * filesystem errors are counted in `walk_errors`.
 */
export async function walkWorkspace(request: WalkRequest, cache: ListingCache): Promise<WalkResult> {
  const { signal } = request;
  signal?.throwIfAborted();
  const deadline = performance.now() + (request.timeoutMs ?? WALK_TIMEOUT_MS);
  const maxEntries = request.maxEntries ?? WALK_MAX_ENTRIES;
  const ctx = prepareWalk(request.root, request.dir, cache, request.environment ?? processEnvironment());

  let entries = 1; // the walked directory itself
  let walkErrors = ctx.errors;
  let omitted = 0;
  let limitReached = false;
  let timedOut = false;
  const agents = [...ctx.agents];
  const top: DirNode = { abs: request.dir, rel: ctx.dirRel, layers: ctx.layers, key: ctx.key, unverifiedOk: true, counted: 0, children: [] };
  const stack: DirNode[] = [top];
  let sliceEnd = performance.now() + SLICE_MS;

  for (let step = 0; stack.length > 0; step++) {
    if (step % CLOCK_EVERY === 0) {
      const now = performance.now();
      if (now >= deadline) {
        timedOut = true;
        break;
      }
      if (now >= sliceEnd) {
        await yieldToLoop();
        sliceEnd = performance.now() + SLICE_MS;
      }
    }
    signal?.throwIfAborted();
    const node = stack.pop() as DirNode;
    let got: { listing: Listing; reread: boolean };
    let own: { layers: readonly Layer[]; key: string };
    try {
      got = listingOf(cache, node);
      own = withOwnRules(ctx, cache, node.abs, node.rel, got.listing, node.layers, node.key);
    } catch (err) {
      // A folder that vanished, became a file or cannot be read is counted, never fatal.
      if ((err as NodeJS.ErrnoException | undefined)?.code === undefined) throw err;
      walkErrors++;
      continue;
    }
    const { listing, reread } = got;
    const view = viewOf(ctx, listing, node.rel, own.layers, own.key);
    if (hasAgentsFile(listing)) agents.push(childPath(node.abs, 'AGENTS.md'));
    const budget = maxEntries - entries;
    const counted = Math.min(view.kept.length, budget);
    if (view.kept.length > budget) {
      limitReached = true;
      omitted += view.kept.length - budget;
    }
    entries += counted;
    node.listing = listing;
    node.view = view;
    node.counted = counted;
    for (let i = 0; i < counted; i++) {
      const index = view.kept[i] as number;
      if (listing.kinds[index] !== DIR) continue;
      node.children.push({ abs: childPath(node.abs, listing.names[index] as string), rel: view.rels[i] as string, layers: own.layers, key: own.key, unverifiedOk: !reread, counted: 0, children: [] });
    }
    if (limitReached) break;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as DirNode);
  }
  signal?.throwIfAborted();

  const { files, dirs, specials } = collect(top, ctx.displayPrefix);
  return {
    files,
    dirs,
    agents,
    base: ctx.insideRoot ? request.root : '',
    specials,
    facts: {
      scan_complete: !limitReached && !timedOut && walkErrors === 0,
      entries_scanned: entries,
      entry_limit_reached: limitReached,
      timed_out: timedOut,
      walk_errors: walkErrors,
      walk_entries_omitted: omitted,
    },
  };
}
