import { promises as fsp } from 'node:fs';
import { Settings } from '../settings';
import { NodeFilePort, type FilePort } from '../fs/filePort';
import { resolveToolPath, type PathPurpose, type ResolvedPath } from '../fs/containment';
import { MutationLocks } from './locks';
import { SnapshotStore } from './snapshots';

export interface ToolRuntimeOptions {
  /** Workspace root; must be an existing directory. */
  root: string;
  settings?: Settings;
  /** Defaults to the plain Node implementation. */
  files?: FilePort;
  /** Cancels every call of this runtime (the session's signal). */
  signal?: AbortSignal;
}

/**
 * One session's tool state: workspace root, settings, per-file mutation locks, read snapshots and
 * the session's cancellation signal. Tools receive it through their context.
 */
export class ToolRuntime {
  readonly locks = new MutationLocks();
  readonly snapshots = new SnapshotStore();

  private constructor(
    /** Canonical (realpath) root. */
    readonly root: string,
    readonly settings: Settings,
    readonly files: FilePort,
    readonly signal: AbortSignal | undefined,
  ) {}

  static async create(options: ToolRuntimeOptions): Promise<ToolRuntime> {
    const root = await fsp.realpath(options.root);
    if (!(await fsp.stat(root)).isDirectory()) throw new Error(`workspace root ${options.root} is not a directory`);
    return new ToolRuntime(root, options.settings ?? new Settings(), options.files ?? new NodeFilePort(), options.signal);
  }

  /** Applies the containment rules for `tool` to a path argument. */
  resolve(tool: string, requested: string, purpose: PathPurpose): Promise<ResolvedPath> {
    return resolveToolPath(this, tool, requested, purpose);
  }
}
