/**
 * The shared workspace walker's contract: one gitignore-aware traversal feeding find, grep,
 * repo_map and directory-mode ast_grep. (list_files is a raw shallow listing and does not use it.)
 */

/** Defaults of the newer seed: at most 100,000 entries (the walked directory itself counts) and 10 s per scan. */
export const WALK_MAX_ENTRIES = 100_000;
export const WALK_TIMEOUT_MS = 10_000;

export interface WalkRequest {
  /** Canonical (realpath) workspace root. */
  root: string;
  /**
   * Canonical absolute directory to walk: the root, a folder inside it, or (when a tool's
   * absolute_paths setting allows) a folder outside it, which is then its own ignore base.
   */
  dir: string;
  signal?: AbortSignal;
  /** Defaults to WALK_MAX_ENTRIES. */
  maxEntries?: number;
  /** Defaults to WALK_TIMEOUT_MS; cooperative (a single filesystem call can exceed it). */
  timeoutMs?: number;
  /** Home, environment variables and platform for git's and Perforce's user files; defaults to this process's. */
  environment?: WalkEnvironment;
  /**
   * Whether tracked files come out whatever the ignore rules say, read from the repository's git
   * index (default true). False walks with the ignore rules alone, as when there is no index
   * (benchmarks compare the two).
   */
  gitIndex?: boolean;
}

/**
 * Where the walker looks for the user's files: ~/.gitconfig, $XDG_CONFIG_HOME/git/{config,ignore},
 * P4CONFIG, P4ENVIRO (default ~/.p4enviro on POSIX systems other than macOS), P4IGNORE. Injectable
 * so that tests (and a host with its own idea of the user) never depend on the real home.
 */
export interface WalkEnvironment {
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
}

/** Why a scan may be incomplete, reported by every tool that walks (metadata keys as the seed names them). */
export interface WalkFacts {
  scan_complete: boolean;
  /** Entries visited, the walked directory itself included. */
  entries_scanned: number;
  entry_limit_reached: boolean;
  timed_out: boolean;
  /** Directories or entries that could not be read (permission denied, vanished …). */
  walk_errors: number;
  /** Entries seen in listings but not visited because a limit stopped the scan. */
  walk_entries_omitted: number;
}

export interface WalkResult {
  /**
   * Files not ignored — and tracked files even when an ignore rule matches them, as git lists
   * them (read from the git index; a tracked file missing from the disk is not listed) — as
   * display paths: root-relative with `/` when `dir` is inside the root,
   * absolute when it is outside. Symlinks are listed as files (as git lists them) and never
   * followed. Order: byte order of the whole path (a depth-first walk whose children sort with a
   * directory `d` keyed as `d/`, which is what makes the two agree).
   */
  files: string[];
  /** Directories not ignored or holding tracked files (the walked directory itself excluded), same form, no trailing `/`. */
  dirs: string[];
  /** Absolute paths of the AGENTS.md files that apply: in `dir`, its ancestors up to the root, and below it. */
  agents: string[];
  /** Absolute directory the display paths are relative to (the root), or '' when they are absolute. */
  base: string;
  /** FIFOs, sockets and devices left out of `files` (git lists none of them); grep reports them as skipped. */
  specials: number;
  facts: WalkFacts;
  /**
   * Why the list may differ from git's although the scan is complete, each a sentence that says
   * what to do: the repository's git index exists but could not be used (a split or sparse index,
   * an unreadable, oversized or corrupt one), so tracked files that an ignore rule matches are
   * missing. Empty when there is nothing to say.
   */
  warnings: string[];
}
