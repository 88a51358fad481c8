import { promises as fsp, type Dirent } from 'node:fs';
import { errnoOf } from '../../fs/paths';
import { ToolError } from '../../tools/errors';
import { decodeUtf8 } from '../../tools/textDoc';
import { FrontmatterError, parseFrontmatter, type Frontmatter } from './frontmatter';

/**
 * What skill and agent discovery share: listing a definitions folder, reading one definition file
 * under a cap, and the rules on names and descriptions. Nothing here throws for a bad definition;
 * every reason to skip one goes to the caller's `problems`.
 */

/** Where a definition was found; the workspace's win over the user's on a name clash. */
export type DefinitionSource = 'workspace' | 'user';

export const NAME_RULE = /^[a-z0-9_-]{1,64}$/;
export const MAX_DESCRIPTION_CHARS = 1024;

/**
 * The entries of `dir`, sorted by name so discovery is deterministic; [] when the folder does not
 * exist (the usual case). Any other failure is a problem, not an exception.
 */
export async function listFolder(dir: string, problems: string[]): Promise<Dirent[]> {
  try {
    const entries = await fsp.readdir(dir, { withFileTypes: true });
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    problems.push(`${dir}: cannot be listed (${code ?? String(err)}).`);
    return [];
  }
}

/**
 * Reads and parses one definition file: it must be a regular file (a symlink is refused, since a
 * definition must live where it is found), at most `maxBytes`, strict UTF-8, with valid
 * frontmatter. Returns undefined, with the reason in `problems`, when it is not.
 */
export async function readDefinition(file: string, maxBytes: number, problems: string[], signal?: AbortSignal): Promise<Frontmatter | undefined> {
  let stat;
  try {
    stat = await fsp.lstat(file);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') problems.push(`${file}: missing.`);
    else problems.push(`${file}: cannot be read (${errnoOf(err) ?? String(err)}).`);
    return undefined;
  }
  if (stat.isSymbolicLink()) {
    problems.push(`${file}: is a symbolic link; definitions are only read from regular files. Skipped.`);
    return undefined;
  }
  if (!stat.isFile()) {
    problems.push(`${file}: is not a regular file. Skipped.`);
    return undefined;
  }
  if (stat.size > maxBytes) {
    problems.push(`${file}: is ${stat.size} bytes, over the ${maxBytes}-byte limit. Skipped.`);
    return undefined;
  }
  try {
    const bytes = await fsp.readFile(file, { signal });
    if (bytes.byteLength > maxBytes) {
      problems.push(`${file}: grew to ${bytes.byteLength} bytes, over the ${maxBytes}-byte limit. Skipped.`);
      return undefined;
    }
    return parseFrontmatter(decodeUtf8(bytes, file), file);
  } catch (err) {
    if (err instanceof FrontmatterError || err instanceof ToolError) {
      problems.push(`${err.message} Skipped.`);
      return undefined;
    }
    signal?.throwIfAborted();
    problems.push(`${file}: cannot be read (${errnoOf(err) ?? String(err)}).`);
    return undefined;
  }
}

/** The name and description a definition needs, or undefined with the reason in `problems`. */
export function identityFields(front: Frontmatter, file: string, problems: string[]): { name: string; description: string } | undefined {
  const { name, description } = front;
  if (name === undefined) {
    problems.push(`${file}: frontmatter has no "name". Skipped.`);
    return undefined;
  }
  if (!NAME_RULE.test(name)) {
    problems.push(`${file}: frontmatter field "name": "${name}" must be 1 to 64 lowercase letters, digits, '-' or '_'. Skipped.`);
    return undefined;
  }
  const text = description?.trim() ?? '';
  if (text === '') {
    problems.push(`${file}: frontmatter has no "description". Skipped.`);
    return undefined;
  }
  if (text.length > MAX_DESCRIPTION_CHARS) {
    problems.push(`${file}: frontmatter field "description" is ${text.length} characters, over ${MAX_DESCRIPTION_CHARS}. Skipped.`);
    return undefined;
  }
  return { name, description: text };
}
