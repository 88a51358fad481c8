import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ToolError } from '../tools/errors';
import { idOf, openFolder, removeIfSame, type FileId, type Folder } from './anchor';
import { folderChanged } from './containment';
import { recordInflight } from './inflight';
import { displayPath, errnoOf, isWithin } from './paths';

/**
 * Every file read and write of the tools goes through this port. The core's Node implementation
 * works on disk; the VS Code host supplies one that serves an open editor's unsaved buffer and
 * applies edits the editor can undo. Paths are absolute and already checked by containment; the
 * `within` options carry containment's promise to the moment of writing.
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
  moveFile(fromAbs: string, toAbs: string, options?: MoveOptions): Promise<void>;
  /** Removes a regular file. */
  removeFile(absPath: string, options?: RemoveOptions): Promise<void>;
}

export interface WriteOptions {
  beforeCommit?: () => Promise<void>;
  signal?: AbortSignal;
  /**
   * The folder the file must stay inside (ResolvedPath.within: the workspace root). A write whose
   * folder resolves elsewhere when it starts, or whose temp file is made elsewhere, is refused with
   * nothing left behind; a file that still lands elsewhere (a folder swapped for a symlink during
   * the rename) is removed from there and the write fails with a `conflict` ToolError.
   */
  within?: string;
}

export interface RemoveOptions {
  /** The folder the file must be removed from (ResolvedPath.within); one that now leads elsewhere is refused. */
  within?: string;
}

export interface MoveOptions {
  /** The folder the source is in and must be taken from (ResolvedPath.within of the source). */
  fromWithin?: string;
  /** The folder the destination must land inside (ResolvedPath.within of the destination). */
  toWithin?: string;
}

/**
 * Plain Node implementation: temp file in the target's folder, fsync, rename over the target. The
 * temp file is journaled while in flight (inflight.ts) so a killed process's leftovers are swept.
 * Every name is used through the folder's anchor (anchor.ts), so on Linux a symlink swapped in for
 * a folder after it was opened cannot redirect the temp file, the rename or a removal; elsewhere
 * each step is followed by a check of where the file really is.
 */
export class NodeFilePort implements FilePort {
  /** `stateDir`: where the in-flight journal lives (tests use their own). */
  constructor(private readonly stateDir?: string) {}

  async readFile(absPath: string, signal?: AbortSignal): Promise<Uint8Array> {
    return fsp.readFile(absPath, signal ? { signal } : {});
  }

  async writeFile(absPath: string, data: Uint8Array, options: WriteOptions = {}): Promise<void> {
    const target = { name: path.basename(absPath), display: displayPath(options.within, absPath), within: options.within };
    const folder = await openInside(path.dirname(absPath), target);
    try {
      const temp = `.${target.name}.magi-${randomBytes(6).toString('hex')}.tmp`;
      const mode = await existingMode(folder.at(target.name));
      const forget = await recordInflight(path.join(folder.real, temp), this.stateDir);
      const ours = await stageAndRename(folder, temp, target, data, mode, options, forget);
      await forget();
      await mustHaveLanded(folder, target, ours, 'rename');
    } catch (err) {
      throw folder.inRealPaths(err);
    } finally {
      await folder.close();
    }
  }

  async moveFile(fromAbs: string, toAbs: string, options: MoveOptions = {}): Promise<void> {
    const source = { name: path.basename(fromAbs), display: displayPath(options.fromWithin, fromAbs), within: options.fromWithin };
    const dest = { name: path.basename(toAbs), display: displayPath(options.toWithin, toAbs), within: options.toWithin };
    const from = await openInside(path.dirname(fromAbs), source);
    try {
      const to = await openInside(path.dirname(toAbs), dest);
      try {
        await linkThenUnlink(from, source, to, dest);
      } catch (err) {
        throw from.inRealPaths(to.inRealPaths(err));
      } finally {
        await to.close();
      }
    } finally {
      await from.close();
    }
  }

  async removeFile(absPath: string, options: RemoveOptions = {}): Promise<void> {
    const target = { name: path.basename(absPath), display: displayPath(options.within, absPath), within: options.within };
    const folder = await openInside(path.dirname(absPath), target, 'removed');
    try {
      const id = idOf(await fsp.lstat(folder.at(target.name)));
      // By identity at its real place, so a name that leads elsewhere by now removes nothing.
      if (!(await removeIfSame(folder, target.name, id, target.within))) throw folderChanged(target.display, undefined, 'removed');
    } catch (err) {
      throw folder.inRealPaths(err);
    } finally {
      await folder.close();
    }
  }
}

/** A name in a folder, how the model knows it, and the folder it must stay inside. */
interface Target {
  name: string;
  display: string;
  within: string | undefined;
}

/** Opens the target's folder, refusing one that no longer resolves inside `within`. */
async function openInside(dir: string, target: Target, outcome: 'written' | 'removed' = 'written'): Promise<Folder> {
  const folder = await openFolder(dir).catch((err: unknown) => {
    if (errnoOf(err) !== 'ENOENT') throw err;
    throw new ToolError(`${target.display}: its folder does not exist (any more: moved or removed while the call ran?); nothing was written. Retry the call.`, 'conflict');
  });
  if (folder && inside(target.within, folder.real)) return folder;
  await folder?.close();
  throw folderChanged(target.display, undefined, outcome);
}

/** Writes the temp file and renames it over the target; returns the file's identity. */
async function stageAndRename(
  folder: Folder,
  temp: string,
  target: Target,
  data: Uint8Array,
  mode: number | undefined,
  options: WriteOptions,
  forget: () => Promise<void>,
): Promise<FileId> {
  let ours: FileId | undefined;
  try {
    const handle = await fsp.open(folder.at(temp), 'wx', mode ?? 0o666).catch(changedIfGone(target));
    try {
      ours = idOf(await handle.stat());
      // Not anchored, the open may have followed a symlink swapped in a moment ago. Checked before
      // the first byte is written, so a temp file left where it cannot be found again is empty.
      if (!inside(target.within, await folder.placeOf(temp, ours))) throw folderChanged(target.display);
      await handle.writeFile(data);
      await handle.sync();
      // Through the handle, not the path: the path is only as good as the last check.
      if (mode !== undefined) await handle.chmod(mode);
    } finally {
      await handle.close();
    }
    options.signal?.throwIfAborted();
    await options.beforeCommit?.();
    await fsp.rename(folder.at(temp), folder.at(target.name)).catch(changedIfGone(target));
    return ours;
  } catch (err) {
    // Removed where it really is and only while it is still ours, never by a path that may lead
    // elsewhere by now. One that cannot be found keeps its journal entry (inflight.ts), so the
    // next Magi to start after this process removes it by name.
    if (ours === undefined || (await removeIfSame(folder, temp, ours))) await forget();
    throw err;
  }
}

/**
 * After the rename (or link): the file must be ours and inside `within`. Not anchored, one that
 * landed elsewhere went through a folder swapped for a symlink during the rename: it is removed from
 * there and the call fails. Anchored, a rename can only land in the target's own folder, so outside
 * means that folder itself was moved out of the workspace meanwhile: the file stays with it (removing
 * it would lose the old content and the new) and the call says where it is. A link made by a move
 * is always taken back; the source is still in place.
 */
async function mustHaveLanded(folder: Folder, target: Target, ours: FileId, by: 'rename' | 'link'): Promise<void> {
  if (target.within === undefined) return;
  const landed = await folder.placeOf(target.name, ours);
  if (inside(target.within, landed)) return;
  if (landed === undefined) {
    throw new ToolError(
      `${target.display}: a folder on its path changed (a symlink was swapped in) during the ${by}, and Magi cannot confirm where the file went. Check ${target.display}, and the folder that path pointed to, before retrying.`,
      'conflict',
    );
  }
  if (by === 'rename' && folder.anchored) {
    throw new ToolError(
      `${target.display}: written, but its folder was moved out of the workspace during the write; the file is now at ${landed}. It was left there, in its own folder; find out where the folder went before retrying.`,
      'conflict',
    );
  }
  await removeIfSame(folder, target.name, ours);
  // A rename replaces a file of the same name where it lands; a link never does.
  const replaced = by === 'rename' ? ' (if a file of that name was there, the rename replaced it)' : '';
  throw new ToolError(
    `${target.display}: the file landed at ${landed}, outside ${target.within}, because a folder on its path was swapped for a symlink (or moved) during the ${by}. Magi removed it from there${replaced}; nothing was changed in the workspace. Retry the call.`,
    'conflict',
  );
}

/** link + unlink refuses an existing destination atomically, where rename would replace it. */
async function linkThenUnlink(from: Folder, source: Target, to: Folder, dest: Target): Promise<void> {
  const moving = idOf(await fsp.lstat(from.at(source.name)));
  let made: FileId;
  try {
    await fsp.link(from.at(source.name), to.at(dest.name));
    made = moving;
  } catch (err) {
    if (errnoOf(err) !== 'EXDEV' && errnoOf(err) !== 'EPERM') throw err;
    await fsp.copyFile(from.at(source.name), to.at(dest.name), fsp.constants.COPYFILE_EXCL);
    made = idOf(await fsp.lstat(to.at(dest.name)));
  }
  await mustHaveLanded(to, dest, made, 'link');
  // The source goes only from inside its folder: not anchored, its path may lead elsewhere by now.
  if (!(await removeIfSame(from, source.name, moving, source.within))) {
    await removeIfSame(to, dest.name, made);
    throw folderChanged(source.display);
  }
}

/**
 * ENOENT for a name in a folder that was just opened or checked: the folder was moved or swapped
 * meanwhile (not anchored, its path leads elsewhere; anchored, it was removed).
 */
function changedIfGone(target: Target): (err: unknown) => never {
  return (err) => {
    throw errnoOf(err) === 'ENOENT' ? folderChanged(target.display) : err;
  };
}

function inside(within: string | undefined, real: string | undefined): boolean {
  return within === undefined || (real !== undefined && isWithin(within, real));
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
