import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { errnoOf } from '../../fs/paths';
import type { SkillSource } from '../../tools/skillSource';
import { MAX_FILE_BYTES } from '../../tools/textDoc';
import { identityFields, listFolder, readDefinition, type DefinitionSource } from './definitions';
import { readSkillTarget } from './skillRead';

/** Most skills one session knows; more would crowd the system prompt. */
export const MAX_SKILLS = 200;

/** Skill folders relative to the workspace root, in the order they are searched. */
export const WORKSPACE_SKILL_FOLDERS = ['.magi/skills', '.agents/skills'] as const;
/** The user's skill folder, relative to the home. */
export const USER_SKILL_FOLDER = '.magi/skills';

/** A discovered skill: `<folder>/<skill-dir>/SKILL.md` with a valid name and description. */
export interface Skill {
  name: string;
  description: string;
  /** Canonical (realpath) skill folder; references must stay inside it. */
  dir: string;
  /** The SKILL.md, absolute. */
  file: string;
  source: DefinitionSource;
}

export interface DiscoverOptions {
  /** Workspace root (canonical, as ToolRuntime.root). */
  root: string;
  /** The user's home, injectable so tests never read the real one (ToolRuntime.walkEnvironment.home). */
  home: string;
  signal?: AbortSignal;
}

/** The session's skills, by name; implements the SkillSource through which `read` opens `skill://` targets. */
export class SkillCatalog implements SkillSource {
  private readonly byName: Map<string, Skill>;

  constructor(
    /** Sorted by name. */
    readonly skills: readonly Skill[],
    /** Why definitions were skipped or overridden; for the host to show, never thrown. */
    readonly problems: readonly string[],
  ) {
    this.byName = new Map(skills.map((s) => [s.name, s]));
  }

  get(name: string): Skill | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return this.skills.map((s) => s.name);
  }

  read(uri: string, signal: AbortSignal): Promise<{ display: string; text: string }> {
    return readSkillTarget(this, uri, signal);
  }
}

/**
 * Finds every skill under the workspace's `.magi/skills` and `.agents/skills` and the user's
 * `~/.magi/skills`. Never throws for a bad skill (it is skipped and its reason kept in `problems`);
 * rejects only when `signal` aborts. A workspace skill hides a user skill of the same name; the
 * first workspace folder wins between the two workspace folders.
 */
export async function discoverSkills(options: DiscoverOptions): Promise<SkillCatalog> {
  const problems: string[] = [];
  const found = new Map<string, Skill>();
  const folders: [string, DefinitionSource][] = [
    ...WORKSPACE_SKILL_FOLDERS.map((f): [string, DefinitionSource] => [path.join(options.root, f), 'workspace']),
    [path.join(options.home, USER_SKILL_FOLDER), 'user'],
  ];
  for (const [folder, source] of folders) {
    for (const entry of await listFolder(folder, problems)) {
      options.signal?.throwIfAborted();
      // A symlinked skill folder is followed (shared skills are often linked in); its canonical
      // path becomes the skill's confinement folder. Its SKILL.md itself must not be a symlink.
      if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
      const skill = await loadSkill(path.join(folder, entry.name), source, problems, options.signal);
      if (skill === undefined) continue;
      const earlier = found.get(skill.name);
      if (earlier !== undefined) {
        problems.push(`${skill.file}: skill "${skill.name}" is already defined by ${earlier.file} (${earlier.source}), which wins. Skipped.`);
        continue;
      }
      if (found.size >= MAX_SKILLS) {
        problems.push(`${skill.file}: more than ${MAX_SKILLS} skills were found; this one and any later ones are ignored.`);
        return catalogOf(found, problems);
      }
      found.set(skill.name, skill);
    }
  }
  return catalogOf(found, problems);
}

function catalogOf(found: Map<string, Skill>, problems: string[]): SkillCatalog {
  const skills = [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return new SkillCatalog(skills, problems);
}

async function loadSkill(folder: string, source: DefinitionSource, problems: string[], signal?: AbortSignal): Promise<Skill | undefined> {
  let dir: string;
  try {
    dir = await fsp.realpath(folder);
    if (!(await fsp.stat(dir)).isDirectory()) return undefined;
  } catch (err) {
    problems.push(`${folder}: cannot be resolved (${errnoOf(err) ?? String(err)}). Skipped.`);
    return undefined;
  }
  const file = path.join(dir, 'SKILL.md');
  // A folder without SKILL.md is simply not a skill (it may hold files the skills share).
  try {
    await fsp.lstat(file);
  } catch (err) {
    if (errnoOf(err) !== 'ENOENT') problems.push(`${file}: cannot be read (${errnoOf(err) ?? String(err)}). Skipped.`);
    return undefined;
  }
  const front = await readDefinition(file, MAX_FILE_BYTES, problems, signal);
  if (front === undefined) return undefined;
  const fields = identityFields(front, file, problems);
  if (fields === undefined) return undefined;
  return { ...fields, dir, file, source };
}
