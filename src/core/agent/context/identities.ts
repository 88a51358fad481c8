import * as path from 'node:path';
import { createDefaultRegistry } from '../../tools';
import type { ToolDefinition } from '../../tools/definition';
import { MAX_FILE_BYTES } from '../../tools/textDoc';
import { identityFields, listFolder, readDefinition, type DefinitionSource } from './definitions';
import type { DiscoverOptions } from './skills';

/** Largest system prompt (the body of an agent file), in UTF-8 bytes. */
export const MAX_SYSTEM_PROMPT_BYTES = 64 * 1024;
/** Most identities one session knows, as for skills. */
export const MAX_IDENTITIES = 200;

/** Agent folders relative to the workspace root and to the home. */
export const WORKSPACE_AGENT_FOLDER = '.magi/agents';
export const USER_AGENT_FOLDER = '.magi/agents';

/** A subagent identity: `<folder>/<file>.md` whose frontmatter names it and whose body is its system prompt. */
export interface AgentIdentity {
  name: string;
  description: string;
  systemPrompt: string;
  /** Canonical tool names it may use, in the file's order; null when the file does not restrict them. */
  tools: string[] | null;
  file: string;
  source: DefinitionSource;
}

export interface IdentityCatalog {
  /** Sorted by name. */
  identities: AgentIdentity[];
  /** Why definitions were skipped or overridden; never thrown. */
  problems: string[];
  get(name: string): AgentIdentity | undefined;
}

export interface DiscoverIdentitiesOptions extends DiscoverOptions {
  /** Resolves the tool names and aliases of a `tools` list; defaults to the built-in registry. */
  tools?: { get(name: string): ToolDefinition | undefined };
}

/**
 * Finds every agent definition in the workspace's `.magi/agents/*.md` and the user's
 * `~/.magi/agents/*.md`. A definition with a bad name, description, tool or body is skipped with
 * its reason in `problems` (a misspelt tool skips the whole identity, so it never runs with tools
 * its author did not mean); a workspace identity hides a user one of the same name. Rejects only
 * when `signal` aborts.
 */
export async function discoverIdentities(options: DiscoverIdentitiesOptions): Promise<IdentityCatalog> {
  const tools = options.tools ?? createDefaultRegistry();
  const problems: string[] = [];
  const found = new Map<string, AgentIdentity>();
  const folders: [string, DefinitionSource][] = [
    [path.join(options.root, WORKSPACE_AGENT_FOLDER), 'workspace'],
    [path.join(options.home, USER_AGENT_FOLDER), 'user'],
  ];
  outer: for (const [folder, source] of folders) {
    for (const entry of await listFolder(folder, problems)) {
      options.signal?.throwIfAborted();
      if (!entry.name.endsWith('.md') || entry.isDirectory()) continue;
      const identity = await loadIdentity(path.join(folder, entry.name), source, tools, problems, options.signal);
      if (identity === undefined) continue;
      const earlier = found.get(identity.name);
      if (earlier !== undefined) {
        problems.push(`${identity.file}: agent "${identity.name}" is already defined by ${earlier.file} (${earlier.source}), which wins. Skipped.`);
        continue;
      }
      if (found.size >= MAX_IDENTITIES) {
        problems.push(`${identity.file}: more than ${MAX_IDENTITIES} agent definitions were found; this one and any later ones are ignored.`);
        break outer;
      }
      found.set(identity.name, identity);
    }
  }
  const identities = [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { identities, problems, get: (name) => found.get(name) };
}

async function loadIdentity(
  file: string,
  source: DefinitionSource,
  tools: NonNullable<DiscoverIdentitiesOptions['tools']>,
  problems: string[],
  signal?: AbortSignal,
): Promise<AgentIdentity | undefined> {
  const front = await readDefinition(file, MAX_FILE_BYTES, problems, signal);
  if (front === undefined) return undefined;
  const fields = identityFields(front, file, problems);
  if (fields === undefined) return undefined;

  let canonical: string[] | null = null;
  if (front.tools !== undefined) {
    canonical = [];
    for (const name of front.tools) {
      const tool = tools.get(name);
      if (tool === undefined) {
        problems.push(`${file}: frontmatter field "tools": unknown tool "${name}". Skipped.`);
        return undefined;
      }
      if (!canonical.includes(tool.name)) canonical.push(tool.name);
    }
  }

  const systemPrompt = front.body.trim();
  if (systemPrompt === '') {
    problems.push(`${file}: the body after the frontmatter is empty; it is the agent's system prompt. Skipped.`);
    return undefined;
  }
  const bytes = Buffer.byteLength(systemPrompt, 'utf8');
  if (bytes > MAX_SYSTEM_PROMPT_BYTES) {
    problems.push(`${file}: the system prompt is ${bytes} bytes, over the ${MAX_SYSTEM_PROMPT_BYTES}-byte limit. Skipped.`);
    return undefined;
  }
  return { ...fields, systemPrompt, tools: canonical, file, source };
}
