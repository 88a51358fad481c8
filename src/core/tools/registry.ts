import { z } from 'zod';
import type { ToolDefinition } from './definition';

/** Canonical names in the order providers see them; tools of later issues slot into this order. */
export const CANONICAL_ORDER = [
  'read', 'hash_edit', 'write', 'bash', 'grep', 'find', 'list_files', 'repo_map', 'ast_grep',
  'diagnostics', 'references', 'definition', 'symbols', 'web', 'browser', 'view_image', 'subagents',
] as const;

/** The JSON Schema and description a provider receives for one tool. */
export interface ProviderToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export class ToolRegistry {
  private readonly byName = new Map<string, ToolDefinition>();
  private readonly aliasOf = new Map<string, string>();

  constructor(tools: readonly ToolDefinition[]) {
    for (const tool of tools) this.add(tool);
  }

  private add(tool: ToolDefinition): void {
    for (const name of [tool.name, ...tool.aliases]) {
      if (this.byName.has(name) || this.aliasOf.has(name)) throw new Error(`duplicate tool name or alias: ${name}`);
    }
    this.byName.set(tool.name, tool);
    for (const alias of tool.aliases) this.aliasOf.set(alias, tool.name);
  }

  /** Finds a tool by canonical name or alias. */
  get(name: string): ToolDefinition | undefined {
    return this.byName.get(this.aliasOf.get(name) ?? name);
  }

  /** Registered tools in the stable canonical order (unknown names last, alphabetically). */
  list(): ToolDefinition[] {
    const rank = (name: string): number => {
      const i = (CANONICAL_ORDER as readonly string[]).indexOf(name);
      return i === -1 ? CANONICAL_ORDER.length : i;
    };
    return [...this.byName.values()].sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
  }

  names(): string[] {
    return this.list().map((t) => t.name);
  }

  /** Provider-facing specs, in canonical order, with JSON Schema generated from the zod schemas. */
  providerSpecs(): ProviderToolSpec[] {
    return this.list().map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: z.toJSONSchema(tool.providerInput ?? tool.input, { io: 'input' }) as Record<string, unknown>,
    }));
  }
}
