import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { ToolError } from '../tools/errors';
import { absolutePathsKey, type Settings } from '../settings';
import { errnoOf as errno, isWithin, toSlashes } from './paths';

/** A path a tool may use, after every containment rule has been applied. */
export interface ResolvedPath {
  /** Absolute path to operate on. */
  absolute: string;
  /** Symlink-free identity of the target, the key of locks and read snapshots. */
  canonical: string;
  /** Root-relative with `/` inside the root; absolute outside it. */
  display: string;
  insideRoot: boolean;
  /**
   * The folder a write to this path must stay inside, for the FilePort to enforce at the moment of
   * writing: the root for a path inside it, undefined for an absolute path outside it (allowed).
   */
  within: string | undefined;
}

/** What the tool is about to do with the path, which decides the symlink rules. */
export type PathPurpose = 'read' | 'write' | 'directory';

export interface ContainmentScope {
  /** Canonical (realpath) workspace root. */
  root: string;
  settings: Settings;
}

/** Realpath of the deepest existing ancestor of `abs`, with the missing tail appended. */
export async function canonicalize(abs: string): Promise<string> {
  const missing: string[] = [];
  let current = abs;
  for (;;) {
    try {
      const real = await fsp.realpath(current);
      return missing.length ? path.join(real, ...missing.reverse()) : real;
    } catch (err) {
      if (errno(err) !== 'ENOENT' && errno(err) !== 'ENOTDIR') throw err;
      const parent = path.dirname(current);
      if (parent === current) return abs;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/**
 * Resolves a tool's path argument. Relative paths can never leave the root, neither with `..` nor
 * through a symlinked parent; absolute paths inside the root behave like relative ones; absolute
 * paths outside it are allowed unless `capabilities.tools.<tool>.absolute_paths` is false. A path
 * for writing must not be a symlink itself. Nothing is created or changed here.
 */
export async function resolveToolPath(scope: ContainmentScope, tool: string, requested: string, purpose: PathPurpose): Promise<ResolvedPath> {
  if (requested.trim() === '') throw new ToolError(`${tool}: path must not be empty or blank.`);
  if (requested.includes('\0')) throw new ToolError(`${tool}: path must not contain NUL characters.`);

  const absolute = path.resolve(scope.root, requested);
  const lexicallyInside = isWithin(scope.root, absolute);
  if (!path.isAbsolute(requested) && !lexicallyInside) {
    throw new ToolError(`${tool}: ${requested} escapes the workspace root; use a path inside ${scope.root}.`, 'outside_root');
  }

  // For writes the final component may be a symlink we must refuse, so resolve only its parent.
  const parentCanonical = await canonicalize(path.dirname(absolute));
  const canonical = purpose === 'write' ? path.join(parentCanonical, path.basename(absolute)) : await canonicalize(absolute);
  // Only a write leaves its last component unresolved, so only a write needs its parent checked too;
  // for the others the parent check would refuse the root itself, whose parent is outside.
  const insideRoot = isWithin(scope.root, canonical) && (purpose !== 'write' || isWithin(scope.root, parentCanonical));

  if (!insideRoot) {
    if (!path.isAbsolute(requested) || lexicallyInside) {
      throw new ToolError(`${tool}: ${requested} resolves outside the workspace root through a symlink; use a path whose real location is inside ${scope.root}.`, 'outside_root');
    }
    if (!scope.settings.absolutePathsAllowed(tool)) {
      throw new ToolError(
        `${tool}: ${requested} is outside the workspace root and the setting ${absolutePathsKey(tool)} is false; use a path inside ${scope.root} or enable that setting.`,
        'setting_denied',
      );
    }
  }

  if (purpose === 'write') await refuseSymlink(tool, absolute, requested);
  const display = insideRoot ? toSlashes(path.relative(scope.root, lexicallyInside ? absolute : canonical)) || '.' : absolute;
  return { absolute: insideRoot && !lexicallyInside ? canonical : absolute, canonical, display, insideRoot, within: insideRoot ? scope.root : undefined };
}

async function refuseSymlink(tool: string, absolute: string, requested: string): Promise<void> {
  try {
    const stat = await fsp.lstat(absolute);
    if (stat.isSymbolicLink()) {
      throw new ToolError(`${tool}: ${requested} is a symbolic link; writes never go through a symlink. Edit the link's target path instead.`, 'symlink');
    }
  } catch (err) {
    if (err instanceof ToolError) throw err;
    if (errno(err) !== 'ENOENT') throw err;
  }
}

/**
 * Checks, just before an atomic replacement, that the target's parent still resolves where it did
 * at validation time and the target has not become a symlink.
 */
export async function recheckBeforeWrite(tool: string, resolved: ResolvedPath): Promise<void> {
  const parentNow = await canonicalize(path.dirname(resolved.absolute));
  if (parentNow !== path.dirname(resolved.canonical)) throw folderChanged(resolved.display, tool);
  await refuseSymlink(tool, resolved.absolute, resolved.display);
}

/**
 * The refusal when a folder on the way to `display` was swapped for a symlink (or moved) between
 * the checks and the write. `tool` is absent where the refusal comes from the FilePort, which
 * serves every tool.
 */
export function folderChanged(display: string, tool?: string, outcome: 'written' | 'removed' = 'written'): ToolError {
  return new ToolError(`${tool ? `${tool}: ` : ''}the folder of ${display} changed (a symlink was swapped in) while the call ran; nothing was ${outcome}. Retry the call.`, 'conflict');
}
