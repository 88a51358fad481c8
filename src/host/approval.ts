import * as vscode from 'vscode';
import type { ApprovalDecision, CommandApproval, CommandRequest } from '../core/tools/approval';
import { ALLOW_KEY } from '../core/tools/bash/approval';
import { SETTINGS_SECTION } from './settings';
import { abortable } from '../core/waits';

export const RUN = 'Run';
export const RUN_AND_ALLOW = 'Run and Always Allow This Command';

/** The modal question: `vscode.window.showWarningMessage`'s modal form, replaceable only so a test can answer it. */
export type AskPerson = (message: string, options: vscode.MessageOptions, ...buttons: string[]) => Thenable<string | undefined>;

const askWithModal: AskPerson = (message, options, ...buttons) => vscode.window.showWarningMessage(message, options, ...buttons);

/**
 * Asks the person before `bash` runs a command the allow list does not cover: a modal warning
 * whose message is the intent and whose detail is the command and its directory. "Run" approves
 * once; "Run and Always Allow This Command" also appends the exact line, as an anchored /regex/,
 * to the workspace's `magi.capabilities.tools.bash.allow`; Cancel (or Escape) declines. A cancelled
 * run declines at once; a modal cannot be closed from code, so its late answer is ignored.
 */
export class ModalCommandApproval implements CommandApproval {
  constructor(private readonly ask: AskPerson = askWithModal) {}

  async approve(request: CommandRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    if (signal.aborted) return { approved: false, reason: 'the run was cancelled' };
    const detail = `Magi wants to run:\n\n${request.command}\n\nin ${request.cwd}`;
    // A modal cannot be closed from code: an abort declines at once and a late answer is ignored.
    const answer = await abortable(this.ask(request.intent, { modal: true, detail }, RUN, RUN_AND_ALLOW), signal).catch((err: unknown) => {
      if (signal.aborted) return undefined;
      throw err;
    });
    if (signal.aborted) return { approved: false, reason: 'the run was cancelled' };
    if (answer === RUN) return { approved: true };
    if (answer === RUN_AND_ALLOW) {
      await rememberAllowed(request.command);
      return { approved: true };
    }
    return { approved: false, reason: 'declined in the approval prompt' };
  }
}


/** The allow-list entry that matches exactly `command` and nothing else. */
export function exactEntry(command: string): string {
  return `/^${command.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$/`;
}

/**
 * Appends the command's exact entry to the workspace's allow list (user settings when no folder is
 * open). The person already approved this run, so a failed write does not stop it: it is reported.
 */
async function rememberAllowed(command: string): Promise<void> {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const inWorkspace = (vscode.workspace.workspaceFolders?.length ?? 0) > 0;
  const inspected = config.inspect<unknown>(ALLOW_KEY);
  const current = inWorkspace ? inspected?.workspaceValue : inspected?.globalValue;
  const entries = Array.isArray(current) ? current.filter((e): e is string => typeof e === 'string') : [];
  const entry = exactEntry(command);
  if (entries.includes(entry)) return;
  try {
    await config.update(ALLOW_KEY, [...entries, entry], inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
  } catch (err) {
    void vscode.window.showErrorMessage(`Magi ran the command but could not add it to ${SETTINGS_SECTION}.${ALLOW_KEY}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
