import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { hashEditTool } from '../../../../../src/core/tools/hashEdit';
import { dispatchTool } from '../../../../../src/core/tools/dispatch';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import type { ToolResult } from '../../../../../src/core/tools/result';
import type { ToolRuntime } from '../../../../../src/core/tools/runtime';
import type { SettingsTree } from '../../../../../src/core/settings';
import { contentTag, parseText } from '../../../../../src/core/tools/textDoc';
import { tempWorkspace } from '../../../helpers/workspace';

/** A temp workspace with a runtime; `cleanup` removes it. */
export interface Fixture {
  root: string;
  runtime: ToolRuntime;
  registry: ToolRegistry;
  cleanup(): Promise<void>;
}

/** The shared temp workspace, with a registry holding only hash_edit. */
export async function makeFixture(settings: SettingsTree = {}): Promise<Fixture> {
  const ws = await tempWorkspace(settings);
  return { root: ws.root, runtime: ws.runtime, registry: new ToolRegistry([hashEditTool]), cleanup: ws.cleanup };
}

export function abs(fx: Fixture, rel: string): string {
  return path.join(fx.root, rel);
}

export async function put(fx: Fixture, rel: string, content: string | Uint8Array): Promise<void> {
  await fsp.mkdir(path.dirname(abs(fx, rel)), { recursive: true });
  await fsp.writeFile(abs(fx, rel), content);
}

export async function text(fx: Fixture, rel: string): Promise<string> {
  return fsp.readFile(abs(fx, rel), 'utf8');
}

export async function exists(fx: Fixture, rel: string): Promise<boolean> {
  try {
    await fsp.lstat(abs(fx, rel));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/**
 * Stands in for `read`: records a snapshot of the file as it is now and returns its tag. `visible`
 * defaults to every line; pass a list to simulate a windowed read.
 */
export async function seen(fx: Fixture, rel: string, visible?: readonly number[]): Promise<string> {
  const content = await text(fx, rel);
  const lineCount = parseText(content).lines.length;
  const lines = visible ?? Array.from({ length: lineCount }, (_, i) => i + 1);
  const tag = contentTag(content);
  fx.runtime.snapshots.record(abs(fx, rel), tag, content, lines);
  return tag;
}

export async function edit(fx: Fixture, input: string): Promise<ToolResult> {
  return (await dispatchTool(fx.registry, fx.runtime, 'hash_edit', { input })).result;
}

/** Runs an edit that must succeed and returns the result. */
export async function editOk(fx: Fixture, input: string): Promise<ToolResult> {
  const result = await edit(fx, input);
  if (result.status !== 'success') throw new Error(`expected success, got: ${result.content}`);
  return result;
}

/** Writes `content`, marks it all as seen, and returns the section header for it. */
export async function fileWith(fx: Fixture, rel: string, content: string | Uint8Array): Promise<string> {
  await put(fx, rel, content);
  return `[${rel}#${await seen(fx, rel)}]`;
}
