import { prepareWalk, withOwnRules } from './ignoreContext';
import { ignoredBy } from './ignoreRules';
import { DIR, type ListingCache } from './listingCache';
import type { WalkEnvironment } from './types';

/** One direct child of a directory, as list_files shows it. */
export interface ShallowEntry {
  name: string;
  /** FILE, DIR, SYMLINK or SPECIAL (listingCache.ts). */
  kind: number;
  /** The name starts with a dot; the walker skips it. */
  hidden: boolean;
  /**
   * An ignore rule (or a Perforce exclusion) applies to it; the walker skips it. A file the git
   * index tracks is never ignored, as in git; a folder keeps its rule's verdict even when it holds
   * tracked files (the walker enters it for those alone).
   */
  ignored: boolean;
}

/**
 * Every direct child of `dir` (canonical, absolute) except `.git`, in path byte order, marked the
 * way the walker would judge it — through the same listing cache and ignore rules — but without
 * leaving any out. Reads no file contents. Throws what reading the directory throws.
 */
export function shallowListing(root: string, dir: string, cache: ListingCache, environment: WalkEnvironment): ShallowEntry[] {
  const ctx = prepareWalk(root, dir, cache, environment);
  const listing = cache.list(dir);
  const { layers } = withOwnRules(ctx, cache, dir, ctx.dirRel, listing, ctx.layers, ctx.key);
  const relPrefix = ctx.dirRel === '' ? '' : ctx.dirRel + '/';
  const entries: ShallowEntry[] = [];
  listing.names.forEach((name, i) => {
    if (name === '.git') return;
    const kind = listing.kinds[i] as number;
    const rel = relPrefix + name;
    const ignored = ctx.excluded.has(name) || (ignoredBy(layers, rel, name, kind === DIR) && !(kind !== DIR && ctx.index?.has(ctx.indexPrefix + rel)));
    entries.push({ name, kind, hidden: name.startsWith('.'), ignored });
  });
  return entries;
}
