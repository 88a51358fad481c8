import { constants, promises as fsp, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { errnoOf, isWithin } from './paths';

/**
 * A folder a write works in, opened once so that a symlink swapped into its path afterwards cannot
 * redirect the names used inside it.
 *
 * Node has no openat/mkdirat/renameat. On Linux, `/proc/self/fd/N/NAME` (N an open handle of the
 * folder) is looked up from the folder itself, wherever its path leads now, which gives the same
 * effect: the folder is "anchored". Elsewhere (macOS, Windows, a Linux without /proc) a folder is
 * its real path, and `locate` tells whether a name still leads to the file that was made there; the
 * callers check and undo with that. The README's "Tools" section says what remains in each case.
 */
export interface Folder {
  /** The folder's symlink-free path when it was opened. */
  readonly real: string;
  /** Whether `at` goes through an open handle of the folder (Linux) or through `real`. */
  readonly anchored: boolean;
  /** The path through which to create, rename or remove `name` in this folder. */
  at(name: string): string;
  /**
   * The real path of `name` when it is the file `id` (same device and inode), else undefined.
   * Anchored: the folder's current location plus `name`. Otherwise: wherever the path through
   * `real` leads right now, which may be outside the folder if a symlink was swapped in.
   */
  locate(name: string, id: FileId): Promise<string | undefined>;
  /**
   * Where `name`, just created or renamed through `at` (the file `id`), really is. Anchored, it is in
   * this folder by construction, so only where the folder is now is asked (one call); otherwise
   * it is `locate`.
   */
  placeOf(name: string, id: FileId): Promise<string | undefined>;
  /** `err` with `at` paths in its message shown as real paths, for the model and the person. */
  inRealPaths(err: unknown): unknown;
  close(): Promise<void>;
}

/** What makes a file the one we made: a name can be pointed elsewhere, an inode cannot. */
export interface FileId {
  dev: number;
  ino: number;
}

export function idOf(stats: Stats): FileId {
  return { dev: stats.dev, ino: stats.ino };
}

// A folder handle that refuses a final symlink; it is only a name to look up from, never read.
const FOLDER_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** Whether /proc/self/fd names this process's handles (Linux with /proc mounted); learnt once. */
let procFd: Promise<boolean> | undefined;

/**
 * Turns anchoring off (false) or back to what the platform offers (undefined). Tests use it to run
 * the path-only way macOS and Windows take.
 */
export function useAnchoring(enabled: false | undefined): void {
  procFd = enabled === false ? Promise.resolve(false) : undefined;
}

/** Whether folders are anchored here (Linux with /proc), or only checked by path. */
export function anchoring(): Promise<boolean> {
  procFd ??= process.platform !== 'linux'
    ? Promise.resolve(false)
    : fsp.stat('/proc/self/fd').then((stats) => stats.isDirectory(), () => false);
  return procFd;
}

/**
 * Opens `dir` (which must exist) as a Folder; its `real` is where the opened folder really is, for
 * the caller to check. Undefined when a symlink was swapped in or out while it was being opened.
 */
export async function openFolder(dir: string): Promise<Folder | undefined> {
  if (await anchoring()) {
    // Whatever the path led to, the kernel says where the opened folder is; the caller checks that.
    const direct = await openFolderHandle(dir);
    if (direct) return anchoredAt(direct);
    // `dir` itself is a symlink (to a folder inside the root, say): open its target, and make sure
    // the folder opened is the one its real path named a moment ago.
    const real = await fsp.realpath(dir);
    const handle = await openFolderHandle(real);
    if (!handle) return undefined;
    if ((await handlePath(handle)) === real) return new AnchoredFolder(handle, real);
    await handle.close();
    return undefined;
  }
  const real = await fsp.realpath(dir);
  const stats = await fsp.lstat(real);
  if (stats.isSymbolicLink()) return undefined;
  if (!stats.isDirectory()) throw notADirectory(real);
  return new PathFolder(real);
}

/**
 * Opens the folder `name` inside `parent`, never through a symlink. Undefined when `name` is a
 * symlink (or, not anchored, when the path to it is no longer symlink-free); throws ENOTDIR when
 * it is a file and ENOENT when it is gone.
 */
export async function openChild(parent: Folder, name: string): Promise<Folder | undefined> {
  const expected = path.join(parent.real, name);
  if (parent instanceof AnchoredFolder) {
    const handle = await openFolderHandle(parent.at(name));
    return handle && anchoredAt(handle);
  }
  const stats = await fsp.lstat(expected);
  if (stats.isSymbolicLink()) return undefined;
  if (!stats.isDirectory()) throw notADirectory(expected);
  // The name is a real folder; whether the path to it still is, only its realpath says.
  if ((await fsp.realpath(expected)) !== expected) return undefined;
  return new PathFolder(expected);
}

/**
 * Removes `name` from `folder` when it is still the file `id` and, with `within`, really lies inside
 * it; true when removed. A file put there by anyone else stays, and so does one that is elsewhere.
 */
export async function removeIfSame(folder: Folder, name: string, id: FileId, within?: string): Promise<boolean> {
  const where = await folder.locate(name, id);
  if (where === undefined || (within !== undefined && !isWithin(within, where))) return false;
  try {
    // Anchored, the handle's path is exact; otherwise the real path just located is the best there is.
    await fsp.unlink(folder.anchored ? folder.at(name) : where);
    return true;
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return false;
    throw err;
  }
}

/** The folder of an open handle, at the path the kernel gives for it; undefined once it was removed. */
async function anchoredAt(handle: FileHandle): Promise<Folder | undefined> {
  const real = await handlePath(handle);
  if (real !== undefined) return new AnchoredFolder(handle, real);
  await handle.close();
  return undefined;
}

class AnchoredFolder implements Folder {
  readonly anchored = true;
  constructor(
    private readonly handle: FileHandle,
    readonly real: string,
  ) {}

  at(name: string): string {
    return `/proc/self/fd/${this.handle.fd}/${name}`;
  }

  async locate(name: string, id: FileId): Promise<string | undefined> {
    if (!(await isFile(this.at(name), id))) return undefined;
    return this.placeOf(name);
  }

  async placeOf(name: string): Promise<string | undefined> {
    const now = await handlePath(this.handle);
    return now === undefined ? undefined : path.join(now, name);
  }

  inRealPaths(err: unknown): unknown {
    const prefix = this.at('');
    if (err instanceof Error && err.message.includes(prefix)) err.message = err.message.split(prefix).join(this.real + path.sep);
    return err;
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

class PathFolder implements Folder {
  readonly anchored = false;
  constructor(readonly real: string) {}

  at(name: string): string {
    return path.join(this.real, name);
  }

  async locate(name: string, id: FileId): Promise<string | undefined> {
    const at = this.at(name);
    if (!(await isFile(at, id))) return undefined;
    try {
      return await fsp.realpath(at);
    } catch (err) {
      if (errnoOf(err) === 'ENOENT') return undefined;
      throw err;
    }
  }

  placeOf(name: string, id: FileId): Promise<string | undefined> {
    return this.locate(name, id);
  }

  inRealPaths(err: unknown): unknown {
    return err;
  }

  async close(): Promise<void> {
    // Nothing is held open.
  }
}

function notADirectory(p: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOTDIR: not a directory, open '${p}'`), { code: 'ENOTDIR' });
}

/** A handle of the folder at `p` that refuses a final symlink; undefined when `p` is one. */
async function openFolderHandle(p: string): Promise<FileHandle | undefined> {
  try {
    return await fsp.open(p, FOLDER_FLAGS);
  } catch (err) {
    // Linux answers a symlink under O_NOFOLLOW | O_DIRECTORY with ENOTDIR, not ELOOP. A folder
    // there now means a symlink was there a moment ago; only a file is truly "not a directory".
    if (errnoOf(err) !== 'ELOOP' && errnoOf(err) !== 'ENOTDIR') throw err;
    const now = await fsp.lstat(p);
    if (now.isSymbolicLink() || now.isDirectory()) return undefined;
    throw err;
  }
}

/** The current path of an open folder according to the kernel; undefined once it was removed. */
async function handlePath(handle: FileHandle): Promise<string | undefined> {
  try {
    const shown = await fsp.readlink(`/proc/self/fd/${handle.fd}`);
    if (!path.isAbsolute(shown)) return undefined;
    // A folder removed while open reads as "PATH (deleted)"; a folder may also be named so.
    if (shown.endsWith(' (deleted)') && (await handle.stat()).nlink === 0) return undefined;
    return shown;
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return undefined;
    throw err;
  }
}

async function isFile(p: string, id: FileId): Promise<boolean> {
  try {
    const stats = await fsp.lstat(p);
    return stats.dev === id.dev && stats.ino === id.ino;
  } catch (err) {
    if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') return false;
    throw err;
  }
}
