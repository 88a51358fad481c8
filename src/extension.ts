import * as vscode from 'vscode';
import { createDefaultRegistry } from './core/tools';
import { disposeSharedParsePool } from './core/tools/astGrep/workers';
import { disposeSharedWorkerPool } from './core/tools/grep/workers';
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
import { ActivityStore } from './host/webviews/activityStore';
import { ChatView } from './host/webviews/chatView';
import { MissionControl } from './host/webviews/missionControl';

/** What activate() returns (`extension.exports`): the host tests read the activity store and drive the webviews' message handlers. */
export interface MagiExports {
  activity: ActivityStore;
  chat: ChatView;
  missionControl: MissionControl;
}

/** Composition root: builds the core's registry and the per-folder runtimes, wires the host adapters. */
export function activate(context: vscode.ExtensionContext): MagiExports {
  const output = vscode.window.createOutputChannel('Magi');
  const registry = createDefaultRegistry();
  // One set of host ports for the tools run by magi.runTool and by the agent's tasks.
  const languages = new VsCodeLanguageServices();
  // Open editors are the truth for reads and writes; magi.edits.review decides how edits are reviewed.
  const files = new VsCodeFilePort();
  const history = new EditHistory(files);
  const review = new VsCodeEditReview(history);
  const keys = new ApiKeys(context.secrets);
  const ports: HostPorts = { approval: new ModalCommandApproval(), languages, files, review, credentials: keys };
  const runtimes = new WorkspaceRuntimes(ports);
  // Every task's activity, for the chat and Mission Control, for the extension's lifetime.
  const activity = new ActivityStore();
  const tasks = new TaskRunner({ registry, ports, keys, output, activity: (event) => activity.append(event, 'task') });
  const chat = new ChatView(context.extensionUri, activity, { registry, ports, keys });
  const missionControl = new MissionControl(context.extensionUri, activity, history);
  // grep's matching workers are started on first use; deactivation terminates them.
  const workers = { dispose: () => void Promise.all([disposeSharedWorkerPool(), disposeSharedParsePool()]) };
  context.subscriptions.push(
    output,
    languages,
    review,
    runtimes,
    tasks,
    workers,
    chat,
    chat.register(),
    missionControl,
    ...registerCommands([
      runToolCommand({ registry, runtimes, output }),
      ...tasks.commands(),
      setApiKeyCommand(keys),
      ...reviewCommands(review, history),
      chat.command(),
      missionControl.command(),
    ]),
  );
  return { activity, chat, missionControl };
}

export function deactivate(): void {}
