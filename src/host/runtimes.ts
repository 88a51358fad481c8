import * as vscode from 'vscode';
import { ToolRuntime } from '../core/tools/runtime';
import type { FilePort } from '../core/fs/filePort';
import type { CommandApproval } from '../core/tools/approval';
import type { CredentialSource } from '../core/tools/credentials';
import type { LanguageServices } from '../core/tools/language/port';
import type { EditReview } from '../core/tools/review';
import { SETTINGS_SECTION, readSettings } from './settings';

/** The host's implementations of the core's ports, shared by every folder's runtime. */
export interface HostPorts {
  files?: FilePort;
  languages?: LanguageServices;
  review?: EditReview;
  approval?: CommandApproval;
  /** Environment names of the keys kept in SecretStorage, which `bash` never passes on. */
  secretEnvNames?: readonly string[];
  /** API keys for tools that call a service (SecretStorage through ApiKeys). */
  credentials?: CredentialSource;
}

/** Restricted Mode (an untrusted workspace): the runtime's `restricted` reason, or nothing. */
export function restriction(): { restricted?: string } {
  return vscode.workspace.isTrusted ? {} : { restricted: 'this workspace is in Restricted Mode; trust it (Manage Workspace Trust) to let Magi run commands and change files.' };
}

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

  constructor(private readonly ports: HostPorts = {}) {
    this.listeners = [
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.dropAll()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTINGS_SECTION)) this.dropAll();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders((event) => {
        for (const folder of event.removed) this.drop(folder.uri.fsPath);
      }),
    ];
  }

  /** The folder's runtime, built on first use. Rejects when the folder is not a directory on disk. */
  forFolder(folder: vscode.WorkspaceFolder): Promise<ToolRuntime> {
    const root = folder.uri.fsPath;
    let runtime = this.byRoot.get(root);
    if (!runtime) {
      runtime = ToolRuntime.create({ root, settings: readSettings(folder.uri), signal: this.lifetime.signal, ...this.ports, ...restriction() });
      const built = runtime;
      // A failed build is not cached: the folder may exist on the next call.
      built.catch(() => {
        if (this.byRoot.get(root) === built) this.byRoot.delete(root);
      });
      this.byRoot.set(root, built);
    }
    return runtime;
  }

  /** Forgets a folder's runtime and closes what it holds open (its browser); a call still using it may open one again. */
  private drop(root: string): void {
    const runtime = this.byRoot.get(root);
    this.byRoot.delete(root);
    runtime?.then((built) => built.dispose()).catch((err: unknown) => console.error(`Magi: closing the runtime of ${root} failed:`, err));
  }

  private dropAll(): void {
    for (const root of [...this.byRoot.keys()]) this.drop(root);
  }

  dispose(): void {
    this.lifetime.abort();
    this.dropAll();
    for (const listener of this.listeners) listener.dispose();
  }
}
