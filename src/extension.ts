import * as vscode from 'vscode';
import { createDefaultRegistry } from './core/tools';
import { disposeSharedWorkerPool } from './core/tools/grep/pool';
import { ModalCommandApproval } from './host/approval';
import { registerCommands } from './host/commands';
import { runToolCommand } from './host/runTool';
import { WorkspaceRuntimes } from './host/runtimes';

/** Composition root: builds the core's registry and the per-folder runtimes, wires the host adapters. */
export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('Magi');
  const registry = createDefaultRegistry();
  const runtimes = new WorkspaceRuntimes({ approval: new ModalCommandApproval() });
  // grep's matching workers are started on first use; deactivation terminates them.
  const grepWorkers = { dispose: () => void disposeSharedWorkerPool() };
  context.subscriptions.push(output, runtimes, grepWorkers, ...registerCommands([runToolCommand({ registry, runtimes, output })]));
}

export function deactivate(): void {}
