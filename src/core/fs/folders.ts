import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { ToolError } from '../tools/errors';
import { openChild, openFolder, type Folder } from './anchor';
import { folderChanged } from './containment';
import { errnoOf, isWithin } from './paths';

/** Who asks, for the messages: the tool's name and the target as the model wrote it. */
export interface FolderCaller {
  tool: string;
  /** The file whose folders are made (ResolvedPath.display). */
  display: string;
  /** The folder everything made must stay inside (ResolvedPath.within); undefined: anywhere. */
  within: string | undefined;
}

/**
 * Creates the missing folders of `dir`, one at a time and never through a symlink: `mkdir -p`
 * would follow a symlink swapped in for a folder on the way and create the rest wherever it
 * points. Each new folder is made inside its parent's anchor (anchor.ts), then opened without
 * following links, and its real path must be inside `within`. Returns the real paths of the
 * folders it made, outermost first; on a refusal, the folders it made are removed again.
 */
export async function makeFolders(dir: string, caller: FolderCaller): Promise<string[]> {
  const { existing, missing } = await splitExisting(dir, caller);
  if (missing.length === 0) return [];
  const made: string[] = [];
  let folder = await openFolder(existing).catch(gone(caller));
  try {
    refuseUnlessInside(folder, caller);
    for (const name of missing) {
      try {
        await fsp.mkdir(folder.at(name));
        made.push(path.join(folder.real, name));
      } catch (err) {
        // The parent was just opened or made: gone now means it was moved or swapped meanwhile.
        if (errnoOf(err) === 'ENOENT') throw folderChanged(caller.display, caller.tool);
        // Made meanwhile by another call (or another program): fine if it is a real folder.
        if (errnoOf(err) !== 'EEXIST') throw folder.inRealPaths(err);
      }
      const parent: Folder = folder;
      folder = undefined;
      try {
        folder = await openChild(parent, name);
      } catch (err) {
        // Gone again, or replaced by a file, right after it was made or found.
        throw errnoOf(err) === 'ENOTDIR' ? notAFolder(caller) : errnoOf(err) === 'ENOENT' ? folderChanged(caller.display, caller.tool) : err;
      } finally {
        await parent.close();
      }
      refuseUnlessInside(folder, caller);
    }
  } catch (err) {
    await removeFolders(made);
    throw err;
  } finally {
    await folder?.close();
  }
  return made;
}

/**
 * Removes folders `makeFolders` made, deepest first, each only while it is empty and its parent is
 * still where it was: a folder someone has put files in since stays, and so does one whose path
 * now leads somewhere else.
 */
export async function removeFolders(made: readonly string[]): Promise<void> {
  for (const folderPath of [...made].reverse()) {
    const parent = await openFolder(path.dirname(folderPath)).catch((err: unknown) => {
      if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') return undefined;
      throw err;
    });
    if (!parent) continue;
    try {
      if (parent.real === path.dirname(folderPath)) await fsp.rmdir(parent.at(path.basename(folderPath)));
    } catch (err) {
      const code = errnoOf(err);
      if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR') throw err;
    } finally {
      await parent.close();
    }
  }
}

/** The deepest folder of `dir` that exists (symlinks on the way are followed, as containment did) and the names below it. */
async function splitExisting(dir: string, caller: FolderCaller): Promise<{ existing: string; missing: string[] }> {
  const missing: string[] = [];
  let current = dir;
  for (;;) {
    try {
      if (!(await fsp.stat(current)).isDirectory()) throw notAFolder(caller);
      return { existing: current, missing };
    } catch (err) {
      if (errnoOf(err) === 'ENOTDIR') throw notAFolder(caller);
      if (errnoOf(err) !== 'ENOENT') throw err;
      const parent = path.dirname(current);
      if (parent === current) throw err;
      missing.unshift(path.basename(current));
      current = parent;
    }
  }
}

/** Refuses unless the folder was opened as checked (openFolder/openChild) and lies inside `within`. */
function refuseUnlessInside(folder: Folder | undefined, caller: FolderCaller): asserts folder is Folder {
  if (!folder || (caller.within !== undefined && !isWithin(caller.within, folder.real))) throw folderChanged(caller.display, caller.tool);
}

/** A folder that was just found missing again: it was moved or removed meanwhile. */
function gone(caller: FolderCaller): (err: unknown) => never {
  return (err) => {
    throw errnoOf(err) === 'ENOENT' ? folderChanged(caller.display, caller.tool) : err;
  };
}

function notAFolder(caller: FolderCaller): ToolError {
  return new ToolError(`${caller.tool}: a parent of ${caller.display} exists and is not a folder.`);
}
