import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Settings, type SettingsTree } from '../../../src/core/settings';
import { createDefaultRegistry } from '../../../src/core/tools';
import { dispatchTool, type DispatchOptions } from '../../../src/core/tools/dispatch';
import type { ToolResult } from '../../../src/core/tools/result';
import { ToolRuntime } from '../../../src/core/tools/runtime';

/** A real temp directory as the workspace root, with a runtime over it. */
export interface TempWorkspace {
  /** Canonical root. */
  root: string;
  runtime: ToolRuntime;
  /** Writes files relative to the root, creating folders. */
  files(tree: Record<string, string | Buffer>): Promise<void>;
  text(rel: string): Promise<string>;
  run(tool: string, args: unknown, options?: DispatchOptions): Promise<ToolResult>;
  cleanup(): Promise<void>;
}

export async function tempWorkspace(settings: SettingsTree = {}): Promise<TempWorkspace> {
  const base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-test-')));
  const root = path.join(base, 'ws');
  await fsp.mkdir(root);
  const runtime = await ToolRuntime.create({ root, settings: new Settings(settings) });
  const registry = createDefaultRegistry();
  return {
    root,
    runtime,
    async files(tree) {
      for (const [rel, content] of Object.entries(tree)) {
        const abs = path.join(root, rel);
        await fsp.mkdir(path.dirname(abs), { recursive: true });
        await fsp.writeFile(abs, content);
      }
    },
    text: (rel) => fsp.readFile(path.join(root, rel), 'utf8'),
    run: async (tool, args, options) => (await dispatchTool(registry, runtime, tool, args, options)).result,
    cleanup: () => fsp.rm(base, { recursive: true, force: true }),
  };
}

/** Text of `n` numbered lines, `line 1`…`line n`, each ending in LF. */
export function numberedLines(n: number): string {
  return Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');
}
