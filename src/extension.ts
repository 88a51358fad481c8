import * as vscode from 'vscode';
import { createDefaultRegistry } from './core/tools';
import { disposeSharedWorkerPool } from './core/tools/grep/pool';
import { ModalCommandApproval } from './host/approval';
import { registerCommands } from './host/commands';
import { VsCodeLanguageServices } from './host/languageServices';
import { VsCodeFilePort } from './host/files/vscodeFilePort';
import { reviewCommands } from './host/review/commands';
import { EditHistory } from './host/review/editHistory';
import { VsCodeEditReview } from './host/review/editReview';
import { runToolCommand } from './host/runTool';
import { WorkspaceRuntimes, type HostPorts } from './host/runtimes';
import { ApiKeys, setApiKeyCommand } from './host/keys';
import { TaskRunner } from './host/task/taskRunner';

/** Composition root: builds the core's registry and the per-folder runtimes, wires the host adapters. */
export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('Magi');
  const registry = createDefaultRegistry();
  // One set of host ports for the tools run by magi.runTool and by the agent's tasks.
  const languages = new VsCodeLanguageServices();
  // Open editors are the truth for reads and writes; magi.edits.review decides how edits are reviewed.
  const files = new VsCodeFilePort();
  const history = new EditHistory(files);
  const review = new VsCodeEditReview(history);
  const ports: HostPorts = { approval: new ModalCommandApproval(), languages, files, review };
  const runtimes = new WorkspaceRuntimes(ports);
  const keys = new ApiKeys(context.secrets);
  const tasks = new TaskRunner({ registry, ports, keys, output });
  // grep's matching workers are started on first use; deactivation terminates them.
  const grepWorkers = { dispose: () => void disposeSharedWorkerPool() };
  context.subscriptions.push(
    output,
    languages,
    review,
    runtimes,
    tasks,
    grepWorkers,
    ...registerCommands([runToolCommand({ registry, runtimes, output }), ...tasks.commands(), setApiKeyCommand(keys), ...reviewCommands(review, history)]),
  );
}

export function deactivate(): void {}
