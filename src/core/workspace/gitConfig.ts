import * as path from 'node:path';
import { envValue } from './environment';
import { MAX_CONFIG_FILE_BYTES, statIfExists, type ListingCache } from './listingCache';
import type { WalkEnvironment } from './types';

/** A git repository found at or above the walk base. */
export interface GitRepo {
  /** The folder holding `.git`: what info/exclude and the global excludes file are relative to. */
  worktree: string;
  /** Where info/exclude and config live (a linked worktree's common directory). */
  commonDir: string;
  /** This worktree's own git directory, which holds its index (`.git`, or where a `.git` file points). */
  gitDir: string;
}

/** The value of a quoted-or-bare git config value, from just after `=`; returns it and where it ended. */
function parseValue(text: string, start: number): { value: string; end: number } {
  let value = '';
  let kept = 0;
  let quoted = false;
  let i = start;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '\n' && !quoted) break;
    if (c === '\\') {
      const next = text[i + 1];
      if (next === '\n') i += 2;
      else if (next === '\r' && text[i + 2] === '\n') i += 3;
      else {
        value += next === 'n' ? '\n' : next === 't' ? '\t' : next === 'b' ? '\b' : (next ?? '');
        kept = value.length;
        i += 2;
      }
      continue;
    }
    if (c === '"') {
      quoted = !quoted;
      kept = value.length;
    } else if ((c === '#' || c === ';') && !quoted) {
      while (i < text.length && text[i] !== '\n') i++;
      break;
    } else if (quoted || !/\s/.test(c) || value !== '') {
      value += c;
      if (quoted || !/\s/.test(c)) kept = value.length;
    }
    i++;
  }
  return { value: value.slice(0, kept), end: i };
}

/**
 * The last value of `section.key` (no subsection) in git config text: sections and keys are
 * case-insensitive, values may be quoted, escaped and continued with a trailing backslash, and
 * `#`/`;` start comments. `include`/`includeIf` are not followed.
 */
export function configValue(text: string, section: string, key: string): string | undefined {
  let current = '';
  let result: string | undefined;
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '#' || c === ';') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '[') {
      const close = text.indexOf(']', i);
      if (close === -1) break;
      const header = text.slice(i + 1, close).trim();
      // `[core "x"]` and the older `[core.x]` are subsections, never plain `[core]`.
      current = /[\s".]/.test(header) ? '\0' : header.toLowerCase();
      i = close + 1;
    } else {
      const name = /^[A-Za-z][A-Za-z0-9-]*/.exec(text.slice(i, i + 256))?.[0];
      if (!name) {
        while (i < text.length && text[i] !== '\n') i++;
        continue;
      }
      i += name.length;
      while (text[i] === ' ' || text[i] === '\t') i++;
      if (text[i] !== '=') continue; // a bare boolean key
      const parsed = parseValue(text, i + 1);
      i = parsed.end;
      if (current === section && name.toLowerCase() === key) result = parsed.value;
    }
  }
  return result;
}

/** `~` and `~/…` as git expands them in pathname values; relative paths are taken from `base`. */
export function expandPath(value: string, home: string, base: string): string {
  if (value === '~') return home;
  if (value.startsWith('~/')) return path.join(home, value.slice(2));
  return path.resolve(base, value);
}

/** First line of a small file such as `.git` (`gitdir: …`) or `commondir`. */
function firstLine(cache: ListingCache, file: string): string | undefined {
  return cache.derived(file, MAX_CONFIG_FILE_BYTES, (text) => text.split(/\r?\n/)[0]?.trim() ?? '');
}

/**
 * The repository containing `start`: the nearest folder at or above it with a `.git` folder or
 * `.git` file (`gitdir: …`, as linked worktrees and submodules have). No git process is run.
 */
export function findRepo(start: string, cache: ListingCache): GitRepo | undefined {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    const stat = statIfExists(dotGit);
    if (stat) {
      let gitDir = dotGit;
      if (!stat.isDirectory()) {
        const line = firstLine(cache, dotGit);
        if (!line?.startsWith('gitdir:')) return undefined;
        gitDir = path.resolve(dir, line.slice('gitdir:'.length).trim());
      }
      const common = firstLine(cache, path.join(gitDir, 'commondir'));
      return { worktree: dir, commonDir: common ? path.resolve(gitDir, common) : gitDir, gitDir };
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The global excludes file git would use: `core.excludesFile` from the user's config
 * ($XDG_CONFIG_HOME/git/config, then ~/.gitconfig) or the repository's own config, the last
 * definition winning as in git; unset, $XDG_CONFIG_HOME/git/ignore (XDG_CONFIG_HOME defaulting to
 * ~/.config).
 */
export function globalExcludesFile(environment: WalkEnvironment, repo: GitRepo | undefined, base: string, cache: ListingCache): string {
  const home = environment.home;
  const xdg = envValue(environment, 'XDG_CONFIG_HOME') ?? path.join(home, '.config');
  const configs = [path.join(xdg, 'git', 'config'), path.join(home, '.gitconfig')];
  if (repo) configs.push(path.join(repo.commonDir, 'config'));
  let value: string | undefined;
  for (const file of configs) {
    const found = cache.derived(file, MAX_CONFIG_FILE_BYTES, (text) => configValue(text, 'core', 'excludesfile') ?? null);
    if (found) value = found;
  }
  return value ? expandPath(value, home, repo?.worktree ?? base) : path.join(xdg, 'git', 'ignore');
}

/**
 * Bytes of an object name in the repository: 32 when `extensions.objectFormat` is sha256, 20 for
 * sha1 (the default); undefined for a format git does not have.
 */
export function objectNameBytes(repo: GitRepo, cache: ListingCache): number | undefined {
  const format = cache.derived(path.join(repo.commonDir, 'config'), MAX_CONFIG_FILE_BYTES, (text) => configValue(text, 'extensions', 'objectformat') ?? null);
  const name = format ?? 'sha1';
  return name === 'sha1' ? 20 : name === 'sha256' ? 32 : undefined;
}
