import * as vscode from 'vscode';
import type { ActivityListener } from '../../core/activity';
import { createTextPrinter } from '../../core/activityText';
import type { ToolRegistry } from '../../core/tools/registry';
import { abortSignalOf } from '../cancellation';
import type { Command } from '../commands';
import { SET_API_KEY_COMMAND, type ApiKeys } from '../keys';
import type { HostPorts } from '../runtimes';
import { TaskSetupError } from './providerChoice';
import { TaskFailedError } from './taskErrors';
import { openWorkspaceSession } from './workspaceSession';

export { TaskFailedError };

export const RUN_TASK_COMMAND = 'magi.runTask';
export const CANCEL_COMMAND = 'magi.cancel';

/** A task was started while another one runs (Magi runs one task at a time). */
export class TaskBusyError extends Error {
  override readonly name = 'TaskBusyError';
}

export interface TaskRunnerDeps {
  registry: ToolRegistry;
  /** The same ports the extension gives WorkspaceRuntimes (language services, review, approval …). */
  ports: HostPorts;
  keys: ApiKeys;
  output: vscode.OutputChannel;
  /** Also receives every event of every task (Mission Control's store). */
  activity?: ActivityListener;
}

interface RunningTask {
  task: string;
  controller: AbortController;
  /** Resolves once the run has fully ended (its processes killed, its session closed). */
  ended: Promise<void>;
}

/**
 * `magi.runTask` and `magi.cancel`. Each task is a fresh AgentSession on the first workspace
 * folder, with the provider settings read when it starts, its session written under the
 * workspace's `.magi/sessions` (as `magi run` does, so the CLI can resume it), its activity
 * appended to the output channel, and a cancellable progress notification while it runs.
 * One task runs at a time: a second one is refused with TaskBusyError (the palette offers to
 * cancel the running one instead).
 */
export class TaskRunner implements vscode.Disposable {
  private running: RunningTask | undefined;

  constructor(private readonly deps: TaskRunnerDeps) {}

  commands(): Command[] {
    return [
      { id: RUN_TASK_COMMAND, execute: (...args: unknown[]) => (args.length === 0 ? this.runInteractive() : this.runFromArguments(args[0])) },
      { id: CANCEL_COMMAND, execute: () => this.cancel() },
    ];
  }

  /**
   * Aborts the running task and resolves to true once it has ended (its bash processes killed);
   * false, with a notification, when no task runs.
   */
  async cancel(): Promise<boolean> {
    const running = this.running;
    if (!running) {
      void vscode.window.showInformationMessage('Magi: no task is running.');
      return false;
    }
    running.controller.abort();
    await running.ended;
    return true;
  }

  dispose(): void {
    this.running?.controller.abort();
  }

  /** `executeCommand('magi.runTask', task)`: the final answer, or a rejection with the reason (also shown). */
  private async runFromArguments(task: unknown): Promise<string> {
    if (typeof task !== 'string' || task.trim() === '') throw new Error(`${RUN_TASK_COMMAND} takes the task as a non-empty string.`);
    try {
      const answer = await this.run(task.trim());
      void this.showAnswer(answer);
      return answer;
    } catch (err) {
      void this.showFailure(err);
      throw err;
    }
  }

  /** From the palette: asks for the task; failures end as notifications, not as a rejected command. */
  private async runInteractive(): Promise<string | undefined> {
    if (this.running) {
      const choice = await vscode.window.showWarningMessage(`Magi is already running “${headline(this.running.task)}”.`, 'Cancel It');
      if (choice === 'Cancel It') await this.cancel();
      return undefined;
    }
    const task = await vscode.window.showInputBox({
      title: 'Magi: Run Task',
      prompt: 'What should Magi do in this workspace?',
      placeHolder: 'e.g. make the failing test in test/parser.test.ts pass',
      ignoreFocusOut: true,
    });
    if (task === undefined || task.trim() === '') return undefined;
    this.deps.output.show(true);
    try {
      const answer = await this.run(task.trim());
      await this.showAnswer(answer);
      return answer;
    } catch (err) {
      // Reported here as a notification with its remedy; a rejection would add VS Code's own generic error.
      await this.showFailure(err);
      return undefined;
    }
  }

  private async run(task: string): Promise<string> {
    if (this.running) throw new TaskBusyError(`Magi is already running a task (“${headline(this.running.task)}”): run Magi: Cancel to stop it, or wait for it to end.`);
    const controller = new AbortController();
    let markEnded = (): void => {};
    this.running = { task, controller, ended: new Promise((resolve) => (markEnded = resolve)) };
    try {
      return await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Magi: ${headline(task)}`, cancellable: true },
        async (progress, token) => {
          const fromToken = abortSignalOf(token);
          try {
            return await this.execute(task, AbortSignal.any([controller.signal, fromToken.signal]), progress);
          } finally {
            fromToken.dispose();
          }
        },
      );
    } finally {
      this.running = undefined;
      markEnded();
    }
  }

  private async execute(task: string, signal: AbortSignal, progress: vscode.Progress<{ message?: string }>): Promise<string> {
    const { output, activity } = this.deps;
    const { session, provider, close } = await openWorkspaceSession(this.deps);
    try {
      output.appendLine(`── Magi task: ${task} · ${provider.kind} ${provider.model} ──`);
      for (const problem of session.problems) output.appendLine(`magi: ${problem}`);
      session.onActivity(createTextPrinter((text) => output.append(text)));
      if (activity) session.onActivity(activity);
      session.onActivity((event) => {
        if (event.agent === 'main' && event.type === 'tool_start') progress.report({ message: event.tool });
      });
      const result = await session.run(task, signal);
      output.appendLine(`── ${result.outcome} after ${result.turns} turn(s)${session.sessionFile ? ` · session ${session.sessionFile}` : ''} ──`);
      if (result.outcome !== 'completed') {
        throw new TaskFailedError(`Magi task ${result.outcome.replace('_', ' ')}${result.error ? `: ${result.error}` : ''}`, result.outcome);
      }
      return result.finalText;
    } finally {
      await close();
    }
  }

  /** The answer's first line, with a button that opens the whole answer as an untitled markdown document. */
  private async showAnswer(answer: string): Promise<void> {
    const choice = await vscode.window.showInformationMessage(`Magi: ${headline(answer) || '(no answer text)'}`, 'Open');
    if (choice !== 'Open') return;
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: answer });
    await vscode.window.showTextDocument(document);
  }

  private async showFailure(err: unknown): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    this.deps.output.appendLine(`magi: ${message}`);
    if (err instanceof TaskSetupError) {
      const action = err.remedy === 'setApiKey' ? 'Set API Key' : 'Open Settings';
      const choice = await vscode.window.showErrorMessage(message, action);
      if (choice === 'Set API Key') await vscode.commands.executeCommand(SET_API_KEY_COMMAND);
      if (choice === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', 'magi.');
      return;
    }
    if (err instanceof TaskFailedError && err.outcome === 'cancelled') {
      await vscode.window.showWarningMessage(message);
      return;
    }
    await vscode.window.showErrorMessage(message);
  }
}

/** The first non-empty line of `text`, at most 120 characters. */
function headline(text: string): string {
  const line = text.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
