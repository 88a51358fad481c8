import ignore, { type Ignore } from 'ignore';

/** What one rule file says about a path: no rule matched, the last match ignores, or it re-includes (`!`). */
export const NO_MATCH = 0;
export const IGNORED = 1;
export const INCLUDED = 2;
export type Verdict = typeof NO_MATCH | typeof IGNORED | typeof INCLUDED;

interface TestOutcome {
  ignored: boolean;
  unignored: boolean;
}

type PathTest = (path: string) => TestOutcome;

/**
 * The `ignore` package's public `test()` also applies the same file's verdict on every parent
 * directory, which is right for one file and wrong across files: git reads `a/foo/x` in a folder
 * that an inner `.gitignore` re-included even though the outer one excludes `foo/`. The walker prunes
 * excluded folders itself, so it needs the single-path test the package keeps on its rule list
 * ("Test one single path without recursively checking parent directories"). When a future version
 * lacks it, the public test is the fallback (correct except for that re-inclusion, which a unit test pins).
 */
function singlePathTest(ig: Ignore): PathTest {
  const rules = (ig as unknown as { _rules?: { test?: unknown } })._rules;
  if (rules && typeof rules.test === 'function') {
    const list = rules as { test(path: string, mode: string): TestOutcome };
    return (path) => list.test(path, 'regex');
  }
  return (path) => ig.test(path);
}

/** Whether the line, as git reads it, can only ever match a path's last component. */
function basenameOnly(line: string): boolean {
  let body = line.replace(/(?<!\\)[ \t]+$/, '');
  if (body === '' || body.startsWith('#')) return true;
  if (body.startsWith('!')) body = body.slice(1);
  if (body.endsWith('/')) body = body.slice(0, -1);
  return !body.includes('/');
}

/** Verdicts cached per name are bounded so a huge, unusual tree cannot grow them without end. */
const MAX_CACHED_NAMES = 50_000;
let nextId = 1;

/**
 * The rules of one ignore file (`.gitignore`, `.ignore`, a Perforce rule file, info/exclude, the
 * global excludes file), matched as git does: against the path relative to the file's own folder,
 * case-sensitively, the last matching line deciding. Immutable; `id` names it in cache keys.
 */
export class RuleSet {
  readonly id = nextId++;
  readonly empty: boolean;
  private readonly test: PathTest;
  /** When no line contains an inner slash the verdict depends on the name alone, so it is cached by name. */
  private readonly byName: Map<string, Verdict> | undefined;

  constructor(
    /** Absolute path of the file the rules came from (for messages and tests). */
    readonly source: string,
    readonly text: string,
  ) {
    const ig = ignore({ ignorecase: false }).add(text);
    this.test = singlePathTest(ig);
    const lines = text.split(/\r?\n/);
    this.empty = lines.every((l) => l.trim() === '' || l.startsWith('#'));
    this.byName = lines.every(basenameOnly) ? new Map() : undefined;
  }

  /**
   * The verdict on `rel` (relative to the walk base) for this file: `prefix + rel.slice(strip)` is
   * the path relative to the file's folder. `name` is the last component; directories are tested
   * with a trailing slash so that `dir/` patterns apply to them only.
   */
  verdict(rel: string, prefix: string, strip: number, name: string, isDir: boolean): Verdict {
    const byName = this.byName;
    if (byName !== undefined) {
      const key = isDir ? name + '/' : name;
      let verdict = byName.get(key);
      if (verdict === undefined) {
        verdict = this.decide(key);
        if (byName.size < MAX_CACHED_NAMES) byName.set(key, verdict);
      }
      return verdict;
    }
    const path = (strip === 0 ? prefix + rel : prefix + rel.slice(strip)) + (isDir ? '/' : '');
    return this.decide(path);
  }

  private decide(path: string): Verdict {
    const outcome = this.test(path);
    return outcome.ignored ? IGNORED : outcome.unignored ? INCLUDED : NO_MATCH;
  }
}

/**
 * One rule file placed in the walk: `prefix + rel.slice(strip)` turns a walk-relative path into a
 * path relative to the file's folder (strip drops the folder's own relative path and its slash; the
 * prefix adds the walk base's path below a folder that lies above it).
 */
export interface Layer {
  rules: RuleSet;
  prefix: string;
  strip: number;
}

/**
 * Whether the layers (deepest first, then the repository-wide files) exclude the entry: the first
 * file with a matching line decides, as git's precedence does (an inner `.gitignore` overrides an
 * outer one, any of them overrides info/exclude and the global excludes file).
 */
export function ignoredBy(layers: readonly Layer[], rel: string, name: string, isDir: boolean): boolean {
  for (let i = 0; i < layers.length; i++) {
    const layer = layers[i] as Layer;
    const verdict = layer.rules.verdict(rel, layer.prefix, layer.strip, name, isDir);
    if (verdict !== NO_MATCH) return verdict === IGNORED;
  }
  return false;
}
