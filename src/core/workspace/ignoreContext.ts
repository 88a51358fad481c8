import * as path from 'node:path';
import { findRepo, globalExcludesFile } from './gitConfig';
import { readIndex, type GitIndex } from './gitIndex';
import type { Layer, RuleSet } from './ignoreRules';
import { DIR, FILE, SYMLINK, childPath, type Listing, type ListingCache } from './listingCache';
import { compareEntry } from './pathOrder';
import { perforceRules } from './perforce';
import type { WalkEnvironment } from './types';
import { errnoOf as errno, isWithin, toSlashes } from '../fs/paths';

/** Everything a walk of one directory needs to know before it reads that directory. */
export interface WalkContext {
  /** The folder paths are tested and reported relative to: the root, or `dir` itself when outside it. */
  base: string;
  insideRoot: boolean;
  /** Prepended to a base-relative path for display: '' inside the root, `base/` outside it. */
  displayPrefix: string;
  /** Per-folder rule files, lowest precedence first: `.gitignore`, the P4IGNORE names, `.ignore`. */
  ruleNames: readonly string[];
  /** Names never listed (Perforce's `.p4root`, the P4CONFIG file …). */
  excluded: ReadonlySet<string>;
  /** Those of them that are not hidden anyway (usually none), which the walker must check. */
  visibleExcluded: ReadonlySet<string> | undefined;
  /** `dir` relative to the base, with `/`; '' when it is the base. */
  dirRel: string;
  /** Layers that apply to the entries of `dir`, before its own rule files: its ancestors', then the repository-wide ones. */
  layers: readonly Layer[];
  /** Names the rule files in `layers`, the base and the exclusions: a view cached under this key is valid for `dir`. */
  key: string;
  /** AGENTS.md files of `dir`'s ancestors, from the root down (inside the root only). */
  agents: string[];
  /** Folders and rule or configuration files that could not be read; counted on during the walk. */
  errors: number;
  /** The tracked paths of the repository's git index, when there is one the walk can use. */
  index: GitIndex | undefined;
  /** Turns a base-relative path into the worktree-relative path the index holds: '' or `sub/dir/`. */
  indexPrefix: string;
  /** Why the index could not be used (see WalkResult.warnings). */
  warnings: string[];
}

/** Index of a non-directory entry in a sorted listing, or -1. */
export function findEntry(listing: Listing, name: string): number {
  const { names, kinds } = listing;
  let lo = 0;
  let hi = names.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const cmp = compareEntry(names[mid] as string, kinds[mid] === DIR, name);
    if (cmp === 0) return mid;
    if (cmp < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Whether the listing holds an `AGENTS.md` file (or a symlink to one). */
export function hasAgentsFile(listing: Listing): boolean {
  const i = findEntry(listing, 'AGENTS.md');
  return i !== -1 && (listing.kinds[i] === FILE || listing.kinds[i] === SYMLINK);
}

/**
 * The layers that apply to a directory's entries: its own rule files (deepest first, the
 * highest-precedence file first) in front of what it inherited. Symlinked rule files are not read,
 * as git (since 2.32) does not read a symlinked `.gitignore`.
 */
export function withOwnRules(ctx: WalkContext, cache: ListingCache, dirAbs: string, dirRel: string, listing: Listing, inherited: readonly Layer[], inheritedKey: string): { layers: readonly Layer[]; key: string } {
  let layers = inherited;
  let key = inheritedKey;
  for (const name of ctx.ruleNames) {
    const i = findEntry(listing, name);
    if (i === -1 || listing.kinds[i] !== FILE) continue;
    const rules = tolerate(ctx, () => cache.rules(childPath(dirAbs, name)));
    if (!rules) continue;
    layers = [{ rules, prefix: '', strip: dirRel === '' ? 0 : dirRel.length + 1 }, ...layers];
    key += ',' + rules.id;
  }
  return { layers, key };
}

/**
 * Reads one of the files the rules come from. One that cannot be read (permission denied …) is
 * counted in `walk_errors` and treated as absent, as git skips an ignore file it cannot read
 * (with a warning) and goes on.
 */
function tolerate<T>(ctx: { errors: number }, read: () => T): T | undefined {
  try {
    return read();
  } catch (err) {
    if (errno(err) === undefined) throw err;
    ctx.errors++;
    return undefined;
  }
}

/**
 * Prepares a walk of `dir` (canonical, absolute): the repository-wide rule files (info/exclude,
 * the global excludes file, Perforce's rule files given by path), the rule files of the folders
 * between the repository's top and the base (when the workspace is inside a larger repository),
 * and those between the base and `dir`, with the AGENTS.md files found on the way.
 */
export function prepareWalk(root: string, dir: string, cache: ListingCache, environment: WalkEnvironment, useIndex = true): WalkContext {
  const insideRoot = isWithin(root, dir);
  const base = insideRoot ? root : dir;
  const problems = { errors: 0 };
  const repo = tolerate(problems, () => findRepo(base, cache));
  const p4 = tolerate(problems, () => perforceRules(environment, base, cache)) ?? { names: ['.p4ignore', 'p4ignore.txt'], files: [], excluded: ['.p4root'] };
  const ruleNames = ['.gitignore', ...p4.names, '.ignore'];
  const repoPrefix = repo && repo.worktree !== base ? toSlashes(path.relative(repo.worktree, base)) + '/' : '';

  const repoWide: { file: string; prefix: string }[] = [];
  if (repo) repoWide.push({ file: path.join(repo.commonDir, 'info', 'exclude'), prefix: repoPrefix });
  const excludesFile = tolerate(problems, () => globalExcludesFile(environment, repo, base, cache));
  if (excludesFile) repoWide.push({ file: excludesFile, prefix: repoPrefix });
  for (const file of p4.files) repoWide.push({ file, prefix: '' });

  const above: Layer[] = [];
  if (repo && repoPrefix !== '') {
    // Folders from the repository's top down to the base's parent, each relative to the base.
    for (let folder = path.dirname(base); isWithin(repo.worktree, folder); folder = path.dirname(folder)) {
      const prefix = toSlashes(path.relative(folder, base)) + '/';
      for (const name of [...ruleNames].reverse()) {
        const rules = tolerate(problems, () => cache.rules(path.join(folder, name)));
        if (rules) above.push({ rules, prefix, strip: 0 });
      }
      if (folder === repo.worktree) break;
    }
  }
  const global: Layer[] = [];
  for (const { file, prefix } of repoWide) {
    const rules: RuleSet | undefined = tolerate(problems, () => cache.rules(file));
    if (rules) global.push({ rules, prefix, strip: 0 });
  }
  let layers: readonly Layer[] = [...above, ...global];
  const excluded = new Set(p4.excluded);
  const visible = p4.excluded.filter((name) => !name.startsWith('.'));
  const tracked = repo && useIndex ? readIndex(repo, cache) : { index: undefined, warning: undefined };
  // A view depends on the index too: the key names it (unchanged paths keep the same index and id).
  let key = `${base}\0${[...excluded].join('/')}\0${layers.map((l) => l.rules.id).join(',')}\0${tracked.index?.id ?? ''}`;

  const ctx: WalkContext = {
    base, insideRoot, displayPrefix: insideRoot ? '' : base.endsWith(path.sep) ? base : base + path.sep, ruleNames, excluded,
    visibleExcluded: visible.length ? new Set(visible) : undefined, dirRel: toSlashes(path.relative(base, dir)), layers, key, agents: [], errors: problems.errors,
    index: tracked.index, indexPrefix: repoPrefix, warnings: tracked.warning === undefined ? [] : [tracked.warning],
  };
  if (ctx.dirRel === '') return ctx;

  // The folders from the base down to dir's parent: their rules apply to dir's entries.
  const parts = ctx.dirRel.split('/');
  let folder = base;
  let rel = '';
  for (let i = 0; i < parts.length; i++) {
    const listing = tolerate(ctx, () => cache.list(folder));
    if (!listing) break;
    ({ layers, key } = withOwnRules(ctx, cache, folder, rel, listing, layers, key));
    if (insideRoot && hasAgentsFile(listing)) ctx.agents.push(childPath(folder, 'AGENTS.md'));
    const part = parts[i] as string;
    folder = childPath(folder, part);
    rel = rel === '' ? part : rel + '/' + part;
  }
  ctx.layers = layers;
  ctx.key = key;
  return ctx;
}
