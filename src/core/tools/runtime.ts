import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { Settings } from '../settings';
import { NodeFilePort, type FilePort } from '../fs/filePort';
import { sweepInflight } from '../fs/inflight';
import { resolveToolPath, type PathPurpose, type ResolvedPath } from '../fs/containment';
import { MutationLocks } from './locks';
import type { SkillSource } from './skillSource';
import { SnapshotStore } from './snapshots';
import { PageSnapshots } from './web/snapshots';
import { BrowserSession } from './browser/session';
import { processEnvironment } from '../workspace/environment';
import { ListingCache } from '../workspace/listingCache';
import type { CommandApproval } from './approval';
import type { CredentialSource } from './credentials';
import type { LanguageServices } from './language/port';
import type { EditReview } from './review';
import type { SubagentRunner } from './subagents/port';
import type { WalkEnvironment, WalkResult } from '../workspace/types';
import { walkWorkspace } from '../workspace/walker';

export interface ToolRuntimeOptions {
  /** Workspace root; must be an existing directory. */
  root: string;
  settings?: Settings;
  /** Defaults to the plain Node implementation. */
  files?: FilePort;
  /** Cancels every call of this runtime (the session's signal). */
  signal?: AbortSignal;
  /** Home and environment in which the walker finds git's and Perforce's user files; defaults to this process's. */
  walkEnvironment?: WalkEnvironment;
  /** Names of environment variables holding keys the host keeps in SecretStorage; `bash` strips them from its child's environment. */
  secretEnvNames?: readonly string[];
  /** The session's discovered skills, which `read` opens as `skill://` targets; without it they are unavailable. */
  skills?: SkillSource;
  /** The editor's language services (VS Code host); without them the language tools say they need VS Code. */
  languages?: LanguageServices;
  /** Reviews `write`/`hash_edit` proposals before they apply (magi.edits.review `before`). */
  review?: EditReview;
  /** Decides whether a `bash` command may run; without it every command runs (the CLI never prompts). */
  approval?: CommandApproval;
  /** Why mutating tools are not offered (VS Code's Restricted Mode), or undefined in a trusted workspace. */
  restricted?: string;
  /** API keys for tools that call a service (`view_image`'s vision model); without it they have none. */
  credentials?: CredentialSource;
}

/** Limits of one walk; the defaults are the seed's (100,000 entries, 10 s). */
export interface WalkLimits {
  maxEntries?: number;
  timeoutMs?: number;
}

type RuntimeParts = Pick<ToolRuntime, 'root' | 'settings' | 'files' | 'signal' | 'walkEnvironment' | 'secretEnvNames' | 'skills' | 'subagents' | 'locks' | 'listings' | 'pages' | 'browser' | 'languages' | 'review' | 'approval' | 'restricted' | 'credentials'>;

/**
 * One session's tool state: workspace root, settings, per-file mutation locks, read snapshots,
 * the directory listing cache (`fs_cache`) and the session's cancellation signal. Tools receive
 * it through their context.
 */
export class ToolRuntime {
  /** Canonical (realpath) root. */
  readonly root: string;
  readonly settings: Settings;
  readonly files: FilePort;
  readonly signal: AbortSignal | undefined;
  readonly walkEnvironment: WalkEnvironment;
  /** Extra environment names `bash` never passes to a command (besides the built-in credential list). */
  readonly secretEnvNames: readonly string[];
  /** Discovered skills for `skill://` reads; undefined when the session has none. */
  readonly skills: SkillSource | undefined;
  /** The agent running this runtime, for the `subagents` tool; undefined outside an agent run. */
  readonly subagents: SubagentRunner | undefined;
  readonly languages: LanguageServices | undefined;
  readonly review: EditReview | undefined;
  readonly approval: CommandApproval | undefined;
  /** Why mutating tools are not offered here (Restricted Mode), or undefined. */
  readonly restricted: string | undefined;
  /** API keys for tools that call a service; shared with derived runtimes. */
  readonly credentials: CredentialSource | undefined;
  /** Per-file mutation locks, shared with every runtime derived from this one (subagents). */
  readonly locks: MutationLocks;
  /** Directory listings (never file bytes) shared by every walking tool of the session and its subagents. */
  readonly listings: ListingCache;
  /** Pages `web` has shown (search extracts, opened URLs), shared like the listings; never persisted. */
  readonly pages: PageSnapshots;
  /** The `browser` tool's browser and page `main`, shared (and serialized) like the listings. */
  readonly browser: BrowserSession;
  /** What each `read` showed, for `hash_edit`: each agent has its own. */
  readonly snapshots = new SnapshotStore();

  private constructor(parts: RuntimeParts) {
    this.root = parts.root;
    this.settings = parts.settings;
    this.files = parts.files;
    this.signal = parts.signal;
    this.walkEnvironment = parts.walkEnvironment;
    this.secretEnvNames = parts.secretEnvNames;
    this.skills = parts.skills;
    this.subagents = parts.subagents;
    this.locks = parts.locks;
    this.listings = parts.listings;
    this.pages = parts.pages;
    this.browser = parts.browser;
    this.languages = parts.languages;
    this.review = parts.review;
    this.approval = parts.approval;
    this.restricted = parts.restricted;
    this.credentials = parts.credentials;
  }

  static async create(options: ToolRuntimeOptions): Promise<ToolRuntime> {
    const root = await fsp.realpath(options.root);
    if (!(await fsp.stat(root)).isDirectory()) throw new Error(`workspace root ${options.root} is not a directory`);
    // Temp files of writes that a killed Magi process left in flight (here or in any workspace).
    await sweepInflight();
    const browser = new BrowserSession();
    if (options.signal) browser.closeOnAbort(options.signal);
    return new ToolRuntime({
      root,
      settings: options.settings ?? new Settings(),
      files: options.files ?? new NodeFilePort(),
      signal: options.signal,
      walkEnvironment: options.walkEnvironment ?? processEnvironment(),
      secretEnvNames: options.secretEnvNames ?? [],
      skills: options.skills,
      subagents: undefined,
      locks: new MutationLocks(),
      listings: new ListingCache(),
      pages: new PageSnapshots(),
      browser,
      languages: options.languages,
      review: options.review,
      approval: options.approval,
      restricted: options.restricted,
      credentials: options.credentials,
    });
  }

  /**
   * A runtime for another agent of the same session tree (the agent itself once its skills are
   * found, or a subagent): same root, settings, files, signal, credentials, mutation locks and listing cache;
   * fresh read snapshots, since a `hash_edit` may only use what its own agent read. Skills are
   * inherited unless given; `subagents` is the new agent's runner.
   */
  derive(parts: { skills?: SkillSource; subagents?: SubagentRunner }): ToolRuntime {
    return new ToolRuntime({ ...this.partsOf(), skills: parts.skills ?? this.skills, subagents: parts.subagents });
  }

  private partsOf(): RuntimeParts {
    const { root, settings, files, signal, walkEnvironment, secretEnvNames, skills, subagents, locks, listings, pages, browser, languages, review, approval, restricted, credentials } = this;
    return { root, settings, files, signal, walkEnvironment, secretEnvNames, skills, subagents, locks, listings, pages, browser, languages, review, approval, restricted, credentials };
  }

  /**
   * Walks a directory with the shared gitignore-aware walker (see WalkResult). `dir` is absolute
   * and canonical — a ResolvedPath's `canonical` — or relative to the root; resolve a tool's path
   * argument through `resolve` first. `signal` defaults to the session's (a tool passes its
   * context's, which includes it). Rejects only when the signal aborts.
   */
  walk(dir: string, signal?: AbortSignal, limits: WalkLimits = {}): Promise<WalkResult> {
    return walkWorkspace({
      root: this.root,
      dir: path.resolve(this.root, dir),
      signal: signal ?? this.signal,
      maxEntries: limits.maxEntries,
      timeoutMs: limits.timeoutMs,
      environment: this.walkEnvironment,
    }, this.listings);
  }

  /**
   * Releases what outlives a call: closes the browser Magi started (or the connection to one it
   * attached to). The owner of the runtime calls it (the CLI at exit, the host when it drops the
   * runtime); derived runtimes share the browser, so they are not disposed on their own.
   */
  dispose(): Promise<void> {
    return this.browser.dispose();
  }

  /** Applies the containment rules for `tool` to a path argument. */
  resolve(tool: string, requested: string, purpose: PathPurpose): Promise<ResolvedPath> {
    return resolveToolPath(this, tool, requested, purpose);
  }
}
