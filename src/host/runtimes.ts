import * as vscode from 'vscode';
import { ToolRuntime } from '../core/tools/runtime';
import { SETTINGS_SECTION, readSettings } from './settings';

/**
 * One `ToolRuntime` per workspace folder, kept for the extension's lifetime so that a `read` and a
 * later `hash_edit` share read snapshots and locks. A change to the `magi` settings drops them all
 * (the next call builds a fresh one with the new settings); a removed folder drops its own.
 * Disposing aborts every call still running on any of them.
 */
export class WorkspaceRuntimes implements vscode.Disposable {
  private readonly byRoot = new Map<string, Promise<ToolRuntime>>();
  private readonly lifetime = new AbortController();
  private readonly listeners: vscode.Disposable[];

  constructor() {
    this.listeners = [
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTINGS_SECTION)) this.byRoot.clear();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders((event) => {
        for (const folder of event.removed) this.byRoot.delete(folder.uri.fsPath);
      }),
    ];
  }

  /** The folder's runtime, built on first use. Rejects when the folder is not a directory on disk. */
  forFolder(folder: vscode.WorkspaceFolder): Promise<ToolRuntime> {
    const root = folder.uri.fsPath;
    let runtime = this.byRoot.get(root);
    if (!runtime) {
      runtime = ToolRuntime.create({ root, settings: readSettings(folder.uri), signal: this.lifetime.signal });
      const built = runtime;
      // A failed build is not cached: the folder may exist on the next call.
      built.catch(() => {
        if (this.byRoot.get(root) === built) this.byRoot.delete(root);
      });
      this.byRoot.set(root, built);
    }
    return runtime;
  }

  dispose(): void {
    this.lifetime.abort();
    this.byRoot.clear();
    for (const listener of this.listeners) listener.dispose();
  }
}
