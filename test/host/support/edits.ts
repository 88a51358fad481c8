import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { root, runTool } from './magi';

/** Helpers shared by the host tests of edits: running tools, files of the fixture copy, waiting on the workbench. */

export { runTool };

/** Absolute path of a file in the fixture workspace copy run.mjs opened. */
export function fixture(rel: string): string {
  return join(root(), rel);
}

export async function sha256(rel: string): Promise<string> {
  return createHash('sha256').update(await fsp.readFile(fixture(rel))).digest('hex');
}

/** Reads the file with `read` and returns its content tag. */
export async function tagOf(rel: string): Promise<string> {
  const read = await runTool('read', { paths: [rel] });
  assert.equal(read.status, 'success', read.content);
  const tag = /^\[[^\]#]+#([0-9A-F]+)\]/.exec(read.content)?.[1];
  assert.ok(tag, read.content);
  return tag;
}

/** Polls until `probe` returns a value (not undefined), or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The open review diff tabs (right side a magi-proposed document). */
export function reviewTabs(): { tab: vscode.Tab; input: vscode.TabInputTextDiff }[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .flatMap((tab) => (tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === 'magi-proposed' ? [{ tab, input: tab.input }] : []));
}

/** Sets a `magi` setting for the duration of the suite's test; reset it with `undefined`. */
export function setMagi(key: string, value: unknown): Thenable<void> {
  return vscode.workspace.getConfiguration('magi').update(key, value, vscode.ConfigurationTarget.Global);
}
