import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { recordInflight } from './inflight';

/**
 * Every file read and write of the tools goes through this port. The core's Node implementation
 * works on disk; the VS Code host supplies one that serves an open editor's unsaved buffer and
 * applies edits the editor can undo. Paths are absolute and already checked by containment.
 */
export interface FilePort {
  /** The file's current bytes (an editor's unsaved text, when the host has one). */
  readFile(absPath: string, signal?: AbortSignal): Promise<Uint8Array>;
  /**
   * Replaces or creates the file atomically. `beforeCommit` runs after the new bytes are staged and
   * just before they replace the target; when it throws, nothing is replaced and the error propagates.
   */
  writeFile(absPath: string, data: Uint8Array, options: WriteOptions): Promise<void>;
  /** Moves a regular file; the destination must not exist. */
  moveFile(fromAbs: string, toAbs: string): Promise<void>;
  /** Removes a regular file. */
  removeFile(absPath: string): Promise<void>;
}

export interface WriteOptions {
  beforeCommit?: () => Promise<void>;
  signal?: AbortSignal;
}

/**
 * Plain Node implementation: temp file in the target's folder, fsync, rename over the target. The
 * temp file is journaled while in flight (inflight.ts) so a killed process's leftovers are swept.
 */
export class NodeFilePort implements FilePort {
  /** `stateDir`: where the in-flight journal lives (tests use their own). */
  constructor(private readonly stateDir?: string) {}

  async readFile(absPath: string, signal?: AbortSignal): Promise<Uint8Array> {
    return fsp.readFile(absPath, signal ? { signal } : {});
  }

  async writeFile(absPath: string, data: Uint8Array, options: WriteOptions = {}): Promise<void> {
    const dir = path.dirname(absPath);
    const temp = path.join(dir, `.${path.basename(absPath)}.magi-${randomBytes(6).toString('hex')}.tmp`);
    const mode = await existingMode(absPath);
    const forget = await recordInflight(temp, this.stateDir);
    try {
      await this.stageAndRename(temp, absPath, data, mode, options);
    } finally {
      await forget();
    }
  }

  private async stageAndRename(temp: string, absPath: string, data: Uint8Array, mode: number | undefined, options: WriteOptions): Promise<void> {
    const handle = await fsp.open(temp, 'wx', mode ?? 0o666);
    try {
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (mode !== undefined) await fsp.chmod(temp, mode);
      options.signal?.throwIfAborted();
      await options.beforeCommit?.();
      await fsp.rename(temp, absPath);
    } catch (err) {
      await fsp.rm(temp, { force: true });
      throw err;
    }
  }

  async moveFile(fromAbs: string, toAbs: string): Promise<void> {
    // link + unlink refuses an existing destination atomically, where rename would replace it.
    try {
      await fsp.link(fromAbs, toAbs);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV' && (err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
      await fsp.copyFile(fromAbs, toAbs, fsp.constants.COPYFILE_EXCL);
    }
    await fsp.unlink(fromAbs);
  }

  async removeFile(absPath: string): Promise<void> {
    await fsp.unlink(absPath);
  }
}

/** Permission bits of an existing file, so an overwrite keeps them; undefined for a new file. */
async function existingMode(absPath: string): Promise<number | undefined> {
  try {
    return (await fsp.stat(absPath)).mode & 0o7777;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
