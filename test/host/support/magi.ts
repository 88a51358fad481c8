import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RunToolResult } from '../../../src/host/runTool';

/** Helpers every host test uses: the fixture workspace's root and running a tool through magi.runTool. */

/** The fixture workspace copy run.mjs opened. */
export function root(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the harness opens the fixture workspace');
  return folder.uri.fsPath;
}

export function runTool(name: string, args: unknown): Thenable<RunToolResult> {
  return vscode.commands.executeCommand<RunToolResult>('magi.runTool', name, args);
}
