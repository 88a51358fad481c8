import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { errnoOf, isWithin } from '../../fs/paths';
import { ToolError } from '../../tools/errors';
import { MAX_FILE_BYTES, decodeUtf8 } from '../../tools/textDoc';
import type { Skill } from './skills';

/** Most skill names an "unknown skill" error lists. */
const MAX_LISTED_NAMES = 20;

/** The catalog as this module needs it (SkillCatalog satisfies it). */
export interface SkillLookup {
  get(name: string): Skill | undefined;
  names(): string[];
}

/**
 * Reads `skill://<name>` (its SKILL.md) or `skill://<name>/<relative-reference>` under the seed's
 * confinement: the name only from the discovered catalog; the reference relative, without `..`,
 * `.`, empty segments or backslashes; no symlink anywhere from the skill folder down; a regular
 * file whose real path stays under the canonical skill folder; at most 1 MiB; strict UTF-8.
 * Throws ToolError saying what to do instead.
 */
export async function readSkillTarget(catalog: SkillLookup, uri: string, signal?: AbortSignal): Promise<{ display: string; text: string }> {
  const m = /^skill:\/\/([^/]*)(?:\/(.*))?$/is.exec(uri);
  if (!m) throw new ToolError(`read: ${uri} is not a skill target; write skill://<name> or skill://<name>/<relative-path>.`);
  const name = m[1] as string;
  const reference = m[2];
  const skill = catalog.get(name);
  if (skill === undefined) throw new ToolError(unknownSkill(name, catalog.names()), 'not_found');

  const segments = reference === undefined ? ['SKILL.md'] : checkReference(reference, uri);
  const display = reference === undefined ? `skill://${name}` : `skill://${name}/${segments.join('/')}`;
  const file = await confinedFile(skill, segments, display, signal);
  signal?.throwIfAborted();
  const bytes = await fsp.readFile(file, { signal });
  if (bytes.byteLength > MAX_FILE_BYTES) throw tooLarge(display, bytes.byteLength);
  return { display, text: decodeUtf8(bytes, display) };
}

function unknownSkill(name: string, names: string[]): string {
  if (name === '') return 'read: a skill target needs a name: skill://<name>.';
  if (names.length === 0) return `read: unknown skill "${name}"; no skills were discovered in this session.`;
  const listed = names.slice(0, MAX_LISTED_NAMES).join(', ');
  const more = names.length > MAX_LISTED_NAMES ? ` (and ${names.length - MAX_LISTED_NAMES} more)` : '';
  return `read: unknown skill "${name}"; known skills: ${listed}${more}.`;
}

/** The reference's segments, after the rules that keep it relative and inside the skill folder. */
function checkReference(reference: string, uri: string): string[] {
  const refuse = (why: string): never => {
    throw new ToolError(`read: ${uri}: ${why} Write the reference relative to the skill folder, e.g. skill://<name>/references/guide.md.`, 'outside_root');
  };
  if (reference.includes('\0')) refuse('the reference contains a NUL character.');
  if (reference.includes('\\')) refuse('the reference contains a backslash; separate folders with /.');
  if (reference.startsWith('/') || /^[A-Za-z]:/.test(reference)) refuse('the reference is an absolute path.');
  const segments = reference.split('/');
  if (segments.includes('..')) refuse('the reference contains a .. segment.');
  if (segments.some((s) => s === '' || s === '.')) refuse('the reference has an empty or "." segment.');
  return segments;
}

/**
 * Walks from the skill folder to the file with lstat, so a symlink anywhere on the way (or the
 * folder itself swapped for one since discovery) is refused rather than followed; then checks the
 * real path as well, which also catches a swap between the lstat and the check.
 */
async function confinedFile(skill: Skill, segments: string[], display: string, signal?: AbortSignal): Promise<string> {
  const dirStat = await fsp.lstat(skill.dir).catch((err: unknown) => {
    throw new ToolError(`read: ${display}: the skill folder ${skill.dir} is gone (${errnoOf(err) ?? String(err)}); the session's skills must be discovered again.`, 'not_found');
  });
  if (dirStat.isSymbolicLink() || !dirStat.isDirectory()) {
    throw new ToolError(`read: ${display}: the skill folder ${skill.dir} is no longer a real folder; skill files are not read through symlinks.`, 'symlink');
  }
  let current = skill.dir;
  for (const [i, segment] of segments.entries()) {
    signal?.throwIfAborted();
    current = path.join(current, segment);
    const shown = segments.slice(0, i + 1).join('/');
    const stat = await fsp.lstat(current).catch((err: unknown) => {
      const code = errnoOf(err);
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        throw new ToolError(`read: ${display} does not exist; read skill://${skill.name} to see which files the skill refers to.`, 'not_found');
      }
      throw err;
    });
    if (stat.isSymbolicLink()) {
      throw new ToolError(`read: ${display}: ${shown} is a symbolic link; skill references are never read through symlinks.`, 'symlink');
    }
    const last = i === segments.length - 1;
    if (!last && !stat.isDirectory()) throw new ToolError(`read: ${display} does not exist: ${shown} is not a folder.`, 'not_found');
    if (last && stat.isDirectory()) throw new ToolError(`read: ${display} is a directory; name a file inside it.`);
    if (last && !stat.isFile()) throw new ToolError(`read: ${display} is not a regular file.`);
    if (last && stat.size > MAX_FILE_BYTES) throw tooLarge(display, stat.size);
  }
  const real = await fsp.realpath(current);
  if (!isWithin(skill.dir, real)) {
    throw new ToolError(`read: ${display} resolves outside the skill folder ${skill.dir}; skill references must stay inside it.`, 'outside_root');
  }
  return real;
}

function tooLarge(display: string, size: number): ToolError {
  return new ToolError(`read: ${display} is ${size} bytes, over the 1 MiB read cap; skill files must be smaller.`, 'too_large');
}
