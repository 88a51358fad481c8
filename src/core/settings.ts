/**
 * Settings in the newer seed's keys (`capabilities.tools.<tool>.absolute_paths`, `agent.reminders`, …).
 * The older seed's keys are accepted as aliases: `tools.<tool>.…` for `capabilities.tools.<tool>.…`
 * and `ttsr.…` for `agent.reminders.…`. Tool names go through the same aliases as the registry
 * (`fffind` → `find`), so `tools.fffind.absolute_paths` reaches `find`.
 */
export type SettingsTree = { [key: string]: unknown };

const TOOL_NAME_ALIASES: Record<string, string> = { fffind: 'find', ffgrep: 'grep', shell: 'bash', cmd: 'bash', parallel_subagents: 'subagents' };

function isTree(value: unknown): value is SettingsTree {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sets a dotted key in a tree, creating the intermediate objects. */
function setPath(tree: SettingsTree, keys: string[], value: unknown): void {
  let node = tree;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (!isTree(next)) node[key] = {};
    node = node[key] as SettingsTree;
  }
  const last = keys[keys.length - 1];
  if (last !== undefined) node[last] = value;
}

/** Flattens nested objects and dotted keys alike into `[path, leaf]` pairs. */
function leaves(tree: SettingsTree, prefix: string[] = []): [string[], unknown][] {
  const out: [string[], unknown][] = [];
  for (const [key, value] of Object.entries(tree)) {
    const keys = [...prefix, ...key.split('.')];
    if (isTree(value) && Object.keys(value).length > 0) out.push(...leaves(value, keys));
    else out.push([keys, value]);
  }
  return out;
}

/** Maps an older-seed key path onto the newer one. */
function canonicalKeys(keys: string[]): string[] {
  let out = keys;
  if (out[0] === 'tools') out = ['capabilities', ...out];
  if (out[0] === 'ttsr') out = ['agent', 'reminders', ...out.slice(1)];
  if (out[0] === 'capabilities' && out[1] === 'tools' && out[2] !== undefined) {
    out = [...out.slice(0, 2), TOOL_NAME_ALIASES[out[2]] ?? out[2], ...out.slice(3)];
  }
  return out;
}

export class Settings {
  private readonly tree: SettingsTree = {};

  /** Accepts nested objects, dotted keys, or a mix; newer keys win over their older aliases. */
  constructor(input: SettingsTree = {}) {
    const pairs = leaves(input).map(([keys, value]) => ({ keys: canonicalKeys(keys), value, legacy: canonicalKeys(keys).join('.') !== keys.join('.') }));
    for (const pair of pairs.filter((p) => p.legacy)) setPath(this.tree, pair.keys, pair.value);
    for (const pair of pairs.filter((p) => !p.legacy)) setPath(this.tree, pair.keys, pair.value);
  }

  /** The value at a dotted newer-seed key, or undefined. */
  get(key: string): unknown {
    let node: unknown = this.tree;
    for (const part of key.split('.')) {
      if (!isTree(node)) return undefined;
      node = node[part];
    }
    return node;
  }

  bool(key: string, fallback: boolean): boolean {
    const value = this.get(key);
    return typeof value === 'boolean' ? value : fallback;
  }

  /** `capabilities.tools.<tool>.absolute_paths`, default true as the seeds say. */
  absolutePathsAllowed(tool: string): boolean {
    return this.bool(absolutePathsKey(tool), true);
  }

  toJSON(): SettingsTree {
    return structuredClone(this.tree);
  }
}

export function absolutePathsKey(tool: string): string {
  return `capabilities.tools.${TOOL_NAME_ALIASES[tool] ?? tool}.absolute_paths`;
}
